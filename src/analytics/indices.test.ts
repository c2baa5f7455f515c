import { describe, expect, it } from 'vitest';
import {
  calculationWindow,
  changeFrom,
  indexBarRange,
  indexOf,
  lastKnownMinute,
  optionRootsOn,
  quoteSession,
  windowsAfter,
  windowsIn,
} from './indices.js';

const at = (iso: string): number => Date.parse(iso);

describe('the indices and their calculation windows', () => {
  it('knows SPX, NDX and RUT case-insensitively, with the option roots on each', () => {
    expect(indexOf('spx')?.symbol).toBe('SPX');
    expect(indexOf('VIX')).toBeNull();
    expect([optionRootsOn('SPX'), optionRootsOn('NDX'), optionRootsOn('RUT')]).toEqual([
      ['SPX', 'SPXW'],
      ['NDX', 'NDXP'],
      ['RUT', 'RUTW'],
    ]);
  });

  it('calculates 09:30 to 16:00 ET, to 13:00 on an early close, not on a holiday', () => {
    expect(calculationWindow('2026-11-20')).toEqual({
      tradingDate: '2026-11-20',
      start: at('2026-11-20T14:30:00Z'),
      end: at('2026-11-20T21:00:00Z'),
      status: 'open',
    });
    // The day after Thanksgiving closes at 13:00 ET.
    expect(calculationWindow('2026-11-27')).toMatchObject({ end: at('2026-11-27T18:00:00Z'), status: 'early_close' });
    expect(calculationWindow('2026-11-26')).toBeNull();
    // Summer time: 09:30 EDT is 13:30 UTC.
    expect(calculationWindow('2026-10-30')?.start).toBe(at('2026-10-30T13:30:00Z'));
  });

  it('cuts the windows of a range to it, skipping days without a session', () => {
    const windows = windowsIn({ start: at('2026-11-25T17:00:00Z'), end: at('2026-11-27T17:00:00Z') });
    expect(windows).toEqual([
      {
        tradingDate: '2026-11-25',
        status: 'open',
        open: at('2026-11-25T14:30:00Z'),
        start: at('2026-11-25T17:00:00Z'),
        end: at('2026-11-25T21:00:00Z'),
      },
      {
        tradingDate: '2026-11-27',
        status: 'early_close',
        open: at('2026-11-27T14:30:00Z'),
        start: at('2026-11-27T14:30:00Z'),
        end: at('2026-11-27T17:00:00Z'),
      },
    ]);
    // A next page starts after the last bucket served: one bucket on for intraday bars, the next date for day bars.
    expect(windowsAfter(windows, '5m', at('2026-11-25T20:55:00Z')).map((w) => [w.tradingDate, w.start])).toEqual([
      ['2026-11-27', at('2026-11-27T14:30:00Z')],
    ]);
    expect(windowsAfter(windows, '1h', at('2026-11-25T17:00:00Z'))[0]?.start).toBe(at('2026-11-25T18:00:00Z'));
    expect(windowsAfter(windows, '1d', at('2026-11-25T14:30:00Z')).map((w) => w.tradingDate)).toEqual(['2026-11-27']);
  });

  it('defaults a bars range to the current session, or to 366 days at 1d', () => {
    const now = at('2026-11-20T13:00:00Z'); // 08:00 ET: before the open, the previous session is the current one.
    expect(indexBarRange({ interval: '5m', now })).toEqual({ start: at('2026-11-19T14:30:00Z'), end: at('2026-11-19T21:00:00Z') });
    expect(indexBarRange({ interval: '1d', now })).toEqual({ start: now - 366 * 86_400_000, end: now });
    expect(indexBarRange({ interval: '1m', date: '2026-11-21', now })).toBeNull();
    expect(indexBarRange({ interval: '1m', startTime: now, now })).toEqual({ start: now, end: now + 7 * 86_400_000 });
  });

  it('quotes at an instant: the minute known from its end, the session begun by then, the change in points and percent', () => {
    expect(lastKnownMinute(at('2026-11-20T15:00:30Z'))).toBe(at('2026-11-20T14:59:00Z'));
    expect(lastKnownMinute(at('2026-11-20T15:00:00Z'))).toBe(at('2026-11-20T14:59:00Z'));
    expect(quoteSession(at('2026-11-23T14:00:00Z'))).toMatchObject({
      tradingDate: '2026-11-20',
      previousDate: '2026-11-19',
      calculating: false,
    });
    expect(quoteSession(at('2026-11-23T14:30:00Z'))).toMatchObject({
      tradingDate: '2026-11-23',
      previousDate: '2026-11-20',
      calculating: true,
    });
    // The calendar starts in 2000: the first days have no session, or no previous one, to quote against.
    expect(quoteSession(at('2000-01-01T00:00:00.001Z'))).toBeNull();
    expect(quoteSession(at('2000-01-03T15:00:00Z'))).toBeNull();
    expect(changeFrom(5050, 5000)).toEqual({ change: 50, changePercent: 1 });
    expect(changeFrom(5770.12, 5839.74)).toEqual({ change: -69.62, changePercent: -1.192176 });
    expect(changeFrom(null, 5000)).toEqual({ change: null, changePercent: null });
  });
});
