/**
 * The settlements route's reads (GET /v1/futures/settlements; services/futures-settlements.ts):
 * a root's daily statistics (futures_statistics) over trade dates, each row beside the same
 * contract's row of its previous trade date. Which date is a trade date's previous one is the
 * Globex calendar's (analytics/futures/globex-calendar.ts), so the caller gives each date with its
 * previous one; the read goes by futures_statistics_root_date_idx for the dates and by the primary
 * key (contract_id, trade_date) for each previous row.
 */
import { sql } from 'kysely';
import { textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';

export interface SettlementDates {
  /** Trade dates, ascending. */
  dates: readonly string[];
  /** Each date's previous trade date. */
  previous: readonly string[];
}

/** After this position: (trade date, contract expiration, contract id). */
export type SettlementPosition = [string, number, number];

export interface SettlementRow {
  tradeDate: string;
  contractId: number;
  root: string;
  contractMonth: string;
  expiration: number;
  settlementPrice: number | null;
  settlementFinal: boolean | null;
  settlementTs: number | null;
  openInterest: number | null;
  clearedVolume: number | null;
  previousTradeDate: string;
  previousSettlementPrice: number | null;
  previousSettlementFinal: boolean | null;
  previousOpenInterest: number | null;
}

/**
 * Up to `limit` statistics rows of a root (one contract month when given) on the dates, by trade
 * date, then contract expiration and id, after `after`.
 */
export async function settlementsPage(
  db: Queryable,
  root: string,
  contractMonth: string | null,
  dates: SettlementDates,
  after: SettlementPosition | null,
  limit: number,
): Promise<SettlementRow[]> {
  if (dates.dates.length === 0) return [];
  const month = contractMonth === null ? sql`` : sql`and c.contract_month = ${contractMonth}`;
  const from =
    after === null ? sql`` : sql`and (s.trade_date, c.expiration, c.id) > (${after[0]}::date, ${after[1]}::int8, ${after[2]}::int8)`;
  const result = await sql<{
    trade_date: string;
    contract_id: string;
    root: string;
    contract_month: string;
    expiration: string;
    settlement_price: number | null;
    settlement_final: boolean | null;
    settlement_ts: string | null;
    open_interest: string | null;
    cleared_volume: string | null;
    previous_date: string;
    previous_price: number | null;
    previous_final: boolean | null;
    previous_open_interest: string | null;
  }>`
    select s.trade_date::text as trade_date, c.id as contract_id, c.root, c.contract_month, c.expiration,
      s.settlement_price, s.settlement_final, s.settlement_ts, s.open_interest, s.cleared_volume,
      w.p::text as previous_date, p.settlement_price as previous_price, p.settlement_final as previous_final,
      p.open_interest as previous_open_interest
    from unnest(${textArrayLiteral(dates.dates)}::date[], ${textArrayLiteral(dates.previous)}::date[]) as w(d, p)
    join futures_statistics s on s.root = ${root} and s.trade_date = w.d
    join futures_contracts c on c.id = s.contract_id ${month}
    left join futures_statistics p on p.contract_id = s.contract_id and p.trade_date = w.p
    where true ${from}
    order by s.trade_date, c.expiration, c.id
    limit ${limit}`.execute(db);
  const num = (v: string | null): number | null => (v === null ? null : Number(v));
  return result.rows.map((r) => ({
    tradeDate: r.trade_date,
    contractId: Number(r.contract_id),
    root: r.root,
    contractMonth: r.contract_month,
    expiration: Number(r.expiration),
    settlementPrice: r.settlement_price,
    settlementFinal: r.settlement_final,
    settlementTs: num(r.settlement_ts),
    openInterest: num(r.open_interest),
    clearedVolume: num(r.cleared_volume),
    previousTradeDate: r.previous_date,
    previousSettlementPrice: r.previous_price,
    previousSettlementFinal: r.previous_final,
    previousOpenInterest: num(r.previous_open_interest),
  }));
}

/** The newest trade date at or before `onOrBefore` with a statistics row of the root; null when none. */
export async function newestStatisticsDate(db: Queryable, root: string, onOrBefore: string): Promise<string | null> {
  const row = await db
    .selectFrom('futures_statistics')
    .select(sql<string>`trade_date::text`.as('trade_date'))
    .where('root', '=', root)
    .where('trade_date', '<=', onOrBefore)
    .orderBy('trade_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.trade_date ?? null;
}
