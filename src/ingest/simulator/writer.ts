/**
 * Streaming gzip CSV writer: lines are batched into chunks of CHUNK_CHARS and handed to zlib with
 * backpressure, so memory stays constant whatever the file size. The gzip header carries no time
 * and the chunking depends only on the data, so the same rows give byte-identical files.
 *
 * Compression level 1: the files are written once and read once, mostly on the first start, and
 * level 6 costs about three times the CPU a line for files only about a quarter smaller.
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';

const CHUNK_CHARS = 1 << 18;

/**
 * Lines are written into a byte buffer as they come, not concatenated into a string: a string of
 * a chunk's lines (a rope of thousands of short strings) lived until the chunk was handed to zlib,
 * so each young-generation collection copied it again; a line's string now dies at once. A chunk is handed over at the same byte count as
 * before (the lines are ASCII: a character is a byte), so the files are the same bytes.
 */
export class CsvGzWriter {
  private readonly gzip: Gzip;
  private readonly done: Promise<void>;
  private bytes: Buffer;
  private used = 0;
  private blocked = false;
  rows = 0;

  constructor(
    readonly path: string,
    header: readonly string[],
  ) {
    this.gzip = createGzip({ level: 1 });
    this.done = pipeline(this.gzip, fs.createWriteStream(path));
    this.bytes = Buffer.allocUnsafe(2 * CHUNK_CHARS);
    this.append(header.join(','));
  }

  line(text: string): void {
    this.append(text);
    this.rows += 1;
    if (this.used >= CHUNK_CHARS) this.push();
  }

  /** Appends a line and its line break, widening the buffer for a line longer than its room. */
  private append(text: string): void {
    const room = this.bytes.length - this.used;
    if (room < 3 * text.length + 1) {
      const wider = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.used + 3 * text.length + 1));
      this.bytes.copy(wider, 0, 0, this.used);
      this.bytes = wider;
    }
    this.used += this.bytes.write(text, this.used, 'utf8');
    this.bytes[this.used++] = 10;
  }

  private push(): void {
    if (this.used === 0) return;
    // zlib holds the chunk until it has compressed it: the next lines go to a new buffer.
    if (!this.gzip.write(this.bytes.subarray(0, this.used))) this.blocked = true;
    this.bytes = Buffer.allocUnsafe(2 * CHUNK_CHARS);
    this.used = 0;
  }

  /** Waits while zlib's buffer is full; call between batches of lines. */
  async drain(): Promise<void> {
    if (!this.blocked) return;
    this.blocked = false;
    if (this.gzip.writableNeedDrain) await once(this.gzip, 'drain');
  }

  async close(): Promise<void> {
    this.push();
    this.gzip.end();
    await this.done;
  }
}

/** Dollars with two decimals from integer cents. */
export function cents(c: number): string {
  const whole = Math.floor(c / 100);
  const rest = c - whole * 100;
  return `${whole}.${rest < 10 ? '0' : ''}${rest}`;
}

/** A price in dollars with two decimals. */
export function money(x: number): string {
  return cents(Math.round(x * 100));
}
