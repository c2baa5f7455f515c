/**
 * Implied-volatility samples of one contract: one-minute NBBO samples grouped into interval
 * buckets, the last sample of each bucket standing for it (as a bar's close), its bid, ask and
 * midpoint solved for volatility by Black-Scholes-Merton (implied-volatility.ts impliedVolatility) on the time
 * to the settlement instant (settlement.ts), the rate of the trading date (rates.ts) and the carry
 * of the expiration's put-call parity forward, at the underlying price of the sample's minute: the
 * close of that one-minute bar, else of the minute before (as prints are classified). The forward
 * is that of the skew route (volatility/minute-forward.ts chainMinuteCarry) on the quotes of the contract's
 * expiration sampled in the same minute, its carry q = r − ln(F/S)/T, so that a call and a put of
 * one strike have one volatility; a minute without a strike quoted on both legs takes the carry of
 * the nearest sampled minute with one (within FORWARD_MAX_AGE_MS), else the underlying's fixed
 * dividend yield (rates.ts), and the sample's `forward` is then null.
 *
 * Sessions: rth (the default) is the regular session (09:30 to the options close); gth is the Cboe
 * Global Trading Hours window of the trading date (20:15 ET the evening before to 09:25 ET,
 * sessions.ts optionsOvernightWindow), only for roots that have one; all is both. Each window has
 * its own bucket grid starting at its unclipped open (09:30, or 20:15 the evening before), so a
 * bucket never spans two windows.
 */
import { CALENDAR_FIRST_DATE, CALENDAR_LAST_DATE, isTradingDay, tradingDaysBetween } from './calendar.js';
import { addDays, newYorkDate, newYorkTimeToMs } from './new-york-time.js';
import { type OptionType } from './pricing.js';
import { impliedVolatility } from './implied-volatility.js';
import { dividendYield, riskFreeRate } from './rates.js';
import { optionRoot } from './roots.js';
import { optionsOvernightWindow, optionsRegularClose } from './sessions.js';
import { yearsToSettlement } from './settlement.js';
import { carryNear, chainMinuteCarry, type MinuteCarry } from './volatility/minute-forward.js';
import type { ChainQuote } from './volatility/quotes.js';
import type { SessionChoice, Span } from './print-filters.js';

export const INTERVAL_MS: Readonly<Record<'1m' | '5m' | '10m' | '15m' | '30m' | '1h', number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '10m': 600_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
};

/** Longest range of one request. */
export const MAX_RANGE_MS = 31 * 86_400_000;

const MINUTE_MS = 60_000;

/** The regular session of a trading date for a root: 09:30 ET to the options close (16:00 equity, 16:15 index and ETF). */
export function regularSession(date: string, root: string): Span | null {
  if (!isTradingDay(date)) return null;
  const kind = optionRoot(root)?.kind === 'equity' ? 'equity' : 'index_or_etf';
  const close = optionsRegularClose(date, kind);
  return close === null ? null : { start: newYorkTimeToMs(date, '09:30'), end: close };
}

/** Whether the root trades in Cboe Global Trading Hours (roots.ts); an unknown root does not. */
export function hasOvernightSession(root: string): boolean {
  return optionRoot(root)?.overnight === true;
}

/** The overnight window of a trading date (20:15 ET the evening before to 09:25 ET), for a root that has one. */
function overnightSession(date: string, root: string): Span | null {
  if (!hasOvernightSession(root)) return null;
  const window = optionsOvernightWindow(date);
  return window ? { start: window.start_time, end: window.end_time } : null;
}

/** The sampled sessions of one trading date, oldest first: all is the overnight window then the regular session. */
function sessionsOf(date: string, root: string, session: SessionChoice): Span[] {
  const out: Span[] = [];
  if (session !== 'rth') {
    const overnight = overnightSession(date, root);
    if (overnight) out.push(overnight);
  }
  if (session !== 'gth') {
    const regular = regularSession(date, root);
    if (regular) out.push(regular);
  }
  return out;
}

/** A session window clipped to the request, with the start of its bucket grid. */
export interface SampleWindow extends Span {
  /** The window's own open, unclipped: 09:30 ET for a regular session, 20:15 ET the evening before for an overnight one. */
  grid: number;
  /** The trading date the window belongs to (an overnight window's evening belongs to the next date). */
  tradingDate: string;
}

/** The chosen sessions of every trading date that meet [from, to), clipped to it, oldest first. */
export function sampleWindows(from: number, to: number, root: string, session: SessionChoice): SampleWindow[] {
  // The exchange calendar covers CALENDAR_FIRST_DATE to CALENDAR_LAST_DATE; nothing trades outside.
  const first = Math.max(from, newYorkTimeToMs(CALENDAR_FIRST_DATE, '00:00'));
  const last = Math.min(to, newYorkTimeToMs(CALENDAR_LAST_DATE, '23:59'));
  if (!(first < last)) return [];
  // A date's overnight window opens the calendar evening before: the day after the range may reach back into it.
  const dayAfter = addDays(newYorkDate(last), 1);
  const out: SampleWindow[] = [];
  for (const date of tradingDaysBetween(newYorkDate(first), dayAfter > CALENDAR_LAST_DATE ? CALENDAR_LAST_DATE : dayAfter)) {
    for (const s of sessionsOf(date, root, session)) {
      const start = Math.max(s.start, from);
      const end = Math.min(s.end, to);
      if (start < end) out.push({ start, end, grid: s.start, tradingDate: date });
    }
  }
  return out;
}

/** Start of the interval bucket holding a minute, on the grid that starts at `grid`. */
export function bucketOf(minute: number, intervalMs: number, grid: number): number {
  return grid + Math.floor((minute - grid) / intervalMs) * intervalMs;
}

/**
 * Where reading resumes after a served bucket: its end, cut at the end of its window (a window's
 * last bucket may be short, as 09:15 to 09:25 ET of an overnight one at 1h), so no minute of the
 * next window's first bucket is skipped.
 */
export function bucketEnd(bucket: number, intervalMs: number, windows: readonly SampleWindow[]): number {
  const window = windows.find((w) => bucket >= w.grid && bucket < w.end);
  return window ? Math.min(bucket + intervalMs, window.end) : bucket + intervalMs;
}

/**
 * How many buckets of the windows' grids meet [from, to): the rows a complete series of the span
 * holds at this interval (a bucket partly inside counts, as a served one does).
 */
export function bucketsMeeting(windows: readonly SampleWindow[], from: number, to: number, intervalMs: number): number {
  let count = 0;
  for (const w of windows) {
    const start = Math.max(w.start, from);
    const end = Math.min(w.end, to);
    if (!(start < end)) continue;
    const first = bucketOf(start, intervalMs, w.grid);
    count += Math.ceil((end - first) / intervalMs);
  }
  return count;
}

export interface MinuteQuote {
  minute: number;
  quoteTs: number;
  bid: number | null;
  ask: number | null;
}

export interface Bar {
  ts: number;
  close: number;
}

export interface SampledContract {
  optionSymbol: string;
  root: string;
  underlying: string;
  type: OptionType;
  strike: number;
  dateOfExpiry: string;
}

export interface IvSample {
  ask: number | null;
  ask_implied_volatility: number | null;
  bid: number | null;
  bid_implied_volatility: number | null;
  forward: number | null;
  implied_volatility: number | null;
  midpoint: number | null;
  option_symbol: string;
  timestamp: number;
  underlying_price: number | null;
  underlying_timestamp: number | null;
}

export interface BucketQuote {
  bucket: number;
  quote: MinuteQuote;
  tradingDate: string;
}

/**
 * The last quote of each bucket, buckets ascending, each on the grid of its window (quotes and
 * windows given ascending; a quote outside every window is not sampled).
 */
export function lastQuotePerBucket(quotes: readonly MinuteQuote[], intervalMs: number, windows: readonly SampleWindow[]): BucketQuote[] {
  const out: BucketQuote[] = [];
  let w = 0;
  for (const quote of quotes) {
    while (w < windows.length && quote.minute >= windows[w]!.end) w += 1;
    const window = windows[w];
    if (!window || quote.minute < window.start) continue;
    const bucket = bucketOf(quote.minute, intervalMs, window.grid);
    const last = out.at(-1);
    if (last && last.bucket === bucket) last.quote = quote;
    else out.push({ bucket, quote, tradingDate: window.tradingDate });
  }
  return out;
}

/** A quoted price, or null for no price: zero, negative or not finite. */
function priceOrNull(price: number | null): number | null {
  return price !== null && price > 0 && Number.isFinite(price) ? price : null;
}

/** The underlying bar a sample of a minute is valued at: the minute's, else the minute before's. */
function barOf(bars: ReadonlyMap<number, Bar>, minute: number): Bar | null {
  return bars.get(minute) ?? bars.get(minute - MINUTE_MS) ?? null;
}

/**
 * The carry of each bucket's sample (by its minute): volatility/minute-forward.ts chainMinuteCarry,
 * q = r − ln(F/S)/T from the parity forward F of the expiration's quotes of that minute
 * (`quotesByMinute`, both legs of its strikes), S the bar the sample is valued at, T from the
 * sample's quote to settlement; a minute without a forward takes the carry of the nearest bucket
 * minute with one, within FORWARD_MAX_AGE_MS (carryNear); none: not in the map.
 */
export function parityCarries(
  contract: SampledContract,
  buckets: readonly BucketQuote[],
  quotesByMinute: ReadonlyMap<number, readonly ChainQuote[]>,
  bars: ReadonlyMap<number, Bar>,
): Map<number, number> {
  const own: MinuteCarry[] = [];
  for (const { quote, tradingDate } of buckets) {
    const quotes = quotesByMinute.get(quote.minute);
    if (quotes === undefined) continue;
    const carry = chainMinuteCarry(quotes, {
      spot: barOf(bars, quote.minute)?.close ?? null,
      time: yearsToSettlement(quote.quoteTs, contract.root, contract.dateOfExpiry),
      rate: riskFreeRate(tradingDate),
    });
    if (carry !== null) own.push({ minute: quote.minute, carry });
  }
  const carries = new Map<number, number>();
  for (const { quote } of buckets) {
    const carry = carryNear(own, quote.minute);
    if (carry !== null) carries.set(quote.minute, carry);
  }
  return carries;
}

/**
 * One sample: the quote's prices and their volatilities at the underlying bar of its minute (else
 * the minute before), at the rate of its trading date (an overnight bucket's evening belongs to the
 * next date), and the carry of its expiration's parity forward (parityCarries), else the
 * underlying's fixed dividend yield (`forward` null).
 */
export function ivSample(
  contract: SampledContract,
  { bucket, quote, tradingDate }: BucketQuote,
  bars: ReadonlyMap<number, Bar>,
  carry: number | null = null,
): IvSample {
  const bar = barOf(bars, quote.minute);
  // A missing value is null, never 0: OPRA disseminates a zero bid or ask for "no bid" or "no
  // offer" (as print-side.ts reads it), so a one-sided quote has no midpoint.
  const bid = priceOrNull(quote.bid);
  const ask = priceOrNull(quote.ask);
  const midpoint = bid !== null && ask !== null && ask >= bid ? (bid + ask) / 2 : null;
  const spot = bar?.close ?? null;
  const time = yearsToSettlement(quote.quoteTs, contract.root, contract.dateOfExpiry);
  const rate = riskFreeRate(tradingDate);
  const yieldUsed = carry ?? dividendYield(contract.underlying);
  const solve = (price: number | null): number | null => {
    if (price === null || spot === null) return null;
    return impliedVolatility({ type: contract.type, price, spot, strike: contract.strike, time, rate, dividendYield: yieldUsed });
  };
  return {
    ask,
    ask_implied_volatility: solve(ask),
    bid,
    bid_implied_volatility: solve(bid),
    forward: carry !== null && spot !== null && time > 0 ? spot * Math.exp((rate - carry) * time) : null,
    implied_volatility: solve(midpoint),
    midpoint,
    option_symbol: contract.optionSymbol,
    timestamp: bucket,
    underlying_price: spot,
    underlying_timestamp: bar?.ts ?? null,
  };
}

export interface IvRangeRequest {
  root: string;
  session: SessionChoice;
  date?: string;
  startTime?: number;
  endTime?: number;
  /** The default range is the chosen session of `defaultDate` (the current session, else the latest completed one; an overnight session in progress for gth). */
  defaultDate: string;
}

export type IvRange = { ok: true; from: number; to: number } | { ok: false; problems: { parameter: string; message: string }[] };

/**
 * The requested range: one date's chosen sessions (gth and all start 20:15 ET the evening before;
 * all ends at the regular close), or start_time/end_time (at most 31 days; one bound alone reaches
 * 31 days from it), or by default the chosen sessions of the latest regular session's date. An
 * empty range (a date without the session) is from = to. The windows sampled within the range are
 * sampleWindows(from, to, root, session).
 */
export function resolveIvRange(r: IvRangeRequest): IvRange {
  // Date and a time range are not given together: a rule of the contract (x-parameter-rules).
  const given = [...(r.startTime !== undefined ? ['start_time'] : []), ...(r.endTime !== undefined ? ['end_time'] : [])];
  if (r.startTime !== undefined || r.endTime !== undefined) {
    const from = r.startTime ?? r.endTime! - MAX_RANGE_MS;
    const to = r.endTime ?? r.startTime! + MAX_RANGE_MS;
    if (from >= to)
      return { ok: false, problems: given.map((parameter) => ({ parameter, message: 'start_time must be before end_time' })) };
    if (to - from > MAX_RANGE_MS)
      return { ok: false, problems: given.map((parameter) => ({ parameter, message: 'the range is at most 31 days' })) };
    return { ok: true, from, to };
  }
  const sessions = sessionsOf(r.date ?? r.defaultDate, r.root, r.session);
  const first = sessions[0];
  const last = sessions.at(-1);
  return first && last ? { ok: true, from: first.start, to: last.end } : { ok: true, from: 0, to: 0 };
}
