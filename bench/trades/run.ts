/**
 * Trades throughput: autocannon against /v1/options/trades pages of 100 prints (without filters,
 * with store filters, with a post-read exchange filter) on a simulated trading day, against a bare
 * loop from node that runs a plain SELECT of the same 100 rows and the 31 served columns with `pg`
 * (rows decoded as usual) on a pool of the same size, with as many concurrent callers as
 * connections, in the same run (the bench checks first that both read the same rows in the same
 * order). The two alternate, BENCH_ROUNDS (3) rounds of a loop run then an endpoint run, so that
 * a drift of the machine's speed during the run (seen here: 15-20%) falls on both alike. Prints
 * requests per second over all rounds, the ratio to the bare loop (goal >= 1.0) with each
 * round's ratio, and latency percentiles (goal: p99 < 50 ms at 8 connections; the endpoint's
 * worst round).
 *
 * The database's own ceiling for the page statement (what printsPageText runs for a first page
 * of 100 of a random root of the day): pgbench -M prepared, as many clients as connections, on 2
 * threads, BENCH_SECONDS, run before the shapes and again after them (the machine's drift falls on
 * both), and each shape's endpoint rate against their mean (issue 35's goal: >= 0.5), in the
 * summary beside the ratio to the bare loop. The system's pgbench (Debian's) runs against the
 * embedded server: the embedded package ships no pgbench, and the client's version needs not be the
 * server's. Skipped when pgbench is not installed.
 *
 * Then where a request's time goes (BENCH_STAGES=0 skips it): the service again in a process of its
 * own with STAGE_TIMING=true, each shape asked by CONNECTIONS callers for BENCH_SECONDS, and the
 * mean and median of each stage its Server-Timing header names (src/stage-timing.ts: context,
 * key, limiter, names, validation, gate, entitlements, service, statement, result, envelope), with
 * what the client waited beyond them (HTTP parsing and writing, the event loop's queue).
 *
 * Then compression: the SPXW page of 100 prints and of 500 (the largest) asked without
 * Accept-Encoding, with gzip and with br, in alternating rounds against the same server (started
 * with COMPRESSION_THRESHOLD=0, so that it compresses any page a client accepts compressed; a
 * client that sends no Accept-Encoding, as autocannon above, gets the page as it is): requests per
 * second, p99 and bytes per page, which is what the service's default threshold is chosen from.
 * BENCH_COMPRESSION=0 skips it and the envelope section after it.
 *
 * BENCH_SCALE (default full: about 2.3 million prints on the day) and BENCH_EVENTS (regular-session
 * order events, overrides the scale's) size the day; BENCH_CONNECTIONS (8), BENCH_SECONDS (10, a
 * run);
 * DATABASE_URL uses that server instead of a throwaway embedded one (and the day it holds, when an
 * earlier run loaded it). The endpoint is served as `make run` serves it (dist/src/main.js, the build of src/main.ts, in its own
 * process: WEB_WORKERS HTTP workers, default one per core, sharing the pool's size between them);
 * WEB_WORKERS=1 measures the service in one process. The endpoint's connections are shared by
 * BENCH_ACCOUNTS accounts (default: two, at the spec's 4 in flight each): one account on all 8
 * meets its share of each worker's database gate, a quarter of the worker's connections, by design
 * (BENCH_ACCOUNTS=1 measures that). The cluster hands the connections to its workers in turn, in
 * the order autocannon opens them (as a rule: node's round robin gives a connection to the next
 * worker free to take it): dealt to the accounts in turn as well (BENCH_DEAL=turn), every connection
 * of an account can land on one worker, whose gate lets 2 of its 4 requests run at once, half the
 * bare loop's concurrency (not measured apart: the runs of issue 35 were too noisy to tell); by
 * default (BENCH_DEAL=spread) each account's connections are dealt across the workers, as many on
 * each, which is what the two accounts were meant to measure.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import pg from 'pg';
import { readBounds, SESSIONS_OF } from '../../src/analytics/print-filters.js';
import { workerPoolSize } from '../../src/cluster.js';
import { SESSION_SETTINGS } from '../../src/db/connection.js';
import { vacuumAnalyze } from '../../src/db/partitions.js';
import { countPrints } from '../../src/db/stored-prints.js';
import { printsPageStatement, printsPageText, type PrintFilter } from '../../src/db/trades.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import type { ScaleSpec } from '../../src/ingest/simulator/activity.js';
import { autocannonRun, CONNECTIONS, DURATION, measure, startBenchService, startServerProcess } from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'full') as Scale;
const EVENTS = process.env.BENCH_EVENTS ? Number(process.env.BENCH_EVENTS) : undefined;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 5;
const DEAL = process.env.BENCH_DEAL === 'turn' ? 'turn' : 'spread';
const COMPRESSION = process.env.BENCH_COMPRESSION !== '0';
const STAGES = process.env.BENCH_STAGES !== '0';
/** Friday 2026-11-20 after the close: the simulated week ends with that day. */
const NOW = Date.parse('2026-11-20T23:00:00Z');
const DAY = '2026-11-20';

/** The 31 served fields as columns, in the order of the Print schema. */
const COLUMNS =
  'ask, bid, condition_code, contract_type, date_of_expiry, day_volume, days_to_expiry, delta, exchange, exchange_code, flags, group_id, id, implied_volatility, ' +
  'is_block, is_golden, is_unusual, open_interest, otm_percent, premium, price, sentiment, session, side, side_confidence, size, strike, ts, trade_type, underlying_price, root';

interface LoopResult {
  requests: number;
  latencies: number[];
}

/** CONNECTIONS callers each running the query back to back for `seconds`. */
async function bareLoop(pool: pg.Pool, text: string, values: unknown[], seconds: number): Promise<LoopResult> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const result = await pool.query(text, values);
        if (result.rows.length === 0) throw new Error('bare query returned no rows');
        latencies.push(performance.now() - started);
      }
    }),
  );
  return { requests: latencies.length, latencies };
}

/** The q-quantile of some latencies. */
function quantile(latencies: number[], q: number): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

const bench = await startBenchService('trades');
const { dir, service, key } = bench;
const config = service.deps.config;

const started = performance.now();
// A server given by DATABASE_URL that holds the day already (an earlier run) is measured as it is.
const reused = process.env.DATABASE_URL !== undefined && (await countPrints(service.database.admin, DAY)) > 0;
if (!reused) {
  const overrides: Partial<ScaleSpec> = EVENTS === undefined ? {} : { rthEvents: EVENTS };
  const summary = await simulateMarket({ outDir: path.join(dir, 'sim'), seed: 20261122, scale: SCALE, now: NOW }, overrides);
  const files: Partial<Record<IngestKind, string[]>> = {};
  for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
    files[kind] = kind === 'contracts' ? list : list.filter((f) => path.basename(f).includes(DAY));
  }
  await loadFilesInOrder(service.database.admin, files);
  await vacuumAnalyze(service.database.admin);
}
const prints = await countPrints(service.database.admin, DAY);
const loadSeconds = (performance.now() - started) / 1000;
// The endpoint as `make run` serves it: dist/src/main.js (the build of src/main.ts) in a process of its own, by default a cluster
// of one HTTP worker per core (WEB_WORKERS=1: one process), over the same database.
const server = await startServerProcess(bench.databaseUrl, { COMPRESSION_THRESHOLD: '0' });

const routes: { name: string; query: string; bare: { where: string; values: unknown[] } }[] = [
  {
    // The endpoint's session rth is the regular session's prints only (print-filters.ts SESSIONS_OF;
    // curb prints and late reports are served with session=all): the plain SELECT reads the same.
    // (Before rth was narrowed it served curb prints too, and the loop read the curb session.)
    name: 'trades SPXW, no filter',
    query: `underlying_symbol=SPXW&date=${DAY}&limit=100`,
    bare: { where: `root = $2 and session = 'rth'`, values: ['SPXW'] },
  },
  {
    name: 'trades SPY, store filters',
    query: `underlying_symbol=SPY&date=${DAY}&limit=100&side=ask&min_size=2&include_complex=false`,
    bare: {
      where: `root = $2 and session = 'rth' and side = any('{at_ask,near_ask}') and size >= 2 and trade_type <> 'multileg'`,
      values: ['SPY'],
    },
  },
  {
    name: 'trades SPY, exchange filter',
    query: `underlying_symbol=SPY&date=${DAY}&limit=100&exchange=cboe,ise,phlx`,
    bare: { where: `root = $2 and session = 'rth' and exchange = any('{cboe,ise,phlx}')`, values: ['SPY'] },
  },
];

// The same pool size and session settings as the service's own pool.
const pool = new pg.Pool({ connectionString: service.database.connectionString, max: config.databasePoolSize, options: SESSION_SETTINGS });
// The SPXW page's filter as the endpoint reads it (session rth, bounded by the regular session's span).
const pageFilter: PrintFilter = {
  tradingDate: DAY,
  roots: ['SPXW'],
  sessions: SESSIONS_OF.rth,
  ...readBounds(DAY, 'rth', { from: null, to: null }),
  includeComplex: true,
};
// The database's own ceiling for the endpoint's page statement (issue 35): pgbench -M prepared with
// CONNECTIONS clients on 2 threads, BENCH_SECONDS, the statement of a first page of 100 regular-session
// prints of a root drawn at random each time among the day's roots (the values written in as
// literals, the root as a pgbench variable). Null when pgbench is not installed.
const pgbenchInstalled = spawnSync('pgbench', ['--version'], { encoding: 'utf8' }).status === 0;
let pgbenchScript: { path: string; roots: number } | null = null;
async function ceiling(): Promise<{ tps: number; latency: string; roots: number } | null> {
  if (!pgbenchInstalled) return null;
  if (pgbenchScript === null) {
    const roots = (
      await pool.query<{ root: string }>(
        `select distinct root from prints where trading_date = $1::date and session = 'rth' order by root`,
        [DAY],
      )
    ).rows.map((r) => r.root);
    const statement = printsPageStatement(service.deps.db, { ...pageFilter, roots: ['SPXW'] }, 100);
    if (statement === null || roots.length === 0) throw new Error('no page statement for pgbench');
    const literal = (value: unknown): string =>
      Array.isArray(value) ? `'{${value.join(',')}}'` : typeof value === 'number' ? String(value) : `'${String(value)}'`;
    let text = statement.sql.replace(/\s+/g, ' ');
    // Highest first, so that $1 does not match the start of $10.
    for (let i = statement.parameters.length; i >= 1; i--) {
      const value = statement.parameters[i - 1];
      const replacement = value === 'SPXW' ? `(array[${roots.map((r) => `'${r}'`).join(',')}])[:r]` : literal(value);
      text = text.replaceAll(`$${i}::`, `${replacement}::`);
    }
    const script = path.join(dir, 'page.sql');
    fs.writeFileSync(script, `\\set r random(1, ${roots.length})\n${text};\n`);
    pgbenchScript = { path: script, roots: roots.length };
  }
  const run = spawnSync(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(CONNECTIONS),
      '-j',
      '2',
      '-T',
      String(DURATION),
      '-f',
      pgbenchScript.path,
      service.database.connectionString,
    ],
    { encoding: 'utf8' },
  );
  const tps = /tps = ([0-9.]+)/.exec(run.stdout)?.[1];
  if (tps === undefined) throw new Error(`pgbench failed: ${run.stderr}`);
  return { tps: Number(tps), latency: /latency average = ([0-9.]+) ms/.exec(run.stdout)?.[1] ?? '?', roots: pgbenchScript.roots };
}

/**
 * The connections' headers, connection i the i-th (autocannon-child.ts): with `spread`, connection i
 * (which the cluster hands to worker i mod W) is an account's in turn every W connections.
 */
const dealt = Array.from(
  { length: CONNECTIONS },
  (_, i) => bench.headers[(DEAL === 'spread' ? Math.floor(i / server.workers) : i) % bench.headers.length] ?? {},
);
const ceilingBefore = await ceiling();
const lines: string[] = [];
const endpointRates: { name: string; rps: number; ratio: number; p99: number }[] = [];
const line = (name: string, rps: number, p50: number, p99: number, errors = 0) =>
  `${name.padEnd(36)} ${rps.toFixed(0).padStart(8)} req/s   p50 ${p50.toFixed(1)} ms   p99 ${p99.toFixed(1)} ms${errors ? `   errors ${errors}` : ''}`;
for (const route of routes) {
  const text = `select ${COLUMNS} from prints where trading_date = $1::date and not cancelled and ${route.bare.where} order by ts desc, sequence desc, contract_id desc limit 100`;
  const values = [DAY, ...route.bare.values];
  // The baseline must read the rows the endpoint serves, in the same order.
  const page = (await (
    await fetch(`${server.url}/v1/options/trades?${route.query}`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as { data: { id: string }[] };
  const bareIds = (await pool.query<{ id: string }>(text, values)).rows.map((r) => r.id);
  if (JSON.stringify(page.data.map((p) => p.id)) !== JSON.stringify(bareIds))
    throw new Error(`${route.name}: the bare SELECT does not read the endpoint's rows`);
  const url = `${server.url}/v1/options/trades?${route.query}`;
  // The connections use the accounts' keys in turn (bench/support.ts ACCOUNTS).
  const headers = dealt;
  // Warm-ups, each side alike: the service's workers are fresh processes (each compiles its code
  // and prepares its statements on its own connections). With 2 s, the first route's first
  // endpoint round ran at 0.74-0.87 of the loop in three runs, its later rounds at 1.0-1.4.
  await bareLoop(pool, text, values, WARMUP_SECONDS);
  await autocannonRun(url, headers, WARMUP_SECONDS);
  const loops: LoopResult[] = [];
  const runs: Awaited<ReturnType<typeof autocannonRun>>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    loops.push(await bareLoop(pool, text, values, DURATION));
    runs.push(await autocannonRun(url, headers, DURATION));
  }
  const bareRps = loops.reduce((sum, l) => sum + l.requests, 0) / (ROUNDS * DURATION);
  const latencies = loops.flatMap((l) => l.latencies);
  const servedRps = runs.reduce((sum, r) => sum + r.requests.total, 0) / (ROUNDS * DURATION);
  const servedP50 = quantile(
    runs.map((r) => r.latency.p50),
    0.5,
  );
  const servedP99 = Math.max(...runs.map((r) => r.latency.p99));
  const errors = runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
  endpointRates.push({ name: route.name.replace('trades ', ''), rps: servedRps, ratio: servedRps / bareRps, p99: servedP99 });
  const rounds = runs.map((r, i) => (r.requests.total / (loops[i] as LoopResult).requests).toFixed(2)).join(' ');
  lines.push(
    `${route.name}:`,
    `  ${line('bare SELECT loop (pg, same pool)', bareRps, quantile(latencies, 0.5), quantile(latencies, 0.99))}`,
    `  ${line('endpoint', servedRps, servedP50, servedP99, errors)}`,
    `  ratio (endpoint / bare loop): ${(servedRps / bareRps).toFixed(3)}, rounds ${rounds}  (goal >= 1.2; p99 goal < 50 ms)`,
  );
}
const ceilingAfter = await ceiling();
if (ceilingBefore !== null && ceilingAfter !== null) {
  const tps = (ceilingBefore.tps + ceilingAfter.tps) / 2;
  lines.push(
    `database ceiling (pgbench -M prepared -c ${CONNECTIONS} -j 2, the page statement, a random root of ${ceilingBefore.roots}): ` +
      `${ceilingBefore.tps.toFixed(0)} tps before the shapes, ${ceilingAfter.tps.toFixed(0)} after (latency average ${ceilingBefore.latency} / ${ceilingAfter.latency} ms)`,
  );
  lines.push('summary (endpoint / bare loop goal >= 1.2, endpoint / ceiling goal >= 0.5, p99 goal < 50 ms):');
  for (const { name, rps, ratio, p99 } of endpointRates)
    lines.push(
      `  ${name.padEnd(24)} ${rps.toFixed(0).padStart(6)} req/s   / bare loop ${ratio.toFixed(2)}   / ceiling ${(rps / tps).toFixed(2)}   p99 ${p99.toFixed(1)} ms`,
    );
}
/** The bytes of a response as sent, and its Content-Encoding. */
function sentBytes(url: string, headers: Record<string, string>): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ bytes, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      })
      .on('error', reject);
  });
}

if (COMPRESSION) lines.push('compression (the service compresses any page here; the rows are what the client accepts):');
for (const limit of COMPRESSION ? [100, 500] : []) {
  const url = `${server.url}/v1/options/trades?underlying_symbol=SPXW&date=${DAY}&limit=${limit}`;
  const encodings = ['identity', 'gzip', 'br'] as const;
  const results = new Map<string, Awaited<ReturnType<typeof autocannonRun>>[]>(encodings.map((e) => [e, []]));
  const headersFor = (encoding: string) => bench.headers.map((h) => ({ ...h, 'accept-encoding': encoding }));
  for (const encoding of encodings) await autocannonRun(url, headersFor(encoding), 2);
  for (let round = 0; round < ROUNDS; round++) {
    for (const encoding of encodings) results.get(encoding)?.push(await autocannonRun(url, headersFor(encoding), DURATION));
  }
  const identityRps = (results.get('identity') ?? []).reduce((sum, r) => sum + r.requests.total, 0) / (ROUNDS * DURATION);
  for (const encoding of encodings) {
    const runs = results.get(encoding) ?? [];
    const rps = runs.reduce((sum, r) => sum + r.requests.total, 0) / (ROUNDS * DURATION);
    const sent = await sentBytes(url, { ...(bench.headers[0] ?? {}), 'accept-encoding': encoding });
    if (sent.encoding !== encoding) throw new Error(`asked ${encoding}, got ${sent.encoding}`);
    const errors = runs.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    lines.push(
      `  ${line(
        `${limit} prints, ${encoding}`,
        rps,
        quantile(
          runs.map((r) => r.latency.p50),
          0.5,
        ),
        Math.max(...runs.map((r) => r.latency.p99)),
        errors,
      )}   ${sent.bytes.toLocaleString('en-US')} bytes   ratio to identity ${(rps / identityRps).toFixed(3)}`,
    );
  }
}

// What the envelope's re-encoding costs: the same page read by printsPageText in a bare express
// route, sent as res.json of the parsed bodies, or as the bodies' text inside the envelope (what
// the feeds do with HandlerResult.dataJson).
async function envelopeSection(): Promise<void> {
  const bare = express();
  bare.get('/parsed', async (_req, res) => {
    const page = await printsPageText(service.deps.db, pageFilter, null, 100);
    res.json({ data: JSON.parse(`[${page.bodies}]`) as unknown, meta: { source: 'opra' } });
  });
  bare.get('/text', async (_req, res) => {
    const page = await printsPageText(service.deps.db, pageFilter, null, 100);
    res.type('application/json').send(`{"data":[${page.bodies}],"meta":${JSON.stringify({ source: 'opra' })}}`);
  });
  const bareServer = bare.listen(0, '127.0.0.1');
  await new Promise((resolve) => bareServer.once('listening', resolve));
  const barePort = (bareServer.address() as { port: number }).port;
  const parsed = await measure(`http://127.0.0.1:${barePort}/parsed`, {});
  const text = await measure(`http://127.0.0.1:${barePort}/text`, {});
  lines.push(
    'envelope encoding (bare express, same SPXW page, no platform):',
    `  ${line('parsed bodies, res.json', parsed.requests.average, parsed.latency.p50, parsed.latency.p99, parsed.errors + parsed.non2xx)}`,
    `  ${line('body text joined into the envelope', text.requests.average, text.latency.p50, text.latency.p99, text.errors + text.non2xx)}`,
  );
  bareServer.close();
}
if (COMPRESSION) await envelopeSection();

/** Stage durations (ms) of the responses of `callers` keep-alive callers asking `url` for `seconds`, and their wall times. */
async function stageTimes(url: string, seconds: number): Promise<{ stages: Map<string, number[]>; wall: number[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const stages = new Map<string, number[]>();
  const wall: number[] = [];
  const until = performance.now() + seconds * 1000;
  const once = (headers: Record<string, string>) =>
    new Promise<string>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve(String(res.headers['server-timing'] ?? '')) : reject(new Error(`${url}: ${res.statusCode}`)),
          );
        })
        .on('error', reject);
    });
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, i) => {
      const headers = dealt[i] ?? {};
      while (performance.now() < until) {
        const started = performance.now();
        const timing = await once(headers);
        wall.push(performance.now() - started);
        for (const part of timing.split(', ')) {
          const [name, dur] = part.split(';dur=');
          if (name === undefined || dur === undefined) continue;
          const list = stages.get(name) ?? [];
          list.push(Number(dur));
          stages.set(name, list);
        }
      }
    }),
  );
  agent.destroy();
  return { stages, wall };
}

await server.close();
if (STAGES) {
  // A service of its own with STAGE_TIMING on: the measured one above stamps nothing.
  const timed = await startServerProcess(bench.databaseUrl, { STAGE_TIMING: 'true' });
  lines.push(
    `stages (STAGE_TIMING=true, ${CONNECTIONS} keep-alive callers, ${DURATION} s a shape; mean / median in microseconds, each stage from the end of the one before):`,
  );
  for (const route of routes) {
    const url = `${timed.url}/v1/options/trades?${route.query}`;
    await stageTimes(url, WARMUP_SECONDS);
    const { stages, wall } = await stageTimes(url, DURATION);
    const mean = (list: readonly number[]) => (1000 * list.reduce((sum, v) => sum + v, 0)) / Math.max(1, list.length);
    const parts = [...stages].map(([name, list]) => `${name} ${mean(list).toFixed(0)}/${(1000 * quantile(list, 0.5)).toFixed(0)}`);
    const inside = [...stages.values()].reduce((sum, list) => sum + mean(list), 0);
    lines.push(
      `  ${route.name} (${wall.length} requests): ${parts.join(', ')}`,
      `    stamped ${inside.toFixed(0)} us of a mean ${mean(wall).toFixed(0)} us the client waited (median ${(1000 * quantile(wall, 0.5)).toFixed(0)} us)`,
    );
  }
  await timed.close();
}

const report = [
  `trades bench: ${CONNECTIONS} connections (${bench.headers.length} accounts, dealt ${DEAL === 'spread' ? 'across the workers' : 'in turn'}), ${ROUNDS} rounds of ${DURATION}s, pool ${config.databasePoolSize} (the service's ${server.workers === 1 ? 'one process' : `${server.workers} HTTP workers ${workerPoolSize({ ...config, webWorkers: server.workers })} each`}), node ${process.version}, ${os.cpus().length} cores`,
  `day ${DAY}: ${prints.toLocaleString('en-US')} prints (scale ${SCALE}${EVENTS === undefined ? '' : `, ${EVENTS} regular-session events`}), ${reused ? 'already loaded' : `simulated and loaded in ${loadSeconds.toFixed(0)} s`}`,
  ...lines,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/trades.txt', `${report}\n`);

await pool.end();
await bench.close();
process.exit(0);
