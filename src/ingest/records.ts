/**
 * Reads the records of an ingest file: CSV with a header row, or NDJSON (one JSON object a line),
 * gzip-compressed or not (told by the magic bytes, not the name). Lines starting with `#` before
 * the header are comments. Every record carries its 1-based line number for reject reports.
 */
import fs from 'node:fs';
import { createGunzip } from 'node:zlib';

export interface FileRecord {
  line: number;
  fields: Record<string, string>;
}

export class RecordError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/** Splits one CSV line (RFC 4180 quoting, no embedded newlines). */
export function splitCsvLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

export type RecordFormat = 'csv' | 'ndjson';

/** What a file's first lines tell: its format and, for CSV, its header. */
export interface FileHead {
  format: RecordFormat;
  header: string[] | null;
}

/**
 * A byte range of an uncompressed file, read on its own (a worker's share of a large file): it
 * starts at a line's start, takes format and header from the file's head, and numbers its lines
 * from `firstLine`.
 */
export interface RecordRange {
  start: number;
  /** Exclusive. */
  end: number;
  head: FileHead | null;
  firstLine: number;
}

/**
 * Takes the data lines of a CSV file (trimmed, not empty) in file order instead of their becoming
 * records: a reader with its own parse of the file's layout (print-table.ts). It makes what the
 * record would have been with csvRecord() when it cannot read a line itself.
 */
export type CsvLineTaker = (line: string, lineNumber: number, header: readonly string[]) => void;

/** The record of a CSV data line (trimmed) under `header`, or why the line is malformed. */
export function csvRecord(header: readonly string[] | null, line: string, lineNumber: number): FileRecord | RecordError {
  const values = splitCsvLine(line);
  if (!header || values.length !== header.length)
    return new RecordError(lineNumber, `expected ${header?.length ?? 0} columns, found ${values.length}`);
  const fields: Record<string, string> = {};
  for (let i = 0; i < header.length; i += 1) fields[header[i] as string] = (values[i] as string).trim();
  return { line: lineNumber, fields };
}

/** Turns the lines of a file into records, one line at a time, remembering header and format. */
class RecordParser {
  private header: string[] | null;
  private format: RecordFormat | null;
  private lineNumber: number;
  /** CSV data lines given to `take` since the last call of taken(). */
  private takenLines = 0;

  constructor(
    head: FileHead | null = null,
    firstLine = 1,
    private readonly take?: CsvLineTaker,
  ) {
    this.format = head?.format ?? null;
    this.header = head?.header ?? null;
    this.lineNumber = firstLine - 1;
  }

  /** The format and header, once the lines seen told them. */
  head(): FileHead | null {
    return this.format === null || (this.format === 'csv' && this.header === null) ? null : { format: this.format, header: this.header };
  }

  /** How many lines `take` was given since the last call. */
  taken(): number {
    const n = this.takenLines;
    this.takenLines = 0;
    return n;
  }

  line(text: string, out: (FileRecord | RecordError)[]): void {
    this.lineNumber += 1;
    const lineNumber = this.lineNumber;
    const line = text.trim();
    if (line === '' || (this.format === null && line.startsWith('#'))) return;
    if (this.format === null) {
      this.format = line.startsWith('{') ? 'ndjson' : 'csv';
      if (this.format === 'csv') {
        this.header = splitCsvLine(line).map((h) => h.trim());
        return;
      }
    }
    if (this.format === 'ndjson') {
      try {
        const parsed = JSON.parse(line) as unknown;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        const fields: Record<string, string> = {};
        for (const [k, v] of Object.entries(parsed))
          fields[k] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        out.push({ line: lineNumber, fields });
      } catch {
        out.push(new RecordError(lineNumber, 'not a JSON object'));
      }
      return;
    }
    if (this.take !== undefined && this.header !== null) {
      this.takenLines += 1;
      this.take(line, lineNumber, this.header);
      return;
    }
    out.push(csvRecord(this.header, line, lineNumber));
  }
}

const LINE_BREAK = /\r\n|\n|\r/;

/**
 * Yields the records of a file in batches, one per chunk read (line breaks \n, \r\n or \r, as
 * readline counts them); a malformed line is a RecordError so the caller can reject it and go on.
 * One await per chunk instead of one per line. With `take`, a CSV file's data lines go to it
 * instead, and a chunk with lines taken but no record yields an empty batch.
 */
export async function* readRecordBatches(
  file: string,
  range?: RecordRange,
  take?: CsvLineTaker,
): AsyncGenerator<(FileRecord | RecordError)[]> {
  const raw = fs.createReadStream(
    file,
    range ? { highWaterMark: 1 << 20, start: range.start, end: range.end - 1 } : { highWaterMark: 1 << 20 },
  );
  const input = range === undefined && (await isGzip(file)) ? raw.pipe(createGunzip()) : raw;
  input.setEncoding('utf8');
  const parser = range ? new RecordParser(range.head, range.firstLine, take) : new RecordParser(null, 1, take);
  let rest = '';
  for await (const chunk of input as AsyncIterable<string>) {
    let text = rest + chunk;
    // A \r ending the chunk may be the first half of \r\n: keep it for the next one.
    const heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    const lines = text.includes('\r') ? text.split(LINE_BREAK) : text.split('\n');
    rest = (lines.pop() ?? '') + (heldCr ? '\r' : '');
    const batch: (FileRecord | RecordError)[] = [];
    for (const line of lines) parser.line(line, batch);
    if (batch.length > 0 || parser.taken() > 0) yield batch;
  }
  const batch: (FileRecord | RecordError)[] = [];
  for (const line of rest.split(LINE_BREAK)) if (line !== '') parser.line(line, batch);
  if (batch.length > 0 || parser.taken() > 0) yield batch;
}

/**
 * How an uncompressed file of `minBytes` or more splits in two for two readers: the first line
 * break at or after its middle, and the file's head (format, header) for the second reader. Null
 * for a smaller or gzip file, one whose head is not within its first 64 KiB, or one with lines
 * ended by a bare \r (its line breaks cannot be found by \n alone).
 */
export async function splitForTwoReaders(file: string, minBytes: number): Promise<{ at: number; size: number; head: FileHead } | null> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (size < Math.max(minBytes, 1 << 17)) return null;
    const window = Buffer.alloc(1 << 16);
    const first = await handle.read(window, 0, window.length, 0);
    const start = window.subarray(0, first.bytesRead);
    if (start[0] === 0x1f && start[1] === 0x8b) return null;
    const text = start.toString('utf8');
    if (/\r(?!\n)/.test(text.slice(0, -1))) return null;
    const parser = new RecordParser();
    const lines = text.split(/\r?\n/);
    lines.pop(); // possibly cut
    for (const line of lines) {
      if (parser.head() !== null) break;
      parser.line(line, []);
    }
    const head = parser.head();
    if (head === null) return null;
    const middle = Math.floor(size / 2);
    const around = await handle.read(window, 0, window.length, middle);
    const newline = window.subarray(0, around.bytesRead).indexOf(0x0a);
    if (newline < 0) return null;
    return { at: middle + newline + 1, size, head };
  } finally {
    await handle.close();
  }
}

/** The number of the line starting at byte `offset` (just after a line break) of an uncompressed file. */
export async function lineNumberAt(file: string, offset: number): Promise<number> {
  let breaks = 0;
  if (offset > 0) {
    for await (const chunk of fs.createReadStream(file, { start: 0, end: offset - 1, highWaterMark: 1 << 20 })) {
      const bytes = chunk as Buffer;
      for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) breaks += 1;
    }
  }
  return breaks + 1;
}

/** Yields records; a malformed line is yielded as a RecordError so the caller can reject it and go on. */
export async function* readRecords(file: string): AsyncGenerator<FileRecord | RecordError> {
  for await (const batch of readRecordBatches(file)) yield* batch;
}
