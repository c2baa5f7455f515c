/** The ledger of loaded files (ingest_files): a file already loaded, by checksum and kind, is not loaded again. */
import type { Queryable } from './connection.js';

export interface IngestedFile {
  checksum: string;
  kind: string;
  fileName: string;
  read: number;
  loaded: number;
  rejected: number;
  duplicates: number;
}

export async function findIngestedFile(db: Queryable, checksum: string, kind: string): Promise<IngestedFile | null> {
  const row = await db.selectFrom('ingest_files').selectAll().where('checksum', '=', checksum).where('kind', '=', kind).executeTakeFirst();
  return row
    ? {
        checksum: row.checksum,
        kind: row.kind,
        fileName: row.file_name,
        read: row.read,
        loaded: row.loaded,
        rejected: row.rejected,
        duplicates: row.duplicates,
      }
    : null;
}

export async function recordIngestedFile(db: Queryable, file: IngestedFile): Promise<void> {
  await db
    .insertInto('ingest_files')
    .values({
      checksum: file.checksum,
      kind: file.kind,
      file_name: file.fileName,
      read: file.read,
      loaded: file.loaded,
      rejected: file.rejected,
      duplicates: file.duplicates,
    })
    .onConflict((oc) => oc.columns(['checksum', 'kind']).doNothing())
    .execute();
}

/** Forgets the loaded files of some kinds (a session dropped from the hot store may load again). */
export async function forgetIngestedFiles(db: Queryable, fileNames: readonly string[]): Promise<void> {
  if (fileNames.length === 0) return;
  await db
    .deleteFrom('ingest_files')
    .where('file_name', 'in', [...fileNames])
    .execute();
}
