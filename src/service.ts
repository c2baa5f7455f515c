/**
 * What services, handlers and jobs share: configuration, the database, the contract, the clock,
 * and the ports to what lies outside a request (the job queue, the request log, the limits, the
 * services' repositories) with the per-process memos. Built once by server.ts; tests build it the
 * same way with their own clock or handlers, and a service's unit test with its own repositories.
 */
import type { Config } from './config.js';
import type { ApiContract, OperationId } from './api-contract/openapi.js';
import type { Database } from './db/connection.js';
import type { ReplicaSet } from './db/replicas.js';
import type { JobQueue } from './jobs/queue.js';
import type { Limiter } from './limits/rate-limiter.js';
import type { Logger } from './logging.js';
import type { Metrics } from './metrics.js';
import type { RequestLogBuffer } from './request-log.js';
import type { CursorCodec } from './services/cursor.js';
import type { QueryValidator } from './parameters/index.js';
import type { ServiceMemos } from './services/memos.js';
import type { Repositories } from './services/repositories.js';
import type { ValuationPool } from './services/valuation-pool.js';

export interface ServiceDeps {
  config: Readonly<Config>;
  /** The primary: accounts and keys, usage, limits, exports, ingest, the live runner, every write. */
  db: Database;
  /**
   * The reads that tolerate replica lag (trades pages, contract history, flow and leaders, the
   * chain, positioning and reference reads): a routed handle over the read replicas and the primary
   * (db/replicas.ts: a replica serves a read only once it has replayed what the request's floor
   * requires), or `db` itself when no replica is configured. Which read goes where is written in
   * services/repositories.ts databaseRepositories and in the services that read it directly.
   */
  reads: Database;
  /** The read replicas' health and lag (GET /v1/status, the metrics); null without replicas. */
  replicas: ReplicaSet | null;
  /** The services' reads, one interface per use case (services/repositories.ts). */
  repositories: Repositories;
  /** The services' memos of this process (services/memos.ts). */
  memos: ServiceMemos;
  /**
   * The process's valuation threads (services/valuation-pool.ts): book valuations and the views a
   * request computes afresh run there, on the account's turn; null computes them on the event loop
   * (VALUATION_THREADS=0, or threads that could not start). Optional for the unit tests' contexts.
   */
  valuation?: ValuationPool | null;
  apiContract: ApiContract;
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
  /**
   * The operations served: a handler exists for each. HandlerMap requires one for every operation,
   * so this is every operation of the contract; exports check a requested route against it.
   */
  served: ReadonlySet<OperationId>;
  /**
   * The AsyncAPI document of the streams (stream/asyncapi.ts), built on first use by server.ts: the
   * services serve it without importing the stream runtime it describes.
   */
  asyncApi: () => Record<string, unknown>;
  /** The job queue; null when the service runs without one (exports and session loads then answer 503). */
  jobs: JobQueue | null;
}
