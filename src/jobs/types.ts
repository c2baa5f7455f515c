import type PgBoss from 'pg-boss';
import type { Database } from '../db/connection.js';
import type { Logger } from '../middleware/logging.js';
import type { ServiceDeps } from '../service.js';

export interface JobDeps {
  admin: Database;
  logger: Logger;
  clock: () => number;
  /** Data directory (the session archive lives in `<dataDir>/archive`); jobs needing it skip without it. */
  dataDir?: string;
  /** The service (handlers, contract, database): the export worker runs routes through it. */
  service?: ServiceDeps;
}

/** A queue: its name, pg-boss options (retry, backoff, expiry), an optional cron, an idempotent handler. */
export interface JobDefinition<Data extends object> {
  name: string;
  options: Omit<PgBoss.Queue, 'name'>;
  schedule?: string;
  handler: (deps: JobDeps, data: Data) => Promise<void>;
}
