/**
 * The listed option contracts (GET /v1/options/contracts): the contracts expiring on or after the
 * `as_of` date that pass the filters, a page at a time in key order (root, expiration, type, strike).
 * The store keeps no listing date, so "listed on a date" is "not expired by it".
 */
import { currentOrLastSessionDate } from '../analytics/calendar.js';
import { expandUnderlying } from '../analytics/roots.js';
import type { ContractListingFilter, ContractListingPosition, ContractListingRow } from '../db/contract-listings.js';
import { noData } from '../errors.js';
import { openPaging, takePage } from './paging.js';
import type { DataOf, QueryOf, Result, ServiceContext } from './types.js';

type Query = QueryOf<'listOptionContracts'>;

/** The roots the query names: the underlying's, the exact root, both (their common roots) or every root (null). */
function rootsOf(q: Query): string[] | null {
  const family = q.underlying_symbol === undefined ? null : expandUnderlying(q.underlying_symbol);
  const root = q.root?.toUpperCase();
  if (root === undefined) return family;
  return family === null || family.includes(root) ? [root] : [];
}

/** Strike bounds in dollars as inclusive bounds in thousandths (a listed strike is a whole thousandth). */
const atLeastThousandths = (dollars: number): number => Math.ceil(dollars * 1000 - 1e-6);
const atMostThousandths = (dollars: number): number => Math.floor(dollars * 1000 + 1e-6);

const later = (a: string, b: string | undefined): string => (b !== undefined && b > a ? b : a);

export function contractListingFilter(q: Query, asOf: string): ContractListingFilter {
  return {
    roots: rootsOf(q),
    contractType: q.contract_type,
    expiryFrom: later(asOf, q.date_of_expiry ?? q.min_date_of_expiry),
    expiryTo: q.date_of_expiry ?? q.max_date_of_expiry,
    strikeFrom: q.min_strike === undefined ? undefined : atLeastThousandths(q.min_strike),
    strikeTo: q.max_strike === undefined ? undefined : atMostThousandths(q.max_strike),
  };
}

function contractOf(r: ContractListingRow): DataOf<'listOptionContracts'>[number] {
  return {
    option_symbol: r.optionSymbol,
    root: r.root,
    underlying_symbol: r.underlying,
    contract_type: r.contractType,
    date_of_expiry: r.dateOfExpiry,
    strike: r.strikeThousandths / 1000,
    multiplier: r.multiplier,
    exercise_style: r.kind === 'index' ? 'european' : 'american',
    settlement: r.amSettled === true ? 'am' : 'pm',
  };
}

export async function listOptionContracts(ctx: ServiceContext, q: Query): Promise<Result<'listOptionContracts'>> {
  const paging = openPaging<ContractListingPosition>(ctx, q);
  const asOf = q.as_of ?? currentOrLastSessionDate(ctx.now);
  const rows = await ctx.deps.repositories.references.contractListings(contractListingFilter(q, asOf), paging.after, paging.limit + 1);
  if (rows.length === 0 && paging.after === null) throw noData(`No option contract listed on ${asOf} matches the request.`);
  const { page, next } = takePage(rows, paging.limit, (r): ContractListingPosition => ({
    r: r.root,
    d: r.dateOfExpiry,
    t: r.contractType,
    k: r.strikeThousandths,
  }));
  return { data: page.map(contractOf), source: 'opra', pagination: paging.pagination(page.length, next) };
}
