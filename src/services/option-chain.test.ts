import { describe, expect, it } from 'vitest';
import { bsmPrice } from '../analytics/pricing.js';
import { chainGreeks } from './option-chain.js';

describe('chainGreeks', () => {
  const rate = 0.04;
  const time = 30 / 365;
  const spot = 100;
  const forward = 100.2;
  const q = rate - Math.log(forward / spot) / time;

  it('solves the Black-76 volatility of the mid on the forward and gives spot greeks on the carry it implies', () => {
    for (const type of ['call', 'put'] as const) {
      for (const strike of [90, 100, 112]) {
        const mid = bsmPrice({ type, spot: forward, strike, time, rate, dividendYield: rate, volatility: 0.23 });
        const g = chainGreeks(type, strike, mid, forward, spot, rate, time);
        expect(g.iv).toBeCloseTo(0.23, 10);
        // Spot delta by central difference of the price at that volatility and carry.
        const price = (s: number): number => bsmPrice({ type, spot: s, strike, time, rate, dividendYield: q, volatility: g.iv! });
        expect(g.delta).toBeCloseTo((price(spot + 1e-3) - price(spot - 1e-3)) / 2e-3, 6);
        expect(g.gamma).toBeCloseTo((price(spot + 1e-2) - 2 * price(spot) + price(spot - 1e-2)) / 1e-4, 4);
        const vol = (v: number): number => bsmPrice({ type, spot, strike, time, rate, dividendYield: q, volatility: v });
        expect(g.vega).toBeCloseTo((vol(0.2301) - vol(0.2299)) / 0.0002 / 100, 6);
        expect(g.theta).toBeLessThan(0);
      }
    }
  });

  it('call and put deltas of a strike differ by the discount of the carry, e^{−qT}', () => {
    const call = chainGreeks('call', 101, 2.1, forward, spot, rate, time);
    const mid = bsmPrice({ type: 'put', spot: forward, strike: 101, time, rate, dividendYield: rate, volatility: call.iv! });
    const put = chainGreeks('put', 101, mid, forward, spot, rate, time);
    expect(put.iv).toBeCloseTo(call.iv!, 10);
    expect(call.delta! - put.delta!).toBeCloseTo(Math.exp(-q * time), 10);
  });

  it('gives nothing without a mid, a forward or time left, and no greeks without an underlying price', () => {
    const none = { iv: null, delta: null, gamma: null, theta: null, vega: null };
    expect(chainGreeks('call', 100, null, forward, spot, rate, time)).toEqual(none);
    expect(chainGreeks('call', 100, 2, null, spot, rate, time)).toEqual(none);
    expect(chainGreeks('call', 100, 2, forward, spot, rate, 0)).toEqual(none);
    expect(chainGreeks('call', 100, 0.0001, forward, spot, rate, time).iv).toBeNull();
    const priced = chainGreeks('call', 100, 2, forward, null, rate, time);
    expect(priced.iv).not.toBeNull();
    expect([priced.delta, priced.gamma, priced.theta, priced.vega]).toEqual([null, null, null, null]);
  });

  it('takes theta as one calendar day of decay, to the payoff when less than a day is left', () => {
    const short = 3 / 24 / 365;
    const g = chainGreeks('call', 101, 0.05, forward, spot, rate, short);
    expect(g.theta).toBeCloseTo(-0.05, 10);
  });
});
