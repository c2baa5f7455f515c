/**
 * Premium drift of one underlying through a session: the net premium of each bucket read from the
 * store by side group, then accumulated against the underlying's bars (analytics/premium-drift.ts).
 */
import { DRIFT_INTERVAL_MS, driftGrid, driftSeries, gridCovering } from '../analytics/premium-drift.js';
import { ASK_SIDES, BID_SIDES } from '../analytics/sides.js';
import { rootsOf, selectSides } from '../analytics/print-filters.js';
import { optionRoot } from '../analytics/roots.js';
import { underlyingBarsBetween } from '../db/underlying-bars.js';
import { premiumNetByBucket } from '../db/trades.js';
import { noData } from '../errors.js';
import { checkedFeedWindow, feedSession, printFilterOf } from './print-feeds.js';
import { explainMissingPrints } from './session-data.js';
import { withDefault, type QueryOf, type Result, type ServiceContext } from './types.js';

export async function getPremiumDrift(ctx: ServiceContext, q: QueryOf<'getPremiumDrift'>): Promise<Result<'getPremiumDrift'>> {
  const session = feedSession('getPremiumDrift', q);
  const window = checkedFeedWindow(q, session, ctx.now);
  const roots = rootsOf([q.underlying_symbol]);
  const sessionGrid = driftGrid(window.tradingDate, session, roots);
  if (!sessionGrid) throw noData(`${window.tradingDate} is not a trading date.`);
  const intervalMs = DRIFT_INTERVAL_MS[withDefault(q.interval, 'interval')];
  const filter = { ...printFilterOf(q, window, session, roots, q.side ? selectSides(q.side) : null), roots };
  const nets = await premiumNetByBucket(ctx.deps.reads, filter, sessionGrid.start, intervalMs, { ask: ASK_SIDES, bid: BID_SIDES });
  const grid = gridCovering(sessionGrid, intervalMs, nets);
  if (nets.length === 0) {
    await explainMissingPrints(ctx, window.tradingDate);
    throw noData(`No print of ${q.underlying_symbol.toUpperCase()} matches the request on ${window.tradingDate}.`);
  }
  const underlying = optionRoot(roots[0] ?? '')?.underlying ?? q.underlying_symbol.toUpperCase();
  const bars = await underlyingBarsBetween(ctx.deps.reads, [underlying], grid.start, grid.end);
  return { data: driftSeries(grid, intervalMs, window, nets, bars, ctx.now), source: 'opra' };
}
