/**
 * Answers of the valued books, computed once for the deployment: the book valuer
 * (src/jobs/book-valuer.ts) writes the answer of each route's default query (levels, heat map and
 * skew of the underlying, every parameter at its contract default) for each book it values, at the
 * minute it values it, before it maps the minute; every HTTP worker of every machine then serves
 * that minute's default answers by reading one row, where each computed them from the book before.
 * The body is the answer's `data` as JSON text, exactly as the route computes it. An answer never
 * changes (its book never does), and goes with its book (on delete cascade: a session archived).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table position_book_answers (
      book_id bigint not null references position_books (id) on delete cascade,
      instant bigint not null,
      operation text not null,
      query_key text not null,
      body text not null,
      primary key (book_id, instant, operation, query_key)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists position_book_answers`.execute(db);
}
