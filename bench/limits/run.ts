/**
 * What exact cluster-wide limits cost: the trades page of bench/trades (SPXW, 100 prints, no
 * filter) served as `make run` serves it with two HTTP workers, once with LIMIT_SCOPE=process (each
 * worker counts for itself) and once with LIMIT_SCOPE=cluster (the primary's one limiter, leased in
 * batches), both over the same database, alternating BENCH_ROUNDS (4) rounds of BENCH_SECONDS (10)
 * each so that a drift of the machine's speed falls on both alike. Prints each round's requests per
 * second and the ratio cluster / process (goal: above 0.90, a cost under 10%). The limits are the
 * benchmarks' raised ones (bench/support.ts), so every request is admitted and only the counting
 * is measured.
 *
 * BENCH_SCALE (default: the simulator's default scale) sizes the day; WEB_WORKERS (2) the workers.
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

const servers = {
  process: await startServerProcess(bench.databaseUrl, { WEB_WORKERS: WORKERS, LIMIT_SCOPE: 'process' }),
  cluster: await startServerProcess(bench.databaseUrl, { WEB_WORKERS: WORKERS, LIMIT_SCOPE: 'cluster' }),
};
// The connections use the accounts' keys in turn (bench/support.ts ACCOUNTS).
const headers = bench.headers;
const url = (scope: keyof typeof servers): string => `${servers[scope].url}/v1/options/trades?underlying_symbol=SPXW&date=${DAY}&limit=100`;
for (const scope of ['process', 'cluster'] as const) {
  const page = await fetch(url(scope), { headers: headers[0] });
  if (page.status !== 200) throw new Error(`${scope}: the trades page answered ${page.status}`);
  await autocannonRun(url(scope), headers, WARMUP_SECONDS);
}

const lines: string[] = [];
const totals = { process: 0, cluster: 0 };
const ratios: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which goes first, so neither always follows the other.
  const order = round % 2 === 0 ? (['process', 'cluster'] as const) : (['cluster', 'process'] as const);
  const rps = { process: 0, cluster: 0 };
  for (const scope of order) {
    const result = await autocannonRun(url(scope), headers, DURATION);
    if (result.errors + result.non2xx > 0) throw new Error(`${scope}: ${result.errors} errors, ${result.non2xx} non-2xx`);
    rps[scope] = result.requests.total / DURATION;
    totals[scope] += result.requests.total;
  }
  ratios.push(rps.cluster / rps.process);
  lines.push(
    `  round ${round + 1}: process ${rps.process.toFixed(0)} req/s, cluster ${rps.cluster.toFixed(0)} req/s, ratio ${(rps.cluster / rps.process).toFixed(3)}`,
  );
}
const report = [
  `limits bench: trades SPXW page of 100, ${WORKERS} HTTP workers, ${CONNECTIONS} connections (${bench.headers.length} accounts), ${ROUNDS} rounds of ${DURATION}s each way, node ${process.version}, ${os.cpus().length} cores`,
  `day ${DAY}: ${prints.toLocaleString('en-US')} prints (scale ${SCALE})`,
  ...lines,
  `cluster / process over all rounds: ${(totals.cluster / totals.process).toFixed(3)} (rounds ${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)}; goal above 0.90)`,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/limits.txt', `${report}\n`);

await servers.process.close();
await servers.cluster.close();
await bench.close();
process.exit(0);
