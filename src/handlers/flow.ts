/**
 * Option flow: the three print feeds (trades, flow, flow/overnight), premium drift and flow
 * leaders. Each handler hands its validated query to its service.
 */
import * as leaders from '../services/flow-leaders.js';
import * as drift from '../services/premium-drift.js';
import { DEFAULT_PRINT_FEED_OPTIONS, listPrints, type PrintFeedOptions } from '../services/print-feeds.js';
import type { Handler } from './types.js';

/** The three feed handlers; options are replaceable in tests (a small scan budget). */
export function printFeedHandlers(options: PrintFeedOptions = DEFAULT_PRINT_FEED_OPTIONS): {
  listOptionTrades: Handler<'listOptionTrades'>;
  listOptionFlow: Handler<'listOptionFlow'>;
  listOvernightOptionFlow: Handler<'listOvernightOptionFlow'>;
} {
  return {
    listOptionTrades: async (ctx) => await listPrints(ctx, 'listOptionTrades', ctx.query, options),
    listOptionFlow: async (ctx) => await listPrints(ctx, 'listOptionFlow', ctx.query, options),
    listOvernightOptionFlow: async (ctx) => await listPrints(ctx, 'listOvernightOptionFlow', ctx.query, options),
  };
}

export const { listOptionTrades, listOptionFlow, listOvernightOptionFlow } = printFeedHandlers();

export const getPremiumDrift: Handler<'getPremiumDrift'> = async (ctx) => await drift.getPremiumDrift(ctx, ctx.query);

export const listFlowLeaders: Handler<'listFlowLeaders'> = async (ctx) => await leaders.listFlowLeaders(ctx, ctx.query);
