import { describe, expect, it } from 'vitest';
import { bsmGreeks } from '../pricing.js';
import { forwardOf, QUARTER_SMILE_CHAIN, smileVolatilityAt, strikeRange, sviChain, type ChainSpec } from '../volatility/chain.fixtures.js';
import { buildSurface } from '../volatility/surface.js';
import {
  contractGreeks,
  contractVolatility,
  impliedDividendYield,
  onSurface,
  valueContracts,
  type PositioningContract,
} from './contracts.js';
import { atmVolatility } from './expiration-levels.js';

describe('impliedDividendYield', () => {
  it('recovers q from F = S·e^{(r−q)T}', () => {
    const forward = 100 * Math.exp((0.04 - 0.015) * 0.25);
    expect(Math.abs(impliedDividendYield(100, forward, 0.04, 0.25) - 0.015)).toBeLessThan(1e-14);
    expect(impliedDividendYield(100, 100, 0.04, 0)).toBe(0);
  });
});

describe('contractVolatility', () => {
  it('reads the fitted smile at ln(K/F): the smile the chain was priced from, to the fit’s accuracy', () => {
    const spec: ChainSpec = { ...QUARTER_SMILE_CHAIN, strikes: strikeRange(70, 130, 2.5) };
    const [surface] = buildSurface({ spot: spec.spot, rate: spec.rate, expirations: [{ time: spec.time, quotes: sviChain(spec) }] });
    const forward = surface?.forward?.forward ?? null;
    expect(Math.abs((forward as number) - forwardOf(spec))).toBeLessThan(1e-9);
    for (const strike of [80, 97.5, 100, 115]) {
      const got = contractVolatility(surface?.smile ?? null, forward, strike) as number;
      expect(Math.abs(got - smileVolatilityAt(spec, strike))).toBeLessThan(1e-5);
    }
  });

  it('is null without a smile or a forward', () => {
    expect(contractVolatility(null, 100, 100)).toBeNull();
  });

  it('onSurface: the smile’s volatility and the forward’s carry; atmVolatility the smile at the forward', () => {
    const spec: ChainSpec = { ...QUARTER_SMILE_CHAIN, strikes: strikeRange(70, 130, 2.5) };
    const [surface] = buildSurface({ spot: spec.spot, rate: spec.rate, expirations: [{ time: spec.time, quotes: sviChain(spec) }] });
    const listed = {
      dateOfExpiry: '2027-02-19',
      daysToExpiry: 91,
      strike: 95,
      type: 'put' as const,
      multiplier: 100,
      openInterest: 10,
      time: spec.time,
    };
    const contract = onSurface(listed, surface ?? null, spec.spot, spec.rate);
    expect(Math.abs((contract.volatility as number) - smileVolatilityAt(spec, 95))).toBeLessThan(1e-5);
    expect(Math.abs(contract.dividendYield - spec.dividendYield)).toBeLessThan(1e-9);
    // The chain's smile at k = 0 is √(w(0)/T), w the raw SVI the fixture priced with.
    const { a, b, rho, m, sigma } = spec.smile;
    const w0 = a + b * (rho * (0 - m) + Math.sqrt(m * m + sigma * sigma));
    expect(Math.abs((atmVolatility(surface?.smile ?? null) as number) - Math.sqrt(w0 / spec.time))).toBeLessThan(1e-5);
    expect(onSurface(listed, null, spec.spot, spec.rate)).toMatchObject({ volatility: null, dividendYield: 0 });
  });
});

describe('valueContracts', () => {
  const base: PositioningContract = {
    dateOfExpiry: '2026-12-18',
    daysToExpiry: 28,
    strike: 105,
    type: 'put',
    multiplier: 100,
    openInterest: 250,
    time: 28 / 365,
    volatility: 0.21,
    dividendYield: 0.01,
    flow: { bought: 40, sold: 15 },
  };

  it('gives the model’s position and the pricing core’s greeks at the valuation', () => {
    const [classic] = valueContracts([base], { spot: 101, rate: 0.04 }, 'classic_oi');
    const [flow] = valueContracts([base], { spot: 101, rate: 0.04 }, 'flow_adjusted');
    expect(classic?.position).toBe(-250);
    expect(flow?.position).toBe(-250 - 40 + 15);
    expect(classic?.greeks).toEqual(
      bsmGreeks({ type: 'put', spot: 101, strike: 105, time: 28 / 365, rate: 0.04, dividendYield: 0.01, volatility: 0.21 }),
    );
  });

  it('leaves settled contracts and contracts without a volatility unvalued', () => {
    expect(contractGreeks({ ...base, volatility: null }, 101, 0.04)).toBeNull();
    expect(contractGreeks({ ...base, time: 0 }, 101, 0.04)).toBeNull();
    expect(contractGreeks({ ...base, time: -0.001 }, 101, 0.04)).toBeNull();
  });
});
