import { describe, expect, it } from 'vitest';
import { bsmPrice } from '../pricing.js';
import { type ChainSpec, QUARTER_SMILE_CHAIN, smileVolatilityAt, strikeRange, sviChain, uniformNoise } from './chain.fixtures.js';
import { impliedForward } from './forward.js';
import { outOfTheMoneyPoints, quoteVolatilities, type ChainQuote, type ExpirationMarket, type SmilePoint } from './quotes.js';
import {
  curveSlope,
  curveTotalVariance,
  discreteButterflyOk,
  fitSmile,
  interpolatedAtmVolatility,
  MIN_SVI_QUOTES,
  smileVolatility,
  type Smile,
} from './smile.js';
import { sviTotalVariance } from './svi.js';

const spec: ChainSpec = {
  ...QUARTER_SMILE_CHAIN,
  strikes: strikeRange(70, 130, 2.5),
};

/** Quotes → forward → volatilities → out-of-the-money points, as the surface does. */
function pointsOf(s: ChainSpec, quotes: readonly ChainQuote[]): { market: ExpirationMarket; points: SmilePoint[] } {
  const forward = impliedForward({ quotes, time: s.time, rate: s.rate, spot: s.spot })!;
  const market: ExpirationMarket = { spot: s.spot, forward: forward.forward, time: s.time, rate: s.rate };
  return { market, points: outOfTheMoneyPoints(quoteVolatilities(quotes, market), market) };
}

/** The price of a point's contract at the smile's volatility, on the spot with the chain's yield. */
function repriced(s: ChainSpec, smile: Smile, p: SmilePoint): number {
  const volatility = smileVolatility(smile, p.moneyness)!;
  return bsmPrice({ type: p.type, spot: s.spot, strike: p.strike, time: s.time, rate: s.rate, dividendYield: s.dividendYield, volatility });
}

describe('fitSmile on a chain priced from a known SVI', () => {
  it('recovers the parameters and every quote, which reprices inside its spread', () => {
    const quotes = sviChain(spec);
    const { points } = pointsOf(spec, quotes);
    const smile = fitSmile(points, spec.time)!;
    expect(smile.fit.method).toBe('svi');
    expect(smile.fit.fallback_reason).toBeNull();
    expect(smile.fit.quotes_used).toBe(points.length);
    expect(smile.fit.quotes_used).toBeGreaterThan(20);
    expect(smile.fit.rmse_vol_points).toBeLessThan(1e-4);
    expect(smile.fit.max_abs_error_vol_points).toBeLessThan(1e-3);
    expect(smile.fit.butterfly_ok).toBe(true);
    expect(smile.fit.quotes_within_spread).toBe(points.length);
    if (smile.curve.method !== 'svi') throw new Error('expected svi');
    for (const key of ['a', 'b', 'rho', 'm', 'sigma'] as const)
      expect(Math.abs(smile.curve.parameters[key] - spec.smile[key]), key).toBeLessThan(1e-4);
    for (const p of points) {
      const q = quotes.find((x) => x.strike === p.strike && x.type === p.type)!;
      const price = repriced(spec, smile, p);
      expect(price, `${p.type} ${p.strike}`).toBeGreaterThanOrEqual(q.bid!);
      expect(price).toBeLessThanOrEqual(q.ask!);
    }
  });

  it('with noise inside the spreads: still SVI, near the true smile, and quotes_within_spread counts the quotes that reprice inside', () => {
    const u = uniformNoise(2026);
    const halfSpread = (p: number): number => 0.01 + 0.02 * p;
    const quotes = sviChain({ ...spec, halfSpread, noise: (_i, p) => 0.8 * halfSpread(p) * u() });
    const { points } = pointsOf(spec, quotes);
    const smile = fitSmile(points, spec.time)!;
    expect(smile.fit.method).toBe('svi');
    // Noise of up to 0.8 half-spread moves the quoted volatilities by up to ~0.6 vol points near the money.
    expect(smile.fit.rmse_vol_points).toBeLessThan(1);
    for (const p of points) {
      if (Math.abs(p.moneyness) > 0.15) continue;
      expect(Math.abs(smileVolatility(smile, p.moneyness)! - smileVolatilityAt(spec, p.strike)), `${p.strike}`).toBeLessThan(0.005);
    }
    let inside = 0;
    for (const p of points) {
      const q = quotes.find((x) => x.strike === p.strike && x.type === p.type)!;
      const price = repriced(spec, smile, p);
      if (price >= (q.bid ?? 0) - 1e-9 && price <= q.ask! + 1e-9) inside++;
    }
    expect(smile.fit.quotes_within_spread).toBe(inside);
    expect(inside).toBeGreaterThanOrEqual(Math.ceil(0.9 * points.length));
  });
});

describe('fallback to interpolation in total variance', () => {
  it(`with fewer than ${MIN_SVI_QUOTES} quotes: exact at the quotes, linear in k between, flat beyond`, () => {
    const { points } = pointsOf({ ...spec, strikes: [95, 100, 105, 110] }, sviChain({ ...spec, strikes: [95, 100, 105, 110] }));
    expect(points).toHaveLength(4);
    const smile = fitSmile(points, spec.time)!;
    expect(smile.fit.method).toBe('interpolated');
    expect(smile.fit.fallback_reason).toBe('too_few_quotes');
    expect(smile.fit.rmse_vol_points).toBe(0);
    expect(smile.fit.quotes_within_spread).toBe(4);
    const [p0, p1] = points as [SmilePoint, SmilePoint];
    const mid = 0.5 * (p0.moneyness + p1.moneyness);
    expect(curveTotalVariance(smile.curve, mid)).toBeCloseTo(0.5 * (p0.totalVariance + p1.totalVariance), 15);
    expect(curveSlope(smile.curve, mid)).toBeCloseTo((p1.totalVariance - p0.totalVariance) / (p1.moneyness - p0.moneyness), 10);
    expect(curveTotalVariance(smile.curve, -1)).toBe(p0.totalVariance);
    expect(curveTotalVariance(smile.curve, 1)).toBe(points[3]!.totalVariance);
    expect(curveSlope(smile.curve, 1)).toBe(0);
  });

  it("when the fit has butterfly arbitrage: a chain priced from Vogt's SVI (Gatheral & Jacquier 2014)", () => {
    const vogt: ChainSpec = {
      spot: 100,
      rate: 0,
      dividendYield: 0,
      time: 1,
      smile: { a: -0.041, b: 0.1331, rho: 0.306, m: 0.3586, sigma: 0.4153 },
      strikes: strikeRange(-1, 1.5, 0.05).map((k) => Math.round(100 * Math.exp(k) * 100) / 100),
      halfSpread: (p) => 1e-5 * (1 + p),
    };
    const { points } = pointsOf(vogt, sviChain(vogt));
    expect(points.length).toBeGreaterThan(40);
    const smile = fitSmile(points, vogt.time)!;
    expect(smile.fit.method).toBe('interpolated');
    expect(smile.fit.fallback_reason).toBe('butterfly_arbitrage');
    expect(smile.fit.butterfly_ok).toBe(
      discreteButterflyOk(
        smile.curve,
        points.map((p) => p.moneyness),
      ),
    );
  });

  it('is null with no quote', () => {
    expect(fitSmile([], 0.1)).toBeNull();
  });
});

describe('discreteButterflyOk', () => {
  it('accepts a smooth smile and rejects a variance spike (a call price above its neighbours’ chord)', () => {
    const ks = strikeRange(-0.3, 0.3, 0.05);
    const knots = ks.map((k) => ({ k, w: sviTotalVariance(spec.smile, k) }));
    expect(discreteButterflyOk({ method: 'interpolated', knots }, ks)).toBe(true);
    const spiked = knots.map((p, i) => (i === 6 ? { ...p, w: 4 * p.w } : p));
    expect(discreteButterflyOk({ method: 'interpolated', knots: spiked }, ks)).toBe(false);
  });
});

describe('interpolatedAtmVolatility', () => {
  it('interpolates total variance linearly in k between the strikes around the forward', () => {
    const { market, points } = pointsOf(spec, sviChain(spec));
    const below = points.filter((p) => p.moneyness < 0).at(-1)!;
    const above = points.find((p) => p.moneyness >= 0)!;
    const w = below.totalVariance + ((above.totalVariance - below.totalVariance) * -below.moneyness) / (above.moneyness - below.moneyness);
    expect(interpolatedAtmVolatility(points, spec.time)).toBeCloseTo(Math.sqrt(w / spec.time), 15);
    // Strikes 2.5 apart: the chord is within a few hundredths of a volatility point of the smile at the money.
    expect(Math.abs(interpolatedAtmVolatility(points, spec.time)! - smileVolatilityAt(spec, market.forward))).toBeLessThan(3e-4);
    expect(interpolatedAtmVolatility([], spec.time)).toBeNull();
  });
});
