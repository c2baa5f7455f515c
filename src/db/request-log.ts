/**
 * The durable request log and the usage aggregation read from it. Rows arrive in batches from
 * src/request-log.ts (one multi-row INSERT each) and leave by the retention job. Usage is summed in
 * PostgreSQL per bucket and route, so only counts reach node; analytics/usage.ts then lays them on
 * the full bucket grid, empty buckets included.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';
import type { RequestLogTable } from './schema.js';

export type RequestLogEntry = RequestLogTable;

/** One multi-row INSERT per batch. */
export async function insertRequestLogBatch(db: Queryable, entries: readonly RequestLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  await db
    .insertInto('request_log')
    .values([...entries])
    .execute();
}

export async function pruneRequestLog(db: Queryable, olderThan: Date): Promise<number> {
  const result = await db.deleteFrom('request_log').where('ts', '<', olderThan).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface UsageCounts {
  requests: number;
  client_errors: number;
  errors: number;
  rate_limited: number;
  bytes_out: number;
}

export interface UsageRow extends UsageCounts {
  bucket_start: number;
  route: string;
}

/**
 * Counts per UTC bucket and route of one account in [startMs, endMs). `bucketMs` is 3,600,000 or
 * 86,400,000; buckets are aligned to the Unix epoch, hence to UTC hours and days.
 */
export async function usageByBucketAndRoute(
  db: Queryable,
  accountId: string,
  startMs: number,
  endMs: number,
  bucketMs: number,
): Promise<UsageRow[]> {
  const bucket = sql<number>`(floor(extract(epoch from ts) * 1000 / ${bucketMs}) * ${bucketMs})::float8`;
  const rows = await db
    .selectFrom('request_log')
    .select([
      bucket.as('bucket_start'),
      'route',
      sql<number>`count(*)::int`.as('requests'),
      sql<number>`(count(*) filter (where status between 400 and 499))::int`.as('client_errors'),
      sql<number>`(count(*) filter (where status >= 500))::int`.as('errors'),
      sql<number>`(count(*) filter (where status = 429))::int`.as('rate_limited'),
      sql<number>`coalesce(sum(bytes_out), 0)::float8`.as('bytes_out'),
    ])
    .where('account_id', '=', accountId)
    .where('ts', '>=', new Date(startMs))
    .where('ts', '<', new Date(endMs))
    .groupBy([sql`1`, 'route'])
    .execute();
  return rows.map((r) => ({ ...r, bucket_start: Number(r.bucket_start), bytes_out: Number(r.bytes_out) }));
}
