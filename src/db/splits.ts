/**
 * Stock splits, read by the splits route and written by the splits loader. Served newest first by
 * execution date, then symbol: the pair is unique (the upsert's conflict key) and is the position a
 * cursor holds (SplitPosition), so a page continues exactly after the last row served.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

export interface SplitRow {
  symbol: string;
  execution_date: string;
  split_from: number;
  split_to: number;
}

export interface SplitPosition {
  /** Execution date and symbol of the last row served. */
  d: string;
  s: string;
}

export async function listSplits(
  db: Queryable,
  filter: { symbol?: string; from?: string; to?: string; after?: SplitPosition; limit: number },
): Promise<SplitRow[]> {
  let query = db
    .selectFrom('stock_splits')
    .select(['symbol', 'execution_date', sql<number>`split_from::float8`.as('split_from'), sql<number>`split_to::float8`.as('split_to')])
    .orderBy('execution_date', 'desc')
    .orderBy('symbol', 'asc')
    .limit(filter.limit);
  if (filter.symbol) query = query.where('symbol', '=', filter.symbol);
  if (filter.from) query = query.where('execution_date', '>=', filter.from);
  if (filter.to) query = query.where('execution_date', '<=', filter.to);
  const after = filter.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('execution_date', '<', after.d), eb.and([eb('execution_date', '=', after.d), eb('symbol', '>', after.s)])]),
    );
  }
  return await query.execute();
}

/** Inserts splits; the same split twice leaves one row (idempotent load). Returns rows inserted. */
export async function upsertSplits(db: Queryable, rows: readonly SplitRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db
    .insertInto('stock_splits')
    .values(rows.map((r) => ({ symbol: r.symbol, execution_date: r.execution_date, split_from: r.split_from, split_to: r.split_to })))
    .onConflict((oc) =>
      oc
        .columns(['symbol', 'execution_date'])
        .doUpdateSet((eb) => ({ split_from: eb.ref('excluded.split_from'), split_to: eb.ref('excluded.split_to') })),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function countSplits(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('stock_splits')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
