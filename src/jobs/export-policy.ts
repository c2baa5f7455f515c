/**
 * How the export pool behaves, stated once: how many exports run at a time and per account, how a
 * run shows it is alive and how soon a dead one is resumed, how long files are kept, and how long
 * an export waits for data being loaded. Constants rather than configuration for now; each is a
 * candidate for a variable of src/config.ts.
 */

/** Exports run at a time by the process that runs the jobs (each worker takes one job at a time). */
export const EXPORT_WORKERS = 4;

/**
 * Exports one account may run at a time: half the workers, so one account's five queued exports
 * leave the other workers to other accounts. Its others are parked and sent back to the queue
 * (behind what other accounts queued meanwhile) as its runs end.
 */
export const EXPORT_RUNS_PER_ACCOUNT = 2;

/** How often an idle export worker asks for a job (pg-boss polls every 2 s by default; 0.5 s is its minimum). */
export const EXPORT_POLL_SECONDS = 0.5;

/** Runs of one export before it fails for good (a crash of its process counts as one). */
export const EXPORT_ATTEMPTS = 3;

/** A running export renews its lease this often. */
export const EXPORT_HEARTBEAT_MS = 5_000;

/**
 * A lease not renewed for this long belongs to a dead (or hung) process: four missed heartbeats.
 * With the sweep below, a crashed export shows `retrying` and runs again within
 * EXPORT_LEASE_MS + EXPORT_SWEEP_MS (25 s) of its last heartbeat.
 */
export const EXPORT_LEASE_MS = 20_000;

/** How often the process running the jobs looks for dead runs, lost jobs, parked exports and expired files. */
export const EXPORT_SWEEP_MS = 5_000;

/** An export with no run and no job sent for this long lost its job and is sent again. */
export const EXPORT_RESEND_MS = 60_000;

/** A ready export's file is kept this long (expires_timestamp); then it is deleted and its download answers 410. */
export const EXPORT_FILE_RETENTION_MS = 24 * 60 * 60 * 1000;

/**
 * How long an export waits for its data: while the target route answers 503 (an archived session
 * being loaded), the export is sent back to the queue after the route's Retry-After (at most
 * EXPORT_DATA_WAIT_MAX_MS each time), and fails with the route's code after this long.
 */
export const EXPORT_DATA_PENDING_MAX_MS = 30 * 60 * 1000;
export const EXPORT_DATA_WAIT_MAX_MS = 30_000;
