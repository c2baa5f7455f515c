import { describe, expect, it } from 'vitest';
import { bsmGreeks } from '../pricing.js';
import { valueContracts, type PositioningContract, type ValuedContract } from './contracts.js';
import { gammaFlip, gammaFlipWithout, gammaNodes, netGammaProfile, netGammaProfileAt, nodeGamma, sweepPrices } from './gamma-flip.js';
import { SIMULATED_MARKET, simulatedChain } from './simulated-chain.fixtures.js';

const { spot, rate } = SIMULATED_MARKET;

/** The net gamma profile from the pricing core, contract by contract (no grouping, no shortcut). */
function profileFromPricingCore(contracts: readonly ValuedContract[], x: number): number {
  let sum = 0;
  for (const c of contracts) {
    if (c.volatility === null || !(c.time > 0)) continue;
    sum +=
      bsmGreeks({ type: c.type, spot: x, strike: c.strike, time: c.time, rate, dividendYield: c.dividendYield, volatility: c.volatility })
        .gamma *
      c.position *
      c.multiplier;
  }
  return sum;
}

describe('nodeGamma', () => {
  it('equals the pricing core’s gamma (to 1e-12 relative: e^{−d1²/2} without bsmGreeks’ split square)', () => {
    for (const [strike, time, volatility, q, x] of [
      [100, 0.25, 0.2, 0.01, 100],
      [90, 0.01, 0.35, 0, 97.3],
      [120, 2, 0.15, 0.03, 81],
      [100, 6 / 8760, 0.22, 0.01, 100.5],
    ] as const) {
      const want = bsmGreeks({ type: 'call', spot: x, strike, time, rate, dividendYield: q, volatility }).gamma;
      const got = nodeGamma({ strike, time, volatility, dividendYield: q, weight: 1 }, x, rate);
      expect(Math.abs(got - want)).toBeLessThanOrEqual(1e-12 * want);
    }
  });
});

describe('gammaFlip on a simulated chain (property)', () => {
  it('every sign change of the net gamma profile is a candidate and every candidate a sign change', () => {
    let seen = 0;
    for (const seed of [1, 7, 42, 2026, 31337]) {
      const contracts = simulatedChain(seed);
      expect(contracts.every((c) => c.greeks !== null)).toBe(true);
      const flip = gammaFlip(contracts, spot, rate);
      // An independent look: the profile from bsmGreeks on a grid eight times finer than the sweep's.
      const n = 6400;
      const changes: [number, number][] = [];
      let previous: { x: number; sign: number } | null = null;
      for (let i = 0; i <= n; i++) {
        const x = 80 + (40 * i) / n;
        const sign = Math.sign(profileFromPricingCore(contracts, x));
        if (sign === 0) continue;
        if (previous !== null && sign !== previous.sign) changes.push([previous.x, x]);
        previous = { x, sign };
      }
      expect(flip.candidates).toHaveLength(changes.length);
      flip.candidates.forEach((c, i) => {
        const [lo, hi] = changes[i] as [number, number];
        expect(c).toBeGreaterThanOrEqual(lo);
        expect(c).toBeLessThanOrEqual(hi);
        const delta = 1e-7 * spot;
        expect(Math.sign(profileFromPricingCore(contracts, c - delta)) * Math.sign(profileFromPricingCore(contracts, c + delta))).toBe(-1);
      });
      if (flip.candidates.length > 0) {
        const nearest = [...flip.candidates].sort((a, b) => Math.abs(a - spot) - Math.abs(b - spot))[0];
        expect(flip.flip).toBe(nearest);
        expect(flip.farFromUnderlying).toBe(false);
      }
      seen += changes.length;
    }
    expect(seen).toBeGreaterThanOrEqual(5); // the seeds do exercise sign changes
  });

  it('one sweep for both flips gives what two separate sweeps give', () => {
    for (const seed of [1, 42]) {
      const contracts = simulatedChain(seed);
      const near = (c: ValuedContract): boolean => c.dateOfExpiry === '2026-11-25';
      const { all, without } = gammaFlipWithout(contracts, near, spot, rate);
      const separate = [
        gammaFlip(contracts, spot, rate),
        gammaFlip(
          contracts.filter((c) => !near(c)),
          spot,
          rate,
        ),
      ];
      [all, without].forEach((got, i) => {
        const want = separate[i] as ReturnType<typeof gammaFlip>;
        expect(got.candidates).toHaveLength(want.candidates.length);
        got.candidates.forEach((c, j) => expect(Math.abs(c - (want.candidates[j] as number))).toBeLessThan(1e-8));
        expect(got.farFromUnderlying).toBe(want.farFromUnderlying);
      });
    }
  });

  it('groups contracts of one strike, time, volatility and carry into one node', () => {
    const contracts = simulatedChain(1);
    const nodes = gammaNodes(contracts);
    expect(nodes.length).toBeLessThanOrEqual(contracts.length / 2);
    const total = nodes.reduce((s, n) => s + n.weight, 0);
    expect(total).toBe(contracts.reduce((s, c) => s + c.position * c.multiplier, 0));
  });
});

describe('gammaFlip edge cases', () => {
  const contract = (type: 'call' | 'put', strike: number, openInterest: number): PositioningContract => ({
    dateOfExpiry: '2026-12-18',
    daysToExpiry: 28,
    strike,
    type,
    multiplier: 100,
    openInterest,
    time: 28 / 365,
    volatility: 0.2,
    dividendYield: 0,
  });

  it('one sign everywhere: no flip, far from the underlying', () => {
    const calls = valueContracts([contract('call', 100, 1000)], { spot, rate }, 'classic_oi');
    expect(gammaFlip(calls, spot, rate)).toEqual({ candidates: [], flip: null, farFromUnderlying: true });
  });

  it('no gamma at all: far_from_underlying null', () => {
    const unvalued = valueContracts([{ ...contract('call', 100, 1000), volatility: null }], { spot, rate }, 'classic_oi');
    expect(gammaFlip(unvalued, spot, rate)).toEqual({ candidates: [], flip: null, farFromUnderlying: null });
    expect(gammaFlip([], spot, rate).farFromUnderlying).toBeNull();
  });

  it('equal calls above and puts below at equal volatility and no carry cross where the two gammas are equal', () => {
    // Calls at 110 long, puts at 90 short, same size, σ = 0.2, r = q = 0: the net is 0 where
    // Γ(x; 110) = Γ(x; 90), i.e. φ(d1(110)) = φ(d1(90)), d1(110) = −d1(90) with
    // d1(K) = (ln(x/K) + σ²T/2)/(σ√T): 2 ln x = ln(110·90) − σ²T, x = √(110·90)·e^{−σ²T/2}.
    const T = 28 / 365;
    const contracts = valueContracts([contract('call', 110, 1000), contract('put', 90, 1000)], { spot, rate: 0 }, 'classic_oi');
    const flip = gammaFlip(contracts, spot, 0);
    const want = Math.sqrt(110 * 90) * Math.exp(-0.5 * 0.04 * T);
    expect(flip.candidates).toHaveLength(1);
    expect(Math.abs((flip.flip as number) - want)).toBeLessThan(1e-8);
  });
});

describe('netGammaProfileAt (the sweep node by node)', () => {
  /** The profile price by price, as netGammaProfile evaluates it (the sweep before the node-by-node form). */
  const pointwise = (nodes: ReturnType<typeof gammaNodes>, prices: readonly number[]): number[] => prices.map(netGammaProfile(nodes, rate));

  it('equals the profile evaluated price by price to the last bit, on simulated chains and with far, short-dated nodes', () => {
    const prices = sweepPrices(spot);
    for (const seed of [1, 7, 42]) {
      const nodes = gammaNodes(simulatedChain(seed));
      // Nodes whose gamma is exactly 0 at part or all of the sweep: an hour to settlement far from
      // the money, and strikes outside the sweep.
      const far = [
        { strike: 70, time: 1 / 8760, volatility: 0.2, dividendYield: 0.01, weight: -5000 },
        { strike: 121, time: 2 / 8760, volatility: 0.15, dividendYield: 0.01, weight: 3000 },
        { strike: 100.2, time: 0.5 / 8760, volatility: 0.1, dividendYield: 0, weight: 700 },
      ];
      for (const set of [nodes, [...far, ...nodes], [...nodes, ...far]]) {
        const got = netGammaProfileAt(set, rate, prices);
        const want = pointwise(set, prices);
        expect(got).toHaveLength(want.length);
        want.forEach((w, i) =>
          expect(Object.is(got[i], w) || (got[i] === 0 && w === 0), `price ${prices[i]}: ${got[i]} vs ${w}`).toBe(true),
        );
      }
    }
  });

  it('gives the flips the price-by-price sweep gives, exactly', () => {
    for (const seed of [1, 42, 2026]) {
      const contracts = simulatedChain(seed);
      const near = (c: ValuedContract): boolean => c.dateOfExpiry === '2026-11-25';
      const prices = sweepPrices(spot);
      const restNodes = gammaNodes(contracts.filter((c) => !near(c)));
      const leftNodes = gammaNodes(contracts.filter(near));
      const rest = pointwise(restNodes, prices);
      const all = rest.map((v, i) => v + netGammaProfile(leftNodes, rate)(prices[i] as number));
      // The sign changes of the pointwise samples bracket the candidates, one each.
      const { all: flip, without } = gammaFlipWithout(contracts, near, spot, rate);
      for (const [values, got] of [
        [all, flip],
        [rest, without],
      ] as const) {
        const brackets: [number, number][] = [];
        let previous: { x: number; sign: number } | null = null;
        values.forEach((v, i) => {
          const sign = Math.sign(v);
          if (sign === 0) return;
          if (previous !== null && sign !== previous.sign) brackets.push([previous.x, prices[i] as number]);
          previous = { x: prices[i] as number, sign };
        });
        expect(got.candidates).toHaveLength(brackets.length);
        got.candidates.forEach((c, j) => {
          expect(c).toBeGreaterThanOrEqual(brackets[j]![0]);
          expect(c).toBeLessThanOrEqual(brackets[j]![1]);
        });
      }
    }
  });
});
