/**
 * The NYSE equity market calendar from 2000-01-01 through 2035-12-31: which days trade, and the
 * open and close of each regular session (09:30–16:00 Eastern, 13:00 on early-close days).
 *
 * Holidays come from the rules of NYSE Rule 7.2 (the holiday list and its weekend observance);
 * one-off closures, one-off schedule changes and the historical early-close exceptions are kept
 * below as data with their reason. Cross-checked against NYSE's published holiday and
 * early-closing announcements (2022–2028) and NYSE's historical closings record (2000–2021).
 */

import { addDays, dayOfWeek, newYorkDate, newYorkTimeToMs } from './new-york-time.js';

export const CALENDAR_FIRST_DATE = '2000-01-01';
export const CALENDAR_LAST_DATE = '2035-12-31';

export type DayStatus = 'open' | 'early_close' | 'closed';

export interface CalendarDay {
  date: string;
  status: DayStatus;
  /** Unix ms of the regular open, null when closed. */
  open_timestamp: number | null;
  /** Unix ms of the regular close, null when closed. */
  close_timestamp: number | null;
  /** Holiday, closure or schedule-change name ('Weekend' on Saturdays and Sundays); null on a plain day. */
  reason: string | null;
}

/** Thrown for a date outside CALENDAR_FIRST_DATE..CALENDAR_LAST_DATE, or one that is not a real YYYY-MM-DD date. */
export class CalendarRangeError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'CalendarRangeError';
  }
}

/** Regular session times, Eastern (NYSE Rule 7.2: core trading 9:30 a.m. to 4:00 p.m.). */
export const REGULAR_OPEN_TIME = '09:30';
export const REGULAR_CLOSE_TIME = '16:00';
/** Close on the scheduled early-close days (NYSE holiday announcements: "close early at 1:00 p.m."). */
export const EARLY_CLOSE_TIME = '13:00';

/**
 * Full-day closures that no holiday rule produces. NYSE's published record of unscheduled
 * closings lists no others between 2000 and 2025.
 */
export const ONE_OFF_CLOSURES: readonly { date: string; reason: string }[] = [
  { date: '2001-09-11', reason: 'September 11 attacks' },
  { date: '2001-09-12', reason: 'September 11 attacks' },
  { date: '2001-09-13', reason: 'September 11 attacks' },
  { date: '2001-09-14', reason: 'September 11 attacks' },
  { date: '2004-06-11', reason: 'National day of mourning for President Ronald Reagan' },
  { date: '2007-01-02', reason: 'National day of mourning for President Gerald R. Ford' },
  { date: '2012-10-29', reason: 'Hurricane Sandy' },
  { date: '2012-10-30', reason: 'Hurricane Sandy' },
  { date: '2018-12-05', reason: 'National day of mourning for President George H. W. Bush' },
  { date: '2025-01-09', reason: 'National day of mourning for President Jimmy Carter' },
];

/**
 * Scheduled session-time changes that no rule produces. Unscheduled interruptions are left out
 * on purpose: the two-or-three-minute delayed opens for moments of silence (2001-09-17,
 * 2001-10-08, 2003-03-20, 2004-06-07, 2006-12-27) and the 15:56 systems halt of 2005-06-01.
 */
export const ONE_OFF_SESSION_CHANGES: readonly { date: string; reason: string; open?: string; close?: string }[] = [
  // NYSE held its bell until noon for the memorial ceremonies (AP/Variety, 2002-09-11).
  { date: '2002-09-11', open: '12:00', reason: 'Delayed open for the first anniversary of the September 11 attacks' },
  // Announced half session on the Friday after Christmas (AP, 2003-12-23); 2008, 2014 and 2025 had none.
  { date: '2003-12-26', close: EARLY_CLOSE_TIME, reason: 'Day after Christmas' },
];

/**
 * When July 4 is a Thursday, the early close moved from Friday July 5 to Wednesday July 3
 * starting in 2013 (2002-07-05 closed at 1 p.m. and 2002-07-03 was a full day; 2013-07-03,
 * 2019-07-03 and 2024-07-03 closed at 1 p.m.).
 */
const WEDNESDAY_JULY_3_EARLY_CLOSE_FROM_YEAR = 2013;

/** Juneteenth National Independence Day joined NYSE Rule 7.2 for 2022 (first observed 2022-06-20). */
const JUNETEENTH_FIRST_YEAR = 2022;

const FIRST_YEAR = 2000;
const LAST_YEAR = 2035;

interface SpecialDay {
  status: DayStatus;
  reason: string;
  open: string | null;
  close: string | null;
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function isoDate(year: number, month: number, day: number): string {
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses and range-checks a YYYY-MM-DD date; the year of a valid date. */
function checkedYear(date: string): number {
  const match = typeof date === 'string' ? DATE_PATTERN.exec(date) : null;
  if (!match) throw new CalendarRangeError(`not a YYYY-MM-DD date: ${String(date)}`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    throw new CalendarRangeError(`not a calendar date: ${date}`);
  }
  if (date < CALENDAR_FIRST_DATE || date > CALENDAR_LAST_DATE) {
    throw new CalendarRangeError(`${date} is outside the supported calendar ${CALENDAR_FIRST_DATE}..${CALENDAR_LAST_DATE}`);
  }
  return year;
}

/** The n-th given weekday (0 Sunday .. 6 Saturday) of a month. */
function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  const first = isoDate(year, month, 1);
  const offset = (weekday - dayOfWeek(first) + 7) % 7;
  return addDays(first, offset + 7 * (n - 1));
}

/** The last given weekday of a month. */
function lastWeekday(year: number, month: number, weekday: number): string {
  const last = addDays(isoDate(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1), -1);
  return addDays(last, -((dayOfWeek(last) - weekday + 7) % 7));
}

/** Easter Sunday by the anonymous Gregorian computus (Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const golden = year % 19;
  const century = Math.floor(year / 100);
  const yearOfCentury = year % 100;
  const skippedLeaps = Math.floor(century / 4);
  const centuryRemainder = century % 4;
  const lunarCorrection = Math.floor((century + 8) / 25);
  const metonicCorrection = Math.floor((century - lunarCorrection + 1) / 3);
  const epact = (19 * golden + century - skippedLeaps - metonicCorrection + 15) % 30;
  const leapsInCentury = Math.floor(yearOfCentury / 4);
  const yearRemainder = yearOfCentury % 4;
  const weekdayShift = (32 + 2 * centuryRemainder + 2 * leapsInCentury - epact - yearRemainder) % 7;
  const lateFullMoon = Math.floor((golden + 11 * epact + 22 * weekdayShift) / 451);
  const monthAndDay = epact + weekdayShift - 7 * lateFullMoon + 114;
  return isoDate(year, Math.floor(monthAndDay / 31), (monthAndDay % 31) + 1);
}

/**
 * Observed date of a fixed-date holiday under NYSE Rule 7.2: Sunday moves to Monday; Saturday
 * moves to Friday unless that Friday ends an accounting period, which in practice means New
 * Year's Day on a Saturday is not observed at all (2005, 2011, 2022, 2028, 2033).
 */
function observedFixedHoliday(year: number, month: number, day: number): string | null {
  const actual = isoDate(year, month, day);
  const weekday = dayOfWeek(actual);
  if (weekday === 0) return addDays(actual, 1);
  if (weekday === 6) return month === 1 && day === 1 ? null : addDays(actual, -1);
  return actual;
}

function holidayName(name: string, observed: string, year: number, month: number, day: number): string {
  return observed === isoDate(year, month, day) ? name : `${name} (observed)`;
}

function buildYear(year: number): Map<string, SpecialDay> {
  const days = new Map<string, SpecialDay>();
  const closed = (date: string | null, reason: string): void => {
    if (date) days.set(date, { status: 'closed', reason, open: null, close: null });
  };
  const earlyClose = (date: string, reason: string): void => {
    days.set(date, { status: 'early_close', reason, open: REGULAR_OPEN_TIME, close: EARLY_CLOSE_TIME });
  };
  const fixed = (name: string, month: number, day: number): void => {
    const observed = observedFixedHoliday(year, month, day);
    if (observed) closed(observed, holidayName(name, observed, year, month, day));
  };

  // Early closes first, so a closure on the same date (none so far) would win. The 1 p.m. days
  // follow NYSE's yearly early-closing announcements: the day before Independence Day when it is a
  // weekday session, the day after Thanksgiving, and Christmas Eve from Monday to Thursday.
  const july4Weekday = dayOfWeek(isoDate(year, 7, 4));
  if (july4Weekday === 2 || july4Weekday === 3 || july4Weekday === 5) {
    earlyClose(isoDate(year, 7, 3), 'Day before Independence Day');
  } else if (july4Weekday === 4) {
    if (year >= WEDNESDAY_JULY_3_EARLY_CLOSE_FROM_YEAR) earlyClose(isoDate(year, 7, 3), 'Day before Independence Day');
    else earlyClose(isoDate(year, 7, 5), 'Day after Independence Day');
  }
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  earlyClose(addDays(thanksgiving, 1), 'Day after Thanksgiving');
  const christmasEve = isoDate(year, 12, 24);
  const christmasEveWeekday = dayOfWeek(christmasEve);
  if (christmasEveWeekday >= 1 && christmasEveWeekday <= 4) earlyClose(christmasEve, 'Christmas Eve');

  for (const change of ONE_OFF_SESSION_CHANGES) {
    if (Number(change.date.slice(0, 4)) !== year) continue;
    const close = change.close ?? REGULAR_CLOSE_TIME;
    days.set(change.date, {
      status: close === REGULAR_CLOSE_TIME ? 'open' : 'early_close',
      reason: change.reason,
      open: change.open ?? REGULAR_OPEN_TIME,
      close,
    });
  }

  fixed("New Year's Day", 1, 1);
  closed(nthWeekday(year, 1, 1, 3), 'Martin Luther King, Jr. Day');
  closed(nthWeekday(year, 2, 1, 3), "Washington's Birthday");
  closed(addDays(easterSunday(year), -2), 'Good Friday');
  closed(lastWeekday(year, 5, 1), 'Memorial Day');
  if (year >= JUNETEENTH_FIRST_YEAR) fixed('Juneteenth National Independence Day', 6, 19);
  fixed('Independence Day', 7, 4);
  closed(nthWeekday(year, 9, 1, 1), 'Labor Day');
  closed(thanksgiving, 'Thanksgiving Day');
  fixed('Christmas Day', 12, 25);

  for (const closure of ONE_OFF_CLOSURES) {
    if (Number(closure.date.slice(0, 4)) === year) closed(closure.date, closure.reason);
  }
  return days;
}

const yearMemo = new Map<number, Map<string, SpecialDay>>();

function specialDaysOf(year: number): Map<string, SpecialDay> {
  let days = yearMemo.get(year);
  if (!days) {
    days = buildYear(year);
    yearMemo.set(year, days);
  }
  return days;
}

interface DaySchedule {
  status: DayStatus;
  reason: string | null;
  open: string | null;
  close: string | null;
}

function scheduleOf(date: string): DaySchedule {
  const special = specialDaysOf(checkedYear(date)).get(date);
  if (special) return special;
  const weekday = dayOfWeek(date);
  if (weekday === 0 || weekday === 6) return { status: 'closed', reason: 'Weekend', open: null, close: null };
  return { status: 'open', reason: null, open: REGULAR_OPEN_TIME, close: REGULAR_CLOSE_TIME };
}

// Timestamps cost two Intl look-ups each, so finished days are kept (at most ~13,000).
const dayMemo = new Map<string, CalendarDay>();

/** The status, session times and reason of one date. */
export function calendarDay(date: string): CalendarDay {
  let day = dayMemo.get(date);
  if (!day) {
    const schedule = scheduleOf(date);
    day = {
      date,
      status: schedule.status,
      open_timestamp: schedule.open ? newYorkTimeToMs(date, schedule.open) : null,
      close_timestamp: schedule.close ? newYorkTimeToMs(date, schedule.close) : null,
      reason: schedule.reason,
    };
    dayMemo.set(date, day);
  }
  return { ...day };
}

export function isTradingDay(date: string): boolean {
  return scheduleOf(date).status !== 'closed';
}

/** The first trading day strictly after `date`. */
export function nextTradingDay(date: string): string {
  checkedYear(date);
  let candidate = date;
  do {
    candidate = addDays(candidate, 1);
    if (candidate > CALENDAR_LAST_DATE) {
      throw new CalendarRangeError(`no trading day after ${date} within the supported calendar`);
    }
  } while (!isTradingDay(candidate));
  return candidate;
}

/** The last trading day strictly before `date`. */
export function previousTradingDay(date: string): string {
  checkedYear(date);
  let candidate = date;
  do {
    candidate = addDays(candidate, -1);
    if (candidate < CALENDAR_FIRST_DATE) {
      throw new CalendarRangeError(`no trading day before ${date} within the supported calendar`);
    }
  } while (!isTradingDay(candidate));
  return candidate;
}

/** Trading days from `from` to `to`, both inclusive, ascending; empty when `from` is after `to`. */
export function tradingDaysBetween(from: string, to: string): string[] {
  checkedYear(from);
  checkedYear(to);
  const days: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    if (isTradingDay(date)) days.push(date);
  }
  return days;
}

/** Every holiday, closure, early close and session change of a year (weekends excluded), ascending. */
export function specialDays(year: number): CalendarDay[] {
  if (!Number.isInteger(year) || year < FIRST_YEAR || year > LAST_YEAR) {
    throw new CalendarRangeError(`year ${year} is outside the supported calendar ${FIRST_YEAR}..${LAST_YEAR}`);
  }
  return [...specialDaysOf(year).keys()].sort().map(calendarDay);
}

function checkedInstant(nowMs: number): string {
  if (!Number.isFinite(nowMs)) throw new CalendarRangeError(`not a timestamp: ${nowMs}`);
  const today = newYorkDate(nowMs);
  checkedYear(today);
  return today;
}

/**
 * The trading date whose regular session is in progress at `nowMs`, or else the most recent
 * completed one (before today's open → previous trading day).
 */
export function currentOrLastSessionDate(nowMs: number): string {
  const today = checkedInstant(nowMs);
  const day = calendarDay(today);
  if (day.open_timestamp !== null && nowMs >= day.open_timestamp) return today;
  return previousTradingDay(today);
}

/**
 * The last `count` completed regular sessions before or at nowMs (ascending). A session is
 * completed from its close onwards.
 */
export function completedSessions(nowMs: number, count: number): string[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer: ${count}`);
  let date = checkedInstant(nowMs);
  const sessions: string[] = [];
  if (count === 0) return sessions;
  const today = calendarDay(date);
  if (today.close_timestamp !== null && nowMs >= today.close_timestamp) sessions.push(date);
  while (sessions.length < count) {
    date = previousTradingDay(date);
    sessions.push(date);
  }
  return sessions.reverse();
}

/**
 * Monthly (standard) option expiration: third Friday of the month, or the preceding trading day
 * when that Friday is a holiday (OCC/Cboe: e.g. Good Friday 2008-03-21 moved it to 2008-03-20).
 */
export function monthlyExpiration(year: number, month: number): string {
  if (!Number.isInteger(month) || month < 1 || month > 12) throw new CalendarRangeError(`not a month: ${month}`);
  if (!Number.isInteger(year) || year < FIRST_YEAR || year > LAST_YEAR) {
    throw new CalendarRangeError(`year ${year} is outside the supported calendar ${FIRST_YEAR}..${LAST_YEAR}`);
  }
  const thirdFriday = nthWeekday(year, month, 5, 3);
  return isTradingDay(thirdFriday) ? thirdFriday : previousTradingDay(thirdFriday);
}

export function isMonthlyExpiration(date: string): boolean {
  const year = checkedYear(date);
  return monthlyExpiration(year, Number(date.slice(5, 7))) === date;
}
