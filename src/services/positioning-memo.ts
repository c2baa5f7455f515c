/**
 * Levels, heat map and skew answers kept per process (response-memo.ts), so that a repeated request
 * does not read and value the whole chain again: the bare read of an SPX family's inputs alone takes
 * longer than the answer should. The valued book they are built from (positioning.ts) is kept too,
 * so that requests differing only in what they show of one book (greek, unit, perspective, include,
 * the heat map's window or metric) read and value it once.
 *
 * The key names everything an answer is a function of:
 * - the route and its whole query (after the contract's defaults);
 * - the trading date and the valuation instant the request resolves to (chain-valuation.ts
 *   valuationWindow): all it reads of the clock;
 * - the market data stamp of the dates it reads (db/market-data-changes.ts): open interest up to
 *   OPEN_INTEREST_LOOKBACK_DAYS before the trading date, prints from that date on (flow_adjusted),
 *   the date's quotes and prints, the underlying's bars from UNDERLYING_LOOKBACK_MS before the
 *   instant, and the listed contracts. Any load that changes one of those commits a new row of the
 *   log, so the next request reads another stamp and computes afresh: nothing stale is served.
 *
 * Only a session whose valuation instant is already past is kept (instant before now: a completed
 * session, or one valued at its close); during a session the instant is the request's own time, so
 * no two requests share one. A refused request (422, 503) is not kept. The memos are the deps'
 * (memos.ts: one set per process, so each cluster worker holds its own), at most
 * POSITIONING_MEMO_LIMITS of answers and BOOK_MEMO_LIMITS books. A book's key is the answer's
 * without the route and with only the book's members of the query.
 */
import { addDays } from '../analytics/new-york-time.js';
import { utcDate } from '../db/market-data-changes.js';
import { OPEN_INTEREST_LOOKBACK_DAYS } from '../db/positioning.js';
import type { OperationId } from '../api-contract/openapi.js';
import { UNDERLYING_LOOKBACK_MS, valuationWindow } from './chain-valuation.js';
import { canonicalQuery } from './response-memo.js';
import { keptAnswer } from './text-result.js';
import { withDefault, type DataOf, type Result, type ServiceContext } from './types.js';
import type { VolatilitySession } from '../analytics/volatility/valuation.js';

/** What the key reads of a positioning query. */
interface PositioningQuery {
  underlying_symbol: string;
  date?: string;
  session?: VolatilitySession;
}

/** The dates a request of the trading date valued at the instant reads (module comment). */
export function datesRead(tradingDate: string, instant: number): { from: string; to: string } {
  const openInterestFrom = addDays(tradingDate, -OPEN_INTEREST_LOOKBACK_DAYS);
  const barsFrom = utcDate(instant - UNDERLYING_LOOKBACK_MS);
  const barsTo = utcDate(instant);
  return { from: openInterestFrom < barsFrom ? openInterestFrom : barsFrom, to: barsTo > tradingDate ? barsTo : tradingDate };
}

/** The stamp of what a request reads, or null when its instant is now (a session under way: nothing kept). */
async function requestStamp(
  ctx: ServiceContext,
  q: PositioningQuery,
): Promise<{ tradingDate: string; instant: number; stamp: number } | null> {
  const { tradingDate, instant } = valuationWindow(ctx.now, q.underlying_symbol, withDefault(q.session, 'session'), q.date);
  if (instant >= ctx.now) return null;
  const { from, to } = datesRead(tradingDate, instant);
  return { tradingDate, instant, stamp: await ctx.deps.repositories.marketData.marketDataStamp(from, to) };
}

/**
 * The book of `compute` for the request, kept or computed once (module comment: the key is the
 * same, of `members`, the book's members of the query, only). The books memo is written by this
 * function alone, for positioning.ts's one book type, so what it holds under a book key is a `B`.
 */
export async function memoizedBook<B extends object>(
  ctx: ServiceContext,
  q: PositioningQuery,
  members: object,
  compute: () => Promise<B>,
): Promise<B> {
  const at = await requestStamp(ctx, q);
  if (at === null) return await compute();
  return (await ctx.deps.memos.books.get(JSON.stringify([at.stamp, at.tradingDate, at.instant, canonicalQuery(members)]), compute)) as B;
}

/** The answer of `compute` for the request, kept or computed once (module comment). */
export async function memoizedPositioning<Op extends OperationId>(
  ctx: ServiceContext,
  operation: Op,
  q: PositioningQuery,
  compute: () => Promise<DataOf<Op>>,
  source: Result<Op>['source'] = 'derived',
): Promise<Result<Op>> {
  const at = await requestStamp(ctx, q);
  if (at === null) return { data: await compute(), source };
  const key = JSON.stringify([operation, at.stamp, at.tradingDate, at.instant, canonicalQuery(q)]);
  return await keptAnswer<Op>(ctx.deps.memos.positioning, key, source, compute);
}
