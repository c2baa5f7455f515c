/**
 * Export jobs: one row per export, the state the export routes serve while the export queue
 * (jobs/export.ts) works on it. Every state change goes through updateExport and increases
 * `revision`, which is served with the export, so two reads show whether it changed in between. An
 * insert locks the account row, so concurrent requests cannot pass the account's limit of active
 * exports.
 */
import { sql, type Selectable } from 'kysely';
import type { Queryable } from './connection.js';
import type { ExportsTable } from './schema.js';

export type ExportStatus = ExportsTable['status'];

export type ExportRow = Selectable<ExportsTable>;

/** Exports that hold a slot of the account's limit: queued or retrying (running jobs stay queued). */
export const ACTIVE_EXPORT_STATUSES: readonly ExportStatus[] = ['queued', 'retrying'];

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
 * Inserts a queued export unless the account already has `limit` active ones; the account row is
 * locked meanwhile so two simultaneous requests cannot both take the last slot.
 */
export async function insertExportWithinLimit(
  db: Queryable,
  job: { id: string; account_id: string; operation_id: string; path: string; query: Record<string, string> },
  limit: number,
): Promise<ExportRow | null> {
  return await db.transaction().execute(async (trx) => {
    await trx.selectFrom('accounts').select('id').where('id', '=', job.account_id).forUpdate().executeTakeFirst();
    if ((await countActiveExports(trx, job.account_id)) >= limit) return null;
    return (await trx
      .insertInto('exports')
      .values({ ...job, query: JSON.stringify(job.query), status: 'queued' })
      .returningAll()
      .executeTakeFirstOrThrow());
  });
}

export async function findExport(db: Queryable, id: string): Promise<ExportRow | null> {
  return ((await db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst())) ?? null;
}

export async function updateExport(
  db: Queryable,
  id: string,
  changes: Partial<Omit<ExportRow, 'id' | 'account_id' | 'revision' | 'created_at' | 'query'>>,
): Promise<void> {
  await db
    .updateTable('exports')
    .set({ ...changes, revision: sql<number>`revision + 1` })
    .where('id', '=', id)
    .execute();
}
