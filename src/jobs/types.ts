import type PgBoss from 'pg-boss';
import type { Database } from '../db/connection.js';
import type { Logger } from '../middleware/logging.js';

export interface JobDeps {
  admin: Database;
  logger: Logger;
  clock: () => number;
}

/** A queue: its name, pg-boss options (retry, backoff, expiry), an optional cron, an idempotent handler. */
export interface JobDefinition<Data extends object> {
  name: string;
  options: Omit<PgBoss.Queue, 'name'>;
  schedule?: string;
  handler: (deps: JobDeps, data: Data) => Promise<void>;
}
