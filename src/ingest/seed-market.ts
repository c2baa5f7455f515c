/**
 * The embedded default data: on first start (no print stored) the market simulator writes a
 * deterministic week of market files in the canonical layouts and they load through the ordinary
 * ingest path as they are written, in dependency order (the contracts, the history's bars, then
 * each date's underlying bars, open interest, quotes and prints), so simulated prints are
 * classified exactly like real ones.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../db/connection.js';
import { recordSimulatedMarket } from '../db/data-origin.js';
import { hasAnyPrint, seedOptionRoots } from '../db/market-data.js';
import type { IngestKind } from './layouts.js';
import { countsSummary } from './load-counts.js';
import { loadMarketFile } from './market.js';
import { loadQuotesFile, readQuotesAhead, type QuotesReadAhead } from './quotes.js';
import type { SimulatorMessage } from './simulator/worker.js';
import { startTsWorker } from './worker-thread.js';

export const SIMULATION_SEED = 20261122;

/**
 * The simulator thread's young generation, MB (node's default 48: 16 MB semi-spaces). Its lines
 * are short-lived strings; with 192 (64 MB semi-spaces) a first start's profile of that thread
 * showed 7.7 s of garbage collection against 14.1 s, for at most some 150 MB more while it runs.
 */
const SIMULATOR_YOUNG_GENERATION_MB = 192;

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

/**
 * Loads simulator (or any canonical) files by kind in LOAD_ORDER, a quotes file from its read
 * ahead when `readAhead` has one. Returns files and prints loaded.
 */
export async function loadFilesInOrder(
  admin: Database,
  files: Partial<Record<IngestKind, string[]>>,
  log?: (line: string) => void,
  readAhead?: ReadonlyMap<string, QuotesReadAhead>,
): Promise<{ files: number; prints: number }> {
  await seedOptionRoots(admin);
  let count = 0;
  let prints = 0;
  for (const kind of LOAD_ORDER) {
    for (const file of files[kind] ?? []) {
      const started = performance.now();
      const ahead = kind === 'quotes' ? readAhead?.get(file) : undefined;
      const result = ahead === undefined ? await loadMarketFile(admin, kind, file, { log }) : await loadQuotesFile(admin, file, { log, readAhead: ahead });
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

/**
 * Writes and loads the simulated market into the store. The simulator runs in a worker thread
 * (simulator/worker.ts) and hands over each set of files as it is written (the contracts, each
 * history date's bars, then each trading date's files), which loads while the next is simulated;
 * the next set's quotes file is read ahead (quotes.ts readQuotesAhead), while this thread waits
 * for PostgreSQL on the loads before it.
 */
export async function simulateAndLoad(admin: Database, options: SeedMarketOptions): Promise<{ files: number; prints: number }> {
  const outDir = options.outDir ?? path.join(options.dataDir, 'simulated');
  const scale = options.scale ?? 'default';
  // Before any file loads: GET /v1/status tells the simulator's files by this folder.
  await recordSimulatedMarket(admin, { seed: SIMULATION_SEED, scale, outDir });
  const started = performance.now();
  const entry = new URL(`./simulator/worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  const worker = startTsWorker(
    entry,
    { outDir, seed: SIMULATION_SEED, scale, now: options.now },
    { youngGenerationMb: SIMULATOR_YOUNG_GENERATION_MB },
  );
  const sets: Partial<Record<IngestKind, string[]>>[] = [];
  /** Quotes files being read ahead: the set loading and the next one's (two files' samples in memory at most). */
  const ahead = new Map<string, QuotesReadAhead>();
  const readAhead = (set: Partial<Record<IngestKind, string[]>> | undefined): void => {
    for (const file of set?.quotes ?? []) if (!ahead.has(file)) ahead.set(file, readQuotesAhead(file, { log: options.log }));
  };
  let loading = false;
  // Set by the worker's events (an object, so that the loop below reads what they set).
  const state: { done: boolean; failure: Error | null } = { done: false, failure: null };
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  worker.on('message', (message: SimulatorMessage) => {
    if (message.type === 'files') {
      sets.push(message.files);
      if (loading && sets.length === 1) readAhead(sets[0]);
    }
    else {
      state.done = true;
      options.log?.(`simulated market written to ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    notify();
  });
  worker.on('error', (error) => {
    state.failure = error;
    notify();
  });
  worker.on('exit', (code) => {
    if (!state.done && state.failure === null) state.failure = new Error(`the simulator's worker exited with code ${code} before it finished`);
    notify();
  });
  let files = 0;
  let prints = 0;
  try {
    for (;;) {
      const set = sets.shift();
      if (set !== undefined) {
        readAhead(set);
        readAhead(sets[0]);
        loading = true;
        const loaded = await loadFilesInOrder(admin, set, options.log, ahead);
        loading = false;
        for (const file of set.quotes ?? []) ahead.delete(file);
        files += loaded.files;
        prints += loaded.prints;
        continue;
      }
      if (state.failure !== null) throw state.failure;
      if (state.done) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    await worker.terminate();
  }
  return { files, prints };
}

/** First start: simulates and loads the market when no print is stored; otherwise does nothing. */
export async function seedMarketIfEmpty(admin: Database, options: SeedMarketOptions): Promise<{ seeded: boolean; files: number; prints: number }> {
  if (await hasAnyPrint(admin)) return { seeded: false, files: 0, prints: 0 };
  const loaded = await simulateAndLoad(admin, options);
  return { seeded: true, ...loaded };
}
