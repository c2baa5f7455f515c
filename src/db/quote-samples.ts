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

/** One contract's quote samples within a span of minutes, in minute order: what chain minutes are built from. */
export interface ContractSamplesRow {
  root: string;
  dateOfExpiry: string;
  call: boolean;
  strikeThousandths: number;
  minutes: number[];
  bids: (number | null)[];
  asks: (number | null)[];
}

/**
 * The quote samples of a trading date of every contract of some expirations (root and expiration
 * date), each within its own span of minutes [from, to], one row per contract (its samples as
 * arrays, in no particular order): the chain minutes whose parity forwards the date's prints are
 * valued on (ingest/date-context.ts). A day's chain snapshots hold every listed contract, a million
 * samples at the simulator's default scale, so they are not sent one by one.
 */
export async function chainSamplesIn(
  db: Queryable,
  tradingDate: string,
  spans: readonly { root: string; dateOfExpiry: string; from: number; to: number }[],
): Promise<ContractSamplesRow[]> {
  if (spans.length === 0) return [];
  const result = await sql<{
    root: string;
    date_of_expiry: string;
    call: boolean;
    strike_thousandths: string;
    minutes: string;
    bids: (number | null)[];
    asks: (number | null)[];
  }>`
    select c.root, c.date_of_expiry::text as date_of_expiry, c.contract_type = 'call' as call, c.strike_thousandths,
      array_agg(q.minute)::text as minutes, array_agg(q.bid) as bids, array_agg(q.ask) as asks
    from unnest(${textArrayLiteral(spans.map((s) => s.root))}::text[], ${textArrayLiteral(spans.map((s) => s.dateOfExpiry))}::date[],
        ${numberArrayLiteral(spans.map((s) => s.from))}::int8[], ${numberArrayLiteral(spans.map((s) => s.to))}::int8[])
      as e(root, date_of_expiry, from_minute, to_minute)
    join contracts c on c.root = e.root and c.date_of_expiry = e.date_of_expiry
    join quote_samples q on q.contract_id = c.id and q.minute >= e.from_minute and q.minute <= e.to_minute
    where q.trading_date = ${tradingDate}::date
    group by c.id`.execute(db);
  return result.rows.map((r) => ({
    root: r.root,
    dateOfExpiry: r.date_of_expiry,
    call: r.call,
    strikeThousandths: Number(r.strike_thousandths),
    minutes: r.minutes.slice(1, -1).split(',').map(Number),
    bids: r.bids,
    asks: r.asks,
  }));
}
