/**
 * What every market-data load shares: the file's checksum (a file already loaded is a no-op),
 * canonical records from a canonical or vendor file with rejects and skips counted, the result
 * counts and progress lines on long files.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { OptionRoot } from '../analytics/roots.js';
import { optionRoot } from '../analytics/roots.js';
import type { IngestKind } from './layouts.js';
import { readRecordBatches, RecordError, type CsvLineTaker, type RecordRange } from './records.js';
import type { Reject } from './splits.js';
import type { VendorAdapter, VendorKind } from './vendors.js';

export interface LoadOptions {
  /** Progress lines (a line about every million records on long files). */
  log?: (line: string) => void;
  /** Load even when the ledger says this file was loaded. */
  force?: boolean;
  /** Records between progress lines (default 1,000,000). */
  progressEvery?: number;
}

export interface MarketLoadResult {
  file: string;
  kind: IngestKind | VendorKind;
  read: number;
  loaded: number;
  rejected: Reject[];
  duplicates: number;
  /** Records that are not data of this kind (vendor files mixing record types). */
  skipped: number;
  /** The same file (by checksum) was loaded before: nothing was written. */
  alreadyLoaded: boolean;
}

export function emptyResult(file: string, kind: IngestKind | VendorKind): MarketLoadResult {
  return { file, kind, read: 0, loaded: 0, rejected: [], duplicates: 0, skipped: 0, alreadyLoaded: false };
}

/** SHA-256 of the file, read in 1 MiB chunks (858 MB: 0.62 s against 0.75 s in the default 64 KiB, medians of 5). */
export async function fileChecksum(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A data record in canonical fields, with its line number. */
export interface CanonicalRecord {
  line: number;
  fields: Record<string, string>;
}

/** Counts a record read into `result`, with a progress line every `progressEvery` records. */
export function countRead(file: string, result: MarketLoadResult, options: LoadOptions): void {
  result.read += 1;
  if (result.read % (options.progressEvery ?? 1_000_000) === 0) options.log?.(`${file}: read ${result.read.toLocaleString('en-US')} records`);
}

/**
 * Canonical fields of the data records of a file (or of a range of it), with their line numbers,
 * in batches (one per chunk read); rejects and skips are counted into `result` as they are met.
 * With `take` (a canonical file only: no adapter), a CSV file's data lines go to it instead
 * (readRecordBatches), which counts them itself.
 */
export async function* canonicalRecordBatches(
  file: string,
  adapter: VendorAdapter | null,
  result: MarketLoadResult,
  options: LoadOptions,
  range?: RecordRange,
  take?: CsvLineTaker,
): AsyncGenerator<CanonicalRecord[]> {
  for await (const records of readRecordBatches(file, range, adapter === null ? take : undefined)) {
    const batch: CanonicalRecord[] = [];
    for (const record of records) {
      countRead(file, result, options);
      if (record instanceof RecordError) {
        result.rejected.push({ line: record.line, reason: record.message });
        continue;
      }
      if (adapter === null) {
        batch.push(record);
        continue;
      }
      const missing = adapter.required.find((name) => !(name in record.fields));
      if (missing !== undefined) {
        result.rejected.push({ line: record.line, reason: `${adapter.kind} column ${missing} is missing` });
        continue;
      }
      const mapped = adapter.map(record.fields, record.line);
      if (mapped === null) result.skipped += 1;
      else if (typeof mapped === 'string') result.rejected.push({ line: record.line, reason: mapped });
      else batch.push({ line: record.line, fields: mapped });
    }
    yield batch;
  }
}

/** canonicalRecordBatches() one record at a time. */
export async function* canonicalRecords(file: string, adapter: VendorAdapter | null, result: MarketLoadResult, options: LoadOptions): AsyncGenerator<CanonicalRecord> {
  for await (const batch of canonicalRecordBatches(file, adapter, result, options)) yield* batch;
}

/** The reference root, or for a root the platform does not list, an equity-style root of its own. */
export function rootInfo(root: string): OptionRoot {
  return (
    optionRoot(root) ?? { root, family: root, underlying: root, multiplier: 100, kind: 'equity', overnight: false, curb: false, amSettled: false }
  );
}
