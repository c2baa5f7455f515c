/**
 * What the request path may ask of the background jobs, and nothing more: queue an export, ask for
 * an archived session to be loaded back. The workers themselves (ingest, the export runner) are
 * declared in jobs/index.ts and loaded only by the process that runs them, so an HTTP worker that
 * submits a job does not load the ingest pipeline.
 */
import type PgBoss from 'pg-boss';

export const QUEUES = {
  export: 'export',
  sessionLoad: 'session-load',
  sessionArchive: 'session-archive',
  requestLogRetention: 'request-log-retention',
} as const;

/** The port services use (ServiceDeps.jobs). */
export interface JobQueue {
  /** Queues the export of this id (one job per export). */
  submitExport(id: string): Promise<void>;
  /**
   * Asks for an archived session to be loaded back: 'started' when this call queued the load,
   * 'running' when a load of that date is already queued or running.
   */
  requestSessionLoad(date: string): Promise<'started' | 'running'>;
}

export function jobQueue(boss: PgBoss): JobQueue {
  return {
    submitExport: async (id) => {
      await boss.send(QUEUES.export, { id }, { singletonKey: id });
    },
    // The queue's `stately` policy with the date as singleton key keeps at most one load queued and
    // one running per date, however many requests ask.
    requestSessionLoad: async (date) => ((await boss.send(QUEUES.sessionLoad, { date }, { singletonKey: date })) === null ? 'running' : 'started'),
  };
}
