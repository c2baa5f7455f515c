/**
 * Volatility drift answers kept for the deployment: the book valuer (src/jobs/book-valuer.ts)
 * computes each family's drift at its default query as each minute loads, and stores it under the
 * key every process computes for that request (src/services/volatility-drift.ts: the market data
 * stamp of the dates it reads, the trading date, the instant and the query), so that the HTTP
 * workers of every machine read it instead of each computing it. A key names exactly what the
 * answer read, so a stored answer is never stale; the valuer deletes the rows stored more than a few
 * minutes before (a later load changed the stamp every request now computes: nothing reads them
 * again), and the rows of a trading date go when its session is archived (src/db/partitions.ts
 * dropPartition).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table drift_answers (
      key text primary key,
      trading_date date not null,
      body text not null,
      stored_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index drift_answers_trading_date_idx on drift_answers (trading_date)`.execute(db);
  await sql`create index drift_answers_stored_at_idx on drift_answers (stored_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists drift_answers`.execute(db);
}
