/**
 * Volatility drift of one expiration through a session (analytics/volatility/drift.ts states the
 * rules the contract gives): the listed expirations of the underlying's roots, the tracked one and
 * those bracketing 30 days; the quote samples in the session of every one of their contracts (the
 * parity forward's first median is over every strike quoted on both legs, so no strike is left
 * unread: a band around the underlying's range so far would make a bucket's answer depend on the
 * range after it); the underlying's bars of the session; and the regular-session
 * daily bars of the sessions before the trading date, for the regular-session share of variance.
 */
import { CalendarRangeError } from '../analytics/calendar.js';
import { hasOvernightSession, INTERVAL_MS } from '../analytics/iv-samples.js';
import { thousandthsToStrike } from '../analytics/occ.js';
import { rootsOf, type Span } from '../analytics/print-filters.js';
import { riskFreeRate } from '../analytics/rates.js';
import { optionRoot } from '../analytics/roots.js';
import {
  driftBuckets,
  driftPoints,
  firstOpenBucket,
  historyWindows,
  realizedWindow,
  thirtyDayExpirations,
  type DriftQuote,
} from '../analytics/volatility/drift.js';
import { realizedVolatilityBasis, type MinuteBar } from '../analytics/volatility/realized.js';
import { expirationsByDate, valuationInstant, volatilitySession, type VolatilitySession } from '../analytics/volatility/valuation.js';
import { tradingVarianceClock, type TradingVarianceClock } from '../analytics/volatility/variance-clock.js';
import { sessionBars, underlyingBarsBetween } from '../db/underlying-bars.js';
import { listedExpirations } from '../db/chain.js';
import {
  deleteStaleDriftAnswers,
  expirationContracts,
  newestDriftBefore,
  readDriftAnswer,
  sessionQuoteSamples,
  storeDriftAnswer,
} from '../db/volatility-drift.js';
import { marketDataStamp, utcDate } from '../db/market-data-changes.js';
import { changeLogPosition } from '../db/position-books.js';
import { answerQueryKey, BACKGROUND_VALUATION_GRACE_MS, PREVIOUS_MINUTE_REACH_MS } from './books.js';
import { nowAnswer } from './now-answers.js';
import { ApiError, noData } from '../errors.js';
import { instantOfData, requestedInstant, tradingDateAt } from './chain-valuation.js';
import { explainMissingPrints } from './session-data.js';
import { textResult } from './text-result.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

const MINUTE_MS = 60_000;

/** The trading clock through the expiration; null when the calendar does not reach it (an expiration after 2035). */
function tradingClock(share: number, tradingDate: string, dateOfExpiry: string): TradingVarianceClock | null {
  try {
    return tradingVarianceClock(share, tradingDate, dateOfExpiry);
  } catch (error) {
    if (error instanceof CalendarRangeError) return null;
    throw error;
  }
}

/** The stamp's first date: the calendar's first (every date the route could read). */
const FIRST_DATE = '2000-01-01';

/**
 * The drift, up to the valuation instant (chain-valuation.ts valuationAt's rule: the close of a
 * session ended by the request's instant; while it runs, the end of the newest minute of data).
 * A drift is keyed by the query, the trading date, the instant and the market data stamp
 * (db/market-data-changes.ts) of every date up to the instant's: the route reads the session's
 * quotes and bars, the bars of the 30 sessions before, the listed contracts and, for a session
 * without bars, the last bar before it at any earlier date, so any committed load of those changes
 * the stamp and the key. Under its key a drift is kept per process as JSON text (the deps' memo,
 * memos.ts DRIFT_MEMO_LIMITS), and read from the answers the book valuer stores for the deployment
 * (drift_answers: each family's default query as each minute loads, storeDrift) before it is
 * computed.
 */
export async function getVolatilityDrift(ctx: ServiceContext, q: QueryOf<'getVolatilityDrift'>): Promise<Result<'getVolatilityDrift'>> {
  // At "now", the process's answer until a write that can change it (now-answers.ts).
  if (q.at === undefined) return await nowAnswer(ctx, 'getVolatilityDrift', q, async () => await driftAnswer(ctx, q));
  return await driftAnswer(ctx, q);
}

/** getVolatilityDrift's answer: the stored or kept drift of the query's key, else computed. */
async function driftAnswer(ctx: ServiceContext, q: QueryOf<'getVolatilityDrift'>): Promise<Result<'getVolatilityDrift'>> {
  const { key, request, queryKey } = await driftRequest(ctx, q);
  const db = ctx.deps.db;
  const memo = ctx.deps.memos.drift;
  const live = q.at === undefined && request.instant < request.span.end;
  // While the valuer computes the newest minute's drift (its grace after the minute's end), a request
  // without it answers the previous minute's, naming the newest, instead of computing it in this worker.
  // Whether the stored answers were read already (a miss): the computation below does not read them again.
  let storedMissed = false;
  if (live && ctx.now - request.instant < BACKGROUND_VALUATION_GRACE_MS && !memo.has(key)) {
    const stored = await readDriftAnswer(db, key);
    storedMissed = stored === null;
    if (stored !== null) {
      memo.set(key, stored);
      return textResult<'getVolatilityDrift'>(stored, 'opra');
    }
    const previous = await newestDriftBefore(db, driftOf(request, queryKey), request.instant, driftDates(request));
    if (previous !== null && previous.instant >= request.instant - PREVIOUS_MINUTE_REACH_MS)
      return textResult<'getVolatilityDrift'>(withPendingInstant(previous.body, request.instant), 'opra');
  }
  const text = await memo.get(
    key,
    async () => (storedMissed ? null : await readDriftAnswer(db, key)) ?? JSON.stringify(await extendedDrift(ctx, q, request, queryKey)),
  );
  return textResult<'getVolatilityDrift'>(text, 'opra');
}

/** A stored drift of the previous minute served while the newest is computed: it names the newest. */
function withPendingInstant(body: string, pendingInstant: number): string {
  const data = JSON.parse(body) as { pending_instant: number | null };
  data.pending_instant = pendingInstant;
  return JSON.stringify(data);
}

/** What a drift answer is of, as stored. */
function driftOf(request: DriftRequest, queryKey: string): { symbol: string; session: string; tradingDate: string; queryKey: string } {
  return { symbol: request.symbol, session: request.session, tradingDate: request.tradingDate, queryKey };
}

/** The dates a drift reads (its stamp's): every date up to its instant's. */
function driftDates(request: DriftRequest): { from: string; to: string } {
  const last = utcDate(request.instant);
  return { from: FIRST_DATE, to: last > request.tradingDate ? last : request.tradingDate };
}

/**
 * Computes and stores for the deployment the drift of a query (the book valuer: each family's
 * default query as its minutes load), unless stored under its key already or without an answer
 * (422: nothing to show). Drift answers stored more than DRIFT_ANSWER_LIFETIME_MS before are
 * deleted meanwhile: a later load changed their stamp.
 */
export async function storeDrift(ctx: ServiceContext, q: QueryOf<'getVolatilityDrift'>): Promise<void> {
  const db = ctx.deps.db;
  // The log's position before anything is read: a change committed after it is checked against the answer.
  const changeId = await changeLogPosition(db);
  let found: { key: string; request: DriftRequest; queryKey: string };
  let body: string;
  try {
    found = await driftRequest(ctx, q);
    if ((await readDriftAnswer(db, found.key)) !== null) return;
    body = JSON.stringify(await extendedDrift(ctx, q, found.request, found.queryKey));
  } catch (error) {
    if (error instanceof ApiError) return;
    throw error;
  }
  const { key, request, queryKey } = found;
  await storeDriftAnswer(db, { key, ...driftOf(request, queryKey), instant: request.instant, changeId, body });
  ctx.deps.memos.now.bump();
  await deleteStaleDriftAnswers(db, DRIFT_ANSWER_LIFETIME_MS);
}

/** How long a stored drift answer is kept: a running session's key changes with every minute's load. */
export const DRIFT_ANSWER_LIFETIME_MS = 5 * 60_000;

/** A drift request's key (getVolatilityDrift) and what computing it reads. */
async function driftRequest(
  ctx: ServiceContext,
  q: QueryOf<'getVolatilityDrift'>,
): Promise<{ key: string; request: DriftRequest; queryKey: string }> {
  const symbol = q.underlying_symbol.toUpperCase();
  const session = withDefault(q.session, 'session');
  const interval = withDefault(q.interval, 'interval');
  const roots = rootsOf([symbol]);
  const sessionRoot = session === 'gth' ? roots.find(hasOvernightSession) : roots[0];
  if (sessionRoot === undefined) throw noData(`${symbol} has no overnight session: its options trade only in the regular session.`);
  const underlying = optionRoot(sessionRoot)?.underlying ?? symbol;

  const requested = requestedInstant(ctx, q.at);
  const tradingDate = q.date ?? tradingDateAt(requested, session);
  const span = volatilitySession(tradingDate, sessionRoot, session);
  if (span === null) throw noData(`${tradingDate} is not a trading date.`);
  const asked = valuationInstant(span, requested);
  if (asked === null) throw noData(`The ${session} session of ${tradingDate} has not begun.`);
  const instant = await instantOfData(ctx, tradingDate, span, asked);
  const request = { symbol, session, interval, roots, underlying, tradingDate, span, instant };
  const lastDate = utcDate(instant) > tradingDate ? utcDate(instant) : tradingDate;
  const stamp = await marketDataStamp(ctx.deps.db, FIRST_DATE, lastDate);
  // `at` is read through the instant: requests of one minute of data share the answer.
  const queryKey = answerQueryKey(q);
  return { key: JSON.stringify([stamp, tradingDate, instant, queryKey]), request, queryKey };
}

interface DriftRequest {
  symbol: string;
  session: VolatilitySession;
  interval: NonNullable<QueryOf<'getVolatilityDrift'>['interval']>;
  roots: string[];
  underlying: string;
  tradingDate: string;
  span: Span;
  instant: number;
}

/**
 * The drift of a request, extending the newest stored drift of the same query at an earlier instant
 * of the session that no change since makes stale (db/volatility-drift.ts newestDriftBefore, the
 * books' rule): its points of the buckets that had ended by its instant are final (each reads only
 * its own quotes and the bars ended by its end; drift.ts firstOpenBucket), so only the buckets from
 * the one open then are computed, from their own quotes. While a session runs the valuer stores
 * each family's default drift every minute, so a minute's drift reads about a minute of quotes
 * instead of the whole session's. The answer is the one computed afresh (freshDrift; tested equal).
 */
async function extendedDrift(
  ctx: ServiceContext,
  q: QueryOf<'getVolatilityDrift'>,
  request: DriftRequest,
  queryKey: string,
): Promise<DataOf<'getVolatilityDrift'>> {
  const stored = await newestDriftBefore(ctx.deps.db, driftOf(request, queryKey), request.instant, driftDates(request));
  const prior = stored === null ? null : { instant: stored.instant, drift: JSON.parse(stored.body) as DataOf<'getVolatilityDrift'> };
  return await computeDrift(ctx, q, request, prior);
}

/** A drift computed afresh from the store, without any stored drift: the reference the extended drifts are tested against. */
export async function freshDrift(ctx: ServiceContext, q: QueryOf<'getVolatilityDrift'>): Promise<DataOf<'getVolatilityDrift'>> {
  return await computeDrift(ctx, q, (await driftRequest(ctx, q)).request, null);
}

/**
 * The drift's points over the session up to the request's instant; with `prior` (a valid drift of
 * the same query at an earlier instant, extendedDrift), its final points kept and the rest computed.
 */
async function computeDrift(
  ctx: ServiceContext,
  q: QueryOf<'getVolatilityDrift'>,
  r: DriftRequest,
  prior: { instant: number; drift: DataOf<'getVolatilityDrift'> } | null,
): Promise<DataOf<'getVolatilityDrift'>> {
  const db = ctx.deps.db;
  const { symbol, session, interval, roots, underlying, tradingDate, span, instant } = r;
  // One expiration per date (the later-settling root), settling after the session opens.
  const listed = expirationsByDate(await listedExpirations(db, roots, tradingDate)).filter((e) => e.settlement > span.start);
  if (listed.length === 0) throw noData(`No ${symbol} option expiration is listed for the ${session} session of ${tradingDate}.`);
  const tracked = q.date_of_expiry === undefined ? listed[0] : listed.find((e) => e.dateOfExpiry === q.date_of_expiry);
  if (tracked === undefined)
    throw noData(
      `No ${symbol} expiration on ${q.date_of_expiry} is listed that settles after the ${session} session of ${tradingDate} opens.`,
    );

  const intervalMs = INTERVAL_MS[interval];
  // The buckets computed here: from the first one still open at the prior's instant (all without one).
  const from = prior === null ? span.start : firstOpenBucket(span, intervalMs, prior.instant);
  const kept = prior === null ? [] : prior.drift.points.filter((p) => p.timestamp < from);
  const buckets = driftBuckets(span, intervalMs, instant).filter((b) => b.start >= from);
  const valued = [...new Set([tracked, ...thirtyDayExpirations(listed, buckets)])];
  const rate = riskFreeRate(tradingDate);
  const [barRows, contracts, history] = await Promise.all([
    underlyingBarsBetween(db, [underlying], span.start, instant - MINUTE_MS),
    expirationContracts(db, valued),
    sessionBars(db, underlying, historyWindows(tradingDate)),
  ]);
  const bars: MinuteBar[] = barRows.map((b) => ({ timestamp: b.ts, open: b.open, close: b.close }));

  // Every contract of the valued expirations: the forward's first median is over all their strikes
  // quoted on both legs (a band around the range so far read fewer strikes for a bucket in progress
  // than for the same bucket once the session ended, and changed its answer).
  const quoted = new Map(contracts.map((c) => [c.id, c]));
  const samples = await sessionQuoteSamples(db, tradingDate, [...quoted.keys()], from, instant, instant);
  // A prior answer was computed from samples of the session, which this read's wider set still holds.
  if (samples.length === 0 && prior === null) {
    await explainMissingPrints(ctx, tradingDate);
    throw noData(`No quote of a ${symbol} option is held for the ${session} session of ${tradingDate}.`);
  }
  const quotes: DriftQuote[] = [];
  for (const s of samples) {
    const c = quoted.get(s.contract_id);
    if (c === undefined) continue;
    quotes.push({
      dateOfExpiry: c.dateOfExpiry,
      contractId: c.id,
      strike: thousandthsToStrike(c.strikeThousandths),
      type: c.contractType,
      bid: s.bid,
      ask: s.ask,
      minute: s.minute,
      quoteTs: s.quote_ts,
    });
  }

  const basis = realizedVolatilityBasis(history.map((b) => ({ date: b.date, open: b.open, close: b.close })));
  const points = driftPoints({
    from,
    span,
    intervalMs,
    instant,
    rate,
    tracked,
    listed,
    quotes,
    bars,
    realized: realizedWindow(tradingDate, session, span, basis.regular_session_share),
    clock: tradingClock(basis.regular_session_share, tradingDate, tracked.dateOfExpiry),
  });
  return {
    date_of_expiry: tracked.dateOfExpiry,
    interval,
    pending_instant: null,
    points: [...kept, ...points],
    realized_volatility_basis: { days: basis.days, default_used: basis.default_used, regular_session_share: basis.regular_session_share },
    session,
    trading_date: tradingDate,
    underlying_symbol: symbol,
  };
}
