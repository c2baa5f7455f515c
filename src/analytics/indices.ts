/**
 * The indices the service serves (GET /v1/indices, /v1/indices/bars, /v1/indices/snapshot) and the
 * pure rules of their values: the calculation hours, the range a bars query names, the trading
 * dates' calculation windows within it, and a quote's change. No I/O, no clock: `now` is given.
 *
 * An index is calculated in the regular session only: 09:30 to 16:00 ET, to 13:00 on an early close
 * (S&P Dow Jones Indices, Nasdaq and FTSE Russell disseminate the cash index over the equity
 * session; calendar.ts holds the holidays and early closes). A one-minute value stored at `ts` is the
 * minute [ts, ts + 60 s), its close the index's last value of that minute. The option roots on an
 * index are roots.ts's, so a root added there is listed here without a change.
 */
import {
  calendarDay,
  CALENDAR_FIRST_DATE,
  CalendarRangeError,
  CALENDAR_LAST_DATE,
  currentOrLastSessionDate,
  previousTradingDay,
  tradingDaysBetween,
} from './calendar.js';
import { newYorkDate, newYorkTimeToMs } from './new-york-time.js';
import { OPTION_ROOTS } from './roots.js';

export interface IndexDefinition {
  symbol: string;
  name: string;
  /** Who calculates and publishes the index. */
  calculatedBy: string;
  /** The ticker of the index in Massive's aggregates (loaded without its I: prefix). */
  massiveTicker: string;
}

/** The indices served, in the order listed. Sources: the index providers' methodology pages. */
export const INDICES: readonly IndexDefinition[] = [
  { symbol: 'SPX', name: 'S&P 500 Index', calculatedBy: 'S&P Dow Jones Indices', massiveTicker: 'I:SPX' },
  { symbol: 'NDX', name: 'Nasdaq-100 Index', calculatedBy: 'Nasdaq', massiveTicker: 'I:NDX' },
  { symbol: 'RUT', name: 'Russell 2000 Index', calculatedBy: 'FTSE Russell', massiveTicker: 'I:RUT' },
];

const bySymbol = new Map(INDICES.map((i) => [i.symbol, i]));

/** The index a symbol names (case-insensitive); null for a symbol that is not one of INDICES. */
export function indexOf(symbol: string): IndexDefinition | null {
  return bySymbol.get(symbol.toUpperCase()) ?? null;
}

/** The option roots whose underlying is the index (SPX: SPX and SPXW), as roots.ts lists them. */
export function optionRootsOn(symbol: string): string[] {
  return OPTION_ROOTS.filter((r) => r.kind === 'index' && r.underlying === symbol).map((r) => r.root);
}

export type IndexBarInterval = '1m' | '5m' | '1h' | '1d';

/** The length of an intraday bucket; a day bar's is its trading date's calculation window. */
export const INDEX_BUCKET_MS: Readonly<Record<Exclude<IndexBarInterval, '1d'>, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '1h': 3_600_000,
};

/** The longest range of each interval, in days of 24 hours (the contract's range_at_most_days rules). */
export const INDEX_RANGE_DAYS: Readonly<Record<IndexBarInterval, number>> = { '1m': 7, '5m': 31, '1h': 92, '1d': 366 };

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** A trading date's calculation window [start, end): its regular open to its close. */
export interface CalculationWindow {
  tradingDate: string;
  start: number;
  end: number;
  status: 'open' | 'early_close';
}

/** The calculation window of a date; null when the market is closed that day. */
export function calculationWindow(date: string): CalculationWindow | null {
  const day = calendarDay(date);
  if (day.status === 'closed' || day.open_timestamp === null || day.close_timestamp === null) return null;
  return { tradingDate: date, start: day.open_timestamp, end: day.close_timestamp, status: day.status };
}

export interface IndexBarRangeRequest {
  interval: IndexBarInterval;
  date?: string;
  startTime?: number;
  endTime?: number;
  now: number;
}

/**
 * The range [start, end) a bars query names: start_time/end_time (one alone reaching the interval's
 * longest range from it); else `date`'s calculation window (null when it does not trade); else for
 * 1d the longest range ending now, and for the other intervals the current session's window (the
 * most recent completed one before today's open).
 */
export function indexBarRange(r: IndexBarRangeRequest): { start: number; end: number } | null {
  const longest = INDEX_RANGE_DAYS[r.interval] * DAY_MS;
  if (r.startTime !== undefined || r.endTime !== undefined) {
    const start = r.startTime ?? r.endTime! - longest;
    return { start, end: r.endTime ?? start + longest };
  }
  if (r.date === undefined && r.interval === '1d') return { start: r.now - longest, end: r.now };
  const window = calculationWindow(r.date ?? currentOrLastSessionDate(r.now));
  return window === null ? null : { start: window.start, end: window.end };
}

/**
 * The calculation windows of the trading dates that meet the range, ascending, each cut to the
 * range; `open` is the uncut window's start (a day bar's timestamp). The range is cut to the
 * exchange calendar (2000 to 2035): no index is calculated outside it here.
 */
export function windowsIn(range: { start: number; end: number }): (CalculationWindow & { open: number })[] {
  const first = Math.max(range.start, newYorkTimeToMs(CALENDAR_FIRST_DATE, '00:00'));
  const last = Math.min(range.end, newYorkTimeToMs(CALENDAR_LAST_DATE, '23:59'));
  if (!(first < last)) return [];
  const out: (CalculationWindow & { open: number })[] = [];
  for (const date of tradingDaysBetween(newYorkDate(first), newYorkDate(last - 1))) {
    const w = calculationWindow(date);
    if (w === null || !(w.start < range.end && range.start < w.end)) continue;
    out.push({ ...w, open: w.start, start: Math.max(w.start, range.start), end: Math.min(w.end, range.end) });
  }
  return out;
}

/** Where the next page of bars may start reading, given the last bucket served (for a range's windows). */
export function windowsAfter(
  windows: readonly (CalculationWindow & { open: number })[],
  interval: IndexBarInterval,
  lastBucket: number | null,
): (CalculationWindow & { open: number })[] {
  if (lastBucket === null) return [...windows];
  if (interval === '1d') return windows.filter((w) => w.open > lastBucket);
  const from = lastBucket + INDEX_BUCKET_MS[interval];
  return windows.filter((w) => w.end > from).map((w) => ({ ...w, start: Math.max(w.start, from) }));
}

/** The session a quote at `instant` belongs to, and its previous trading date. */
export interface QuoteSession {
  /** The trading date whose session has begun by the instant (before today's open: the previous one). */
  tradingDate: string;
  previousDate: string;
  window: CalculationWindow;
  /** Whether the index is being calculated at the instant (within the window). */
  calculating: boolean;
}

/** The session of a quote at `instant`; null outside the exchange calendar (2000 to 2035), which has no session or no previous one for it. */
export function quoteSession(instant: number): QuoteSession | null {
  try {
    const tradingDate = currentOrLastSessionDate(instant);
    const window = calculationWindow(tradingDate)!;
    return {
      tradingDate,
      previousDate: previousTradingDay(tradingDate),
      window,
      calculating: instant >= window.start && instant < window.end,
    };
  } catch (error) {
    if (error instanceof CalendarRangeError) return null;
    throw error;
  }
}

/** The newest minute whose value is known at `instant`: a minute [ts, ts + 60 s) is known from its end. */
export function lastKnownMinute(instant: number): number {
  return Math.floor(instant / MINUTE_MS) * MINUTE_MS - MINUTE_MS;
}

/** Rounded to 6 decimals: an index is quoted to 2, and the float difference of two quotes carries noise past that. */
const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * Change from the previous close, in index points and in percent of it, each rounded to 6 decimals;
 * null without either value.
 */
export function changeFrom(value: number | null, previousClose: number | null): { change: number | null; changePercent: number | null } {
  if (value === null || previousClose === null || previousClose === 0) return { change: null, changePercent: null };
  const change = value - previousClose;
  return { change: round6(change), changePercent: round6((100 * change) / previousClose) };
}
