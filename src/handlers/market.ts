/** The exchange calendar and session windows, and the option roots with an overnight session. */
import * as market from '../services/market.js';
import type { Handler } from './types.js';

export const getMarketCalendarDay: Handler<'getMarketCalendarDay'> = async (ctx) => await market.getMarketCalendarDay(ctx, ctx.query);

export const listMarketSessions: Handler<'listMarketSessions'> = async (ctx) => await market.listMarketSessions(ctx, ctx.query);

export const listOptionOvernightSessions: Handler<'listOptionOvernightSessions'> = async (ctx) =>
  await market.listOptionOvernightSessions(ctx, ctx.query);
