/** CME equity-index futures: reference data (products, the contracts listed at a date) and trades. */
import * as futuresReference from '../services/futures-reference.js';
import * as futuresTrades from '../services/futures-trades.js';
import type { Handler } from './types.js';

export const listFuturesProducts: Handler<'listFuturesProducts'> = async (ctx) =>
  await futuresReference.listFuturesProducts(ctx, ctx.query);

export const listFuturesContracts: Handler<'listFuturesContracts'> = async (ctx) =>
  await futuresReference.listFuturesContracts(ctx, ctx.query);

export const listFuturesTrades: Handler<'listFuturesTrades'> = async (ctx) => await futuresTrades.listFuturesTrades(ctx, ctx.query);
