/** Futures market statistics against the index: daily settlements, and the basis with its carry and fair value. */
import { getFuturesBasis as basis } from '../services/futures-basis.js';
import { listFuturesSettlements as settlements } from '../services/futures-settlements.js';
import type { Handler } from './types.js';

export const listFuturesSettlements: Handler<'listFuturesSettlements'> = async (ctx) => await settlements(ctx, ctx.query);

export const getFuturesBasis: Handler<'getFuturesBasis'> = async (ctx) => await basis(ctx, ctx.query);
