/** CME equity-index futures reference data: products and the contracts listed at a date. */
import * as futuresReference from '../services/futures-reference.js';
import type { Handler } from './types.js';

export const listFuturesProducts: Handler<'listFuturesProducts'> = async (ctx) =>
  await futuresReference.listFuturesProducts(ctx, ctx.query);

export const listFuturesContracts: Handler<'listFuturesContracts'> = async (ctx) =>
  await futuresReference.listFuturesContracts(ctx, ctx.query);
