/**
 * Flow leaders: the session's flow totals read per underlying or per contract, ranked
 * (analytics/flow-leaders.ts). The totals come from the flow aggregates written when the session's
 * prints were loaded (db/flow-aggregates.ts), equal to aggregating the prints. The sort allowed for
 * each grain, its default and underlying_symbols with contract grain only are rules of the contract
 * (x-parameter-rules), applied before a service runs.
 */
import { previousTradingDay } from '../analytics/calendar.js';
import { rankContracts, rankRoots, type RankingOptions } from '../analytics/flow-leaders.js';
import { defaultTradingDate, rootsOf, SESSIONS_OF } from '../analytics/print-filters.js';
import { contractFlowTotals, underlyingFlowTotals } from '../db/flow-aggregates.js';
import { flowByUnderlying, type LeaderFilter } from '../db/trades.js';
import { noData, type ApiError } from '../errors.js';
import { explainMissingPrints } from './session-data.js';
import { withDefault, type QueryOf, type Result, type ServiceContext } from './types.js';

/** The previous trading date, or null before the calendar's start. */
function previousDate(date: string): string | null {
  try {
    return previousTradingDay(date);
  } catch {
    return null;
  }
}

export async function listFlowLeaders(ctx: ServiceContext, q: QueryOf<'listFlowLeaders'>): Promise<Result<'listFlowLeaders'>> {
  const grain = withDefault(q.grain, 'grain');
  const session = withDefault(q.session, 'session');
  const tradingDate = q.date ?? defaultTradingDate(ctx.now, session);
  const filter: LeaderFilter = {
    tradingDate,
    sessions: SESSIONS_OF[session],
    includeComplex: withDefault(q.include_complex, 'include_complex'),
    roots: q.underlying_symbols ? rootsOf(q.underlying_symbols) : null,
  };
  // min_premium keeps the rows whose premium reaches it, not the prints that do (analytics/flow-leaders.ts).
  const ranking: RankingOptions = {
    sort: withDefault(q.sort, 'sort'),
    order: withDefault(q.order, 'order'),
    limit: withDefault(q.limit, 'limit'),
    minPremium: q.min_premium,
  };
  const empty = async (): Promise<never> => {
    await explainMissingPrints(ctx, tradingDate);
    throw noData(`No print matches the request on ${tradingDate}.`);
  };
  const belowMinimum = (what: string): ApiError =>
    noData(`No ${what} traded on ${tradingDate} has a premium of at least ${q.min_premium ?? 0} USD.`);
  if (grain === 'root') {
    // The underlying aggregates have no per-root rows: root grain narrowed by roots (which the
    // contract's rules refuse before this runs) would aggregate the prints.
    const flows = filter.roots
      ? await flowByUnderlying(ctx.deps.reads, filter)
      : await underlyingFlowTotals(ctx.deps.reads, { ...filter, roots: null });
    if (flows.length === 0) return await empty();
    const ranked = rankRoots(
      flows.map((f) => ({ ...f, callVolume: f.call_volume, putVolume: f.put_volume })),
      ranking,
    );
    if (ranked.length === 0) throw belowMinimum('underlying');
    return { data: ranked, source: 'opra' };
  }
  // A contract without a previous close (none held, or before the calendar) or open interest is served with those fields null.
  const flows = await contractFlowTotals(ctx.deps.reads, filter, previousDate(tradingDate));
  if (flows.length === 0) return await empty();
  const ranked = rankContracts(
    flows.map((f) => ({
      root: f.root,
      contractType: f.contract_type,
      dateOfExpiry: f.date_of_expiry,
      strike: f.strike,
      premium: f.premium,
      volume: f.volume,
      lastPrice: f.last_price,
      impliedVolatility: f.implied_volatility,
      openInterest: f.open_interest,
      previousClose: f.previous_close,
    })),
    ranking,
  );
  if (ranked.length === 0) throw belowMinimum('contract');
  return { data: ranked, source: 'opra' };
}
