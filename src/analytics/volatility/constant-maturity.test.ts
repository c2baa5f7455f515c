import { describe, expect, it } from 'vitest';
import { bracketingTerms, constantMaturityVolatility, MINUTES_PER_30_DAYS, MINUTES_PER_YEAR } from './constant-maturity.js';

describe('constantMaturityVolatility', () => {
  it('reproduces the 30-day interpolation of the Cboe VIX methodology worked example (VIX 13.93)', () => {
    // Cboe, "VIX Index Methodology": near term 34,484 minutes with σ1² = 0.019233906, next term
    // 44,954 minutes with σ2² = 0.019423884; published result VIX = 13.93.
    const near = { time: 34484 / MINUTES_PER_YEAR, volatility: Math.sqrt(0.019233906) };
    const next = { time: 44954 / MINUTES_PER_YEAR, volatility: Math.sqrt(0.019423884) };
    const sigma = constantMaturityVolatility(near, next)!;
    expect(Math.round(100 * sigma * 100) / 100).toBe(13.93);
    // The weights of the formula, written out in minutes.
    const w1 = (44954 - 43200) / (44954 - 34484);
    const w2 = (43200 - 34484) / (44954 - 34484);
    const expected = Math.sqrt((near.time * 0.019233906 * w1 + next.time * 0.019423884 * w2) * (MINUTES_PER_YEAR / MINUTES_PER_30_DAYS));
    expect(sigma).toBeCloseTo(expected, 15);
  });

  it('is the common volatility of a flat term structure and the next term at exactly 30 days', () => {
    const t30 = MINUTES_PER_30_DAYS / MINUTES_PER_YEAR;
    expect(constantMaturityVolatility({ time: 10 / 365, volatility: 0.2 }, { time: 40 / 365, volatility: 0.2 })).toBeCloseTo(0.2, 15);
    expect(constantMaturityVolatility({ time: 10 / 365, volatility: 0.3 }, { time: t30, volatility: 0.2 })).toBeCloseTo(0.2, 15);
  });

  it('interpolates total variance linearly in time: σ30²·T30 lies between T1σ1² and T2σ2² proportionally', () => {
    const t1 = 20 / 365;
    const t2 = 50 / 365;
    const sigma = constantMaturityVolatility({ time: t1, volatility: 0.25 }, { time: t2, volatility: 0.15 })!;
    const w30 = sigma * sigma * (30 / 365);
    expect(w30).toBeCloseTo(t1 * 0.0625 + ((t2 * 0.0225 - t1 * 0.0625) * (30 - 20)) / (50 - 20), 15);
  });

  it('does not extrapolate: null unless T1 < 30 days ≤ T2', () => {
    expect(constantMaturityVolatility({ time: 31 / 365, volatility: 0.2 }, { time: 40 / 365, volatility: 0.2 })).toBeNull();
    expect(constantMaturityVolatility({ time: 10 / 365, volatility: 0.2 }, { time: 20 / 365, volatility: 0.2 })).toBeNull();
    expect(constantMaturityVolatility({ time: 0, volatility: 0.2 }, { time: 40 / 365, volatility: 0.2 })).toBeNull();
    expect(constantMaturityVolatility({ time: 10 / 365, volatility: Number.NaN }, { time: 40 / 365, volatility: 0.2 })).toBeNull();
  });
});

describe('bracketingTerms', () => {
  it('picks the latest term under 30 days and the first at or over it', () => {
    const terms = [45, 2, 28, 30, 9, 60].map((d) => ({ time: d / 365, days: d }));
    const pair = bracketingTerms(terms)!;
    expect(pair.map((t) => t.days)).toEqual([28, 30]);
    expect(bracketingTerms(terms.filter((t) => t.days >= 30))).toBeNull();
  });
});
