import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExportFileWriter } from './export-file.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-file-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const paths = (): { tmp: string; file: string } => {
  n += 1;
  return { tmp: path.join(dir, `${n}.part`), file: path.join(dir, `${n}.json`) };
};

/** Rows of varied sizes, some with characters of two, three and four UTF-8 bytes. */
function rows(count: number, seed = 1): Record<string, unknown>[] {
  let x = seed;
  const next = (): number => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, (_, i) => ({
    i,
    name: 'é€😀x'.repeat(Math.floor(next() * 20)),
    price: Math.round(next() * 1e6) / 100,
    flags: next() < 0.5 ? ['iso'] : [],
  }));
}

const meta = { request_id: 'export:exp_1', export_id: 'exp_1', source: 'derived' };

async function written(pages: Record<string, unknown>[][], maxBytes: number, maxRows = 1e9) {
  const { tmp, file } = paths();
  const writer = await ExportFileWriter.open(tmp, maxBytes, meta);
  const kept: unknown[] = [];
  let truncated = false;
  for (const page of pages) {
    const taken = await writer.addRows(page, maxRows);
    kept.push(...page.slice(0, taken));
    if (taken < page.length) {
      truncated = true;
      break;
    }
  }
  const result = await writer.finish(file, pages.length, truncated);
  return { result, text: fs.readFileSync(file, 'utf8'), bytes: fs.statSync(file).size, kept, truncated, rowCount: writer.rowCount, tmp };
}

describe('ExportFileWriter', () => {
  it('writes the bytes of JSON.stringify({data, meta, pages, truncated}), page by page, with their size and ETag', async () => {
    const all = rows(300);
    const w = await written([all.slice(0, 100), all.slice(100, 250), all.slice(250)], 64 * 1024 * 1024);
    const expected = JSON.stringify({ data: all, meta, pages: 3, truncated: false });
    expect(w.text).toBe(expected);
    expect(w.result.bytes).toBe(Buffer.byteLength(expected));
    expect(w.bytes).toBe(w.result.bytes);
    expect(w.result.etag).toBe(`"${createHash('sha256').update(expected).digest('base64url').slice(0, 27)}"`);
    expect(w.rowCount).toBe(300);
    expect(fs.existsSync(w.tmp)).toBe(false);
  });

  it('never passes the byte cap, and stops only when the next row would not fit', async () => {
    const all = rows(400, 7);
    for (const cap of [200, 257, 1000, 4096, 10_000, 33_333]) {
      const w = await written([all.slice(0, 150), all.slice(150)], cap);
      expect(w.truncated, `cap ${cap}`).toBe(true);
      expect(w.bytes, `cap ${cap}`).toBeLessThanOrEqual(cap);
      expect(JSON.parse(w.text)).toEqual({ data: w.kept, meta, pages: 2, truncated: true });
      // One more row would not fit with the room the end keeps for any page count (16 digits
      // against the 1 of `2`) and for `false` (one byte more than `true`).
      const withNext = JSON.stringify({ data: [...w.kept, all[w.kept.length]], meta, pages: 2, truncated: true });
      expect(Buffer.byteLength(withNext) + 15 + 1, `cap ${cap}`).toBeGreaterThan(cap);
    }
  });

  it('stops at the row cap', async () => {
    const all = rows(50);
    const w = await written([all], 1e9, 20);
    expect(w.kept).toHaveLength(20);
    expect((JSON.parse(w.text) as { data: unknown[] }).data).toEqual(all.slice(0, 20));
  });

  it('writes an empty data array when no row came', async () => {
    const { tmp, file } = paths();
    const writer = await ExportFileWriter.open(tmp, 1000, meta);
    await writer.finish(file, 1, false);
    expect(fs.readFileSync(file, 'utf8')).toBe(JSON.stringify({ data: [], meta, pages: 1, truncated: false }));
  });

  it('takes a payload that is not rows whole, or not at all', async () => {
    const payload = { date: '2026-11-27', status: 'early_close', sessions: rows(20) };
    const size = Buffer.byteLength(JSON.stringify({ data: payload, meta, pages: 1, truncated: false }));
    const fits = paths();
    const writer = await ExportFileWriter.open(fits.tmp, size + 15, meta);
    expect(await writer.setPayload(payload)).toBe(true);
    await writer.finish(fits.file, 1, false);
    expect(fs.readFileSync(fits.file, 'utf8')).toBe(JSON.stringify({ data: payload, meta, pages: 1, truncated: false }));

    const tooLarge = paths();
    const small = await ExportFileWriter.open(tooLarge.tmp, size - 1, meta);
    expect(await small.setPayload(payload)).toBe(false);
    await small.discard();
    expect(fs.existsSync(tooLarge.tmp)).toBe(false);
    expect(fs.existsSync(tooLarge.file)).toBe(false);
  });
});
