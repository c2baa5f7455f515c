/**
 * The pure rules of the option bars route (GET /v1/options/bars): the range a query names, the
 * trading dates whose prints it reads, and where each bar starts. No I/O, no clock: `now` is given.
 *
 * Minute bars (1m, 5m, 1h) start on the clock's grid. New York is a whole number of hours off UTC
 * all year, so the grid of an interval dividing an hour is the same in UTC and in New York time:
 * a bar starts at floor(ts / interval) × interval. A day bar (1d) is one trading date's, and starts
 * where the selected session of that date starts (print-filters.ts sessionSpan).
 */
import { CALENDAR_FIRST_DATE, CALENDAR_LAST_DATE, tradingDaysBetween } from './calendar.js';
import { addDays, newYorkDate, newYorkTimeToMs } from './new-york-time.js';
import { defaultTradingDate, sessionSpan, type SessionChoice, type Span } from './print-filters.js';

export type BarInterval = '1m' | '5m' | '1h' | '1d';

/** The length of a minute bar; a day bar's is the trading date's. */
export const BAR_INTERVAL_MS: Readonly<Record<Exclude<BarInterval, '1d'>, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '1h': 3_600_000,
};

/** The longest range of each interval, in days of 24 hours (the contract's range_at_most_days rules). */
export const BAR_RANGE_DAYS: Readonly<Record<BarInterval, number>> = { '1m': 7, '5m': 31, '1h': 92, '1d': 366 };

const DAY_MS = 86_400_000;

export interface BarRangeRequest {
  interval: BarInterval;
  session: SessionChoice;
  date?: string;
  startTime?: number;
  endTime?: number;
  now: number;
}

/**
 * The range [from, to) a query names: its start_time/end_time (one alone reaching the interval's
 * longest range from it), else the session span of its date (default the current session's).
 * Null for a date that does not trade.
 */
export function barRange(r: BarRangeRequest): Span | null {
  const longest = BAR_RANGE_DAYS[r.interval] * DAY_MS;
  if (r.startTime !== undefined || r.endTime !== undefined) {
    const start = r.startTime ?? r.endTime! - longest;
    return { start, end: r.endTime ?? start + longest };
  }
  return sessionSpan(r.date ?? defaultTradingDate(r.now, r.session), r.session);
}

export interface BarDate {
  tradingDate: string;
  /** Where the date's selected session starts: the timestamp of its day bar. */
  sessionStart: number;
}

/**
 * The trading dates whose selected session meets the range, ascending. A date's overnight session
 * opens the calendar evening before, so the day after the range may reach back into it. The range
 * is cut to the exchange calendar (2000 to 2035): nothing trades outside it.
 */
export function barDates(range: Span, session: SessionChoice): BarDate[] {
  const first = Math.max(range.start, newYorkTimeToMs(CALENDAR_FIRST_DATE, '00:00'));
  const last = Math.min(range.end, newYorkTimeToMs(CALENDAR_LAST_DATE, '23:59'));
  if (!(first < last)) return [];
  // The `all` span of a date before a weekend or holiday runs to midnight before the next trading
  // date, so a date up to four days before the range may reach into it.
  const dayBefore = addDays(newYorkDate(first), -4);
  const dayAfter = addDays(newYorkDate(last), 1);
  const out: BarDate[] = [];
  const from = dayBefore < CALENDAR_FIRST_DATE ? CALENDAR_FIRST_DATE : dayBefore;
  for (const date of tradingDaysBetween(from, dayAfter > CALENDAR_LAST_DATE ? CALENDAR_LAST_DATE : dayAfter)) {
    const span = sessionSpan(date, session);
    if (span && span.start < range.end && range.start < span.end) out.push({ tradingDate: date, sessionStart: span.start });
  }
  return out;
}

/** The start of the minute bar holding an instant. */
export function minuteBarStart(ts: number, interval: Exclude<BarInterval, '1d'>): number {
  const ms = BAR_INTERVAL_MS[interval];
  return Math.floor(ts / ms) * ms;
}
