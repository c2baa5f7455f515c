/** Every background queue, declared here and wired by one registerWorkers(boss). */
import PgBoss from 'pg-boss';
import { holdDeploymentLock } from '../db/duties.js';
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
  // pg-boss creates a queue's partition without a lock of its own: two machines creating the same
  // queue at once deadlock (each holds, from its insert, a lock on pg-boss's queue table that the
  // other's new foreign key needs). Machines started together create them one after another.
  const release = await holdDeploymentLock(connectionString, 'job-queues', () =>
    deps.logger.info('waiting for another machine creating the job queues'),
  );
  try {
    await registerWorkers(boss, deps);
  } finally {
    await release();
  }
  return boss;
}

/**
 * Creates each queue and starts its workers: `workers` of them (pg-boss 10 runs one handler at a
 * time per worker, so a pool is that many workers), each taking one job at a time and polling as
 * `work` says; then its schedule and its supervisor.
 */
export async function registerWorkers(boss: PgBoss, deps: JobDeps): Promise<void> {
  for (const job of jobs) {
    await boss.createQueue(job.name, { name: job.name, ...job.options });
    for (let i = 0; i < (job.workers ?? 1); i += 1) {
      await boss.work<object>(job.name, { ...job.work, batchSize: 1 }, async ([first]) => {
        await job.handler(deps, (first?.data ?? {}) as never);
      });
    }
    if (job.schedule) await boss.schedule(job.name, job.schedule, {}, { tz: 'UTC' });
    job.supervise?.(boss, deps);
  }
}
