/**
 * The simulated futures of a date as day files (futures.ts), written beside the date's options
 * files by index.ts: futures_definitions-, futures_trades-, futures_bars- and
 * futures_statistics-<date>.csv.gz in the canonical futures layouts, holding the rows known by
 * `now` (a trade or bar whose minute has ended, a statistic published).
 */
import path from 'node:path';
import { FUTURES_LAYOUTS, type FuturesKind } from '../futures-layouts.js';
import { simulateFuturesDay, type FuturesRow } from './futures.js';
import type { SegmentPath } from './paths.js';
import type { Prng } from './prng.js';
import { CsvGzWriter } from './writer.js';

export const FUTURES_FILE_KINDS: readonly FuturesKind[] = ['futures_definitions', 'futures_bars', 'futures_statistics', 'futures_trades'];

export function emptyFuturesFiles(): Record<FuturesKind, string[]> {
  return { futures_definitions: [], futures_bars: [], futures_statistics: [], futures_trades: [] };
}

/** The generator every simulated futures day draws from: the same in the day files and the live market. */
export const futuresRng = (rng: Prng): Prng => rng.fork('futures');

/** Writes the date's four futures files; returns them by kind (definitions first). */
export async function writeFuturesDay(
  outDir: string,
  date: string,
  paths: readonly SegmentPath[],
  now: number,
  rng: Prng,
): Promise<[FuturesKind, CsvGzWriter][]> {
  const day = simulateFuturesDay(date, paths, futuresRng(rng));
  const known = (rows: readonly FuturesRow[]): string[] => rows.filter((r) => r.at <= now).map((r) => r.line);
  const lines: Record<FuturesKind, string[]> = {
    futures_definitions: day.trades.some((r) => r.at <= now) || day.statistics.some((r) => r.at <= now) ? day.definitions : [],
    futures_bars: known(day.bars),
    futures_statistics: known(day.statistics),
    futures_trades: known(day.trades),
  };
  const out: [FuturesKind, CsvGzWriter][] = [];
  for (const kind of FUTURES_FILE_KINDS) {
    const writer = new CsvGzWriter(
      path.join(outDir, `${kind}-${date}.csv.gz`),
      FUTURES_LAYOUTS[kind].map((c) => c.name),
    );
    for (const line of lines[kind]) writer.line(line);
    await writer.close();
    out.push([kind, writer]);
  }
  return out;
}
