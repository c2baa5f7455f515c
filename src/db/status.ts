/** Health and data freshness for GET /v1/status. */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

export interface DatasetFreshness {
  dataset: string;
  newest_timestamp: number | null;
  newest_date: string | null;
  rows: number | null;
}

/** Round-trip time of a trivial query, in milliseconds. */
export async function pingDatabase(db: Queryable): Promise<number> {
  const started = performance.now();
  await sql`select 1`.execute(db);
  return Math.round((performance.now() - started) * 1000) / 1000;
}

export async function datasetFreshness(db: Queryable): Promise<DatasetFreshness[]> {
  const splits = await db
    .selectFrom('stock_splits')
    .select([sql<string | null>`max(execution_date)::text`.as('newest_date'), sql<number>`count(*)::int`.as('rows')])
    .executeTakeFirstOrThrow();
  return [{ dataset: 'equities.splits', newest_timestamp: null, newest_date: splits.newest_date, rows: splits.rows }];
}
