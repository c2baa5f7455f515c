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
import type { Database } from '../../src/db/connection.js';
import { copyMarketFromTemplate, marketTemplate } from './market-template.js';
import { MARKET_NOW, simulateAndLoad, type LoadedMarket, type SimulatedMarketOptions } from './simulated-market.js';

export { MARKET_NOW, SMALL_MARKET, simulateAndLoad, type LoadedMarket, type SimulatedMarketOptions } from './simulated-market.js';

export async function loadSimulatedMarket(admin: Database, options: SimulatedMarketOptions): Promise<LoadedMarket> {
  const key = { seed: options.seed ?? 11, now: options.now ?? MARKET_NOW, dates: [...options.dates], history: options.history ?? false };
  const template = await marketTemplate(key, (db) => simulateAndLoad(db, key));
  if (template !== null && (await copyMarketFromTemplate(admin, template))) return template.market;
  return simulateAndLoad(admin, options);
}
