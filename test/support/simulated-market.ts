/**
 * The small simulated market of the tests, simulated into a temporary folder and loaded through the
 * ingest path, without vitest: market.ts (the tests' once-per-run templates) and
 * scripts/capture-examples.ts (the contract's response examples) both load it from here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/db/connection.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { recordSimulatedMarket } from '../../src/db/data-origin.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { simulateMarket, type SimulationSummary } from '../../src/ingest/simulator/index.js';

/** Friday 2026-11-20, 18:00 ET: the week of Nov 16 to 20 is complete (curb included). */
export const MARKET_NOW = Date.parse('2026-11-20T23:00:00Z');
export const SMALL_MARKET = { rthEvents: 1500, gthEvents: 60, curbEvents: 30, goldenSweeps: 2 };

export interface SimulatedMarketOptions {
  dates: readonly string[];
  now?: number;
  seed?: number;
  history?: boolean;
  /**
   * Record the run as the simulator's (simulated_markets), so that /v1/status says the data is
   * simulated, as a seeded store does; the tests' markets are not recorded (their status says files).
   */
  record?: boolean;
}

export interface LoadedMarket {
  dates: string[];
  historyDates: string[];
}

/**
 * The small market's files simulated into outDir, with the chain snapshots of `snapshotDates`
 * (by default, of the dates the options load).
 */
export async function simulateSmallMarket(
  outDir: string,
  options: Pick<SimulatedMarketOptions, 'seed' | 'now'> & { snapshotDates: readonly string[] },
): Promise<SimulationSummary> {
  return simulateMarket(
    { outDir, seed: options.seed ?? 11, scale: 'default', now: options.now ?? MARKET_NOW, snapshotDates: options.snapshotDates },
    SMALL_MARKET,
  );
}

/** The contracts and the files of the options' dates (with history, of the sessions before) of a simulation, loaded into `admin` through ingest. */
export async function loadSimulation(
  admin: Database,
  summary: SimulationSummary,
  options: Pick<SimulatedMarketOptions, 'dates' | 'history'>,
): Promise<LoadedMarket> {
  const dates = options.history ? [...summary.historyDates, ...options.dates] : options.dates;
  const wanted = (file: string): boolean => dates.some((d) => path.basename(file).includes(d));
  const files: Partial<Record<IngestKind, string[]>> = {};
  for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
    files[kind] = kind === 'contracts' ? list : list.filter(wanted);
  }
  await loadFilesInOrder(admin, files);
  return { dates: summary.dates, historyDates: summary.historyDates };
}

/** The market simulated into a temporary folder and its files loaded into `admin` through ingest. */
export async function simulateAndLoad(admin: Database, options: SimulatedMarketOptions): Promise<LoadedMarket> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-sim-'));
  try {
    const summary = await simulateSmallMarket(outDir, { ...options, snapshotDates: options.dates });
    if (options.record) await recordSimulatedMarket(admin, { seed: options.seed ?? 11, scale: 'default', outDir });
    return await loadSimulation(admin, summary, options);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
