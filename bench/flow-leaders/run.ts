/**
 * Flow leaders (issue #20): /v1/options/flow/leaders by root and by contract on a simulated
 * session, against a bare loop from node that runs the read the endpoint needs, the flow
 * aggregates' query (db/flow-aggregates.ts), on a pool of the same size with as many concurrent
 * callers as connections, in the same run; next to them the direct aggregation of the session's
 * prints (db/trades.ts flowByUnderlying, flowByContract: what the endpoint read per request before
 * the aggregates) run the same way. Each route is measured idle (one request at a time,
 * BENCH_IDLE_REQUESTS, 200, or what ends within BENCH_SECONDS) and under load (autocannon,
 * BENCH_CONNECTIONS, BENCH_SECONDS); the bench checks first that the two reads give the same rows.
 * Also timed: the aggregates of the whole session written again (what a load of a new date adds
 * to its transaction).
 *
 * BENCH_SCALE (default: the simulator's default, what `make run` seeds and the soak reads; full is
 * about 2.3 million prints a day) sizes the two sessions loaded; DATABASE_URL uses that server
 * instead of a throwaway embedded one (and the sessions it holds, when an earlier run loaded
 * them). The endpoint is served as `make run` serves it (dist/src/main.js, the build of src/main.ts, in its own process).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { SESSIONS_OF } from '../../src/analytics/print-filters.js';
import { SESSION_SETTINGS } from '../../src/db/connection.js';
import { contractFlowTotals, refreshFlowTotals, underlyingFlowTotals } from '../../src/db/flow-aggregates.js';
import { vacuumAnalyze } from '../../src/db/partitions.js';
import { countPrints } from '../../src/db/stored-prints.js';
import type { DB } from '../../src/db/schema.js';
import { flowByContract, flowByUnderlying, type LeaderFilter } from '../../src/db/trades.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import { autocannonRun, CONNECTIONS, DURATION, startBenchService, startServerProcess } from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'default') as Scale;
const IDLE_REQUESTS = Number(process.env.BENCH_IDLE_REQUESTS ?? 200);
const WARMUP_SECONDS = 3;
/** Friday 2026-11-20 after the close: the simulated week ends with that day. */
const NOW = Date.parse('2026-11-20T23:00:00Z');
const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';

/** The q-quantile of some latencies. */
function quantile(latencies: readonly number[], q: number): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** CONNECTIONS callers each running `read` back to back for `seconds`; its latencies. */
async function bareLoop(read: () => Promise<unknown>, seconds: number, callers = CONNECTIONS): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        await read();
        latencies.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

/** `count` calls of `call`, one at a time, or as many (at least 5) as end within DURATION seconds; their latencies. */
async function oneAtATime(call: () => Promise<unknown>, count: number): Promise<number[]> {
  const latencies: number[] = [];
  const until = performance.now() + DURATION * 1000;
  for (let i = 0; i < count && (i < 5 || performance.now() < until); i++) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

const bench = await startBenchService('flow-leaders');
const { dir, service } = bench;
const config = service.deps.config;
const admin = service.database.admin;

const started = performance.now();
const reused = process.env.DATABASE_URL !== undefined && (await countPrints(admin, DAY)) > 0;
if (!reused) {
  const summary = await simulateMarket({ outDir: path.join(dir, 'sim'), seed: 20261122, scale: SCALE, now: NOW });
  const files: Partial<Record<IngestKind, string[]>> = {};
  for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
    files[kind] = kind === 'contracts' ? list : list.filter((f) => [PREVIOUS, DAY].some((d) => path.basename(f).includes(d)));
  }
  await loadFilesInOrder(admin, files);
  await vacuumAnalyze(admin);
}
const loadSeconds = (performance.now() - started) / 1000;
const prints = await countPrints(admin, DAY);
// The aggregates of the whole day written again, as a load of a new date writes them.
const refreshStarted = performance.now();
await admin.transaction().execute(async (trx) => await refreshFlowTotals(trx, DAY, null));
const refreshMs = performance.now() - refreshStarted;
const server = await startServerProcess(bench.databaseUrl);
const loadBefore = os.loadavg();

// The bare reads: the same pool size and session settings as the service's own pool.
const pool = new pg.Pool({ connectionString: service.database.connectionString, max: config.databasePoolSize, options: SESSION_SETTINGS });
const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
const rth: LeaderFilter = { tradingDate: DAY, sessions: SESSIONS_OF.rth, includeComplex: false, roots: null };
const routes: { name: string; query: string; aggregates: () => Promise<unknown[]>; direct: () => Promise<unknown[]> }[] = [
  {
    name: 'leaders by root (default: net, 50)',
    query: `date=${DAY}`,
    aggregates: () => underlyingFlowTotals(db, { ...rth, roots: null }),
    direct: () => flowByUnderlying(db, rth),
  },
  {
    name: 'leaders by contract (default: change, 50)',
    query: `grain=contract&date=${DAY}`,
    aggregates: () => contractFlowTotals(db, rth, PREVIOUS),
    direct: () => flowByContract(db, rth, PREVIOUS),
  },
  {
    name: 'leaders by contract, SPX family by premium',
    query: `grain=contract&sort=premium&underlying_symbols=SPX&date=${DAY}`,
    aggregates: () => contractFlowTotals(db, { ...rth, roots: ['SPX', 'SPXW'] }, PREVIOUS),
    direct: () => flowByContract(db, { ...rth, roots: ['SPX', 'SPXW'] }, PREVIOUS),
  },
];

const sortedJson = (rows: unknown[]): string => JSON.stringify(rows.map((r) => JSON.stringify(r)).sort());
const ms = (latencies: readonly number[]): string =>
  `p50 ${quantile(latencies, 0.5).toFixed(1)} ms   p99 ${quantile(latencies, 0.99).toFixed(1)} ms`;
const lines: string[] = [];
for (const route of routes) {
  const aggregated = await route.aggregates();
  if (sortedJson(aggregated) !== sortedJson(await route.direct()))
    throw new Error(`${route.name}: the aggregates and the prints give different rows`);
  const url = `${server.url}/v1/options/flow/leaders?${route.query}`;
  const get = async (): Promise<void> => {
    const response = await fetch(url, { headers: bench.headers[0] });
    if (response.status !== 200) throw new Error(`${route.name}: status ${response.status}`);
    await response.arrayBuffer();
  };
  // Warm-ups, each side alike (the service's workers are fresh processes).
  await bareLoop(route.aggregates, WARMUP_SECONDS);
  await autocannonRun(url, bench.headers, WARMUP_SECONDS);
  const idleAggregates = await oneAtATime(route.aggregates, IDLE_REQUESTS);
  const idleDirect = await oneAtATime(route.direct, Math.min(IDLE_REQUESTS, 50));
  const idleEndpoint = await oneAtATime(get, IDLE_REQUESTS);
  const loaded = await bareLoop(route.aggregates, DURATION);
  const run = await autocannonRun(url, bench.headers, DURATION);
  const direct = await bareLoop(route.direct, DURATION);
  const errors = run.errors + run.non2xx;
  const bareRps = loaded.length / DURATION;
  const directRps = direct.length / DURATION;
  lines.push(
    `${route.name}: ${aggregated.length} rows read`,
    `  idle, one at a time: aggregates read ${ms(idleAggregates)};  endpoint ${ms(idleEndpoint)};  direct aggregation of the prints ${ms(idleDirect)}`,
    `  ${CONNECTIONS} connections:`,
    `    aggregates read (bare loop, same pool)  ${bareRps.toFixed(0).padStart(6)} req/s   ${ms(loaded)}`,
    `    endpoint                               ${run.requests.average.toFixed(0).padStart(6)} req/s   p50 ${run.latency.p50.toFixed(1)} ms   p99 ${run.latency.p99.toFixed(1)} ms${errors ? `   errors ${errors}` : ''}`,
    `    direct aggregation (bare loop)         ${directRps.toFixed(0).padStart(6)} req/s   ${ms(direct)}`,
    `  ratio endpoint / aggregates read: ${(run.requests.average / bareRps).toFixed(3)};  endpoint / direct aggregation: ${(run.requests.average / directRps).toFixed(1)}`,
  );
}

const report = [
  `flow leaders bench: ${CONNECTIONS} connections (${bench.headers.length} accounts), ${DURATION}s a run, pool ${config.databasePoolSize}, node ${process.version}, ${os.cpus().length} cores, load average (1, 5, 15 min) ${loadBefore.map((l) => l.toFixed(2)).join(' ')} before the runs, ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} after`,
  `day ${DAY}: ${prints.toLocaleString('en-US')} prints (scale ${SCALE}), ${reused ? 'already loaded' : `simulated and loaded with ${PREVIOUS} in ${loadSeconds.toFixed(0)} s`}; its flow aggregates written again in ${refreshMs.toFixed(0)} ms`,
  ...lines,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/flow-leaders.txt', `${report}\n`);

await db.destroy();
await server.close();
await bench.close();
process.exit(0);
