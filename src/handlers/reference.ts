/** The reference routes of the options family: listed contracts. */
import * as contracts from '../services/option-contracts.js';
import type { Handler } from './types.js';

export const listOptionContracts: Handler<'listOptionContracts'> = async (ctx) => await contracts.listOptionContracts(ctx, ctx.query);
