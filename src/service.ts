/**
 * What services, handlers and jobs share: configuration, the database, the contract, the clock,
 * and the ports to what lies outside a request (the job queue, the request log, the limits). Built
 * once by server.ts; tests build it the same way with their own clock or handlers.
 */
import type { Config } from './config.js';
import type { Contract, OperationId } from './contract.js';
import type { Database } from './db/connection.js';
import type { JobQueue } from './jobs/queue.js';
import type { Limiter } from './limits/rate-limiter.js';
import type { Logger } from './logging.js';
import type { Metrics } from './metrics.js';
import type { RequestLogBuffer } from './request-log.js';
import type { CursorCodec } from './services/cursor.js';
import type { QueryValidator } from './parameters/index.js';

export interface ServiceDeps {
  config: Readonly<Config>;
  db: Database;
  contract: Contract;
  logger: Logger;
  /** This process's Prometheus metrics (metrics.ts). */
  metrics: Metrics;
  limiter: Limiter;
  requestLog: RequestLogBuffer;
  cursors: CursorCodec;
  clock: () => number;
  startedAt: number;
  /** Query rules of every route, for export requests. */
  queries: QueryValidator;
  /** The operations served (a handler exists); the others answer 501 and cannot be exported. */
  served: ReadonlySet<OperationId>;
  /** The job queue; null when the service runs without one (exports and session loads then answer 503). */
  jobs: JobQueue | null;
}
