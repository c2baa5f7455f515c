/**
 * The per-minute series of the computed volatility indices (migration 20261128T185000): a minute's
 * value per family (or root), tenor and minute of data, with the change log's position read before
 * its chain was (market-data-changes.ts). A stored minute holds while no change of its trading date
 * (or of every date: the listed contracts) committed after that position reaches before the
 * minute's end, the rule of the valued books (position-books.ts bookOfMinute): loading later minutes
 * keeps it, a correction or reload of its data has it computed again.
 */
import { sql } from 'kysely';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';

/** The series a row belongs to: a family (root '') or one of its roots, in one trading date. */
export interface IndexSeriesKey {
  symbol: string;
  root: string;
  tradingDate: string;
}

/** One tenor's computed value at one minute of data. */
export interface IndexMinuteRow {
  tenor: string;
  /** The end of the minute of data the value was computed at (the route's valuation instant). */
  instant: number;
  value: number | null;
  variance: number | null;
  /** The summary of the inputs, as JSON text. */
  inputs: string;
}

/**
 * Stores computed minutes at the change log's position read before their chains were; a row of a
 * later position already stored (another process computed the minute on newer data) is kept.
 */
export async function storeIndexMinutes(
  db: Queryable,
  key: IndexSeriesKey,
  changeId: number,
  rows: readonly IndexMinuteRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into volatility_index_minutes (underlying_symbol, root, trading_date, tenor, instant, change_id, value, variance, inputs)
    select ${key.symbol}, ${key.root}, ${key.tradingDate}::date, r.tenor, r.instant, ${changeId}::int8, r.value, r.variance, r.inputs::json
    from unnest(${textArrayLiteral(rows.map((r) => r.tenor))}::text[], ${numberArrayLiteral(rows.map((r) => r.instant))}::int8[],
      ${numberArrayLiteral(rows.map((r) => r.value))}::float8[], ${numberArrayLiteral(rows.map((r) => r.variance))}::float8[],
      ${textArrayLiteral(rows.map((r) => r.inputs))}::text[]) as r(tenor, instant, value, variance, inputs)
    on conflict (underlying_symbol, root, trading_date, tenor, instant) do update
      set change_id = excluded.change_id, value = excluded.value, variance = excluded.variance, inputs = excluded.inputs
      where volatility_index_minutes.change_id <= excluded.change_id`.execute(db);
}

/**
 * The stored minutes of a series and tenor whose instants lie in [from, to], oldest first, that no
 * later change makes stale (module comment). A minute left out has no row, or a stale one.
 */
export async function indexMinutes(db: Queryable, key: IndexSeriesKey, tenor: string, from: number, to: number): Promise<IndexMinuteRow[]> {
  const result = await sql<{ instant: string; value: number | null; variance: number | null; inputs: string }>`
    select m.instant, m.value, m.variance, m.inputs::text as inputs from volatility_index_minutes m
    where m.underlying_symbol = ${key.symbol} and m.root = ${key.root} and m.trading_date = ${key.tradingDate}::date
      and m.tenor = ${tenor} and m.instant >= ${from}::int8 and m.instant <= ${to}::int8
      and not exists (
        select 1 from market_data_changes c
        where c.id > m.change_id and (c.trading_date is null or c.trading_date = m.trading_date)
          and (c.earliest is null or c.earliest < m.instant))
    order by m.instant`.execute(db);
  return result.rows.map((r) => ({ tenor, instant: Number(r.instant), value: r.value, variance: r.variance, inputs: r.inputs }));
}

/** The starts of a trading date's minutes in [from, to] for which quote samples are stored (quote_minutes), oldest first. */
export async function quoteMinutesIn(db: Queryable, tradingDate: string, from: number, to: number): Promise<number[]> {
  const result = await sql<{ minute: string }>`
    select minute from quote_minutes
    where trading_date = ${tradingDate}::date and minute >= ${from}::int8 and minute <= ${to}::int8
    order by minute`.execute(db);
  return result.rows.map((r) => Number(r.minute));
}

/** Deletes the computed minutes of a trading date (its session archived: they are computed again after a reload). */
export async function deleteIndexMinutesOf(db: Queryable, tradingDate: string): Promise<void> {
  await sql`delete from volatility_index_minutes where trading_date = ${tradingDate}::date`.execute(db);
}
