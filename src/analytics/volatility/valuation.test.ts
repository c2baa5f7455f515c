import { describe, expect, it } from 'vitest';
import {
  chainMinute,
  chainValuationTime,
  dataInstant,
  dataMinutesWindow,
  daysBetween,
  expirationsByDate,
  skewExpirations,
  underlyingPriceInstant,
  underlyingStale,
  valuationInstant,
  volatilitySession,
} from './valuation.js';

// 2026-11-20 is a Friday (third Friday of November); New York is on EST (UTC−5).
const at = (iso: string): number => Date.parse(iso);

describe('volatility sessions and the valuation instant', () => {
  it('runs the regular session to the options close of the root', () => {
    expect(volatilitySession('2026-11-20', 'SPXW', 'rth')).toEqual({ start: at('2026-11-20T14:30:00Z'), end: at('2026-11-20T21:15:00Z') });
    expect(volatilitySession('2026-11-20', 'AAPL', 'rth')).toEqual({ start: at('2026-11-20T14:30:00Z'), end: at('2026-11-20T21:00:00Z') });
  });

  it('has an overnight session only for a root that trades overnight', () => {
    expect(volatilitySession('2026-11-20', 'SPXW', 'gth')).toEqual({ start: at('2026-11-20T01:15:00Z'), end: at('2026-11-20T14:25:00Z') });
    expect(volatilitySession('2026-11-20', 'AAPL', 'gth')).toBeNull();
    expect(volatilitySession('2026-11-21', 'SPXW', 'rth')).toBeNull();
  });

  it('values at now inside the session, at the close after it, and not before it', () => {
    const span = { start: 1_000, end: 5_000 };
    expect(valuationInstant(span, 999)).toBeNull();
    expect(valuationInstant(span, 1_000)).toBe(1_000);
    expect(valuationInstant(span, 3_000)).toBe(3_000);
    expect(valuationInstant(span, 9_000)).toBe(5_000);
  });
});

describe('the newest minute of data (a session in progress)', () => {
  const open = at('2026-11-20T14:30:00Z');
  const close = at('2026-11-20T21:15:00Z');
  const span = { start: open, end: close };
  const minute = 60_000;

  it('values a running session at the end of the newest minute of data ended by the requested instant', () => {
    const requested = at('2026-11-20T15:45:30Z');
    // Only minutes ended by 15:45:30 are read: the newest may start at 15:44 at the latest.
    expect(dataMinutesWindow(span, requested)).toEqual({ from: open, to: at('2026-11-20T15:44:30Z') });
    expect(dataInstant(span, requested, at('2026-11-20T15:44:00Z'))).toBe(at('2026-11-20T15:45:00Z'));
    // A store two minutes behind the clock values its own newest minute, not the clock's.
    expect(dataInstant(span, requested, at('2026-11-20T15:42:00Z'))).toBe(at('2026-11-20T15:43:00Z'));
  });

  it('gives every requested instant between two loads the same instant', () => {
    const newest = at('2026-11-20T15:44:00Z');
    const instants = [5_000, 20_000, 59_999, 60_000, 90_000].map((ms) => dataInstant(span, newest + minute + ms, newest));
    expect(new Set(instants)).toEqual(new Set([newest + minute]));
  });

  it('values a session closed by the requested instant at its close, and one with no minute yet at its open', () => {
    expect(dataInstant(span, close, at('2026-11-20T21:14:00Z'))).toBe(close);
    expect(dataInstant(span, close + 3_600_000, null)).toBe(close);
    expect(dataInstant(span, open + 30_000, null)).toBe(open);
  });
});

describe('expirations of a request', () => {
  const listed = [
    { root: 'SPXW', dateOfExpiry: '2026-11-20' },
    { root: 'SPX', dateOfExpiry: '2026-11-20' },
    { root: 'SPXW', dateOfExpiry: '2026-11-23' },
    { root: 'SPXW', dateOfExpiry: '2026-11-24' },
    { root: 'SPXW', dateOfExpiry: '2026-11-25' },
    { root: 'SPXW', dateOfExpiry: '2026-11-27' },
    { root: 'SPX', dateOfExpiry: '2026-12-18' },
    { root: 'SPXW', dateOfExpiry: '2026-12-18' },
  ];

  it('keeps one root per date, the one settling later (SPXW at 16:00 over SPX at 09:30)', () => {
    const dates = expirationsByDate(listed);
    expect(dates.map((e) => `${e.root} ${e.dateOfExpiry}`)).toEqual([
      'SPXW 2026-11-20',
      'SPXW 2026-11-23',
      'SPXW 2026-11-24',
      'SPXW 2026-11-25',
      'SPXW 2026-11-27',
      'SPXW 2026-12-18',
    ]);
    expect(dates[0]?.settlement).toBe(at('2026-11-20T21:00:00Z'));
  });

  it('defaults to the nearest four settling at least an hour after the instant', () => {
    // 15:00 ET on the 20th: the 0DTE SPXW settles in exactly one hour and is kept.
    expect(skewExpirations(listed, at('2026-11-20T20:00:00Z'), null).map((e) => e.dateOfExpiry)).toEqual([
      '2026-11-20',
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
    ]);
    // One minute later it has 59 minutes to run and gives way to the 27th.
    expect(skewExpirations(listed, at('2026-11-20T20:01:00Z'), null).map((e) => e.dateOfExpiry)).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-27',
    ]);
  });

  it("on an early-close day counts the hour to run to the day's 13:00 ET close, and drops the date once it has settled", () => {
    const early = [...listed, { root: 'SPXW', dateOfExpiry: '2026-11-30' }, { root: 'SPY', dateOfExpiry: '2026-11-27' }];
    expect(expirationsByDate(early).find((e) => e.dateOfExpiry === '2026-11-27')?.settlement).toBe(at('2026-11-27T18:00:00Z'));
    // 11:59 ET on 2026-11-27: 61 minutes to the 13:00 settlement, the 0DTE is the first expiration.
    expect(skewExpirations(early, at('2026-11-27T16:59:00Z'), null)[0]?.dateOfExpiry).toBe('2026-11-27');
    // 12:01 ET: 59 minutes to run (not 3 h 59 min to 16:00): the first is the next one.
    expect(skewExpirations(early, at('2026-11-27T17:01:00Z'), null)[0]?.dateOfExpiry).toBe('2026-11-30');
    // 13:15 ET, the options close: settled, even when named.
    const close = at('2026-11-27T18:15:00Z');
    expect(skewExpirations(early, close, null)[0]?.dateOfExpiry).toBe('2026-11-30');
    expect(skewExpirations(early, close, ['2026-11-27'])).toEqual([]);
  });

  it('keeps the named expirations that are listed and not settled', () => {
    const instant = at('2026-11-20T21:15:00Z');
    expect(skewExpirations(listed, instant, ['2026-12-18', '2026-11-20', '2027-01-15']).map((e) => `${e.root} ${e.dateOfExpiry}`)).toEqual([
      'SPXW 2026-12-18',
    ]);
    expect(skewExpirations(listed, instant, ['2026-11-20'])).toEqual([]);
  });
});

describe("the underlying price's instant (an index has no price outside its calculation hours)", () => {
  it('reads an index at the valuation time in its regular session, at its close after it', () => {
    // 2026-11-25, a full day: 15:59 ET is in the session; 16:00 is the close itself; 16:14 ET reads the 16:00 close.
    expect(underlyingPriceInstant('SPX', at('2026-11-25T20:59:00Z'))).toEqual({ at: at('2026-11-25T20:59:00Z'), source: 'bar' });
    expect(underlyingPriceInstant('SPX', at('2026-11-25T21:00:00Z'))).toEqual({ at: at('2026-11-25T21:00:00Z'), source: 'bar' });
    expect(underlyingPriceInstant('SPX', at('2026-11-25T21:14:00Z'))).toEqual({ at: at('2026-11-25T21:00:00Z'), source: 'regular_close' });
    // An early close: 13:10 ET on 2026-11-27 reads the 13:00 close.
    expect(underlyingPriceInstant('SPX', at('2026-11-27T18:10:00Z'))).toEqual({ at: at('2026-11-27T18:00:00Z'), source: 'regular_close' });
  });

  it('reads an index overnight and on a holiday or weekend at the close of its last session', () => {
    // Thanksgiving night (11-26 23:17 ET) and the next morning before the open: Wednesday's 16:00 close.
    for (const t of ['2026-11-27T04:17:00Z', '2026-11-27T14:29:00Z'])
      expect(underlyingPriceInstant('SPX', at(t)), t).toEqual({ at: at('2026-11-25T21:00:00Z'), source: 'regular_close' });
    expect(underlyingPriceInstant('NDX', at('2026-11-28T15:00:00Z'))).toEqual({ at: at('2026-11-27T18:00:00Z'), source: 'regular_close' });
  });

  it('reads an ETF or a stock at the valuation time at any hour', () => {
    for (const symbol of ['SPY', 'AAPL', 'UNKNOWN'])
      expect(underlyingPriceInstant(symbol, at('2026-11-25T21:14:00Z')), symbol).toEqual({ at: at('2026-11-25T21:14:00Z'), source: 'bar' });
  });
});

describe('small rules', () => {
  it('counts calendar days between dates', () => {
    expect(daysBetween('2026-11-20', '2026-11-20')).toBe(0);
    expect(daysBetween('2026-11-20', '2026-12-18')).toBe(28);
    // Across the March daylight-saving change.
    expect(daysBetween('2026-03-06', '2026-03-09')).toBe(3);
  });

  it('calls an underlying price stale past 15 minutes or when missing', () => {
    expect(underlyingStale(null, 0)).toBe(true);
    expect(underlyingStale(0, 15 * 60_000)).toBe(false);
    expect(underlyingStale(0, 15 * 60_000 + 1)).toBe(true);
  });
});

describe('the chain minute', () => {
  const M = 60_000;
  it('takes a whole-chain snapshot over newer one-minute samples near the money', () => {
    // 8 contracts last sampled by the 11:00 snapshot (minute 0), 3 near the money at minute 7.
    expect(chainMinute([...new Array<number>(8).fill(0), 7 * M, 7 * M, 7 * M])).toBe(0);
  });
  it('takes the newest minute when most of the chain was sampled in it', () => {
    expect(chainMinute([7 * M, 7 * M, 7 * M, 0, 0])).toBe(7 * M);
    // An even split takes the older minute, where the whole chain can be valued together.
    expect(chainMinute([7 * M, 7 * M, 0, 0])).toBe(0);
    expect(chainMinute([])).toBeNull();
  });
  it('values at the end of the chain minute, not after the instant', () => {
    expect(chainValuationTime(7 * M, 9 * M)).toBe(8 * M);
    expect(chainValuationTime(7 * M, 7 * M + 30_000)).toBe(7 * M + 30_000);
  });
});
