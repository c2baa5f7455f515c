/** What the simulator's test files share: the simulated weeks' clocks and a reader of its gzipped CSV files. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

export const NOW = Date.parse('2026-11-22T12:00:00Z'); // Sunday: the week of 2026-11-16 is complete
export const THANKSGIVING_NOW = Date.parse('2026-11-29T12:00:00Z'); // Sunday after Thanksgiving 2026
export const WEEK = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];

export type Row = Record<string, string>;

/** A gzipped CSV file of the simulator's, its header and its rows by column name. */
export function readCsv(file: string): { header: string[]; rows: Row[] } {
  const text = gunzipSync(fs.readFileSync(file)).toString('utf8');
  const lines = text.split('\n').filter((l) => l !== '');
  const header = lines[0]!.split(',');
  const rows = lines.slice(1).map((line) => {
    const values = line.split(',');
    const row: Row = {};
    header.forEach((h, i) => {
      row[h] = values[i] ?? '';
    });
    return row;
  });
  return { header, rows };
}

/** A new temporary folder for a simulation. */
export function tempDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `simulator-${name}-`));
}
