/**
 * The exposure heat map: the request's contracts valued as the levels route values them
 * (positioning.ts positioningBook), each with its activity in the session when the metric is
 * observed (volume, premium, net_premium, trades: the classified prints the session holds,
 * print-filters.ts SESSIONS_OF, up to the valuation time), laid on the strike by expiration grid of
 * analytics/positioning/heatmap.ts.
 */
import { heatmapGrid, metricLabel, type ContractActivity, type HeatmapContract } from '../analytics/positioning/heatmap.js';
import { POSITIONING_MODEL_VERSIONS } from '../analytics/positioning/positions.js';
import { positioningBook } from './positioning.js';
import { bookAnswer, type BookAnswer } from './books.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type Heatmap = DataOf<'getExposureHeatmap'>;

const NO_ACTIVITY: ContractActivity = { volume: 0, premium: 0, netPremium: 0, trades: 0 };

export async function getExposureHeatmap(ctx: ServiceContext, q: QueryOf<'getExposureHeatmap'>): Promise<Result<'getExposureHeatmap'>> {
  return await bookAnswer(ctx, 'getExposureHeatmap', q, async (at) => await exposureHeatmap(ctx, q, at));
}

/** The heat map answer of the request on its book (exported for the test of stored against fresh books). */
export async function exposureHeatmap(ctx: ServiceContext, q: QueryOf<'getExposureHeatmap'>, at: BookAnswer): Promise<Heatmap> {
  const metric = withDefault(q.metric, 'metric');
  const observed = metric === 'volume' || metric === 'premium' || metric === 'net_premium' || metric === 'trades';
  // A settled expiration has no greeks (no column of zeros), but its open interest and its prints of the day are facts.
  const book = await positioningBook(ctx, q, at, observed || metric === 'open_interest' ? 'kept' : 'left_out');
  const leg = withDefault(q.leg, 'leg');
  const unit = withDefault(q.unit, 'unit');
  const perspective = withDefault(q.perspective, 'perspective');
  const contracts: HeatmapContract[] = book.contracts.map((c, i) => ({
    ...c,
    activity: (observed ? book.activity.get(book.rows[i]!.contractId) : undefined) ?? NO_ACTIVITY,
  }));
  const grid = heatmapGrid(
    contracts,
    metric,
    leg,
    { unit, perspective, spot: book.spot },
    {
      strikesAround: q.strikes_around ?? null,
      minStrike: q.min_strike ?? null,
      maxStrike: q.max_strike ?? null,
      maxExpirations: withDefault(q.max_expirations, 'max_expirations'),
      expirationOffset: withDefault(q.expiration_offset, 'expiration_offset'),
    },
  );
  const data: Heatmap = {
    ...grid,
    greek: metric,
    leg,
    metric,
    model: book.model,
    perspective,
    positioning_model: POSITIONING_MODEL_VERSIONS[book.model],
    roots: book.roots,
    session: book.session,
    trading_date: book.tradingDate,
    underlying_symbol: book.symbol,
    unit,
    unit_label: metricLabel(metric, unit, perspective),
    valuation: book.valuation,
  };
  return data;
}
