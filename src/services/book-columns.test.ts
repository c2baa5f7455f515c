import { describe, expect, it } from 'vitest';
import type { ExpirationSurface } from '../analytics/volatility/surface.js';
import { parseSurface, surfaceText } from './book-columns.js';

/** A surface-shaped value (the functions write and read any JSON value with numbers). */
const surface = (extra: Record<string, unknown> = {}): ExpirationSurface =>
  ({
    time: 0.4991990106544901,
    forward: { forward: 5855.108341775691, strikesUsed: 8 },
    quotes: [{ strike: 4725, type: 'call', bid: 1153.1, mid: 1160.15, midVolatility: 0.2513665453139368, delta: 0.8966922012767151 }],
    points: [{ moneyness: -0.21, totalVariance: 0.0315 }],
    note: 'a text with "$n" and {"$n": "NaN"} inside it stays a text',
    ...extra,
  }) as unknown as ExpirationSurface;

describe('surfaceText and parseSurface', () => {
  it('read back a surface exactly, by the plain parse when no number needed writing as text', () => {
    const plain = surface();
    const text = surfaceText(plain);
    expect(text.includes('{"$n"')).toBe(false);
    expect(parseSurface(text)).toStrictEqual(plain);
  });

  it('read back NaN, ±Infinity and -0, which JSON cannot write, as the numbers', () => {
    const special = surface({ calendar: { gap: Number.NaN, high: Number.POSITIVE_INFINITY, low: Number.NEGATIVE_INFINITY, zero: -0 } });
    const text = surfaceText(special);
    expect(text).toContain('{"$n":"NaN"}');
    const back = parseSurface(text) as unknown as { calendar: Record<string, number> };
    expect(Number.isNaN(back.calendar.gap)).toBe(true);
    expect(back.calendar.high).toBe(Number.POSITIVE_INFINITY);
    expect(back.calendar.low).toBe(Number.NEGATIVE_INFINITY);
    expect(Object.is(back.calendar.zero, -0)).toBe(true);
    expect(back).toStrictEqual(special);
  });
});
