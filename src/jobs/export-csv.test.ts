import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportColumn } from '../api-contract/export-columns.js';
import { CsvGzipWriter, csvField } from './export-csv.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-csv-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const paths = (): { tmp: string; file: string } => {
  n += 1;
  return { tmp: path.join(dir, `${n}.part`), file: path.join(dir, `${n}.csv.gz`) };
};

const columns: ExportColumn[] = [
  { name: 'id', kind: 'string' },
  { name: 'price', kind: 'number' },
  { name: 'flags', kind: 'json' },
  { name: 'note', kind: 'string' },
  { name: 'timestamp', kind: 'timestamp' },
  { name: 'is_block', kind: 'boolean' },
];

/** Rows of varied content: quotes, commas, line breaks, multi-byte characters, nulls. */
function rows(count: number, seed = 1): Record<string, unknown>[] {
  let x = seed;
  const next = (): number => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const notes = ['plain', 'a, b', 'say "hi"', 'two\r\nlines', 'é€😀', '', null];
  return Array.from({ length: count }, (_, i) => ({
    timestamp: 1763649000000 + i * 137,
    id: `SPXW:2026-11-20:${5900000 + (i % 40) * 5000}:C:2026-11-20:${i}`,
    price: Math.round(next() * 1e6) / 100,
    flags: next() < 0.5 ? ['iso', 'vol_gt_oi'] : [],
    note: notes[Math.floor(next() * notes.length)],
    is_block: next() < 0.1,
  }));
}

/** RFC 4180 parser: the oracle the file is read back with. */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i += 1;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      row.push(field);
      field = '';
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      out.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  expect(field).toBe('');
  return out;
}

const expectedLine = (row: Record<string, unknown>): string[] =>
  columns.map((c) => {
    const v = row[c.name];
    return v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  });

async function written(pages: Record<string, unknown>[][], maxBytes: number, maxRows = 1e9) {
  const { tmp, file } = paths();
  const writer = await CsvGzipWriter.open(tmp, maxBytes, columns);
  let kept = 0;
  for (const page of pages) {
    const taken = await writer.addRows(page, maxRows);
    kept += taken;
    if (taken < page.length) break;
  }
  const result = await writer.finish(file, pages.length, false);
  return { result, file, kept, bytes: fs.statSync(file).size, full: writer.full };
}

describe('CsvGzipWriter', () => {
  it('writes one gzip member of RFC 4180 lines, header first, that gunzip and Python read back', async () => {
    const all = rows(3000);
    const w = await written([all.slice(0, 1000), all.slice(1000, 2500), all.slice(2500)], 64 * 1024 * 1024);
    expect(w.result).toMatchObject({ rows: 3000, truncated: false, bytes: w.bytes });
    const text = zlib.gunzipSync(fs.readFileSync(w.file)).toString('utf8');
    const parsed = parseCsv(text);
    expect(parsed[0]).toEqual(columns.map((c) => c.name));
    expect(parsed.slice(1)).toEqual(all.map(expectedLine));
    // An empty string is written "" and a null as nothing.
    expect(text).toContain(',"",');
    // Another reader of the same bytes: Python's gzip module (one member, its CRC and size checked).
    const python = spawnSync('python3', ['-c', 'import gzip,sys; sys.stdout.buffer.write(gzip.open(sys.argv[1]).read())', w.file]);
    if (python.status === 0) expect(python.stdout.toString('utf8')).toBe(text);
  });

  it('compresses about as well as one continuous gzip stream', async () => {
    const all = rows(5000, 3);
    const pages = Array.from({ length: 50 }, (_, i) => all.slice(i * 100, i * 100 + 100));
    const w = await written(pages, 1e9);
    const whole = zlib.gzipSync(zlib.gunzipSync(fs.readFileSync(w.file)));
    expect(w.bytes / whole.length).toBeLessThan(1.02);
  });

  it('never passes the byte cap, and stops only when the next line might not fit', async () => {
    const all = rows(4000, 7);
    for (const cap of [300, 1000, 4096, 10_000, 33_333]) {
      const w = await written([all.slice(0, 1500), all.slice(1500)], cap);
      expect(w.bytes, `cap ${cap}`).toBeLessThanOrEqual(cap);
      expect(w.full, `cap ${cap}`).toBe(true);
      expect(w.result.truncated).toBe(true);
      const parsed = parseCsv(zlib.gunzipSync(fs.readFileSync(w.file)).toString('utf8'));
      expect(parsed.slice(1)).toEqual(all.slice(0, w.kept).map(expectedLine));
      // Close to the cap: the next line's worst case (about 1.15 times its size, plus 20 bytes) was what did not fit.
      const next = Buffer.byteLength(parsed.length > 0 ? `${expectedLine(all[w.kept]!).join(',')}\r\n` : '');
      expect(cap - w.bytes, `cap ${cap}`).toBeLessThanOrEqual(next * 1.2 + 30);
    }
  });

  it('stops at the row cap without calling it full', async () => {
    const all = rows(50);
    const w = await written([all], 1e9, 20);
    expect(w.kept).toBe(20);
    expect(w.full).toBe(false);
    expect(parseCsv(zlib.gunzipSync(fs.readFileSync(w.file)).toString('utf8'))).toHaveLength(21);
  });

  it('quotes fields as RFC 4180 says', () => {
    expect(csvField('a')).toBe('a');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "x"')).toBe('"say ""x"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
    expect(csvField('')).toBe('""');
    expect(csvField(null)).toBe('');
    expect(csvField(['iso', 'floor'])).toBe('"[""iso"",""floor""]"');
    expect(csvField(0.1)).toBe('0.1');
    expect(csvField(false)).toBe('false');
  });
});
