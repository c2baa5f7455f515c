/**
 * A notice on the channel `oads_answers` whenever a write that can change an answer at "now"
 * commits: a market data load (its row of the change log, market_data_changes), a minute mapped
 * to its book or a mapping removed (position_book_minutes), a book's stored answers
 * (position_book_answers) and a stored drift (drift_answers). PostgreSQL sends it at the commit,
 * to every listening connection of every machine; one per statement (statement-level triggers),
 * and the identical notices of a transaction are sent once. Each process keeps its answers at
 * "now" until the next notice (services/now-answers.ts).
 */
import { sql, type Kysely } from 'kysely';

const TABLES = ['market_data_changes', 'position_book_minutes', 'position_book_answers', 'drift_answers'];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function oads_notify_answers() returns trigger language plpgsql as $$
    begin
      perform pg_notify('oads_answers', '');
      return null;
    end $$`.execute(db);
  for (const table of TABLES)
    await sql`
      create trigger ${sql.raw(`${table}_answers_notice`)} after insert or update or delete on ${sql.raw(table)}
      for each statement execute function oads_notify_answers()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql`drop trigger if exists ${sql.raw(`${table}_answers_notice`)} on ${sql.raw(table)}`.execute(db);
  await sql`drop function if exists oads_notify_answers()`.execute(db);
}
