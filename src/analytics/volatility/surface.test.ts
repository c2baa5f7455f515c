import { describe, expect, it } from 'vitest';
import { forwardOf, strikeRange, sviChain, type ChainSpec } from './chain.fixtures.js';
import { applyCalendarChecks, buildSurface, calendarCheck, type ExpirationSurface } from './surface.js';
import type { SviParameters } from './svi.js';

const spot = 100;
const rate = 0.04;
const dividendYield = 0.015;
const strikes = strikeRange(60, 140, 1);
/** Per-year raw SVI; total variance scales with T, so w(k, T) grows with T at every k (no calendar arbitrage). */
const perYear: SviParameters = { a: 0.016, b: 0.2, rho: -0.5, m: 0.02, sigma: 0.1 };
const scaled = (time: number, factor = 1): SviParameters => ({ ...perYear, a: perYear.a * time * factor, b: perYear.b * time * factor });
const spec = (time: number, factor = 1): ChainSpec => ({ spot, rate, dividendYield, time, smile: scaled(time, factor), strikes });
const times = [7 / 365, 30 / 365, 90 / 365];

function surfaceOf(factors: readonly number[]): ExpirationSurface[] {
  return buildSurface({ spot, rate, expirations: times.map((time, i) => ({ time, quotes: sviChain(spec(time, factors[i])) })) });
}

describe('buildSurface', () => {
  it('gives each expiration its forward, volatilities and an SVI smile that passes both checks', () => {
    const surface = surfaceOf([1, 1, 1]);
    surface.forEach((e, i) => {
      expect(e.time).toBe(times[i]);
      expect(Math.abs(e.forward!.forward - forwardOf(spec(e.time)))).toBeLessThan(1e-9);
      expect(Math.abs(e.forward!.dividendYield! - dividendYield)).toBeLessThan(1e-9);
      expect(e.quotes).toHaveLength(2 * strikes.length);
      expect(e.smile!.fit.method).toBe('svi');
      expect(e.smile!.fit.butterfly_ok).toBe(true);
      expect(e.smile!.fit.calendar_ok).toBe(true);
      expect(e.smile!.fit.rmse_vol_points).toBeLessThan(1e-3);
    });
  });

  it('keeps the input order whatever the expirations’ order', () => {
    const reversed = buildSurface({
      spot,
      rate,
      expirations: [...times].reverse().map((time) => ({ time, quotes: sviChain(spec(time)) })),
    });
    expect(reversed.map((e) => e.time)).toEqual([...times].reverse());
    expect(reversed.every((e) => e.smile!.fit.calendar_ok)).toBe(true);
  });

  it('turns SVI smiles of a pair with calendar arbitrage into interpolated ones, and flags the pair when the quotes cross', () => {
    // The 30-day chain is quoted at a fifth of its variance (6/365 of a year's): below the 7-day one at every strike.
    const surface = surfaceOf([1, 0.2, 1]);
    const [first, second, third] = surface as [ExpirationSurface, ExpirationSurface, ExpirationSurface];
    for (const e of [first, second]) {
      expect(e.smile!.fit.method).toBe('interpolated');
      expect(e.smile!.fit.fallback_reason).toBe('calendar_arbitrage');
      expect(e.smile!.fit.calendar_ok).toBe(false);
    }
    expect(third.smile!.fit.method).toBe('svi');
    expect(third.smile!.fit.calendar_ok).toBe(true);
  });

  it('without a spot: volatilities and smile on the parity forward, no deltas, no dividend yield', () => {
    const [e] = buildSurface({ spot: null, rate, expirations: [{ time: times[1]!, quotes: sviChain(spec(times[1]!)) }] });
    expect(Math.abs(e!.forward!.forward - forwardOf(spec(times[1]!)))).toBeLessThan(1e-9);
    expect(e!.forward!.dividendYield).toBeNull();
    expect(e!.smile!.fit.method).toBe('svi');
    expect(e!.quotes.every((q) => q.delta === null)).toBe(true);
    expect(e!.quotes.filter((q) => q.midVolatility !== null).length).toBeGreaterThan(100);
  });

  it('leaves an expiration without a two-sided strike without forward or smile', () => {
    const calls = sviChain(spec(times[1]!)).filter((q) => q.type === 'call');
    const [e] = buildSurface({ spot, rate, expirations: [{ time: times[1]!, quotes: calls }] });
    expect(e!.forward).toBeNull();
    expect(e!.smile).toBeNull();
  });
});

describe('calendarCheck', () => {
  it('compares total variance on the moneyness both smiles quote, and passes smiles that do not overlap', () => {
    const [short, long] = surfaceOf([1, 1, 1]);
    const check = calendarCheck(short!.smile!, long!.smile!);
    expect(check.ok).toBe(true);
    expect(check.minDifference).toBeGreaterThan(0);
    expect(calendarCheck(long!.smile!, short!.smile!).ok).toBe(false);
    const narrow = { ...short!.smile!, points: short!.smile!.points.filter((p) => p.moneyness > 0.3) };
    const other = { ...long!.smile!, points: long!.smile!.points.filter((p) => p.moneyness < -0.3) };
    expect(calendarCheck(other, narrow).ok).toBe(true);
    expect(applyCalendarChecks([null, short!.smile!, null])).toEqual([null, short!.smile!, null]);
  });
});
