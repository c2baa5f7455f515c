/**
 * Moves sessions older than the hot window (the last five completed sessions and the current one)
 * to the archive folder, hourly. Idempotent: an archived session is no longer hot, so a rerun finds
 * nothing to do. Needs the archive folder (JobDeps.archiveDir: ARCHIVE_DIR).
 */
import { enforceRetention } from '../ingest/archive.js';
import { QUEUES } from './queue.js';
import type { JobDefinition } from './types.js';

export const sessionArchive: JobDefinition<Record<string, never>> = {
  name: QUEUES.sessionArchive,
  options: { policy: 'singleton', retryLimit: 3, retryDelay: 300, retryBackoff: true, expireInSeconds: 3600 },
  schedule: '41 * * * *',
  handler: async (deps) => {
    if (deps.archiveDir === undefined) {
      deps.logger.info('session archive skipped: no archive folder configured for jobs');
      return;
    }
    const archived = await enforceRetention(deps.admin, {
      archiveRoot: deps.archiveDir,
      now: deps.clock(),
      log: (line) => deps.logger.info(line),
    });
    deps.logger.info('session archive finished', { archived: archived.length });
  },
};
