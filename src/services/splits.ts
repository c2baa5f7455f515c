/** Stock splits, newest first: read a page from the store and say each split's direction. */
import { listSplits as readSplits, type SplitPosition, type SplitRow } from '../db/splits.js';
import { noData } from '../errors.js';
import { openPaging, takePage } from './paging.js';
import type { DataOf, QueryOf, Result, ServiceContext } from './types.js';

function splitType(from: number, to: number): 'forward' | 'reverse' | 'other' {
  if (to > from) return 'forward';
  if (to < from) return 'reverse';
  return 'other';
}

function splitOf(r: SplitRow): DataOf<'listStockSplits'>[number] {
  return {
    id: `${r.symbol}:${r.execution_date}`,
    symbol: r.symbol,
    execution_date: r.execution_date,
    split_from: r.split_from,
    split_to: r.split_to,
    type: splitType(r.split_from, r.split_to),
  };
}

export async function listStockSplits(ctx: ServiceContext, q: QueryOf<'listStockSplits'>): Promise<Result<'listStockSplits'>> {
  const paging = openPaging<SplitPosition>(ctx, q);
  const symbol = q.symbol?.toUpperCase();
  const rows = await readSplits(ctx.deps.db, {
    symbol,
    from: q.start_execution_date,
    to: q.end_execution_date,
    after: paging.after ?? undefined,
    limit: paging.limit + 1,
  });
  if (rows.length === 0 && paging.after === null) {
    throw noData(symbol ? `No split of ${symbol} in the requested range.` : 'No split in the requested range.');
  }
  const { page, next } = takePage(rows, paging.limit, (r): SplitPosition => ({ d: r.execution_date, s: r.symbol }));
  return { data: page.map(splitOf), source: 'derived', pagination: paging.pagination(page.length, next) };
}
