/**
 * Futures market data (issue 38 §1), loaded through the ordinary ingest path: contract definitions,
 * trades (partitioned by trade date as the option prints are), one-minute bars and the daily
 * statistics CME publishes per contract and trade date (settlement price, open interest, cleared
 * volume). Times are Unix epoch milliseconds (bigint), as in every other table.
 *
 * - futures_contracts: one row per listed contract. A raw symbol such as ESZ6 comes back every ten
 *   years, so the key is (symbol, contract_month); a record naming a symbol is resolved to the
 *   contract of that symbol that had not expired by then (src/db/futures-contracts.ts).
 * - futures_trades: keyed by (trade_date, contract_id, sequence, match). The feed's sequence is the
 *   venue's packet sequence, which several trades of one match event share (one per price level),
 *   so `match` numbers the trades of one contract and sequence in file order (0 for the first). A
 *   reload of a file leaves the same rows. Read paths: a contract's trades paged by (ts, sequence,
 *   match) in either direction, and a root's trades of a trade date newest first.
 * - futures_bars: keyed by (contract_id, ts); read by contract and time range.
 * - futures_statistics: one row per (contract_id, trade_date); each statistic is written by the
 *   loads that carry it. A settlement replaces the stored one only when it is at least as final and
 *   published no earlier (a final replaces a preliminary, never the reverse). Read by root and date
 *   (the root is a column, so that read needs no join) and by contract over dates.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table futures_contracts (
      id bigint generated always as identity primary key,
      symbol text not null,
      root text not null,
      contract_month text not null check (contract_month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      expiration bigint not null,
      tick_size double precision not null check (tick_size > 0),
      multiplier double precision not null check (multiplier > 0),
      currency text not null default 'USD',
      instrument_id bigint,
      unique (symbol, contract_month)
    )
  `.execute(db);
  await sql`create index futures_contracts_root_idx on futures_contracts (root, expiration)`.execute(db);
  await sql`create index futures_contracts_instrument_idx on futures_contracts (instrument_id) where instrument_id is not null`.execute(db);

  await sql`
    create table futures_trades (
      trade_date date not null,
      contract_id bigint not null,
      sequence bigint not null,
      match integer not null check (match >= 0),
      root text not null,
      ts bigint not null,
      price double precision not null,
      size integer not null check (size > 0),
      aggressor_side text check (aggressor_side in ('buy', 'sell')),
      primary key (trade_date, contract_id, sequence, match)
    ) partition by list (trade_date)
  `.execute(db);
  await sql`create index futures_trades_contract_ts_idx on futures_trades (contract_id, ts, sequence, match)`.execute(db);
  await sql`create index futures_trades_root_newest_idx on futures_trades (root, ts desc, sequence desc, match desc)`.execute(db);

  await sql`
    create table futures_bars (
      contract_id bigint not null references futures_contracts (id),
      ts bigint not null,
      open double precision not null,
      high double precision not null,
      low double precision not null,
      close double precision not null,
      volume bigint not null check (volume >= 0),
      primary key (contract_id, ts)
    )
  `.execute(db);
  await sql`create index futures_bars_ts_idx on futures_bars (ts)`.execute(db);

  await sql`
    create table futures_statistics (
      contract_id bigint not null references futures_contracts (id),
      trade_date date not null,
      root text not null,
      settlement_price double precision,
      settlement_final boolean,
      settlement_ts bigint,
      open_interest bigint check (open_interest >= 0),
      cleared_volume bigint check (cleared_volume >= 0),
      primary key (contract_id, trade_date),
      check ((settlement_price is null) = (settlement_final is null))
    )
  `.execute(db);
  await sql`create index futures_statistics_root_date_idx on futures_statistics (root, trade_date)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['futures_statistics', 'futures_bars', 'futures_trades', 'futures_contracts']) {
    await sql`drop table if exists ${sql.table(table)} cascade`.execute(db);
  }
}
