import { describe, expect, it } from 'vitest';
import { barDates, barRange, minuteBarStart } from './option-bars.js';

const ny = (iso: string): number => Date.parse(`${iso}-05:00`);

describe('option bars: range, trading dates and bar starts', () => {
  it("defaults to the session of the current trading date, or a date's session span", () => {
    const now = ny('2026-11-20T11:00:00');
    expect(barRange({ interval: '5m', session: 'rth', now })).toEqual({
      start: ny('2026-11-20T09:30:00'),
      end: ny('2026-11-20T16:15:00') + 1,
    });
    expect(barRange({ interval: '5m', session: 'gth', date: '2026-11-23', now })).toEqual({
      start: ny('2026-11-22T20:15:00'),
      end: ny('2026-11-23T09:25:00'),
    });
    expect(barRange({ interval: '5m', session: 'rth', date: '2026-11-21', now })).toBeNull();
  });

  it("reaches the interval's longest range from one bound given alone", () => {
    const t = ny('2026-11-20T11:00:00');
    expect(barRange({ interval: '1m', session: 'rth', startTime: t, now: t })).toEqual({ start: t, end: t + 7 * 86_400_000 });
    expect(barRange({ interval: '1d', session: 'rth', endTime: t, now: t })).toEqual({ start: t - 366 * 86_400_000, end: t });
  });

  it('reads the trading dates whose selected session meets the range', () => {
    // Friday 20:00 ET to Monday 08:00 ET: Monday's overnight session (from Sunday 20:15) only.
    const weekend = { start: ny('2026-11-20T20:00:00'), end: ny('2026-11-23T08:00:00') };
    expect(barDates(weekend, 'gth').map((d) => d.tradingDate)).toEqual(['2026-11-23']);
    expect(barDates(weekend, 'rth')).toEqual([]);
    // Friday's `all` span runs to midnight before Monday: late reports of the weekend belong to it.
    expect(barDates(weekend, 'all').map((d) => d.tradingDate)).toEqual(['2026-11-20', '2026-11-23']);
    expect(barDates({ start: ny('2026-11-22T10:00:00'), end: ny('2026-11-22T11:00:00') }, 'all')).toEqual([
      { tradingDate: '2026-11-20', sessionStart: ny('2026-11-19T20:15:00') },
    ]);
    // Thanksgiving (2026-11-26) does not trade.
    const week = barDates({ start: ny('2026-11-23T00:00:00'), end: ny('2026-11-28T00:00:00') }, 'rth');
    expect(week.map((d) => d.tradingDate)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-27']);
    expect(week[0]?.sessionStart).toBe(ny('2026-11-23T09:30:00'));
    // Outside the exchange calendar nothing trades.
    expect(barDates({ start: Date.parse('2090-01-01T00:00:00Z'), end: Date.parse('2090-02-01T00:00:00Z') }, 'rth')).toEqual([]);
  });

  it('starts minute bars on the clock grid of New York time', () => {
    expect(minuteBarStart(ny('2026-11-20T09:47:31'), '5m')).toBe(ny('2026-11-20T09:45:00'));
    expect(minuteBarStart(ny('2026-11-20T09:47:31'), '1h')).toBe(ny('2026-11-20T09:00:00'));
    expect(minuteBarStart(Date.parse('2026-07-20T09:47:31-04:00'), '1h')).toBe(Date.parse('2026-07-20T09:00:00-04:00'));
  });
});
