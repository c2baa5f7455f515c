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
  /**
   * Queues a run of the export of this id, at once or after `startAfterSeconds` (an export waiting
   * for its data). Sending it twice is harmless: a run claims the export first (jobs/export.ts).
   */
  submitExport(id: string, options?: { startAfterSeconds?: number }): Promise<void>;
  /**
   * Asks for an archived session to be loaded back: 'started' when this call queued the load,
   * 'running' when a load of that date is already queued or running.
   */
  requestSessionLoad(date: string): Promise<'started' | 'running'>;
}

export function jobQueue(boss: PgBoss): JobQueue {
  return {
    // The export id as singleton key names the job (tests find it by it); the queue's standard
    // policy does not make it unique, so an export can be sent again while an old job lingers.
    submitExport: async (id, options = {}) => {
      const startAfter = options.startAfterSeconds ?? 0;
      await boss.send(QUEUES.export, { id }, startAfter > 0 ? { singletonKey: id, startAfter } : { singletonKey: id });
    },
    // The queue's `stately` policy with the date as singleton key keeps at most one load queued and
    // one running per date, however many requests ask.
    requestSessionLoad: async (date) =>
      (await boss.send(QUEUES.sessionLoad, { date }, { singletonKey: date })) === null ? 'running' : 'started',
  };
}
