/** Open interest, key levels and the exposure heat map. */
import * as heatmap from '../services/exposure-heatmap.js';
import * as openInterest from '../services/open-interest.js';
import * as positioning from '../services/positioning.js';
import type { Handler } from './types.js';

export const getOpenInterest: Handler<'getOpenInterest'> = async (ctx) => await openInterest.getOpenInterest(ctx, ctx.query);
export const getExposureLevels: Handler<'getExposureLevels'> = async (ctx) => await positioning.getExposureLevels(ctx, ctx.query);
export const getExposureHeatmap: Handler<'getExposureHeatmap'> = async (ctx) => await heatmap.getExposureHeatmap(ctx, ctx.query);
