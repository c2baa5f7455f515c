/**
 * Implied-volatility samples of one contract: one-minute NBBO samples grouped into interval
 * buckets aligned to the regular open (09:30 ET), the last sample of each bucket standing for it
 * (as a bar's close), its bid, ask and midpoint solved for volatility by Black-Scholes-Merton
 * (pricing.ts impliedVolatility) on the time to the settlement instant (settlement.ts), the rate of
 * the date (rates.ts) and the underlying's dividend yield, at the underlying price of the sample's
 * minute: the close of that one-minute bar, else of the minute before (as prints are classified).
 * Computed only in the regular session (09:30 to the options close).
 */
import { CALENDAR_FIRST_DATE, CALENDAR_LAST_DATE, isTradingDay, tradingDaysBetween } from './calendar.js';
import { newYorkDate, newYorkTimeToMs } from './new-york-time.js';
import { impliedVolatility, type OptionType } from './pricing.js';
import { dividendYield, riskFreeRate } from './rates.js';
import { optionRoot } from './roots.js';
import { optionsRegularClose } from './sessions.js';
import { yearsToSettlement } from './settlement.js';
import type { Span } from './print-filters.js';

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

/** The regular sessions within [from, to), clipped to it, oldest first. */
export function regularWindows(from: number, to: number, root: string): Span[] {
  // The exchange calendar covers CALENDAR_FIRST_DATE to CALENDAR_LAST_DATE; nothing trades outside.
  const first = Math.max(from, newYorkTimeToMs(CALENDAR_FIRST_DATE, '00:00'));
  const last = Math.min(to, newYorkTimeToMs(CALENDAR_LAST_DATE, '23:59'));
  if (!(first < last)) return [];
  const out: Span[] = [];
  for (const date of tradingDaysBetween(newYorkDate(first), newYorkDate(last))) {
    const s = regularSession(date, root);
    if (!s) continue;
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    if (start < end) out.push({ start, end });
  }
  return out;
}

/** Start of the interval bucket holding a minute: the grid starts at 09:30 ET of its date. */
export function bucketOf(minute: number, intervalMs: number): number {
  const open = newYorkTimeToMs(newYorkDate(minute), '09:30');
  return open + Math.floor((minute - open) / intervalMs) * intervalMs;
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
  implied_volatility: number | null;
  midpoint: number | null;
  option_symbol: string;
  timestamp: number;
  underlying_price: number | null;
  underlying_timestamp: number | null;
}

/** The last quote of each bucket, buckets ascending (quotes given ascending by minute). */
export function lastQuotePerBucket(quotes: readonly MinuteQuote[], intervalMs: number): { bucket: number; quote: MinuteQuote }[] {
  const out: { bucket: number; quote: MinuteQuote }[] = [];
  for (const quote of quotes) {
    const bucket = bucketOf(quote.minute, intervalMs);
    const last = out.at(-1);
    if (last && last.bucket === bucket) last.quote = quote;
    else out.push({ bucket, quote });
  }
  return out;
}

/** One sample: the quote's prices and their volatilities at the underlying bar of its minute (else the minute before). */
export function ivSample(contract: SampledContract, bucket: number, quote: MinuteQuote, bars: ReadonlyMap<number, Bar>): IvSample {
  const bar = bars.get(quote.minute) ?? bars.get(quote.minute - MINUTE_MS) ?? null;
  const bid = quote.bid !== null && quote.bid >= 0 ? quote.bid : null;
  const ask = quote.ask !== null && quote.ask > 0 ? quote.ask : null;
  const midpoint = bid !== null && ask !== null && ask >= bid ? (bid + ask) / 2 : null;
  const spot = bar?.close ?? null;
  const solve = (price: number | null): number | null => {
    if (price === null || spot === null) return null;
    return impliedVolatility({
      type: contract.type,
      price,
      spot,
      strike: contract.strike,
      time: yearsToSettlement(quote.quoteTs, contract.root, contract.dateOfExpiry),
      rate: riskFreeRate(newYorkDate(bucket)),
      dividendYield: dividendYield(contract.underlying),
    });
  };
  return {
    ask,
    ask_implied_volatility: solve(ask),
    bid,
    bid_implied_volatility: solve(bid),
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
  date?: string;
  startTime?: number;
  endTime?: number;
  /** The default range is the latest regular session at `defaultDate`. */
  defaultDate: string;
}

export type IvRange = { ok: true; from: number; to: number } | { ok: false; problems: { parameter: string; message: string }[] };

/**
 * The requested range: one date's regular session, or start_time/end_time (at most 31 days; one
 * bound alone reaches 31 days from it), or by default the latest regular session. An empty range
 * (a date without a session) is from = to.
 */
export function resolveIvRange(r: IvRangeRequest): IvRange {
  const given = [...(r.startTime !== undefined ? ['start_time'] : []), ...(r.endTime !== undefined ? ['end_time'] : [])];
  if (r.date !== undefined && given.length > 0) {
    const message = 'give date or start_time/end_time, not both';
    return { ok: false, problems: ['date', ...given].map((parameter) => ({ parameter, message })) };
  }
  if (r.startTime !== undefined || r.endTime !== undefined) {
    const from = r.startTime ?? r.endTime! - MAX_RANGE_MS;
    const to = r.endTime ?? r.startTime! + MAX_RANGE_MS;
    if (from >= to) return { ok: false, problems: given.map((parameter) => ({ parameter, message: 'start_time must be before end_time' })) };
    if (to - from > MAX_RANGE_MS) return { ok: false, problems: given.map((parameter) => ({ parameter, message: 'the range is at most 31 days' })) };
    return { ok: true, from, to };
  }
  const session = regularSession(r.date ?? r.defaultDate, r.root);
  return session ? { ok: true, from: session.start, to: session.end } : { ok: true, from: 0, to: 0 };
}
