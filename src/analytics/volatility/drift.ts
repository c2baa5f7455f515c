/**
 * Volatility drift: one expiration's at-the-money volatility through a session, bucket by bucket,
 * on the calendar clock and the trading-variance clock (variance-clock.ts), beside the 30-day
 * constant maturity of the two expirations bracketing 30 days (constant-maturity.ts, Cboe's VIX
 * weighting) and the adjusted realized volatility of the underlying (realized.ts). The contract's
 * description of GET /v1/options/volatility/drift states the rules; this module applies them to
 * rows already read.
 *
 * A bucket [start, end) starts on the session's grid; its figures are valued at its end, or at the
 * valuation instant for the bucket in progress: each contract's last quote sample in the bucket
 * (no later than the instant), the close of the last underlying bar of the session ended by then, and
 * time to settlement from then. A bucket is listed once started and when any volatility has a value.
 */
import type { components } from '../../../generated/openapi.js';
import { CalendarRangeError, calendarDay, previousTradingDay } from '../calendar.js';
import type { Span } from '../print-filters.js';
import { MS_PER_YEAR } from '../settlement.js';
import { bracketingTerms, constantMaturityVolatility } from './constant-maturity.js';
import { impliedForward } from './forward.js';
import { outOfTheMoneyPoints, quoteVolatilities, type ChainQuote, type ExpirationMarket, type SmilePoint } from './quotes.js';
import { adjustedRealizedPath, type MinuteBar } from './realized.js';
import { interpolatedAtmVolatility } from './smile.js';
import { chainAtmVolatility, type ExpirationChain } from './surface.js';
import type { ChosenExpiration, VolatilitySession } from './valuation.js';
import { tradingClockVolatility, type TradingVarianceClock } from './variance-clock.js';

export type DriftPoint = components['schemas']['VolatilityDrift']['points'][number];

const MINUTE_MS = 60_000;

/** Sessions of history the regular-session share is estimated from, and the one before them for the first overnight gap. */
export const HISTORY_SESSIONS = 30;

/**
 * The regular sessions (calendar open to close, 16:00 or 13:00 ET) of the HISTORY_SESSIONS + 1
 * trading days before a trading date, oldest first: their daily bars give up to HISTORY_SESSIONS
 * overnight gaps and sessions (realized.ts realizedVolatilityBasis); fewer near the calendar's start.
 */
export function historyWindows(tradingDate: string, sessions = HISTORY_SESSIONS + 1): { date: string; start: number; end: number }[] {
  const out: { date: string; start: number; end: number }[] = [];
  let date = tradingDate;
  while (out.length < sessions) {
    try {
      date = previousTradingDay(date);
    } catch (error) {
      // The calendar starts in 2000: a date near its start has fewer sessions before it.
      if (error instanceof CalendarRangeError) break;
      throw error;
    }
    const day = calendarDay(date);
    if (day.open_timestamp !== null && day.close_timestamp !== null)
      out.push({ date, start: day.open_timestamp, end: day.close_timestamp });
  }
  return out.reverse();
}

/**
 * Where realized variance is measured, and the share of a day's variance the window carries: the
 * regular session is the calendar's (09:30 to 16:00 ET, 13:00 on early closes), the hours over which
 * the share s is estimated and the trading clock accrues it, not the options' later close; the
 * overnight session is its own window, with 1 − s.
 */
export function realizedWindow(
  tradingDate: string,
  session: VolatilitySession,
  span: Span,
  share: number,
): { window: Span; share: number } {
  if (session === 'gth') return { window: span, share: 1 - share };
  const day = calendarDay(tradingDate);
  return { window: { start: day.open_timestamp ?? span.start, end: day.close_timestamp ?? span.end }, share };
}

/** One bucket: its grid start (the point's timestamp) and the instant its figures are valued at. */
export interface DriftBucket {
  start: number;
  /** min(start + interval, session end, valuation instant). */
  at: number;
}

/** The started buckets of a session up to the valuation instant, on the grid from the session's open. */
export function driftBuckets(span: Span, intervalMs: number, instant: number): DriftBucket[] {
  const out: DriftBucket[] = [];
  for (let start = span.start; start < span.end && start < instant; start += intervalMs) {
    out.push({ start, at: Math.min(start + intervalMs, span.end, instant) });
  }
  return out;
}

/**
 * The start of the first bucket still open at an earlier valuation instant: the buckets before it
 * had ended by then (each at its grid end or the session's end), so a drift valued at that instant
 * holds their final points, which a later instant's drift shares (driftPoints' `from`).
 */
export function firstOpenBucket(span: Span, intervalMs: number, earlier: number): number {
  if (earlier <= span.start) return span.start;
  return span.start + Math.floor((earlier - span.start) / intervalMs) * intervalMs;
}

/** Years (ACT/365) from an instant to an expiration's settlement. */
function yearsTo(e: ChosenExpiration, at: number): number {
  return (e.settlement - at) / MS_PER_YEAR;
}

/** The pair of expirations bracketing 30 calendar days at an instant (near under 30 days, next at or over), or null. */
export function thirtyDayPair(listed: readonly ChosenExpiration[], at: number): [ChosenExpiration, ChosenExpiration] | null {
  const pair = bracketingTerms(listed.map((e) => ({ e, time: yearsTo(e, at) })));
  return pair === null ? null : [pair[0].e, pair[1].e];
}

/** Every expiration some bucket's 30-day pair uses (the pair can change within a session), ascending by date. */
export function thirtyDayExpirations(listed: readonly ChosenExpiration[], buckets: readonly DriftBucket[]): ChosenExpiration[] {
  const used = new Set<ChosenExpiration>();
  for (const b of buckets) for (const e of thirtyDayPair(listed, b.at) ?? []) used.add(e);
  return listed.filter((e) => used.has(e));
}

/**
 * chainAtmVolatility's volatility (surface.ts) without solving the quotes it does not read. Total
 * variance interpolated linearly to k = 0, flat beyond the outermost point, reads only the nearest
 * usable out-of-the-money point on each side of the forward (a call at k = 0 alone when there is
 * one), so the puts below the forward are solved downward and the calls at or above it upward,
 * each side until one solves. A chain quoting a strike and right twice goes to chainAtmVolatility.
 * Tested equal to it (drift.test.ts); on a bucket's chain of 80 quotes it solves 2 to 4 instead of
 * about 40, and the drift route's compute falls to about a fifth.
 */
export function bucketAtmVolatility(chain: ExpirationChain, spot: number | null, rate: number): number | null {
  // Rights quoted per strike (1 call, 2 put): a repeat sends the chain to chainAtmVolatility.
  const rights = new Map<number, number>();
  for (const q of chain.quotes) {
    const right = q.type === 'call' ? 1 : 2;
    const held = rights.get(q.strike) ?? 0;
    if ((held & right) !== 0) return chainAtmVolatility(chain, spot, rate)?.volatility ?? null;
    rights.set(q.strike, held | right);
  }
  const forward = impliedForward({ quotes: chain.quotes, time: chain.time, rate, spot });
  if (forward === null) return null;
  const market: ExpirationMarket = { spot, forward: forward.forward, time: chain.time, rate };
  const nearestUsable = (side: readonly ChainQuote[]): SmilePoint[] => {
    for (const q of side) {
      const point = outOfTheMoneyPoints(quoteVolatilities([q], market, 'mid'), market)[0];
      if (point !== undefined && Number.isFinite(point.moneyness) && point.totalVariance > 0) return [point];
    }
    return [];
  };
  const puts = chain.quotes.filter((q) => q.type === 'put' && q.strike < market.forward).sort((a, b) => b.strike - a.strike);
  const calls = chain.quotes.filter((q) => q.type === 'call' && q.strike >= market.forward).sort((a, b) => a.strike - b.strike);
  return interpolatedAtmVolatility([...nearestUsable(puts), ...nearestUsable(calls)], chain.time);
}

/** One stored quote sample of a contract of an expiration the drift values. */
export interface DriftQuote extends ChainQuote {
  /** The expiration's date (one expiration per date, valuation.ts expirationsByDate). */
  dateOfExpiry: string;
  contractId: number;
  /** Start of the sample's minute, unix ms. */
  minute: number;
  /** Quote time, unix ms. */
  quoteTs: number;
}

export interface DriftInput {
  /** The session window; the bucket grid starts at its start. */
  span: Span;
  intervalMs: number;
  /** Valuation instant: now while the session runs, its close once ended (valuation.ts valuationInstant). */
  instant: number;
  /** Continuously compounded rate of the trading date. */
  rate: number;
  tracked: ChosenExpiration;
  /** Every listed expiration, one per date: the 30-day pair is chosen among them. */
  listed: readonly ChosenExpiration[];
  quotes: readonly DriftQuote[];
  /** The underlying's one-minute bars of the session. */
  bars: readonly MinuteBar[];
  /** Where realized variance is measured and the share of a day's variance that window carries. */
  realized: { window: Span; share: number };
  /** The trading-variance clock through the tracked expiration; null when it cannot be built. */
  clock: TradingVarianceClock | null;
  /**
   * The start of the first bucket to value (a bucket start on the grid; default the session's
   * start): the points of the buckets before it are known already (extendedDrift's rule). Each
   * bucket's point reads only its own quotes and the bars ended by its end, so the points from here
   * on are those of the whole session's computation.
   */
  from?: number;
}

/**
 * Each contract's last sample per bucket (by minute), per expiration date: date → bucket index →
 * contract → quote; the index counted from the bucket `first` of the session's grid, `buckets` of them.
 */
function lastQuotes(input: DriftInput, first: number, buckets: number): Map<string, Map<number, Map<number, DriftQuote>>> {
  const { span, intervalMs, instant } = input;
  const out = new Map<string, Map<number, Map<number, DriftQuote>>>();
  for (const q of input.quotes) {
    if (q.minute < span.start || q.minute >= instant || q.quoteTs > instant) continue;
    const index = Math.floor((q.minute - span.start) / intervalMs) - first;
    if (index < 0 || index >= buckets) continue;
    let byBucket = out.get(q.dateOfExpiry);
    if (byBucket === undefined) out.set(q.dateOfExpiry, (byBucket = new Map<number, Map<number, DriftQuote>>()));
    let byContract = byBucket.get(index);
    if (byContract === undefined) byBucket.set(index, (byContract = new Map<number, DriftQuote>()));
    const held = byContract.get(q.contractId);
    if (held === undefined || q.minute > held.minute || (q.minute === held.minute && q.quoteTs > held.quoteTs))
      byContract.set(q.contractId, q);
  }
  return out;
}

/** Close of the last bar of the session ended by each instant (ascending instants), or null. */
function pricesAt(bars: readonly MinuteBar[], span: Span, instants: readonly number[]): (number | null)[] {
  const sorted = bars.filter((b) => b.timestamp >= span.start && b.close > 0).sort((x, y) => x.timestamp - y.timestamp);
  let j = 0;
  let price: number | null = null;
  return instants.map((t) => {
    while (j < sorted.length && (sorted[j] as MinuteBar).timestamp + MINUTE_MS <= t) price = (sorted[j++] as MinuteBar).close;
    return price;
  });
}

/** The drift's points (module comment). */
export function driftPoints(input: DriftInput): DriftPoint[] {
  const { span, intervalMs, instant, rate, tracked, listed, clock } = input;
  const from = input.from ?? span.start;
  const buckets = driftBuckets(span, intervalMs, instant).filter((b) => b.start >= from);
  const first = Math.round((from - span.start) / intervalMs);
  const quotes = lastQuotes(input, first, buckets.length);
  const instants = buckets.map((b) => b.at);
  const prices = pricesAt(input.bars, span, instants);
  const realized = adjustedRealizedPath(input.bars, input.realized.window, input.realized.share, instants);

  const points: DriftPoint[] = [];
  buckets.forEach((bucket, i) => {
    const spot = prices[i] ?? null;
    const memo = new Map<string, number | null>();
    const atmVolatility = (e: ChosenExpiration): number | null => {
      const held = memo.get(e.dateOfExpiry);
      if (held !== undefined) return held;
      const time = yearsTo(e, bucket.at);
      const chain = quotes.get(e.dateOfExpiry)?.get(i);
      const volatility = time > 0 && chain !== undefined ? bucketAtmVolatility({ time, quotes: [...chain.values()] }, spot, rate) : null;
      memo.set(e.dateOfExpiry, volatility);
      return volatility;
    };

    const implied = atmVolatility(tracked);
    const calendarYears = yearsTo(tracked, bucket.at);
    const tradingYears = clock === null ? null : clock.years(bucket.at, tracked.settlement);
    const tradingClock = implied === null || tradingYears === null ? null : tradingClockVolatility(implied, calendarYears, tradingYears);

    let thirtyDay: number | null = null;
    const pair = thirtyDayPair(listed, bucket.at);
    if (pair !== null) {
      const [near, next] = pair;
      const s1 = atmVolatility(near);
      const s2 = s1 === null ? null : atmVolatility(next);
      if (s1 !== null && s2 !== null)
        thirtyDay = constantMaturityVolatility(
          { time: yearsTo(near, bucket.at), volatility: s1 },
          { time: yearsTo(next, bucket.at), volatility: s2 },
        );
    }

    const adjusted = realized[i] ?? null;
    if (implied === null && tradingClock === null && thirtyDay === null && adjusted === null) return;
    points.push({
      adjusted_realized_volatility: adjusted,
      implied_volatility: implied,
      implied_volatility_30d: thirtyDay,
      implied_volatility_trading_clock: tradingClock,
      timestamp: bucket.start,
      underlying_price: spot,
    });
  });
  return points;
}
