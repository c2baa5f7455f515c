/**
 * Export jobs: one row per export, the state the export routes serve while the export pool
 * (jobs/export.ts) works on it. Every served change increases `revision`, so two reads show whether
 * it changed in between. An insert locks the account row, so concurrent requests cannot pass the
 * account's limit of active exports; claiming a run and waking parked exports lock it too, so an
 * account never runs more than its share of the workers.
 *
 * A run holds a lease: `run_id` with a `heartbeat_at` renewed while it lives, compared with the
 * database's clock (not a process's) so every process judges a lease alike. Writes of a run are
 * fenced by its run id: a run whose lease was taken over (its process was judged dead) changes
 * nothing.
 */
import { sql, type Selectable } from 'kysely';
import type { Database, Queryable } from './connection.js';
import type { ExportFormat, ExportsTable } from './schema.js';

export type ExportStatus = ExportsTable['status'];

export type ExportRow = Selectable<ExportsTable>;

/** Exports that hold a slot of the account's limit: queued or retrying (running jobs stay queued). */
export const ACTIVE_EXPORT_STATUSES: readonly ExportStatus[] = ['queued', 'retrying'];

/** Fields a finished or released run may set (the lease columns are the run's own business). */
export type RunChanges = Partial<
  Omit<ExportRow, 'id' | 'account_id' | 'revision' | 'created_at' | 'query' | 'format' | 'run_id' | 'heartbeat_at' | 'attempts'>
>;

/** A lease is live while its heartbeat is younger than `leaseMs` by the database's clock. */
const liveLease = (leaseMs: number) =>
  sql<boolean>`(run_id is not null and heartbeat_at > now() - ${leaseMs}::integer * interval '1 millisecond')`;

export async function countActiveExports(db: Queryable, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('exports')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('account_id', '=', accountId)
    .where('status', 'in', ACTIVE_EXPORT_STATUSES)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * The export files an account holds at `now` (ready and not expired: an expired file answers 410 and
 * is deleted by the next sweep): their bytes, and the soonest expiry.
 */
export async function exportFilesHeld(db: Queryable, accountId: string, now: Date): Promise<{ bytes: number; firstExpiry: Date | null }> {
  const row = await db
    .selectFrom('exports')
    .select([sql<string>`coalesce(sum(bytes), 0)::text`.as('bytes'), sql<Date | null>`min(expires_at)`.as('first_expiry')])
    .where('account_id', '=', accountId)
    .where('status', '=', 'ready')
    .where('file_path', 'is not', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return { bytes: Number(row.bytes), firstExpiry: row.first_expiry };
}

export type ExportInsert =
  | { outcome: 'inserted'; row: ExportRow }
  /** The account already has `activeLimit` exports queued or running. */
  | { outcome: 'active_limit' }
  /** The account's files already hold `bytesLimit` bytes or more. */
  | { outcome: 'bytes_limit'; bytes: number; firstExpiry: Date | null };

/**
 * Inserts a queued export unless the account already has `activeLimit` active ones or its files hold
 * `bytesLimit` bytes; the account row is locked meanwhile so two simultaneous requests cannot both
 * take the last slot. The caller sends its job next (sent_at).
 */
export async function insertExportWithinLimit(
  db: Queryable,
  job: { id: string; account_id: string; operation_id: string; path: string; query: Record<string, string>; format?: ExportFormat },
  limits: { activeLimit: number; bytesLimit: number; now: Date },
): Promise<ExportInsert> {
  return await db.transaction().execute(async (trx): Promise<ExportInsert> => {
    await trx.selectFrom('accounts').select('id').where('id', '=', job.account_id).forUpdate().executeTakeFirst();
    if ((await countActiveExports(trx, job.account_id)) >= limits.activeLimit) return { outcome: 'active_limit' };
    const held = await exportFilesHeld(trx, job.account_id, limits.now);
    if (held.bytes >= limits.bytesLimit) return { outcome: 'bytes_limit', ...held };
    const row = await trx
      .insertInto('exports')
      .values({ ...job, query: JSON.stringify(job.query), status: 'queued', sent_at: sql<Date>`now()` })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { outcome: 'inserted', row };
  });
}

export async function findExport(db: Queryable, id: string): Promise<ExportRow | null> {
  return (await db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function updateExport(
  db: Queryable,
  id: string,
  changes: Partial<Omit<ExportRow, 'id' | 'account_id' | 'revision' | 'created_at' | 'query' | 'format'>>,
): Promise<void> {
  await db
    .updateTable('exports')
    .set({ ...changes, revision: sql<number>`revision + 1` })
    .where('id', '=', id)
    .execute();
}

export type Claim =
  /** The run holds the export: the row as it now is (attempts counted, revision increased). */
  | { outcome: 'claimed'; row: ExportRow; resumed: boolean }
  /** Nothing to do: no such export, or it is ready or failed. */
  | { outcome: 'done' }
  /** Another run holds a live lease on it. */
  | { outcome: 'running' }
  /** The account already runs `perAccount` exports: set aside until a run of the account ends. */
  | { outcome: 'parked' };

/**
 * Takes the lease of an export for a new run, unless it is finished, held by a live run, or its
 * account already runs `perAccount` exports (then it is parked). A stale lease (its process died)
 * is taken over; the export then shows `retrying`. Locks the account row, then the export's.
 */
export async function claimExport(
  db: Database,
  id: string,
  run: { runId: string; perAccount: number; leaseMs: number; now: Date },
): Promise<Claim> {
  return await db.transaction().execute(async (trx): Promise<Claim> => {
    const head = await trx.selectFrom('exports').select('account_id').where('id', '=', id).executeTakeFirst();
    if (!head) return { outcome: 'done' };
    await trx.selectFrom('accounts').select('id').where('id', '=', head.account_id).forUpdate().executeTakeFirst();
    const row = await trx
      .selectFrom('exports')
      .selectAll()
      .select(liveLease(run.leaseMs).as('live'))
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row || !ACTIVE_EXPORT_STATUSES.includes(row.status)) return { outcome: 'done' };
    if (row.live) return { outcome: 'running' };
    const others = await trx
      .selectFrom('exports')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', head.account_id)
      .where('id', '<>', id)
      .where('status', 'in', ACTIVE_EXPORT_STATUSES)
      .where(liveLease(run.leaseMs))
      .executeTakeFirstOrThrow();
    if (others.n >= run.perAccount) {
      await trx
        .updateTable('exports')
        .set({ parked_at: sql<Date>`now()`, sent_at: null })
        .where('id', '=', id)
        .execute();
      return { outcome: 'parked' };
    }
    const resumed = row.run_id !== null;
    const claimed = await trx
      .updateTable('exports')
      .set({
        run_id: run.runId,
        heartbeat_at: sql<Date>`now()`,
        attempts: sql<number>`attempts + 1`,
        last_attempt_at: run.now,
        parked_at: null,
        sent_at: null,
        status: resumed ? 'retrying' : row.status,
        revision: sql<number>`revision + 1`,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { outcome: 'claimed', row: claimed, resumed };
  });
}

/** Renews a run's lease; false when the run no longer holds it (taken over, or the export is gone). */
export async function renewLease(db: Queryable, id: string, runId: string): Promise<boolean> {
  const result = await db
    .updateTable('exports')
    .set({ heartbeat_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Ends a run: applies its outcome and gives up the lease, only if the run still holds it. The
 * revision increases unless `served` is false (a change no reader of the export can see).
 * `attemptsBack` un-counts the run's attempt (it waited for data rather than failed); `sent`
 * records that the caller sends a job for the export next.
 */
export async function endRun(
  db: Queryable,
  id: string,
  runId: string,
  changes: RunChanges,
  options: { served?: boolean; attemptsBack?: boolean; sent?: boolean } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('exports')
    .set({
      ...changes,
      run_id: null,
      heartbeat_at: null,
      ...(options.served === false ? {} : { revision: sql<number>`revision + 1` }),
      ...(options.attemptsBack ? { attempts: sql<number>`greatest(attempts - 1, 0)` } : {}),
      ...(options.sent ? { sent_at: sql<Date>`now()` } : {}),
    })
    .where('id', '=', id)
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Active exports whose run's heartbeat is older than `leaseMs`: their process died or hangs. */
export async function staleRuns(db: Queryable, leaseMs: number): Promise<Pick<ExportRow, 'id' | 'account_id' | 'run_id' | 'attempts'>[]> {
  return await db
    .selectFrom('exports')
    .select(['id', 'account_id', 'run_id', 'attempts'])
    .where('run_id', 'is not', null)
    .where('status', 'in', ACTIVE_EXPORT_STATUSES)
    .where(sql<boolean>`heartbeat_at <= now() - ${leaseMs}::integer * interval '1 millisecond'`)
    .orderBy('heartbeat_at')
    .execute();
}

/** `sent_at` within the last `resendMs`: a job sent for the export is presumably still on its way. */
const sentWithin = (resendMs: number) =>
  sql<boolean>`(sent_at is not null and sent_at > now() - ${resendMs}::integer * interval '1 millisecond')`;

/** Accounts with parked exports. */
export async function accountsWithParkedExports(db: Queryable): Promise<string[]> {
  const rows = await db
    .selectFrom('exports')
    .select('account_id')
    .distinct()
    .where('parked_at', 'is not', null)
    .where('status', 'in', ACTIVE_EXPORT_STATUSES)
    .execute();
  return rows.map((r) => r.account_id);
}

/**
 * The account's oldest parked exports, as many as it has free runs (its share less its live runs
 * and the parked exports already sent back within `resendMs`), marked sent: the caller sends a job
 * for each. A parked export sent back longer ago and still parked (its job was lost) is sent again.
 */
export async function wakeParkedExports(
  db: Database,
  accountId: string,
  options: { perAccount: number; leaseMs: number; resendMs: number },
): Promise<string[]> {
  return await db.transaction().execute(async (trx) => {
    await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
    const busy = await trx
      .selectFrom('exports')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('account_id', '=', accountId)
      .where('status', 'in', ACTIVE_EXPORT_STATUSES)
      .where((eb) => eb.or([liveLease(options.leaseMs), eb.and([eb('parked_at', 'is not', null), sentWithin(options.resendMs)])]))
      .executeTakeFirstOrThrow();
    const free = options.perAccount - busy.n;
    if (free <= 0) return [];
    const woken = await trx
      .updateTable('exports')
      .set({ sent_at: sql<Date>`now()` })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('exports')
          .select('id')
          .where('account_id', '=', accountId)
          .where('status', 'in', ACTIVE_EXPORT_STATUSES)
          .where('parked_at', 'is not', null)
          .where(sql<boolean>`not ${sentWithin(options.resendMs)}`)
          .orderBy('created_at')
          .limit(free),
      )
      .returning('id')
      .execute();
    return woken.map((r) => r.id);
  });
}

/**
 * Active exports that no run holds, not parked, and for which no job was sent within `resendMs`:
 * their job was lost (a send that failed, a job given up by the queue). Marked sent; the caller
 * sends a job for each. A duplicate job is harmless: its claim finds the export running or done.
 */
export async function takeLostExports(db: Queryable, resendMs: number): Promise<string[]> {
  const rows = await db
    .updateTable('exports')
    .set({ sent_at: sql<Date>`now()` })
    .where('status', 'in', ACTIVE_EXPORT_STATUSES)
    .where('run_id', 'is', null)
    .where('parked_at', 'is', null)
    .where(sql<boolean>`not ${sentWithin(resendMs)}`)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Ready exports whose file has passed its expiry, oldest first. */
export async function expiredExportFiles(db: Queryable, now: Date, limit: number): Promise<{ id: string; file_path: string }[]> {
  const rows = await db
    .selectFrom('exports')
    .select(['id', 'file_path'])
    .where('file_path', 'is not', null)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  return rows.flatMap((r) => (r.file_path === null ? [] : [{ id: r.id, file_path: r.file_path }]));
}

/**
 * Records that an expired export's file is deleted. Not a served change (the export already
 * answers 410 from its expiry), so the revision stays.
 */
export async function forgetExportFile(db: Queryable, id: string, filePath: string): Promise<void> {
  await db.updateTable('exports').set({ file_path: null }).where('id', '=', id).where('file_path', '=', filePath).execute();
}
