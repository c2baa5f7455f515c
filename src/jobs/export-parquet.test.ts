import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportColumn } from '../api-contract/export-columns.js';
import { ParquetExportWriter, ROW_GROUP_ROWS } from './export-parquet.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-parquet-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const paths = (): { tmp: string; file: string } => {
  n += 1;
  return { tmp: path.join(dir, `${n}.part`), file: path.join(dir, `${n}.parquet`) };
};

const columns: ExportColumn[] = [
  { name: 'id', kind: 'string' },
  { name: 'price', kind: 'number' },
  { name: 'size', kind: 'integer' },
  { name: 'flags', kind: 'json' },
  { name: 'date_of_expiry', kind: 'date' },
  { name: 'timestamp', kind: 'timestamp' },
  { name: 'is_block', kind: 'boolean' },
  { name: 'delta', kind: 'number' },
];

function rows(count: number, seed = 1): Record<string, unknown>[] {
  let x = seed;
  const next = (): number => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => ({
    id: `SPXW:2026-11-20:${5900000 + (i % 40) * 5000}:C:2026-11-20:${i} é€😀`,
    price: Math.round(next() * 1e6) / 100,
    size: 1 + Math.floor(next() * 500),
    flags: next() < 0.5 ? ['iso', 'vol_gt_oi'] : [],
    date_of_expiry: next() < 0.5 ? '2026-11-20' : '2027-01-15',
    timestamp: 1763649000000 + i * 137,
    is_block: next() < 0.1,
    delta: next() < 0.2 ? null : Math.round(next() * 1e6) / 1e6,
  }));
}

const meta = { request_id: 'export:exp_1', export_id: 'exp_1', source: 'derived' };

/** The file as pyarrow reads it (test/support/parquet-to-json.py). */
function readBack(file: string) {
  const read = spawnSync('.venv/bin/python', ['test/support/parquet-to-json.py', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (read.status !== 0) throw new Error(`pyarrow could not read ${file}: ${read.stderr}`);
  return JSON.parse(read.stdout) as {
    columns: { name: string; type: string }[];
    num_rows: number;
    row_groups: number;
    metadata: Record<string, string>;
    rows: Record<string, unknown>[];
  };
}

/** A row as pyarrow gives it back: timestamps in microseconds, JSON as its text. */
const asRead = (row: Record<string, unknown>): Record<string, unknown> => ({
  ...row,
  timestamp: (row.timestamp as number) * 1000,
  flags: JSON.stringify(row.flags),
});

async function written(pages: Record<string, unknown>[][], maxBytes: number, maxRows = 1e9) {
  const { tmp, file } = paths();
  const writer = await ParquetExportWriter.open(tmp, maxBytes, columns, meta);
  for (const page of pages) if ((await writer.addRows(page, maxRows)) < page.length || writer.full) break;
  const result = await writer.finish(file, pages.length, false);
  return { result, file, bytes: fs.statSync(file).size };
}

describe('ParquetExportWriter', () => {
  it('writes row groups that pyarrow reads back with the contract types and the same values', async () => {
    const all = rows(ROW_GROUP_ROWS + 1234);
    const w = await written([all.slice(0, 20_000), all.slice(20_000)], 1e9);
    expect(w.result).toMatchObject({ rows: all.length, truncated: false, bytes: w.bytes });
    const read = readBack(w.file);
    expect(read.num_rows).toBe(all.length);
    expect(read.row_groups).toBe(2);
    expect(Object.fromEntries(read.columns.map((c) => [c.name, c.type]))).toEqual({
      id: 'string',
      price: 'double',
      size: 'int64',
      flags: expect.stringMatching(/^(string|extension<arrow\.json>)$/) as unknown,
      date_of_expiry: 'date32[day]',
      timestamp: 'timestamp[us, tz=UTC]',
      is_block: 'bool',
      delta: 'double',
    });
    expect(read.rows).toEqual(all.map(asRead));
    expect(JSON.parse(read.metadata['oads.export'] ?? '')).toEqual({ meta, pages: 2, truncated: false });
  });

  it('writes an empty file with its columns when no row came', async () => {
    const w = await written([], 1e9);
    const read = readBack(w.file);
    expect(read.num_rows).toBe(0);
    expect(read.columns.map((c) => c.name)).toEqual(columns.map((c) => c.name));
  });

  it('never passes the byte cap: the last group is cut to the rows that fit, and the file says truncated', async () => {
    const all = rows(3000, 5);
    for (const cap of [8_000, 20_000, 50_000]) {
      const w = await written([all], cap);
      expect(w.bytes, `cap ${cap}`).toBeLessThanOrEqual(cap);
      expect(w.result.truncated, `cap ${cap}`).toBe(true);
      const read = readBack(w.file);
      expect(read.num_rows).toBe(w.result.rows);
      expect(read.rows).toEqual(all.slice(0, w.result.rows).map(asRead));
      expect(JSON.parse(read.metadata['oads.export'] ?? '')).toMatchObject({ truncated: true });
      // The most that fit: one more row would not have.
      const more = await written([all.slice(0, w.result.rows + 1)], 1e9);
      expect(more.bytes, `cap ${cap}`).toBeGreaterThan(cap - 40);
    }
  });

  it('stops at the row cap', async () => {
    const w = await written([rows(100)], 1e9, 30);
    expect(w.result).toMatchObject({ rows: 30, truncated: false });
    expect(readBack(w.file).num_rows).toBe(30);
  });
});
