/** Reference data of the CME equity-index futures: the products and the contracts listed at a date. */
import { globexTradeDateAt } from '../analytics/futures/globex-calendar.js';
import { contractBySymbol, contractsAt } from '../analytics/futures/contracts.js';
import { FUTURES_PRODUCTS } from '../analytics/futures/products.js';
import { newYorkDate } from '../analytics/new-york-time.js';
import { invalidParameters } from '../errors.js';
import type { QueryOf, Result, ServiceContext } from './types.js';

/** How many expired contracts per root `include_expired` adds: two years of quarters. */
const EXPIRED_CONTRACTS = 8;

export async function listFuturesProducts(
  _ctx: ServiceContext,
  query: QueryOf<'listFuturesProducts'>,
): Promise<Result<'listFuturesProducts'>> {
  const products = FUTURES_PRODUCTS.filter((p) => query.root === undefined || p.root === query.root);
  return {
    data: products.map((p) => ({ ...p, listing_cycle: { ...p.listing_cycle, months: [...p.listing_cycle.months] } })),
    source: 'derived',
  };
}

/** The current CME trade date: that of the present instant (after the 17:00 ET close, the next one). */
export function currentTradeDate(now: number): string {
  return globexTradeDateAt(now)?.trade_date ?? newYorkDate(now);
}

export async function listFuturesContracts(
  { now }: ServiceContext,
  query: QueryOf<'listFuturesContracts'>,
): Promise<Result<'listFuturesContracts'>> {
  const asOf = query.as_of ?? currentTradeDate(now);
  if (query.symbol !== undefined) {
    // The contract's pattern is the parser's: a symbol that passed validation parses.
    const contract = contractBySymbol(query.symbol, asOf);
    if (!contract) throw invalidParameters([{ parameter: 'symbol', message: 'not a quarterly contract of ES, NQ, RTY, MES, MNQ or M2K' }]);
    return { data: [contract], source: 'derived' };
  }
  const expired = query.include_expired === true ? EXPIRED_CONTRACTS : 0;
  const roots = FUTURES_PRODUCTS.map((p) => p.root).filter((root) => query.root === undefined || root === query.root);
  return { data: roots.flatMap((root) => contractsAt(root, asOf, expired)), source: 'derived' };
}
