/**
 * What every market-data load shares: the file's checksum (a file already loaded is a no-op),
 * canonical records from a canonical or vendor file with rejects and skips counted, the result
 * counts and progress lines on long files.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { OptionRoot } from '../analytics/roots.js';
import { optionRoot } from '../analytics/roots.js';
import type { ContractSpec } from '../db/option-contracts.js';
import type { ContractRef } from './canonical.js';
import type { IngestKind } from './layouts.js';
import { readRecordBatches, RecordError, type CsvLineTaker, type RecordRange } from './records.js';
import type { VendorAdapter, VendorKind } from './vendors.js';

export interface LoadOptions {
  /** Progress lines (a line about every million records on long files). */
  log?: (line: string) => void;
  /** Load even when the ledger says this file was loaded. */
  force?: boolean;
  /** Records between progress lines (default 1,000,000). */
  progressEvery?: number;
  /** The longest line read, in characters (default records.ts MAX_LINE_LENGTH); a longer one is rejected. */
  maxLineLength?: number;
}

/** A record not loaded for a fault of its own: its 1-based line and why. */
export interface Reject {
  line: number;
  reason: string;
}

/**
 * What a load did with the records it read. Each record read is counted in exactly one outcome,
 * so that read = loaded + rejected + duplicates + skipped + superseded + the four cancel outcomes
 * (load-counts.ts checks it before a load commits, and names the outcomes).
 */
export interface MarketLoadResult {
  file: string;
  kind: IngestKind | VendorKind;
  /** Data records read (the header, comments and blank lines aside). */
  read: number;
  /** Rows written to the store (a cancelled print is written, marked, as the store keeps it). */
  loaded: number;
  rejected: Reject[];
  /**
   * Records that add nothing new: a repeat of a record before it in the file, a row the store
   * already holds (a print of the same date, contract and sequence), or, for a file loaded before
   * and not forced, every record of it.
   */
  duplicates: number;
  /** Records that are not data of this kind (vendor files mixing record types). */
  skipped: number;
  /** Quote updates not kept: another update of the same contract and minute is later, in the file or the store (one sample a minute is kept). */
  superseded: number;
  /** Cancel records (never stored themselves) that cancelled a print of the same file. */
  cancels: number;
  /** Cancel records that cancelled a print stored by an earlier load (an earlier file of the date). */
  cancelsOfStored: number;
  /** Cancel records whose cancel of a stored print an earlier load of this same file applied (a forced reload). */
  cancelsAlreadyApplied: number;
  /** Cancel records that found no print to cancel, in the file or the store. */
  cancelsUnmatched: number;
  /** The same file (by checksum) was loaded before: nothing was written. */
  alreadyLoaded: boolean;
}

export function emptyResult(file: string, kind: IngestKind | VendorKind): MarketLoadResult {
  return {
    file,
    kind,
    read: 0,
    loaded: 0,
    rejected: [],
    duplicates: 0,
    skipped: 0,
    superseded: 0,
    cancels: 0,
    cancelsOfStored: 0,
    cancelsAlreadyApplied: 0,
    cancelsUnmatched: 0,
    alreadyLoaded: false,
  };
}

/**
 * The result of a file the ledger holds (same checksum and kind), not read again: its records, as
 * many as its earlier load read, all counted as duplicates of that load.
 */
export function alreadyLoadedResult(file: string, kind: IngestKind | VendorKind, read: number): MarketLoadResult {
  return { ...emptyResult(file, kind), read, duplicates: read, alreadyLoaded: true };
}

/** SHA-256 of the file, read in 1 MiB chunks: on large files, fewer reads than the default 64 KiB and faster. */
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
  if (result.read % (options.progressEvery ?? 1_000_000) === 0)
    options.log?.(`${file}: read ${result.read.toLocaleString('en-US')} records`);
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
  for await (const records of readRecordBatches(file, range, adapter === null ? take : undefined, options.maxLineLength)) {
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
export async function* canonicalRecords(
  file: string,
  adapter: VendorAdapter | null,
  result: MarketLoadResult,
  options: LoadOptions,
): AsyncGenerator<CanonicalRecord> {
  for await (const batch of canonicalRecordBatches(file, adapter, result, options)) yield* batch;
}

/** The reference root, or for a root the platform does not list, an equity-style root of its own. */
export function rootInfo(root: string): OptionRoot {
  return (
    optionRoot(root) ?? {
      root,
      family: root,
      underlying: root,
      multiplier: 100,
      kind: 'equity',
      overnight: false,
      curb: false,
      amSettled: false,
    }
  );
}

/** The contract to store for a symbol read from a file, with the root's defaults for what the file leaves out. */
export function contractSpec(c: ContractRef, root: OptionRoot, underlying?: string | null, multiplier?: number | null): ContractSpec {
  return {
    symbol: c.symbol,
    root: c.root,
    underlying: underlying ?? root.underlying,
    dateOfExpiry: c.dateOfExpiry,
    type: c.type,
    strikeThousandths: c.strikeThousandths,
    multiplier: multiplier ?? root.multiplier,
  };
}
