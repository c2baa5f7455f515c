/**
 * The export pool's supervisor, run by the process that runs the jobs at its start and every
 * EXPORT_SWEEP_MS after: it resumes exports whose run died (a lease not renewed for EXPORT_LEASE_MS:
 * the export shows `retrying` with its revision increased and is queued again, or fails after
 * EXPORT_ATTEMPTS runs), sends again the exports whose job was lost, hands parked exports back to
 * the queue when their account has a free run, and deletes the files of expired exports. Every
 * step reads the store, so a sweep after a restart, or by another process, finds the same work.
 *
 * Every machine's job process sweeps; each piece of work is taken once for the deployment by the
 * statement that takes it: a dead run is ended only by the sweep whose endRun still finds its run
 * id (the others find it gone and do nothing), a lost export is marked sent by one UPDATE …
 * RETURNING, parked exports are woken under their account's row lock. Files held in the database
 * (EXPORT_STORE=database) are deleted by whichever machine sweeps first. A file on a machine's own
 * disk (EXPORT_STORE=disk, meant for one machine) is deleted only when that machine sweeps first: a
 * sweep of another machine forgets it, and it stays on its machine's disk.
 */
import type PgBoss from 'pg-boss';
import {
  accountsWithParkedExports,
  endRun,
  expiredExportFiles,
  forgetExportFile,
  staleRuns,
  takeLostExports,
  wakeParkedExports,
} from '../db/exports.js';
import { deleteExportChunks, runOfDatabaseFile } from '../db/export-chunks.js';
import type { ServiceDeps } from '../service.js';
import { exportRunFilePath, removeFile } from './export-file.js';
import { EXPORT_ATTEMPTS, EXPORT_LEASE_MS, EXPORT_RESEND_MS, EXPORT_RUNS_PER_ACCOUNT, EXPORT_SWEEP_MS } from './export-policy.js';
import { jobQueue, type JobQueue } from './queue.js';
import type { JobDeps } from './types.js';

/** Files deleted per sweep at most; the next sweep takes the rest. */
const EXPIRED_FILES_PER_SWEEP = 500;

/** Sends the account's parked exports back to the queue, as many as it has free runs. */
export async function wakeAccount(service: ServiceDeps, queue: JobQueue, accountId: string): Promise<number> {
  const ids = await wakeParkedExports(service.db, accountId, {
    perAccount: EXPORT_RUNS_PER_ACCOUNT,
    leaseMs: EXPORT_LEASE_MS,
    resendMs: EXPORT_RESEND_MS,
  });
  for (const id of ids) await queue.submitExport(id);
  return ids.length;
}

export interface SweepOutcome {
  resumed: number;
  failed: number;
  resent: number;
  woken: number;
  filesDeleted: number;
}

export async function sweepExports(service: ServiceDeps, queue: JobQueue): Promise<SweepOutcome> {
  const { db, logger } = service;
  const outcome: SweepOutcome = { resumed: 0, failed: 0, resent: 0, woken: 0, filesDeleted: 0 };

  for (const run of await staleRuns(db, EXPORT_LEASE_MS)) {
    if (run.run_id === null) continue;
    const final = run.attempts >= EXPORT_ATTEMPTS;
    const ended = final
      ? await endRun(db, run.id, run.run_id, {
          status: 'failed',
          failed_at: new Date(service.clock()),
          error_code: 'internal_error',
          failure_reason: `The export was interrupted ${run.attempts} times (its worker stopped).`,
        })
      : await endRun(db, run.id, run.run_id, { status: 'retrying' }, { sent: true });
    await removeFile(exportRunFilePath(service.config.dataDir, run.id, run.run_id));
    // The chunks a run that died while storing its file had written (on any machine).
    await deleteExportChunks(db, run.id, run.run_id);
    if (!ended) continue;
    logger.info(final ? 'export failed: its runs were interrupted' : 'export resumed: its run was interrupted', {
      export_id: run.id,
      attempts: run.attempts,
    });
    if (final) {
      outcome.failed += 1;
    } else {
      await queue.submitExport(run.id);
      outcome.resumed += 1;
    }
  }

  for (const id of await takeLostExports(db, EXPORT_RESEND_MS)) {
    await queue.submitExport(id);
    outcome.resent += 1;
  }

  for (const accountId of await accountsWithParkedExports(db)) outcome.woken += await wakeAccount(service, queue, accountId);

  for (const file of await expiredExportFiles(db, new Date(service.clock()), EXPIRED_FILES_PER_SWEEP)) {
    const storedBy = runOfDatabaseFile(file.file_path);
    if (storedBy === null) await removeFile(file.file_path);
    else await deleteExportChunks(db, file.id, storedBy);
    await forgetExportFile(db, file.id, file.file_path);
    outcome.filesDeleted += 1;
  }
  return outcome;
}

/**
 * Runs sweepExports at once (recovery at start-up) and every EXPORT_SWEEP_MS, one at a time, until
 * the queue client stops. A sweep that fails (the database away) is logged and tried again.
 */
export function superviseExports(boss: PgBoss, deps: JobDeps): void {
  const service = deps.service?.deps;
  if (!service) return;
  const queue = jobQueue(boss);
  let stopped = false;
  let sweeping = false;
  const sweep = async (): Promise<void> => {
    if (sweeping || stopped) return;
    sweeping = true;
    try {
      await sweepExports(service, queue);
    } catch (error) {
      if (!stopped) service.logger.error('export sweep failed', { error: error instanceof Error ? error.message : String(error) });
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), EXPORT_SWEEP_MS);
  timer.unref();
  boss.once('stopped', () => {
    stopped = true;
    clearInterval(timer);
  });
  void sweep();
}
