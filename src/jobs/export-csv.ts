/**
 * The CSV export file, gzip-compressed as it is written: a header row of the contract's field
 * names in its order, then one line per row, RFC 4180 (CRLF line ends; a field holding a comma, a
 * double quote, CR or LF is quoted, its quotes doubled). Values as the JSON export has them:
 * numbers as JSON writes them, timestamps as Unix ms, booleans true/false, arrays and objects as
 * their JSON text; null is an empty field, an empty string `""`.
 *
 * The byte cap counts the compressed bytes. Each chunk of lines is deflated on its own and ended
 * with a sync flush (so its compressed size is known at once), with the last 32 KiB written before
 * as its preset dictionary: the chunks join into one deflate stream that compresses as well as a
 * continuous one (pigz writes gzip in parallel the same way). A line is taken only while deflate's
 * worst case for the lines held with it still fits under the cap, so the file never passes it;
 * near the cap the held lines are deflated sooner, until the next line might not fit.
 */
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import type { ExportColumn } from '../api-contract/export-columns.js';
import { etagOf, removeFile, type ExportWriter, type WrittenFile } from './export-file.js';

/** The gzip header (RFC 1952): magic, deflate, no flags, no time, no extra flags, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final empty fixed-Huffman block, then CRC-32 and size: the end of the file. */
const END_BYTES = 2 + 8;
/** Lines are deflated in chunks of about this many bytes: each chunk's own block costs a few bytes. */
const CHUNK_BYTES = 256 * 1024;
/** Deflate's window: the dictionary a chunk may refer back into. */
const WINDOW = 32 * 1024;

/**
 * Compressed bytes of `n` input bytes at worst, with the sync flush: zlib's deflateBound
 * (n + n/8 + n/64 + 5, stored blocks) plus the flush's empty stored block.
 */
const deflateBound = (n: number): number => n + Math.ceil(n / 8) + Math.ceil(n / 64) + 5 + 5;

/** One field, RFC 4180: quoted when it holds a comma, a quote, CR or LF. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  if (text === '') return '""';
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row's line, CRLF-ended, its fields in the columns' order. */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export class CsvGzipWriter implements ExportWriter {
  private bytes = 0;
  private rows = 0;
  private crc = 0;
  private inputBytes = 0;
  private window: Buffer = Buffer.alloc(0);
  /** Lines taken but not deflated yet (at most about CHUNK_BYTES). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private readonly hash: Hash = createHash('sha256');
  full = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly file: string,
    private readonly maxBytes: number,
    private readonly columns: readonly ExportColumn[],
  ) {}

  /** Opens the run's temporary file and writes the gzip header and the CSV header row. */
  static async open(file: string, maxBytes: number, columns: readonly ExportColumn[]): Promise<CsvGzipWriter> {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    const writer = new CsvGzipWriter(await fs.promises.open(file, 'w'), file, maxBytes, columns);
    await writer.write(GZIP_HEADER);
    const header = Buffer.from(csvLine(columns.map((c) => c.name)));
    if (!writer.fits(header.length)) throw new Error(`The CSV header does not fit in ${maxBytes} bytes.`);
    await writer.deflate(header);
    return writer;
  }

  get rowCount(): number {
    return this.rows;
  }

  private fits(inputBytes: number): boolean {
    return this.bytes + deflateBound(inputBytes) + END_BYTES <= this.maxBytes;
  }

  private async write(bytes: Buffer): Promise<void> {
    await this.handle.write(bytes);
    this.hash.update(bytes);
    this.bytes += bytes.length;
  }

  /** Deflates one chunk of lines (it fits: checked by the caller) and appends it. */
  private async deflate(input: Buffer): Promise<void> {
    const options: zlib.ZlibOptions = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    if (this.window.length > 0) options.dictionary = this.window;
    const compressed = zlib.deflateRawSync(input, options);
    this.crc = zlib.crc32(input, this.crc);
    this.inputBytes += input.length;
    const joined = this.window.length + input.length > WINDOW ? input : Buffer.concat([this.window, input]);
    this.window = Buffer.from(joined.subarray(Math.max(0, joined.length - WINDOW)));
    await this.write(compressed);
  }

  /** Deflates the lines held (they fit: each was checked as it was taken). */
  private async flushPending(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const input = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.deflate(input);
  }

  async addRows(rows: readonly unknown[], maxRows: number): Promise<number> {
    let taken = 0;
    for (const row of rows) {
      if (this.full || this.rows >= maxRows) break;
      const line = Buffer.from(csvLine(this.columns.map((c) => (row as Record<string, unknown>)[c.name])));
      if (!this.fits(this.pendingBytes + line.length)) {
        // The bound of the held lines is loose: deflated, they leave room known exactly.
        if (this.pendingBytes > 0) await this.flushPending();
        if (!this.fits(line.length)) {
          this.full = true;
          break;
        }
      }
      this.pending.push(line);
      this.pendingBytes += line.length;
      this.rows += 1;
      taken += 1;
      if (this.pendingBytes >= CHUNK_BYTES) await this.flushPending();
    }
    return taken;
  }

  async finish(target: string, _pages: number, truncated: boolean): Promise<WrittenFile> {
    await this.flushPending();
    const end = Buffer.alloc(END_BYTES);
    end[0] = 0x03; // a final block with fixed Huffman codes holding only the end-of-block code
    end.writeUInt32LE(this.crc >>> 0, 2);
    end.writeUInt32LE(this.inputBytes % 2 ** 32, 6);
    try {
      await this.write(end);
      await this.handle.close();
      await fs.promises.rename(this.file, target);
    } catch (error) {
      await this.discard();
      throw error;
    }
    return { bytes: this.bytes, etag: etagOf(this.hash), rows: this.rows, truncated: truncated || this.full };
  }

  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await removeFile(this.file);
  }
}
