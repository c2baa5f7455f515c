/**
 * The export file, written as it is read: `{"data":…,"meta":…,"pages":…,"truncated":…}`, the same
 * bytes as JSON.stringify of that object, never above the byte cap. Rows are appended page by page
 * to a temporary file of the run (so a run never holds the whole file in memory, nor two runs one
 * file), each measured before it is taken: the file's final size is known exactly at every row,
 * with the end (meta, page count, truncated) reserved once the meta is known. A payload that is an
 * object, not rows, is taken whole or not at all. The finished file is renamed into place.
 */
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_FORMATS, type ExportFormat } from '../services/export-formats.js';

/**
 * The file of an export, named by the run that wrote it: a run that lost its lease (its process
 * judged dead while it was not) can never overwrite the file of the run that took over.
 */
export function exportFilePath(dataDir: string, id: string, runId: string, format: ExportFormat = 'json'): string {
  return path.join(dataDir, 'exports', `${id}.${runId}.${EXPORT_FORMATS[format].extension}`);
}

/** The temporary file of one run of an export (any format), moved to exportFilePath when complete. */
export function exportRunFilePath(dataDir: string, id: string, runId: string): string {
  return path.join(dataDir, 'exports', `${id}.${runId}.part`);
}

/** Deletes a file; one already gone is fine. */
export async function removeFile(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true });
}

const HEAD = '{"data":';
/** Room kept for the page count: more digits than any count of pages can have. */
const PAGES_DIGITS = String(Number.MAX_SAFE_INTEGER).length;
const byteLength = (text: string): number => Buffer.byteLength(text);

export interface WrittenFile {
  bytes: number;
  /** Strong validator of the bytes (a prefix of their SHA-256). */
  etag: string;
  /** Rows in the file, and whether rows were cut at a cap (a flat file knows it only at its end). */
  rows: number;
  truncated: boolean;
}

/** The strong validator of a file's bytes: a prefix of their SHA-256. */
export const etagOf = (hash: Hash): string => `"${hash.digest('base64url').slice(0, 27)}"`;

/**
 * A writer of an export file, given the route's rows page by page. `addRows` takes rows while they
 * fit under the caps and returns how many it took; `full` turns true once a cap cut rows (a
 * writer that encodes rows in groups may find it only when it encodes a group, rows taken before).
 */
export interface ExportWriter {
  readonly rowCount: number;
  readonly full: boolean;
  addRows(rows: readonly unknown[], maxRows: number): Promise<number>;
  /** Ends the file and moves it to `target`. */
  finish(target: string, pages: number, truncated: boolean): Promise<WrittenFile>;
  /** Closes and deletes the temporary file (a run that did not finish). */
  discard(): Promise<void>;
}

export class ExportFileWriter implements ExportWriter {
  /** The JSON file stops at the first row that does not fit: `addRows` says so by taking fewer. */
  readonly full = false;
  private bytes = 0;
  private rows = 0;
  /** '' until the data member is started; '[' when it holds rows; '{' for a whole payload. */
  private shape: '' | '[' | '{' = '';
  private readonly hash: Hash = createHash('sha256');

  private constructor(
    private readonly handle: FileHandle,
    private readonly file: string,
    private readonly maxBytes: number,
    private readonly metaJson: string,
  ) {}

  /** Opens the run's temporary file; `meta` is the object the file will carry as its meta. */
  static async open(file: string, maxBytes: number, meta: unknown): Promise<ExportFileWriter> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return new ExportFileWriter(await fs.promises.open(file, 'w'), file, maxBytes, JSON.stringify(meta));
  }

  /** Bytes the end of the file takes at most: `,"meta":…,"pages":N,"truncated":false}`. */
  private get reservedEnd(): number {
    return byteLength(`,"meta":${this.metaJson},"pages":,"truncated":false}`) + PAGES_DIGITS;
  }

  get rowCount(): number {
    return this.rows;
  }

  private async write(text: string, length: number): Promise<void> {
    if (text === '') return;
    await this.handle.write(text);
    this.hash.update(text);
    this.bytes += length;
  }

  /**
   * Appends rows while they fit under the byte cap and `maxRows`; returns how many were taken (fewer
   * than given: a cap was reached, and the rest must be left out).
   */
  async addRows(rows: readonly unknown[], maxRows: number): Promise<number> {
    let chunk = '';
    let chunkBytes = 0;
    if (this.shape === '') {
      chunk = `${HEAD}[`;
      chunkBytes = byteLength(chunk);
      this.shape = '[';
    }
    // The bytes the file would have with the rows so far, closed: `]` and the end.
    const closing = 1 + this.reservedEnd;
    let taken = 0;
    for (const row of rows) {
      if (this.rows >= maxRows) break;
      const json = (this.rows > 0 ? ',' : '') + (JSON.stringify(row) ?? 'null');
      const size = byteLength(json);
      if (this.bytes + chunkBytes + size + closing > this.maxBytes) break;
      chunk += json;
      chunkBytes += size;
      this.rows += 1;
      taken += 1;
    }
    await this.write(chunk, chunkBytes);
    return taken;
  }

  /** Writes a payload that is not rows, whole; false (nothing written) when it would pass the cap. */
  async setPayload(data: unknown): Promise<boolean> {
    const chunk = HEAD + (JSON.stringify(data) ?? 'null');
    const size = byteLength(chunk);
    if (size + this.reservedEnd > this.maxBytes) return false;
    await this.write(chunk, size);
    this.shape = '{';
    this.rows = 1;
    return true;
  }

  /** Ends the file and moves it to `target`. */
  async finish(target: string, pages: number, truncated: boolean): Promise<WrittenFile> {
    const start = this.shape === '' ? `${HEAD}[` : '';
    const end = `${start}${this.shape === '{' ? '' : ']'},"meta":${this.metaJson},"pages":${pages},"truncated":${truncated}}`;
    try {
      await this.write(end, byteLength(end));
      await this.handle.close();
      await fs.promises.rename(this.file, target);
    } catch (error) {
      await this.discard();
      throw error;
    }
    return { bytes: this.bytes, etag: etagOf(this.hash), rows: this.rows, truncated };
  }

  /** Closes and deletes the temporary file (a run that did not finish). */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await removeFile(this.file);
  }
}
