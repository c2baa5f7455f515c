/** What handlers and jobs share: configuration, the database, the contract and the clock. */
import type { Config } from './config.js';
import type { Contract } from './contract.js';
import type { Database } from './db/connection.js';
import type { CursorCodec } from './middleware/cursor.js';
import type PgBoss from 'pg-boss';
import type { Logger } from './middleware/logging.js';
import type { QueryValidator } from './middleware/query-validation.js';
import type { Limiter } from './middleware/rate-limiter.js';
import type { RequestLogBuffer } from './middleware/request-log.js';

export interface ServiceDeps {
  config: Readonly<Config>;
  db: Database;
  contract: Contract;
  logger: Logger;
  limiter: Limiter;
  requestLog: RequestLogBuffer;
  cursors: CursorCodec;
  clock: () => number;
  startedAt: number;
  /** Query rules of every route, for export requests. */
  queries: QueryValidator;
  /** The job queue; null when the service runs without workers (exports then answer 503). */
  boss: PgBoss | null;
}
