/** The reference routes of the options family: listed contracts, bars and the chain snapshot. */
import * as bars from '../services/option-bars.js';
import * as chain from '../services/option-chain.js';
import * as contracts from '../services/option-contracts.js';
import type { Handler } from './types.js';

export const listOptionContracts: Handler<'listOptionContracts'> = async (ctx) => await contracts.listOptionContracts(ctx, ctx.query);
export const listOptionBars: Handler<'listOptionBars'> = async (ctx) => await bars.listOptionBars(ctx, ctx.query);
export const getOptionChain: Handler<'getOptionChain'> = async (ctx) => await chain.getOptionChain(ctx, ctx.query);
