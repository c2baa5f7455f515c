/**
 * Flow leaders: the session's flow totals read per underlying or per contract, ranked
 * (analytics/flow-leaders.ts). The sort allowed for each grain, its default and underlying_symbols
 * with contract grain only are rules of the contract (x-parameter-rules), applied before a
 * service runs.
 */
import { previousTradingDay } from '../analytics/calendar.js';
import { rankContracts, rankRoots } from '../analytics/flow-leaders.js';
import { defaultTradingDate, rootsOf, SESSIONS_OF } from '../analytics/print-filters.js';
import { flowByContract, flowByUnderlying, type LeaderFilter } from '../db/trades.js';
import { noData } from '../errors.js';
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
  const sort = withDefault(q.sort, 'sort');
  const order = withDefault(q.order, 'order');
  const limit = withDefault(q.limit, 'limit');
  const session = withDefault(q.session, 'session');
  const tradingDate = q.date ?? defaultTradingDate(ctx.now, session);
  const filter: LeaderFilter = {
    tradingDate,
    sessions: SESSIONS_OF[session],
    includeComplex: withDefault(q.include_complex, 'include_complex'),
    minPremium: q.min_premium,
    roots: q.underlying_symbols ? rootsOf(q.underlying_symbols) : null,
  };
  const empty = async (): Promise<never> => {
    await explainMissingPrints(ctx, tradingDate);
    throw noData(`No print matches the request on ${tradingDate}.`);
  };
  if (grain === 'root') {
    const flows = await flowByUnderlying(ctx.deps.db, filter);
    if (flows.length === 0) return await empty();
    const rows = flows.map((f) => ({ ...f, callVolume: f.call_volume, putVolume: f.put_volume }));
    return { data: rankRoots(rows, sort, order, limit), source: 'opra' };
  }
  const previous = previousDate(tradingDate);
  const flows = previous === null ? [] : await flowByContract(ctx.deps.db, filter, previous);
  if (flows.length === 0) return await empty();
  const ranked = rankContracts(
    flows.flatMap((f) =>
      f.previous_close === null || f.open_interest === null
        ? []
        : [
            {
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
            },
          ],
    ),
    sort,
    order,
    limit,
  );
  if (ranked.length === 0) throw noData(`No contract traded on ${tradingDate} has a previous close on ${previous ?? 'a retained session'}.`);
  return { data: ranked, source: 'opra' };
}
