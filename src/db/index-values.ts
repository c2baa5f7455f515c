/**
 * The index routes' reads of the stored one-minute values (underlying_bars: an index's rows carry
 * open, high, low and close; their volume is not read). Each read goes by the table's primary key
 * (symbol, ts): the first and last minute of a symbol are two index probes, a range of bars one
 * index range scan aggregated in the same statement, the newest value before an instant one probe.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

/** The first and last stored minute of a symbol (null when it has none). */
export interface IndexCoverageRow {
  symbol: string;
  first: number | null;
  last: number | null;
}

export async function indexCoverage(db: Queryable, symbols: readonly string[]): Promise<IndexCoverageRow[]> {
  if (symbols.length === 0) return [];
  const result = await sql<{ symbol: string; first: string | null; last: string | null }>`
    select s.symbol,
      (select b.ts from underlying_bars b where b.symbol = s.symbol order by b.ts limit 1) as first,
      (select b.ts from underlying_bars b where b.symbol = s.symbol order by b.ts desc limit 1) as last
    from unnest(${[...symbols]}::text[]) with ordinality as s(symbol, n)
    order by s.n`.execute(db);
  return result.rows.map((r) => ({
    symbol: r.symbol,
    first: r.first === null ? null : Number(r.first),
    last: r.last === null ? null : Number(r.last),
  }));
}

/**
 * Where the store's one-minute bars came from, by the ingest ledger (files of the canonical bars
 * layout or of Massive's minute aggregates): from a simulator run's folder, from elsewhere, or both.
 * A session's archive files loaded back are not counted (db/data-origin.ts).
 */
export async function barFileOrigins(db: Queryable): Promise<{ simulated: boolean; loaded: boolean }> {
  const result = await sql<{ simulated: boolean | null; loaded: boolean | null }>`
    with marked as (
      select exists (
        select 1 from simulated_markets s where left(f.file_name, length(s.out_dir) + 1) = s.out_dir || '/'
      ) as simulated
      from ingest_files f
      where f.kind in ('underlying_bars', 'massive-minute-aggs') and not exists (
        select 1 from archived_sessions a where left(f.file_name, length(a.archive_dir) + 1) = a.archive_dir || '/'
      )
    )
    select bool_or(simulated) as simulated, bool_or(not simulated) as loaded from marked`.execute(db);
  const row = result.rows[0];
  return { simulated: row?.simulated ?? false, loaded: row?.loaded ?? false };
}

/** A window of one trading date read for bars: [start, end) on the minutes' starts; `open` is the day bar's timestamp. */
export interface IndexBarWindow {
  tradingDate: string;
  start: number;
  end: number;
  open: number;
}

export interface IndexBarRow {
  /** The bucket's start (the trading date's open for a day bar). */
  bucket: number;
  tradingDate: string;
  open: number;
  high: number;
  low: number;
  close: number;
  /** One-minute values in the bucket. */
  minutes: number;
  /** Start of the bucket's last minute (whose close is the bar's close). */
  lastMinute: number;
}

/**
 * Up to `limit` bars of a symbol in the windows, by bucket: the first minute's open, the highest
 * high, the lowest low, the last minute's close. `bucketMs` null makes one bar per window (its
 * `open` the bucket); otherwise a bucket is ts − (ts mod bucketMs), the clock's grid.
 */
export async function indexBars(
  db: Queryable,
  symbol: string,
  windows: readonly IndexBarWindow[],
  bucketMs: number | null,
  limit: number,
): Promise<IndexBarRow[]> {
  if (windows.length === 0) return [];
  const bucket = bucketMs === null ? sql`w.o` : sql`b.ts - mod(b.ts, ${bucketMs}::int8)`;
  const result = await sql<{
    bucket: string;
    trading_date: string;
    open: number;
    high: number;
    low: number;
    close: number;
    minutes: number;
    last_minute: string;
  }>`
    select ${bucket} as bucket, w.d::text as trading_date,
      (array_agg(b.open order by b.ts))[1] as open, max(b.high) as high, min(b.low) as low,
      (array_agg(b.close order by b.ts desc))[1] as close, count(*)::int as minutes, max(b.ts) as last_minute
    from unnest(${windows.map((w) => w.tradingDate)}::date[], ${windows.map((w) => w.start)}::int8[],
      ${windows.map((w) => w.end)}::int8[], ${windows.map((w) => w.open)}::int8[]) as w(d, s, e, o)
    join underlying_bars b on b.symbol = ${symbol} and b.ts >= w.s and b.ts < w.e
    group by 1, 2
    order by 1
    limit ${limit}`.execute(db);
  return result.rows.map((r) => ({
    bucket: Number(r.bucket),
    tradingDate: r.trading_date,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    minutes: r.minutes,
    lastMinute: Number(r.last_minute),
  }));
}

/** A symbol's newest one-minute value starting at or before `lastMinute`: its start and close; null when none. */
export async function indexValueAt(db: Queryable, symbol: string, lastMinute: number): Promise<{ ts: number; close: number } | null> {
  const row = await db
    .selectFrom('underlying_bars')
    .select(['ts', 'close'])
    .where('symbol', '=', symbol)
    .where('ts', '<=', lastMinute)
    .orderBy('ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row === undefined ? null : { ts: Number(row.ts), close: row.close };
}
