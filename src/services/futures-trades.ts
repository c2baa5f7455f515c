/**
 * GET /v1/futures/trades: a CME trade date's trades of one contract or of a root's contracts, paged
 * by cursor in either direction. The trade date defaults to the one trading now, else the last one
 * closed (analytics/futures/trade-window.ts); a window must lie within its Globex session. The
 * cursor's position is the last trade served, (ts, sequence, match, contract id): the order of the
 * store's indexes (db/futures-trades.ts), total on a trade date. Each trade's notional is its price
 * × its contract's multiplier × size.
 */
import type { components } from '../../generated/openapi.js';
import { globexSessionBounds, resolveGlobexWindow } from '../analytics/futures/trade-window.js';
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

/**
 * The trade date and read window of a query (analytics/futures/trade-window.ts): the window given,
 * else the trade date's whole Globex session. Its rule (the contract's within_globex_session,
 * src/parameters) refuses a window outside the session before the service runs; the 400 here only
 * guards a caller that skipped it. A date that is not a CME trade date has no trades (422).
 */
export function futuresTradeWindow(
  q: { date?: string; start_time?: number; end_time?: number },
  now: number,
): { tradeDate: string; from: number; to: number } {
  const window = resolveGlobexWindow({ date: q.date, startTime: q.start_time, endTime: q.end_time, now });
  if (!window.ok) throw invalidParameters(window.problems);
  if (window.tradeDate === null) throw noData('The exchange calendar ends before the present date.');
  const session = globexSessionBounds(window.tradeDate);
  if (session === null) throw noData(`${window.tradeDate} is not a CME trade date: no futures trade on it.`);
  return { tradeDate: window.tradeDate, from: window.from ?? session.from, to: window.to ?? session.to };
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
  const { tradeDate, ...window } = futuresTradeWindow(q, ctx.now);
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
