/**
 * The ledger around a load: a file already loaded (same checksum and kind) is not read again, and a
 * load's counts are checked (load-counts.ts) and the file recorded after its write, in the same
 * transaction, so a file is recorded exactly when its rows are.
 */
import type { Database, Queryable } from '../db/connection.js';
import { findIngestedFile, recordIngestedFile } from '../db/ingest-files.js';
import { checkLoadCounts } from './load-counts.js';
import type { IngestKind } from './layouts.js';
import { alreadyLoadedResult, emptyResult, fileChecksum, type LoadOptions, type MarketLoadResult } from './source.js';
import type { VendorKind } from './vendors.js';

/** Told of every file loaded in this process: its kind, rows written and seconds taken. */
export type LoadListener = (kind: string, rows: number, seconds: number) => void;

const loadListeners = new Set<LoadListener>();

/** Follows the loads of this process (the metrics' ingest rows); returns the unsubscribe. */
export function onFileLoaded(listener: LoadListener): () => void {
  loadListeners.add(listener);
  return () => loadListeners.delete(listener);
}

/** Tells the listeners of a file's load, begun at `started` (performance.now()). */
export function fileLoaded(result: MarketLoadResult, started: number): void {
  const seconds = (performance.now() - started) / 1000;
  for (const listener of loadListeners) listener(result.kind, result.loaded, seconds);
}

/**
 * Runs a load unless the ledger has the file: `run` reads the file into `result` and returns the
 * write, which runs in one transaction with the count check and the ledger's record.
 */
export async function ledgered(
  db: Database,
  file: string,
  kind: IngestKind | VendorKind,
  options: LoadOptions,
  run: (result: MarketLoadResult) => Promise<(trx: Queryable) => Promise<void>>,
): Promise<MarketLoadResult> {
  const started = performance.now();
  const result = emptyResult(file, kind);
  const checksum = await fileChecksum(file);
  if (!options.force) {
    const before = await findIngestedFile(db, checksum, kind);
    if (before !== null) return alreadyLoadedResult(file, kind, before.read);
  }
  const write = await run(result);
  await db.transaction().execute(async (trx) => {
    await write(trx);
    checkLoadCounts(result);
    await recordIngestedFile(trx, {
      checksum,
      kind,
      fileName: file,
      read: result.read,
      loaded: result.loaded,
      rejected: result.rejected.length,
      duplicates: result.duplicates,
    });
  });
  fileLoaded(result, started);
  return result;
}
