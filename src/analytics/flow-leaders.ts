/**
 * Flow leaders: underlyings (root grain) ranked by net (bullish minus bearish premium), bullish or
 * bearish premium, total premium, volume or prints, with their shares of the market; or contracts
 * (contract grain) ranked by change from the previous close, premium or volume. Ties break by
 * symbol (then expiry, type and strike) so a ranking is stable. A minimum premium keeps the rows
 * whose own premium reaches it (an underlying's or a contract's session total), not the prints
 * that reach it; shares stay shares of the whole market. A contract without a previous close or
 * open interest is ranked with those fields null (a missing value is null, never 0), and with no
 * change from the previous close it ranks after every contract that has one, in either order.
 */
import type { components, operations } from '../../generated/openapi.js';

type LeadersQuery = NonNullable<operations['listFlowLeaders']['parameters']['query']>;
/** What is ranked: underlyings or contracts (the leaders route's `grain`). */
export type LeaderGrain = NonNullable<LeadersQuery['grain']>;
/** A ranking key (the leaders route's `sort`). */
export type LeaderSort = NonNullable<LeadersQuery['sort']>;
/** Direction of a ranking (the leaders route's `order`). */
export type LeaderOrder = NonNullable<LeadersQuery['order']>;

// The sorts each grain accepts, and each grain's default sort, are rules of the contract
// (x-parameter-rules of listFlowLeaders), applied before a ranking is asked for.

/** Totals of one underlying over the session's prints. */
export interface UnderlyingFlow {
  underlying: string;
  premium: number;
  volume: number;
  bullish: number;
  bearish: number;
  neutral: number;
  callVolume: number;
  putVolume: number;
  trades: number;
}

export type RootLeaderRow = components['schemas']['RootLeaderRow'];

/** One contract's session: premium, volume and its last print, next to the previous session's last price. */
export interface ContractFlow {
  root: string;
  contractType: components['schemas']['ContractType'];
  dateOfExpiry: string;
  strike: number;
  premium: number;
  volume: number;
  lastPrice: number;
  impliedVolatility: number | null;
  openInterest: number | null;
  previousClose: number | null;
}

export type ContractLeaderRow = components['schemas']['ContractLeaderRow'];

const share = (part: number, whole: number): number => (whole > 0 ? Math.min(1, part / whole) : 0);

function rootKey(r: RootLeaderRow, sort: LeaderSort): number {
  switch (sort) {
    case 'net':
      return r.bullish_premium - r.bearish_premium;
    case 'bullish':
      return r.bullish_premium;
    case 'bearish':
      return r.bearish_premium;
    case 'volume':
      return r.volume;
    case 'trades':
      return r.trades;
    case 'premium':
    case 'change_percent':
      return r.premium;
  }
}

/** How a ranking is asked for: key, direction, rows, and the least premium a row must have. */
export interface RankingOptions {
  sort: LeaderSort;
  order: LeaderOrder;
  limit: number;
  /** A row's premium (its session total) must reach this, USD; absent for every row. */
  minPremium?: number;
}

const reachesMinimum = (premium: number, minPremium: number | undefined): boolean => minPremium === undefined || premium >= minPremium;

/**
 * Root-grain rows whose premium reaches the minimum, ranked; shares are of the market given (every
 * underlying's totals, those below the minimum included).
 */
export function rankRoots(flows: readonly UnderlyingFlow[], { sort, order, limit, minPremium }: RankingOptions): RootLeaderRow[] {
  const total = { premium: 0, volume: 0, trades: 0 };
  for (const f of flows) {
    total.premium += f.premium;
    total.volume += f.volume;
    total.trades += f.trades;
  }
  const rows = flows
    .filter((f) => reachesMinimum(f.premium, minPremium))
    .map((f): RootLeaderRow => ({
      underlying_symbol: f.underlying,
      premium: f.premium,
      volume: f.volume,
      bearish_premium: f.bearish,
      bullish_premium: f.bullish,
      neutral_premium: f.neutral,
      bearish_to_bullish_ratio: f.bullish > 0 ? f.bearish / f.bullish : null,
      call_volume: f.callVolume,
      put_volume: f.putVolume,
      premium_share: share(f.premium, total.premium),
      trades: f.trades,
      trades_share: share(f.trades, total.trades),
      volume_share: share(f.volume, total.volume),
    }));
  const sign = order === 'desc' ? -1 : 1;
  return rows
    .sort((a, b) => sign * (rootKey(a, sort) - rootKey(b, sort)) || a.underlying_symbol.localeCompare(b.underlying_symbol))
    .slice(0, limit);
}

/** Percent change of the last price from the previous close; null without a positive previous close. */
export function changePercent(last: number, previousClose: number | null): number | null {
  return previousClose !== null && previousClose > 0 ? ((last - previousClose) / previousClose) * 100 : null;
}

function contractKey(r: ContractLeaderRow, sort: LeaderSort): number | null {
  if (sort === 'premium') return r.premium;
  if (sort === 'volume') return r.volume;
  return r.change_percent;
}

/** Compares two ranking keys in the given direction; a missing key comes after every present one. */
function compareKeys(a: number | null, b: number | null, sign: number): number {
  if (a === null || b === null) return (a === null ? 1 : 0) - (b === null ? 1 : 0);
  return sign * (a - b);
}

/**
 * Contract-grain rows whose premium reaches the minimum, ranked; a contract without a previous
 * close has a null change_percent and previous_close, one without open interest a null open_interest.
 */
export function rankContracts(flows: readonly ContractFlow[], { sort, order, limit, minPremium }: RankingOptions): ContractLeaderRow[] {
  const rows = flows
    .filter((f) => reachesMinimum(f.premium, minPremium))
    .map((f): ContractLeaderRow => ({
      underlying_symbol: f.root,
      premium: f.premium,
      volume: f.volume,
      change_percent: changePercent(f.lastPrice, f.previousClose),
      contract_type: f.contractType,
      date_of_expiry: f.dateOfExpiry,
      implied_volatility: f.impliedVolatility,
      last_price: f.lastPrice,
      open_interest: f.openInterest,
      previous_close: f.previousClose,
      strike: f.strike,
    }));
  const sign = order === 'desc' ? -1 : 1;
  return rows
    .sort(
      (a, b) =>
        compareKeys(contractKey(a, sort), contractKey(b, sort), sign) ||
        a.underlying_symbol.localeCompare(b.underlying_symbol) ||
        a.date_of_expiry.localeCompare(b.date_of_expiry) ||
        a.contract_type.localeCompare(b.contract_type) ||
        a.strike - b.strike,
    )
    .slice(0, limit);
}
