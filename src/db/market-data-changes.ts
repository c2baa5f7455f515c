/**
 * The log of market data changes (migration 20261126T030000): every write of contracts, open
 * interest, quote samples, underlying bars or prints adds, in its own transaction, a row per trading
 * date it touched (a row without a date for the listed contracts, which every date reads). Bars are
 * dated by the UTC date of their start.
 *
 * Each row says too from which minute on the write changed its date (`earliest`, migration
 * 20261128T020000; null when unknown), so that a value derived from the data before a minute is
 * known to survive the loads of the later minutes (db/position-books.ts).
 *
 * The log is append-only, so the number of its rows over a span of dates (plus the undated ones) is
 * a stamp of what the store holds for those dates: it changes with every committed write of them
 * and with nothing else. A process that derived something from those dates under one stamp may
 * serve it again exactly while the stamp is unchanged (services/volatility-drift.ts); the valued books
 * read the log by position and extent instead (db/position-books.ts).
 */
import { sql, type RawBuilder } from 'kysely';
import type { Database, Queryable } from './connection.js';

/**
 * Records that the write in progress on `db` (its transaction) changed these trading dates (null:
 * every date), none of their data before `earliest` (the start of the earliest minute written: a
 * quote sample's minute, a bar's start, a print's time; null when the extent is not known).
 */
export async function recordMarketDataChange(db: Queryable, dates: Iterable<string | null>, earliest: number | null = null): Promise<void> {
  const distinct = [...new Set(dates)];
  if (distinct.length === 0) return;
  await sql`insert into market_data_changes (trading_date, earliest) select unnest(${distinct}::date[]), ${earliest}::int8`.execute(db);
}

/** The UTC date of a Unix ms instant (a bar's date in the log). */
export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The stamp of the dates from `from` through `to` (YYYY-MM-DD, inclusive): the log's rows that concern them. */
export async function marketDataStamp(db: Queryable, from: string, to: string): Promise<number> {
  const result = await sql<{ n: string }>`
    select (select count(*) from market_data_changes where trading_date is null)
      + (select count(*) from market_data_changes where trading_date >= ${from}::date and trading_date <= ${to}::date) as n`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Whether a change logged after position `after` can have changed a value derived, at that
 * position, from the dates in [from, to] up to `instant`: one concerning such a date (or every
 * date) that reaches before the instant (or whose extent is unknown). The staleness rule of the
 * valued books and the stored drifts (db/position-books.ts, db/volatility-drift.ts); `after` and
 * `instant` are SQL expressions (a column of the row checked, or a bound value).
 */
export function changedSince(
  after: RawBuilder<unknown>,
  instant: RawBuilder<unknown>,
  dates: { from: string; to: string },
): RawBuilder<boolean> {
  return sql<boolean>`exists (
    select 1 from market_data_changes c
    where c.id > ${after} and (c.trading_date is null or (c.trading_date >= ${dates.from}::date and c.trading_date <= ${dates.to}::date))
      and (c.earliest is null or c.earliest < ${instant}))`;
}

/**
 * The advisory lock key pair held, shared, by each load of several files that form one unit (a
 * live minute's bars, quotes and prints: live/runner.ts), for as long as the unit loads. Shared, so
 * that loads never wait for one another; a reader of the log (jobs/book-valuer.ts) sees that a unit
 * is under way and leaves its half-loaded minute alone. A session's locks end with it, so a loader
 * that dies leaves no mark behind.
 */
const LOAD_UNIT_KEY = [0x4f414453 /* "OADS" */, 1] as const;

/**
 * Runs `load` (writes through `db`'s pool) as one unit of loads: the unit's mark is held from before
 * the first write to after the last, by a transaction of its own on a connection reserved from `db`
 * (it writes nothing and holds no snapshot between its statements). Its end, whichever way, and the
 * end of its session release the mark.
 */
export async function whileLoadingUnit<T>(db: Database, load: () => Promise<T>): Promise<T> {
  return await db.transaction().execute(async (held) => {
    await sql`select pg_advisory_xact_lock_shared(${LOAD_UNIT_KEY[0]}::int4, ${LOAD_UNIT_KEY[1]}::int4)`.execute(held);
    return await load();
  });
}

/** Whether a unit of loads (whileLoadingUnit) is under way in any session of the database. */
export async function loadUnitUnderWay(db: Queryable): Promise<boolean> {
  const result = await sql<{ loading: boolean }>`
    select exists (
      select 1 from pg_locks
      where locktype = 'advisory' and classid = ${LOAD_UNIT_KEY[0]}::int8::oid and objid = ${LOAD_UNIT_KEY[1]}::int8::oid
        and objsubid = 2 and granted) as loading`.execute(db);
  return result.rows[0]?.loading === true;
}
