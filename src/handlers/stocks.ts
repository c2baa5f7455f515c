/** Stock splits. */
import { listSplits, type SplitPosition } from '../db/splits.js';
import { CursorCodec } from '../middleware/cursor.js';
import { noData } from '../errors.js';
import { nextPageUrl } from './pagination.js';
import type { Handler } from './types.js';

function splitType(from: number, to: number): 'forward' | 'reverse' | 'other' {
  if (to > from) return 'forward';
  if (to < from) return 'reverse';
  return 'other';
}

export const listStockSplits: Handler<'listStockSplits'> = async ({ query, deps, now, link }) => {
  const limit = query.limit ?? 100;
  const fingerprint = CursorCodec.queryFingerprint('/v1/stocks/splits', query);
  const after = query.cursor_id ? deps.cursors.decode<SplitPosition>(query.cursor_id, fingerprint, now) : undefined;
  const rows = await listSplits(deps.db, {
    symbol: query.symbol?.toUpperCase(),
    from: query.start_execution_date,
    to: query.end_execution_date,
    after,
    limit: limit + 1,
  });
  if (rows.length === 0 && !after) {
    throw noData(query.symbol ? `No split of ${query.symbol.toUpperCase()} in the requested range.` : 'No split in the requested range.');
  }
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const hasMore = rows.length > limit && last !== undefined;
  const nextCursor = hasMore ? deps.cursors.encode({ d: last.execution_date, s: last.symbol } satisfies SplitPosition, fingerprint, now) : null;
  return {
    data: page.map((r) => ({
      id: `${r.symbol}:${r.execution_date}`,
      symbol: r.symbol,
      execution_date: r.execution_date,
      split_from: r.split_from,
      split_to: r.split_to,
      type: splitType(r.split_from, r.split_to),
    })),
    source: 'derived',
    pagination: { count: page.length, has_more: hasMore, limit, next_cursor_id: nextCursor, next_url: nextPageUrl(link, nextCursor) },
  };
};
