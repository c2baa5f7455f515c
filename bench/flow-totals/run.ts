/**
 * Flow totals after a live minute's prints (db/flow-aggregates.ts): what a later file of a stored
 * date costs its load's transaction, on a full-scale simulated day (BENCH_SCALE, default full), for
 * one minute's prints at 10:00, 12:30 and 15:00 ET. Two ways, alternating, BENCH_ROUNDS (3) rounds
 * each, every run in a transaction rolled back (the store is left as it was):
 * - recompute (refreshFlowTotals, the way before): every contract the minute touched, from all of
 *   its prints of the day;
 * - add (addFlowTotals, the ingest's way for a stored date): the minute's prints, in the load's
 *   temporary table prints_added as db/bulk-copy.ts keeps them, added to the stored rows.
 * Prints each way's median, and their ratio (recompute / add). Then the day volume so far of the
 * minute's contracts, which the same load reads first (each print's day_volume continues it): summed
 * from the day's prints (the way before, the statement kept here as the baseline) against
 * storedDayVolumes (db/stored-prints.ts), which reads the flow totals. The minute's prints are read from
 * the day as stored (they stand for a new minute's rows; the values written are rolled back).
 * DATABASE_URL uses that server, and the day it holds when an earlier run (or bench/trades) loaded it.
 */
import { sql } from 'kysely';
import { addFlowTotals, refreshFlowTotals } from '../../src/db/flow-aggregates.js';
import { storedDayVolumes } from '../../src/db/stored-prints.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import { loadSimulatedDay, startBenchService } from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'full') as Scale;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DAY = '2026-11-20';
/** Friday 2026-11-20 after the close: the simulated week ends with that day. */
const NOW = Date.parse('2026-11-20T23:00:00Z');
const MINUTES = [
  ['10:00 ET', '2026-11-20T15:00:00Z'],
  ['12:30 ET', '2026-11-20T17:30:00Z'],
  ['15:00 ET', '2026-11-20T20:00:00Z'],
] as const;

const bench = await startBenchService('flow-totals');
const db = bench.service.database.admin;
const loadSeconds = await loadSimulatedDay(bench, { day: DAY, scale: SCALE, now: NOW });
const prints = Number(
  (await sql<{ n: string }>`select count(*) as n from prints where trading_date = ${DAY}::date`.execute(db)).rows[0]?.n,
);

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? NaN;
class Rollback extends Error {}

/** One way's time for the minute, in a transaction rolled back. */
async function timed(way: 'recompute' | 'add', from: number, to: number): Promise<{ ms: number; contracts: number; rows: number }> {
  let out = { ms: 0, contracts: 0, rows: 0 };
  await db
    .transaction()
    .execute(async (trx) => {
      await sql`create temporary table prints_added (like prints including defaults) on commit drop`.execute(trx);
      await sql`insert into prints_added select * from prints where trading_date = ${DAY}::date and ts >= ${from}::int8 and ts < ${to}::int8`.execute(
        trx,
      );
      const ids = (await sql<{ id: string }>`select distinct contract_id as id from prints_added`.execute(trx)).rows.map((r) =>
        Number(r.id),
      );
      const rows = Number((await sql<{ n: string }>`select count(*) as n from prints_added`.execute(trx)).rows[0]?.n);
      const started = performance.now();
      if (way === 'recompute') await refreshFlowTotals(trx, DAY, ids);
      else await addFlowTotals(trx, DAY, ids, new Set());
      out = { ms: performance.now() - started, contracts: ids.length, rows };
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return out;
}

const lines = [
  `flow totals bench: day ${DAY}, ${prints.toLocaleString('en-US')} prints (scale ${SCALE}), ${loadSeconds === null ? 'already loaded' : `simulated and loaded in ${loadSeconds.toFixed(0)} s`}, ${ROUNDS} rounds`,
];
for (const [label, start] of MINUTES) {
  const from = Date.parse(start);
  const to = from + 60_000;
  const times: Record<'recompute' | 'add', number[]> = { recompute: [], add: [] };
  let shape = { contracts: 0, rows: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of ['recompute', 'add'] as const) {
      const r = await timed(way, from, to);
      times[way].push(r.ms);
      shape = { contracts: r.contracts, rows: r.rows };
    }
  }
  // The day volume so far of the minute's contracts: from the prints, and from the totals (the same figures).
  const ids = (
    await sql<{
      id: string;
    }>`select distinct contract_id as id from prints where trading_date = ${DAY}::date and ts >= ${from}::int8 and ts < ${to}::int8`.execute(
      db,
    )
  ).rows.map((r) => Number(r.id));
  const volumes: Record<'prints' | 'totals', number[]> = { prints: [], totals: [] };
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    const summed = await sql<{ contract_id: string; volume: string }>`
      select contract_id, sum(size)::int8 as volume from prints
      where trading_date = ${DAY}::date and not cancelled and contract_id = any(${ids}::int8[]) group by contract_id`.execute(db);
    volumes.prints.push(performance.now() - started);
    started = performance.now();
    const read = await storedDayVolumes(db, DAY, ids);
    volumes.totals.push(performance.now() - started);
    if (summed.rows.some((r) => read.get(Number(r.contract_id)) !== Number(r.volume)) || read.size !== summed.rows.length)
      throw new Error(`minute ${label}: the totals' day volumes differ from the prints'`);
  }
  const recompute = median(times.recompute);
  const add = median(times.add);
  lines.push(
    `  minute ${label}: ${shape.rows.toLocaleString('en-US')} prints on ${shape.contracts.toLocaleString('en-US')} contracts: ` +
      `recompute ${recompute.toFixed(0)} ms, add ${add.toFixed(0)} ms (median), recompute / add ${(recompute / add).toFixed(1)}; ` +
      `day volume so far from the prints ${median(volumes.prints).toFixed(0)} ms, from the totals ${median(volumes.totals).toFixed(1)} ms`,
  );
}
console.log(lines.join('\n'));
await bench.close();
process.exit(0);
