/**
 * The positioning and volatility routes during a live session (issue 32 §6), each figure against
 * the same routes for the previous completed day, on the same service in the same run.
 *
 * The market: the simulated week up to Wednesday 2026-11-18 10:45 ET (the five sessions before it
 * and that Wednesday so far, BENCH_SCALE: default `full`, `default` for a quick run), loaded into
 * a throwaway embedded PostgreSQL through the ordinary loaders (history bars, Tuesday 2026-11-17,
 * the Wednesday so far). The service runs as `make run` runs it (dist/src/main.js, the build of src/main.ts, in its own process,
 * WEB_WORKERS HTTP workers) with its clock started at that instant (CLOCK_START) and the limits
 * raised, so the session is under way while the bench runs:
 * - at BENCH_SCALE=default, with LIVE_MODE=live: the service's primary loads each minute as its
 *   clock passes it (src/live/runner.ts, the simulator's run continued), as `make run` does;
 * - at full scale the live runner of src/main.ts cannot be used (it continues the simulator at the
 *   default scale, which would load default-scale contracts and open interest over the full-scale
 *   day): the same LiveMarket, with the simulator at full scale, runs in this process on the
 *   service's clock (its offset read from the service's meta.as_of), and the service runs with
 *   LIVE_MODE=off. The service's CPU then leaves out the minutes' loads.
 * The phases begin once the runner's first pass (the newest stored minute loaded again, and the
 * minutes since caught up) is over.
 *
 * Load: BENCH_CONNECTIONS (64) connections over BENCH_ACCOUNTS (16) accounts, each asking in turn
 * levels, heat map, skew and drift for SPX, SPY, QQQ and IWM (16 requests, default parameters): at
 * "now" (no date) for BENCH_SECONDS (180), then the same mix for the previous completed day
 * (date=2026-11-17) for as long; each after a 10 s warm-up at the connections. Reported for each:
 * p50, p99, errors (non-2xx and socket errors), requests per second, and the ratio of "now"'s
 * throughput to the completed day's (goals: p50 < 20 ms, p99 < 150 ms, 0 errors, ratio >= 0.5).
 *
 * While the "now" load runs, what a minute's load costs a request:
 * - the commit of each minute's quotes is seen by polling quote_minutes every 100 ms from this
 *   process (the table the valuation instant is read from, written in the samples' transaction);
 * - a minute's books are ready when the valuer (or a request) has mapped the minute of each of the
 *   four families (position_book_minutes, polled every 100 ms), counted from the minute's load
 *   committed: at full scale this process loads, and its runner's log line marks the commit of
 *   the load's last file (the prints, after the bars and quotes); at the default scale the
 *   service loads, and the quotes' commit seen stands for it. A mapping made before the whole load
 *   committed does not count: at full scale the valuer can find the change log still between the
 *   minute's quotes and its prints, value the minute without its prints, and value it again after;
 * - a probe asks the drift of SPX at "now" back to back on one connection (so one HTTP worker):
 *   "ready" is the time from the commit to the probe's first answer whose last point is the new
 *   minute (drift is not a book: each HTTP worker computes a new minute's drift on its first
 *   request of it);
 * - a second probe asks levels of SPX at "now" back to back: the latency of its first request
 *   sent after each commit (the worker values the family again, unless a request of the load got
 *   there first).
 * Then `at`: BENCH_AT_REQUESTS (40) requests one at a time, each at a different minute of the
 * session's regular hours before the clock's start (none asked before; each request's instant
 * falls in the minute after it, so it values it), the route and symbol of the mix in turn: p50
 * (goal < 150 ms).
 *
 * The service's CPU (user + system, /proc/<pid>/stat of the primary and of its HTTP workers) over
 * each phase, and its RSS (the sum over those processes) sampled every second over the run: start
 * (when it listens), max and end. The issue's CPU goal is about valuing books (at most 30% of one
 * core); with no books the workers' CPU of valuation is estimated as what the "now" requests cost
 * beyond the same number of completed-day requests (CPU per request of each phase).
 *
 * The 503s of a load are the worker's database gate (upstream_busy): the errors line breaks the
 * non-2xx down by status. The RSS verdict (end within 1.1 x the first half's max) means something
 * over a long run only (the issue's is ten minutes).
 *
 * Prints the table, and each goal met or not; exits 0 either way unless BENCH_STRICT=1. Needs a
 * fresh database (DATABASE_URL is refused: a live session changes what it holds).
 */
import './defaults.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type autocannon from 'autocannon';
import { offsetClock } from '../../src/clock.js';
import { vacuumAnalyze } from '../../src/db/partitions.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder, SIMULATION_SEED } from '../../src/ingest/seed-market.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import { LiveMarket } from '../../src/live/runner.js';
import { createLogger } from '../../src/logging.js';
import { SimulatedLiveSource } from '../../src/live/simulated-source.js';
import { ACCOUNTS, autocannonRun, CONNECTIONS, quantile, startBenchService, startServerProcess } from '../support.js';
import { watchTree, type TreeSample } from './process-stats.js';

const SCALE = (process.env.BENCH_SCALE ?? 'full') as Scale;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 180);
const WARMUP_SECONDS = 10;
const AT_REQUESTS = Number(process.env.BENCH_AT_REQUESTS ?? 40);
const STRICT = process.env.BENCH_STRICT === '1';
const MINUTE = 60_000;
/** Wednesday 2026-11-18 10:45 ET: the regular session has run 75 minutes. */
const CLOCK_START = Date.parse('2026-11-18T15:45:00Z');
const DAY = '2026-11-18';
const PREVIOUS = '2026-11-17';
/** 09:30 ET, the regular session's open. */
const OPEN = Date.parse('2026-11-18T14:30:00Z');
const SYMBOLS = ['SPX', 'SPY', 'QQQ', 'IWM'];
const ROUTES = {
  levels: '/v1/options/levels',
  heatmap: '/v1/options/exposure/heatmap',
  skew: '/v1/options/volatility/skew',
  drift: '/v1/options/volatility/drift',
} as const;
type Route = keyof typeof ROUTES;
const ROUTE_NAMES = Object.keys(ROUTES) as Route[];

if (process.env.DATABASE_URL !== undefined) throw new Error('bench/live needs a fresh database: unset DATABASE_URL');

const pathOf = (route: Route, symbol: string, extra = ''): string => `${ROUTES[route]}?underlying_symbol=${symbol}${extra}`;
/** The mix: every route for every symbol (symbols inner, so that neighbouring connections ask different families). */
const mix = (extra: string): string[] => ROUTE_NAMES.flatMap((route) => SYMBOLS.map((symbol) => pathOf(route, symbol, extra)));

// The market up to the clock's start.
const bench = await startBenchService('live');
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

const newestQuoteMinute = async (): Promise<number | null> => {
  const r = await sql<{ minute: string | null }>`select max(minute) as minute from quote_minutes where trading_date = ${DAY}::date`.execute(
    admin,
  );
  const minute = r.rows[0]?.minute;
  return minute === null || minute === undefined ? null : Number(minute);
};
const loadedThrough = await newestQuoteMinute();

const writerInService = SCALE === 'default';
const server = await startServerProcess(bench.databaseUrl, {
  CLOCK_START: String(CLOCK_START),
  LIVE_MODE: writerInService ? 'live' : 'off',
  DATA_DIR: path.join(bench.dir, 'service'),
});
const tree = watchTree(server.pid);
const headers = bench.headers[0] as Record<string, string>;

interface Answer {
  status: number;
  body: { data?: Record<string, unknown>; meta?: { as_of?: number } } | null;
  sentAt: number;
  doneAt: number;
  /** The Server-Timing header (the service run with STAGE_TIMING=true), else null. */
  timing: string | null;
}
const ask = async (p: string): Promise<Answer> => {
  const sentAt = performance.now();
  const r = await fetch(`${server.url}${p}`, { headers });
  const text = await r.text();
  let body: Answer['body'] = null;
  try {
    body = JSON.parse(text) as Answer['body'];
  } catch {
    body = null;
  }
  return { status: r.status, body, sentAt, doneAt: performance.now(), timing: r.headers.get('server-timing') };
};

// The service's clock: its offset from this machine's, from an answer's meta.as_of (to the round trip).
const first = await ask(pathOf('drift', 'SPX'));
if (first.status !== 200 || typeof first.body?.meta?.as_of !== 'number')
  throw new Error(`the drift of SPX answered ${first.status}: ${JSON.stringify(first.body).slice(0, 300)}`);
const clockOffset = first.body.meta.as_of - (Date.now() - (first.doneAt - first.sentAt) / 2);
const serviceNow = offsetClock(Math.round(clockOffset));

/** When each of this process's live loads committed (its last file, the prints, loaded): full scale only. */
const loadsCommitted: number[] = [];
const live = writerInService
  ? null
  : new LiveMarket({
      db: admin,
      source: new SimulatedLiveSource({ seed: SIMULATION_SEED, scale: SCALE }),
      clock: serviceNow,
      dir: path.join(bench.dir, 'live'),
      simulator: { seed: SIMULATION_SEED, scale: SCALE },
      logger: createLogger('info', (line) => {
        if (line.includes('"live minutes loaded"')) loadsCommitted.push(performance.now());
      }),
    });
/** Rows of the market-data change log: every committed load adds some (db/market-data-changes.ts). */
const changeRows = async (): Promise<number> => {
  const r = await sql<{ n: string }>`select count(*) as n from market_data_changes`.execute(admin);
  return Number(r.rows[0]?.n ?? 0);
};
/**
 * The service's live runner loads the newest stored minute again and catches up on its start:
 * waits (at most two minutes) for that first pass, a change of the log followed by two quiet
 * seconds, so that the phases do not begin with the start's loads.
 */
const firstPassDone = async (): Promise<boolean> => {
  const before = await changeRows();
  const deadline = performance.now() + 120_000;
  let last = before;
  let quietSince = performance.now();
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const rows = await changeRows();
    if (rows !== last) {
      last = rows;
      quietSince = performance.now();
    } else if (rows !== before && performance.now() - quietSince >= 2_000) return true;
  }
  return false;
};
const startPassSeen = writerInService ? await firstPassDone() : true;
// Its first pass prepares the date (the simulator's paths of six dates, a CPU-bound while) and
// catches up the minutes since the load, before anything is measured; then it ticks each minute.
await live?.tick();
live?.start();

/** A load of the mix, with the service's CPU over it. */
interface Phase {
  result: autocannon.Result;
  start: TreeSample;
  end: TreeSample;
}
const runPhase = async (paths: string[]): Promise<Phase> => {
  await autocannonRun(server.url, bench.headers, WARMUP_SECONDS, paths);
  const start = tree.now();
  const result = await autocannonRun(server.url, bench.headers, SECONDS, paths);
  return { result, start, end: tree.now() };
};

// "Now", with the commit watcher and the two probes.
const commits: { minute: number; seenAt: number }[] = [];
const driftProbe: { minute: number; doneAt: number }[] = [];
const levelsProbe: { sentAt: number; ms: number; status: number; valuation: number | null }[] = [];
/** The probes' answers other than 200: the first few, with the start of their bodies. */
const probeErrors: string[] = [];
const noteProbeError = (route: Route, a: Answer): void => {
  if (a.status !== 200 && probeErrors.length < 3) probeErrors.push(`${route} ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`);
};
let probing = true;
const watcher = (async () => {
  let last = await newestQuoteMinute();
  while (probing) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const minute = await newestQuoteMinute();
    if (minute !== null && minute !== last) {
      commits.push({ minute, seenAt: performance.now() });
      last = minute;
    }
  }
})();
/**
 * Per family, when each mapping of its newest minute (its end) was first seen (position_book_minutes,
 * by the change log's position it was made at): a minute mapped before its whole load had committed
 * (the valuer saw the log still between two of its files) is mapped again once it has, and only a
 * mapping seen after the load's commit counts below.
 */
const booksSeen = new Map<string, Map<string, { instant: number; at: number }>>(SYMBOLS.map((symbol) => [symbol, new Map()]));
const booksWatcher = (async () => {
  while (probing) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const r = await sql<{ underlying_symbol: string; instant: string; change_id: string }>`
      select distinct on (underlying_symbol) underlying_symbol, instant, change_id from position_book_minutes
      where trading_date = ${DAY}::date and session = 'rth' order by underlying_symbol, instant desc, change_id desc`.execute(admin);
    const at = performance.now();
    for (const row of r.rows) {
      const seen = booksSeen.get(row.underlying_symbol);
      const key = `${row.instant}:${row.change_id}`;
      if (seen !== undefined && !seen.has(key)) seen.set(key, { instant: Number(row.instant), at });
    }
  }
})();
const probe = async (once: () => Promise<void>): Promise<void> => {
  while (probing) await once();
};
const probes = [
  probe(async () => {
    const a = await ask(pathOf('drift', 'SPX'));
    noteProbeError('drift', a);
    const points = (a.body?.data?.points ?? []) as { timestamp: number }[];
    const lastPoint = points.at(-1)?.timestamp;
    if (a.status === 200 && lastPoint !== undefined) driftProbe.push({ minute: lastPoint, doneAt: a.doneAt });
  }),
  probe(async () => {
    const a = await ask(pathOf('levels', 'SPX'));
    noteProbeError('levels', a);
    const valuation = (a.body?.data?.valuation as { timestamp?: number } | undefined)?.timestamp ?? null;
    levelsProbe.push({ sentAt: a.sentAt, ms: a.doneAt - a.sentAt, status: a.status, valuation });
  }),
];
const now = await runPhase(mix(''));
probing = false;
await Promise.all([watcher, booksWatcher, ...probes]);
const completed = await runPhase(mix(`&date=${PREVIOUS}`));

// `at`: distinct minutes of the regular session before the clock's start, in a fixed shuffled order.
let seed = 20261118;
const random = (): number => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pastMinutes = Array.from({ length: Math.floor((CLOCK_START - OPEN) / MINUTE) - 1 }, (_, i) => OPEN + i * MINUTE);
for (let i = pastMinutes.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [pastMinutes[i], pastMinutes[j]] = [pastMinutes[j] as number, pastMinutes[i] as number];
}
const atAnswers: { ms: number; status: number; path: string; timing: string | null }[] = [];
for (let i = 0; i < Math.min(AT_REQUESTS, pastMinutes.length); i++) {
  const minute = pastMinutes[i] as number;
  // An instant in the minute after it: the newest minute ended by it is `minute`.
  const at = minute + MINUTE + Math.floor(random() * 59_000);
  const p = pathOf(
    ROUTE_NAMES[i % ROUTE_NAMES.length] as Route,
    SYMBOLS[Math.floor(i / ROUTE_NAMES.length) % SYMBOLS.length] as string,
    `&at=${at}`,
  );
  const a = await ask(p);
  atAnswers.push({ ms: a.doneAt - a.sentAt, status: a.status, path: p, timing: a.timing });
}
const endSample = tree.now();
tree.stop();
await live?.stop();
const newestAtEnd = await newestQuoteMinute();

// Figures.
const errorsOf = (r: autocannon.Result): number => r.errors + r.non2xx;
/** The non-2xx answers by status, and the socket errors and time-outs. */
const errorKinds = (r: autocannon.Result): string => {
  const codes = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, stats]) => `${code} x ${stats.count ?? 0}`);
  if (r.errors > 0) codes.push(`socket errors ${r.errors} (time-outs ${r.timeouts})`);
  return codes.join(', ') || 'none';
};
const rate = (r: autocannon.Result): number => r.requests.average;
const ratio = rate(now.result) / rate(completed.result);
const cores = (p: Phase, which: 'primaryCpu' | 'workersCpu'): number => (p.end[which] - p.start[which]) / ((p.end.at - p.start.at) / 1000);
const cpuPerRequest = (p: Phase): number => (p.end.workersCpu - p.start.workersCpu) / Math.max(1, p.result.requests.total);
const valuingCores = Math.max(0, cpuPerRequest(now) - cpuPerRequest(completed)) * rate(now.result);

const ready: number[] = [];
/** The same answers counted from the minute's whole load committed (its prints, when this process loads), as the books are. */
const readyAfterLoad: number[] = [];
const booksReady: number[] = [];
const levelsAfterCommit: number[] = [];
for (const c of commits) {
  const answer = driftProbe.find((d) => d.minute >= c.minute && d.doneAt >= c.seenAt - 150);
  if (answer !== undefined) ready.push(answer.doneAt - c.seenAt);
  // From the minute's load committed: its last file's (the prints) when this process loads, else its quotes' commit seen.
  const committed = writerInService ? c.seenAt : (loadsCommitted.find((t) => t >= c.seenAt) ?? null);
  // The minute's books: every family's book of the minute ending at c.minute + 1 min mapped (a later
  // one counts too), the first mapping seen from the load's commit on (less 150 ms, the poll's step).
  const times = SYMBOLS.map((symbol) => {
    const seen = [...(booksSeen.get(symbol)?.values() ?? [])].filter(
      (m) => m.instant >= c.minute + MINUTE && (committed === null || m.at >= committed - 150),
    );
    return seen.length === 0 ? null : Math.min(...seen.map((m) => m.at));
  });
  if (committed !== null && times.every((t) => t !== null)) booksReady.push(Math.max(0, Math.max(...times) - committed));
  if (committed !== null && answer !== undefined) readyAfterLoad.push(Math.max(0, answer.doneAt - committed));
  const request = levelsProbe.find((l) => l.sentAt >= c.seenAt);
  if (request !== undefined) levelsAfterCommit.push(request.ms);
}
const atMs = atAnswers.map((a) => a.ms);
// What the books take against the session's market data (its prints and quote samples, the
// underlying's bars of the date): tables, indexes and TOAST.
const bytesOf = async (relations: string[]): Promise<number> => {
  let total = 0;
  for (const relation of relations) {
    const r = await sql<{ bytes: string | null }>`select pg_total_relation_size(to_regclass(${relation}))::text as bytes`.execute(admin);
    total += Number(r.rows[0]?.bytes ?? 0);
  }
  return total;
};
const compact = DAY.replaceAll('-', '');
const bookBytes = await bytesOf(['position_books', 'position_book_expirations', 'position_book_minutes']);
const sessionBytes = await bytesOf([`prints_${compact}`, `quote_samples_${compact}`]);
const bookRows = await sql<{ books: string; minutes: string }>`
  select (select count(*) from position_books where trading_date = ${DAY}::date)::text as books,
    (select count(*) from position_book_minutes where trading_date = ${DAY}::date)::text as minutes`.execute(admin);
const valuerCores = Math.max(0, cores(now, 'primaryCpu') - cores(completed, 'primaryCpu'));
const atErrors = atAnswers.filter((a) => a.status !== 200);
const rss = tree.samples.map((s) => s.rss);
const rssStart = rss[0] ?? 0;
const rssMax = Math.max(...rss);
const rssEnd = endSample.rss;
const firstHalfMax = Math.max(...rss.slice(0, Math.max(1, Math.floor(rss.length / 2))));
const levelValuations = new Set(levelsProbe.map((l) => l.valuation).filter((v) => v !== null));
const levelsProbeErrors = levelsProbe.filter((l) => l.status !== 200).length;

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (v: number): string => `${v.toFixed(0)} ms`;
const et = (t: number): string => new Date(t - 5 * 3_600_000).toISOString().slice(11, 16);
const goals: { name: string; met: boolean }[] = [];
const goal = (name: string, met: boolean): string => {
  goals.push({ name, met });
  return met ? 'met' : 'NOT met';
};
const row = (cells: string[]): string => `| ${cells.join(' | ')} |`;

const table = [
  row(['Figure', 'During the session ("now")', `Previous day (${PREVIOUS})`, 'Goal', '']),
  row(['---', '---', '---', '---', '---']),
  row([
    'p50',
    `${now.result.latency.p50} ms`,
    `${completed.result.latency.p50} ms`,
    '< 20 ms',
    goal('now p50', now.result.latency.p50 < 20),
  ]),
  row([
    'p99',
    `${now.result.latency.p99} ms`,
    `${completed.result.latency.p99} ms`,
    '< 150 ms',
    goal('now p99', now.result.latency.p99 < 150),
  ]),
  row([
    'errors (non-2xx, socket)',
    `${errorsOf(now.result)} of ${now.result.requests.total}`,
    `${errorsOf(completed.result)} of ${completed.result.requests.total}`,
    '0',
    goal('now errors', errorsOf(now.result) === 0),
  ]),
  row([
    'throughput',
    `${rate(now.result).toFixed(1)} req/s`,
    `${rate(completed.result).toFixed(1)} req/s`,
    'ratio >= 0.5',
    `ratio ${ratio.toFixed(2)}: ${goal('throughput ratio', ratio >= 0.5)}`,
  ]),
  row([
    `\`at\` on ${atAnswers.length} past minutes, one at a time`,
    `p50 ${ms(quantile(atMs, 0.5))}, p99 ${ms(quantile(atMs, 0.99))}, max ${ms(Math.max(...atMs))}, ${atErrors.length} errors`,
    '',
    'p50 < 150 ms',
    goal('at p50', atAnswers.length > 0 && quantile(atMs, 0.5) < 150 && atErrors.length === 0),
  ]),
  row([
    `a minute's books ready after its load commits (${writerInService ? 'its quotes' : 'its prints, the last file'}; all four families mapped)`,
    booksReady.length === 0
      ? `no minute's books seen (${commits.length} commits)`
      : `p50 ${ms(quantile(booksReady, 0.5))}, p99 ${ms(quantile(booksReady, 0.99))}, max ${ms(Math.max(...booksReady))} over ${booksReady.length} minutes`,
    '',
    '< 3 s (p99)',
    goal('books ready p99', booksReady.length > 0 && quantile(booksReady, 0.99) < 3000),
  ]),
  row([
    "drift SPX probe: a new minute's first answer after its commit (drift is not a book)",
    ready.length === 0
      ? `no minute committed during the load (${commits.length} seen)`
      : `p50 ${ms(quantile(ready, 0.5))}, p99 ${ms(quantile(ready, 0.99))}, max ${ms(Math.max(...ready))} over ${ready.length} minutes`,
    '',
    '',
    '',
  ]),
  row([
    `the same, counted from the minute's load committed (${writerInService ? 'its quotes' : 'its prints, the last file'}, as the books are)`,
    readyAfterLoad.length === 0
      ? 'none'
      : `p50 ${ms(quantile(readyAfterLoad, 0.5))}, p99 ${ms(quantile(readyAfterLoad, 0.99))}, max ${ms(Math.max(...readyAfterLoad))} over ${readyAfterLoad.length} minutes`,
    '',
    '',
    '',
  ]),
  row([
    'levels SPX: first probe request after a commit',
    levelsAfterCommit.length === 0 ? 'none' : `p50 ${ms(quantile(levelsAfterCommit, 0.5))}, max ${ms(Math.max(...levelsAfterCommit))}`,
    '',
    '',
    '',
  ]),
  row([
    'service CPU, HTTP workers',
    `${cores(now, 'workersCpu').toFixed(2)} cores, ${(cpuPerRequest(now) * 1000).toFixed(2)} ms/request`,
    `${cores(completed, 'workersCpu').toFixed(2)} cores, ${(cpuPerRequest(completed) * 1000).toFixed(2)} ms/request`,
    '',
    '',
  ]),
  row([
    'CPU of the book valuer (the primary\'s CPU at "now" beyond the previous day\'s)',
    `${(valuerCores * 100).toFixed(0)}% of one core`,
    '',
    '<= 30% of one core',
    goal('valuation CPU', valuerCores <= 0.3),
  ]),
  row([
    'HTTP workers\' CPU at "now" beyond the previous day\'s (per request, at "now"\'s rate)',
    `${(valuingCores * 100).toFixed(0)}% of one core`,
    '',
    '',
    '',
  ]),
  row([
    `books of ${DAY} at the end (${bookRows.rows[0]?.books ?? 0} books, ${bookRows.rows[0]?.minutes ?? 0} minutes mapped)`,
    `${mb(bookBytes)}, ${((bookBytes / Math.max(1, sessionBytes)) * 100).toFixed(1)}% of the date's prints and quote samples (${mb(sessionBytes)})`,
    '',
    "<= 25% of the session's market data",
    goal('books bytes', bookBytes <= 0.25 * sessionBytes),
  ]),
  row([
    `service CPU, primary${writerInService ? ' (live loads)' : ''}`,
    `${cores(now, 'primaryCpu').toFixed(2)} cores`,
    `${cores(completed, 'primaryCpu').toFixed(2)} cores`,
    '',
    '',
  ]),
  row([
    `service RSS over ${((endSample.at - (tree.samples[0]?.at ?? 0)) / 60_000).toFixed(1)} min (${tree.samples.length} samples)`,
    `start ${mb(rssStart)}, max ${mb(rssMax)}, end ${mb(rssEnd)}`,
    '',
    'bounded (end <= 1.1 x max of the first half)',
    goal('RSS bounded', rssEnd <= 1.1 * firstHalfMax),
  ]),
].join('\n');

const report = [
  `live bench: node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end; the service in ${server.workers} HTTP worker(s); ${CONNECTIONS} connections over ${ACCOUNTS} accounts`,
  `scale ${SCALE}: the week to ${DAY} 10:45 ET simulated and loaded in ${loadSeconds.toFixed(0)} s (quotes through ${loadedThrough === null ? 'none' : et(loadedThrough)} ET); ` +
    `the clock started at 10:45 ET, ${writerInService ? "the service's live runner" : 'a live runner in the bench process (full-scale simulator)'} loaded minutes through ${newestAtEnd === null ? 'none' : et(newestAtEnd)} ET`,
  ...(startPassSeen ? [] : ["the service's live runner loaded nothing within two minutes of its start"]),
  `mix: levels, heat map, skew, drift x ${SYMBOLS.join(', ')}; ${SECONDS} s each after a ${WARMUP_SECONDS} s warm-up; "now" then date=${PREVIOUS}`,
  `at ${CONNECTIONS} connections the mean latency is connections / throughput (Little's law): ${((CONNECTIONS / rate(now.result)) * 1000).toFixed(0)} ms "now", ${((CONNECTIONS / rate(completed.result)) * 1000).toFixed(0)} ms for the previous day; a p50 under 20 ms needs about ${Math.round(CONNECTIONS / 0.02)} req/s`,
  `commits seen during "now": ${commits.map((c) => et(c.minute)).join(', ') || 'none'}; drift probe answers ${driftProbe.length}, levels probe ${levelsProbe.length} (${levelsProbeErrors} non-200, ${levelValuations.size} distinct valuation.timestamp)`,
  '',
  table,
  '',
  `errors of the load: "now" ${errorKinds(now.result)}; previous day ${errorKinds(completed.result)}`,
  ...(probeErrors.length > 0 ? [`the probes' first errors: ${probeErrors.join('; ')}`] : []),
  ...(atErrors.length > 0
    ? [
        `\`at\` errors: ${atErrors
          .slice(0, 3)
          .map((a) => `${a.status} ${a.path}`)
          .join('; ')}`,
      ]
    : []),
  // With STAGE_TIMING=true in the environment (the service inherits it): each `at` answer's stages.
  ...(atAnswers.some((a) => a.timing !== null)
    ? [
        '`at` answers, one per line: ms, route and symbol, stages (ms)',
        ...atAnswers.map(
          (a) => `  ${a.ms.toFixed(0)} ${a.path.split('?')[0]} ${/underlying_symbol=(\w+)/.exec(a.path)?.[1] ?? ''}: ${a.timing ?? ''}`,
        ),
      ]
    : []),
  `goals: ${goals.filter((g) => g.met).length} of ${goals.length} met${
    goals.some((g) => !g.met)
      ? ` (not: ${goals
          .filter((g) => !g.met)
          .map((g) => g.name)
          .join(', ')})`
      : ''
  }`,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/live.txt', `${report}\n`);

await server.close();
await bench.close();
process.exit(STRICT && goals.some((g) => !g.met) ? 1 : 0);
