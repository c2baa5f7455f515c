/** Single-contract history: the last trade at an instant, and implied volatility over time. */
import * as history from '../services/contract-history.js';
import type { Handler } from './types.js';

export const getContractTradeAtTime: Handler<'getContractTradeAtTime'> = async (ctx) =>
  await history.getContractTradeAtTime(ctx, ctx.query);

export const listContractImpliedVolatility: Handler<'listContractImpliedVolatility'> = async (ctx) =>
  await history.listContractImpliedVolatility(ctx, ctx.query);
