/** What a job's handler receives, and how a queue is declared (jobs/index.ts registers them all). */
import type PgBoss from 'pg-boss';
import type { Database } from '../db/connection.js';
import type { HandlerMap } from '../handlers/types.js';
import type { Logger } from '../logging.js';
import type { ServiceDeps } from '../service.js';

export interface JobDeps {
  admin: Database;
  logger: Logger;
  clock: () => number;
  /** The session archive's folder (ARCHIVE_DIR); the archive job skips without it. */
  archiveDir?: string;
  /**
   * The service and the handlers it was built with: the export worker runs a route's handler
   * page after page, as a request to the route would.
   */
  service?: { deps: ServiceDeps; handlers: HandlerMap };
}

/**
 * A queue: its name, pg-boss options (retry, backoff, expiry), how many workers run it and how
 * they poll, an optional cron, an idempotent handler, and an optional supervisor.
 */
export interface JobDefinition<Data extends object> {
  name: string;
  options: Omit<PgBoss.Queue, 'name'>;
  /** Workers of this queue in the process running the jobs, each one job at a time (default 1). */
  workers?: number;
  /** Each worker's options (pollingIntervalSeconds; batchSize stays 1: a handler takes one job). */
  work?: Pick<PgBoss.WorkOptions, 'pollingIntervalSeconds'>;
  schedule?: string;
  handler: (deps: JobDeps, data: Data) => Promise<void>;
  /**
   * Started once with the workers: the queue's own periodic work (the exports' recovery of dead
   * runs and deletion of expired files). It stops itself when the queue client stops.
   */
  supervise?: (boss: PgBoss, deps: JobDeps) => void;
}
