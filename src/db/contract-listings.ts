/**
 * The listed contracts of the reference route (GET /v1/options/contracts): a page of the contracts
 * table with each root's facts, ordered by the unique key of contracts_chain_idx (root, expiration,
 * type, strike thousandths). That key is the position a cursor holds, so a page continues exactly
 * after the last row served, and a walk over one root reads the index in order.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';
import type { ContractType } from './schema.js';

export interface ContractListingRow {
  optionSymbol: string;
  root: string;
  underlying: string;
  dateOfExpiry: string;
  contractType: ContractType;
  strikeThousandths: number;
  multiplier: number;
  /** The root's product kind; null when the root is not in option_roots. */
  kind: 'index' | 'etf' | 'equity' | null;
  amSettled: boolean | null;
}

/** Root, expiration, type and strike (thousandths) of the last row served. */
export interface ContractListingPosition {
  r: string;
  d: string;
  t: ContractType;
  k: number;
}

export interface ContractListingFilter {
  /** Only these roots; null for every root. */
  roots: readonly string[] | null;
  contractType?: ContractType;
  /** Expiration bounds, inclusive (YYYY-MM-DD). */
  expiryFrom?: string;
  expiryTo?: string;
  /** Strike bounds in thousandths, inclusive. */
  strikeFrom?: number;
  strikeTo?: number;
}

/** Up to `limit` contracts of the filter strictly after `after`, in key order. */
export async function contractListings(
  db: Queryable,
  filter: ContractListingFilter,
  after: ContractListingPosition | null,
  limit: number,
): Promise<ContractListingRow[]> {
  if (filter.roots !== null && filter.roots.length === 0) return [];
  let query = db
    .selectFrom('contracts as c')
    .leftJoin('option_roots as r', 'r.root', 'c.root')
    .select([
      'c.option_symbol',
      'c.root',
      'c.underlying',
      sql<string>`c.date_of_expiry::text`.as('date_of_expiry'),
      'c.contract_type',
      sql<string>`c.strike_thousandths::text`.as('strike_thousandths'),
      'c.multiplier',
      'r.kind',
      'r.am_settled',
    ])
    .orderBy('c.root')
    .orderBy('c.date_of_expiry')
    .orderBy('c.contract_type')
    .orderBy('c.strike_thousandths')
    .limit(limit);
  if (filter.roots !== null) query = query.where('c.root', '=', sql<string>`any(${[...filter.roots]}::text[])`);
  if (filter.contractType) query = query.where('c.contract_type', '=', filter.contractType);
  if (filter.expiryFrom) query = query.where('c.date_of_expiry', '>=', filter.expiryFrom);
  if (filter.expiryTo) query = query.where('c.date_of_expiry', '<=', filter.expiryTo);
  if (filter.strikeFrom !== undefined) query = query.where('c.strike_thousandths', '>=', filter.strikeFrom);
  if (filter.strikeTo !== undefined) query = query.where('c.strike_thousandths', '<=', filter.strikeTo);
  if (after) {
    query = query.where(
      sql<boolean>`(c.root, c.date_of_expiry, c.contract_type, c.strike_thousandths) > (${after.r}, ${after.d}::date, ${after.t}, ${after.k}::int8)`,
    );
  }
  const rows = await query.execute();
  return rows.map((r) => ({
    optionSymbol: r.option_symbol,
    root: r.root,
    underlying: r.underlying,
    dateOfExpiry: r.date_of_expiry,
    contractType: r.contract_type,
    strikeThousandths: Number(r.strike_thousandths),
    multiplier: r.multiplier,
    kind: r.kind,
    amSettled: r.am_settled,
  }));
}
