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

export interface ExpirationQuoteRow {
  minute: number;
  contract_type: 'call' | 'put';
  strike_thousandths: number;
  bid: number | null;
  ask: number | null;
}

/**
 * The quote samples of every contract of one expiration (root and date) at the given minutes, each
 * minute's both legs for the parity forward of the contract history's samples.
 */
export async function expirationQuotesAt(
  db: Queryable,
  root: string,
  dateOfExpiry: string,
  minutes: readonly number[],
): Promise<ExpirationQuoteRow[]> {
  if (minutes.length === 0) return [];
  const result = await sql<{
    minute: string;
    contract_type: 'call' | 'put';
    strike_thousandths: string;
    bid: number | null;
    ask: number | null;
  }>`
    select q.minute, c.contract_type, c.strike_thousandths, q.bid, q.ask
    from contracts c join quote_samples q on q.contract_id = c.id
    where c.root = ${root} and c.date_of_expiry = ${dateOfExpiry}::date and q.minute = any(${[...minutes]}::int8[])`.execute(db);
  return result.rows.map((r) => ({
    minute: Number(r.minute),
    contract_type: r.contract_type,
    strike_thousandths: Number(r.strike_thousandths),
    bid: r.bid,
    ask: r.ask,
  }));
}
