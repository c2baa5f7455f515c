/** One-minute quote samples of the contracts (one partition per trading date, partitions.ts). */
import { sql } from 'kysely';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';
import { recordMarketDataChange } from './market-data-changes.js';
import type { QuoteSamplesTable } from './schema.js';

export interface QuoteSampleRow {
  tradingDate: string;
  contractId: number;
  minute: number;
  bid: number | null;
  ask: number | null;
  bidSize: number | null;
  askSize: number | null;
  quoteTs: number;
}

/** The quote_samples columns in the order of a binary COPY row (ingest/quotes.ts writes them so). */
export const QUOTE_SAMPLE_COPY_COLUMNS = [
  'trading_date',
  'contract_id',
  'minute',
  'bid',
  'ask',
  'bid_size',
  'ask_size',
  'quote_ts',
] as const satisfies readonly (keyof QuoteSamplesTable)[];

/** Upserts minute samples; a sample is replaced only by a later (or same-time) quote of its minute. */
export async function upsertQuoteSamples(db: Queryable, rows: readonly QuoteSampleRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into quote_samples (trading_date, contract_id, minute, bid, ask, bid_size, ask_size, quote_ts)
      select * from unnest(${textArrayLiteral(c.map((r) => r.tradingDate))}::date[], ${numberArrayLiteral(c.map((r) => r.contractId))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.minute))}::int8[], ${numberArrayLiteral(c.map((r) => r.bid))}::float8[], ${numberArrayLiteral(c.map((r) => r.ask))}::float8[],
        ${numberArrayLiteral(c.map((r) => r.bidSize))}::int4[], ${numberArrayLiteral(c.map((r) => r.askSize))}::int4[], ${numberArrayLiteral(c.map((r) => r.quoteTs))}::int8[])
      on conflict (contract_id, minute, trading_date) do update
        set bid = excluded.bid, ask = excluded.ask, bid_size = excluded.bid_size, ask_size = excluded.ask_size, quote_ts = excluded.quote_ts
        where excluded.quote_ts >= quote_samples.quote_ts`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0)
    await recordMarketDataChange(
      db,
      rows.map((r) => r.tradingDate),
      earliestOf(rows.map((r) => r.minute)),
    );
  return written;
}

/** The smallest of the instants (null for none). */
export function earliestOf(instants: readonly number[]): number | null {
  let min: number | null = null;
  for (const t of instants) if (min === null || t < min) min = t;
  return min;
}

/**
 * Records the minutes of a trading date for which samples were just written (in the writer's
 * transaction): quote_minutes, which newestQuoteMinute reads, holds every minute of the date's
 * stored samples.
 */
export async function recordQuoteMinutes(db: Queryable, tradingDate: string, minutes: Iterable<number>): Promise<void> {
  const list = [...new Set(minutes)];
  if (list.length === 0) return;
  await sql`
    insert into quote_minutes (trading_date, minute)
    select ${tradingDate}::date, unnest(${numberArrayLiteral(list)}::int8[])
    on conflict do nothing`.execute(db);
}

/** The start of the newest minute of a trading date in [from, to] for which quote samples are stored; null when none. */
export async function newestQuoteMinute(db: Queryable, tradingDate: string, from: number, to: number): Promise<number | null> {
  const result = await sql<{ minute: string | null }>`
    select max(minute) as minute from quote_minutes
    where trading_date = ${tradingDate}::date and minute >= ${from}::int8 and minute <= ${to}::int8`.execute(db);
  const minute = result.rows[0]?.minute;
  return minute === null || minute === undefined ? null : Number(minute);
}

/** The minute samples of a trading date for some contracts, by contract then quote time. */
export async function quoteSamplesOn(db: Queryable, tradingDate: string, contractIds: readonly number[]): Promise<QuoteSampleRow[]> {
  if (contractIds.length === 0) return [];
  const rows = await db
    .selectFrom('quote_samples')
    .select(['trading_date', 'contract_id', 'minute', 'bid', 'ask', 'bid_size', 'ask_size', 'quote_ts'])
    .where('trading_date', '=', tradingDate)
    .where('contract_id', '=', sql<number>`any(${[...contractIds]}::int8[])`)
    .orderBy('contract_id')
    .orderBy('quote_ts')
    .execute();
  return rows.map((r) => ({
    tradingDate: r.trading_date,
    contractId: r.contract_id,
    minute: r.minute,
    bid: r.bid,
    ask: r.ask,
    bidSize: r.bid_size,
    askSize: r.ask_size,
    quoteTs: r.quote_ts,
  }));
}

/** One quote sample of an expiration's chain: its contract's leg and strike. */
export interface ChainSampleRow {
  root: string;
  dateOfExpiry: string;
  minute: number;
  contractType: 'call' | 'put';
  strikeThousandths: number;
  bid: number | null;
  ask: number | null;
}

/**
 * The quote samples of a trading date of every contract of some expirations (root and expiration
 * date) with minutes in [from, to]: the chain minutes whose parity forwards the date's prints are
 * valued on (ingest/date-context.ts).
 */
export async function chainSamplesBetween(
  db: Queryable,
  tradingDate: string,
  expirations: readonly { root: string; dateOfExpiry: string }[],
  from: number,
  to: number,
): Promise<ChainSampleRow[]> {
  if (expirations.length === 0 || !(from <= to)) return [];
  const result = await sql<{
    root: string;
    date_of_expiry: string;
    minute: string;
    contract_type: 'call' | 'put';
    strike_thousandths: string;
    bid: number | null;
    ask: number | null;
  }>`
    select c.root, c.date_of_expiry::text as date_of_expiry, q.minute, c.contract_type, c.strike_thousandths, q.bid, q.ask
    from contracts c
    join unnest(${textArrayLiteral(expirations.map((e) => e.root))}::text[], ${textArrayLiteral(expirations.map((e) => e.dateOfExpiry))}::date[])
      as e(root, date_of_expiry) on c.root = e.root and c.date_of_expiry = e.date_of_expiry
    join quote_samples q on q.contract_id = c.id
    where q.trading_date = ${tradingDate}::date and q.minute >= ${from}::int8 and q.minute <= ${to}::int8`.execute(db);
  return result.rows.map((r) => ({
    root: r.root,
    dateOfExpiry: r.date_of_expiry,
    minute: Number(r.minute),
    contractType: r.contract_type,
    strikeThousandths: Number(r.strike_thousandths),
    bid: r.bid,
    ask: r.ask,
  }));
}
