/**
 * GET /v1/futures/trades: a CME trade date's trades of one contract or of a root's contracts, paged
 * by cursor in either direction. The trade date defaults to the one trading now, else the last one
 * closed (analytics/futures/globex-calendar.ts); a window must lie within its Globex session. The
 * cursor's position is the last trade served, (ts, sequence, match, contract id): the order of the
 * store's indexes (db/futures-trades.ts), total on a trade date. Each trade's notional is its price
 * × its contract's multiplier × size.
 */
import type { components } from '../../generated/openapi.js';
import { globexTradeDate, globexTradeDateAt, previousGlobexTradeDate } from '../analytics/futures/globex-calendar.js';
import { parseFuturesSymbol } from '../analytics/futures/contracts.js';
import { MONTH_CODES, type FuturesRoot } from '../analytics/futures/products.js';
import type { FuturesTradeFilter, FuturesTradeKey, FuturesTradeOfContract } from '../db/futures-trades.js';
import { invalidParameters, noData } from '../errors.js';
import { openPaging, takePage } from './paging.js';
import { withDefault, type QueryOf, type Result, type ServiceContext } from './types.js';

type FuturesTrade = components['schemas']['FuturesTrade'];
type FuturesTradesQuery = QueryOf<'listFuturesTrades'>;

/** Cursor position: the last trade served, (timestamp, sequence, match, contract id). */
interface Position {
  t: number;
  s: number;
  m: number;
  c: number;
}

/** The trade date of a query: the one asked, else the one trading at `now`, else the last one closed. */
export function futuresTradeDateOf(date: string | undefined, now: number): string {
  if (date !== undefined) return date;
  const at = globexTradeDateAt(now);
  if (at === null) throw noData('The exchange calendar ends before the present date.');
  return at.trading ? at.trade_date : previousGlobexTradeDate(at.trade_date);
}

/** The read window of a trade date: its whole Globex session, narrowed by start_time and end_time; 400 when they leave it. */
export function futuresTradeWindow(
  tradeDate: string,
  startTime: number | undefined,
  endTime: number | undefined,
): { from: number; to: number } {
  const session = globexTradeDate(tradeDate);
  if (session === null) throw invalidParameters([{ parameter: 'date', message: `${tradeDate} is not a CME trade date` }]);
  const open = session.windows[0]!.start_time;
  const close = session.windows.at(-1)!.end_time;
  const problems = [];
  const outside = `must lie within the Globex session of ${tradeDate} (${open} to ${close}, Unix ms)`;
  if (startTime !== undefined && (startTime < open || startTime >= close)) problems.push({ parameter: 'start_time', message: outside });
  if (endTime !== undefined && (endTime <= open || endTime > close)) problems.push({ parameter: 'end_time', message: outside });
  if (startTime !== undefined && endTime !== undefined && startTime >= endTime)
    problems.push({ parameter: 'end_time', message: 'must be after start_time' });
  if (problems.length > 0) throw invalidParameters(problems);
  return { from: startTime ?? open, to: endTime ?? close };
}

/** Canonical (ESZ26) and Globex (ESZ6) symbols of a root's contract month (YYYY-MM). */
export function futuresSymbols(root: string, contractMonth: string): { symbol: string; globex_symbol: string } {
  const code = MONTH_CODES[Number(contractMonth.slice(5, 7)) - 1]!;
  return { symbol: `${root}${code}${contractMonth.slice(2, 4)}`, globex_symbol: `${root}${code}${contractMonth.slice(3, 4)}` };
}

/** A stored trade as served. */
export function futuresTradeOf(r: FuturesTradeOfContract): FuturesTrade {
  return {
    ...futuresSymbols(r.root, r.contractMonth),
    root: r.root as FuturesRoot,
    contract_month: r.contractMonth,
    trade_date: r.tradeDate,
    timestamp: r.ts,
    price: r.price,
    size: r.size,
    aggressor_side: r.aggressorSide ?? 'none',
    multiplier: r.multiplier,
    notional: r.price * r.multiplier * r.size,
    sequence: r.sequence,
    match: r.match,
  };
}

/** The trade filter of a query, its contract resolved to the stored one (422 when none is defined). */
export async function futuresTradeFilterOf(
  ctx: ServiceContext,
  q: Omit<FuturesTradesQuery, 'limit' | 'cursor_id' | 'order'>,
  tradeDate: string,
  window: { from: number | null; to: number | null },
): Promise<FuturesTradeFilter> {
  let root: string;
  let contractId: number | null = null;
  if (q.symbol !== undefined) {
    // The contract's pattern is the parser's: a symbol that passed validation parses.
    const parsed = parseFuturesSymbol(q.symbol, tradeDate)!;
    const contractMonth = `${parsed.year}-${String(parsed.month).padStart(2, '0')}`;
    const stored = await ctx.deps.repositories.futuresTrades.storedContract(parsed.root, contractMonth);
    if (stored === null) throw noData(`No contract ${futuresSymbols(parsed.root, contractMonth).symbol} is defined in the store.`);
    root = parsed.root;
    contractId = stored.id;
  } else {
    root = withDefault(q.root, 'root');
  }
  return {
    tradeDate,
    root,
    contractId,
    from: window.from,
    to: window.to,
    minSize: q.min_size,
    maxSize: q.max_size,
    minNotional: q.min_notional,
    maxNotional: q.max_notional,
    aggressorSide: q.aggressor_side,
  };
}

export async function listFuturesTrades(ctx: ServiceContext, q: FuturesTradesQuery): Promise<Result<'listFuturesTrades'>> {
  const tradeDate = futuresTradeDateOf(q.date, ctx.now);
  const window = futuresTradeWindow(tradeDate, q.start_time, q.end_time);
  const filter = await futuresTradeFilterOf(ctx, q, tradeDate, window);
  const newestFirst = withDefault(q.order, 'order') === 'desc';
  const paging = openPaging<Position>(ctx, q);
  const after: FuturesTradeKey | null = paging.after
    ? { ts: paging.after.t, sequence: paging.after.s, match: paging.after.m, contractId: paging.after.c }
    : null;
  const rows = await ctx.deps.repositories.futuresTrades.tradePage(filter, after, paging.limit + 1, newestFirst);
  const { page, next } = takePage(rows, paging.limit, (r): Position => ({ t: r.ts, s: r.sequence, m: r.match, c: r.contractId }));
  if (page.length === 0 && after === null) throw noData(`No futures trade matches the request on ${tradeDate}.`);
  return { data: page.map(futuresTradeOf), source: 'cme', pagination: paging.pagination(page.length, next) };
}
