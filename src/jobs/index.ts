/** Every background queue, declared here and wired by one registerWorkers(boss). */
import PgBoss from 'pg-boss';
import { exportJob } from './export.js';
import { requestLogRetention } from './request-log-retention.js';
import { sessionArchive } from './session-archive.js';
import { sessionLoad } from './session-load.js';
import type { JobDefinition, JobDeps } from './types.js';

// Each job reads its own data shape; `never` lets one list hold them all.
export const jobs: readonly JobDefinition<never>[] = [requestLogRetention, sessionLoad, sessionArchive, exportJob];

export async function startJobs(connectionString: string, deps: JobDeps): Promise<PgBoss> {
  const boss = new PgBoss({ connectionString, application_name: 'oads-jobs', max: 4 });
  boss.on('error', (error) => deps.logger.error('job queue error', { error: error.message }));
  await boss.start();
  await registerWorkers(boss, deps);
  return boss;
}

export async function registerWorkers(boss: PgBoss, deps: JobDeps): Promise<void> {
  for (const job of jobs) {
    await boss.createQueue(job.name, { name: job.name, ...job.options });
    await boss.work<object>(job.name, async ([first]) => {
      await job.handler(deps, (first?.data ?? {}) as never);
    });
    if (job.schedule) await boss.schedule(job.name, job.schedule, {}, { tz: 'UTC' });
  }
}
