/**
 * Several machines on one PostgreSQL primary with a streaming replica (issue 37 §5): the same
 * trades and levels load served by one machine on the primary alone, then by two machines reading
 * from the replica by the freshness floor (db/replicas.ts), in one run on this box; then the
 * replica's lag while the live market loads its minutes at full scale and the two machines serve.
 *
 * On one 2-core box every process shares the same two cores, so two machines cannot be faster than
 * one: what this shows is that the routing holds up (throughput kept, every answer 2xx, the reads
 * on the replica) and where the CPU goes, each process's own.
 *
 * The deployment: test/support/replica-set.ts (a primary and a streaming replica from the embedded
 * server's binaries). The market: the simulated week up to Wednesday 2026-11-18 10:45 ET at
 * BENCH_SCALE (default `full`; `default` for a quick run) loaded on the primary through the ordinary
 * loaders. The load: BENCH_CONNECTIONS (8) connections over the bench accounts, for BENCH_SECONDS
 * (10) a round, BENCH_ROUNDS (2) rounds alternating which configuration goes first:
 * - one machine: src/main.ts with two HTTP workers, DATABASE_URL the primary, no replica;
 *   limits counted in the store (LIMIT_SCOPE=deployment) in both configurations;
 * - two machines: two src/main.ts with one HTTP worker each (the same two workers in all), both
 *   with DATABASE_REPLICA_URLS, the connections split between them (one generator per machine).
 * Routes, on the previous completed day (2026-11-17): `trades` (SPXW, a page of 100) and `levels`
 * (SPX, default query). CPU: user + system seconds of each machine's processes (its primary and
 * workers) and of each PostgreSQL server (the postmaster with its live backends and the children it
 * has reaped), over each phase.
 *
 * Lag: the live market (src/live/runner.ts, the simulator continued at BENCH_SCALE) loads each
 * minute on the primary from 10:45 ET for BENCH_LAG_SECONDS (120) on the machines' clock, while the
 * two machines serve levels, heat map, skew and trades at "now"; the replica's lag is read every
 * 200 ms (bytes: the primary's pg_current_wal_lsn() less the replica's pg_last_wal_replay_lsn();
 * seconds: how long the replica has been behind a commit, from pg_last_xact_replay_timestamp() while
 * behind) and the machines' /v1/status `replicas` every second.
 *
 * Prints the tables and writes bench/results/scale.txt. Needs a fresh deployment (starts its own).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type autocannon from 'autocannon';
import { offsetClock } from '../../src/clock.js';
import { vacuumAnalyze } from '../../src/db/partitions.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder, SIMULATION_SEED } from '../../src/ingest/seed-market.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import { SimulatedLiveSource } from '../../src/live/simulated-source.js';
import { LiveMarket } from '../../src/live/runner.js';
import { createLogger } from '../../src/logging.js';
import { startReplicaSet, type PgServer } from '../../test/support/replica-set.js';
import { childrenOf, cpuSeconds, cpuSecondsWithReapedChildren, nodeChildrenOf } from '../live/process-stats.js';
import { autocannonRun, CONNECTIONS, DURATION, quantile, startBenchService, startServerProcess, type ServerProcess } from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'full') as Scale;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 120);
const WARMUP_SECONDS = 3;
/** Wednesday 2026-11-18 10:45 ET: the regular session has run 75 minutes. */
const CLOCK_START = Date.parse('2026-11-18T15:45:00Z');
const DAY = '2026-11-18';
const PREVIOUS = '2026-11-17';

const set = await startReplicaSet();
// The bench's own service handle (accounts, loads) on the primary.
process.env.DATABASE_URL = set.primary.url;
const bench = await startBenchService('scale');
const admin = bench.service.database.admin;

const loadStarted = performance.now();
const summary = await simulateMarket({ outDir: path.join(bench.dir, 'sim'), seed: SIMULATION_SEED, scale: SCALE, now: CLOCK_START });
const wanted = [...summary.historyDates, PREVIOUS, DAY];
const files: Partial<Record<IngestKind, string[]>> = {};
for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
  files[kind] = kind === 'contracts' ? list : list.filter((f) => wanted.some((d) => path.basename(f).includes(d)));
}
await loadFilesInOrder(admin, files);
await vacuumAnalyze(admin);
fs.rmSync(path.join(bench.dir, 'sim'), { recursive: true, force: true });
const loadSeconds = (performance.now() - loadStarted) / 1000;
await set.caughtUp(600_000);
const prints = await sql<{ n: string }>`select count(*) as n from prints where trading_date = ${PREVIOUS}::date`.execute(admin);

// The machines. Each on its own data folder (export files being written, archives); the clock at
// the bench's instant so that "now" is the session under way.
const machineEnv = (extra: Record<string, string>): Record<string, string> => ({
  CLOCK_START: String(CLOCK_START),
  LIVE_MODE: 'off',
  DATA_DIR: fs.mkdtempSync(path.join(bench.dir, 'machine-')),
  ...extra,
});
// Limits counted in the store (LIMIT_SCOPE=deployment), as a deployment of several machines counts them.
const one = await startServerProcess(set.primary.url, machineEnv({ WEB_WORKERS: '2', LIMIT_SCOPE: 'deployment' }));
const two = [
  await startServerProcess(
    set.primary.url,
    machineEnv({ WEB_WORKERS: '1', LIMIT_SCOPE: 'deployment', DATABASE_REPLICA_URLS: set.replica.url }),
  ),
  await startServerProcess(
    set.primary.url,
    machineEnv({ WEB_WORKERS: '1', LIMIT_SCOPE: 'deployment', DATABASE_REPLICA_URLS: set.replica.url }),
  ),
];

/** The postmaster's pid, from its data folder. */
const postmasterPid = (server: PgServer): number => Number(fs.readFileSync(path.join(server.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
/** CPU seconds of a PostgreSQL server: the postmaster, its reaped children, and its live children. */
function serverCpu(server: PgServer): number {
  const pid = postmasterPid(server);
  return cpuSecondsWithReapedChildren(pid) + childrenOf(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);
}
/** CPU seconds of a machine: its primary and its HTTP workers. */
const machineCpu = (m: ServerProcess): number => cpuSeconds(m.pid) + nodeChildrenOf(m.pid).reduce((sum, pid) => sum + cpuSeconds(pid), 0);

interface CpuSample {
  machines: number[];
  primary: number;
  replica: number;
}
const cpuNow = (machines: readonly ServerProcess[]): CpuSample => ({
  machines: machines.map(machineCpu),
  primary: serverCpu(set.primary),
  replica: serverCpu(set.replica),
});

const ROUTES = {
  trades: `/v1/options/trades?underlying_symbol=SPXW&date=${PREVIOUS}&limit=100`,
  levels: `/v1/options/levels?underlying_symbol=SPX&date=${PREVIOUS}`,
} as const;
type Route = keyof typeof ROUTES;

interface PhaseResult {
  requests: number;
  non2xx: number;
  errors: number;
  p50: number;
  p99: number;
  seconds: number;
  cpu: { machines: number[]; primary: number; replica: number };
}

/** The load on the machines for `seconds`, the connections split among them, with their CPU. */
async function phase(machines: readonly ServerProcess[], paths: readonly string[], seconds: number): Promise<PhaseResult> {
  const share = Math.max(1, Math.round(CONNECTIONS / machines.length));
  await Promise.all(machines.map((m) => autocannonRun(m.url, bench.headers, WARMUP_SECONDS, paths, share)));
  const before = cpuNow(machines);
  const started = performance.now();
  const results: autocannon.Result[] = await Promise.all(machines.map((m) => autocannonRun(m.url, bench.headers, seconds, paths, share)));
  const elapsed = (performance.now() - started) / 1000;
  const after = cpuNow(machines);
  return {
    requests: results.reduce((sum, r) => sum + r.requests.total, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    // The latencies of the generators merged by their request counts (each its own histogram).
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    seconds: elapsed,
    cpu: {
      machines: after.machines.map((c, i) => c - (before.machines[i] ?? 0)),
      primary: after.primary - before.primary,
      replica: after.replica - before.replica,
    },
  };
}

interface ReplicaState {
  status: string;
  reads: number;
  lag_bytes: number | null;
}
const replicaReads = async (m: ServerProcess): Promise<number> => {
  const r = (await (await fetch(`${m.url}/v1/status`)).json()) as { data: { replicas?: ReplicaState[] } };
  return r.data.replicas?.reduce((sum, x) => sum + x.reads, 0) ?? 0;
};

for (const path0 of Object.values(ROUTES)) {
  for (const m of [one, ...two]) {
    const r = await fetch(`${m.url}${path0}`, { headers: bench.headers[0] });
    if (r.status !== 200) throw new Error(`${path0} answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  }
}

const results: Record<Route, { one: PhaseResult[]; two: PhaseResult[] }> = { trades: { one: [], two: [] }, levels: { one: [], two: [] } };
const readsBefore = (await Promise.all(two.map(replicaReads))).reduce((a, b) => a + b, 0);
for (const route of Object.keys(ROUTES) as Route[]) {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['one', 'two'] as const) : (['two', 'one'] as const);
    for (const which of order) {
      results[route][which].push(await phase(which === 'one' ? [one] : two, [ROUTES[route]], DURATION));
    }
  }
}
const readsAfter = (await Promise.all(two.map(replicaReads))).reduce((a, b) => a + b, 0);

// The lag under the live market at full scale, the two machines serving "now" meanwhile.
const answer = (await (await fetch(`${two[0]?.url}${ROUTES.levels}`, { headers: bench.headers[0] })).json()) as { meta: { as_of: number } };
const serviceNow = offsetClock(Math.round(answer.meta.as_of - Date.now()));
let minutesLoaded = 0;
const live = new LiveMarket({
  db: admin,
  source: new SimulatedLiveSource({ seed: SIMULATION_SEED, scale: SCALE }),
  clock: serviceNow,
  dir: path.join(bench.dir, 'live'),
  simulator: { seed: SIMULATION_SEED, scale: SCALE },
  logger: createLogger('info', (line) => {
    if (line.includes('"live minutes loaded"')) minutesLoaded++;
  }),
});
await live.tick();
live.start();

const primaryClient = new pg.Client({ connectionString: set.primary.url });
const replicaClient = new pg.Client({ connectionString: set.replica.url });
await primaryClient.connect();
await replicaClient.connect();
const lagBytes: number[] = [];
const lagSeconds: number[] = [];
const statusLag: number[] = [];
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    const p = await primaryClient.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const r = await replicaClient.query<{ diff: string | null; behind: number | null }>(
      `select pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())::text as diff,
         case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() and pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) <= 0 then 0
              else extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 end as behind`,
      [p.rows[0]?.lsn],
    );
    lagBytes.push(Math.max(0, Number(r.rows[0]?.diff ?? 0)));
    lagSeconds.push(Math.max(0, r.rows[0]?.behind ?? 0));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
})();
const statusTimer = setInterval(() => {
  void fetch(`${two[0]?.url}/v1/status`)
    .then((r) => r.json())
    .then((r: { data: { replicas?: ReplicaState[] } }) => {
      const lag = r.data.replicas?.[0]?.lag_bytes;
      if (typeof lag === 'number') statusLag.push(lag);
    })
    .catch(() => undefined);
}, 1000);
const nowPaths = [
  '/v1/options/levels?underlying_symbol=SPX',
  '/v1/options/exposure/heatmap?underlying_symbol=SPY',
  '/v1/options/volatility/skew?underlying_symbol=QQQ',
  `/v1/options/trades?underlying_symbol=SPXW&date=${DAY}&limit=100`,
];
const underLive = await phase(two, nowPaths, LAG_SECONDS);
sampling = false;
await sampler;
clearInterval(statusTimer);
await live.stop();
await primaryClient.end();
await replicaClient.end();

const rps = (r: PhaseResult): number => r.requests / r.seconds;
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const lines: string[] = [];
lines.push(
  `scale bench: one machine (2 HTTP workers, the primary alone) vs two machines (1 HTTP worker each, DATABASE_REPLICA_URLS), ${CONNECTIONS} connections (${bench.headers.length} accounts), ${ROUNDS} rounds of ${DURATION} s each way; node ${process.version}, ${os.cpus().length} cores, load average at start ${os.loadavg()[0]?.toFixed(1)}`,
);
lines.push(
  `market: scale ${SCALE}, loaded in ${loadSeconds.toFixed(0)} s; ${PREVIOUS}: ${Number(prints.rows[0]?.n).toLocaleString('en-US')} prints`,
);
lines.push('');
lines.push(
  '| route | configuration | req/s (rounds) | p50 / p99 ms | non-2xx | CPU s per 1,000 requests: machines, primary PG, replica PG |',
);
lines.push('|---|---|---|---|---|---|');
for (const route of Object.keys(ROUTES) as Route[]) {
  for (const which of ['one', 'two'] as const) {
    const rs = results[route][which];
    const total = rs.reduce((s, r) => s + r.requests, 0);
    const per = (cpu: number): string => ((cpu / total) * 1000).toFixed(2);
    lines.push(
      `| ${route} | ${which === 'one' ? 'one machine' : 'two machines + replica'} | ${rs.map((r) => rps(r).toFixed(0)).join(', ')} | ${quantile(
        rs.map((r) => r.p50),
        0.5,
      ).toFixed(0)} / ${Math.max(...rs.map((r) => r.p99)).toFixed(0)} | ${sum(rs.map((r) => r.non2xx + r.errors))} | ${rs[0]?.cpu.machines
        .map((_, i) => per(sum(rs.map((r) => r.cpu.machines[i] ?? 0))))
        .join(' + ')}, ${per(sum(rs.map((r) => r.cpu.primary)))}, ${per(sum(rs.map((r) => r.cpu.replica)))} |`,
    );
  }
  const ratio = sum(results[route].two.map(rps)) / sum(results[route].one.map(rps));
  lines.push(`| ${route} | two / one | ${ratio.toFixed(3)} | | | |`);
}
lines.push('');
lines.push(
  `reads served by the replica over the two-machine phases (the machines' /v1/status): ${(readsAfter - readsBefore).toLocaleString('en-US')}`,
);
lines.push('');
lines.push(
  `under the live market (${minutesLoaded} minute loads at scale ${SCALE} in ${LAG_SECONDS} s, the two machines serving levels, heat map, skew and trades at "now": ${rps(
    underLive,
  ).toFixed(0)} req/s, p50 ${underLive.p50} ms, p99 ${underLive.p99} ms, non-2xx ${underLive.non2xx + underLive.errors}):`,
);
const mb = (b: number): string => `${(b / 1048576).toFixed(2)} MB`;
lines.push(
  `  replica lag, ${lagBytes.length} samples every 200 ms: bytes p50 ${mb(quantile(lagBytes, 0.5))}, p99 ${mb(quantile(lagBytes, 0.99))}, max ${mb(
    Math.max(...lagBytes),
  )}; seconds behind p50 ${quantile(lagSeconds, 0.5).toFixed(3)}, p99 ${quantile(lagSeconds, 0.99).toFixed(3)}, max ${Math.max(...lagSeconds).toFixed(3)}`,
);
lines.push(
  `  as /v1/status showed it (${statusLag.length} samples): lag_bytes p50 ${mb(quantile(statusLag, 0.5))}, max ${mb(Math.max(0, ...statusLag))}`,
);
lines.push(
  `  CPU over the phase (s): machines ${underLive.cpu.machines.map((c) => c.toFixed(1)).join(' + ')}, primary PG ${underLive.cpu.primary.toFixed(1)}, replica PG ${underLive.cpu.replica.toFixed(
    1,
  )}, this process (the live market's loads) not counted`,
);
lines.push('');
lines.push(
  'On one 2-core box every process shares the same cores: the two-machine figures show that the routing holds (throughput kept, no error, the reads on the replica), not a speedup.',
);
const report = lines.join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/scale.txt', `${report}\n`);

await Promise.all([one, ...two].map((m) => m.close()));
await bench.close();
await set.close();
process.exit(0);
