/**
 * Futures trades (futures_trades, migration 20261128T150000), partitioned by trade date as the
 * option prints are: a new date's trades go by COPY FREEZE into a table created in the load's
 * transaction, attached as the date's partition after (its indexes built in one sort each); a date
 * that has a partition takes its trades by insert. Dropped whole with the date. A trade is keyed by
 * (trade_date, contract_id, sequence, match), so a reload writes nothing new.
 */
import { sql } from 'kysely';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { CopySession } from './bulk-copy.js';
import type { Queryable } from './connection.js';
import { CopyBinaryWriter } from './copy-binary.js';
import { recordMarketDataChange } from './market-data-changes.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function futuresTradesPartition(date: string): string {
  if (!DATE.test(date)) throw new RangeError(`invalid partition date ${date}`);
  return `futures_trades_${date.replaceAll('-', '')}`;
}

const COPY_COLUMNS = ['trade_date', 'contract_id', 'sequence', 'match', 'root', 'ts', 'price', 'size', 'aggressor_side'] as const;

/**
 * Writes the trades of a date that has no partition yet (all of `rows` of that date): a standalone
 * table created in the caller's transaction (the load's, on `session`'s connection) with the check
 * that makes it the date's partition, filled by COPY FREEZE (no conflict is possible: the table is
 * new and the file's keys are distinct), then attached, which builds the parent's indexes on it.
 * Returns the trades written. Two loads making the same date at once: the second fails on the
 * table's name when the first commits, writing nothing; loaded again, it takes the insert path.
 */
export async function copyFuturesTradesOfNewDate(
  session: CopySession,
  trx: Queryable,
  date: string,
  rows: readonly FuturesTradeRow[],
): Promise<number> {
  const name = futuresTradesPartition(date);
  await sql`create table ${sql.table(name)} (like futures_trades including defaults including constraints,
    constraint ${sql.ref(`${name}_date_check`)} check (trade_date = ${sql.lit(date)}::date))`.execute(trx);
  const copy = session.copyInto(name, COPY_COLUMNS, { freeze: true });
  let blocked = false;
  const w = new CopyBinaryWriter((chunk) => {
    if (!copy.write(chunk)) blocked = true;
  });
  let copied: number;
  try {
    w.header();
    for (const r of rows) {
      w.row(COPY_COLUMNS.length);
      w.date(r.tradeDate);
      w.int8(r.contractId);
      w.int8(r.sequence);
      w.int4(r.match);
      w.text(r.root);
      w.int8(r.ts);
      w.float8(r.price);
      w.int4(r.size);
      w.textOrNull(r.aggressorSide);
      w.endRow();
      if (blocked) {
        blocked = false;
        await copy.drained();
      }
    }
    w.end();
    copied = await copy.end();
  } catch (error) {
    await copy.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  await sql`alter table futures_trades attach partition ${sql.table(name)} for values in (${sql.lit(date)})`.execute(trx);
  let earliest = Infinity;
  for (const r of rows) if (r.ts < earliest) earliest = r.ts;
  await recordMarketDataChange(trx, [date], copied > 0 ? earliest : null);
  return copied;
}

/** Trade dates that have a partition, ascending. */
export async function futuresTradeDates(db: Queryable): Promise<string[]> {
  const result = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    join pg_class p on p.oid = i.inhparent
    where p.relname = 'futures_trades'`.execute(db);
  return result.rows
    .map((r) => /^futures_trades_(\d{4})(\d{2})(\d{2})$/.exec(r.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}-${m[2]}-${m[3]}`)
    .sort();
}

/** Drops a trade date's trades (the retention's archive, after writing them out). */
export async function dropFuturesTradesPartition(db: Queryable, date: string): Promise<void> {
  await sql`drop table if exists ${sql.table(futuresTradesPartition(date))}`.execute(db);
  await recordMarketDataChange(db, [date]);
}

export interface FuturesTradeRow {
  tradeDate: string;
  contractId: number;
  sequence: number;
  match: number;
  root: string;
  ts: number;
  price: number;
  size: number;
  aggressorSide: 'buy' | 'sell' | null;
}

/**
 * Inserts trades (their dates' partitions must exist); a trade already stored (same key) is left as
 * it is. Returns the trades written: the others were stored before.
 */
export async function insertFuturesTrades(db: Queryable, rows: readonly FuturesTradeRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into futures_trades (trade_date, contract_id, sequence, match, root, ts, price, size, aggressor_side)
      select * from unnest(${textArrayLiteral(c.map((r) => r.tradeDate))}::date[], ${numberArrayLiteral(c.map((r) => r.contractId))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.sequence))}::int8[], ${numberArrayLiteral(c.map((r) => r.match))}::int4[],
        ${textArrayLiteral(c.map((r) => r.root))}::text[], ${numberArrayLiteral(c.map((r) => r.ts))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.price))}::float8[], ${numberArrayLiteral(c.map((r) => r.size))}::int4[],
        ${sideArrayLiteral(c.map((r) => r.aggressorSide))}::text[])
      on conflict do nothing`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) {
    const dates = new Set(rows.map((r) => r.tradeDate));
    let earliest = Infinity;
    for (const r of rows) if (r.ts < earliest) earliest = r.ts;
    await recordMarketDataChange(db, dates, earliest);
  }
  return written;
}

function sideArrayLiteral(values: readonly ('buy' | 'sell' | null)[]): string {
  return `{${values.map((v) => (v === null ? 'NULL' : v)).join(',')}}`;
}

/** A position in a contract's trades: they are ordered by (ts, sequence, match). */
export interface FuturesTradePosition {
  ts: number;
  sequence: number;
  match: number;
}

/**
 * One page of a contract's trades with from <= ts < to, ascending by (ts, sequence, match) after
 * `after` (or descending before it, with `newestFirst`).
 */
export async function futuresTradesPage(
  db: Queryable,
  contractId: number,
  range: { from: number; to: number },
  options: { after?: FuturesTradePosition | null; limit: number; newestFirst?: boolean },
): Promise<FuturesTradeRow[]> {
  const desc = options.newestFirst === true;
  let q = db
    .selectFrom('futures_trades')
    .select(['trade_date', 'contract_id', 'sequence', 'match', 'root', 'ts', 'price', 'size', 'aggressor_side'])
    .where('contract_id', '=', contractId)
    .where('ts', '>=', range.from)
    .where('ts', '<', range.to);
  const after = options.after ?? null;
  if (after !== null)
    q = q.where(
      desc
        ? sql<boolean>`(ts, sequence, match) < (${after.ts}, ${after.sequence}, ${after.match})`
        : sql<boolean>`(ts, sequence, match) > (${after.ts}, ${after.sequence}, ${after.match})`,
    );
  const direction = desc ? 'desc' : 'asc';
  const rows = await q.orderBy('ts', direction).orderBy('sequence', direction).orderBy('match', direction).limit(options.limit).execute();
  return rows.map((r) => ({
    tradeDate: r.trade_date,
    contractId: r.contract_id,
    sequence: r.sequence,
    match: r.match,
    root: r.root,
    ts: r.ts,
    price: r.price,
    size: r.size,
    aggressorSide: r.aggressor_side,
  }));
}

/**
 * A trade date's trades in key order (contract, sequence, match), one page after `after`: the
 * archive's export, whose file read back in this order gives each trade its own match again.
 */
export async function futuresTradesOfDate(
  db: Queryable,
  tradeDate: string,
  after: { contractId: number; sequence: number; match: number } | null,
  limit: number,
): Promise<(FuturesTradeRow & { symbol: string })[]> {
  let q = db
    .selectFrom('futures_trades as t')
    .innerJoin('futures_contracts as c', 'c.id', 't.contract_id')
    .select([
      'c.symbol',
      't.trade_date',
      't.contract_id',
      't.sequence',
      't.match',
      't.root',
      't.ts',
      't.price',
      't.size',
      't.aggressor_side',
    ])
    .where('t.trade_date', '=', tradeDate);
  if (after !== null)
    q = q.where(sql<boolean>`(t.contract_id, t.sequence, t.match) > (${after.contractId}, ${after.sequence}, ${after.match})`);
  const rows = await q.orderBy('t.contract_id').orderBy('t.sequence').orderBy('t.match').limit(limit).execute();
  return rows.map((r) => ({
    symbol: r.symbol,
    tradeDate: r.trade_date,
    contractId: r.contract_id,
    sequence: r.sequence,
    match: r.match,
    root: r.root,
    ts: r.ts,
    price: r.price,
    size: r.size,
    aggressorSide: r.aggressor_side,
  }));
}

/** Which trades a page of GET /v1/futures/trades reads: one trade date, a contract or a root, and the route's filters. */
export interface FuturesTradeFilter {
  tradeDate: string;
  /** Every contract of the root, or only `contractId` (a contract of the root). */
  root: string;
  contractId: number | null;
  /** ts >= from and ts < to, when given. */
  from: number | null;
  to: number | null;
  minSize?: number;
  maxSize?: number;
  /** On price × multiplier × size, USD. */
  minNotional?: number;
  maxNotional?: number;
  /** none: trades whose aggressor the feed did not give. */
  aggressorSide?: 'buy' | 'sell' | 'none';
}

/** A page's position: the trades are ordered by (ts, sequence, match, contract id), unique on a trade date. */
export interface FuturesTradeKey {
  ts: number;
  sequence: number;
  match: number;
  contractId: number;
}

/** A trade as the route serves it: the stored row with its contract. */
export interface FuturesTradeOfContract extends FuturesTradeRow {
  symbol: string;
  contractMonth: string;
  multiplier: number;
}

/**
 * The statement of one page of trades after `after` (before it, newest first), `limit` rows (null:
 * all of them, the stream's read of one load, db/futures-trade-events.ts). A
 * contract's read goes down futures_trades_contract_ts_idx, a root's down
 * futures_trades_root_newest_idx (backwards when oldest first), on the trade date's partition only,
 * in the index's order (no sort); size and side are conditions on the index entry, the notional a
 * filter of the fetched row (its multiplier is the contract's).
 */
export function futuresTradePageStatement(
  db: Queryable,
  f: FuturesTradeFilter,
  after: FuturesTradeKey | null,
  limit: number | null,
  newestFirst: boolean,
) {
  const direction = newestFirst ? 'desc' : 'asc';
  let q = db
    .selectFrom('futures_trades as t')
    .innerJoin('futures_contracts as c', 'c.id', 't.contract_id')
    .select([
      'c.symbol',
      'c.contract_month',
      'c.multiplier',
      't.trade_date',
      't.contract_id',
      't.sequence',
      't.match',
      't.root',
      't.ts',
      't.price',
      't.size',
      't.aggressor_side',
    ])
    .where('t.trade_date', '=', f.tradeDate);
  q = f.contractId !== null ? q.where('t.contract_id', '=', f.contractId) : q.where('t.root', '=', f.root);
  if (f.from !== null) q = q.where('t.ts', '>=', f.from);
  if (f.to !== null) q = q.where('t.ts', '<', f.to);
  if (f.minSize !== undefined) q = q.where('t.size', '>=', f.minSize);
  if (f.maxSize !== undefined) q = q.where('t.size', '<=', f.maxSize);
  if (f.aggressorSide === 'none') q = q.where('t.aggressor_side', 'is', null);
  else if (f.aggressorSide !== undefined) q = q.where('t.aggressor_side', '=', f.aggressorSide);
  if (f.minNotional !== undefined) q = q.where(sql<boolean>`t.price * t.size * c.multiplier >= ${f.minNotional}::float8`);
  if (f.maxNotional !== undefined) q = q.where(sql<boolean>`t.price * t.size * c.multiplier <= ${f.maxNotional}::float8`);
  if (after !== null) {
    // A contract's key is (ts, sequence, match): its index's own row comparison.
    const op = sql.raw(newestFirst ? '<' : '>');
    q = q.where(
      f.contractId !== null
        ? sql<boolean>`(t.ts, t.sequence, t.match) ${op} (${after.ts}::int8, ${after.sequence}::int8, ${after.match}::int4)`
        : sql<boolean>`(t.ts, t.sequence, t.match, t.contract_id) ${op} (${after.ts}::int8, ${after.sequence}::int8, ${after.match}::int4, ${after.contractId}::int8)`,
    );
  }
  q = q.orderBy('t.ts', direction).orderBy('t.sequence', direction).orderBy('t.match', direction);
  if (f.contractId === null) q = q.orderBy('t.contract_id', direction);
  return limit === null ? q : q.limit(limit);
}

type PageRow = Awaited<ReturnType<ReturnType<typeof futuresTradePageStatement>['execute']>>[number];

/** A row of futuresTradePageStatement as a trade of its contract. */
export function tradeOfContractRow(r: PageRow): FuturesTradeOfContract {
  return {
    symbol: r.symbol,
    contractMonth: r.contract_month,
    multiplier: r.multiplier,
    tradeDate: r.trade_date,
    contractId: r.contract_id,
    sequence: r.sequence,
    match: r.match,
    root: r.root,
    ts: r.ts,
    price: r.price,
    size: r.size,
    aggressorSide: r.aggressor_side,
  };
}

/** Up to `limit` trades of the filter after `after` (see futuresTradePageStatement). */
export async function futuresTradePage(
  db: Queryable,
  f: FuturesTradeFilter,
  after: FuturesTradeKey | null,
  limit: number,
  newestFirst: boolean,
): Promise<FuturesTradeOfContract[]> {
  const rows = await futuresTradePageStatement(db, f, after, limit, newestFirst).execute();
  return rows.map(tradeOfContractRow);
}

/** The stored contract of a root and contract month (YYYY-MM); null when none is defined. */
export async function storedFuturesContract(
  db: Queryable,
  root: string,
  contractMonth: string,
): Promise<{ id: number; symbol: string; multiplier: number } | null> {
  const row = await db
    .selectFrom('futures_contracts')
    .select(['id', 'symbol', 'multiplier'])
    .where('root', '=', root)
    .where('contract_month', '=', contractMonth)
    .orderBy('id')
    .executeTakeFirst();
  return row ?? null;
}
