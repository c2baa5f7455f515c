/** The reference routes of the options family: listed contracts and bars. */
import * as bars from '../services/option-bars.js';
import * as contracts from '../services/option-contracts.js';
import type { Handler } from './types.js';

export const listOptionContracts: Handler<'listOptionContracts'> = async (ctx) => await contracts.listOptionContracts(ctx, ctx.query);
export const listOptionBars: Handler<'listOptionBars'> = async (ctx) => await bars.listOptionBars(ctx, ctx.query);
