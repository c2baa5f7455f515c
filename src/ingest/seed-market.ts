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
import { seedOptionRoots } from '../db/option-contracts.js';
import { hasAnyPrint } from '../db/stored-prints.js';
import type { IngestKind } from './layouts.js';
import { countsSummary } from './load-counts.js';
import { loadMarketFile } from './market.js';
import { loadQuotesFile, readQuotesAhead, type QuotesReadAhead } from './quotes.js';
import type { SimulatorMessage } from './simulator/worker.js';
import type { Worker } from 'node:worker_threads';
import { startTsWorker, threadCpuSeconds } from './worker-thread.js';

export const SIMULATION_SEED = 20261122;

/**
 * The simulator thread's young generation, MB (node's default 48: 16 MB semi-spaces). Its lines
 * are short-lived strings: a larger nursery lets them die there instead of being copied and
 * promoted, which roughly halves that thread's garbage collection, for some 150 MB more while it runs.
 */
const SIMULATOR_YOUNG_GENERATION_MB = 192;

/**
 * Load order: what a kind's classification reads is loaded before it; futures definitions before
 * the futures records that name them (a simulator writing futures files has them loaded in turn).
 */
export const LOAD_ORDER: readonly IngestKind[] = [
  'contracts',
  'futures_definitions',
  'underlying_bars',
  'futures_bars',
  'open_interest',
  'futures_statistics',
  'quotes',
  'prints',
  'futures_trades',
];

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
      const result =
        ahead === undefined
          ? await loadMarketFile(admin, kind, file, { log })
          : await loadQuotesFile(admin, file, { log, readAhead: ahead });
      count += 1;
      if (kind === 'prints') prints += result.loaded;
      if (result.rejected.length > 0) {
        const first = result.rejected
          .slice(0, 3)
          .map((r) => `line ${r.line}: ${r.reason}`)
          .join('; ');
        log?.(`${path.basename(file)}: ${result.rejected.length} rejected (${first})`);
      }
      log?.(
        `${path.basename(file)}: ${result.alreadyLoaded ? 'already loaded' : countsSummary(result)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
  }
  return { files: count, prints };
}

type FileSet = Partial<Record<IngestKind, string[]>>;

/**
 * The simulator running in its worker thread (simulator/worker.ts): the sets of files it has
 * written and not yet handed over, in order. Started by startSimulation(), which needs no database,
 * so that a first start can simulate while PostgreSQL is made and migrated (server.ts).
 */
export class Simulation {
  readonly outDir: string;
  readonly scale: 'default' | 'full';
  private readonly started = performance.now();
  private readonly worker: Worker;
  private readonly sets: FileSet[] = [];
  private done = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  /** Called when a set arrives (the loader reads its quotes ahead). */
  onSet: (() => void) | null = null;

  constructor(options: SeedMarketOptions) {
    this.outDir = options.outDir ?? path.join(options.dataDir, 'simulated');
    this.scale = options.scale ?? 'default';
    const entry = new URL(`./simulator/worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url);
    this.worker = startTsWorker(
      entry,
      { outDir: this.outDir, seed: SIMULATION_SEED, scale: this.scale, now: options.now },
      { youngGenerationMb: SIMULATOR_YOUNG_GENERATION_MB },
    );
    this.worker.on('message', (message: SimulatorMessage) => {
      if (message.type === 'files') {
        this.sets.push(message.files);
        this.onSet?.();
      } else {
        this.done = true;
        const cpu = message.cpuSeconds === null ? '' : ` (its thread's CPU ${message.cpuSeconds.toFixed(1)} s)`;
        options.log?.(`simulated market written to ${this.outDir} in ${((performance.now() - this.started) / 1000).toFixed(1)} s${cpu}`);
      }
      this.notify();
    });
    this.worker.on('error', (error) => {
      this.failure = error;
      this.notify();
    });
    this.worker.on('exit', (code) => {
      if (!this.done && this.failure === null)
        this.failure = new Error(`the simulator's worker exited with code ${code} before it finished`);
      this.notify();
    });
  }

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  /** The set written after the one taken last (without waiting: undefined when none is there yet). */
  peek(): FileSet | undefined {
    return this.sets[0];
  }

  /** The next set written, waiting for it; null once the simulator has finished and every set was taken. */
  async next(): Promise<FileSet | null> {
    for (;;) {
      const set = this.sets.shift();
      if (set !== undefined) return set;
      if (this.failure !== null) throw this.failure;
      if (this.done) return null;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  /** Ends the worker (done or not). */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/** Starts the simulator's thread writing the market; load it with simulateAndLoad or seedMarketIfEmpty. */
export function startSimulation(options: SeedMarketOptions): Simulation {
  return new Simulation(options);
}

/**
 * Writes and loads the simulated market into the store. The simulator runs in a worker thread
 * (simulator/worker.ts, started here unless `simulation` was started before) and hands over each
 * set of files as it is written (the contracts, each history date's bars, then each trading date's
 * files), which loads while the next is simulated; the next set's quotes file is read ahead
 * (quotes.ts readQuotesAhead), while this thread waits for PostgreSQL on the loads before it.
 */
export async function simulateAndLoad(
  admin: Database,
  options: SeedMarketOptions,
  simulation: Simulation = startSimulation(options),
): Promise<{ files: number; prints: number }> {
  const cpuAtStart = threadCpuSeconds();
  /** Quotes files being read ahead: the set loading and the next one's (two files' samples in memory at most). */
  const ahead = new Map<string, QuotesReadAhead>();
  const readAhead = (set: FileSet | undefined): void => {
    for (const file of set?.quotes ?? []) if (!ahead.has(file)) ahead.set(file, readQuotesAhead(file, { log: options.log }));
  };
  let loading = false;
  simulation.onSet = () => {
    if (loading) readAhead(simulation.peek());
  };
  let files = 0;
  let prints = 0;
  /** The previous set's prints, loading while this set's other files load (each on its own connection). */
  let printsLoading: Promise<{ files: number; prints: number }> | null = null;
  const printsLoaded = async (): Promise<void> => {
    const pending = printsLoading;
    printsLoading = null;
    if (pending === null) return;
    const loaded = await pending;
    files += loaded.files;
    prints += loaded.prints;
  };
  try {
    // Before any file loads: GET /v1/status tells the simulator's files by this folder.
    await recordSimulatedMarket(admin, { seed: SIMULATION_SEED, scale: simulation.scale, outDir: simulation.outDir });
    for (let set = await simulation.next(); set !== null; set = await simulation.next()) {
      readAhead(set);
      readAhead(simulation.peek());
      loading = true;
      // A date's prints are classified against its own quotes, bars and open interest, loaded
      // before them here, and nothing of a later date; the next date's files load meanwhile.
      const { prints: printFiles, ...others } = set;
      const loaded = await loadFilesInOrder(admin, others, options.log, ahead);
      loading = false;
      for (const file of set.quotes ?? []) ahead.delete(file);
      files += loaded.files;
      prints += loaded.prints;
      // One date's prints at a time, in date order (a print file may cancel prints of the dates before it).
      await printsLoaded();
      if (printFiles !== undefined && printFiles.length > 0) {
        printsLoading = loadFilesInOrder(admin, { prints: printFiles }, options.log);
        // Awaited by printsLoaded(); until then a failure is not an unhandled rejection.
        printsLoading.catch(() => undefined);
      }
    }
    await printsLoaded();
  } finally {
    simulation.onSet = null;
    await printsLoading?.catch(() => undefined);
    await simulation.stop();
  }
  const cpuAtEnd = threadCpuSeconds();
  if (cpuAtStart !== null && cpuAtEnd !== null)
    options.log?.(`simulated market loaded: this thread's CPU ${(cpuAtEnd - cpuAtStart).toFixed(1)} s`);
  return { files, prints };
}

/**
 * First start: simulates and loads the market when no print is stored (with `simulation` when one
 * was started ahead); otherwise does nothing (and stops `simulation`).
 */
export async function seedMarketIfEmpty(
  admin: Database,
  options: SeedMarketOptions,
  simulation?: Simulation,
): Promise<{ seeded: boolean; files: number; prints: number }> {
  if (await hasAnyPrint(admin)) {
    await simulation?.stop();
    return { seeded: false, files: 0, prints: 0 };
  }
  const loaded = await simulateAndLoad(admin, options, simulation);
  return { seeded: true, ...loaded };
}
