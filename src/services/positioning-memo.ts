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
 *   valuationAt): all it reads of the clock. While a session runs the instant is the end of the
 *   newest minute of data ended by the request's instant, so the requests between two loads of
 *   minutes share it (and their answer); a completed session's instant is its close;
 * - the market data stamp of the dates it reads (db/market-data-changes.ts): open interest up to
 *   OPEN_INTEREST_LOOKBACK_DAYS before the trading date, prints from that date on (flow_adjusted),
 *   the date's quotes and prints, the underlying's bars from UNDERLYING_LOOKBACK_MS before the
 *   instant, and the listed contracts. Any load that changes one of those commits a new row of the
 *   log, so the next request reads another stamp and computes afresh: nothing stale is served.
 *
 * Every answer is kept, during a session as after it: an instant of a session in progress names a
 * minute whose data are all loaded, and a load of a later minute (or any change of the dates read)
 * commits a new row of the log. A refused request (422, 503) is not kept. The memos are the deps'
 * (memos.ts: one set per process, so each cluster worker holds its own), at most
 * POSITIONING_MEMO_LIMITS of answers and BOOK_MEMO_LIMITS books. A book's key is the answer's
 * without the route and with only the book's members of the query.
 */
import { addDays } from '../analytics/new-york-time.js';
import { utcDate } from '../db/market-data-changes.js';
import { OPEN_INTEREST_LOOKBACK_DAYS } from '../db/positioning.js';
import type { OperationId } from '../api-contract/openapi.js';
import { UNDERLYING_LOOKBACK_MS, valuationAt, type InstantQuery, type ValuationWindow } from './chain-valuation.js';
import { canonicalQuery } from './response-memo.js';
import { keptAnswer } from './text-result.js';
import type { DataOf, Result, ServiceContext } from './types.js';

/** A request resolved to the window and instant it values (chain-valuation.ts valuationAt) and the stamp of the data it reads. */
export interface ValuationPoint {
  window: ValuationWindow;
  stamp: number;
}

/** The dates a request of the trading date valued at the instant reads (module comment). */
export function datesRead(tradingDate: string, instant: number): { from: string; to: string } {
  const openInterestFrom = addDays(tradingDate, -OPEN_INTEREST_LOOKBACK_DAYS);
  const barsFrom = utcDate(instant - UNDERLYING_LOOKBACK_MS);
  const barsTo = utcDate(instant);
  return { from: openInterestFrom < barsFrom ? openInterestFrom : barsFrom, to: barsTo > tradingDate ? barsTo : tradingDate };
}

/** The window and instant of a request, and the stamp of what it reads there (module comment). */
export async function valuationPoint(ctx: ServiceContext, q: InstantQuery): Promise<ValuationPoint> {
  const window = await valuationAt(ctx, q);
  const { from, to } = datesRead(window.tradingDate, window.instant);
  return { window, stamp: await ctx.deps.repositories.marketData.marketDataStamp(from, to) };
}

const keyOf = (at: ValuationPoint): [number, string, number] => [at.stamp, at.window.tradingDate, at.window.instant];

/**
 * The book of `compute` at the point, kept or computed once (module comment: the key is the
 * answer's, of `members`, the book's members of the query, only). The books memo is written by
 * this function alone, for positioning.ts's one book type, so what it holds under a book key is a `B`.
 */
export async function memoizedBook<B extends object>(
  ctx: ServiceContext,
  at: ValuationPoint,
  members: object,
  compute: () => Promise<B>,
): Promise<B> {
  return (await ctx.deps.memos.books.get(JSON.stringify([...keyOf(at), canonicalQuery(members)]), compute)) as B;
}

/** The answer of `compute` for the request at its valuation point, kept or computed once (module comment). */
export async function memoizedPositioning<Op extends OperationId>(
  ctx: ServiceContext,
  operation: Op,
  q: InstantQuery,
  compute: (at: ValuationPoint) => Promise<DataOf<Op>>,
  source: Result<Op>['source'] = 'derived',
): Promise<Result<Op>> {
  const at = await valuationPoint(ctx, q);
  // `at` is read through the point's instant: requests of one minute of data share the answer.
  const key = JSON.stringify([operation, ...keyOf(at), canonicalQuery({ ...q, at: undefined })]);
  return await keptAnswer<Op>(ctx.deps.memos.positioning, key, source, async () => await compute(at));
}
