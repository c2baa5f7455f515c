/**
 * What the HTTP benchmarks share: the service on a throwaway embedded PostgreSQL (or DATABASE_URL)
 * with limits raised and response validation off, a Pro account's key, and autocannon run in a
 * child process so the load generator does not share the servers' event loop. The service runs in
 * this process (its database handles load and read data) and, for the measured requests, can also
 * run as `make run` runs it: dist/src/main.js (the build of src/main.ts) in a process of its own
 * (a cluster of WEB_WORKERS HTTP workers), over the same database.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type autocannon from 'autocannon';
import { createAccount, createKey } from '../src/accounts.js';
import { loadConfig } from '../src/config.js';
import { freePort, startEmbeddedPostgres } from '../src/db-server/embedded.js';
import { vacuumAnalyze } from '../src/db/partitions.js';
import type { IngestKind } from '../src/ingest/layouts.js';
import { loadFilesInOrder } from '../src/ingest/seed-market.js';
import { simulateMarket } from '../src/ingest/simulator/index.js';
import type { Scale } from '../src/ingest/simulator/model.js';
import { createLogger } from '../src/logging.js';
import { startService, type RunningService } from '../src/server.js';

const execFileAsync = promisify(execFile);
/** The environment of the benchmarks' services: limits raised, response validation off. */
const BENCH_ENV = {
  PORT: '0',
  // The service as `make run` serves it: one machine on its own (embedded) server, limits counted by
  // the cluster's primary. A bench server is given DATABASE_URL (the bench's embedded server), which
  // would make the deployment's store count them (config.ts); bench/limits and bench/scale measure
  // that by setting LIMIT_SCOPE themselves, and so may a run (LIMIT_SCOPE=deployment npx tsx …).
  LIMIT_SCOPE: process.env.LIMIT_SCOPE ?? 'cluster',
  LIMIT_PER_MINUTE: '10000000',
  LIMIT_PER_SECOND: '1000000',
  LIMIT_IN_FLIGHT: '10000',
  VALIDATE_RESPONSES: 'false',
};
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
/**
 * The accounts whose keys the connections use in turn: by default as many as the connections need
 * at an account's default in-flight limit (4, the spec's), so that the load is what accounts can
 * send. One account on more connections meets its share of each worker's database gate (a quarter
 * of the pool), by design: BENCH_ACCOUNTS=1 measures that.
 */
export const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? Math.ceil(CONNECTIONS / loadConfig({}).limits.requestsInFlight));
export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

export interface BenchService {
  dir: string;
  databaseUrl: string;
  service: RunningService;
  /** The first account's key. */
  key: string;
  /** ACCOUNTS keys, one per account: pass `headers` to autocannonRun for the connections to use them in turn. */
  keys: string[];
  headers: Record<string, string>[];
  close(): Promise<void>;
}

export async function startBenchService(tag: string): Promise<BenchService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `oads-bench-${tag}-`));
  fs.chmodSync(dir, 0o755);
  const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort());
  const databaseUrl = process.env.DATABASE_URL ?? embedded?.url ?? '';
  const config = loadConfig({ DATABASE_URL: databaseUrl, ...BENCH_ENV });
  // The JSON log line of every request is written, as in production, to /dev/null.
  // BENCH_SERVICE_LOG: a file the service's log lines go to instead (e.g. the valuer's stages with STAGE_TIMING=true).
  const devNull = fs.openSync(process.env.BENCH_SERVICE_LOG ?? '/dev/null', 'a');
  const service = await startService(config, { logger: createLogger('info', (line) => fs.writeSync(devNull, line)), jobs: false });
  const keys: string[] = [];
  for (let i = 0; i < Math.max(1, ACCOUNTS); i++) {
    const accountId = await createAccount(service.database.admin, { name: `bench ${i + 1}`, plan: 'pro' });
    keys.push((await createKey(service.database.admin, accountId)).key);
  }
  return {
    dir,
    databaseUrl,
    service,
    key: keys[0] as string,
    keys,
    headers: keys.map((key) => ({ authorization: `Bearer ${key}` })),
    close: async () => {
      await service.stop();
      if (embedded) await embedded.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  url: string;
  /** The process started (with WEB_WORKERS=1, the one serving). */
  pid: number;
  /** HTTP worker processes (1: the service in one process). */
  workers: number;
  close(): Promise<void>;
}

/**
 * The service's entry as `make run` starts it: dist/src/main.js, the build esbuild makes of src/
 * (`make build`, run here first: it rebuilds only when a source is newer than the build). Under tsx
 * (BENCH_SERVICE_FROM=src) each function is wrapped to keep its name (esbuild's keepNames), which
 * costs the closures made per request a call each: not the path users take.
 */
let built = false;
export function serviceEntry(): string[] {
  if (process.env.BENCH_SERVICE_FROM === 'src') return ['--import', 'tsx', 'src/main.ts'];
  if (!built) {
    const make = spawnSync('make', ['--no-print-directory', '--silent', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (make.status !== 0) throw new Error(`make build failed (${String(make.status)})`);
    built = true;
  }
  return ['dist/src/main.js'];
}

/**
 * The service as `make run` starts it (dist/src/main.js, its HTTP workers WEB_WORKERS or the default)
 * over the database at `databaseUrl`, with the benchmarks' limits; its request log lines go to
 * /dev/null (or BENCH_SERVICE_LOG). Resolves once it listens.
 */
export async function startServerProcess(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const childEnv = {
    ...process.env,
    ...BENCH_ENV,
    ...env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    SEED_ON_START: 'false',
    LOG_LEVEL: 'info',
  };
  // BENCH_SERVICE_LOG: a file the service's log lines go to instead (e.g. the valuer's stages with STAGE_TIMING=true).
  const devNull = fs.openSync(process.env.BENCH_SERVICE_LOG ?? '/dev/null', 'a');
  // BENCH_SERVICE_NODE_ARGS: extra node options for the service (e.g. --cpu-prof --cpu-prof-dir=DIR).
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...serviceEntry()], {
    env: childEnv,
    stdio: ['ignore', devNull, 'inherit'],
  });
  fs.closeSync(devNull);
  const url = `http://127.0.0.1:${port}`;
  // Three minutes: on a shared machine under load, loading the service's modules alone can take one.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode} before it listened`);
    if (attempt > 1800) {
      child.kill('SIGTERM');
      throw new Error('the service did not listen within three minutes');
    }
    const up = await fetch(`${url}/v1/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid ?? 0,
    workers: loadConfig(childEnv).webWorkers,
    close: async () => {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/**
 * CONNECTIONS connections for `seconds`; `headers` one set for every connection, or a list dealt
 * out to the connections in turn (several accounts, each on its own connections). With `paths`
 * (paths with their queries on the url's origin) each connection asks them all in turn, each
 * connection from another place in the list: a mix of requests. `connections`: CONNECTIONS unless
 * given (a load split over several machines runs one generator per machine, each with its part).
 */
export async function autocannonRun(
  url: string,
  headers: Record<string, string> | Record<string, string>[],
  seconds: number,
  paths?: readonly string[],
  connections: number = CONNECTIONS,
): Promise<autocannon.Result> {
  const run = { url, connections, seconds, headers: Array.isArray(headers) ? headers : [headers], paths };
  const child = path.join(path.dirname(new URL(import.meta.url).pathname), 'autocannon-child.ts');
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', child, JSON.stringify(run)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as autocannon.Result;
}

/** A two-second warm-up, then the measured run. */
export async function measure(url: string, headers: Record<string, string> | Record<string, string>[]): Promise<autocannon.Result> {
  await autocannonRun(url, headers, 2);
  return await autocannonRun(url, headers, DURATION);
}

/** The q-quantile of some values (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Runs `once` back to back for `seconds` after a 2 s warm-up; the latencies in ms. */
export async function sequential(once: () => Promise<void>, seconds: number): Promise<number[]> {
  const warm = performance.now() + 2000;
  while (performance.now() < warm) await once();
  const out: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    await once();
    out.push(performance.now() - t);
  }
  return out;
}

/** GETs a URL, throwing unless it answers 200; the body is read and dropped. */
export async function getOk(url: string, headers: Record<string, string>): Promise<void> {
  const r = await fetch(url, { headers });
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${(await r.text()).slice(0, 300)}`);
  await r.arrayBuffer();
}

/**
 * One simulated trading day with the underlying history before its week, loaded through the
 * ordinary loaders into the bench's database; a server given by DATABASE_URL that holds the day's
 * quotes already (an earlier run) is kept as it is. The load's seconds, or null when reused.
 */
export async function loadSimulatedDay(bench: BenchService, options: { day: string; scale: Scale; now: number }): Promise<number | null> {
  const admin = bench.service.database.admin;
  const held = await admin.selectFrom('quote_samples').select('contract_id').where('trading_date', '=', options.day).limit(1).execute();
  if (process.env.DATABASE_URL !== undefined && held.length > 0) return null;
  const started = performance.now();
  const summary = await simulateMarket({ outDir: path.join(bench.dir, 'sim'), seed: 20261122, scale: options.scale, now: options.now });
  const wanted = [...summary.historyDates, options.day];
  const files: Partial<Record<IngestKind, string[]>> = {};
  for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
    files[kind] = kind === 'contracts' ? list : list.filter((f) => wanted.some((d) => path.basename(f).includes(d)));
  }
  await loadFilesInOrder(admin, files);
  await vacuumAnalyze(admin);
  return (performance.now() - started) / 1000;
}
