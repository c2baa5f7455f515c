/**
 * One account's heavy requests beside everyone's simple ones (issue #34, section 4), with the
 * valuation threads (VALUATION_THREADS=1, the default: services/valuation-pool.ts) against the
 * valuations on the event loop (VALUATION_THREADS=0), in the same run on the same day:
 *
 * - one account keeps HEAVY_IN_FLIGHT (4, its in-flight limit) levels and heat map requests in flight
 *   on SPX, each a new query (its own max_dte: the family's whole view computed anew) at one of a
 *   few `at` minutes of the day (each valued once, by its first request);
 * - meanwhile another account asks for trades pages, one at a time, and /v1/status is asked every
 *   20 ms (STATUS_SAMPLES samples).
 *
 * Reported per mode: /v1/status p50 and p99, the other account's trades p50 and p95 and their
 * count, the heavy requests answered; and the ratio off / on. The service runs as `make run` runs it,
 * in one process (WEB_WORKERS=1: every request on one event loop). BENCH_SCALE (default
 * 'default'); DATABASE_URL reuses a server that holds the day.
 */
import os from 'node:os';
import fs from 'node:fs';
import type { Scale } from '../../src/ingest/simulator/model.js';
import { loadSimulatedDay, quantile, startBenchService, startServerProcess } from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'default') as Scale;
const NOW = Date.parse('2026-11-20T23:00:00Z');
const DAY = '2026-11-20';
/** 09:31 ET on DAY. */
const FIRST_AT = Date.parse('2026-11-20T14:31:00Z');
const AT_MINUTES = 3;
const HEAVY_IN_FLIGHT = 4;
const STATUS_SAMPLES = Number(process.env.BENCH_STATUS_SAMPLES ?? 100);

const bench = await startBenchService('isolation');
const loadSeconds = await loadSimulatedDay(bench, { day: DAY, scale: SCALE, now: NOW });
const [heavyKey, otherKey] = bench.keys as [string, string];
if (otherKey === undefined) throw new Error('the bench needs two accounts (BENCH_ACCOUNTS >= 2)');

/** A GET whose body is read and dropped: its status and milliseconds. */
async function timed(url: string, key?: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const r = await fetch(url, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
  await r.arrayBuffer();
  return { status: r.status, ms: performance.now() - started };
}

interface ModeFigures {
  threads: string;
  statusMs: number[];
  tradesMs: number[];
  heavy: number;
  /** Answers other than 200, by what was asked and status. */
  errors: Record<string, number>;
}

async function runMode(threads: string): Promise<ModeFigures> {
  const server = await startServerProcess(bench.databaseUrl, {
    WEB_WORKERS: '1',
    VALUATION_THREADS: threads,
    CLOCK_START: String(NOW),
    LIVE_MODE: 'off',
    LIMIT_IN_FLIGHT: String(HEAVY_IN_FLIGHT),
    // /v1/status is asked without a key, more often than the keyless budget's default allows.
    LIMIT_KEYLESS_PER_MINUTE: '1000000',
  });
  try {
    const base = server.url;
    const trades = `${base}/v1/options/trades?underlying_symbol=SPY&date=${DAY}&limit=100`;
    const atOf = (n: number): number => FIRST_AT + (n % AT_MINUTES) * 60 * 60_000;
    const heavyUrl = (n: number): string =>
      n % 2 === 0
        ? `${base}/v1/options/levels?underlying_symbol=SPX&at=${atOf(n)}&max_dte=${400 + n}`
        : `${base}/v1/options/exposure/heatmap?underlying_symbol=SPX&at=${atOf(n)}&max_dte=${400 + n}&max_expirations=50`;
    // Warm: the routes' first requests, and each `at` minute's book valued once.
    await timed(trades, otherKey);
    for (let n = 0; n < AT_MINUTES; n += 1) await timed(heavyUrl(n), heavyKey);

    let running = true;
    let next = AT_MINUTES;
    let heavy = 0;
    const errors: Record<string, number> = {};
    const failed = (what: string, status: number): void => {
      errors[`${what} ${status}`] = (errors[`${what} ${status}`] ?? 0) + 1;
    };
    const heavyLoops = Array.from({ length: HEAVY_IN_FLIGHT }, async () => {
      while (running) {
        const answer = await timed(heavyUrl(next++), heavyKey);
        heavy += 1;
        if (answer.status !== 200) failed('heavy', answer.status);
      }
    });
    const tradesMs: number[] = [];
    const tradesLoop = (async () => {
      while (running) {
        const answer = await timed(trades, otherKey);
        if (answer.status !== 200) failed('trades', answer.status);
        tradesMs.push(answer.ms);
      }
    })();
    const statusMs: number[] = [];
    for (let i = 0; i < STATUS_SAMPLES; i += 1) {
      const answer = await timed(`${base}/v1/status`);
      if (answer.status !== 200) failed('status', answer.status);
      statusMs.push(answer.ms);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    running = false;
    await Promise.all([...heavyLoops, tradesLoop]);
    return { threads, statusMs, tradesMs, heavy, errors };
  } finally {
    await server.close();
  }
}

const on = await runMode('1');
const off = await runMode('0');
const f = (ms: number): string => `${ms.toFixed(0)} ms`;
const line = (m: ModeFigures): string =>
  `VALUATION_THREADS=${m.threads}: status p50 ${f(quantile(m.statusMs, 0.5))}  p99 ${f(quantile(m.statusMs, 0.99))}   ` +
  `other account's trades p50 ${f(quantile(m.tradesMs, 0.5))}  p95 ${f(quantile(m.tradesMs, 0.95))} (${m.tradesMs.length})   ` +
  `heavy answered ${m.heavy}   not 200: ${JSON.stringify(m.errors)}`;
const ratio = (q: number, of: (m: ModeFigures) => number[]): string => (quantile(of(off), q) / quantile(of(on), q)).toFixed(2);
const report = [
  `isolation bench: node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end; the service in one process`,
  `day ${DAY} (scale ${SCALE}), ${loadSeconds === null ? 'already loaded' : `simulated and loaded in ${loadSeconds.toFixed(0)} s`}; one account keeps ${HEAVY_IN_FLIGHT} levels/heat map requests in flight on SPX (a new query each, ${AT_MINUTES} at minutes), ${STATUS_SAMPLES} status samples`,
  line(on),
  line(off),
  `ratio off / on: status p99 ${ratio(0.99, (m) => m.statusMs)}, status p50 ${ratio(0.5, (m) => m.statusMs)}, trades p95 ${ratio(0.95, (m) => m.tradesMs)}  (goal: status p99 < 100 ms with the threads)`,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/isolation.txt', `${report}\n`);
await bench.close();
