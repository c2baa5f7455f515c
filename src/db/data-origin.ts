/**
 * Where the market data of the store comes from, for GET /v1/status: the simulator's runs
 * (simulated_markets, recorded by ingest/seed-market.ts and by the live market, live/runner.ts,
 * before they load their files) and the ingest
 * ledger (ingest_files), whose rows name the file each load read. A ledger row whose file lies in a
 * folder a simulator run wrote to is a simulated file; any other is a file loaded from elsewhere,
 * except a session's archive files (archived_sessions.archive_dir) loaded back on request: they are
 * the same data again, counted as the files it was first loaded from.
 */
import path from 'node:path';
import { sql } from 'kysely';
import type { components } from '../../generated/openapi.js';
import type { Queryable } from './connection.js';

export type DataOrigin = components['schemas']['DataOrigin'];

/** What the store records of its market data's origin. */
export interface OriginCounts {
  simulatedFiles: number;
  loadedFiles: number;
  /** Seed and scale of the latest simulator run; null when none. */
  simulatorSeed: number | null;
  simulatorScale: string | null;
  /** Whether the live simulated market has written into the store. */
  liveSimulation: boolean;
}

/** Records a simulator run that writes its files into `outDir` and loads them here. */
export async function recordSimulatedMarket(
  db: Queryable,
  run: { seed: number; scale: string; outDir: string; live?: boolean },
): Promise<void> {
  await db
    .insertInto('simulated_markets')
    .values({ seed: run.seed, scale: run.scale, out_dir: path.normalize(run.outDir).replace(/(.)\/+$/, '$1'), live: run.live ?? false })
    .execute();
}

export async function originCounts(db: Queryable): Promise<OriginCounts> {
  const result = await sql<{ simulated: number; loaded: number; seed: number | null; scale: string | null; live: boolean }>`
    with marked as (
      select exists (
        select 1 from simulated_markets s where left(f.file_name, length(s.out_dir) + 1) = s.out_dir || '/'
      ) as simulated
      from ingest_files f
      where not exists (
        select 1 from archived_sessions a where left(f.file_name, length(a.archive_dir) + 1) = a.archive_dir || '/'
      )
    ),
    latest as (select seed, scale from simulated_markets order by id desc limit 1)
    select
      (select count(*) from marked where simulated)::int as simulated,
      (select count(*) from marked where not simulated)::int as loaded,
      (select seed from latest) as seed,
      (select scale from latest) as scale,
      exists (select 1 from simulated_markets where live) as live`.execute(db);
  const row = result.rows[0];
  return {
    simulatedFiles: row?.simulated ?? 0,
    loadedFiles: row?.loaded ?? 0,
    simulatorSeed: row?.seed ?? null,
    simulatorScale: row?.scale ?? null,
    liveSimulation: row?.live ?? false,
  };
}

/**
 * The status's data_source: simulated when every market file loaded is the simulator's (the live
 * market's minutes included), files when every one came from elsewhere, mixed when both, empty when
 * none was loaded.
 */
export function dataOriginOf(counts: OriginCounts): DataOrigin {
  const simulated = counts.simulatedFiles > 0;
  const loaded = counts.loadedFiles > 0;
  const kind = simulated ? (loaded ? 'mixed' : 'simulated') : loaded ? 'files' : 'empty';
  return {
    kind,
    simulated_files: counts.simulatedFiles,
    loaded_files: counts.loadedFiles,
    simulator_seed: counts.simulatorSeed,
    simulator_scale: counts.simulatorScale,
    live_simulation: counts.liveSimulation,
  };
}
