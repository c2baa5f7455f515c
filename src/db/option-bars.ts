/**
 * The option bars route's reads (GET /v1/options/bars): the counted prints of a range grouped into
 * bars, and the contract an OCC symbol names. One contract's bars read prints_contract_ts_idx;
 * an underlying's aggregate reads no price, so prints_root_book_idx (root, ts, carrying size,
 * premium, session, trade_type and flags) serves it by an index-only scan. Premiums and the
 * price × size of the VWAP are summed as numeric, exactly.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Queryable } from './connection.js';
import { partitionDates } from './partitions.js';

export interface BarFilter {
  /** The trading dates read (partitions), with the range [from, to) of the prints' timestamps. */
  dates: readonly string[];
  from: number;
  to: number;
  sessions: readonly string[];
  /** One contract (prices read: open, high, low, close, vwap), or the roots' prints in aggregate. */
  of: { contractId: number } | { roots: readonly string[] };
  includeComplex: boolean;
  /** A minute bar's length in ms; null for one bar per trading date. */
  intervalMs: number | null;
}

/** The last bar served: its start (minute bars; 0 for day bars) and trading date. */
export interface BarPosition {
  t: number;
  d: string;
}

export interface BarRow {
  tradingDate: string;
  /** The minute bar's start; 0 for a day bar. */
  bucket: number;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  vwap: number | null;
  volume: number;
  trades: number;
  premium: number;
}

/** Up to `limit` bars of the filter after `after`, by start then trading date. */
export async function optionBars(db: Queryable, f: BarFilter, after: BarPosition | null, limit: number): Promise<BarRow[]> {
  if (f.dates.length === 0 || !(f.from < f.to)) return [];
  const one = 'contractId' in f.of;
  const bucket: RawBuilder<number> = f.intervalMs === null ? sql`0::int8` : sql`p.ts - mod(p.ts, ${f.intervalMs}::int8)`;
  const prices = one
    ? sql`(array_agg(p.price order by p.ts, p.sequence))[1] as open, max(p.price) as high, min(p.price) as low,
        (array_agg(p.price order by p.ts desc, p.sequence desc))[1] as close,
        round(sum(p.price::numeric * p.size) / sum(p.size), 6)::float8 as vwap`
    : sql`null::float8 as open, null::float8 as high, null::float8 as low, null::float8 as close, null::float8 as vwap`;
  const whose = 'contractId' in f.of ? sql`p.contract_id = ${f.of.contractId}::int8` : sql`p.root = any(${[...f.of.roots]}::text[])`;
  const complex = f.includeComplex ? sql`true` : sql`p.trade_type <> 'multileg' and not ('complex' = any(p.flags))`;
  // A bar starts at or before each of its prints: the prints before the position's start hold no later bar.
  const from = after !== null && f.intervalMs !== null ? Math.max(f.from, after.t) : f.from;
  const dates = after !== null && f.intervalMs === null ? f.dates.filter((d) => d > after.d) : f.dates;
  if (dates.length === 0) return [];
  const past = after === null ? sql`true` : sql`(b.bucket, b.trading_date) > (${after.t}::int8, ${after.d}::date)`;
  const result = await sql<{
    trading_date: string;
    bucket: string;
    open: number | null;
    high: number | null;
    low: number | null;
    close: number | null;
    vwap: number | null;
    volume: string;
    trades: string;
    premium: number;
  }>`
    select b.trading_date::text as trading_date, b.bucket, b.open, b.high, b.low, b.close, b.vwap, b.volume, b.trades, b.premium
    from (
      select p.trading_date, ${bucket} as bucket, ${prices},
        sum(p.size)::int8 as volume, count(*)::int8 as trades, round(sum(p.premium::numeric), 2)::float8 as premium
      from prints p
      where p.trading_date = any(${[...dates]}::date[]) and not p.cancelled and p.session = any(${[...f.sessions]}::text[])
        and p.ts >= ${from}::int8 and p.ts < ${f.to}::int8 and ${whose} and ${complex}
      group by 1, 2
    ) b
    where ${past}
    order by b.bucket, b.trading_date
    limit ${limit}`.execute(db);
  return result.rows.map((r) => ({
    tradingDate: r.trading_date,
    bucket: Number(r.bucket),
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    vwap: r.vwap,
    volume: Number(r.volume),
    trades: Number(r.trades),
    premium: r.premium,
  }));
}

/** The id of the contract of a padded OCC symbol; null when none is listed. */
export async function contractIdOfSymbol(db: Queryable, optionSymbol: string): Promise<number | null> {
  const row = await db.selectFrom('contracts').select('id').where('option_symbol', '=', optionSymbol).executeTakeFirst();
  return row === undefined ? null : Number(row.id);
}

/** Of the trading dates, those whose prints are archived and not held (db/archive.ts sessionState 'archived'). */
export async function archivedDates(db: Queryable, dates: readonly string[]): Promise<string[]> {
  if (dates.length === 0) return [];
  const hot = new Set(await partitionDates(db, 'prints'));
  const rows = await db
    .selectFrom('archived_sessions')
    .select(sql<string>`trading_date::text`.as('trading_date'))
    .where('trading_date', '=', sql<string>`any(${[...dates]}::date[])`)
    .execute();
  return rows.map((r) => r.trading_date).filter((d) => !hot.has(d));
}
