/**
 * What the positioning routes read besides the chain (db/chain.ts): the listed contracts of some
 * expirations with their open interest, the customer flow of classified prints since the open
 * interest date (flow_adjusted), and a session's activity per contract (the heat map's volume,
 * premium, net_premium and trades).
 *
 * Open interest is looked up per contract through its primary key (contract_id, date): the newest
 * figure on or before the trading date within OPEN_INTEREST_LOOKBACK_DAYS, so a contract costs one
 * index descent whatever the number of dates held.
 */
import { sql } from 'kysely';
import type { ContractType } from './schema.js';
import type { Queryable } from './connection.js';
import type { ListedExpirationRow } from './chain.js';

/** How far back the newest open interest is looked for (a long weekend, a late publication). */
export const OPEN_INTEREST_LOOKBACK_DAYS = 10;

export interface ListedContractRow {
  contractId: number;
  root: string;
  underlying: string;
  dateOfExpiry: string;
  contractType: ContractType;
  strikeThousandths: number;
  multiplier: number;
  /** Date of the newest open interest row on or before the trading date; null without one. */
  openInterestDate: string | null;
  openInterest: number | null;
}

/** Every contract of the expirations (root and date pairs) with its newest open interest up to the trading date. */
export async function listedContracts(
  db: Queryable,
  expirations: readonly ListedExpirationRow[],
  tradingDate: string,
): Promise<ListedContractRow[]> {
  if (expirations.length === 0) return [];
  const result = await sql<{
    contract_id: string;
    root: string;
    underlying: string;
    date_of_expiry: string;
    contract_type: ContractType;
    strike_thousandths: string;
    multiplier: number;
    oi_date: string | null;
    open_interest: string | null;
  }>`
    select c.id as contract_id, c.root, c.underlying, c.date_of_expiry::text as date_of_expiry, c.contract_type, c.strike_thousandths, c.multiplier,
      o.date::text as oi_date, o.open_interest
    from unnest(${expirations.map((e) => e.root)}::text[], ${expirations.map((e) => e.dateOfExpiry)}::date[]) as e(root, d)
    join contracts c on c.root = e.root and c.date_of_expiry = e.d
    left join lateral (
      select oi.date, oi.open_interest from open_interest oi
      where oi.contract_id = c.id and oi.date <= ${tradingDate}::date and oi.date >= ${tradingDate}::date - ${OPEN_INTEREST_LOOKBACK_DAYS}::int4
      order by oi.date desc limit 1
    ) o on true
    order by c.date_of_expiry, c.root, c.contract_type, c.strike_thousandths`.execute(db);
  return result.rows.map((r) => ({
    contractId: Number(r.contract_id),
    root: r.root,
    underlying: r.underlying,
    dateOfExpiry: r.date_of_expiry,
    contractType: r.contract_type,
    strikeThousandths: Number(r.strike_thousandths),
    multiplier: r.multiplier,
    openInterestDate: r.oi_date,
    openInterest: r.open_interest === null ? null : Number(r.open_interest),
  }));
}

/** Contracts of one contract's prints on one side, complex (multi-leg) or not. */
export interface SideFlowRow {
  contractId: number;
  side: string;
  complex: boolean;
  size: number;
}

/**
 * Sizes of the roots' prints by contract, side and complexity, over trading dates from `fromDate`
 * through `toDate` with a time before `until` (a print at the valuation time itself belongs to the
 * minute after it); cancelled prints left out. Complex is a
 * multi-leg print (trade_type multileg or flag complex, as the feeds' include_complex reads it).
 */
export async function flowBySide(
  db: Queryable,
  roots: readonly string[],
  fromDate: string,
  toDate: string,
  until: number,
): Promise<SideFlowRow[]> {
  if (roots.length === 0) return [];
  const result = await sql<{ contract_id: string; side: string; complex: boolean; size: string }>`
    select contract_id, side, (trade_type = 'multileg' or 'complex' = any(flags)) as complex, sum(size)::int8 as size
    from prints
    where trading_date >= ${fromDate}::date and trading_date <= ${toDate}::date and not cancelled
      and root = any(${[...roots]}::text[]) and ts < ${until}::int8
    group by 1, 2, 3`.execute(db);
  return result.rows.map((r) => ({ contractId: Number(r.contract_id), side: r.side, complex: r.complex, size: Number(r.size) }));
}

export interface ActivityRow {
  contractId: number;
  volume: number;
  premium: number;
  /** Ask-side premium minus bid-side premium. */
  netPremium: number;
  trades: number;
}

/**
 * Per contract of the roots, the trading date's prints of the sessions given (print-filters.ts
 * SESSIONS_OF of the session asked), before `until` when given: contracts, premium (USD), ask-side
 * minus bid-side premium, and prints; cancelled prints left out, complex ones in.
 */
export async function activityByContract(
  db: Queryable,
  roots: readonly string[],
  tradingDate: string,
  window: { sessions: readonly string[]; until: number | null },
  sides: { ask: readonly string[]; bid: readonly string[] },
): Promise<ActivityRow[]> {
  if (roots.length === 0 || window.sessions.length === 0) return [];
  const until = window.until === null ? sql`` : sql`and ts < ${window.until}::int8`;
  const result = await sql<{ contract_id: string; volume: string; premium: number; net_premium: number; trades: string }>`
    select contract_id, sum(size)::int8 as volume, sum(premium)::float8 as premium,
      coalesce(sum(case when side = any(${[...sides.ask]}::text[]) then premium when side = any(${[...sides.bid]}::text[]) then -premium else 0 end), 0)::float8 as net_premium,
      count(*)::int8 as trades
    from prints
    where trading_date = ${tradingDate}::date and not cancelled and root = any(${[...roots]}::text[])
      and session = any(${[...window.sessions]}::text[]) ${until}
    group by 1`.execute(db);
  return result.rows.map((r) => ({
    contractId: Number(r.contract_id),
    volume: Number(r.volume),
    premium: r.premium,
    netPremium: r.net_premium,
    trades: Number(r.trades),
  }));
}
