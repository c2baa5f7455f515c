/**
 * GET /v1/futures/basis: a future against its cash index at one minute, or as a series, with the
 * cost-of-carry figures of analytics/futures/basis.ts from the service's rate table and the index's
 * dividend yield (analytics/rates.ts, the inputs of the options' valuations). The contract states
 * each convention.
 */
import { basisOf } from '../analytics/futures/basis.js';
import { contractBySymbol, lastTradeDate } from '../analytics/futures/contracts.js';
import { futuresProduct, type FuturesIndex, type FuturesRoot } from '../analytics/futures/products.js';
import { lastKnownMinute } from '../analytics/indices.js';
import { newYorkDate, newYorkTimeToMs } from '../analytics/new-york-time.js';
import { dividendYield, riskFreeRate } from '../analytics/rates.js';
import type { BasisMinute } from '../db/futures-basis.js';
import type { StoredFuturesContract } from '../db/futures-contracts.js';
import { invalidParameters, noData } from '../errors.js';
import { currentTradeDate } from './futures-reference.js';
import { futuresSymbols } from './futures-settlements.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type BasisPoint = DataOf<'getFuturesBasis'>[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** How far back the newest minute with both prices is looked for. */
export const BASIS_LOOKBACK_MS = 7 * 86_400_000;

/** The final settlement of a contract month: 09:30 ET (the index's SOQ) of its last trade date. */
export function finalSettlementTime(contractMonth: string): number {
  return newYorkTimeToMs(lastTradeDate(Number(contractMonth.slice(0, 4)), Number(contractMonth.slice(5, 7))), '09:30');
}

/** Prices and their differences to 6 decimals: the float difference of two quotes carries noise past that. */
const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/** A stored contract with its final settlement instant. */
interface Candidate {
  contract: StoredFuturesContract;
  settlement: number;
}

/** A minute [ts, ts + 60 s) is one of a contract's while it ends no later than the final settlement. */
const liveAt = (c: Candidate, ts: number): boolean => ts + MINUTE_MS <= c.settlement;

export function basisPoint(c: Candidate, index: FuturesIndex, m: BasisMinute): BasisPoint {
  const rate = riskFreeRate(newYorkDate(m.ts));
  const q = dividendYield(index);
  const b = basisOf({ future: m.future, index: m.index, at: m.ts + MINUTE_MS, settlement: c.settlement, rate, dividendYield: q });
  const { symbol, globexSymbol } = futuresSymbols(c.contract.root, c.contract.contractMonth);
  return {
    symbol,
    globex_symbol: globexSymbol,
    root: c.contract.root as FuturesRoot,
    index_symbol: index,
    timestamp: m.ts,
    future_price: m.future,
    index_value: m.index,
    basis: round6(b.basis),
    basis_percent: round6(b.basisPercent),
    final_settlement_time: c.settlement,
    days_to_expiry: b.daysToExpiry,
    years_to_expiry: b.yearsToExpiry,
    rate,
    dividend_yield: q,
    model_carry: b.modelCarry,
    implied_carry: b.impliedCarry,
    implied_rate: b.impliedRate,
    fair_value: round6(b.fairValue),
    fair_basis: round6(b.fairBasis),
    mispricing: round6(b.mispricing),
  };
}

/** The series read with end_time alone: the 24 hours before it. */
const SERIES_DEFAULT_MS = 86_400_000;

export async function getFuturesBasis(ctx: ServiceContext, q: QueryOf<'getFuturesBasis'>): Promise<Result<'getFuturesBasis'>> {
  const repo = ctx.deps.repositories.futuresBasis;
  const series = q.start_time !== undefined || q.end_time !== undefined;
  const instant = Math.min(q.at ?? ctx.now, ctx.now);
  // A series holds the minutes ended by now at the latest; end_time alone reads the day before it.
  const end = series ? Math.min(q.end_time ?? ctx.now, lastKnownMinute(ctx.now) + MINUTE_MS) : instant;
  const start = q.start_time ?? end - SERIES_DEFAULT_MS;
  // Both given high-to-low is refused by the contract's range rule; a range after the newest minute holds no data yet.
  if (series && !(start < end)) throw noData('The range begins after the newest minute of data.');

  // The contracts: one by symbol, or the root's stored ones.
  let root: FuturesRoot;
  let month: string | null = null;
  if (q.symbol !== undefined) {
    const contract = contractBySymbol(q.symbol.toUpperCase(), currentTradeDate(end));
    if (contract === null)
      throw invalidParameters([{ parameter: 'symbol', message: 'not a quarterly contract of ES, NQ, RTY, MES, MNQ or M2K' }]);
    root = contract.root;
    month = contract.contract_month;
  } else root = q.root!;
  const index = futuresProduct(root)!.underlying_index;
  const stored = (await repo.contractsOfRoot(root))
    .filter((c) => month === null || c.contractMonth === month)
    .map((contract): Candidate => ({ contract, settlement: finalSettlementTime(contract.contractMonth) }))
    .sort((a, b) => a.settlement - b.settlement || a.contract.id - b.contract.id);
  const what = q.symbol?.toUpperCase() ?? root;
  if (stored.length === 0) throw noData(`No contract of ${what} is stored.`);
  const front = q.symbol === undefined && (q.contracts ?? 'front') === 'front';

  const data: BasisPoint[] = [];
  if (!series) {
    const last = lastKnownMinute(instant);
    const chosen = front ? stored.filter((c) => liveAt(c, last)).slice(0, 1) : stored.filter((c) => liveAt(c, last));
    for (const c of chosen) {
      const m = await repo.newestBasisMinute(c.contract.id, index, last - BASIS_LOOKBACK_MS, last);
      if (m !== null) data.push(basisPoint(c, index, m));
    }
    if (data.length === 0) throw noData(`No minute of ${what} with a value of ${index} is stored in the 7 days to the instant.`);
  } else {
    const bucketMs = withDefault(q.interval, 'interval') === '1h' ? HOUR_MS : null;
    for (let k = 0; k < stored.length; k += 1) {
      const c = stored[k]!;
      // A contract's minutes end no later than its settlement; as the front, they also end after the previous contract's.
      const previous = front && k > 0 ? stored[k - 1]!.settlement : -Infinity;
      const from = Math.max(start, previous - MINUTE_MS + 1);
      const to = Math.min(end, c.settlement - MINUTE_MS + 1);
      if (!(from < to)) continue;
      const minutes = await repo.basisMinutes(c.contract.id, index, from, to, bucketMs);
      for (const m of minutes) if (liveAt(c, m.ts)) data.push(basisPoint(c, index, m));
    }
    if (data.length === 0) throw noData(`No minute of ${what} with a value of ${index} is stored in the range.`);
  }
  return { data, source: 'derived' };
}
