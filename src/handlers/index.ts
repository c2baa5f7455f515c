/**
 * Every operation's handler, by operationId: HandlerMap makes the compiler check that each operation
 * of the contract has one. The service is built with this map, or with a test's handlers laid over it.
 */
import { getAccount, getAccountLimits, listAccountUsage } from './account.js';
import { getContractTradeAtTime, listContractImpliedVolatility } from './contract.js';
import { createExport, downloadExport, getExport } from './exports.js';
import { getPremiumDrift, listFlowLeaders, listOptionFlow, listOptionTrades, listOvernightOptionFlow } from './flow.js';
import { getIndexVolatility, listIndexVolatilityBars } from './index-volatility.js';
import { listFuturesBars, listFuturesContinuous } from './futures-bars.js';
import { listFuturesContracts, listFuturesProducts, listFuturesTrades } from './futures.js';
import { getFuturesBasis, listFuturesSettlements } from './futures-basis.js';
import { getIndexSnapshot, listIndexBars, listIndices } from './indices.js';
import { getMarketCalendarDay, listMarketSessions, listOptionOvernightSessions } from './market.js';
import { getAsyncApiDocument, getOpenApiDocument, getStatus, listCatalog } from './platform.js';
import { getExposureHeatmap, getExposureLevels, getOpenInterest } from './positioning.js';
import { getOptionChain, listOptionBars, listOptionContracts } from './reference.js';
import { listStockSplits } from './stocks.js';
import type { HandlerMap, HandlerOverrides } from './types.js';
import { getVolatilityDrift } from './volatility-drift.js';
import { getVolatilitySkew } from './volatility-skew.js';

export const handlers: HandlerMap = {
  getStatus,
  getOpenApiDocument,
  getAsyncApiDocument,
  listCatalog,
  getAccount,
  getAccountLimits,
  listAccountUsage,
  getMarketCalendarDay,
  listMarketSessions,
  listOptionOvernightSessions,
  listOptionTrades,
  listOptionFlow,
  listOvernightOptionFlow,
  getPremiumDrift,
  listFlowLeaders,
  getContractTradeAtTime,
  listContractImpliedVolatility,
  getVolatilitySkew,
  getVolatilityDrift,
  getIndexVolatility,
  listIndexVolatilityBars,
  listFuturesProducts,
  listFuturesContracts,
  listFuturesBars,
  listFuturesContinuous,
  listFuturesTrades,
  listFuturesSettlements,
  getFuturesBasis,
  listIndices,
  listIndexBars,
  getIndexSnapshot,
  getOpenInterest,
  getExposureLevels,
  getExposureHeatmap,
  listOptionContracts,
  listOptionBars,
  getOptionChain,
  listStockSplits,
  createExport,
  getExport,
  downloadExport,
};

/** The handler map a service is built with: these handlers, and a test's in place of some. */
export function handlerMap(overrides: HandlerOverrides = {}): HandlerMap {
  return { ...handlers, ...overrides };
}
