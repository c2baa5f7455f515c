/**
 * A small simulated market loaded through the ordinary ingest path, for tests of the read routes:
 * the simulator's default scale shrunk (a few thousand prints a session; the quotes, chain
 * snapshots included, as at the default scale), only the dates asked for, and with `history` the
 * underlying bars of the sessions before the week (simulator/history.ts).
 *
 * Simulating and loading takes half a minute or more on a loaded 2-core machine, and many test
 * files ask for the same market. So within a test run each distinct market (seed, now, dates,
 * history) is simulated and loaded once, through the ingest path, into a template database on the
 * run's PostgreSQL (market-template.ts), and each later call copies the rows that load stored from
 * it (COPY, seconds). The copy makes the same tables, partitions and sequence positions the load
 * would have made on the caller's database; where it cannot promise that (outside a vitest run
 * with test/support/global-setup.ts, a database that already holds market rows, a load that
 * changed seeded rows), the market is simulated and loaded into the caller's database as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/db/connection.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import { copyMarketFromTemplate, marketTemplate } from './market-template.js';

/** Friday 2026-11-20, 18:00 ET: the week of Nov 16 to 20 is complete (curb included). */
export const MARKET_NOW = Date.parse('2026-11-20T23:00:00Z');
export const SMALL_MARKET = { rthEvents: 1500, gthEvents: 60, curbEvents: 30, goldenSweeps: 2 };

export interface SimulatedMarketOptions {
  dates: readonly string[];
  now?: number;
  seed?: number;
  history?: boolean;
}

export interface LoadedMarket {
  dates: string[];
  historyDates: string[];
}

export async function loadSimulatedMarket(admin: Database, options: SimulatedMarketOptions): Promise<LoadedMarket> {
  const key = { seed: options.seed ?? 11, now: options.now ?? MARKET_NOW, dates: [...options.dates], history: options.history ?? false };
  const template = await marketTemplate(key, (db) => simulateAndLoad(db, key));
  if (template !== null && (await copyMarketFromTemplate(admin, template))) return template.market;
  return simulateAndLoad(admin, options);
}

/** The market simulated into a temporary folder and its files loaded into `admin` through ingest. */
export async function simulateAndLoad(admin: Database, options: SimulatedMarketOptions): Promise<LoadedMarket> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-sim-'));
  try {
    const summary = await simulateMarket({ outDir, seed: options.seed ?? 11, scale: 'default', now: options.now ?? MARKET_NOW, snapshotDates: options.dates }, SMALL_MARKET);
    const dates = options.history ? [...summary.historyDates, ...options.dates] : options.dates;
    const wanted = (file: string): boolean => dates.some((d) => path.basename(file).includes(d));
    const files: Partial<Record<IngestKind, string[]>> = {};
    for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
      files[kind] = kind === 'contracts' ? list : list.filter(wanted);
    }
    await loadFilesInOrder(admin, files);
    return { dates: summary.dates, historyDates: summary.historyDates };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
