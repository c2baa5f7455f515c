import { describe, expect, it } from 'vitest';
import {
  CALENDAR_FIRST_DATE,
  CALENDAR_LAST_DATE,
  CalendarRangeError,
  calendarDay,
  completedSessions,
  currentOrLastSessionDate,
  easterSunday,
  isMonthlyExpiration,
  isTradingDay,
  monthlyExpiration,
  nextTradingDay,
  previousTradingDay,
  specialDays,
  tradingDaysBetween,
} from './calendar.js';
import { addDays, dayOfWeek } from './new-york-time.js';

/**
 * Full-day closures and 1:00 p.m. early closes as NYSE published them (MM-DD within the year):
 * the yearly "Holidays and Early Closings" announcements for 2022–2028 and NYSE's historical
 * record of closings for earlier years. The one-off closures are included in `closed`.
 */
const PUBLISHED: Record<number, { closed: string[]; early: string[] }> = {
  2000: { closed: ['01-17', '02-21', '04-21', '05-29', '07-04', '09-04', '11-23', '12-25'], early: ['07-03', '11-24'] },
  2001: {
    closed: ['01-01', '01-15', '02-19', '04-13', '05-28', '07-04', '09-03', '09-11', '09-12', '09-13', '09-14', '11-22', '12-25'],
    early: ['07-03', '11-23', '12-24'],
  },
  2002: { closed: ['01-01', '01-21', '02-18', '03-29', '05-27', '07-04', '09-02', '11-28', '12-25'], early: ['07-05', '11-29', '12-24'] },
  2003: {
    closed: ['01-01', '01-20', '02-17', '04-18', '05-26', '07-04', '09-01', '11-27', '12-25'],
    early: ['07-03', '11-28', '12-24', '12-26'],
  },
  2004: { closed: ['01-01', '01-19', '02-16', '04-09', '05-31', '06-11', '07-05', '09-06', '11-25', '12-24'], early: ['11-26'] },
  2005: { closed: ['01-17', '02-21', '03-25', '05-30', '07-04', '09-05', '11-24', '12-26'], early: ['11-25'] },
  2006: { closed: ['01-02', '01-16', '02-20', '04-14', '05-29', '07-04', '09-04', '11-23', '12-25'], early: ['07-03', '11-24'] },
  2007: {
    closed: ['01-01', '01-02', '01-15', '02-19', '04-06', '05-28', '07-04', '09-03', '11-22', '12-25'],
    early: ['07-03', '11-23', '12-24'],
  },
  2008: { closed: ['01-01', '01-21', '02-18', '03-21', '05-26', '07-04', '09-01', '11-27', '12-25'], early: ['07-03', '11-28', '12-24'] },
  2009: { closed: ['01-01', '01-19', '02-16', '04-10', '05-25', '07-03', '09-07', '11-26', '12-25'], early: ['11-27', '12-24'] },
  2010: { closed: ['01-01', '01-18', '02-15', '04-02', '05-31', '07-05', '09-06', '11-25', '12-24'], early: ['11-26'] },
  2011: { closed: ['01-17', '02-21', '04-22', '05-30', '07-04', '09-05', '11-24', '12-26'], early: ['11-25'] },
  2012: {
    closed: ['01-02', '01-16', '02-20', '04-06', '05-28', '07-04', '09-03', '10-29', '10-30', '11-22', '12-25'],
    early: ['07-03', '11-23', '12-24'],
  },
  2013: { closed: ['01-01', '01-21', '02-18', '03-29', '05-27', '07-04', '09-02', '11-28', '12-25'], early: ['07-03', '11-29', '12-24'] },
  2014: { closed: ['01-01', '01-20', '02-17', '04-18', '05-26', '07-04', '09-01', '11-27', '12-25'], early: ['07-03', '11-28', '12-24'] },
  2015: { closed: ['01-01', '01-19', '02-16', '04-03', '05-25', '07-03', '09-07', '11-26', '12-25'], early: ['11-27', '12-24'] },
  2016: { closed: ['01-01', '01-18', '02-15', '03-25', '05-30', '07-04', '09-05', '11-24', '12-26'], early: ['11-25'] },
  2017: { closed: ['01-02', '01-16', '02-20', '04-14', '05-29', '07-04', '09-04', '11-23', '12-25'], early: ['07-03', '11-24'] },
  2018: {
    closed: ['01-01', '01-15', '02-19', '03-30', '05-28', '07-04', '09-03', '11-22', '12-05', '12-25'],
    early: ['07-03', '11-23', '12-24'],
  },
  2019: { closed: ['01-01', '01-21', '02-18', '04-19', '05-27', '07-04', '09-02', '11-28', '12-25'], early: ['07-03', '11-29', '12-24'] },
  2020: { closed: ['01-01', '01-20', '02-17', '04-10', '05-25', '07-03', '09-07', '11-26', '12-25'], early: ['11-27', '12-24'] },
  2021: { closed: ['01-01', '01-18', '02-15', '04-02', '05-31', '07-05', '09-06', '11-25', '12-24'], early: ['11-26'] },
  2022: { closed: ['01-17', '02-21', '04-15', '05-30', '06-20', '07-04', '09-05', '11-24', '12-26'], early: ['11-25'] },
  2023: { closed: ['01-02', '01-16', '02-20', '04-07', '05-29', '06-19', '07-04', '09-04', '11-23', '12-25'], early: ['07-03', '11-24'] },
  2024: {
    closed: ['01-01', '01-15', '02-19', '03-29', '05-27', '06-19', '07-04', '09-02', '11-28', '12-25'],
    early: ['07-03', '11-29', '12-24'],
  },
  2025: {
    closed: ['01-01', '01-09', '01-20', '02-17', '04-18', '05-26', '06-19', '07-04', '09-01', '11-27', '12-25'],
    early: ['07-03', '11-28', '12-24'],
  },
  2026: { closed: ['01-01', '01-19', '02-16', '04-03', '05-25', '06-19', '07-03', '09-07', '11-26', '12-25'], early: ['11-27', '12-24'] },
  2027: { closed: ['01-01', '01-18', '02-15', '03-26', '05-31', '06-18', '07-05', '09-06', '11-25', '12-24'], early: ['11-26'] },
  2028: { closed: ['01-17', '02-21', '04-14', '05-29', '06-19', '07-04', '09-04', '11-23', '12-25'], early: ['07-03', '11-24'] },
};

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const ny = (date: string, time: string, offsetHours: 4 | 5): number => Date.parse(`${date}T${time}:00-0${offsetHours}:00`);

describe('NYSE holidays and early closes, year by year against the published lists', () => {
  for (const [yearText, published] of Object.entries(PUBLISHED)) {
    const year = Number(yearText);
    it(`${year}`, () => {
      const closed = published.closed.map((monthDay) => `${year}-${monthDay}`);
      const early = published.early.map((monthDay) => `${year}-${monthDay}`);
      const special = specialDays(year);
      expect(special.filter((day) => day.status === 'closed').map((day) => day.date)).toEqual(closed);
      expect(special.filter((day) => day.status === 'early_close').map((day) => day.date)).toEqual(early);

      // Every other weekday is a plain 09:30–16:00 session; every weekend day is closed.
      for (let date = `${year}-01-01`; date <= `${year}-12-31`; date = addDays(date, 1)) {
        const day = calendarDay(date);
        const weekday = dayOfWeek(date);
        if (weekday === 0 || weekday === 6) {
          expect(day).toMatchObject({ status: 'closed', reason: 'Weekend', open_timestamp: null, close_timestamp: null });
        } else if (closed.includes(date)) {
          expect(day.status).toBe('closed');
          expect(day.reason).toBeTruthy();
          expect(isTradingDay(date)).toBe(false);
        } else if (early.includes(date)) {
          expect(day.status).toBe('early_close');
          expect((day.close_timestamp! - day.open_timestamp!) / 60_000).toBe(210);
        } else if (date === '2002-09-11') {
          expect(day.status).toBe('open');
        } else {
          expect(day).toMatchObject({ status: 'open', reason: null });
          expect((day.close_timestamp! - day.open_timestamp!) / 60_000).toBe(390);
          expect(isTradingDay(date)).toBe(true);
        }
      }
    });
  }

  it('counts the trading days of recent years as published (252, 250, 251, 252, 253)', () => {
    const count = (year: number) => tradingDaysBetween(`${year}-01-01`, `${year}-12-31`).length;
    expect([2024, 2023, 2022, 2021, 2020].map(count)).toEqual([252, 250, 251, 252, 253]);
  });
});

describe('holiday rules', () => {
  it('names holidays and marks the observed ones', () => {
    expect(calendarDay('2024-01-15').reason).toBe('Martin Luther King, Jr. Day');
    expect(calendarDay('2024-02-19').reason).toBe("Washington's Birthday");
    expect(calendarDay('2024-03-29').reason).toBe('Good Friday');
    expect(calendarDay('2024-11-28').reason).toBe('Thanksgiving Day');
    expect(calendarDay('2026-07-03').reason).toBe('Independence Day (observed)');
    expect(calendarDay('2027-12-24').reason).toBe('Christmas Day (observed)');
    expect(calendarDay('2023-01-02').reason).toBe("New Year's Day (observed)");
    expect(calendarDay('2024-07-04').reason).toBe('Independence Day');
  });

  it('does not observe a Saturday New Year on the Friday before (NYSE Rule 7.2, year-end)', () => {
    for (const friday of ['2004-12-31', '2010-12-31', '2021-12-31', '2027-12-31', '2032-12-31']) {
      expect(calendarDay(friday)).toMatchObject({ status: 'open', reason: null });
    }
    expect(calendarDay('2022-01-01').reason).toBe('Weekend');
    // Sunday New Year moves to Monday; the Friday before stays open.
    expect(calendarDay('2011-12-30').status).toBe('open');
    expect(calendarDay('2012-01-02')).toMatchObject({ status: 'closed', reason: "New Year's Day (observed)" });
    expect(calendarDay('2034-01-02').status).toBe('closed');
  });

  it('observes Juneteenth only from 2022, moving Saturday to Friday and Sunday to Monday', () => {
    expect(calendarDay('2020-06-19').status).toBe('open');
    expect(calendarDay('2021-06-18').status).toBe('open');
    expect(calendarDay('2022-06-20')).toMatchObject({ status: 'closed', reason: 'Juneteenth National Independence Day (observed)' });
    expect(calendarDay('2023-06-19')).toMatchObject({ status: 'closed', reason: 'Juneteenth National Independence Day' });
    expect(calendarDay('2027-06-18').status).toBe('closed');
    expect(calendarDay('2033-06-20').status).toBe('closed');
  });

  it('computes Easter with the Gregorian computus', () => {
    expect(easterSunday(2000)).toBe('2000-04-23');
    expect(easterSunday(2008)).toBe('2008-03-23');
    expect(easterSunday(2019)).toBe('2019-04-21');
    expect(easterSunday(2024)).toBe('2024-03-31');
    expect(easterSunday(2035)).toBe('2035-03-25');
    expect(calendarDay('2035-03-23').reason).toBe('Good Friday');
  });

  it('keeps the projected years on the same rules', () => {
    expect(
      specialDays(2032)
        .filter((day) => day.status === 'closed')
        .map((day) => day.date),
    ).toEqual([
      '2032-01-01',
      '2032-01-19',
      '2032-02-16',
      '2032-03-26',
      '2032-05-31',
      '2032-06-18',
      '2032-07-05',
      '2032-09-06',
      '2032-11-25',
      '2032-12-24',
    ]);
    expect(calendarDay('2030-07-03').status).toBe('early_close');
  });
});

describe('one-off closures and session changes', () => {
  it('closes for the September 11 attacks, presidential mourning days and Hurricane Sandy', () => {
    const expected: [string, string][] = [
      ['2001-09-11', 'September 11 attacks'],
      ['2001-09-14', 'September 11 attacks'],
      ['2004-06-11', 'National day of mourning for President Ronald Reagan'],
      ['2007-01-02', 'National day of mourning for President Gerald R. Ford'],
      ['2012-10-29', 'Hurricane Sandy'],
      ['2012-10-30', 'Hurricane Sandy'],
      ['2018-12-05', 'National day of mourning for President George H. W. Bush'],
      ['2025-01-09', 'National day of mourning for President Jimmy Carter'],
    ];
    for (const [date, reason] of expected) {
      expect(calendarDay(date)).toEqual({ date, status: 'closed', open_timestamp: null, close_timestamp: null, reason });
    }
    expect(nextTradingDay('2001-09-10')).toBe('2001-09-17');
    expect(previousTradingDay('2001-09-17')).toBe('2001-09-10');
  });

  it('opened at noon on 2002-09-11', () => {
    const day = calendarDay('2002-09-11');
    expect(day.status).toBe('open');
    expect(iso(day.open_timestamp)).toBe('2002-09-11T16:00:00.000Z');
    expect(iso(day.close_timestamp)).toBe('2002-09-11T20:00:00.000Z');
    expect(day.reason).toMatch(/September 11/);
  });

  it('follows the historical early-close exceptions', () => {
    // July 4 on a Thursday: Friday July 5 until 2012, Wednesday July 3 from 2013.
    expect(calendarDay('2002-07-03').status).toBe('open');
    expect(calendarDay('2002-07-05')).toMatchObject({ status: 'early_close', reason: 'Day after Independence Day' });
    expect(calendarDay('2013-07-03')).toMatchObject({ status: 'early_close', reason: 'Day before Independence Day' });
    expect(calendarDay('2013-07-05').status).toBe('open');
    // No early close on the Thursday before an observed Friday July 3.
    expect(calendarDay('2015-07-02').status).toBe('open');
    expect(calendarDay('2020-07-02').status).toBe('open');
    // The Friday after a Thursday Christmas: 1 p.m. in 2003 only.
    expect(calendarDay('2003-12-26')).toMatchObject({ status: 'early_close', reason: 'Day after Christmas' });
    for (const date of ['2008-12-26', '2014-12-26', '2025-12-26']) expect(calendarDay(date).status).toBe('open');
    // No early close on the Thursday before an observed Friday Christmas.
    expect(calendarDay('2021-12-23').status).toBe('open');
    expect(calendarDay('2001-12-24').reason).toBe('Christmas Eve');
    expect(calendarDay('2024-11-29').reason).toBe('Day after Thanksgiving');
  });
});

describe('session timestamps across daylight saving time', () => {
  it('opens at 14:30Z before and 13:30Z after the March change', () => {
    const friday = calendarDay('2024-03-08');
    expect(iso(friday.open_timestamp)).toBe('2024-03-08T14:30:00.000Z');
    expect(iso(friday.close_timestamp)).toBe('2024-03-08T21:00:00.000Z');
    const monday = calendarDay('2024-03-11');
    expect(iso(monday.open_timestamp)).toBe('2024-03-11T13:30:00.000Z');
    expect(iso(monday.close_timestamp)).toBe('2024-03-11T20:00:00.000Z');
  });

  it('closes at 20:00Z before and 21:00Z after the November change, 18:00Z on the early close', () => {
    expect(iso(calendarDay('2024-11-01').close_timestamp)).toBe('2024-11-01T20:00:00.000Z');
    expect(iso(calendarDay('2024-11-04').close_timestamp)).toBe('2024-11-04T21:00:00.000Z');
    const blackFriday = calendarDay('2024-11-29');
    expect(blackFriday.status).toBe('early_close');
    expect(iso(blackFriday.open_timestamp)).toBe('2024-11-29T14:30:00.000Z');
    expect(iso(blackFriday.close_timestamp)).toBe('2024-11-29T18:00:00.000Z');
    expect(iso(calendarDay('2024-07-03').close_timestamp)).toBe('2024-07-03T17:00:00.000Z');
  });

  it('returns a copy that callers may change', () => {
    const day = calendarDay('2024-03-08');
    day.reason = 'changed';
    expect(calendarDay('2024-03-08').reason).toBeNull();
  });
});

describe('range errors', () => {
  it('rejects dates outside the calendar and malformed dates', () => {
    for (const bad of ['1999-12-31', '2036-01-01', '2024-02-30', '2023-02-29', '2024-2-3', '20240105', 'today', '']) {
      expect(() => calendarDay(bad)).toThrow(CalendarRangeError);
      expect(() => isTradingDay(bad)).toThrow(RangeError);
    }
    expect(() => calendarDay(undefined as unknown as string)).toThrow(CalendarRangeError);
    expect(calendarDay(CALENDAR_FIRST_DATE).reason).toBe('Weekend');
    expect(calendarDay(CALENDAR_LAST_DATE).status).toBe('open');
    expect(calendarDay('2024-02-29').status).toBe('open');
  });

  it('throws when the next or previous trading day leaves the calendar', () => {
    expect(nextTradingDay('2035-12-28')).toBe('2035-12-31');
    expect(() => nextTradingDay('2035-12-31')).toThrow(CalendarRangeError);
    expect(previousTradingDay('2000-01-04')).toBe('2000-01-03');
    expect(() => previousTradingDay('2000-01-03')).toThrow(CalendarRangeError);
    expect(() => tradingDaysBetween('1999-12-01', '2000-01-10')).toThrow(CalendarRangeError);
    expect(() => specialDays(2036)).toThrow(CalendarRangeError);
  });

  it('rejects instants outside the calendar', () => {
    expect(() => currentOrLastSessionDate(Date.parse('2036-01-02T15:00:00Z'))).toThrow(CalendarRangeError);
    expect(() => currentOrLastSessionDate(Number.NaN)).toThrow(CalendarRangeError);
  });
});

describe('navigation', () => {
  it('steps strictly over weekends and holidays', () => {
    expect(nextTradingDay('2024-12-24')).toBe('2024-12-26');
    expect(nextTradingDay('2024-03-28')).toBe('2024-04-01');
    expect(nextTradingDay('2024-03-29')).toBe('2024-04-01');
    expect(previousTradingDay('2024-03-04')).toBe('2024-03-01');
    expect(previousTradingDay('2024-01-02')).toBe('2023-12-29');
    expect(nextTradingDay('2024-03-05')).toBe('2024-03-06');
  });

  it('lists trading days inclusively and ascending', () => {
    expect(tradingDaysBetween('2024-12-20', '2025-01-03')).toEqual([
      '2024-12-20',
      '2024-12-23',
      '2024-12-24',
      '2024-12-26',
      '2024-12-27',
      '2024-12-30',
      '2024-12-31',
      '2025-01-02',
      '2025-01-03',
    ]);
    expect(tradingDaysBetween('2024-03-08', '2024-03-08')).toEqual(['2024-03-08']);
    expect(tradingDaysBetween('2024-03-09', '2024-03-10')).toEqual([]);
    expect(tradingDaysBetween('2024-03-12', '2024-03-08')).toEqual([]);
  });
});

describe('currentOrLastSessionDate', () => {
  it('is today from the open onwards and the previous trading day before it', () => {
    expect(currentOrLastSessionDate(ny('2024-03-11', '08:00', 4))).toBe('2024-03-08');
    expect(currentOrLastSessionDate(ny('2024-03-11', '09:29', 4))).toBe('2024-03-08');
    expect(currentOrLastSessionDate(ny('2024-03-11', '09:30', 4))).toBe('2024-03-11');
    expect(currentOrLastSessionDate(ny('2024-03-11', '15:59', 4))).toBe('2024-03-11');
    expect(currentOrLastSessionDate(ny('2024-03-11', '23:00', 4))).toBe('2024-03-11');
  });

  it('falls back over weekends and holidays', () => {
    expect(currentOrLastSessionDate(ny('2024-03-09', '12:00', 5))).toBe('2024-03-08');
    expect(currentOrLastSessionDate(ny('2024-03-29', '12:00', 4))).toBe('2024-03-28');
    expect(currentOrLastSessionDate(ny('2024-11-29', '15:00', 5))).toBe('2024-11-29');
    // 00:30 UTC on Saturday is still Friday evening in New York.
    expect(currentOrLastSessionDate(Date.parse('2024-03-09T00:30:00Z'))).toBe('2024-03-08');
  });
});

describe('completedSessions', () => {
  it('counts a session as completed from its close', () => {
    expect(completedSessions(ny('2024-03-11', '15:59', 4), 3)).toEqual(['2024-03-06', '2024-03-07', '2024-03-08']);
    expect(completedSessions(ny('2024-03-11', '16:00', 4), 3)).toEqual(['2024-03-07', '2024-03-08', '2024-03-11']);
    expect(completedSessions(ny('2024-11-29', '13:00', 5), 2)).toEqual(['2024-11-27', '2024-11-29']);
    expect(completedSessions(ny('2024-11-29', '12:59', 5), 2)).toEqual(['2024-11-26', '2024-11-27']);
    expect(completedSessions(ny('2024-12-25', '12:00', 5), 2)).toEqual(['2024-12-23', '2024-12-24']);
  });

  it('handles zero, invalid counts and the start of the calendar', () => {
    expect(completedSessions(ny('2024-03-11', '16:00', 4), 0)).toEqual([]);
    expect(() => completedSessions(ny('2024-03-11', '16:00', 4), -1)).toThrow(RangeError);
    expect(() => completedSessions(ny('2024-03-11', '16:00', 4), 1.5)).toThrow(RangeError);
    expect(completedSessions(ny('2000-01-04', '16:00', 5), 2)).toEqual(['2000-01-03', '2000-01-04']);
    expect(() => completedSessions(ny('2000-01-04', '16:00', 5), 3)).toThrow(CalendarRangeError);
  });
});

describe('monthly option expiration', () => {
  it('is the third Friday', () => {
    expect(monthlyExpiration(2024, 1)).toBe('2024-01-19');
    expect(monthlyExpiration(2024, 3)).toBe('2024-03-15');
    expect(monthlyExpiration(2000, 1)).toBe('2000-01-21');
    expect(isMonthlyExpiration('2024-01-19')).toBe(true);
    expect(isMonthlyExpiration('2024-01-12')).toBe(false);
    expect(isMonthlyExpiration('2024-01-18')).toBe(false);
  });

  it('moves to the Thursday when the third Friday is a holiday', () => {
    expect(monthlyExpiration(2008, 3)).toBe('2008-03-20');
    expect(monthlyExpiration(2014, 4)).toBe('2014-04-17');
    expect(monthlyExpiration(2019, 4)).toBe('2019-04-18');
    expect(monthlyExpiration(2022, 4)).toBe('2022-04-14');
    expect(monthlyExpiration(2025, 4)).toBe('2025-04-17');
    expect(monthlyExpiration(2026, 6)).toBe('2026-06-18'); // Juneteenth on the third Friday
    expect(isMonthlyExpiration('2008-03-21')).toBe(false);
    expect(isMonthlyExpiration('2008-03-20')).toBe(true);
  });

  it('is always a trading day between the 14th and the 21st', () => {
    for (let year = 2000; year <= 2035; year++) {
      for (let month = 1; month <= 12; month++) {
        const expiration = monthlyExpiration(year, month);
        expect(isTradingDay(expiration)).toBe(true);
        expect(Number(expiration.slice(8))).toBeGreaterThanOrEqual(14);
        expect(Number(expiration.slice(8))).toBeLessThanOrEqual(21);
        expect([4, 5]).toContain(dayOfWeek(expiration));
      }
    }
  });

  it('rejects months and years outside the calendar', () => {
    expect(() => monthlyExpiration(2024, 13)).toThrow(CalendarRangeError);
    expect(() => monthlyExpiration(2024, 0)).toThrow(CalendarRangeError);
    expect(() => monthlyExpiration(1999, 12)).toThrow(CalendarRangeError);
    expect(() => monthlyExpiration(2036, 1)).toThrow(CalendarRangeError);
  });
});
