/**
 * Volatility routes on the full-scale simulated day, each against a bare read of its inputs in the
 * same run:
 * - skew for SPX with its default four expirations, one request at a time, against the statements
 *   that read the same rows (the listed expirations, the chain's newest samples up to the close,
 *   the underlying's last bar) run with `pg` and decoded as usual. Goals: p50 under 50 ms and at
 *   most 3x the bare read. The route answers from the family's valued book of the minute, stored
 *   in PostgreSQL with its fitted surfaces (services/books.ts), and each process keeps its answers
 *   by the stored book's id, so repeated requests for a completed session are served the kept
 *   answer: the fit itself is measured apart, in this process, on the chain the route read.
 * - drift for SPX at 1m, likewise against a read of the one-minute samples of the session's
 *   near-the-money contracts of the nearest expirations and the session's bars (goal: p50 under
 *   100 ms), when the route is served. A completed session's drift is kept per process by the
 *   exact identity of its inputs (services/volatility-drift.ts), so repeated requests are served
 *   the kept answer; a new answer each time (the memo emptied) is measured apart, in this process.
 * - the implied volatilities (forward, bid, ask and mid of every contract) of the whole SPXW chain
 *   snapshot at the close, all expirations (goal: under 20 ms), against the same passes pricing each
 *   contract once (Black-76) instead of solving it; wall clock and CPU time (the steadier figure on a
 *   shared machine).
 *
 * Then the same requests at BENCH_CONNECTIONS (8) connections for the tail. Sizes: BENCH_SCALE
 * (default full), BENCH_SECONDS (10). DATABASE_URL reuses a server that holds the day already.
 */
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { thousandthsToStrike } from '../../src/analytics/occ.js';
import { bsmPrice } from '../../src/analytics/pricing.js';
import { riskFreeRate } from '../../src/analytics/rates.js';
import { MS_PER_YEAR, settlementInstant } from '../../src/analytics/settlement.js';
import { impliedForward } from '../../src/analytics/volatility/forward.js';
import { quoteVolatilities, type ChainQuote } from '../../src/analytics/volatility/quotes.js';
import { buildSurface, type SurfaceInput } from '../../src/analytics/volatility/surface.js';
import { SESSION_SETTINGS } from '../../src/db/connection.js';
import type { Scale } from '../../src/ingest/simulator/model.js';
import {
  autocannonRun,
  CONNECTIONS,
  DURATION,
  getOk,
  loadSimulatedDay,
  quantile,
  sequential,
  startBenchService,
  startServerProcess,
} from '../support.js';

const SCALE = (process.env.BENCH_SCALE ?? 'full') as Scale;
/** Friday 2026-11-20 after the close: the simulated week ends with that day. */
const NOW = Date.parse('2026-11-20T23:00:00Z');
const DAY = '2026-11-20';
/** 16:15 ET, the close of SPX options: the skew's instant. */
const CLOSE = Date.parse('2026-11-20T21:15:00Z');
const SESSION_START = Date.parse('2026-11-20T14:30:00Z');

const bench = await startBenchService('volatility');
const { service } = bench;
const loadSeconds = await loadSimulatedDay(bench, { day: DAY, scale: SCALE, now: NOW });
const server = await startServerProcess(bench.databaseUrl);
const pool = new pg.Pool({
  connectionString: service.database.connectionString,
  max: service.deps.config.databasePoolSize,
  options: SESSION_SETTINGS,
});
const headers = bench.headers[0] as Record<string, string>;
const lines: string[] = [];
const fmt = (values: readonly number[]): string =>
  `p50 ${quantile(values, 0.5).toFixed(1)} ms   p99 ${quantile(values, 0.99).toFixed(1)} ms   (${values.length} runs)`;

// --- skew -------------------------------------------------------------------------------------
const skewUrl = `${server.url}/v1/options/volatility/skew?underlying_symbol=SPX&date=${DAY}`;
const skewBody = (await (await fetch(skewUrl, { headers })).json()) as {
  data: { expirations: { date_of_expiry: string; root: string; points: unknown[] }[]; valuation: { timestamp: number } };
};
const chosen = skewBody.data.expirations.map((e) => ({ root: e.root, date: e.date_of_expiry }));
const listedText = `select distinct root, date_of_expiry::text as date_of_expiry from contracts where root = any($1::text[]) and date_of_expiry >= $2::date order by date_of_expiry, root`;
const chainText = `
  select c.id as contract_id, c.root, c.underlying, c.date_of_expiry::text as date_of_expiry, c.contract_type, c.strike_thousandths, s.bid, s.ask, s.quote_ts, s.minute
  from unnest($1::text[], $2::date[]) as e(root, d)
  join contracts c on c.root = e.root and c.date_of_expiry = e.d
  cross join lateral (
    select q.bid, q.ask, q.quote_ts, q.minute from quote_samples q
    where q.trading_date = $3::date and q.contract_id = c.id and q.minute >= $4::int8 and q.minute <= $5::int8 and q.quote_ts <= $5::int8
    order by q.minute desc limit 1) s
  order by c.date_of_expiry, c.root, c.contract_type, c.strike_thousandths`;
const barText = `select close, ts from underlying_bars where symbol = $1 and ts <= $2::int8 and ts >= $3::int8 order by ts desc limit 1`;
const chainArgs = [chosen.map((e) => e.root), chosen.map((e) => e.date), DAY, CLOSE - 30 * 60_000, CLOSE - 1];
interface ChainRow {
  root: string;
  date_of_expiry: string;
  contract_type: 'call' | 'put';
  strike_thousandths: string;
  bid: number | null;
  ask: number | null;
}
const bareSkew = async (): Promise<ChainRow[]> => {
  await pool.query(listedText, [['SPX', 'SPXW'], DAY]);
  const chain = await pool.query<ChainRow>(chainText, chainArgs);
  await pool.query(barText, ['SPX', CLOSE - 60_000, CLOSE - 5 * 86_400_000]);
  return chain.rows;
};
const chainRows = await bareSkew();
const servedPoints = skewBody.data.expirations.reduce((n, e) => n + e.points.length, 0);
const bareSkewMs = await sequential(async () => void (await bareSkew()), DURATION);
const skewMs = await sequential(async () => await getOk(skewUrl, headers), DURATION);
const surfaceInput: SurfaceInput = {
  spot: null,
  rate: riskFreeRate(DAY),
  expirations: chosen.map((e) => ({
    time: (settlementInstant(e.root, e.date) - skewBody.data.valuation.timestamp) / MS_PER_YEAR,
    quotes: chainRows
      .filter((r) => r.root === e.root && r.date_of_expiry === e.date)
      .map((r): ChainQuote => ({
        strike: thousandthsToStrike(Number(r.strike_thousandths)),
        type: r.contract_type,
        bid: r.bid,
        ask: r.ask,
      })),
  })),
};
const fitMs = await sequential(async () => void buildSurface(surfaceInput), DURATION / 2);
lines.push(
  `skew SPX, default four expirations (${chainRows.length} contracts read, ${servedPoints} points served):`,
  `  bare read (pg: expirations, chain, bar)   ${fmt(bareSkewMs)}`,
  `  endpoint, one at a time                   ${fmt(skewMs)}`,
  `  ratio of p50 (endpoint / bare read): ${(quantile(skewMs, 0.5) / quantile(bareSkewMs, 0.5)).toFixed(2)}  (goals: p50 < 50 ms, ratio <= 3)`,
  `  surface fit in process, no memo (forward, volatilities, 4 SVI fits, calendar checks): ${fmt(fitMs)}`,
);

// --- the whole SPXW chain's implied volatilities ------------------------------------------------
const whole = await pool.query<ChainRow & { date_of_expiry: string }>(
  `select c.root, c.date_of_expiry::text as date_of_expiry, c.contract_type, c.strike_thousandths, q.bid, q.ask
   from contracts c join quote_samples q on q.contract_id = c.id and q.trading_date = $1::date and q.minute = $2::int8
   where c.root = 'SPXW' and c.date_of_expiry > $1::date`,
  [DAY, CLOSE - 60_000],
);
const byExpiry = new Map<string, ChainQuote[]>();
for (const r of whole.rows) {
  const list = byExpiry.get(r.date_of_expiry) ?? [];
  list.push({ strike: thousandthsToStrike(Number(r.strike_thousandths)), type: r.contract_type, bid: r.bid, ask: r.ask });
  byExpiry.set(r.date_of_expiry, list);
}
const rate = riskFreeRate(DAY);
let solved = 0;
let priced = 0;
const solveAll = (sides: 'all' | 'mid' | 'price'): void => {
  solved = 0;
  priced = 0;
  for (const [date, quotes] of byExpiry) {
    const time = (settlementInstant('SPXW', date) - CLOSE) / MS_PER_YEAR;
    const forward = impliedForward({ quotes, time, rate, spot: null });
    if (forward === null) continue;
    if (sides === 'price') {
      // The baseline: one Black-76 price of each contract (at 20 vol points) where the solve inverts one.
      for (const q of quotes)
        priced += bsmPrice({ type: q.type, spot: forward.forward, strike: q.strike, time, rate, dividendYield: rate, volatility: 0.2 });
      continue;
    }
    solved += quoteVolatilities(quotes, { spot: null, forward: forward.forward, time, rate }, sides).filter(
      (q) => q.midVolatility !== null,
    ).length;
  }
};
// Wall clock and this process's CPU time per pass: on a shared machine the CPU time is the steadier figure.
const timedPasses = async (sides: 'all' | 'mid' | 'price'): Promise<{ wall: number[]; cpu: number[] }> => {
  const cpu: number[] = [];
  const wall = await sequential(async () => {
    const c = process.cpuUsage();
    solveAll(sides);
    cpu.push(process.cpuUsage(c).user / 1000);
  }, DURATION / 2);
  return { wall, cpu: cpu.slice(-wall.length) };
};
const priceRuns = await timedPasses('price');
const midRuns = await timedPasses('mid');
const allRuns = await timedPasses('all');
const withCpu = (r: { wall: number[]; cpu: number[] }): string => `${fmt(r.wall)}   cpu p50 ${quantile(r.cpu, 0.5).toFixed(1)} ms`;
const toPrice = (r: { wall: number[]; cpu: number[] }): string =>
  `${(quantile(r.wall, 0.5) / quantile(priceRuns.wall, 0.5)).toFixed(2)} (cpu ${(quantile(r.cpu, 0.5) / quantile(priceRuns.cpu, 0.5)).toFixed(2)})`;
lines.push(
  `implied volatilities of the whole SPXW snapshot at 16:14 ET (${whole.rows.length} contracts, ${byExpiry.size} expirations, ${solved} with a mid volatility), in process:`,
  `  baseline: forward and one Black price of each  ${withCpu(priceRuns)}  (${Number.isFinite(priced) ? 'finite' : 'not finite'})`,
  `  forward and mid volatility of each contract    ${withCpu(midRuns)}  (goal: p50 < 20 ms)   ratio to the baseline ${toPrice(midRuns)}`,
  `  forward, bid, ask and mid volatilities         ${withCpu(allRuns)}   ratio to the baseline ${toPrice(allRuns)}`,
);

// --- drift ------------------------------------------------------------------------------------
const driftUrl = `${server.url}/v1/options/volatility/drift?underlying_symbol=SPX&date=${DAY}&interval=1m`;
const driftProbe = await fetch(driftUrl, { headers });
if (driftProbe.status === 200) {
  const drift = (await driftProbe.json()) as { data: { date_of_expiry: string; points: unknown[] } };
  // The inputs: the session's samples of the tracked expiration's contracts within 2% of the
  // session's underlying range, and the session's bars.
  const driftText = `
    select q.contract_id, q.minute, q.bid, q.ask, q.quote_ts from quote_samples q join contracts c on c.id = q.contract_id
    where q.trading_date = $1::date and c.root = any($2::text[]) and c.date_of_expiry = $3::date and q.minute >= $4::int8 and q.minute < $5::int8
      and c.strike_thousandths between $6::int8 and $7::int8`;
  const range = await pool.query<{ lo: number; hi: number }>(
    `select min(low) as lo, max(high) as hi from underlying_bars where symbol = 'SPX' and ts >= $1::int8 and ts < $2::int8`,
    [SESSION_START, CLOSE],
  );
  const lo = Math.floor((range.rows[0]?.lo ?? 0) * 0.98 * 1000);
  const hi = Math.ceil((range.rows[0]?.hi ?? 0) * 1.02 * 1000);
  const bareDrift = async (): Promise<void> => {
    await pool.query(driftText, [DAY, ['SPX', 'SPXW'], drift.data.date_of_expiry, SESSION_START, CLOSE, lo, hi]);
    await pool.query(`select ts, open, close from underlying_bars where symbol = 'SPX' and ts >= $1::int8 and ts < $2::int8 order by ts`, [
      SESSION_START,
      CLOSE,
    ]);
  };
  const bareDriftMs = await sequential(bareDrift, DURATION);
  const driftMs = await sequential(async () => await getOk(driftUrl, headers), DURATION);
  // What the memo hides: the same request to this process's service with its drift memo emptied
  // before each one (a new answer: the read and the computation each time).
  const coldUrl = driftUrl.replace(server.url, bench.service.url);
  const coldMs = await sequential(async () => {
    bench.service.deps.memos.drift.clear();
    await getOk(coldUrl, headers);
  }, DURATION);
  lines.push(
    `drift SPX 1m, expiration ${drift.data.date_of_expiry} (${drift.data.points.length} points):`,
    `  bare read (pg: the expiration's near-the-money samples, bars)   ${fmt(bareDriftMs)}`,
    `  endpoint, one at a time (a completed session: kept answers)     ${fmt(driftMs)}`,
    `  endpoint, a new answer each time (memo emptied, in process)     ${fmt(coldMs)}   ratio of p50 to the bare read ${(quantile(coldMs, 0.5) / quantile(bareDriftMs, 0.5)).toFixed(2)}`,
    `  ratio of p50 (endpoint / bare read): ${(quantile(driftMs, 0.5) / quantile(bareDriftMs, 0.5)).toFixed(2)}  (goal: p50 < 100 ms)`,
  );
} else {
  lines.push(`drift: not measured (the route answered ${driftProbe.status})`);
}

// --- under load ---------------------------------------------------------------------------------
const loaded = await autocannonRun(skewUrl, bench.headers, DURATION);
lines.push(
  `skew at ${CONNECTIONS} connections: ${loaded.requests.average.toFixed(0)} req/s   p50 ${loaded.latency.p50} ms   p99 ${loaded.latency.p99} ms   errors ${loaded.errors + loaded.non2xx}`,
);

const report = [
  `volatility bench: node ${process.version}, ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end; the service in ${server.workers} HTTP worker(s)`,
  `day ${DAY} (scale ${SCALE}), ${loadSeconds === null ? 'already loaded' : `simulated and loaded in ${loadSeconds.toFixed(0)} s`}`,
  ...lines,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/volatility.txt', `${report}\n`);

await pool.end();
await server.close();
await bench.close();
