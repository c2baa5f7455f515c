/**
 * A log of the loads that changed the market data, one row per trading date a write touched, so
 * that a process can tell cheaply whether what it derived from some dates is still what the store
 * holds (src/db/market-data-changes.ts). The writers (src/db/market-data.ts) add the rows in the
 * transaction of the write; a row with no trading date is a change of every date (the listed
 * contracts). The log is only ever appended to: the count of its rows over a span of dates grows
 * with every committed change of those dates, and never otherwise.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table market_data_changes (
      id bigint generated always as identity primary key,
      trading_date date,
      changed_at timestamptz not null default now()
    )
  `.execute(db);
  await sql`create index market_data_changes_date_idx on market_data_changes (trading_date)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists market_data_changes`.execute(db);
}
