/** CME equity-index futures bars, by contract or continuous symbol, and the continuous symbols' mapping intervals. */
import * as futuresBars from '../services/futures-bars.js';
import type { Handler } from './types.js';

export const listFuturesBars: Handler<'listFuturesBars'> = async (ctx) => await futuresBars.listFuturesBars(ctx, ctx.query);

export const listFuturesContinuous: Handler<'listFuturesContinuous'> = async (ctx) =>
  await futuresBars.listFuturesContinuous(ctx, ctx.query);
