import { describe, expect, it } from 'vitest';
import { addDays, dayOfWeek } from '../new-york-time.js';
import { globexDay, globexTradeDate, globexTradeDateAt, isGlobexOpenAt, type GlobexDay } from './globex-calendar.js';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString().replace('.000Z', 'Z'));
const ms = (isoTime: string): number => Date.parse(isoTime);

/**
 * CME Globex equity-index holiday schedule 2025-2027, written out by hand from CME Group's holiday
 * calendars (times converted from CT to UTC by hand: EST is UTC-5 until the second Sunday of March
 * and from the first Sunday of November, EDT UTC-4 between). Each row: the date, what Globex does
 * (closed; abbreviated: a holiday session halting early whose trades belong to the next trade date;
 * early: a trade date closing at 12:15 CT), the trade date it belongs to and when trading ends.
 */
const SPECIAL: readonly [date: string, kind: 'closed' | 'abbreviated' | 'early', tradeDate: string | null, end: string | null][] = [
  ['2025-01-01', 'closed', null, null], // New Year's Day
  ['2025-01-09', 'abbreviated', '2025-01-10', '2025-01-09T14:30:00Z'], // day of mourning, halt 08:30 CT
  ['2025-01-20', 'abbreviated', '2025-01-21', '2025-01-20T18:00:00Z'], // MLK Day, halt 12:00 CT
  ['2025-02-17', 'abbreviated', '2025-02-18', '2025-02-17T18:00:00Z'], // Presidents Day
  ['2025-04-18', 'closed', null, null], // Good Friday
  ['2025-05-26', 'abbreviated', '2025-05-27', '2025-05-26T17:00:00Z'], // Memorial Day
  ['2025-06-19', 'abbreviated', '2025-06-20', '2025-06-19T17:00:00Z'], // Juneteenth
  ['2025-07-03', 'early', '2025-07-03', '2025-07-03T17:15:00Z'], // day before Independence Day, 12:15 CT
  ['2025-07-04', 'abbreviated', '2025-07-07', '2025-07-04T17:00:00Z'], // Independence Day
  ['2025-09-01', 'abbreviated', '2025-09-02', '2025-09-01T17:00:00Z'], // Labor Day
  ['2025-11-27', 'abbreviated', '2025-11-28', '2025-11-27T18:00:00Z'], // Thanksgiving
  ['2025-11-28', 'early', '2025-11-28', '2025-11-28T18:15:00Z'], // day after Thanksgiving
  ['2025-12-24', 'early', '2025-12-24', '2025-12-24T18:15:00Z'], // Christmas Eve
  ['2025-12-25', 'closed', null, null], // Christmas
  ['2026-01-01', 'closed', null, null],
  ['2026-01-19', 'abbreviated', '2026-01-20', '2026-01-19T18:00:00Z'],
  ['2026-02-16', 'abbreviated', '2026-02-17', '2026-02-16T18:00:00Z'],
  ['2026-04-03', 'abbreviated', '2026-04-06', '2026-04-03T13:15:00Z'], // Good Friday, employment report: 08:15 CT
  ['2026-05-25', 'abbreviated', '2026-05-26', '2026-05-25T17:00:00Z'],
  ['2026-06-19', 'abbreviated', '2026-06-22', '2026-06-19T17:00:00Z'],
  ['2026-07-03', 'abbreviated', '2026-07-06', '2026-07-03T17:00:00Z'], // Independence Day observed
  ['2026-09-07', 'abbreviated', '2026-09-08', '2026-09-07T17:00:00Z'],
  ['2026-11-26', 'abbreviated', '2026-11-27', '2026-11-26T18:00:00Z'],
  ['2026-11-27', 'early', '2026-11-27', '2026-11-27T18:15:00Z'],
  ['2026-12-24', 'early', '2026-12-24', '2026-12-24T18:15:00Z'],
  ['2026-12-25', 'closed', null, null],
  ['2027-01-01', 'closed', null, null],
  ['2027-01-18', 'abbreviated', '2027-01-19', '2027-01-18T18:00:00Z'],
  ['2027-02-15', 'abbreviated', '2027-02-16', '2027-02-15T18:00:00Z'],
  ['2027-03-26', 'closed', null, null], // Good Friday
  ['2027-05-31', 'abbreviated', '2027-06-01', '2027-05-31T17:00:00Z'],
  ['2027-06-18', 'abbreviated', '2027-06-21', '2027-06-18T17:00:00Z'], // Juneteenth observed
  ['2027-07-05', 'abbreviated', '2027-07-06', '2027-07-05T17:00:00Z'], // Independence Day observed
  ['2027-09-06', 'abbreviated', '2027-09-07', '2027-09-06T17:00:00Z'],
  ['2027-11-25', 'abbreviated', '2027-11-26', '2027-11-25T18:00:00Z'],
  ['2027-11-26', 'early', '2027-11-26', '2027-11-26T18:15:00Z'],
  ['2027-12-24', 'closed', null, null], // Christmas observed
];

/** 17:00 ET written as UTC: 21:00Z in daylight time, 22:00Z in standard time (US rule since 2007). */
function regularCloseUtc(date: string): string {
  const year = Number(date.slice(0, 4));
  const secondSundayMarch = addDays(`${year}-03-01`, ((7 - dayOfWeek(`${year}-03-01`)) % 7) + 7);
  const firstSundayNovember = addDays(`${year}-11-01`, (7 - dayOfWeek(`${year}-11-01`)) % 7);
  const daylight = date >= secondSundayMarch && date < firstSundayNovember;
  return `${date}T${daylight ? '21' : '22'}:00:00Z`;
}

const shape = (d: GlobexDay) => [d.kind, d.trade_date, iso(d.end_time)];

describe('the CME Globex equity-index calendar, 2025-2027, against the hand-written schedule', () => {
  const special = new Map(SPECIAL.map(([date, kind, tradeDate, end]) => [date, { kind, tradeDate, end }]));

  it('matches every listed holiday and early close', () => {
    for (const [date, kind, tradeDate, end] of SPECIAL) {
      const expectedKind = kind === 'early' ? 'trade_date' : kind;
      expect(shape(globexDay(date)), date).toEqual([expectedKind, tradeDate, end]);
    }
  });

  it('answers every other weekday as a regular trade date to 17:00 ET and every weekend day as closed', () => {
    let weekdays = 0;
    for (let date = '2025-01-01'; date <= '2027-12-31'; date = addDays(date, 1)) {
      if (special.has(date)) continue;
      const weekday = dayOfWeek(date);
      if (weekday === 0 || weekday === 6) {
        expect(shape(globexDay(date)), date).toEqual(['closed', null, null]);
      } else {
        weekdays += 1;
        expect(shape(globexDay(date)), date).toEqual(['trade_date', date, regularCloseUtc(date)]);
      }
    }
    expect(weekdays).toBe(3 * 261 - SPECIAL.length); // 261 weekdays in each of the three years
  });
});

describe('the windows of a trade date', () => {
  const windows = (date: string) => globexTradeDate(date)?.windows.map((w) => [iso(w.start_time), iso(w.end_time), w.early]);

  it('opens Sunday 18:00 ET for Monday and the evening before on other days', () => {
    expect(windows('2025-03-03')).toEqual([['2025-03-02T23:00:00Z', '2025-03-03T22:00:00Z', false]]);
    expect(windows('2025-03-11')).toEqual([['2025-03-10T22:00:00Z', '2025-03-11T21:00:00Z', false]]);
    expect(globexTradeDate('2025-03-11')?.status).toBe('regular');
  });

  it('joins a holiday session to the next trade date (MLK Day 2025, Good Friday 2026)', () => {
    expect(windows('2025-01-21')).toEqual([
      ['2025-01-19T23:00:00Z', '2025-01-20T18:00:00Z', true],
      ['2025-01-20T23:00:00Z', '2025-01-21T22:00:00Z', false],
    ]);
    expect(globexTradeDate('2025-01-21')?.status).toBe('early_close');
    expect(windows('2026-04-06')).toEqual([
      ['2026-04-02T22:00:00Z', '2026-04-03T13:15:00Z', true],
      ['2026-04-05T22:00:00Z', '2026-04-06T21:00:00Z', false],
    ]);
  });

  it('runs Thanksgiving into its early-close Friday and reopens after Christmas and Good Friday closures', () => {
    expect(windows('2025-11-28')).toEqual([
      ['2025-11-26T23:00:00Z', '2025-11-27T18:00:00Z', true],
      ['2025-11-27T23:00:00Z', '2025-11-28T18:15:00Z', true],
    ]);
    expect(windows('2025-12-26')).toEqual([['2025-12-25T23:00:00Z', '2025-12-26T22:00:00Z', false]]);
    expect(windows('2025-04-21')).toEqual([['2025-04-20T22:00:00Z', '2025-04-21T21:00:00Z', false]]);
    expect(windows('2025-07-07')).toEqual([
      ['2025-07-03T22:00:00Z', '2025-07-04T17:00:00Z', true],
      ['2025-07-06T22:00:00Z', '2025-07-07T21:00:00Z', false],
    ]);
  });

  it('has no session on a date that is not a trade date', () => {
    expect(globexTradeDate('2025-01-20')).toBeNull();
    expect(globexTradeDate('2025-12-25')).toBeNull();
    expect(globexTradeDate('2025-03-08')).toBeNull();
  });
});

describe('the trade date of an instant', () => {
  it('is the session containing it, or the next one during halts, weekends and holidays', () => {
    expect(globexTradeDateAt(ms('2025-03-11T15:00:00Z'))).toEqual({ trade_date: '2025-03-11', trading: true });
    expect(globexTradeDateAt(ms('2025-03-11T21:30:00Z'))).toEqual({ trade_date: '2025-03-12', trading: false }); // daily halt
    expect(globexTradeDateAt(ms('2025-03-11T22:00:00Z'))).toEqual({ trade_date: '2025-03-12', trading: true });
    expect(globexTradeDateAt(ms('2025-03-08T12:00:00Z'))).toEqual({ trade_date: '2025-03-10', trading: false }); // Saturday
    expect(globexTradeDateAt(ms('2025-01-20T15:00:00Z'))).toEqual({ trade_date: '2025-01-21', trading: true }); // MLK morning
    expect(globexTradeDateAt(ms('2025-01-20T20:00:00Z'))).toEqual({ trade_date: '2025-01-21', trading: false }); // after the halt
    expect(globexTradeDateAt(ms('2025-12-25T15:00:00Z'))).toEqual({ trade_date: '2025-12-26', trading: false }); // Christmas
    expect(isGlobexOpenAt(ms('2025-12-24T18:14:59Z'))).toBe(true);
    expect(isGlobexOpenAt(ms('2025-12-24T18:15:00Z'))).toBe(false);
  });
});
