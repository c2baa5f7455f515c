/**
 * The newest-first indexes of prints end with session as a last key column: (root, ts desc,
 * sequence desc, contract_id desc, session) and (ts desc, sequence desc, contract_id desc, session),
 * still without cancelled prints. The order a page reads is unchanged (the first four keys are unique
 * on a date, so session is never compared when the index is built and orders nothing), but the
 * sessions a read asks become a condition checked on the index entry (PostgreSQL 17 checks
 * `session = any(...)` on a later key column inside an ordered scan) instead of a filter after the
 * row is fetched. A regular-session page read at a day's end passed the curb and late prints first,
 * one heap fetch each: 6,493 of them for SPXW on the full-scale simulated day (issue 35).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists prints_root_newest_idx`.execute(db);
  await sql`drop index if exists prints_market_newest_idx`.execute(db);
  await sql`create index prints_root_newest_idx on prints (root, ts desc, sequence desc, contract_id desc, session) where not cancelled`.execute(
    db,
  );
  await sql`create index prints_market_newest_idx on prints (ts desc, sequence desc, contract_id desc, session) where not cancelled`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists prints_root_newest_idx`.execute(db);
  await sql`drop index if exists prints_market_newest_idx`.execute(db);
  await sql`create index prints_root_newest_idx on prints (root, ts desc, sequence desc, contract_id desc) where not cancelled`.execute(db);
  await sql`create index prints_market_newest_idx on prints (ts desc, sequence desc, contract_id desc) where not cancelled`.execute(db);
}
