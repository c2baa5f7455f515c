/**
 * Export files held in the database (migration 20261128T120000, EXPORT_STORE=database): a run's
 * finished file in chunks under its run id, so that any machine of the deployment serves the
 * download, whichever ran the export and whether it still lives. An export's `file_path` names
 * such a file `database:<run id>` (databaseFilePath); a path without that prefix is a file on the
 * local disk (EXPORT_STORE=disk, the single machine's default).
 *
 * Chunks are written fenced by the run's lease (only the run holding the export adds them), so a
 * run judged dead and taken over adds nothing; the chunks of a run that did not finish are deleted
 * by the run itself, or by the sweep that resumes it, and an export's chunks go with it.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

const PREFIX = 'database:';

/** The `file_path` of an export whose file the run `runId` stored in the database. */
export function databaseFilePath(runId: string): string {
  return `${PREFIX}${runId}`;
}

/** The run whose chunks hold the file of this `file_path`, or null for a file on the local disk. */
export function runOfDatabaseFile(filePath: string): string | null {
  return filePath.startsWith(PREFIX) ? filePath.slice(PREFIX.length) : null;
}

/**
 * Adds chunk `seq` of a run's file, only while the run holds the export's lease; false (nothing
 * written) when it no longer does.
 */
export async function addExportChunk(db: Queryable, id: string, runId: string, seq: number, bytes: Buffer): Promise<boolean> {
  const result = await sql`
    insert into export_chunks (export_id, run_id, seq, bytes)
    select ${id}, ${runId}, ${seq}, ${bytes}
    where exists (select 1 from exports where id = ${id} and run_id = ${runId})`.execute(db);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

/** Chunk `seq` of a run's file, or null past its last. */
export async function exportChunk(db: Queryable, id: string, runId: string, seq: number): Promise<Buffer | null> {
  const result = await sql<{ bytes: Buffer }>`
    select bytes from export_chunks where export_id = ${id} and run_id = ${runId} and seq = ${seq}`.execute(db);
  return result.rows[0]?.bytes ?? null;
}

/** Whether the run's file has its first chunk stored (a file of no bytes has none, and is never made: a file always has its end). */
export async function hasExportChunks(db: Queryable, id: string, runId: string): Promise<boolean> {
  const result = await sql<{ held: boolean }>`
    select exists (select 1 from export_chunks where export_id = ${id} and run_id = ${runId}) as held`.execute(db);
  return result.rows[0]?.held === true;
}

/** Deletes a run's chunks (a run that did not finish, or an expired file); returns how many. */
export async function deleteExportChunks(db: Queryable, id: string, runId: string): Promise<number> {
  const result = await sql`delete from export_chunks where export_id = ${id} and run_id = ${runId}`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
