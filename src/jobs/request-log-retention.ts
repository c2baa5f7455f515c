/** Prunes the request log to its seven-day retention, hourly. Idempotent: a rerun deletes nothing new. */
import { RETENTION_MS } from '../analytics/usage.js';
import { pruneRequestLog } from '../db/request-log.js';
import { QUEUES } from './queue.js';
import type { JobDefinition } from './types.js';

export const requestLogRetention: JobDefinition<Record<string, never>> = {
  name: QUEUES.requestLogRetention,
  options: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
  schedule: '17 * * * *',
  handler: async (deps) => {
    const deleted = await pruneRequestLog(deps.admin, new Date(deps.clock() - RETENTION_MS));
    deps.logger.info('request log pruned', { deleted });
  },
};
