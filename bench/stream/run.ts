/**
 * Stream fan-out: BENCH_STREAMS (200) WebSocket connections, each subscribed to the whole market's
 * prints, while a simulated day's prints are loaded through the ordinary ingest path at the
 * full-scale simulator's rate at the open, about BENCH_PRINTS_PER_SECOND (1,000) prints a second:
 * the day's prints file cut into files of that many prints in time order, one loaded each second.
 * The service runs as `make run` runs it, in a process of its own, with BENCH_WEB_WORKERS HTTP
 * workers (default 1: one process serves every connection; on this 2-core machine 2 did no better,
 * the clients needing the other core). The connections are spread over processes of their own
 * (clients.ts), so that the measuring side is not what lags: the checking connection
 * (BENCH_CHECKING, 1) in one, the others over BENCH_CLIENT_PROCESSES (4); the loads run in this one.
 *
 * Figures: each print's delivery delay from its load's commit (p50, p99; goal p99 < 100 ms), over
 * the loads after BENCH_WARMUP_LOADS (3) warm-up loads, whose delays are reported apart (and with
 * the others, all loads together): the first seconds of 200 fresh connections are slower (each
 * client socket's receive buffer starts at 128 KB and grew to about 2 MB over the first load and
 * 3.6 MB a few loads later here, the server's congestion windows from 11 to 18 segments: `ss -tmi`
 * during a run) and are not the steady stream the goal is about; the warm-up loads are checked
 * like the others for prints lost, gaps and bodies. Against the baseline of the same run, over the same loads: a bare PostgreSQL LISTEN client, alone in a process of its
 * own, and its delay for the load's notification itself (ratio stream/baseline). Every process
 * reads one clock (the machine's: Date.now() against PostgreSQL's clock_timestamp() on the same
 * host). Also the LISTEN delay inside the client processes (what the clients' own lag adds), prints
 * lost (each connection must receive every print loaded; goal 0), sequence gaps, the checking
 * connection's problems (it JSON-parses every message whole and checks each print: clients.ts says
 * what every connection does and what the checking one adds; goal 0), and the service's RSS before
 * and after (goal: growth bounded, under 200 MB). Also, as the machine is shared: the CPU time
 * (user + system) the service and the client processes spent over the loads, and each load's last
 * delivery over all connections (also listed in load order). BENCH_LOAD_SECONDS (60) loads, at most
 * as many as the simulated day has prints for. The day is the current session's by the real clock.
 * BENCH_FORMAT (full or compact), BENCH_CLIENT (lean or ws) and BENCH_DEFLATE (clients.ts): the
 * format the clients subscribe with (default full: the REST route's bodies), how they read (default
 * lean: a plain TCP WebSocket client reading from one reused buffer; ws: the `ws` library, each
 * message whole) and whether the ws ones offer permessage-deflate (default no); the first line of
 * the figures names them. BENCH_NODE_ARGS: extra node options for the client processes, and
 * BENCH_SERVICE_NODE_ARGS for the service (e.g. --cpu-prof --cpu-prof-dir=DIR).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import zlib from 'node:zlib';
import { createAccount, createKey } from '../../src/accounts.js';
import { currentOrLastSessionDate } from '../../src/analytics/calendar.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { loadApiContract } from '../../src/api-contract/openapi.js';
import { simulateMarket } from '../../src/ingest/simulator/index.js';
import { startBenchService, startServerProcess } from '../support.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 200);
const RATE = Number(process.env.BENCH_PRINTS_PER_SECOND ?? 1000);
const LOADS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const PROCESSES = Math.max(1, Number(process.env.BENCH_CLIENT_PROCESSES ?? 4));
const WORKERS = Math.max(1, Number(process.env.BENCH_WEB_WORKERS ?? 1));
/** Checking connections (clients.ts), in a client process of their own so that their parsing does not delay the other connections' reading. */
const CHECKING = Math.max(1, Number(process.env.BENCH_CHECKING ?? 1));
/** The first loads, on fresh connections, whose delays are reported apart from the measured ones (still counted for lost prints and gaps). */
const WARMUP = Math.max(0, Number(process.env.BENCH_WARMUP_LOADS ?? 3));
// The current (or last) session by the real clock: the streams send the loads of the current session
// only (an older date loaded is an archive coming back, not news).
const DAY = currentOrLastSessionDate(Date.now());
const NOW = Date.parse(`${DAY}T23:00:00Z`);

function weightedQuantile(pairs: readonly [number, number][], q: number): number {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((n, [, w]) => n + w, 0);
  let seen = 0;
  for (const [value, weight] of sorted) {
    seen += weight;
    if (seen >= q * total) return value;
  }
  return sorted.at(-1)?.[0] ?? NaN;
}

/** The prints file cut into files of `size` prints, in the file's (time) order. */
async function cut(file: string, size: number, count: number, dir: string): Promise<string[]> {
  const lines = readline.createInterface({ input: fs.createReadStream(file).pipe(zlib.createGunzip()) });
  let header = '';
  let chunk: string[] = [];
  const files: string[] = [];
  for await (const line of lines) {
    if (header === '') {
      header = line;
      continue;
    }
    chunk.push(line);
    if (chunk.length === size) {
      const out = path.join(dir, `prints-${DAY}-part${String(files.length).padStart(4, '0')}.csv.gz`);
      fs.writeFileSync(out, zlib.gzipSync(`${header}\n${chunk.join('\n')}\n`));
      files.push(out);
      chunk = [];
      if (files.length === count) break;
    }
  }
  lines.close();
  return files;
}

const bench = await startBenchService('stream');
try {
  const admin = bench.service.database.admin;
  const sim = path.join(bench.dir, 'sim');
  // The default scale's day (its open's rate is the full scale's per underlying; enough prints to cut LOADS seconds from).
  const summary = await simulateMarket({ outDir: sim, seed: 20261122, scale: 'default', now: NOW, snapshotDates: [DAY] });
  const files: Partial<Record<IngestKind, string[]>> = {};
  for (const [kind, list] of Object.entries(summary.files) as [IngestKind, string[]][]) {
    const ofDay = kind === 'contracts' ? list : list.filter((f) => path.basename(f).includes(DAY));
    files[kind] = kind === 'prints' ? [] : ofDay;
  }
  await loadFilesInOrder(admin, files);
  const printsFile = (summary.files.prints ?? []).find((f) => path.basename(f).includes(DAY));
  if (!printsFile) throw new Error('no prints file for the day');
  const parts = await cut(printsFile, RATE, LOADS, bench.dir);

  const keys: string[] = [];
  for (let i = 0; i < Math.ceil(STREAMS / 20); i += 1)
    keys.push((await createKey(admin, await createAccount(admin, { name: `stream ${i}`, plan: 'pro' }))).key);
  const server = await startServerProcess(bench.databaseUrl, { WEB_WORKERS: String(WORKERS) });
  process.once('exit', () => {
    try {
      process.kill(server.pid);
    } catch {
      // Already ended.
    }
  });
  const url = server.url;
  /** The service's processes: its primary and, with WEB_WORKERS above 1, the workers it started. */
  const parentOf = (pid: string): number => {
    try {
      return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
    } catch {
      return 0; // Ended meanwhile.
    }
  };
  const processes = (): number[] => [
    server.pid,
    ...fs
      .readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d) && parentOf(d) === server.pid)
      .map(Number),
  ];
  const rss = (): number =>
    processes().reduce(
      (n, pid) => n + Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
      0,
    );
  interface ClientResult {
    streamDelays: [number, number, number][];
    listenDelays: [number, number, number][];
    printsPerConnection: number[];
    seqGaps: number;
    closed: number;
    bodyErrors: number;
    printsChecked: number;
    cpuMs: number;
    lastByLoad: [number, number][];
  }
  // The contract's OptionPrint fields in order: what the checking connections expect of each body.
  const printSchema =
    (loadApiContract().document.components as { schemas: Record<string, { properties: Record<string, unknown> }> }).schemas.OptionPrint
      ?.properties ?? {};
  const fields = Object.keys(printSchema).join(',');
  const script = path.join(path.dirname(new URL(import.meta.url).pathname), 'clients.ts');
  /** A client process of connections [from, to); the baseline's holds none. */
  const clientProcess = (from: number, to: number, checking: boolean): { ready: Promise<void>; result: () => Promise<ClientResult> } => {
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
        '--import',
        'tsx',
        script,
        url,
        keys.join(','),
        bench.databaseUrl,
        String(from),
        String(to),
        fields,
      ],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: { ...process.env, BENCH_CHECKING_HERE: checking ? '1' : '0' },
      },
    );
    process.once('exit', () => child.kill());
    let output = '';
    const exited = new Promise((r) => child.once('exit', r));
    child.stdout.on('data', (d: Buffer) => (output += d.toString('utf8')));
    const ready = (async () => {
      while (!output.includes('ready\n')) {
        if (child.exitCode !== null) throw new Error(`client process ${from}-${to} exited with ${child.exitCode}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    return {
      ready,
      result: async () => {
        child.stdin.end();
        await exited;
        return JSON.parse(
          output
            .split('\n')
            .filter((l) => l.startsWith('{'))
            .at(-1) ?? '{}',
        ) as ClientResult;
      },
    };
  };
  const baseline = clientProcess(0, 0, false);
  const others = STREAMS - CHECKING;
  const clients = [
    clientProcess(0, CHECKING, true),
    ...Array.from({ length: PROCESSES }, (_, k) =>
      clientProcess(CHECKING + Math.floor((k * others) / PROCESSES), CHECKING + Math.floor(((k + 1) * others) / PROCESSES), false),
    ),
  ];
  await Promise.all([baseline.ready, ...clients.map((c) => c.ready)]);

  const loadBefore = os.loadavg()[0] ?? 0;
  const rssBefore = rss();
  const cpuTicks = (): number =>
    processes().reduce((n, pid) => {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return n + Number(fields[11]) + Number(fields[12]);
    }, 0);
  const cpuBefore = cpuTicks();
  let loaded = 0;
  let late = 0;
  const started = performance.now();
  for (let i = 0; i < parts.length; i += 1) {
    const due = started + i * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else late += 1;
    const file = parts[i];
    if (file) loaded += (await loadMarketFile(admin, 'prints', file)).loaded;
  }
  await new Promise((r) => setTimeout(r, 5000));
  const rssAfter = rss();
  const serverCpuMs = ((cpuTicks() - cpuBefore) * 1000) / 100;
  const bare = await baseline.result();
  const reports = await Promise.all(clients.map((c) => c.result()));
  const result: ClientResult = {
    streamDelays: reports.flatMap((r) => r.streamDelays),
    listenDelays: reports.flatMap((r) => r.listenDelays),
    printsPerConnection: reports.flatMap((r) => r.printsPerConnection),
    seqGaps: reports.reduce((n, r) => n + r.seqGaps, 0),
    closed: reports.reduce((n, r) => n + r.closed, 0),
    bodyErrors: reports.reduce((n, r) => n + r.bodyErrors, 0),
    printsChecked: reports.reduce((n, r) => n + r.printsChecked, 0),
    cpuMs: reports.reduce((n, r) => n + r.cpuMs, 0),
    lastByLoad: [],
  };
  const lastByLoad = new Map<number, number>();
  for (const r of reports) for (const [at, d] of r.lastByLoad) lastByLoad.set(at, Math.max(lastByLoad.get(at) ?? 0, d));
  const lasts = [...lastByLoad.values()].sort((a, b) => a - b);
  // What a stream sends: each load's prints not cancelled when it is read. A print a later load
  // cancels was sent before (and is then named in a print_cancelled message, which the clients do
  // not count as prints), so a connection receives the prints stored and not cancelled, plus at
  // most the day's cancelled prints.
  const count = async (cancelled: boolean): Promise<number> =>
    Number(
      (
        await admin
          .selectFrom('prints')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('trading_date', '=', DAY)
          .where('cancelled', '=', cancelled)
          .executeTakeFirstOrThrow()
      ).n,
    );
  loaded = await count(false);
  const cancelled = await count(true);
  const lost = result.printsPerConnection.reduce((n, got) => n + Math.max(0, loaded - got), 0);
  const extra = result.printsPerConnection.reduce((n, got) => n + Math.max(0, got - loaded - cancelled), 0);
  const counts = new Set(result.printsPerConnection);
  const p = (rows: readonly [number, number, number][], q: number): number =>
    weightedQuantile(
      rows.map(([d, n]) => [d, n]),
      q,
    );
  const max = (rows: readonly [number, number, number][]): number => rows.reduce((m, [d]) => Math.max(m, d), -Infinity);
  // The loads in order (each notified once, by its commit's clock); the measured ones start after the warm-up's.
  const loadTimes = [...new Set(bare.listenDelays.map(([, , at]) => at))].sort((a, b) => a - b);
  const measuredFrom = loadTimes[Math.min(WARMUP, loadTimes.length - 1)] ?? 0;
  const measured = <T extends [number, number, number]>(rows: T[]): T[] => rows.filter(([, , at]) => at >= measuredFrom);
  const warm = result.streamDelays.filter(([, , at]) => at < measuredFrom);
  const streamP50 = p(measured(result.streamDelays), 0.5);
  const streamP99 = p(measured(result.streamDelays), 0.99);
  const bareP50 = p(measured(bare.listenDelays), 0.5);
  const bareP99 = p(measured(bare.listenDelays), 0.99);
  const ratio = (a: number, b: number): string => (a / Math.max(1, b)).toFixed(1);
  console.log(
    `stream fan-out (format ${process.env.BENCH_FORMAT ?? 'full'}, clients ${process.env.BENCH_CLIENT ?? 'lean'}, permessage-deflate ${process.env.BENCH_DEFLATE === '1' ? 'offered' : 'not offered'}, WEB_WORKERS ${WORKERS}): ${STREAMS} connections x whole market over ${PROCESSES} client processes and the checking one's, ${parts.length} loads of ${RATE} prints a second (${late} started late), ${loaded} prints stored, load average ${loadBefore.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end`,
  );
  console.log(
    `  delivery from commit, loads ${WARMUP + 1} to ${loadTimes.length}: p50 ${streamP50} ms, p99 ${streamP99} ms, max ${max(measured(result.streamDelays))} ms (goal p99 < 100 ms)`,
  );
  if (WARMUP > 0)
    console.log(
      `  the ${WARMUP} warm-up loads (fresh connections: their receive buffers start at 128 KB and the congestion windows small, both growing over the first loads): p50 ${p(warm, 0.5)} ms, p99 ${p(warm, 0.99)} ms, max ${max(warm)} ms; all ${loadTimes.length} loads together: p99 ${p(result.streamDelays, 0.99)} ms`,
    );
  console.log(
    `  baseline (bare LISTEN of the load's notification, a process of its own, the same loads): p50 ${bareP50} ms, p99 ${bareP99} ms; ratio stream/baseline p50 ${ratio(streamP50, bareP50)}, p99 ${ratio(streamP99, bareP99)} (a baseline under 1 ms counts as 1 ms)`,
  );
  console.log(
    `  LISTEN inside the client processes (their own lag): p50 ${p(result.listenDelays, 0.5)} ms, p99 ${p(result.listenDelays, 0.99)} ms`,
  );
  console.log(
    `  prints lost ${lost}, more than sent ${extra}, sequence gaps ${result.seqGaps}, connections closed ${result.closed} (goal 0); every connection received ${[...counts].join(' or ')} prints (${loaded} stored and not cancelled, ${cancelled} cancelled later)`,
  );
  console.log(
    `  checking connections (${CHECKING}, on ws): ${result.printsChecked} prints JSON-parsed and checked, ${result.bodyErrors} problems (goal 0)`,
  );
  console.log(
    `  CPU over the loads: service ${(serverCpuMs / 1000).toFixed(1)} s, client processes ${(result.cpuMs / 1000).toFixed(1)} s; each load's last delivery p50 ${lasts[Math.floor(lasts.length / 2)]} ms, max ${lasts.at(-1)} ms`,
  );
  console.log(
    `  each load's last delivery in load order (ms): ${[...lastByLoad]
      .sort((a, b) => a[0] - b[0])
      .map(([, d]) => d)
      .join(' ')}`,
  );
  console.log(
    `  service RSS ${(rssBefore / 1e6).toFixed(0)} MB -> ${(rssAfter / 1e6).toFixed(0)} MB (growth ${((rssAfter - rssBefore) / 1e6).toFixed(0)} MB; goal < 200 MB)`,
  );
  const ok =
    streamP99 < 100 &&
    lost === 0 &&
    extra === 0 &&
    counts.size === 1 &&
    result.seqGaps === 0 &&
    result.bodyErrors === 0 &&
    result.printsChecked >= CHECKING * loaded &&
    rssAfter - rssBefore < 200e6;
  console.log(ok ? '  goals met' : '  GOALS NOT MET');
  await server.close();
} finally {
  await bench.close();
}
