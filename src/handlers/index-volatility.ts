/** A volatility index computed from the stored option chains (the VIX white paper's method). */
import * as indexVolatility from '../services/index-volatility.js';
import * as volatilityIndexSeries from '../services/volatility-index-series.js';
import type { Handler } from './types.js';

export const getIndexVolatility: Handler<'getIndexVolatility'> = async (ctx) => await indexVolatility.getIndexVolatility(ctx, ctx.query);
export const listIndexVolatilityBars: Handler<'listIndexVolatilityBars'> = async (ctx) =>
  await volatilityIndexSeries.listIndexVolatilityBars(ctx, ctx.query);
