/**
 * What exact limits cost: the trades page of bench/trades (SPXW, 100 prints, no filter) served as
 * `make run` serves it, all over the same database, in one run:
 * - process: one machine of two HTTP workers, LIMIT_SCOPE=process (each worker counts for itself);
 * - cluster: one machine of two HTTP workers, LIMIT_SCOPE=cluster (the primary's one limiter,
 *   leased in batches): one machine as it runs on the embedded server;
 * - machine: one machine of two HTTP workers, LIMIT_SCOPE=deployment (its primary leases from the
 *   store: src/limits/deployment-lessor.ts);
 * - machines: two machines of one HTTP worker each (the same two HTTP workers in all), both
 *   LIMIT_SCOPE=deployment, the load split in halves, one generator per machine, every account's
 *   connections on both: an account's limits counted once for the two.
 * The configurations alternate in BENCH_ROUNDS (4) rounds of BENCH_SECONDS (10) each, so that a
 * drift of the machine's speed falls on all alike. Prints each round's requests per second, the
 * ratio cluster / process (goal: above 0.90) and two machines / one machine (machines / cluster,
 * the issue's goal at least 0.85; machines / machine too). The limits are the benchmarks' raised
 * ones (bench/support.ts), so every request is admitted and only the counting is measured.
 *
 * BENCH_SCALE (default: the simulator's default scale) sizes the day; WEB_WORKERS (2) the workers
 * of the one-machine configurations (each of the two machines has half of them).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vacuumAnalyze } from '../../src/db/partitions.js';
import { countPrints } from '../../src/db/stored-prints.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import { autocannonRun, CONNECTIONS, DURATION, startBenchService, startServerProcess } from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'default') as Scale;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WORKERS = process.env.WEB_WORKERS ?? '2';
const HALF = String(Math.max(1, Math.floor(Number(WORKERS) / 2)));
const WARMUP_SECONDS = 5;
const NOW = Date.parse('2026-11-20T23:00:00Z');
const DAY = '2026-11-20';

const bench = await startBenchService('limits');
const { dir, service } = bench;
const summary = await simulateMarket({ outDir: path.join(dir, 'sim'), seed: 20261122, scale: SCALE, now: NOW });
const files: Partial<Record<IngestKind, string[]>> = {};
for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
  files[kind] = kind === 'contracts' ? list : list.filter((f) => path.basename(f).includes(DAY));
}
await loadFilesInOrder(service.database.admin, files);
await vacuumAnalyze(service.database.admin);
const prints = await countPrints(service.database.admin, DAY);

const CONFIGS = ['process', 'cluster', 'machine', 'machines'] as const;
type Configuration = (typeof CONFIGS)[number];
const servers: Record<Configuration, Awaited<ReturnType<typeof startServerProcess>>[]> = {
  process: [await startServerProcess(bench.databaseUrl, { WEB_WORKERS: WORKERS, LIMIT_SCOPE: 'process' })],
  cluster: [await startServerProcess(bench.databaseUrl, { WEB_WORKERS: WORKERS, LIMIT_SCOPE: 'cluster' })],
  machine: [await startServerProcess(bench.databaseUrl, { WEB_WORKERS: WORKERS, LIMIT_SCOPE: 'deployment' })],
  machines: [
    await startServerProcess(bench.databaseUrl, { WEB_WORKERS: HALF, LIMIT_SCOPE: 'deployment' }),
    await startServerProcess(bench.databaseUrl, { WEB_WORKERS: HALF, LIMIT_SCOPE: 'deployment' }),
  ],
};
// The connections use the accounts' keys in turn (bench/support.ts ACCOUNTS).
const headers = bench.headers;
const pageOf = (base: string): string => `${base}/v1/options/trades?underlying_symbol=SPXW&date=${DAY}&limit=100`;

/** Requests answered in `seconds` by a configuration: its machines loaded at once, the connections shared among them. */
async function load(config: Configuration, seconds: number): Promise<number> {
  const machines = servers[config];
  const share = Math.max(1, Math.round(CONNECTIONS / machines.length));
  const results = await Promise.all(machines.map((m) => autocannonRun(pageOf(m.url), headers, seconds, undefined, share)));
  const failed = results.reduce((n, r) => n + r.errors + r.non2xx, 0);
  if (failed > 0) throw new Error(`${config}: ${failed} errors or non-2xx answers`);
  return results.reduce((n, r) => n + r.requests.total, 0);
}

for (const config of CONFIGS) {
  for (const machine of servers[config]) {
    const page = await fetch(pageOf(machine.url), { headers: headers[0] });
    if (page.status !== 200) throw new Error(`${config}: the trades page answered ${page.status}`);
  }
  await load(config, WARMUP_SECONDS);
}

const lines: string[] = [];
const totals: Record<Configuration, number> = { process: 0, cluster: 0, machine: 0, machines: 0 };
const twoOverOne: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Rotate which goes first, so that none always follows another.
  const order = CONFIGS.map((_, i) => CONFIGS[(i + round) % CONFIGS.length] as Configuration);
  const rps: Record<Configuration, number> = { process: 0, cluster: 0, machine: 0, machines: 0 };
  for (const config of order) {
    const total = await load(config, DURATION);
    rps[config] = total / DURATION;
    totals[config] += total;
  }
  twoOverOne.push(rps.machines / rps.cluster);
  lines.push(
    `  round ${round + 1}: ${CONFIGS.map((c) => `${c} ${rps[c].toFixed(0)}`).join(', ')} req/s; cluster/process ${(rps.cluster / rps.process).toFixed(3)}, two machines/one machine ${(rps.machines / rps.cluster).toFixed(3)}`,
  );
}
const ratio = (a: Configuration, b: Configuration): string => (totals[a] / totals[b]).toFixed(3);
const report = [
  `limits bench: trades SPXW page of 100, ${CONNECTIONS} connections (${bench.headers.length} accounts), ${ROUNDS} rounds of ${DURATION}s each, node ${process.version}, ${os.cpus().length} cores, load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
  `one machine: ${WORKERS} HTTP workers; two machines: ${HALF} HTTP worker(s) each, the connections split between them (the same HTTP workers in all)`,
  `day ${DAY}: ${prints.toLocaleString('en-US')} prints (scale ${SCALE})`,
  ...lines,
  `cluster / process over all rounds: ${ratio('cluster', 'process')} (goal above 0.90)`,
  `two machines (deployment) / one machine (cluster) over all rounds: ${ratio('machines', 'cluster')} (rounds ${Math.min(...twoOverOne).toFixed(3)} to ${Math.max(...twoOverOne).toFixed(3)}; goal at least 0.85)`,
  `two machines (deployment) / one machine (deployment): ${ratio('machines', 'machine')}; one machine deployment / cluster: ${ratio('machine', 'cluster')}`,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/limits.txt', `${report}\n`);

for (const config of CONFIGS) for (const machine of servers[config]) await machine.close();
await bench.close();
process.exit(0);
