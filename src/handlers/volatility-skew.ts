/** Volatility skew by expiration. */
import * as skew from '../services/volatility-skew.js';
import type { Handler } from './types.js';

export const getVolatilitySkew: Handler<'getVolatilitySkew'> = async (ctx) => await skew.getVolatilitySkew(ctx, ctx.query);
