/**
 * The CME Globex calendar of US equity-index futures (ES, NQ, RTY and their micros): which dates
 * are CME trade dates, the trading windows of each trade date, and the trade date an instant's
 * trading belongs to. Times are written in Eastern time; CME publishes them in Central time, one
 * hour earlier all year (both zones change on the same dates).
 *
 * The week (CME Group contract specifications of the E-mini S&P 500, E-mini Nasdaq-100 and E-mini
 * Russell 2000): Sunday 18:00 to Friday 17:00 ET with a daily halt 17:00-18:00 ET; a trade date's
 * session opens at 18:00 ET the calendar evening before and closes at 17:00 ET on the date.
 *
 * Holidays (CME Group's yearly Globex holiday schedules for equity products, 2022 onward):
 * - CME trade dates are the NYSE trading days (calendar.ts): CME publishes no equity-index
 *   settlement on a day the NYSE is closed.
 * - New Year's Day, Good Friday and Christmas Day (observed dates): no trading at all.
 * - Every other NYSE weekday closure (Martin Luther King Jr. Day, Presidents Day, Memorial Day,
 *   Juneteenth, Independence Day, Labor Day, Thanksgiving): an abbreviated session from 18:00 ET
 *   the evening before to an early halt at 13:00 ET (12:00 CT), whose trades belong to the next
 *   trade date; Globex reopens at 18:00 ET that evening for the same next trade date.
 * - NYSE early-close days (the day before Independence Day, the day after Thanksgiving, Christmas
 *   Eve): the trade date ends at 13:15 ET (12:15 CT).
 * - Dated exceptions (GLOBEX_ONE_OFF_HALTS): Good Fridays on which the BLS employment report is
 *   released trade an abbreviated session to 09:15 ET (08:15 CT), and the National Day of Mourning
 *   of 2025-01-09 halted at 09:30 ET (08:30 CT).
 *
 * Simplifications, deliberate: years before 2022 are answered with the same rules (CME's holiday
 * halts were at 10:30 CT before 2015, and a 15:15-15:30 CT pause existed until 2021); unscheduled
 * interruptions are not modelled.
 */

import {
  CALENDAR_FIRST_DATE,
  CALENDAR_LAST_DATE,
  CalendarRangeError,
  calendarDay,
  isTradingDay,
  nextTradingDay,
  previousTradingDay,
} from '../calendar.js';
import { addDays, dayOfWeek, newYorkDate, newYorkTimeToMs } from '../new-york-time.js';

/** Globex opens for the next trade date at 18:00 ET (17:00 CT). */
export const GLOBEX_OPEN_TIME = '18:00';
/** A regular trade date closes at 17:00 ET (16:00 CT). */
export const GLOBEX_CLOSE_TIME = '17:00';
/** Close on NYSE early-close days: 13:15 ET (12:15 CT). */
export const GLOBEX_EARLY_CLOSE_TIME = '13:15';
/** Early halt of the abbreviated session on an NYSE holiday: 13:00 ET (12:00 CT). */
export const GLOBEX_HOLIDAY_HALT_TIME = '13:00';

/** NYSE holidays on which CME equity-index futures do not trade at all (observed dates included). */
const FULL_CLOSURES: readonly string[] = ["New Year's Day", 'Good Friday', 'Christmas Day'];

/**
 * Dated halts no rule produces, each a weekday the NYSE was closed. Good Friday abbreviated
 * sessions for the employment report: 2010, 2012, 2015, 2021 and 2023 (CME notices; press reports
 * "stock-index futures closed at 9:15 a.m. Eastern"); 2026-04-03 by the same rule (the BLS
 * release calendar put the March report on Good Friday).
 */
export const GLOBEX_ONE_OFF_HALTS: readonly { date: string; halt: string; reason: string }[] = [
  { date: '2010-04-02', halt: '09:15', reason: 'Good Friday, employment report' },
  { date: '2012-04-06', halt: '09:15', reason: 'Good Friday, employment report' },
  { date: '2015-04-03', halt: '09:15', reason: 'Good Friday, employment report' },
  { date: '2021-04-02', halt: '09:15', reason: 'Good Friday, employment report' },
  { date: '2023-04-07', halt: '09:15', reason: 'Good Friday, employment report' },
  { date: '2025-01-09', halt: '09:30', reason: 'National day of mourning for President Jimmy Carter' },
  { date: '2026-04-03', halt: '09:15', reason: 'Good Friday, employment report' },
];

export type GlobexDayKind = 'trade_date' | 'abbreviated' | 'closed';

/** What Globex equity-index futures do on one calendar date. */
export interface GlobexDay {
  date: string;
  /**
   * trade_date: a CME trade date (its session ends on this date); abbreviated: an NYSE holiday
   * with a morning session that ends at `halt_time` and belongs to `trade_date`; closed: no
   * trading ends on this date (weekends, full holidays).
   */
  kind: GlobexDayKind;
  /** The trade date the trading that ends on this date belongs to; null when closed. */
  trade_date: string | null;
  /** Unix ms of the end of trading on this date (the close or the early halt); null when closed. */
  end_time: number | null;
  /** Holiday, closure or early-close name from the NYSE calendar or the dated halts; null on a plain day. */
  reason: string | null;
}

/** One continuous trading window of a trade date. */
export interface GlobexWindow {
  start_time: number;
  end_time: number;
  /** True when the window ends before 17:00 ET: an early close or a holiday halt. */
  early: boolean;
  /** The calendar date the window ends on. */
  ends_on: string;
}

/** The Globex session of one CME trade date: one window, or more after an abbreviated holiday. */
export interface GlobexTradeDate {
  trade_date: string;
  /** early_close when any window ends before 17:00 ET. */
  status: 'regular' | 'early_close';
  windows: GlobexWindow[];
}

const ONE_OFF_BY_DATE = new Map(GLOBEX_ONE_OFF_HALTS.map((h) => [h.date, h]));

function isWeekend(date: string): boolean {
  const weekday = dayOfWeek(date);
  return weekday === 0 || weekday === 6;
}

function isFullClosure(reason: string | null): boolean {
  return reason !== null && FULL_CLOSURES.some((name) => reason === name || reason === `${name} (observed)`);
}

/** Whether Globex equity-index futures trade on a date, and to which trade date that trading belongs. */
export function globexDay(date: string): GlobexDay {
  const nyse = calendarDay(date);
  if (nyse.status !== 'closed') {
    const close = nyse.status === 'early_close' ? GLOBEX_EARLY_CLOSE_TIME : GLOBEX_CLOSE_TIME;
    return { date, kind: 'trade_date', trade_date: date, end_time: newYorkTimeToMs(date, close), reason: nyse.reason };
  }
  const oneOff = ONE_OFF_BY_DATE.get(date);
  if (isWeekend(date) || (!oneOff && isFullClosure(nyse.reason))) {
    return { date, kind: 'closed', trade_date: null, end_time: null, reason: nyse.reason };
  }
  return {
    date,
    kind: 'abbreviated',
    trade_date: nextTradingDay(date),
    end_time: newYorkTimeToMs(date, oneOff?.halt ?? GLOBEX_HOLIDAY_HALT_TIME),
    reason: oneOff ? `${nyse.reason ?? 'Closure'}: ${oneOff.reason}` : nyse.reason,
  };
}

/** Whether `date` is a CME trade date of the equity-index futures. */
export function isGlobexTradeDate(date: string): boolean {
  return isTradingDay(date);
}

/**
 * The Globex session of a trade date: the windows of the abbreviated holidays since the previous
 * trade date, then the date's own window from 18:00 ET the evening before; null when `date` is not
 * a trade date. Every window opens at 18:00 ET on the calendar day before the day it ends.
 */
export function globexTradeDate(date: string): GlobexTradeDate | null {
  if (!isTradingDay(date)) return null;
  const windows: GlobexWindow[] = [];
  const first = date > CALENDAR_FIRST_DATE ? addDays(previousTradingDayOrFirst(date), 1) : date;
  for (let day = first; day <= date; day = addDays(day, 1)) {
    const g = globexDay(day);
    if (g.kind === 'closed' || g.end_time === null) continue;
    windows.push({
      start_time: newYorkTimeToMs(addDays(day, -1), GLOBEX_OPEN_TIME),
      end_time: g.end_time,
      early: g.end_time < newYorkTimeToMs(day, GLOBEX_CLOSE_TIME),
      ends_on: day,
    });
  }
  return { trade_date: date, status: windows.some((w) => w.early) ? 'early_close' : 'regular', windows };
}

/** The previous trade date, or the day before the calendar's first date when there is none in it. */
function previousTradingDayOrFirst(date: string): string {
  try {
    return previousTradingDay(date);
  } catch (error) {
    if (error instanceof CalendarRangeError) return addDays(CALENDAR_FIRST_DATE, -1);
    throw error;
  }
}

/**
 * The trade date an instant belongs to, and whether Globex is trading then. Outside a window (the
 * daily halt, a weekend, a holiday) the instant belongs to the next trade date, whose orders it
 * would queue for; null past the calendar's last trade date.
 */
export function globexTradeDateAt(ms: number): { trade_date: string; trading: boolean } | null {
  if (!Number.isFinite(ms)) throw new RangeError(`not a timestamp: ${ms}`);
  let day = newYorkDate(ms);
  if (day < CALENDAR_FIRST_DATE) day = CALENDAR_FIRST_DATE;
  for (; day <= CALENDAR_LAST_DATE; day = addDays(day, 1)) {
    const g = globexDay(day);
    if (g.end_time === null || g.trade_date === null || ms >= g.end_time) continue;
    const start = newYorkTimeToMs(addDays(day, -1), GLOBEX_OPEN_TIME);
    return { trade_date: g.trade_date, trading: ms >= start };
  }
  return null;
}

/** Whether Globex equity-index futures are trading at an instant. */
export function isGlobexOpenAt(ms: number): boolean {
  return globexTradeDateAt(ms)?.trading ?? false;
}

/** The first CME trade date strictly after `date`. */
export function nextGlobexTradeDate(date: string): string {
  return nextTradingDay(date);
}

/** The last CME trade date strictly before `date`. */
export function previousGlobexTradeDate(date: string): string {
  return previousTradingDay(date);
}
