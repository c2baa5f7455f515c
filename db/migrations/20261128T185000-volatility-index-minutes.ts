/**
 * The per-minute series of the volatility indices computed here (GET /v1/indices/volatility, its
 * bars at /v1/indices/volatility/bars; src/services/volatility-index-series.ts): a row per family
 * (or one root of it: `root`, '' for the whole family), trading date, tenor and minute of data (its
 * end, `instant`), with the index's value and variance (null when the method refused the minute:
 * `inputs` says why) and the summary of its inputs as JSON (valuation time, T1 and T2, forwards, K0s,
 * strikes used). `change_id` is the market data change log's position read before the chain was, as
 * for the valued books: the row holds while no later change of its trading date reaches before the
 * minute's end (db/volatility-index-series.ts). The rows of a date go when its session is archived.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table volatility_index_minutes (
      underlying_symbol text not null,
      root text not null,
      trading_date date not null,
      tenor text not null,
      instant int8 not null,
      change_id int8 not null,
      value float8,
      variance float8,
      inputs json not null,
      primary key (underlying_symbol, root, trading_date, tenor, instant)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists volatility_index_minutes`.execute(db);
}
