/**
 * Every operation's handler, by operationId. PENDING_OPERATIONS is the one list of routes that are
 * specified but not served yet: they answer 501 not_implemented and Schemathesis leaves them out
 * (scripts/schemathesis reads this list). Later issues shrink it to empty.
 */
import type { OperationId } from '../contract.js';
import { getAccount, getAccountLimits, listAccountUsage } from './account.js';
import { getMarketCalendarDay, listMarketSessions } from './market.js';
import { listOptionOvernightSessions } from './options.js';
import { getOpenApiDocument, getStatus, listCatalog } from './platform.js';
import { listStockSplits } from './stocks.js';
import type { HandlerMap } from './types.js';

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
};

export const PENDING_OPERATIONS: ReadonlySet<OperationId> = new Set<OperationId>([
  'listOptionTrades',
  'listOptionFlow',
  'listOvernightOptionFlow',
  'listFlowLeaders',
  'getPremiumDrift',
  'listContractImpliedVolatility',
  'getContractTradeAtTime',
  'getVolatilitySkew',
  'getVolatilityDrift',
  'getOpenInterest',
  'getExposureLevels',
  'getExposureHeatmap',
  'createExport',
  'getExport',
  'downloadExport',
]);
