import { describe, expect, it } from 'vitest';
import { bsmGreeks, bsmPrice } from '../pricing.js';
import { type ChainSpec, forwardOf, QUARTER_SMILE_CHAIN, smileVolatilityAt, strikeRange, sviChain } from './chain.fixtures.js';
import {
  forwardImpliedVolatility,
  midPrice,
  outOfTheMoneyPoints,
  quoteVolatilities,
  skewPoints,
  spotDelta,
  type ExpirationMarket,
} from './quotes.js';

describe('midPrice', () => {
  it('needs both sides, a positive bid and an uncrossed quote', () => {
    expect(midPrice(1, 1.2)).toBeCloseTo(1.1, 15);
    expect(midPrice(1, 1)).toBe(1); // locked is a quote
    expect(midPrice(0, 1.2)).toBeNull(); // a zero bid is no bid
    expect(midPrice(null, 1.2)).toBeNull();
    expect(midPrice(1, null)).toBeNull();
    expect(midPrice(1.3, 1.2)).toBeNull(); // crossed
    expect(midPrice(Number.NaN, 1.2)).toBeNull();
  });
});

describe('forwardImpliedVolatility', () => {
  it("solves Hull's textbook example on the forward: S = 42, K = 40, r = 10%, T = 0.5, σ = 20% gives c = 4.76, p = 0.81", () => {
    // J. C. Hull, "Options, Futures, and Other Derivatives", the Black-Scholes-Merton worked example
    // (prices published to the cent, so σ is pinned to about ±0.0005 here).
    const market: ExpirationMarket = { spot: 42, forward: 42 * Math.exp(0.1 * 0.5), time: 0.5, rate: 0.1 };
    expect(Math.abs(forwardImpliedVolatility('call', 4.76, 40, market)! - 0.2)).toBeLessThan(5e-4);
    expect(Math.abs(forwardImpliedVolatility('put', 0.81, 40, market)! - 0.2)).toBeLessThan(2e-3);
  });

  it('inverts bsmPrice on the spot with a dividend yield to 1e-10 (in-the-money prices pin σ to ~ε·price/vega)', () => {
    const spot = 5000;
    const rate = 0.045;
    const q = 0.013;
    const time = 30 / 365;
    const market: ExpirationMarket = { spot, forward: spot * Math.exp((rate - q) * time), time, rate };
    for (const strike of [4200, 4800, 5000, 5300, 5800]) {
      for (const type of ['call', 'put'] as const) {
        const price = bsmPrice({ type, spot, strike, time, rate, dividendYield: q, volatility: 0.17 });
        expect(Math.abs(forwardImpliedVolatility(type, price, strike, market)! - 0.17), `${type} ${strike}`).toBeLessThan(1e-10);
      }
    }
  });
});

const spec: ChainSpec = {
  ...QUARTER_SMILE_CHAIN,
  strikes: strikeRange(70, 130, 5),
};
const market: ExpirationMarket & { spot: number } = { spot: spec.spot, forward: forwardOf(spec), time: spec.time, rate: spec.rate };

describe('quoteVolatilities', () => {
  it('gives the smile volatility at the mid, bid below it and ask above it, and the spot delta', () => {
    const quotes = quoteVolatilities(sviChain(spec), market);
    expect(quotes).toHaveLength(2 * spec.strikes.length);
    for (const q of quotes) {
      const sigma = smileVolatilityAt(spec, q.strike);
      expect(Math.abs(q.midVolatility! - sigma), `${q.type} ${q.strike}`).toBeLessThan(1e-9);
      if (q.bidVolatility !== null) expect(q.bidVolatility).toBeLessThan(q.midVolatility!);
      expect(q.askVolatility!).toBeGreaterThan(q.midVolatility!);
      const greeks = bsmGreeks({
        type: q.type,
        spot: spec.spot,
        strike: q.strike,
        time: spec.time,
        rate: spec.rate,
        dividendYield: spec.dividendYield,
        volatility: q.midVolatility!,
      });
      expect(Math.abs(q.delta! - greeks.delta)).toBeLessThan(1e-12);
    }
  });

  it("solves only the mids with sides = 'mid'", () => {
    const all = quoteVolatilities(sviChain(spec), market);
    const mids = quoteVolatilities(sviChain(spec), market, 'mid');
    mids.forEach((q, i) => {
      expect(q.midVolatility).toBe(all[i]!.midVolatility);
      expect(q.delta).toBe(all[i]!.delta);
      expect([q.bidVolatility, q.askVolatility]).toEqual([null, null]);
    });
  });

  it('leaves the bid and mid volatilities null where the bid is zero or missing', () => {
    const [q] = quoteVolatilities([{ strike: 60, type: 'put', bid: 0, ask: 0.05 }], market);
    expect(q!.bidVolatility).toBeNull();
    expect(q!.mid).toBeNull();
    expect(q!.midVolatility).toBeNull();
    expect(q!.delta).toBeNull();
    expect(q!.askVolatility).toBeGreaterThan(0);
  });
});

describe('spotDelta', () => {
  it('is e^{−qT}Φ(d1) for calls and −e^{−qT}Φ(−d1) for puts: bsmGreeks at the implied yield', () => {
    for (const type of ['call', 'put'] as const) {
      const greeks = bsmGreeks({ type, spot: 100, strike: 105, time: 0.25, rate: 0.04, dividendYield: 0.015, volatility: 0.22 });
      expect(Math.abs(spotDelta(type, 105, 0.22, market) - greeks.delta)).toBeLessThan(1e-13);
    }
  });
});

describe('outOfTheMoneyPoints', () => {
  it('keeps the put below the forward and the call at or above it, ascending, with k = ln(K/F)', () => {
    const points = outOfTheMoneyPoints(quoteVolatilities(sviChain(spec), market), market);
    expect(points.map((p) => p.strike)).toEqual([...spec.strikes]);
    for (const p of points) {
      expect(p.type).toBe(p.strike < market.forward ? 'put' : 'call');
      expect(p.moneyness).toBeCloseTo(Math.log(p.strike / market.forward), 15);
      expect(p.totalVariance).toBeCloseTo(p.volatility ** 2 * spec.time, 15);
      // The spread in volatility is the price spread over vega: close to ask minus bid volatility.
      if (p.bidVolatility !== null)
        expect(Math.abs(p.volatilitySpread - (p.askVolatility! - p.bidVolatility)) / p.volatilitySpread).toBeLessThan(0.05);
    }
  });

  it('drops a strike whose out-of-the-money leg has no mid, not taking the in-the-money leg instead', () => {
    const quotes = sviChain(spec).map((q) => (q.strike === 90 && q.type === 'put' ? { ...q, bid: null } : q));
    const points = outOfTheMoneyPoints(quoteVolatilities(quotes, market), market);
    expect(points.map((p) => p.strike)).not.toContain(90);
    expect(points).toHaveLength(spec.strikes.length - 1);
  });
});

describe('skewPoints', () => {
  it('pairs the legs of each strike, ascending, with moneyness and the out-of-the-money volatility', () => {
    const quotes = quoteVolatilities([...sviChain(spec)].reverse(), market);
    const points = skewPoints(quotes, market.forward);
    expect(points.map((p) => p.strike)).toEqual([...spec.strikes]);
    for (const p of points) {
      const call = quotes.find((q) => q.strike === p.strike && q.type === 'call')!;
      const put = quotes.find((q) => q.strike === p.strike && q.type === 'put')!;
      expect(p.call_implied_volatility).toBe(call.midVolatility);
      expect(p.call_delta).toBe(call.delta);
      expect(p.put_implied_volatility).toBe(put.midVolatility);
      expect(p.put_delta).toBe(put.delta);
      expect(p.moneyness).toBeCloseTo(Math.log(p.strike / market.forward), 15);
      expect(p.otm_implied_volatility).toBe(p.strike < market.forward ? put.midVolatility : call.midVolatility);
    }
  });

  it('leaves moneyness and the out-of-the-money volatility null without a forward', () => {
    const [p] = skewPoints(quoteVolatilities([{ strike: 100, type: 'call', bid: 4, ask: 4.2 }], market), null);
    expect(p!.moneyness).toBeNull();
    expect(p!.otm_implied_volatility).toBeNull();
    expect(p!.put_implied_volatility).toBeNull();
    expect(p!.call_implied_volatility).toBeGreaterThan(0);
  });
});
