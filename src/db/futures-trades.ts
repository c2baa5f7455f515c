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
