/**
 * GET /v1/futures/settlements: CME's daily statistics of a root's contracts (or one contract) by
 * trade date, each beside the same contract's figures of its previous trade date (the Globex
 * calendar's), paged by (trade date, expiration, contract). The contract states the rules.
 */
import { previousGlobexTradeDate } from '../analytics/futures/globex-calendar.js';
import { contractBySymbol } from '../analytics/futures/contracts.js';
import { MONTH_CODES, type FuturesRoot } from '../analytics/futures/products.js';
import { addDays, daysBetween } from '../analytics/new-york-time.js';
import type { SettlementPosition, SettlementRow } from '../db/futures-settlements.js';
import { invalidParameters, noData } from '../errors.js';
import { currentTradeDate } from './futures-reference.js';
import { openPaging, takePage } from './paging.js';
import type { DataOf, QueryOf, Result, ServiceContext } from './types.js';

type Settlement = DataOf<'listFuturesSettlements'>[number];

/** The longest range of trade dates one query covers, inclusive of both ends. */
export const SETTLEMENT_RANGE_DAYS = 366;
/** The range read with end_date alone: the 30 days before it and the date. */
const SETTLEMENT_DEFAULT_DAYS = 30;

/** Canonical and Globex symbols of a root's contract month: ESZ26 and ESZ6. */
export function futuresSymbols(root: string, contractMonth: string): { symbol: string; globexSymbol: string } {
  const code = MONTH_CODES[Number(contractMonth.slice(5, 7)) - 1] ?? '?';
  return { symbol: `${root}${code}${contractMonth.slice(2, 4)}`, globexSymbol: `${root}${code}${contractMonth.slice(3, 4)}` };
}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
const status = (final: boolean | null): Settlement['settlement_status'] => (final === null ? null : final ? 'final' : 'preliminary');

export function settlementOf(r: SettlementRow): Settlement {
  const change =
    r.settlementPrice === null || r.previousSettlementPrice === null ? null : round6(r.settlementPrice - r.previousSettlementPrice);
  const { symbol, globexSymbol } = futuresSymbols(r.root, r.contractMonth);
  return {
    trade_date: r.tradeDate,
    symbol,
    globex_symbol: globexSymbol,
    root: r.root as FuturesRoot,
    contract_month: r.contractMonth,
    final_settlement_time: r.expiration,
    settlement_price: r.settlementPrice,
    settlement_status: status(r.settlementFinal),
    settlement_timestamp: r.settlementTs,
    previous_trade_date: r.previousTradeDate,
    previous_settlement_price: r.previousSettlementPrice,
    previous_settlement_status: status(r.previousSettlementFinal),
    change,
    change_percent:
      change === null || r.previousSettlementPrice === null || r.previousSettlementPrice === 0
        ? null
        : round6((100 * (r.settlementPrice! - r.previousSettlementPrice)) / r.previousSettlementPrice),
    open_interest: r.openInterest,
    previous_open_interest: r.previousOpenInterest,
    open_interest_change: r.openInterest === null || r.previousOpenInterest === null ? null : r.openInterest - r.previousOpenInterest,
    cleared_volume: r.clearedVolume,
  };
}

export async function listFuturesSettlements(
  ctx: ServiceContext,
  q: QueryOf<'listFuturesSettlements'>,
): Promise<Result<'listFuturesSettlements'>> {
  const { futuresBasis } = ctx.deps.repositories;
  const today = currentTradeDate(ctx.now);
  // end_date's default, the current trade date, is kept within the range's bounds after a given start_date.
  const last =
    q.date ??
    q.end_date ??
    (q.start_date === undefined ? today : [q.start_date, today, addDays(q.start_date, SETTLEMENT_RANGE_DAYS - 1)].sort()[1]!);
  let root: string;
  let contractMonth: string | null = null;
  if (q.symbol !== undefined) {
    const contract = contractBySymbol(q.symbol.toUpperCase(), last);
    if (contract === null)
      throw invalidParameters([{ parameter: 'symbol', message: 'not a quarterly contract of ES, NQ, RTY, MES, MNQ or M2K' }]);
    root = contract.root;
    contractMonth = contract.contract_month;
  } else root = q.root!;

  let first: string;
  let end: string;
  if (q.start_date !== undefined || q.end_date !== undefined) {
    first = q.start_date ?? addDays(last, -SETTLEMENT_DEFAULT_DAYS);
    end = last;
    if (first > end)
      throw invalidParameters([{ parameter: 'start_date', message: 'must not be after end_date (default the current trade date)' }]);
    if (daysBetween(first, end) >= SETTLEMENT_RANGE_DAYS) {
      const message = `the range holds at most ${SETTLEMENT_RANGE_DAYS} dates, both ends included`;
      throw invalidParameters(
        (['start_date', 'end_date'] as const).filter((p) => q[p] !== undefined).map((parameter) => ({ parameter, message })),
      );
    }
  } else if (q.date !== undefined) {
    first = end = q.date;
  } else {
    const newest = await futuresBasis.newestStatisticsDate(root, today);
    if (newest === null) throw noData(`No statistics of ${root} are stored.`);
    first = end = newest;
  }

  const dates: string[] = [];
  const previous: string[] = [];
  for (let d = first; d <= end; d = addDays(d, 1)) {
    dates.push(d);
    previous.push(previousTradeDate(d));
  }
  const paging = openPaging<SettlementPosition>(ctx, q);
  const rows = await futuresBasis.settlementsPage(root, contractMonth, { dates, previous }, paging.after, paging.limit + 1);
  if (rows.length === 0 && paging.after === null) {
    const what = q.symbol === undefined ? root : q.symbol.toUpperCase();
    throw noData(
      first === end ? `No statistics of ${what} are stored for ${first}.` : `No statistics of ${what} are stored from ${first} to ${end}.`,
    );
  }
  const { page, next } = takePage(rows, paging.limit, (r): SettlementPosition => [r.tradeDate, r.expiration, r.contractId]);
  return { data: page.map(settlementOf), source: 'derived', pagination: paging.pagination(page.length, next) };
}

/** The Globex calendar's previous trade date; outside its years, the weekday before. */
function previousTradeDate(date: string): string {
  try {
    return previousGlobexTradeDate(date);
  } catch {
    let d = addDays(date, -1);
    while ([0, 6].includes(new Date(`${d}T12:00:00Z`).getUTCDay())) d = addDays(d, -1);
    return d;
  }
}
