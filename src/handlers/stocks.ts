/** Stock reference data: splits. */
import * as splits from '../services/splits.js';
import type { Handler } from './types.js';

export const listStockSplits: Handler<'listStockSplits'> = async (ctx) => await splits.listStockSplits(ctx, ctx.query);
