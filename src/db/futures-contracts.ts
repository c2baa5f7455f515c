/**
 * Futures contract definitions (futures_contracts, migration 20261128T150000): written by the
 * definitions loads, read to resolve the symbol a trade, bar or statistic names to its contract.
 */
import { sql } from 'kysely';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';
import { recordMarketDataChange } from './market-data-changes.js';

export interface FuturesContractRow {
  symbol: string;
  root: string;
  /** YYYY-MM. */
  contractMonth: string;
  /** Last trading instant, Unix ms. */
  expiration: number;
  tickSize: number;
  multiplier: number;
  currency: string;
  instrumentId: number | null;
}

export interface StoredFuturesContract extends FuturesContractRow {
  id: number;
}

/**
 * Writes definitions, each replacing the stored one of its symbol and month (a definition is
 * republished when it changes). Returns the rows written. A change of every date in the log: any
 * date may read the contracts.
 */
export async function upsertFuturesContracts(db: Queryable, rows: readonly FuturesContractRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 10_000) {
    const c = rows.slice(start, start + 10_000);
    const result = await sql`
      insert into futures_contracts (symbol, root, contract_month, expiration, tick_size, multiplier, currency, instrument_id)
      select * from unnest(${textArrayLiteral(c.map((r) => r.symbol))}::text[], ${textArrayLiteral(c.map((r) => r.root))}::text[],
        ${textArrayLiteral(c.map((r) => r.contractMonth))}::text[], ${numberArrayLiteral(c.map((r) => r.expiration))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.tickSize))}::float8[], ${numberArrayLiteral(c.map((r) => r.multiplier))}::float8[],
        ${textArrayLiteral(c.map((r) => r.currency))}::text[], ${numberArrayLiteral(c.map((r) => r.instrumentId))}::int8[])
      on conflict (symbol, contract_month) do update set root = excluded.root, expiration = excluded.expiration,
        tick_size = excluded.tick_size, multiplier = excluded.multiplier, currency = excluded.currency,
        instrument_id = coalesce(excluded.instrument_id, futures_contracts.instrument_id)`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) await recordMarketDataChange(db, [null]);
  return written;
}

/** The stored contracts of some symbols, each symbol's by expiration ascending. */
export async function futuresContractsOf(db: Queryable, symbols: Iterable<string>): Promise<Map<string, StoredFuturesContract[]>> {
  const list = [...new Set(symbols)];
  const out = new Map<string, StoredFuturesContract[]>();
  if (list.length === 0) return out;
  const rows = await db
    .selectFrom('futures_contracts')
    .selectAll()
    .where('symbol', '=', sql<string>`any(${textArrayLiteral(list)}::text[])`)
    .orderBy('symbol')
    .orderBy('expiration')
    .execute();
  for (const r of rows) {
    const contract: StoredFuturesContract = {
      id: r.id,
      symbol: r.symbol,
      root: r.root,
      contractMonth: r.contract_month,
      expiration: r.expiration,
      tickSize: r.tick_size,
      multiplier: r.multiplier,
      currency: r.currency,
      instrumentId: r.instrument_id,
    };
    const same = out.get(r.symbol);
    if (same === undefined) out.set(r.symbol, [contract]);
    else same.push(contract);
  }
  return out;
}

/** How long after its expiration a record may still name a contract (a final settlement, late statistics). */
export const AFTER_EXPIRATION_MS = 31 * 86_400_000;

/**
 * The contract a record of `instant` means among a symbol's (by expiration ascending): the first
 * whose expiration is no more than 31 days before the instant. A symbol's contracts are ten years
 * apart, so this is the one listed then. Null when there is none.
 */
export function contractAt<T extends { expiration: number }>(candidates: readonly T[] | undefined, instant: number): T | null {
  for (const c of candidates ?? []) if (c.expiration >= instant - AFTER_EXPIRATION_MS) return c;
  return null;
}

/** A root's contracts by expiration (the routes' listing; the tests' read back). */
export async function futuresContractsOfRoot(db: Queryable, root: string): Promise<StoredFuturesContract[]> {
  const rows = await db.selectFrom('futures_contracts').selectAll().where('root', '=', root).orderBy('expiration').execute();
  return rows.map((r) => ({
    id: r.id,
    symbol: r.symbol,
    root: r.root,
    contractMonth: r.contract_month,
    expiration: r.expiration,
    tickSize: r.tick_size,
    multiplier: r.multiplier,
    currency: r.currency,
    instrumentId: r.instrument_id,
  }));
}
