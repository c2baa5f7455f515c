/** Reads of one contract's history: its one-minute NBBO samples within time windows. */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

export interface MinuteQuoteRow {
  minute: number;
  quote_ts: number;
  bid: number | null;
  ask: number | null;
}

/**
 * Up to `limit` minute samples of a contract within the windows (each [start, end) on the sample's
 * minute), oldest first, from `from` on. Every partition is searched: the windows may span dates.
 */
export async function quoteSamplesIn(
  db: Queryable,
  contractId: number,
  windows: readonly { start: number; end: number }[],
  from: number,
  limit: number,
): Promise<MinuteQuoteRow[]> {
  if (windows.length === 0) return [];
  const inWindows = sql.join(
    windows.map((w) => sql`(minute >= ${w.start}::int8 and minute < ${w.end}::int8)`),
    sql` or `,
  );
  const result = await sql<MinuteQuoteRow>`
    select minute, quote_ts, bid, ask from quote_samples
    where contract_id = ${contractId}::int8 and minute >= ${from}::int8 and (${inWindows})
    order by minute limit ${limit}::int4`.execute(db);
  return result.rows;
}
