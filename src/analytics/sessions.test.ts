import { describe, expect, it } from 'vitest';
import { CalendarRangeError, tradingDaysBetween } from './calendar.js';
import {
  SESSION_SOURCES,
  marketSessions,
  optionsOvernightWindow,
  optionsRegularClose,
  type MarketSession,
  type SessionAsset,
} from './sessions.js';

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const rows = (sessions: MarketSession[]) => sessions.map((s) => [`${s.asset}.${s.session}`, iso(s.start_time), iso(s.end_time), s.status]);

describe('a regular trading day (2024-03-12, EDT)', () => {
  it('has every session with its window', () => {
    const sessions = marketSessions('2024-03-12');
    expect(rows(sessions)).toEqual([
      ['stocks.pre_market', '2024-03-12T08:00:00Z', '2024-03-12T13:30:00Z', 'regular'],
      ['stocks.regular', '2024-03-12T13:30:00Z', '2024-03-12T20:00:00Z', 'regular'],
      ['stocks.after_hours', '2024-03-12T20:00:00Z', '2024-03-13T00:00:00Z', 'regular'],
      ['options.overnight', '2024-03-12T00:15:00Z', '2024-03-12T13:25:00Z', 'regular'],
      ['options.regular', '2024-03-12T13:30:00Z', '2024-03-12T20:15:00Z', 'regular'],
      ['options.curb', '2024-03-12T20:15:00Z', '2024-03-12T21:00:00Z', 'regular'],
      ['futures.globex', '2024-03-11T22:00:00Z', '2024-03-12T21:00:00Z', 'regular'],
    ]);
    expect(sessions.every((s) => s.trading_date === '2024-03-12')).toBe(true);
  });

  it('uses EST offsets in winter (2024-01-10)', () => {
    expect(rows(marketSessions('2024-01-10', ['stocks', 'futures']))).toEqual([
      ['stocks.pre_market', '2024-01-10T09:00:00Z', '2024-01-10T14:30:00Z', 'regular'],
      ['stocks.regular', '2024-01-10T14:30:00Z', '2024-01-10T21:00:00Z', 'regular'],
      ['stocks.after_hours', '2024-01-10T21:00:00Z', '2024-01-11T01:00:00Z', 'regular'],
      ['futures.globex', '2024-01-09T23:00:00Z', '2024-01-10T22:00:00Z', 'regular'],
    ]);
  });
});

describe('an early-close day (2024-11-29, day after Thanksgiving)', () => {
  it('closes stocks at 13:00, after-hours at 17:00, index options at 13:15, futures at 13:15, with no curb', () => {
    expect(rows(marketSessions('2024-11-29'))).toEqual([
      ['stocks.pre_market', '2024-11-29T09:00:00Z', '2024-11-29T14:30:00Z', 'early_close'],
      ['stocks.regular', '2024-11-29T14:30:00Z', '2024-11-29T18:00:00Z', 'early_close'],
      ['stocks.after_hours', '2024-11-29T18:00:00Z', '2024-11-29T22:00:00Z', 'early_close'],
      ['options.overnight', '2024-11-29T01:15:00Z', '2024-11-29T14:25:00Z', 'early_close'],
      ['options.regular', '2024-11-29T14:30:00Z', '2024-11-29T18:15:00Z', 'early_close'],
      ['futures.globex', '2024-11-27T23:00:00Z', '2024-11-28T18:00:00Z', 'early_close'],
      ['futures.globex', '2024-11-28T23:00:00Z', '2024-11-29T18:15:00Z', 'early_close'],
    ]);
  });

  it('also applies on the day before Independence Day (2024-07-03, EDT)', () => {
    const regular = marketSessions('2024-07-03', ['stocks']).find((s) => s.session === 'regular');
    expect(iso(regular!.end_time)).toBe('2024-07-03T17:00:00Z');
  });
});

describe('closed days', () => {
  it('has no sessions on holidays, weekends and one-off closures', () => {
    expect(marketSessions('2024-12-25')).toEqual([]);
    expect(marketSessions('2024-03-29')).toEqual([]);
    expect(marketSessions('2024-03-09')).toEqual([]);
    expect(marketSessions('2024-03-10')).toEqual([]);
    expect(marketSessions('2025-01-09')).toEqual([]);
    expect(optionsOvernightWindow('2024-12-25')).toBeNull();
    expect(optionsOvernightWindow('2024-03-09')).toBeNull();
    expect(optionsRegularClose('2024-12-25', 'equity')).toBeNull();
  });

  it('propagates calendar range errors', () => {
    expect(() => marketSessions('2036-01-02')).toThrow(CalendarRangeError);
    expect(() => optionsOvernightWindow('2024-13-01')).toThrow(CalendarRangeError);
  });
});

describe('evening-before windows', () => {
  it('starts the Monday Globex session on Sunday 18:00 ET and GTH on Sunday 20:15 ET (spring-forward weekend)', () => {
    const sessions = marketSessions('2024-03-11', ['options', 'futures']);
    const globex = sessions.find((s) => s.session === 'globex')!;
    expect(iso(globex.start_time)).toBe('2024-03-10T22:00:00Z'); // Sunday 18:00 EDT
    expect(iso(globex.end_time)).toBe('2024-03-11T21:00:00Z');
    const overnight = sessions.find((s) => s.session === 'overnight')!;
    expect(iso(overnight.start_time)).toBe('2024-03-11T00:15:00Z'); // Sunday 20:15 EDT
    expect(iso(overnight.end_time)).toBe('2024-03-11T13:25:00Z');
  });

  it('uses the fall-back offsets on the Monday after the November change', () => {
    const sessions = marketSessions('2024-11-04', ['options', 'futures']);
    expect(iso(sessions.find((s) => s.session === 'overnight')!.start_time)).toBe('2024-11-04T01:15:00Z'); // Sunday 20:15 EST
    expect(iso(sessions.find((s) => s.session === 'overnight')!.end_time)).toBe('2024-11-04T14:25:00Z');
    expect(iso(sessions.find((s) => s.session === 'globex')!.start_time)).toBe('2024-11-03T23:00:00Z'); // Sunday 18:00 EST
  });

  it('starts GTH on the evening of the holiday for the day after it', () => {
    expect(optionsOvernightWindow('2024-12-26')).toEqual({
      start_time: Date.parse('2024-12-26T01:15:00Z'), // 2024-12-25 20:15 EST
      end_time: Date.parse('2024-12-26T14:25:00Z'),
    });
    expect(iso(optionsOvernightWindow('2024-01-16')!.start_time)).toBe('2024-01-16T01:15:00Z'); // MLK Day evening
  });

  it('matches the overnight row of marketSessions', () => {
    const row = marketSessions('2024-06-20', ['options'])[0]!;
    expect(row.session).toBe('overnight');
    expect(optionsOvernightWindow('2024-06-20')).toEqual({ start_time: row.start_time, end_time: row.end_time });
  });
});

describe('optionsRegularClose', () => {
  it('separates equity options (16:00) from index and ETF options (16:15)', () => {
    expect(iso(optionsRegularClose('2024-03-12', 'equity')!)).toBe('2024-03-12T20:00:00Z');
    expect(iso(optionsRegularClose('2024-03-12', 'index_or_etf')!)).toBe('2024-03-12T20:15:00Z');
  });

  it('is 13:00 and 13:15 on early-close days', () => {
    expect(iso(optionsRegularClose('2024-12-24', 'equity')!)).toBe('2024-12-24T18:00:00Z');
    expect(iso(optionsRegularClose('2024-12-24', 'index_or_etf')!)).toBe('2024-12-24T18:15:00Z');
  });

  it('rejects unknown kinds', () => {
    expect(() => optionsRegularClose('2024-03-12', 'weekly' as 'equity')).toThrow(RangeError);
  });
});

describe('asset filter', () => {
  it('returns only the requested assets, in asset order', () => {
    expect(marketSessions('2024-03-12', ['futures']).map((s) => s.session)).toEqual(['globex']);
    expect(marketSessions('2024-03-12', ['futures', 'stocks']).map((s) => s.asset)).toEqual(['stocks', 'stocks', 'stocks', 'futures']);
    expect(marketSessions('2024-03-12', ['options', 'options']).map((s) => s.session)).toEqual(['overnight', 'regular', 'curb']);
    expect(marketSessions('2024-03-12', [])).toEqual([]);
  });

  it('rejects unknown assets', () => {
    expect(() => marketSessions('2024-03-12', ['bonds' as SessionAsset])).toThrow(RangeError);
  });
});

describe('invariants over a whole year', () => {
  it('orders sessions, keeps stock sessions contiguous and documents every window', () => {
    const order: SessionAsset[] = ['stocks', 'options', 'futures'];
    for (const date of tradingDaysBetween('2024-01-01', '2024-12-31')) {
      const sessions = marketSessions(date);
      for (const [i, s] of sessions.entries()) {
        expect(s.start_time).toBeLessThan(s.end_time);
        expect(SESSION_SOURCES[`${s.asset}.${s.session}`]).toBeTruthy();
        const previous = sessions[i - 1];
        if (previous) {
          const byAsset = order.indexOf(previous.asset) - order.indexOf(s.asset);
          expect(byAsset < 0 || (byAsset === 0 && previous.start_time < s.start_time)).toBe(true);
        }
      }
      const stocks = sessions.filter((s) => s.asset === 'stocks');
      expect(stocks[0]!.end_time).toBe(stocks[1]!.start_time);
      expect(stocks[1]!.end_time).toBe(stocks[2]!.start_time);
      for (const globex of sessions.filter((s) => s.asset === 'futures')) {
        expect(globex.end_time - globex.start_time).toBeLessThanOrEqual(23 * 3_600_000);
      }
    }
  });
});
