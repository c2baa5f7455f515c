/**
 * Positioning routes on the full-scale simulated day, each against a bare read of its inputs in the
 * same run:
 * - levels for SPX (the family: SPX and SPXW, every expiration) with include=vanna,charm,delta, and
 * - the default heat map for SPX,
 * one request at a time, against the statements that read what they value: the listed contracts of
 * the family's expirations with their newest open interest, every contract's newest quote sample up
 * to the close (the chain), and the underlying's last bar, run with `pg` and decoded as usual.
 * Goals: levels p50 under 150 ms and at most 3x the bare read; heat map p50 under 100 ms; p99 of
 * each under 300 ms at BENCH_CONNECTIONS (8) connections.
 *
 * Both routes answer from the family's valued book of the minute (services/books.ts), stored in
 * PostgreSQL by the first request and read back by every process; each process keeps its views and
 * answers by the stored book's id, so a repeated request reads which book answers (one probe) and
 * sends the kept text: the measured figures are those of a warm memo. What it hides is measured
 * too: a cold book (the stored books deleted before each request: read the family's inputs, fit
 * the smiles, answer; the book is stored after the answer), levels requests that each need a new view of the stored book
 * (max_dte varied beyond the last expiration: the same contracts valued again at the book's price),
 * and levels requests that each ask for a new answer of the kept view (gatekeeper_ratio varied).
 * BENCH_SCALE (default full), BENCH_SECONDS (10);
 * DATABASE_URL reuses a server that holds the day already (bench/volatility loads the same day).
 */
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { SESSION_SETTINGS } from '../../src/db/connection.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import {
  CONNECTIONS,
  DURATION,
  getOk,
  loadSimulatedDay,
  measure,
  quantile,
  sequential,
  startBenchService,
  startServerProcess,
} from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'full') as Scale;
/** Friday 2026-11-20 after the close: the simulated week ends with that day. */
const NOW = Date.parse('2026-11-20T23:00:00Z');
const DAY = '2026-11-20';
/** 16:15 ET, the close of SPX options: the valuation instant. */
const CLOSE = Date.parse('2026-11-20T21:15:00Z');

const bench = await startBenchService('positioning');
const { service } = bench;
const loadSeconds = await loadSimulatedDay(bench, { day: DAY, scale: SCALE, now: NOW });
const server = await startServerProcess(bench.databaseUrl);
const pool = new pg.Pool({
  connectionString: service.database.connectionString,
  max: service.deps.config.databasePoolSize,
  options: SESSION_SETTINGS,
});
const headers = bench.headers[0] as Record<string, string>;

// The family's expirations from the trading date on, as both routes list them.
const expirations = (
  await pool.query<{ root: string; d: string }>(
    `select distinct root, date_of_expiry::text as d from contracts where root = any($1::text[]) and date_of_expiry >= $2::date order by 2, 1`,
    [['SPX', 'SPXW'], DAY],
  )
).rows;
const roots = expirations.map((e) => e.root);
const dates = expirations.map((e) => e.d);
const contractsText = `
  select c.id, c.root, c.underlying, c.date_of_expiry::text as date_of_expiry, c.contract_type, c.strike_thousandths, c.multiplier, o.date::text as oi_date, o.open_interest
  from unnest($1::text[], $2::date[]) as e(root, d)
  join contracts c on c.root = e.root and c.date_of_expiry = e.d
  left join lateral (select oi.date, oi.open_interest from open_interest oi where oi.contract_id = c.id and oi.date <= $3::date and oi.date >= $3::date - 10 order by oi.date desc limit 1) o on true
  order by c.date_of_expiry, c.root, c.contract_type, c.strike_thousandths`;
const chainText = `
  select c.id, s.bid, s.ask, s.quote_ts, s.minute
  from unnest($1::text[], $2::date[]) as e(root, d)
  join contracts c on c.root = e.root and c.date_of_expiry = e.d
  cross join lateral (
    select q.bid, q.ask, q.quote_ts, q.minute from quote_samples q
    where q.trading_date = $3::date and q.contract_id = c.id and q.minute >= $4::int8 and q.minute <= $5::int8 and q.quote_ts <= $5::int8
    order by q.minute desc limit 1) s`;
const barText = `select close, ts from underlying_bars where symbol = $1 and ts <= $2::int8 and ts >= $3::int8 order by ts desc limit 1`;
let contractRows = 0;
let chainRows = 0;
const bareRead = async (): Promise<void> => {
  contractRows = (await pool.query(contractsText, [roots, dates, DAY])).rows.length;
  chainRows = (await pool.query(chainText, [roots, dates, DAY, CLOSE - 30 * 60_000, CLOSE - 1])).rows.length;
  await pool.query(barText, ['SPX', CLOSE - 60_000, CLOSE - 5 * 86_400_000]);
};

const fmt = (values: readonly number[]): string =>
  `p50 ${quantile(values, 0.5).toFixed(1)} ms   p99 ${quantile(values, 0.99).toFixed(1)} ms   (${values.length} runs)`;
const levelsUrl = `${server.url}/v1/options/levels?underlying_symbol=SPX&date=${DAY}&include=vanna,charm,delta`;
const heatmapUrl = `${server.url}/v1/options/exposure/heatmap?underlying_symbol=SPX&date=${DAY}`;
// The first request of each fits the surface of the family's expirations (the memo's cold cost).
const firstLevels = performance.now();
await getOk(levelsUrl, headers);
const coldLevelsMs = performance.now() - firstLevels;
const bareMs = await sequential(bareRead, DURATION);
const levelsMs = await sequential(async () => await getOk(levelsUrl, headers), DURATION);
// Every request a key of its own. max_dte from 400 days selects every expiration of the day (the
// last is within a year) and repeats after 3,000 requests; gatekeeper_ratio after 800,000.
let variant = 0;
const rebookedMs = await sequential(async () => {
  variant += 1;
  await getOk(`${levelsUrl}&max_dte=${400 + (variant % 3000)}`, headers);
}, DURATION);
const answeredMs = await sequential(async () => {
  variant += 1;
  await getOk(`${levelsUrl}&gatekeeper_ratio=${(0.1 + (variant % 800_000) * 1e-6).toFixed(6)}`, headers);
}, DURATION);
const heatmapMs = await sequential(async () => await getOk(heatmapUrl, headers), DURATION);
// A cold book each time: the stored books of the day deleted (the service then values the minute
// again on the request: inputs read, smiles fitted; the book is stored after the answer, and the
// loop waits for that before deleting it), a new answer key so that no process serves a kept
// answer of the deleted book.
// With STAGE_TIMING=true in the bench's environment (the service inherits it), each cold request's
// Server-Timing stages (src/stage-timing.ts; services/books.ts stamps the book's) are reported too.
const coldMs: number[] = [];
const coldStages = new Map<string, number[]>();
/** Waits until the day's minute is mapped to a stored book: a request stores the book it valued after its answer. */
const stored = async (): Promise<void> => {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const { rows } = await pool.query<{ n: string }>(`select count(*) as n from position_book_minutes where trading_date = $1::date`, [
      DAY,
    ]);
    if (Number(rows[0]?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the cold book was not stored within a minute');
};
for (let i = 0; i < 8; i++) {
  await stored();
  await pool.query(`delete from position_books where trading_date = $1::date`, [DAY]);
  variant += 1;
  const started = performance.now();
  const r = await fetch(`${levelsUrl}&gatekeeper_ratio=${(0.2 + variant * 1e-6).toFixed(6)}`, { headers });
  await r.arrayBuffer();
  if (r.status !== 200) throw new Error(`a cold levels request answered ${r.status}`);
  coldMs.push(performance.now() - started);
  for (const part of (r.headers.get('server-timing') ?? '').split(', ')) {
    const [name, dur] = part.split(';dur=');
    if (name !== undefined && dur !== undefined) coldStages.set(name, [...(coldStages.get(name) ?? []), Number(dur)]);
  }
}
// Each HTTP worker keeps its own answers, and the one-at-a-time runs above may have reached only one
// of them (a kept-alive connection stays with its worker): CONNECTIONS requests at once, on as many
// connections dealt out to the workers in turn, make each worker answer once (its first request is
// the cold cost reported above), then two seconds at the connections before the measured run.
const everyWorker = async (url: string): Promise<void> => {
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => await getOk(url, headers)));
};
await everyWorker(levelsUrl);
const levelsLoaded = await measure(levelsUrl, bench.headers);
await everyWorker(heatmapUrl);
const heatmapLoaded = await measure(heatmapUrl, bench.headers);
const bareP50 = quantile(bareMs, 0.5);

const report = [
  `positioning bench: node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end; the service in ${server.workers} HTTP worker(s)`,
  `day ${DAY} (scale ${SCALE}), ${loadSeconds === null ? 'already loaded' : `simulated and loaded in ${loadSeconds.toFixed(0)} s`}; SPX family: ${expirations.length} expirations, ${contractRows} contracts, ${chainRows} quoted at the close`,
  `bare read (pg: contracts with open interest, chain, bar)   ${fmt(bareMs)}`,
  `levels SPX include=vanna,charm,delta, one at a time         ${fmt(levelsMs)}   ratio of p50 ${(quantile(levelsMs, 0.5) / bareP50).toFixed(2)}  (goals: p50 < 150 ms, ratio <= 3); first request (fits the surface) ${coldLevelsMs.toFixed(0)} ms`,
  `levels, a cold book each time (read, fit; stored after)    ${fmt(coldMs)}   ratio of p50 ${(quantile(coldMs, 0.5) / bareP50).toFixed(2)}`,
  ...(coldStages.size === 0
    ? []
    : [
        `  its stages, median ms (STAGE_TIMING): ${[...coldStages].map(([name, list]) => `${name} ${quantile(list, 0.5).toFixed(1)}`).join(', ')}`,
      ]),
  `levels, each request a new view of the stored book         ${fmt(rebookedMs)}   ratio of p50 ${(quantile(rebookedMs, 0.5) / bareP50).toFixed(2)}`,
  `levels, each request a new answer of the kept book          ${fmt(answeredMs)}   ratio of p50 ${(quantile(answeredMs, 0.5) / bareP50).toFixed(2)}`,
  `heat map SPX default, one at a time                         ${fmt(heatmapMs)}   ratio of p50 ${(quantile(heatmapMs, 0.5) / bareP50).toFixed(2)}  (goal: p50 < 100 ms)`,
  `levels at ${CONNECTIONS} connections: ${levelsLoaded.requests.average.toFixed(1)} req/s   p50 ${levelsLoaded.latency.p50} ms   p99 ${levelsLoaded.latency.p99} ms   errors ${levelsLoaded.errors + levelsLoaded.non2xx}  (goal: p99 < 300 ms)`,
  `heat map at ${CONNECTIONS} connections: ${heatmapLoaded.requests.average.toFixed(1)} req/s   p50 ${heatmapLoaded.latency.p50} ms   p99 ${heatmapLoaded.latency.p99} ms   errors ${heatmapLoaded.errors + heatmapLoaded.non2xx}  (goal: p99 < 300 ms)`,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/positioning.txt', `${report}\n`);

await pool.end();
await server.close();
await bench.close();
