/** The cash indices: their list, bars and quote board (services/indices.ts). */
import * as indices from '../services/indices.js';
import type { Handler } from './types.js';

export const listIndices: Handler<'listIndices'> = async (ctx) => await indices.listIndices(ctx);
export const listIndexBars: Handler<'listIndexBars'> = async (ctx) => await indices.listIndexBars(ctx, ctx.query);
export const getIndexSnapshot: Handler<'getIndexSnapshot'> = async (ctx) => await indices.getIndexSnapshot(ctx, ctx.query);
