/**
 * @oads/sdk: the TypeScript client of the Options Analytics Data Service.
 *
 *   import { Oads, OadsError } from '@oads/sdk';
 *   const oads = new Oads({ apiKey: process.env.OADS_API_KEY!, baseUrl: 'http://127.0.0.1:8080' });
 *   const page = await oads.listOptionTrades({ underlying_symbol: 'SPY', side: ['ask', 'above_ask'], limit: 100 });
 *
 * The generated types of every schema and operation are exported too (`import type { OptionPrint } from '@oads/sdk'`).
 */
export { Oads, DEFAULT_BASE_URL, type OadsOptions, type RetryOptions, type RetryEvent, type RunExportOptions, type ExportResult, type ExportFile, type ExportPath, } from './oads.js';
export { DEFAULT_LIMITS, type ClientLimits } from './limiter.js';
export { OadsError, OadsExportFailedError, retryAfterSeconds, type OadsErrorCode, type ErrorObject, type ErrorDetail } from './errors.js';
export { operationIds, type OperationId, type PaginatedOperationId, type ParamsOf, type BodyOf, type ResultOf, type ArgsOf, type PathOf, type DataByPath, type OperationMethods, } from './operations.js';
export type * from './generated/types.gen.js';
