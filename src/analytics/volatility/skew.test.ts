import { describe, expect, it } from 'vitest';
import { forwardOf, strikeRange, sviChain, type ChainSpec } from './chain.fixtures.js';
import { smileMeasures } from './delta-measures.js';
import { expirationSkew } from './skew.js';
import { buildSurface, chainAtmVolatility } from './surface.js';

const spec: ChainSpec = {
  spot: 100,
  rate: 0.04,
  dividendYield: 0.015,
  time: 0.1,
  smile: { a: 0.0016, b: 0.02, rho: -0.5, m: 0.02, sigma: 0.1 },
  strikes: strikeRange(70, 130, 1),
};

describe('expirationSkew', () => {
  it("assembles the forward, the smile's measures, the points by strike and the fit", () => {
    const [e] = buildSurface({ spot: spec.spot, rate: spec.rate, expirations: [{ time: spec.time, quotes: sviChain(spec) }] });
    const skew = expirationSkew(e!);
    expect(skew.forward).toBe(e!.forward!.forward);
    expect(skew.fit).toBe(e!.smile!.fit);
    expect(skew.points).toHaveLength(spec.strikes.length);
    const measures = smileMeasures(e!.smile!, e!.market!);
    expect(skew.risk_reversal_25d).toBe(measures.risk_reversal_25d);
    expect(skew.atm_implied_volatility).toBe(measures.atm_implied_volatility);
    expect(
      Math.abs(skew.atm_implied_volatility! - Math.sqrt((0.0016 + 0.02 * (-0.5 * -0.02 + Math.sqrt(0.0004 + 0.01))) / spec.time)),
    ).toBeLessThan(1e-6);
  });

  it('is empty without a forward: no volatility is solved without the parity forward', () => {
    const calls = sviChain(spec).filter((q) => q.type === 'call');
    const [e] = buildSurface({ spot: spec.spot, rate: spec.rate, expirations: [{ time: spec.time, quotes: calls }] });
    const skew = expirationSkew(e!);
    expect(skew.forward).toBeNull();
    expect(skew.fit).toBeNull();
    expect(skew.atm_implied_volatility).toBeNull();
    expect(skew.points).toHaveLength(0); // no forward, no volatilities solved
  });
});

describe('chainAtmVolatility', () => {
  it('gives the forward and the at-the-money volatility of a few strikes around the money', () => {
    const near = { ...spec, strikes: [98, 99, 100, 101, 102, 103] };
    const atm = chainAtmVolatility({ time: spec.time, quotes: sviChain(near) }, spec.spot, spec.rate)!;
    expect(Math.abs(atm.forward - forwardOf(spec))).toBeLessThan(1e-9);
    const k0 = Math.sqrt((0.0016 + 0.02 * (-0.5 * -0.02 + Math.sqrt(0.0004 + 0.01))) / spec.time);
    expect(Math.abs(atm.volatility - k0)).toBeLessThan(2e-4);
    expect(chainAtmVolatility({ time: spec.time, quotes: [] }, spec.spot, spec.rate)).toBeNull();
  });
});
