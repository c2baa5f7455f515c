/**
 * Daily statistics of futures contracts (futures_statistics, migration 20261128T150000): one row
 * per contract and trade date holding the settlement price with its status, open interest and
 * cleared volume, each written by the loads that carry it.
 */
import { sql } from 'kysely';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';
import { recordMarketDataChange } from './market-data-changes.js';

export interface FuturesStatisticRow {
  contractId: number;
  tradeDate: string;
  root: string;
  settlement: { price: number; final: boolean; ts: number | null } | null;
  openInterest: number | null;
  clearedVolume: number | null;
}

/**
 * Writes statistics, one row per (contract, trade date) at most in `rows`. A figure the row does not
 * carry (null) leaves the stored one. A settlement replaces the stored one only by the rule of
 * ingest/futures-canonical.ts settlementReplaces(): a final one replaces a preliminary one, one of
 * the same status replaces it when published no earlier (an unknown time counts as no earlier), a
 * preliminary one never replaces a final one. Returns the rows written (inserted or updated).
 */
export async function upsertFuturesStatistics(db: Queryable, rows: readonly FuturesStatisticRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 10_000) {
    const c = rows.slice(start, start + 10_000);
    const result = await sql`
      insert into futures_statistics as s (contract_id, trade_date, root, settlement_price, settlement_final, settlement_ts, open_interest, cleared_volume)
      select * from unnest(${numberArrayLiteral(c.map((r) => r.contractId))}::int8[], ${textArrayLiteral(c.map((r) => r.tradeDate))}::date[],
        ${textArrayLiteral(c.map((r) => r.root))}::text[], ${numberArrayLiteral(c.map((r) => r.settlement?.price ?? null))}::float8[],
        ${`{${c.map((r) => (r.settlement === null ? 'NULL' : String(r.settlement.final))).join(',')}}`}::boolean[],
        ${numberArrayLiteral(c.map((r) => r.settlement?.ts ?? null))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.openInterest))}::int8[], ${numberArrayLiteral(c.map((r) => r.clearedVolume))}::int8[])
      on conflict (contract_id, trade_date) do update set
        settlement_price = case when ${replaces} then excluded.settlement_price else s.settlement_price end,
        settlement_final = case when ${replaces} then excluded.settlement_final else s.settlement_final end,
        settlement_ts = case when ${replaces} then excluded.settlement_ts else s.settlement_ts end,
        open_interest = coalesce(excluded.open_interest, s.open_interest),
        cleared_volume = coalesce(excluded.cleared_volume, s.cleared_volume)`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) await recordMarketDataChange(db, new Set(rows.map((r) => r.tradeDate)));
  return written;
}

/** settlementReplaces() of the incoming row (excluded) over the stored one (s). */
const replaces = sql`(excluded.settlement_price is not null and (s.settlement_price is null
  or (excluded.settlement_final and not s.settlement_final)
  or (excluded.settlement_final = s.settlement_final
      and (excluded.settlement_ts is null or s.settlement_ts is null or excluded.settlement_ts >= s.settlement_ts))))`;

/** The stored settlements of the rows' contracts and dates, keyed `contractId|date`. */
export async function storedSettlements(
  db: Queryable,
  rows: readonly { contractId: number; tradeDate: string }[],
): Promise<Map<string, { final: boolean; ts: number | null }>> {
  const out = new Map<string, { final: boolean; ts: number | null }>();
  if (rows.length === 0) return out;
  const stored = await db
    .selectFrom('futures_statistics')
    .select(['contract_id', 'trade_date', 'settlement_final', 'settlement_ts'])
    .where('contract_id', 'in', [...new Set(rows.map((r) => r.contractId))])
    .where('trade_date', 'in', [...new Set(rows.map((r) => r.tradeDate))])
    .where('settlement_final', 'is not', null)
    .execute();
  for (const s of stored) out.set(`${s.contract_id}|${s.trade_date}`, { final: s.settlement_final === true, ts: s.settlement_ts });
  return out;
}

export interface StoredFuturesStatistic {
  contractId: number;
  symbol: string;
  tradeDate: string;
  root: string;
  settlementPrice: number | null;
  settlementFinal: boolean | null;
  settlementTs: number | null;
  openInterest: number | null;
  clearedVolume: number | null;
}

/** A root's statistics of one trade date, by contract expiration. */
export async function futuresStatisticsOfRoot(db: Queryable, root: string, tradeDate: string): Promise<StoredFuturesStatistic[]> {
  const rows = await db
    .selectFrom('futures_statistics as s')
    .innerJoin('futures_contracts as c', 'c.id', 's.contract_id')
    .select([
      's.contract_id',
      'c.symbol',
      's.trade_date',
      's.root',
      's.settlement_price',
      's.settlement_final',
      's.settlement_ts',
      's.open_interest',
      's.cleared_volume',
    ])
    .where('s.root', '=', root)
    .where('s.trade_date', '=', tradeDate)
    .orderBy('c.expiration')
    .execute();
  return rows.map((r) => ({
    contractId: r.contract_id,
    symbol: r.symbol,
    tradeDate: r.trade_date,
    root: r.root,
    settlementPrice: r.settlement_price,
    settlementFinal: r.settlement_final,
    settlementTs: r.settlement_ts,
    openInterest: r.open_interest,
    clearedVolume: r.cleared_volume,
  }));
}
