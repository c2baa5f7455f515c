/**
 * A small simulated market loaded through the ordinary ingest path, for tests of the read routes:
 * the simulator's default scale shrunk (a few thousand prints a session; the quotes, chain
 * snapshots included, as at the default scale), only the dates asked for, and with `history` the
 * underlying bars of the sessions before the week (simulator/history.ts).
 *
 * Simulating and loading takes tens of seconds, more on a loaded machine, and many test
 * files ask for the same market. So within a test run each distinct market (seed, now, dates,
 * history) is loaded once, through the ingest path, into a template database on the run's
 * PostgreSQL (market-template.ts), from one simulation per seed and now. A test then has it one
 * of two ways:
 * - a new database that is a copy of the template (marketDatabase, startTestService's `market`):
 *   PostgreSQL copies the database's files, a fraction of a second, and the service starts on it;
 * - its rows copied into a database the caller already has (loadSimulatedMarket; COPY, seconds):
 *   for a database elsewhere (a replica set's primary) or one a test prepared first. The copy makes
 *   the same tables, partitions and sequence positions the load would have made on the caller's
 *   database; where it cannot promise that (outside a vitest run with test/support/global-setup.ts,
 *   a database that already holds market rows, a load that changed seeded rows), the market is
 *   simulated and loaded into the caller's database as before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/db/connection.js';
import type { SimulationSummary } from '../../src/ingest/simulator/index.js';
import { inject } from 'vitest';
import { createDatabase } from './database.js';
import { copyMarketFromTemplate, marketTemplate, sharedSimulation, type MarketTemplate } from './market-template.js';
import {
  loadSimulation,
  MARKET_NOW,
  simulateAndLoad,
  simulateSmallMarket,
  type LoadedMarket,
  type SimulatedMarketOptions,
} from './simulated-market.js';

export { MARKET_NOW, SMALL_MARKET, simulateAndLoad, type LoadedMarket, type SimulatedMarketOptions } from './simulated-market.js';

/**
 * The dates the test files load (their DAY and PREVIOUS). A template's simulation writes the chain
 * snapshots of these and of its own dates: one simulation then serves every template of the run
 * with the same seed and now. Its files of a template's dates are those a simulation with the
 * template's snapshots alone writes (the simulator's test "writes the same files when the
 * snapshots of another date are left out" proves it), and the template loads no other date.
 */
const SNAPSHOT_DATES = ['2026-11-19', '2026-11-20'];

export async function loadSimulatedMarket(admin: Database, options: SimulatedMarketOptions): Promise<LoadedMarket> {
  const template = await simulatedMarketTemplate(options);
  if (template !== null && (await copyMarketFromTemplate(admin, template))) return template.market;
  return simulateAndLoad(admin, options);
}

/**
 * A new database on the run's server holding the market as its load leaves it: a copy of the
 * market's template database (CREATE DATABASE ... TEMPLATE, a fraction of a second against seconds
 * for copying its rows into a started service's database), with everything the template's own
 * service start wrote before the load (migrations, seeded roots, its settings), as a service start
 * on it then finds them. Null outside a run that keeps templates.
 */
export async function marketDatabase(options: SimulatedMarketOptions): Promise<{ url: string; market: LoadedMarket } | null> {
  const template = await simulatedMarketTemplate(options);
  if (template === null) return null;
  const url = await createDatabase(inject('postgresUrl'), { template: new URL(template.url).pathname.slice(1) });
  return { url, market: template.market };
}

/** The URL of a new database of the run's server holding the market (marketDatabase), for a test that starts the service itself. */
export async function databaseWithMarket(options: SimulatedMarketOptions): Promise<string> {
  const copied = await marketDatabase(options);
  if (copied === null) throw new Error('databaseWithMarket needs a test run with the global set-up (test/support/global-setup.ts)');
  return copied.url;
}

/**
 * The small market's simulation (seed 11, MARKET_NOW) with the chain snapshots of the dates the
 * test files load, for a file that loads its files itself: the run's one simulation (its folder is
 * shared: read it, do not change it), or outside such a run a new one in a temporary folder.
 */
export async function smallMarketSimulation(): Promise<SimulationSummary> {
  const key = { seed: 11, now: MARKET_NOW, snapshotDates: SNAPSHOT_DATES };
  return (await sharedSmallSimulation(key)) ?? simulateSmallMarket(fs.mkdtempSync(path.join(os.tmpdir(), 'oads-sim-')), key);
}

/** The run's one simulation of the small market with these snapshots (the templates' and smallMarketSimulation's); null outside a run. */
async function sharedSmallSimulation(key: {
  seed: number;
  now: number;
  snapshotDates: readonly string[];
}): Promise<SimulationSummary | null> {
  return sharedSimulation(key, (outDir) => simulateSmallMarket(outDir, key));
}

/** The run's template of the market (built on first use); null outside a run with the global set-up. */
export async function simulatedMarketTemplate(options: SimulatedMarketOptions): Promise<MarketTemplate | null> {
  const key = { seed: options.seed ?? 11, now: options.now ?? MARKET_NOW, dates: [...options.dates], history: options.history ?? false };
  return marketTemplate(key, async (db) => {
    const snapshotDates = [...new Set([...SNAPSHOT_DATES, ...key.dates])].sort();
    const simulation = await sharedSmallSimulation({ seed: key.seed, now: key.now, snapshotDates });
    return simulation === null ? simulateAndLoad(db, key) : loadSimulation(db, simulation, key);
  });
}
