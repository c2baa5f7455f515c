/**
 * A small simulated market loaded through the ordinary ingest path, for tests of the read routes:
 * the simulator's default scale shrunk (a few thousand prints a session; the quotes, chain
 * snapshots included, as at the default scale), only the dates asked for, and with `history` the
 * underlying bars of the sessions before the week (simulator/history.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/db/connection.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';

/** Friday 2026-11-20, 18:00 ET: the week of Nov 16 to 20 is complete (curb included). */
export const MARKET_NOW = Date.parse('2026-11-20T23:00:00Z');
export const SMALL_MARKET = { rthEvents: 1500, gthEvents: 60, curbEvents: 30, goldenSweeps: 2 };

export async function loadSimulatedMarket(
  admin: Database,
  options: { dates: readonly string[]; now?: number; seed?: number; history?: boolean },
): Promise<{ dates: string[]; historyDates: string[] }> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-sim-'));
  const summary = await simulateMarket({ outDir, seed: options.seed ?? 11, scale: 'default', now: options.now ?? MARKET_NOW, snapshotDates: options.dates }, SMALL_MARKET);
  const dates = options.history ? [...summary.historyDates, ...options.dates] : options.dates;
  const wanted = (file: string): boolean => dates.some((d) => path.basename(file).includes(d));
  const files: Partial<Record<IngestKind, string[]>> = {};
  for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
    files[kind] = kind === 'contracts' ? list : list.filter(wanted);
  }
  await loadFilesInOrder(admin, files);
  fs.rmSync(outDir, { recursive: true, force: true });
  return { dates: summary.dates, historyDates: summary.historyDates };
}
