/**
 * Loads an archived trading session back into the hot store, on request of a print route (which
 * answers 503 data_pending meanwhile; jobs/queue.ts requestSessionLoad queues it). One job per
 * date: the queue's `stately` policy with the date as singleton key keeps at most one load queued
 * and one running per date, however many requests ask. The handler is idempotent (reloadSession).
 */
import { reloadSession } from '../ingest/archive.js';
import { QUEUES } from './queue.js';
import type { JobDefinition } from './types.js';

export interface SessionLoadData {
  /** Trading date, YYYY-MM-DD. */
  date: string;
}

export const sessionLoad: JobDefinition<SessionLoadData> = {
  name: QUEUES.sessionLoad,
  options: { policy: 'stately', retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 3600 },
  handler: async (deps, data) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(data.date)) throw new Error(`session-load: bad date ${JSON.stringify(data.date)}`);
    const outcome = await reloadSession(deps.admin, data.date, { now: deps.clock(), log: (line) => deps.logger.info(line) });
    deps.logger.info('session load finished', { date: data.date, outcome });
  },
};
