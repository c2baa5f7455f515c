/**
 * Where the volatility routes value a chain: the session window of a trading date for a root, the
 * valuation instant in it, which expirations a request covers, and the freshness rules of the
 * underlying price and of a quote. The contract's descriptions of the skew and drift routes state
 * the same rules.
 *
 * - The regular session runs 09:30 ET to the options close (16:15 index and ETF, 16:00 equity;
 *   iv-samples.ts regularSession), the overnight one 20:15 ET the evening before to 09:25 ET for a
 *   root that has one.
 * - The instant is the request's (its arrival, or the instant it names) while the session runs and
 *   its close once it has ended; before the session opens there is none. While the session runs it
 *   is then moved back to the end of the newest minute of data ended by it (dataInstant): every
 *   request between two loads values the same minute, and nothing recorded after the request's
 *   instant is read.
 * - The chain is one minute's: the newest minute, at or before the instant, in which at least half
 *   of the contracts read were sampled (chain snapshots cover every contract; one-minute samples
 *   only those near the money, and mixing the two times misprices a moving market). Each contract
 *   is valued at its last sample of that minute or before it (CHAIN_MAX_AGE_MS at most), and the
 *   valuation time is the end of that minute (not after the instant).
 * - A family's roots may expire on the same date (SPX AM-settled monthlies and SPXW PM-settled
 *   weeklies on a third Friday): a date is one expiration, that of the root settling later, whose
 *   series trades through the day.
 */
import { calendarDay, CalendarRangeError, completedSessions } from '../calendar.js';
import { hasOvernightSession, regularSession } from '../iv-samples.js';
import { newYorkDate } from '../new-york-time.js';
import type { Span } from '../print-filters.js';
import { OPTION_ROOTS } from '../roots.js';
import { optionsOvernightWindow } from '../sessions.js';
import { settlementInstant } from '../settlement.js';

export type VolatilitySession = 'rth' | 'gth';

/** A quote older than this at the instant is not part of the chain (chain snapshots come every 15 minutes). */
export const CHAIN_MAX_AGE_MS = 30 * 60_000;
/** The underlying price is stale when its bar started longer than this before the instant. */
export const UNDERLYING_FRESH_MS = 15 * 60_000;
/** How far back the underlying's last bar is looked for (a long weekend's closure). */
export const UNDERLYING_LOOKBACK_MS = 5 * 86_400_000;
/** The default expirations settle at least this long after the instant. */
export const MIN_TIME_TO_RUN_MS = 3_600_000;
/** How many expirations the skew route covers by default. */
export const DEFAULT_SKEW_EXPIRATIONS = 4;

/** The session window of a trading date for a root; null when the date does not trade or the root has no such session. */
export function volatilitySession(date: string, root: string, session: VolatilitySession): Span | null {
  if (session === 'rth') return regularSession(date, root);
  if (!hasOvernightSession(root)) return null;
  const window = optionsOvernightWindow(date);
  return window ? { start: window.start_time, end: window.end_time } : null;
}

/** The valuation instant in a session window: now while it runs, its close once ended; null before it opens. */
export function valuationInstant(span: Span, now: number): number | null {
  if (now < span.start) return null;
  return Math.min(now, span.end);
}

const MINUTE_MS = 60_000;

/**
 * The instant a session is valued at: `requested` (valuationInstant's: the request's instant, or
 * the close) when the session has closed by then; while it runs, the end of the newest minute of
 * data, the minute starting at `newestMinute` (the newest minute of the trading date with stored
 * quote samples in [span.start, requested − 60 s], null for none), else the session's open.
 */
export function dataInstant(span: Span, requested: number, newestMinute: number | null): number {
  if (requested >= span.end) return span.end;
  if (newestMinute === null) return span.start;
  return Math.max(span.start, Math.min(newestMinute + MINUTE_MS, requested));
}

/** The window of minute starts dataInstant reads for a requested instant in a running session. */
export function dataMinutesWindow(span: Span, requested: number): { from: number; to: number } {
  return { from: span.start, to: requested - MINUTE_MS };
}

/** A listed expiration of a root. */
export interface ListedExpiration {
  root: string;
  dateOfExpiry: string;
}

/** An expiration a route values: the root whose chain it is and its settlement instant. */
export interface ChosenExpiration extends ListedExpiration {
  settlement: number;
}

/** One expiration per date, the root settling later where two share it; ascending by date. */
export function expirationsByDate(listed: readonly ListedExpiration[]): ChosenExpiration[] {
  const byDate = new Map<string, ChosenExpiration>();
  for (const e of listed) {
    const settlement = settlementInstant(e.root, e.dateOfExpiry);
    const held = byDate.get(e.dateOfExpiry);
    if (held === undefined || settlement > held.settlement || (settlement === held.settlement && e.root < held.root)) {
      byDate.set(e.dateOfExpiry, { ...e, settlement });
    }
  }
  return [...byDate.values()].sort((a, b) => (a.dateOfExpiry < b.dateOfExpiry ? -1 : 1));
}

/**
 * The expirations a skew request covers: the named ones (date_of_expiry or expirations) still to
 * settle after the instant, else the nearest DEFAULT_SKEW_EXPIRATIONS that settle at least
 * MIN_TIME_TO_RUN_MS after it.
 */
export function skewExpirations(listed: readonly ListedExpiration[], instant: number, named: readonly string[] | null): ChosenExpiration[] {
  const dates = expirationsByDate(listed);
  if (named !== null) {
    const wanted = new Set(named);
    return dates.filter((e) => wanted.has(e.dateOfExpiry) && e.settlement > instant);
  }
  return dates.filter((e) => e.settlement - instant >= MIN_TIME_TO_RUN_MS).slice(0, DEFAULT_SKEW_EXPIRATIONS);
}

/** Calendar days from one date to a later one (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Whether an underlying price whose bar started at `barStart` is stale at the instant. */
export function underlyingStale(barStart: number | null, instant: number): boolean {
  return barStart === null || instant - barStart > UNDERLYING_FRESH_MS;
}

/** Underlyings that are indexes (roots.ts), whose value is calculated only in the regular session. */
const INDEX_UNDERLYINGS: ReadonlySet<string> = new Set(OPTION_ROOTS.filter((r) => r.kind === 'index').map((r) => r.underlying));

/** Whether the underlying is an index (roots.ts), which has no price outside its calculation hours. */
export function isIndexUnderlying(underlying: string): boolean {
  return INDEX_UNDERLYINGS.has(underlying.trim().toUpperCase());
}

/** Where a valuation's underlying price comes from (the contract's Valuation.underlying_source). */
export type UnderlyingSource = 'bar' | 'regular_close';

/**
 * The instant an underlying's price is read at for a valuation time, and what it is: the
 * valuation time itself (the last one-minute bar ended by it, `bar`), except for an index outside
 * its calculation hours, the regular session of the exchange calendar (09:30 to 16:00 ET, 13:00
 * on an early close): an index has no price after its close, overnight or before its open, so it
 * is read at the close of its last regular session ended by then (`regular_close`), whatever bars
 * a feed may hold after it. Outside the calendar's years the time itself.
 */
export function underlyingPriceInstant(underlying: string, valuedAt: number): { at: number; source: UnderlyingSource } {
  if (!isIndexUnderlying(underlying)) return { at: valuedAt, source: 'bar' };
  try {
    const today = calendarDay(newYorkDate(valuedAt));
    if (
      today.open_timestamp !== null &&
      today.close_timestamp !== null &&
      valuedAt >= today.open_timestamp &&
      valuedAt <= today.close_timestamp
    )
      return { at: valuedAt, source: 'bar' };
    const last = completedSessions(valuedAt, 1)[0];
    const close = last === undefined ? null : calendarDay(last).close_timestamp;
    return close === null ? { at: valuedAt, source: 'bar' } : { at: close, source: 'regular_close' };
  } catch (error) {
    if (error instanceof CalendarRangeError) return { at: valuedAt, source: 'bar' };
    throw error;
  }
}

/**
 * The chain's minute from the newest sample minute of each contract read up to the instant: the
 * newest minute m that is some contract's newest and at or before which at least half of them have
 * their newest sample (the median, taking the older middle one), so a snapshot of the whole chain
 * wins over the one-minute samples of the strikes near the money; null for no contract.
 */
export function chainMinute(newestMinutes: readonly number[]): number | null {
  if (newestMinutes.length === 0) return null;
  const sorted = [...newestMinutes].sort((a, b) => b - a);
  // The median newest minute: half the contracts were sampled at it or later.
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The valuation time of a chain minute: the minute's end, not after the instant. */
export function chainValuationTime(minute: number, instant: number): number {
  return Math.min(minute + MINUTE_MS, instant);
}
