/**
 * Reads the records of an ingest file: CSV with a header row, or NDJSON (one JSON object a line),
 * gzip-compressed or not (told by the magic bytes, not the name). Lines starting with `#` before
 * the header are comments. Every record carries its 1-based line number for reject reports.
 *
 * Whatever the input, a reader holds at most one line of text and one chunk read: a line longer
 * than MAX_LINE_LENGTH characters (a file with no line break at all, say) is rejected naming its
 * line, and its text is dropped as it is read up to its end. A data line with a control character
 * (C0 other than tab, or DEL: a NUL, say) is rejected naming its line and column; such a byte is no
 * part of any field of the canonical or vendor layouts, and stored it would break the exports.
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

/** The longest line read, in characters: far beyond any record of the layouts (a few hundred). */
export const MAX_LINE_LENGTH = 1 << 20;

/** C0 controls but tab, and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Why a line with a control character is refused: its column (by the header when there is one) and the character. */
function controlReason(header: readonly string[] | null, values: readonly string[]): string {
  const index = values.findIndex((value) => CONTROL.test(value));
  const char = CONTROL.exec(values[index] ?? '')?.[0] ?? '\0';
  const column = header?.[index] ?? `${index + 1}`;
  return `column ${column} contains control character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
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

  /** A line longer than `max` characters, its text not kept: rejected. */
  tooLong(max: number, out: (FileRecord | RecordError)[]): void {
    this.lineNumber += 1;
    out.push(new RecordError(this.lineNumber, `line longer than ${max.toLocaleString('en-US')} characters`));
  }

  line(text: string, out: (FileRecord | RecordError)[]): void {
    this.lineNumber += 1;
    const lineNumber = this.lineNumber;
    const line = text.trim();
    if (line === '' || (this.format === null && line.startsWith('#'))) return;
    if (this.format !== 'ndjson' && CONTROL.test(line)) {
      // CSV (a header or a data line): the raw line is its fields; NDJSON is checked once parsed (an escape may make one).
      out.push(new RecordError(lineNumber, controlReason(this.format === 'csv' ? this.header : null, splitCsvLine(line))));
      return;
    }
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
        const values = Object.values(fields);
        if (values.some((value) => CONTROL.test(value))) {
          out.push(new RecordError(lineNumber, controlReason(Object.keys(fields), values)));
          return;
        }
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
 * instead, and a chunk with lines taken but no record yields an empty batch. A line longer than
 * `maxLineLength` is a RecordError, its text dropped up to its end (the file's header).
 */
export async function* readRecordBatches(
  file: string,
  range?: RecordRange,
  take?: CsvLineTaker,
  maxLineLength = MAX_LINE_LENGTH,
): AsyncGenerator<(FileRecord | RecordError)[]> {
  // Before the stream is made: a file that cannot be opened is this function's rejection, not an
  // 'error' event of a stream nobody listens to yet (which ends the process).
  const gzip = range === undefined && (await isGzip(file));
  const raw = fs.createReadStream(
    file,
    range ? { highWaterMark: 1 << 20, start: range.start, end: range.end - 1 } : { highWaterMark: 1 << 20 },
  );
  const input = gzip ? raw.pipe(createGunzip()) : raw;
  input.setEncoding('utf8');
  const parser = range ? new RecordParser(range.head, range.firstLine, take) : new RecordParser(null, 1, take);
  let rest = '';
  // Inside a line already rejected as too long: its text is dropped up to the next line break.
  let dropping = false;
  const take1 = (line: string, batch: (FileRecord | RecordError)[]): void => {
    if (line.length > maxLineLength) parser.tooLong(maxLineLength, batch);
    else parser.line(line, batch);
  };
  for await (const chunk of input as AsyncIterable<string>) {
    let text: string;
    if (dropping && rest === '') {
      const end = chunk.search(/[\r\n]/);
      if (end < 0) continue;
      // From the break on: the split's first piece is the long line's end, dropped below.
      text = chunk.slice(end);
    } else text = rest + chunk;
    // A \r ending the chunk may be the first half of \r\n: keep it for the next one.
    const heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    const lines = text.includes('\r') ? text.split(LINE_BREAK) : text.split('\n');
    rest = (lines.pop() ?? '') + (heldCr ? '\r' : '');
    const batch: (FileRecord | RecordError)[] = [];
    for (const [i, line] of lines.entries()) if (!(dropping && i === 0)) take1(line, batch);
    if (lines.length > 0) dropping = false;
    if (rest.length > maxLineLength && !dropping) {
      parser.tooLong(maxLineLength, batch);
      dropping = true;
      rest = heldCr ? '\r' : '';
    } else if (dropping) rest = heldCr ? '\r' : '';
    if (batch.length > 0 || parser.taken() > 0) yield batch;
  }
  const batch: (FileRecord | RecordError)[] = [];
  for (const [i, line] of rest.split(LINE_BREAK).entries()) if (line !== '' && !(dropping && i === 0)) take1(line, batch);
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
