/**
 * Health and data freshness for GET /v1/status. Row counts are the planner's estimates
 * (pg_class.reltuples), since an exact count of prints would scan days of rows; the newest print
 * and quote dates are looked for partition by partition from the newest, stopping at the first
 * that holds data. The futures datasets: trades by their newest time and its CME trade date, bars by
 * the newest minute and the Globex trade date it belongs to, settlements by the newest trade date
 * settled and its publication time.
 */
import { sql } from 'kysely';
import { newYorkDate } from '../analytics/new-york-time.js';
import { OPTION_ROOTS } from '../analytics/roots.js';
import { globexTradeDateAt } from '../analytics/futures/globex-calendar.js';
import { FUTURES_ROOTS } from '../analytics/futures/products.js';
import type { Queryable } from './connection.js';
import { partitionDates, partitionName } from './partitions.js';

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

/**
 * A stamp of what the dataset figures and the data origin are read from: it changes with every
 * committed write of market data (the change log's newest row), every file loaded (the ledger), the
 * splits and the simulator runs recorded. Equal stamps mean the figures read under the first still
 * hold, but for the planner's row estimates, which move with ANALYZE alone. One statement.
 */
export async function datasetStamp(db: Queryable): Promise<string> {
  const result = await sql<{ stamp: string }>`
    select concat_ws(':',
      (select coalesce(max(id), 0) from market_data_changes),
      (select count(*) from ingest_files),
      (select count(*) from stock_splits),
      (select count(*) from simulated_markets)) as stamp`.execute(db);
  return result.rows[0]!.stamp;
}

const INDEX_SYMBOLS = [...new Set(OPTION_ROOTS.filter((r) => r.kind === 'index').map((r) => r.underlying))];

/** Planner's row estimate of a table and its partitions (exact counts of prints would scan days of rows); null before the first analyze. */
async function estimatedRows(db: Queryable, table: string): Promise<number | null> {
  const result = await sql<{ n: number | null }>`
    select sum(case when c.reltuples < 0 then null else c.reltuples end)::float8 as n from pg_class c
    where c.oid = ${table}::regclass or c.oid in (select inhrelid from pg_inherits where inhparent = ${table}::regclass)`.execute(db);
  const n = result.rows[0]?.n;
  return n === null || n === undefined ? null : Math.round(n);
}

async function newestPrint(db: Queryable): Promise<{ date: string | null; ts: number | null }> {
  const dates = await partitionDates(db, 'prints');
  for (let i = dates.length - 1; i >= 0; i -= 1) {
    const date = dates[i] as string;
    // One index probe per session on the market-wide newest-first index of that date's partition.
    const result = await sql<{ ts: number | null }>`
      select max(ts)::float8 as ts from (
        select (select ts from ${sql.table(partitionName('prints', date))} where session = s and not cancelled order by ts desc limit 1) as ts
        from unnest(array['rth', 'gth', 'curb', 'other']) as s
      ) newest`.execute(db);
    const ts = result.rows[0]?.ts ?? null;
    if (ts !== null) return { date, ts };
  }
  return { date: null, ts: null };
}

async function newestQuoteDate(db: Queryable): Promise<string | null> {
  const dates = await partitionDates(db, 'quote_samples');
  for (let i = dates.length - 1; i >= 0; i -= 1) {
    const date = dates[i] as string;
    const result = await sql<{ one: number }>`select 1 as one from ${sql.table(partitionName('quote_samples', date))} limit 1`.execute(db);
    if (result.rows.length > 0) return date;
  }
  return null;
}

async function newestBar(db: Queryable, indexes: boolean): Promise<number | null> {
  const row = await db
    .selectFrom('underlying_bars')
    .select('ts')
    .where('symbol', indexes ? '=' : '<>', sql<string>`${indexes ? sql`any` : sql`all`}(${INDEX_SYMBOLS}::text[])`)
    .orderBy('ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.ts ?? null;
}

/** The newest futures trade: one probe per root on the root's newest-first index. */
async function newestFuturesTrade(db: Queryable): Promise<{ date: string | null; ts: number | null }> {
  const result = await sql<{ ts: number | null; trade_date: string | null }>`
    select t.ts::float8 as ts, t.trade_date::text as trade_date
    from unnest(${[...FUTURES_ROOTS]}::text[]) as r (root)
    cross join lateral (
      select ts, trade_date from futures_trades where futures_trades.root = r.root order by ts desc, sequence desc, match desc limit 1
    ) t
    order by t.ts desc limit 1`.execute(db);
  const row = result.rows[0];
  return { date: row?.trade_date ?? null, ts: row?.ts ?? null };
}

/** The futures datasets: trades (newest by time, its trade date), one-minute bars, daily settlements (the newest trade date settled, its publication time). */
async function futuresFreshness(db: Queryable): Promise<DatasetFreshness[]> {
  const trades = await newestFuturesTrade(db);
  const bar = await db.selectFrom('futures_bars').select('ts').orderBy('ts', 'desc').limit(1).executeTakeFirst();
  const barTs = bar?.ts ?? null;
  const settled = await db
    .selectFrom('futures_statistics')
    .select([sql<string>`trade_date::text`.as('trade_date'), 'settlement_ts'])
    .where('settlement_price', 'is not', null)
    .orderBy('trade_date', 'desc')
    .orderBy('settlement_ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  return [
    { dataset: 'futures.trades', newest_timestamp: trades.ts, newest_date: trades.date, rows: await estimatedRows(db, 'futures_trades') },
    {
      dataset: 'futures.bars',
      newest_timestamp: barTs,
      newest_date: barTs === null ? null : (globexTradeDateAt(barTs)?.trade_date ?? null),
      rows: await estimatedRows(db, 'futures_bars'),
    },
    {
      dataset: 'futures.settlements',
      newest_timestamp: settled?.settlement_ts ?? null,
      newest_date: settled?.trade_date ?? null,
      rows: await estimatedRows(db, 'futures_statistics'),
    },
  ];
}

export async function datasetFreshness(db: Queryable): Promise<DatasetFreshness[]> {
  const splits = await db
    .selectFrom('stock_splits')
    .select([sql<string | null>`max(execution_date)::text`.as('newest_date'), sql<number>`count(*)::int`.as('rows')])
    .executeTakeFirstOrThrow();
  const prints = await newestPrint(db);
  const equityBar = await newestBar(db, false);
  const indexBar = await newestBar(db, true);
  const barRows = await estimatedRows(db, 'underlying_bars');
  const openInterest = await db
    .selectFrom('open_interest')
    .select(sql<string | null>`max(date)::text`.as('newest_date'))
    .executeTakeFirstOrThrow();
  return [
    { dataset: 'equities.splits', newest_timestamp: null, newest_date: splits.newest_date, rows: splits.rows },
    { dataset: 'options.prints', newest_timestamp: prints.ts, newest_date: prints.date, rows: await estimatedRows(db, 'prints') },
    {
      dataset: 'options.quotes',
      newest_timestamp: null,
      newest_date: await newestQuoteDate(db),
      rows: await estimatedRows(db, 'quote_samples'),
    },
    {
      dataset: 'equities.bars',
      newest_timestamp: equityBar,
      newest_date: equityBar === null ? null : newYorkDate(equityBar),
      rows: barRows,
    },
    { dataset: 'indices.bars', newest_timestamp: indexBar, newest_date: indexBar === null ? null : newYorkDate(indexBar), rows: barRows },
    {
      dataset: 'options.open_interest',
      newest_timestamp: null,
      newest_date: openInterest.newest_date,
      rows: await estimatedRows(db, 'open_interest'),
    },
    ...(await futuresFreshness(db)),
  ];
}
