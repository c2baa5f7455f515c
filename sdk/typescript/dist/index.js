/**
 * @oads/sdk: the TypeScript client of the Options Analytics Data Service.
 *
 *   import { Oads, OadsError } from '@oads/sdk';
 *   const oads = new Oads({ apiKey: process.env.OADS_API_KEY!, baseUrl: 'http://127.0.0.1:8080' });
 *   const page = await oads.listOptionTrades({ underlying_symbol: 'SPY', side: ['ask', 'above_ask'], limit: 100 });
 *
 * The generated types of every schema and operation are exported too (`import type { OptionPrint } from '@oads/sdk'`).
 */
export { Oads, DEFAULT_BASE_URL, } from './oads.js';
export { DEFAULT_LIMITS } from './limiter.js';
export { OadsError, OadsExportFailedError, retryAfterSeconds } from './errors.js';
export { operationIds, } from './operations.js';
//# sourceMappingURL=index.js.map