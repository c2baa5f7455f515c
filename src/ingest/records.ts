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

/** Turns the lines of a file into records, one line at a time, remembering header and format. */
class RecordParser {
  private header: string[] | null = null;
  private format: 'csv' | 'ndjson' | null = null;
  private lineNumber = 0;

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
        for (const [k, v] of Object.entries(parsed)) fields[k] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        out.push({ line: lineNumber, fields });
      } catch {
        out.push(new RecordError(lineNumber, 'not a JSON object'));
      }
      return;
    }
    const header = this.header;
    const values = splitCsvLine(line);
    if (!header || values.length !== header.length) {
      out.push(new RecordError(lineNumber, `expected ${header?.length ?? 0} columns, found ${values.length}`));
      return;
    }
    const fields: Record<string, string> = {};
    for (let i = 0; i < header.length; i += 1) fields[header[i] as string] = (values[i] as string).trim();
    out.push({ line: lineNumber, fields });
  }
}

const LINE_BREAK = /\r\n|\n|\r/;

/**
 * Yields the records of a file in batches, one per chunk read (line breaks \n, \r\n or \r, as
 * readline counts them); a malformed line is a RecordError so the caller can reject it and go on.
 * One await per chunk instead of one per line.
 */
export async function* readRecordBatches(file: string): AsyncGenerator<(FileRecord | RecordError)[]> {
  const raw = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  const input = (await isGzip(file)) ? raw.pipe(createGunzip()) : raw;
  input.setEncoding('utf8');
  const parser = new RecordParser();
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
    if (batch.length > 0) yield batch;
  }
  const batch: (FileRecord | RecordError)[] = [];
  for (const line of rest.split(LINE_BREAK)) if (line !== '') parser.line(line, batch);
  if (batch.length > 0) yield batch;
}

/** Yields records; a malformed line is yielded as a RecordError so the caller can reject it and go on. */
export async function* readRecords(file: string): AsyncGenerator<FileRecord | RecordError> {
  for await (const batch of readRecordBatches(file)) yield* batch;
}
