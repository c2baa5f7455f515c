/**
 * The market data store: option roots, contracts, classified prints (one partition per trading
 * date), one-minute quote samples, underlying bars, open interest and the ledger of loaded files.
 * Bulk writes of the small tables send whole columns as arrays and insert from unnest(): one round
 * trip per batch. Prints, the one large table, are written by COPY (bulk-copy.ts).
 */
import os from 'node:os';
import { sql } from 'kysely';
import { OPTION_ROOTS, type OptionRoot } from '../analytics/roots.js';
import type { Queryable } from './connection.js';
import { dropFlowTotals } from './flow-aggregates.js';
import { recordMarketDataChange, utcDate } from './market-data-changes.js';
import type { ContractType, OptionRootsTable, QuoteSamplesTable } from './schema.js';

// ---------------------------------------------------------------------------------------------
// Columns sent as arrays
// ---------------------------------------------------------------------------------------------

/**
 * A column of numbers as one PostgreSQL array literal ('{1,2.5,NULL}'), each as String() writes
 * it, the text node-pg sends for a JS array; given a JS array, node-pg converts and quotes each
 * element in turn (prepareValue, escapeElement), some 1.4 s of a first start's CPU over the seed's
 * bars and open interest. The literal is parsed by the column's cast (`::int8[]`, `::float8[]`).
 */
export function numberArrayLiteral(values: readonly (number | null)[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (i > 0) text += ',';
    text += value === null || value === undefined ? 'NULL' : String(value);
  }
  return `${text}}`;
}

/** A column of texts (or dates as YYYY-MM-DD) as one array literal, each element quoted as node-pg quotes it. */
export function textArrayLiteral(values: readonly string[]): string {
  let text = '{';
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] as string;
    if (i > 0) text += ',';
    text += /["\\]/.test(value) ? `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : `"${value}"`;
  }
  return `${text}}`;
}

// ---------------------------------------------------------------------------------------------
// Roots and contracts
// ---------------------------------------------------------------------------------------------

function rootRow(r: OptionRoot): OptionRootsTable {
  return { root: r.root, family: r.family, underlying: r.underlying, multiplier: r.multiplier, kind: r.kind, overnight: r.overnight, curb: r.curb, am_settled: r.amSettled };
}

/** Writes the reference roots (OPTION_ROOTS), updating any that changed. Run at start-up. */
export async function seedOptionRoots(db: Queryable): Promise<void> {
  await db
    .insertInto('option_roots')
    .values(OPTION_ROOTS.map(rootRow))
    .onConflict((oc) =>
      oc.column('root').doUpdateSet((eb) => ({
        family: eb.ref('excluded.family'),
        underlying: eb.ref('excluded.underlying'),
        multiplier: eb.ref('excluded.multiplier'),
        kind: eb.ref('excluded.kind'),
        overnight: eb.ref('excluded.overnight'),
        curb: eb.ref('excluded.curb'),
        am_settled: eb.ref('excluded.am_settled'),
      })),
    )
    .execute();
}

/** Adds roots met in data; known roots are left as they are. */
export async function ensureOptionRoots(db: Queryable, roots: readonly OptionRoot[]): Promise<void> {
  if (roots.length === 0) return;
  await db.insertInto('option_roots').values(roots.map(rootRow)).onConflict((oc) => oc.column('root').doNothing()).execute();
}

export async function listOptionRoots(db: Queryable): Promise<OptionRoot[]> {
  const rows = await db.selectFrom('option_roots').selectAll().orderBy('root').execute();
  return rows.map((r) => ({ root: r.root, family: r.family, underlying: r.underlying, multiplier: r.multiplier, kind: r.kind, overnight: r.overnight, curb: r.curb, amSettled: r.am_settled }));
}

export interface ContractSpec {
  symbol: string;
  root: string;
  underlying: string;
  dateOfExpiry: string;
  type: ContractType;
  strikeThousandths: number;
  multiplier: number;
}

export interface StoredContract {
  id: number;
  symbol: string;
  underlying: string;
  multiplier: number;
}

/**
 * Creates the contracts that do not exist yet (an existing contract keeps its underlying and
 * multiplier unless `overwrite`) and returns every one of them by padded OCC symbol.
 */
export async function ensureContracts(db: Queryable, specs: readonly ContractSpec[], options: { overwrite?: boolean } = {}): Promise<Map<string, StoredContract>> {
  const out = new Map<string, StoredContract>();
  for (let start = 0; start < specs.length; start += 20_000) {
    const chunk = specs.slice(start, start + 20_000);
    const conflict = options.overwrite
      ? sql`on conflict (option_symbol) do update set underlying = excluded.underlying, multiplier = excluded.multiplier`
      : sql`on conflict do nothing`;
    const written = await sql`
      insert into contracts (option_symbol, root, underlying, date_of_expiry, contract_type, strike_thousandths, multiplier)
      select * from unnest(${textArrayLiteral(chunk.map((s) => s.symbol))}::text[], ${textArrayLiteral(chunk.map((s) => s.root))}::text[],
        ${textArrayLiteral(chunk.map((s) => s.underlying))}::text[], ${textArrayLiteral(chunk.map((s) => s.dateOfExpiry))}::date[],
        ${textArrayLiteral(chunk.map((s) => s.type))}::text[], ${numberArrayLiteral(chunk.map((s) => s.strikeThousandths))}::int8[],
        ${numberArrayLiteral(chunk.map((s) => s.multiplier))}::int4[])
      ${conflict}`.execute(db);
    // A contract listed or changed: every trading date lists it.
    if (Number(written.numAffectedRows ?? 0) > 0) await recordMarketDataChange(db, [null]);
    const rows = await db
      .selectFrom('contracts')
      .select(['id', 'option_symbol', 'underlying', 'multiplier'])
      .where('option_symbol', '=', sql<string>`any(${textArrayLiteral(chunk.map((s) => s.symbol))}::text[])`)
      .execute();
    for (const r of rows) out.set(r.option_symbol, { id: r.id, symbol: r.option_symbol, underlying: r.underlying, multiplier: r.multiplier });
  }
  return out;
}

export async function countContracts(db: Queryable): Promise<number> {
  const row = await db.selectFrom('contracts').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return row.n;
}

// ---------------------------------------------------------------------------------------------
// Partitions
// ---------------------------------------------------------------------------------------------

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
  await sql`select set_config('max_parallel_maintenance_workers', least(current_setting('max_parallel_maintenance_workers')::int, ${workers}::int)::text, true)`.execute(db);
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
  await recordMarketDataChange(db, [date]);
  if (table === 'prints') await dropFlowTotals(db, date);
}

// ---------------------------------------------------------------------------------------------
// Prints
// ---------------------------------------------------------------------------------------------

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

/** Marks stored prints cancelled (a cancel record arrived after they were written). */
export async function markPrintsCancelled(db: Queryable, keys: readonly { tradingDate: string; contractId: number; sequence: number }[]): Promise<number> {
  if (keys.length === 0) return 0;
  const result = await sql`
    update prints p set cancelled = true, flags = case when 'cancelled' = any(p.flags) then p.flags else p.flags || '{cancelled}'::text[] end
    from unnest(${keys.map((k) => k.tradingDate)}::date[], ${keys.map((k) => k.contractId)}::int8[], ${keys.map((k) => k.sequence)}::int8[]) as k(d, c, s)
    where p.trading_date = k.d and p.contract_id = k.c and p.sequence = k.s and not p.cancelled`.execute(db);
  const marked = Number(result.numAffectedRows ?? 0);
  if (marked > 0) await recordMarketDataChange(db, keys.map((k) => k.tradingDate));
  return marked;
}

/** Stored volume of a trading date per contract id, less cancelled prints (day volume so far). */
export async function storedDayVolumes(db: Queryable, tradingDate: string, contractIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (contractIds.length === 0) return out;
  const result = await sql<{ contract_id: number; volume: number }>`
    select contract_id, sum(size)::int8 as volume from prints
    where trading_date = ${tradingDate} and not cancelled and contract_id = any(${[...contractIds]}::int8[])
    group by contract_id`.execute(db);
  for (const r of result.rows) out.set(Number(r.contract_id), Number(r.volume));
  return out;
}

/** A cancel record looking for its print among the stored prints of its trading date. */
export interface StoredCancelProbe {
  contractId: number;
  /** The cancel record's own sequence. */
  sequence: number;
  exchangeCode: number;
  price: number;
  size: number;
  ts: number;
}

export interface StoredCancelCandidate {
  /** Index of the probe. */
  probe: number;
  sequence: number;
  cancelled: boolean;
  /** This cancel record already cancelled this print (an earlier load of its file). */
  applied: boolean;
}

/**
 * Stored prints each cancel record could cancel: same trading date, contract, exchange, size and
 * price (within priceEpsilon), at or before the record and at most lookbackMs earlier; newest first
 * per probe, cancelled ones included (marked), with the cancels already recorded for the record.
 */
export async function storedCancelCandidates(
  db: Queryable,
  tradingDate: string,
  probes: readonly StoredCancelProbe[],
  options: { lookbackMs: number; priceEpsilon: number },
): Promise<StoredCancelCandidate[]> {
  if (probes.length === 0) return [];
  const result = await sql<{ probe: number; sequence: number; cancelled: boolean; applied: boolean }>`
    select (k.i - 1)::int as probe, p.sequence, p.cancelled,
      exists (select 1 from print_cancels c where c.trading_date = p.trading_date and c.contract_id = k.c
        and c.cancel_sequence = k.q and c.sequence = p.sequence) as applied
    from unnest(${probes.map((p) => p.contractId)}::int8[], ${probes.map((p) => p.sequence)}::int8[], ${probes.map((p) => p.exchangeCode)}::int4[],
      ${probes.map((p) => p.price)}::float8[], ${probes.map((p) => p.size)}::int4[], ${probes.map((p) => p.ts)}::int8[]) with ordinality as k(c, q, e, pr, s, t, i)
    join prints p on p.trading_date = ${tradingDate} and p.contract_id = k.c and p.ts <= k.t and p.ts >= k.t - ${options.lookbackMs}::int8
      and p.exchange_code = k.e and p.size = k.s and abs(p.price - k.pr) <= ${options.priceEpsilon}::float8
    order by k.i, p.ts desc, p.sequence desc`.execute(db);
  return result.rows.map((r) => ({ probe: r.probe, sequence: Number(r.sequence), cancelled: r.cancelled, applied: r.applied }));
}

/** Remembers which stored print a cancel record of a later file cancelled (so a reload finds it applied). */
export async function recordPrintCancels(db: Queryable, rows: readonly { tradingDate: string; contractId: number; cancelSequence: number; sequence: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into print_cancels (trading_date, contract_id, cancel_sequence, sequence)
    select * from unnest(${rows.map((r) => r.tradingDate)}::date[], ${rows.map((r) => r.contractId)}::int8[], ${rows.map((r) => r.cancelSequence)}::int8[],
      ${rows.map((r) => r.sequence)}::int8[])
    on conflict (trading_date, contract_id, cancel_sequence) do update set sequence = excluded.sequence`.execute(db);
}

export async function countPrints(db: Queryable, tradingDate?: string): Promise<number> {
  let q = db.selectFrom('prints').select(sql<number>`count(*)::int`.as('n'));
  if (tradingDate !== undefined) q = q.where('trading_date', '=', tradingDate);
  return (await q.executeTakeFirstOrThrow()).n;
}

export async function hasAnyPrint(db: Queryable): Promise<boolean> {
  const row = await db.selectFrom('prints').select('trading_date').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Bodies of the prints of one trading date in (timestamp, sequence) order; tests and archive checks. */
export async function printBodies(db: Queryable, tradingDate: string, options: { includeCancelled?: boolean } = {}): Promise<string[]> {
  let q = db.selectFrom('prints').select('body').where('trading_date', '=', tradingDate);
  if (!options.includeCancelled) q = q.where('cancelled', '=', false);
  const rows = await q.orderBy('ts').orderBy('sequence').orderBy('contract_id').execute();
  return rows.map((r) => r.body);
}

// ---------------------------------------------------------------------------------------------
// Quotes, bars, open interest
// ---------------------------------------------------------------------------------------------

export interface QuoteSampleRow {
  tradingDate: string;
  contractId: number;
  minute: number;
  bid: number | null;
  ask: number | null;
  bidSize: number | null;
  askSize: number | null;
  quoteTs: number;
}

/** The quote_samples columns in the order of a binary COPY row (ingest/quotes.ts writes them so). */
export const QUOTE_SAMPLE_COPY_COLUMNS = ['trading_date', 'contract_id', 'minute', 'bid', 'ask', 'bid_size', 'ask_size', 'quote_ts'] as const satisfies readonly (keyof QuoteSamplesTable)[];

/** Upserts minute samples; a sample is replaced only by a later (or same-time) quote of its minute. */
export async function upsertQuoteSamples(db: Queryable, rows: readonly QuoteSampleRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into quote_samples (trading_date, contract_id, minute, bid, ask, bid_size, ask_size, quote_ts)
      select * from unnest(${textArrayLiteral(c.map((r) => r.tradingDate))}::date[], ${numberArrayLiteral(c.map((r) => r.contractId))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.minute))}::int8[], ${numberArrayLiteral(c.map((r) => r.bid))}::float8[], ${numberArrayLiteral(c.map((r) => r.ask))}::float8[],
        ${numberArrayLiteral(c.map((r) => r.bidSize))}::int4[], ${numberArrayLiteral(c.map((r) => r.askSize))}::int4[], ${numberArrayLiteral(c.map((r) => r.quoteTs))}::int8[])
      on conflict (contract_id, minute, trading_date) do update
        set bid = excluded.bid, ask = excluded.ask, bid_size = excluded.bid_size, ask_size = excluded.ask_size, quote_ts = excluded.quote_ts
        where excluded.quote_ts >= quote_samples.quote_ts`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) await recordMarketDataChange(db, rows.map((r) => r.tradingDate));
  return written;
}

/** The minute samples of a trading date for some contracts, by contract then quote time. */
export async function quoteSamplesOn(db: Queryable, tradingDate: string, contractIds: readonly number[]): Promise<QuoteSampleRow[]> {
  if (contractIds.length === 0) return [];
  const rows = await db
    .selectFrom('quote_samples')
    .select(['trading_date', 'contract_id', 'minute', 'bid', 'ask', 'bid_size', 'ask_size', 'quote_ts'])
    .where('trading_date', '=', tradingDate)
    .where('contract_id', '=', sql<number>`any(${[...contractIds]}::int8[])`)
    .orderBy('contract_id')
    .orderBy('quote_ts')
    .execute();
  return rows.map((r) => ({ tradingDate: r.trading_date, contractId: r.contract_id, minute: r.minute, bid: r.bid, ask: r.ask, bidSize: r.bid_size, askSize: r.ask_size, quoteTs: r.quote_ts }));
}

export interface BarRow {
  symbol: string;
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

export async function upsertUnderlyingBars(db: Queryable, rows: readonly BarRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into underlying_bars (symbol, ts, open, high, low, close, volume)
      select * from unnest(${textArrayLiteral(c.map((r) => r.symbol))}::text[], ${numberArrayLiteral(c.map((r) => r.ts))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.open))}::float8[], ${numberArrayLiteral(c.map((r) => r.high))}::float8[], ${numberArrayLiteral(c.map((r) => r.low))}::float8[],
        ${numberArrayLiteral(c.map((r) => r.close))}::float8[], ${numberArrayLiteral(c.map((r) => r.volume))}::int8[])
      on conflict (symbol, ts) do update set open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close, volume = excluded.volume`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) await recordMarketDataChange(db, barDates(rows));
  return written;
}

/** The UTC dates of the bars' starts (utcDate), each formatted once per day however many bars it has. */
function barDates(rows: readonly BarRow[]): Set<string> {
  const days = new Set<number>();
  for (const r of rows) days.add(Math.floor(r.ts / 86_400_000));
  return new Set([...days].map((day) => utcDate(day * 86_400_000)));
}

/** Bars of some symbols with from <= ts <= to, by symbol and time. */
export async function underlyingBarsBetween(db: Queryable, symbols: readonly string[], from: number, to: number): Promise<BarRow[]> {
  if (symbols.length === 0) return [];
  return await db
    .selectFrom('underlying_bars')
    .select(['symbol', 'ts', 'open', 'high', 'low', 'close', 'volume'])
    .where('symbol', '=', sql<string>`any(${[...symbols]}::text[])`)
    .where('ts', '>=', from)
    .where('ts', '<=', to)
    .orderBy('symbol')
    .orderBy('ts')
    .execute();
}

/** The bar of a session window made of its one-minute bars. */
export interface SessionBar {
  /** The trading date the window belongs to. */
  date: string;
  /** First bar's open, highest high, lowest low, last bar's close. */
  open: number;
  high: number;
  low: number;
  close: number;
  /** Summed volume (null when no bar has one). */
  volume: number | null;
  /** One-minute bars in the window. */
  minutes: number;
  /** Start of the first and of the last bar, Unix ms. */
  firstTs: number;
  lastTs: number;
}

/**
 * Daily bars of one symbol built from its one-minute bars, one per window ([start, end) on the
 * bar's start; the caller gives each trading date's session, e.g. the regular session from the
 * calendar), ascending by date; a window without bars has no row.
 */
export async function sessionBars(db: Queryable, symbol: string, windows: readonly { date: string; start: number; end: number }[]): Promise<SessionBar[]> {
  if (windows.length === 0) return [];
  const result = await sql<{ date: string; open: number; high: number; low: number; close: number; volume: number | null; minutes: number; first_ts: number; last_ts: number }>`
    select w.d::text as date, (array_agg(b.open order by b.ts))[1] as open, max(b.high) as high, min(b.low) as low,
      (array_agg(b.close order by b.ts desc))[1] as close, sum(b.volume)::int8 as volume, count(*)::int as minutes,
      min(b.ts) as first_ts, max(b.ts) as last_ts
    from unnest(${windows.map((w) => w.date)}::date[], ${windows.map((w) => w.start)}::int8[], ${windows.map((w) => w.end)}::int8[]) as w(d, s, e)
    join underlying_bars b on b.symbol = ${symbol} and b.ts >= w.s and b.ts < w.e
    group by w.d order by w.d`.execute(db);
  return result.rows.map((r) => ({
    date: r.date,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume === null ? null : Number(r.volume),
    minutes: r.minutes,
    firstTs: Number(r.first_ts),
    lastTs: Number(r.last_ts),
  }));
}

export interface OpenInterestRow {
  contractId: number;
  date: string;
  openInterest: number;
}

export async function upsertOpenInterest(db: Queryable, rows: readonly OpenInterestRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into open_interest (contract_id, date, open_interest)
      select * from unnest(${numberArrayLiteral(c.map((r) => r.contractId))}::int8[], ${textArrayLiteral(c.map((r) => r.date))}::date[],
        ${numberArrayLiteral(c.map((r) => r.openInterest))}::int4[])
      on conflict (contract_id, date) do update set open_interest = excluded.open_interest`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) await recordMarketDataChange(db, rows.map((r) => r.date));
  return written;
}

/** Open interest at the start of a trading date, by contract id. */
export async function openInterestOn(db: Queryable, date: string, contractIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (contractIds.length === 0) return out;
  const rows = await db
    .selectFrom('open_interest')
    .select(['contract_id', 'open_interest'])
    .where('date', '=', date)
    .where('contract_id', '=', sql<number>`any(${[...contractIds]}::int8[])`)
    .execute();
  for (const r of rows) out.set(r.contract_id, r.open_interest);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ledger of loaded files
// ---------------------------------------------------------------------------------------------

export interface IngestedFile {
  checksum: string;
  kind: string;
  fileName: string;
  read: number;
  loaded: number;
  rejected: number;
  duplicates: number;
}

export async function findIngestedFile(db: Queryable, checksum: string, kind: string): Promise<IngestedFile | null> {
  const row = await db.selectFrom('ingest_files').selectAll().where('checksum', '=', checksum).where('kind', '=', kind).executeTakeFirst();
  return row ? { checksum: row.checksum, kind: row.kind, fileName: row.file_name, read: row.read, loaded: row.loaded, rejected: row.rejected, duplicates: row.duplicates } : null;
}

export async function recordIngestedFile(db: Queryable, file: IngestedFile): Promise<void> {
  await db
    .insertInto('ingest_files')
    .values({ checksum: file.checksum, kind: file.kind, file_name: file.fileName, read: file.read, loaded: file.loaded, rejected: file.rejected, duplicates: file.duplicates })
    .onConflict((oc) => oc.columns(['checksum', 'kind']).doNothing())
    .execute();
}

/** Forgets the loaded files of some kinds (a session dropped from the hot store may load again). */
export async function forgetIngestedFiles(db: Queryable, fileNames: readonly string[]): Promise<void> {
  if (fileNames.length === 0) return;
  await db.deleteFrom('ingest_files').where('file_name', 'in', [...fileNames]).execute();
}
