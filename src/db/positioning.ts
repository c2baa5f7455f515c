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

export interface ActivityRow {
  contractId: number;
  volume: number;
  premium: number;
  /** Ask-side premium minus bid-side premium. */
  netPremium: number;
  trades: number;
}

/** What a book reads of the roots' prints (bookPrints). */
export interface BookPrints {
  /** Sizes by contract, side and complexity over the flow's dates, before `until`. */
  flows: SideFlowRow[];
  /** Per contract with prints, the trading date's activity in the sessions given. */
  activity: ActivityRow[];
}

/**
 * The prints a valued book reads, in one scan of the roots' prints (cancelled ones left out), by
 * the (root, ts) index that carries the columns read (migration 20261128T060000):
 * - flows: sizes by contract, side and complexity over trading dates `flow.from` through
 *   `tradingDate` with a time before `until` (a print at the valuation time itself belongs to the
 *   minute after it). Complex is a multi-leg print (trade_type multileg or flag complex, as the
 *   feeds' include_complex reads it);
 * - activity: per contract, the trading date's prints of the sessions given (print-filters.ts
 *   SESSIONS_OF), before `until` unless `activity.whole` (a session read after its close): contracts,
 *   premium (USD), ask-side minus bid-side premium and prints, complex ones in. Premiums are summed
 *   as numeric, exactly, as the flow totals of the leaders are (migration 20261126T010000), so
 *   that a sum is the same whatever the order the prints are read in.
 */
export async function bookPrints(
  db: Queryable,
  roots: readonly string[],
  tradingDate: string,
  until: number,
  flow: { from: string },
  activity: { sessions: readonly string[]; whole: boolean },
  sides: { ask: readonly string[]; bid: readonly string[] },
): Promise<BookPrints> {
  if (roots.length === 0) return { flows: [], activity: [] };
  const sessions = [...activity.sessions];
  const inActivity = sql`(trading_date = ${tradingDate}::date and session = any(${sessions}::text[]))`;
  const result = await sql<{
    contract_id: string;
    side: string | null;
    complex: boolean | null;
    whole: number;
    size: string | null;
    volume: string | null;
    premium: number | null;
    net_premium: number | null;
    trades: string;
  }>`
    select contract_id, side, complex, grouping(side, complex) as whole,
      sum(size) filter (where flow)::int8 as size,
      sum(size) filter (where active)::int8 as volume,
      sum(premium::numeric) filter (where active)::float8 as premium,
      coalesce(sum(case when side = any(${[...sides.ask]}::text[]) then premium::numeric
        when side = any(${[...sides.bid]}::text[]) then -premium::numeric else 0 end) filter (where active), 0)::float8 as net_premium,
      count(*) filter (where active)::int8 as trades
    from (
      select contract_id, side, (trade_type = 'multileg' or 'complex' = any(flags)) as complex, size, premium,
        ts < ${until}::int8 as flow,
        ${inActivity} and (${activity.whole} or ts < ${until}::int8) as active
      from prints
      where trading_date >= ${flow.from}::date and trading_date <= ${tradingDate}::date and not cancelled
        and root = any(${[...roots]}::text[])
        and (ts < ${until}::int8 or (${activity.whole} and ${inActivity}))
    ) p
    group by grouping sets ((contract_id, side, complex), (contract_id))`.execute(db);
  const flows: SideFlowRow[] = [];
  const active: ActivityRow[] = [];
  for (const r of result.rows) {
    if (Number(r.whole) === 0) {
      const size = Number(r.size ?? 0);
      if (size !== 0) flows.push({ contractId: Number(r.contract_id), side: r.side as string, complex: r.complex as boolean, size });
    } else if (Number(r.trades) > 0) {
      active.push({
        contractId: Number(r.contract_id),
        volume: Number(r.volume),
        premium: r.premium as number,
        netPremium: r.net_premium as number,
        trades: Number(r.trades),
      });
    }
  }
  return { flows, activity: active };
}
