/** Every operation's handler, by operationId (routes not served yet are listed in pending.ts). */
import { getAccount, getAccountLimits, listAccountUsage } from './account.js';
import { createExport, downloadExport, getExport } from './exports.js';
import { getMarketCalendarDay, listMarketSessions } from './market.js';
import { listOptionOvernightSessions } from './options.js';
import { getOpenApiDocument, getStatus, listCatalog } from './platform.js';
import { listStockSplits } from './stocks.js';
import type { HandlerMap } from './types.js';

export { PENDING_OPERATIONS } from './pending.js';

export const handlers: HandlerMap = {
  getStatus,
  getOpenApiDocument,
  listCatalog,
  getAccount,
  getAccountLimits,
  listAccountUsage,
  getMarketCalendarDay,
  listMarketSessions,
  listOptionOvernightSessions,
  listStockSplits,
  createExport,
  getExport,
  downloadExport,
};
