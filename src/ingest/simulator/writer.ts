/**
 * Streaming gzip CSV writer: lines are batched into chunks of CHUNK_CHARS and handed to zlib with
 * backpressure, so memory stays constant whatever the file size. The gzip header carries no time
 * and the chunking depends only on the data, so the same rows give byte-identical files.
 *
 * Compression level 1: the files are written once and read once, mostly on the first start. On a
 * chain snapshot's quote lines level 6 cost 1.8 us a line against 0.6 us at level 1, for files
 * about a quarter larger (300,000 lines: 2.6 MB against 3.3 MB).
 */
import fs from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip, type Gzip } from 'node:zlib';

const CHUNK_CHARS = 1 << 18;

export class CsvGzWriter {
  private readonly gzip: Gzip;
  private readonly done: Promise<void>;
  private buffer = '';
  private blocked = false;
  rows = 0;

  constructor(
    readonly path: string,
    header: readonly string[],
  ) {
    this.gzip = createGzip({ level: 1 });
    this.done = pipeline(this.gzip, fs.createWriteStream(path));
    this.buffer = `${header.join(',')}\n`;
  }

  line(text: string): void {
    this.buffer += text;
    this.buffer += '\n';
    this.rows += 1;
    if (this.buffer.length >= CHUNK_CHARS) this.push();
  }

  private push(): void {
    if (this.buffer.length === 0) return;
    if (!this.gzip.write(this.buffer)) this.blocked = true;
    this.buffer = '';
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
