/**
 * Reads the records of an ingest file: CSV with a header row, or NDJSON (one JSON object a line),
 * gzip-compressed or not (told by the magic bytes, not the name). Lines starting with `#` before
 * the header are comments. Every record carries its 1-based line number for reject reports.
 */
import fs from 'node:fs';
import readline from 'node:readline';
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

/** Yields records; a malformed line is yielded as a RecordError so the caller can reject it and go on. */
export async function* readRecords(file: string): AsyncGenerator<FileRecord | RecordError> {
  const raw = fs.createReadStream(file);
  const input = (await isGzip(file)) ? raw.pipe(createGunzip()) : raw;
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let header: string[] | null = null;
  let format: 'csv' | 'ndjson' | null = null;
  let lineNumber = 0;
  for await (const text of lines) {
    lineNumber += 1;
    const line = text.trim();
    if (line === '' || (format === null && line.startsWith('#'))) continue;
    if (format === null) {
      format = line.startsWith('{') ? 'ndjson' : 'csv';
      if (format === 'csv') {
        header = splitCsvLine(line).map((h) => h.trim());
        continue;
      }
    }
    if (format === 'ndjson') {
      try {
        const parsed = JSON.parse(line) as unknown;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        const fields: Record<string, string> = {};
        for (const [k, v] of Object.entries(parsed)) fields[k] = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        yield { line: lineNumber, fields };
      } catch {
        yield new RecordError(lineNumber, 'not a JSON object');
      }
      continue;
    }
    const values = splitCsvLine(line);
    if (!header || values.length !== header.length) {
      yield new RecordError(lineNumber, `expected ${header?.length ?? 0} columns, found ${values.length}`);
      continue;
    }
    const fields: Record<string, string> = {};
    header.forEach((name, i) => {
      fields[name] = (values[i] ?? '').trim();
    });
    yield { line: lineNumber, fields };
  }
}
