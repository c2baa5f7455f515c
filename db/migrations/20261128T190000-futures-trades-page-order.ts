/**
 * The read paths of GET /v1/futures/trades (issue 38 §2), pages of a contract's or a root's trades
 * in either direction:
 * - a root's trades in a total order: (ts, sequence, match) does not tell apart the trades of two
 *   contracts of a root that one match event printed (a calendar spread's legs share the channel's
 *   packet sequence, each leg match 0), so the root's index ends its order with the contract id;
 * - size and aggressor side as last key columns of both indexes (after the order's keys, which are
 *   unique on a trade date, so they order nothing): the route's size and side filters become
 *   conditions checked on the index entry inside the ordered scan instead of a filter after each
 *   row is fetched, as prints' session is (migration 20261128T170000).
 * Built on every partition by the parent's index.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists futures_trades_root_newest_idx`.execute(db);
  await sql`drop index if exists futures_trades_contract_ts_idx`.execute(db);
  await sql`create index futures_trades_root_newest_idx on futures_trades
    (root, ts desc, sequence desc, match desc, contract_id desc, size, aggressor_side)`.execute(db);
  await sql`create index futures_trades_contract_ts_idx on futures_trades (contract_id, ts, sequence, match, size, aggressor_side)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists futures_trades_root_newest_idx`.execute(db);
  await sql`drop index if exists futures_trades_contract_ts_idx`.execute(db);
  await sql`create index futures_trades_root_newest_idx on futures_trades (root, ts desc, sequence desc, match desc)`.execute(db);
  await sql`create index futures_trades_contract_ts_idx on futures_trades (contract_id, ts, sequence, match)`.execute(db);
}
