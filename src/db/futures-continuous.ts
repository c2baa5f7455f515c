/**
 * The reads of the futures bars and continuous routes (services/futures-bars.ts): a root's daily
 * figures over a range of trade dates (the roll rules' volume and open interest, the settlements
 * the back-adjustment reads), bars aggregated from the stored one-minute bars in windows each
 * naming its contract, and a contract's last close before an instant (a roll price with no
 * settlement).
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

export interface FuturesFigureRow {
  contractId: number;
  symbol: string;
  contractMonth: string;
  tradeDate: string;
  settlementPrice: number | null;
  clearedVolume: number | null;
  openInterest: number | null;
}

/** The statistics of a root's contracts for the trade dates from `from` through `to`, by date then expiration. */
export async function futuresFiguresOfRoot(db: Queryable, root: string, from: string, to: string): Promise<FuturesFigureRow[]> {
  const rows = await db
    .selectFrom('futures_statistics as s')
    .innerJoin('futures_contracts as c', 'c.id', 's.contract_id')
    .select(['s.contract_id', 'c.symbol', 'c.contract_month', 's.trade_date', 's.settlement_price', 's.cleared_volume', 's.open_interest'])
    .where('s.root', '=', root)
    .where('s.trade_date', '>=', from)
    .where('s.trade_date', '<=', to)
    .orderBy('s.trade_date')
    .orderBy('c.expiration')
    .execute();
  return rows.map((r) => ({
    contractId: Number(r.contract_id),
    symbol: r.symbol,
    contractMonth: r.contract_month,
    tradeDate: r.trade_date,
    settlementPrice: r.settlement_price,
    clearedVolume: r.cleared_volume === null ? null : Number(r.cleared_volume),
    openInterest: r.open_interest === null ? null : Number(r.open_interest),
  }));
}

/** A window [start, end) of one trade date's minutes read from one contract; `open` is the trade date's bar timestamp at 1d. */
export interface FuturesBarWindow {
  contractId: number;
  tradeDate: string;
  start: number;
  end: number;
  open: number;
}

export interface FuturesBarBucket {
  bucket: number;
  tradeDate: string;
  contractId: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  minutes: number;
  lastMinute: number;
}

/**
 * Up to `limit` bars of the windows, by bucket: the minutes of each window's contract in it, in
 * buckets of `bucketMs` on the epoch's grid (null: one bar per trade date, at the window's `open`).
 * A bucket's open and close are those of its first and last minute, taken as the least and greatest
 * [ts, price] pair (one contract per bucket: no two minutes share a ts), which needs no sort.
 */
export async function futuresBarBuckets(
  db: Queryable,
  windows: readonly FuturesBarWindow[],
  bucketMs: number | null,
  limit: number,
): Promise<FuturesBarBucket[]> {
  if (windows.length === 0) return [];
  const bucket = bucketMs === null ? sql`w.o` : sql`b.ts - mod(b.ts, ${bucketMs}::int8)`;
  const result = await sql<{
    bucket: string;
    trade_date: string;
    contract_id: string;
    open: number;
    high: number;
    low: number;
    close: number;
    volume: string;
    minutes: number;
    last_minute: string;
  }>`
    select ${bucket} as bucket, w.d::text as trade_date, w.c as contract_id,
      (min(array[b.ts::float8, b.open]))[2] as open, max(b.high) as high, min(b.low) as low,
      (max(array[b.ts::float8, b.close]))[2] as close, sum(b.volume)::int8 as volume,
      count(*)::int as minutes, max(b.ts) as last_minute
    from unnest(${windows.map((w) => w.contractId)}::int8[], ${windows.map((w) => w.tradeDate)}::date[],
      ${windows.map((w) => w.start)}::int8[], ${windows.map((w) => w.end)}::int8[], ${windows.map((w) => w.open)}::int8[]) as w(c, d, s, e, o)
    join futures_bars b on b.contract_id = w.c and b.ts >= w.s and b.ts < w.e
    group by 1, 2, 3
    order by 1
    limit ${limit}`.execute(db);
  return result.rows.map((r) => ({
    bucket: Number(r.bucket),
    tradeDate: r.trade_date,
    contractId: Number(r.contract_id),
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: Number(r.volume),
    minutes: r.minutes,
    lastMinute: Number(r.last_minute),
  }));
}

/** The close of a contract's last one-minute bar starting in [from, before); null when none. */
export async function futuresCloseBefore(db: Queryable, contractId: number, from: number, before: number): Promise<number | null> {
  const row = await db
    .selectFrom('futures_bars')
    .select('close')
    .where('contract_id', '=', contractId)
    .where('ts', '>=', from)
    .where('ts', '<', before)
    .orderBy('ts', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.close ?? null;
}
