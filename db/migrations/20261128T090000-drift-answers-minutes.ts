/**
 * A stored drift answer (migration 20261128T080000) also names its family, session, trading date,
 * query (canonical, without `at`) and instant, and the market data change log's position read
 * before it was computed, so that while the newest minute's drift is being computed a request can
 * answer from the previous minute's (src/services/volatility-drift.ts), when no change logged after
 * it reaches before its instant (the books' rule, db/position-books.ts bookOfMinute).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from drift_answers`.execute(db);
  await sql`
    alter table drift_answers
      add column underlying_symbol text not null,
      add column session text not null,
      add column query_key text not null,
      add column instant bigint not null,
      add column change_id bigint not null`.execute(db);
  await sql`create index drift_answers_newest_idx on drift_answers (underlying_symbol, session, trading_date, query_key, instant desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists drift_answers_newest_idx`.execute(db);
  await sql`
    alter table drift_answers drop column underlying_symbol, drop column session, drop column query_key, drop column instant,
      drop column change_id`.execute(db);
}
