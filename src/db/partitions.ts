/**
 * The two tables partitioned by trading date (prints, quote_samples): a date's partition created,
 * or built standalone in its load's transaction and attached after, listed and dropped; and the
 * table upkeep of the benchmarks.
 */
import os from 'node:os';
import { sql } from 'kysely';
import type { Queryable } from './connection.js';
import { dropFlowTotals } from './flow-aggregates.js';
import { recordMarketDataChange } from './market-data-changes.js';
import { deleteBooksOf } from './position-books.js';
import { deleteDriftAnswersOf } from './volatility-drift.js';
import { deleteIndexMinutesOf } from './volatility-index-series.js';

export type PartitionedTable = 'prints' | 'quote_samples';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function partitionName(table: PartitionedTable, date: string): string {
  if (!DATE.test(date)) throw new RangeError(`invalid partition date ${date}`);
  return `${table}_${date.replaceAll('-', '')}`;
}

/**
 * Creates the partition of a trading date when missing. Run it outside the load transaction: it
 * locks the parent table briefly, which a long load must not hold.
 */
export async function ensurePartition(db: Queryable, table: PartitionedTable, date: string): Promise<void> {
  const name = partitionName(table, date);
  try {
    await sql`create table if not exists ${sql.table(name)} partition of ${sql.table(table)} for values in (${sql.lit(date)})`.execute(db);
  } catch (error) {
    // Two loads creating the same partition at once: the loser finds it made.
    if ((error as { code?: string }).code !== '42P07') throw error;
  }
}

/**
 * A new trading date's prints table, created standalone inside the load's transaction with the
 * check that makes it a valid partition of its date and, when `primaryKey`, the primary key (which
 * ON CONFLICT needs). attachPrintsPartition() then builds the other indexes (and the primary key
 * when absent) in bulk, a sort per index, which is much cheaper than maintaining them row by row
 * during the load. Returns the table name.
 */
export async function createStandalonePrintsPartition(db: Queryable, date: string, options: { primaryKey: boolean }): Promise<string> {
  const name = partitionName('prints', date);
  await sql`create table ${sql.table(name)} (like prints including defaults,
    ${options.primaryKey ? sql`primary key (contract_id, sequence, trading_date),` : sql``}
    constraint ${sql.ref(`${name}_date_check`)} check (trading_date = ${sql.lit(date)}::date))`.execute(db);
  return name;
}

/** Sort memory per stored print for the index builds of an attach, and its floor and cap. */
const SORT_BYTES_PER_PRINT = 200;
const MIN_SORT_MEMORY_MB = 256;
const MAX_SORT_MEMORY_MB = 2048;

/**
 * Attaches a standalone prints table of `rows` prints as its date's partition (PostgreSQL builds
 * the parent's indexes on it), with settings for this transaction only:
 * - maintenance_work_mem sized to the rows (about 200 bytes a print, 256 MB to 2 GB), so that each
 *   index's sort stays in memory instead of spilling to disk;
 * - at most one parallel worker per core of this machine beyond the leader's (never more than the
 *   server allows): more workers than cores only contend (commit 490a32a has the figures).
 */
export async function attachPrintsPartition(db: Queryable, date: string, rows: number): Promise<void> {
  const name = partitionName('prints', date);
  const sortMb = Math.min(MAX_SORT_MEMORY_MB, Math.max(MIN_SORT_MEMORY_MB, Math.ceil((rows * SORT_BYTES_PER_PRINT) / 2 ** 20)));
  const workers = Math.max(1, os.availableParallelism() - 1);
  await sql`set local maintenance_work_mem = ${sql.lit(`${sortMb}MB`)}`.execute(db);
  await sql`select set_config('max_parallel_maintenance_workers', least(current_setting('max_parallel_maintenance_workers')::int, ${workers}::int)::text, true)`.execute(
    db,
  );
  await sql`alter table prints attach partition ${sql.table(name)} for values in (${sql.lit(date)})`.execute(db);
  await recordMarketDataChange(db, [date]);
}

/**
 * A new trading date's quote_samples table, created standalone inside the load's transaction, with
 * the check that makes it a valid partition of its date and no index: the rows go in by COPY
 * FREEZE (with wal_level=minimal a table created in the loading transaction writes no WAL), and
 * attachQuotePartition() then builds the primary key in one sort. Returns the table name.
 */
export async function createStandaloneQuotePartition(db: Queryable, date: string): Promise<string> {
  const name = partitionName('quote_samples', date);
  await sql`create table ${sql.table(name)} (like quote_samples including defaults,
    constraint ${sql.ref(`${name}_date_check`)} check (trading_date = ${sql.lit(date)}::date))`.execute(db);
  return name;
}

/** Sort memory per quote sample for the primary key's build at attach (about 60 bytes a row), and its bounds. */
const SORT_BYTES_PER_QUOTE = 64;

/** Attaches a standalone quote_samples table of `rows` rows as its date's partition: PostgreSQL builds its primary key. */
export async function attachQuotePartition(db: Queryable, date: string, rows: number): Promise<void> {
  const name = partitionName('quote_samples', date);
  const sortMb = Math.min(MAX_SORT_MEMORY_MB, Math.max(MIN_SORT_MEMORY_MB, Math.ceil((rows * SORT_BYTES_PER_QUOTE) / 2 ** 20)));
  await sql`set local maintenance_work_mem = ${sql.lit(`${sortMb}MB`)}`.execute(db);
  await sql`alter table quote_samples attach partition ${sql.table(name)} for values in (${sql.lit(date)})`.execute(db);
  await recordMarketDataChange(db, [date]);
}

/** Trading dates that have a partition of the table, ascending. */
export async function partitionDates(db: Queryable, table: PartitionedTable): Promise<string[]> {
  const result = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where p.relname = ${table}`.execute(db);
  const prefix = `${table}_`;
  return result.rows
    .map((r) => r.name)
    .filter((n) => n.startsWith(prefix) && /^\d{8}$/.test(n.slice(prefix.length)))
    .map((n) => {
      const d = n.slice(prefix.length);
      return `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
    })
    .sort();
}

/** Drops a trading date's partition of the table; the date's flow totals go with its prints. */
export async function dropPartition(db: Queryable, table: PartitionedTable, date: string): Promise<void> {
  await sql`drop table if exists ${sql.table(partitionName(table, date))}`.execute(db);
  if (table === 'quote_samples') await sql`delete from quote_minutes where trading_date = ${date}::date`.execute(db);
  // The date's books, stored drift answers and computed index minutes go with its data: after a reload they are valued again.
  await deleteBooksOf(db, date);
  await deleteDriftAnswersOf(db, date);
  await deleteIndexMinutesOf(db, date);
  await recordMarketDataChange(db, [date]);
  if (table === 'prints') await dropFlowTotals(db, date);
}

/** Creates an unindexed copy of the prints columns (benchmarks: the bare write). */
export async function createBarePrintsTable(db: Queryable, table: string): Promise<void> {
  await sql`drop table if exists ${sql.table(table)}`.execute(db);
  await sql`create table ${sql.table(table)} (like prints including defaults)`.execute(db);
}

/** Reclaims space and refreshes planner statistics (benchmarks, after bulk deletes). */
export async function vacuumAnalyze(db: Queryable): Promise<void> {
  await sql`vacuum analyze`.execute(db);
}

export async function dropTable(db: Queryable, table: string): Promise<void> {
  await sql`drop table if exists ${sql.table(table)}`.execute(db);
}
