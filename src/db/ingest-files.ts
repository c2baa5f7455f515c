/** The ledger of loaded files (ingest_files): a file already loaded, by checksum and kind, is not loaded again. */
import pg from 'pg';
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

/**
 * Holds the load of one file (`identity`: its real path) against another process loading it at
 * once: a PostgreSQL advisory lock on a connection of its own (outside the pools, whose
 * connections the load needs), taken at once or, after `onWait` is told, when the other load
 * ends. Two loads of one file would otherwise both find it not loaded, and both create its
 * dates' tables. The returned function ends the session, which releases the lock (as the
 * process's death would).
 */
export async function holdFileLoad(connectionString: string, identity: string, onWait: () => void): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString, application_name: 'oads-ingest-lock' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const key = `oads-ingest-file:${identity}`;
    const tried = await client.query<{ held: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as held', [key]);
    if (tried.rows[0]?.held !== true) {
      onWait();
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return async () => {
    await client.end().catch(() => undefined);
  };
}
