/** The calling account: who it is, its limits and windows, its usage. */
import * as account from '../services/account.js';
import type { Handler } from './types.js';

export const getAccount: Handler<'getAccount'> = async (ctx) => await account.getAccount(ctx);

export const getAccountLimits: Handler<'getAccountLimits'> = async (ctx) => await account.getAccountLimits(ctx);

export const listAccountUsage: Handler<'listAccountUsage'> = async (ctx) => await account.listAccountUsage(ctx, ctx.query);
