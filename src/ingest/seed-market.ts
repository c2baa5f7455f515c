/**
 * The embedded default data: on first start (no print stored) the market simulator writes a
 * deterministic week of market files in the canonical layouts and they load through the ordinary
 * ingest path, in dependency order (contracts, underlying bars, open interest, quotes, prints), so
 * simulated prints are classified exactly like real ones.
 */
import path from 'node:path';
import type { Database } from '../db/connection.js';
import { hasAnyPrint, seedOptionRoots } from '../db/market-data.js';
import type { IngestKind } from './layouts.js';
import { countsSummary } from './load-counts.js';
import { loadMarketFile } from './market.js';
import { writeSimulatedMarket } from './simulator/index.js';

export const SIMULATION_SEED = 20261122;

/** Load order: what a kind's classification reads is loaded before it. */
export const LOAD_ORDER: readonly IngestKind[] = ['contracts', 'underlying_bars', 'open_interest', 'quotes', 'prints'];

export interface SeedMarketOptions {
  dataDir: string;
  now: number;
  scale?: 'default' | 'full';
  /** Folder for the simulated files; default `<dataDir>/simulated`. */
  outDir?: string;
  log?: (line: string) => void;
}

/** Loads simulator (or any canonical) files by kind in LOAD_ORDER. Returns files and prints loaded. */
export async function loadFilesInOrder(admin: Database, files: Partial<Record<IngestKind, string[]>>, log?: (line: string) => void): Promise<{ files: number; prints: number }> {
  await seedOptionRoots(admin);
  let count = 0;
  let prints = 0;
  for (const kind of LOAD_ORDER) {
    for (const file of files[kind] ?? []) {
      const started = performance.now();
      const result = await loadMarketFile(admin, kind, file, { log });
      count += 1;
      if (kind === 'prints') prints += result.loaded;
      if (result.rejected.length > 0) {
        const first = result.rejected.slice(0, 3).map((r) => `line ${r.line}: ${r.reason}`).join('; ');
        log?.(`${path.basename(file)}: ${result.rejected.length} rejected (${first})`);
      }
      log?.(
        `${path.basename(file)}: ${result.alreadyLoaded ? 'already loaded' : countsSummary(result)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  }
  return { files: count, prints };
}

/** Writes and loads the simulated market into the store. */
export async function simulateAndLoad(admin: Database, options: SeedMarketOptions): Promise<{ files: number; prints: number }> {
  const outDir = options.outDir ?? path.join(options.dataDir, 'simulated');
  const started = performance.now();
  const files = await writeSimulatedMarket({ outDir, seed: SIMULATION_SEED, scale: options.scale ?? 'default', now: options.now });
  options.log?.(`simulated market written to ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return await loadFilesInOrder(admin, files, options.log);
}

/** First start: simulates and loads the market when no print is stored; otherwise does nothing. */
export async function seedMarketIfEmpty(admin: Database, options: SeedMarketOptions): Promise<{ seeded: boolean; files: number; prints: number }> {
  if (await hasAnyPrint(admin)) return { seeded: false, files: 0, prints: 0 };
  const loaded = await simulateAndLoad(admin, options);
  return { seeded: true, ...loaded };
}
