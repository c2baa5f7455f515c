/** Volatility drift: one expiration's at-the-money volatility through a session. */
import * as drift from '../services/volatility-drift.js';
import type { Handler } from './types.js';

export const getVolatilityDrift: Handler<'getVolatilityDrift'> = async (ctx) => await drift.getVolatilityDrift(ctx, ctx.query);
