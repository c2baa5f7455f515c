/**
 * The newest-first indexes of prints carry the feeds' commonest row filters as further key columns
 * after session: side, size, premium and contract type. As with session (20261128T170000), the order a
 * page reads is unchanged (the first keys are unique on a date, so the later ones never order
 * anything), but PostgreSQL 17 checks `side = any(...)`, `size >= ...`, `premium >= ...` and
 * `contract_type = ...` on the index entry inside the ordered scan, so a filtered page fetches the rows
 * it returns and not every row it passes. A page of SPY prints at the ask of 2 contracts or more
 * without complex trades, on the full-scale simulated day, fetched 472 rows for 101 (185 buffers);
 * with these keys 124 (83 buffers), and pgbench's rate for that statement rose from about 3,500 to
 * 3,950 a second (issue 35). The keys cost about half the index again: 128 to 191 MB for the
 * root index on that day (2,279,914 prints, a 2.4 GB partition).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists prints_root_newest_idx`.execute(db);
  await sql`drop index if exists prints_market_newest_idx`.execute(db);
  await sql`create index prints_root_newest_idx on prints (root, ts desc, sequence desc, contract_id desc, session, side, size, premium, contract_type)
    where not cancelled`.execute(db);
  await sql`create index prints_market_newest_idx on prints (ts desc, sequence desc, contract_id desc, session, side, size, premium, contract_type)
    where not cancelled`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists prints_root_newest_idx`.execute(db);
  await sql`drop index if exists prints_market_newest_idx`.execute(db);
  await sql`create index prints_root_newest_idx on prints (root, ts desc, sequence desc, contract_id desc, session) where not cancelled`.execute(
    db,
  );
  await sql`create index prints_market_newest_idx on prints (ts desc, sequence desc, contract_id desc, session) where not cancelled`.execute(db);
}
