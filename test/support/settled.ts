/**
 * Waiting in tests on state, never on the wall clock (a fixed sleep is too short on a loaded machine
 * and too long everywhere else). settled() reads a state (a job's, a row's, the server's) until a
 * condition holds, and on time-out fails naming what it waited for and what it last saw. pg-boss 10 emits no event when a job completes, so the only
 * honest wait is a short poll of the job's state, and the poll lives here alone. settledJob() is
 * settled() on a pg-boss job found by its singleton key.
 */
import { sql, type QueryExecutorProvider } from 'kysely';

export interface SettleOptions {
  /** What is waited for, as the time-out error should name it. */
  what: string;
  /** Default 10 s; a deadline already past still reads the state once. */
  timeoutMs?: number;
}

const show = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** Reads `read()` until `until` holds of its value, and returns that value. */
export async function settled<T>(read: () => T | Promise<T>, until: (value: T) => boolean, options: SettleOptions): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = performance.now() + timeoutMs;
  let pauseMs = 5;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    const left = deadline - performance.now();
    if (left <= 0) throw new Error(`Timed out after ${Math.round(timeoutMs)} ms waiting for ${options.what}; last seen: ${show(value)}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(pauseMs, left)));
    pauseMs = Math.min(pauseMs * 2, 50);
  }
}

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface JobSnapshot {
  id: string;
  state: JobState;
  /** What the handler returned, or the error of its last failed attempt. */
  output: unknown;
}

const FINAL: readonly JobState[] = ['completed', 'failed', 'cancelled'];

/**
 * Waits until the pg-boss job of `queue` sent with `singletonKey` (an export's id, a session
 * load's date) has finished, whatever the outcome: completed, failed after its retries, or
 * cancelled. Reads the rows that boss.getJobById reads (the job table, then the archive), through
 * the test's own database connection, so it needs no handle on the service's queue client.
 */
export async function settledJob(
  db: QueryExecutorProvider,
  queue: string,
  singletonKey: string,
  options: { timeoutMs?: number } = {},
): Promise<JobSnapshot> {
  const read = async (): Promise<JobSnapshot | null> => {
    const { rows } = await sql<JobSnapshot>`
      select id::text as id, state::text as state, output, created_on from pgboss.job where name = ${queue} and singleton_key = ${singletonKey}
      union all
      select id::text, state::text, output, created_on from pgboss.archive where name = ${queue} and singleton_key = ${singletonKey}
      order by created_on desc
      limit 1`.execute(db);
    const row = rows[0];
    return row ? { id: row.id, state: row.state, output: row.output } : null;
  };
  const job = await settled(read, (j) => j !== null && FINAL.includes(j.state), {
    what: `the ${queue} job ${singletonKey} to finish`,
    timeoutMs: options.timeoutMs,
  });
  if (!job) throw new Error(`no ${queue} job ${singletonKey}`);
  return job;
}
