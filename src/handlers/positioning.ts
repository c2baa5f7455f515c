/** Open interest, key levels and the exposure heat map. */
import * as openInterest from '../services/open-interest.js';
import type { Handler } from './types.js';

export const getOpenInterest: Handler<'getOpenInterest'> = async (ctx) => await openInterest.getOpenInterest(ctx, ctx.query);
