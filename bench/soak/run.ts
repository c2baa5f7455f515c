/**
 * Soak (issue #20): SOAK_ACCOUNTS (20) accounts each at its limits for SOAK_SECONDS (180) on the
 * default HTTP workers, half paced at exactly their per-minute limit and half sending above it
 * (traffic.ts), plus a flood of bad keys (SOAK_FLOOD_RATE, 200 a second, from
 * SOAK_FLOOD_CONNECTIONS, 32, connections over 4 client networks). The service runs as `make run`
 * runs it (dist/src/main.js in its own process, default limits, the simulated market seeded on its
 * first start) over a throwaway embedded PostgreSQL, or DATABASE_URL (a server seeded by an earlier
 * run is reused as it is).
 *
 * Goals, each checked, the run exiting 1 when one fails: no 5xx and no transport error; every
 * account admitted exactly its limits (never more than the limit certainly inside one window, and
 * no refusal the limits do not explain: figures.ts); the paced accounts' p99 under 100 ms, also
 * given as a ratio to the p99 of the same requests on the idle service measured first; resident
 * memory of the primary and of each worker flat (the median of the last minute of samples within
 * 10% of the first minute's). Figures go to stdout and bench/results/soak.txt.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { createAccount, createKey } from '../../src/accounts.js';
import { openDatabase } from '../../src/db/connection.js';
import { mostCertainInWindow, countsPerWindow, median, quantile, unjustifiedRefusals, type Exchange } from './figures.js';
import { commandOf, residentMb, serviceProcesses, startDatabase, startSoakService } from './service.js';
import { driveAccount, flood, get, now, Workload, type AccountClient, type Answered, type Limits, type Market } from './traffic.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 180);
const ACCOUNTS = Number(process.env.SOAK_ACCOUNTS ?? 20);
const FLOOD_RATE = Number(process.env.SOAK_FLOOD_RATE ?? 200);
const FLOOD_CONNECTIONS = Number(process.env.SOAK_FLOOD_CONNECTIONS ?? 32);
const FLOOD_NETWORKS = 4;
/** Requests a minute an over-limit account sends beyond its limit: under the cooldown's 30 refusals. */
const OVER_BY = 20;
const BASELINE_ACCOUNTS = 10;
const WARMUP_REQUESTS = 300;
const BASELINE_REQUESTS = 600;
const P99_GOAL_MS = 100;
const MEMORY_GOAL = 1.1;

const dir = process.env.SOAK_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'oads-bench-soak-'));
fs.mkdirSync(dir, { recursive: true });
fs.chmodSync(dir, 0o755);
const database = await startDatabase(dir);
const service = await startSoakService(database.url, dir);
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
const failures: string[] = [];
const lines: string[] = [];

// What the accounts ask: dates with quote samples for most contracts (whole sessions), the roots and
// some contracts quoted during their regular session (15:00-20:30 UTC lies inside it in winter and
// summer alike; the history route samples the regular session by default).
const dates = (
  await pool.query<{ d: string }>(
    `select trading_date::text as d from quote_samples group by 1 having count(distinct contract_id) >= 100 order by 1`,
  )
).rows.map((r) => r.d);
const quoted = (
  await pool.query<{ root: string; contract_type: string; strike: string; expiry: string; date: string }>(
    `select c.root, c.contract_type, (c.strike_thousandths / 1000.0)::text as strike, c.date_of_expiry::text as expiry, q.trading_date::text as date
       from (select distinct trading_date, contract_id from quote_samples
              where trading_date = any($1::date[])
                and minute between extract(epoch from trading_date + time '15:00') * 1000 and extract(epoch from trading_date + time '20:30') * 1000) q
       join contracts c on c.id = q.contract_id
      order by md5(c.option_symbol || q.trading_date::text) limit 80`,
    [dates],
  )
).rows;
const market: Market = {
  dates,
  roots: [...new Set(quoted.map((c) => c.root))].sort(),
  contracts: quoted.map((c) => ({ root: c.root, contractType: c.contract_type, strike: Number(c.strike), expiry: c.expiry, date: c.date })),
};
if (dates.length === 0 || market.contracts.length === 0) throw new Error('the store holds no quoted session to ask for');

const handle = await openDatabase({ databaseUrl: database.url, embeddedDir: dir, embeddedPort: 0, poolSize: 1, statementTimeoutMs: 0 });
async function newAccount(name: string): Promise<string> {
  const id = await createAccount(handle.admin, { name, plan: 'pro' });
  return (await createKey(handle.admin, id, 'soak')).key;
}
const clients: AccountClient[] = [];
for (let i = 0; i < ACCOUNTS; i++) {
  const kind = i % 2 === 0 ? 'paced' : 'over';
  clients.push({
    name: `${kind}-${i}`,
    key: await newAccount(`soak ${kind} ${i}`),
    kind,
    localAddress: `127.0.${10 + i}.1`,
    workload: new Workload(market, 1000 + i),
  });
}
const baselineKeys: string[] = [];
for (let i = 0; i < BASELINE_ACCOUNTS; i++) baselineKeys.push(await newAccount(`soak baseline ${i}`));

const account = JSON.parse(
  (await get(service.url, '/v1/account', 'account', { agent: false, localAddress: '127.0.200.1', key: clients[0]?.key ?? '' })).body,
) as {
  data: {
    limits: { requests_per_minute: number; requests_per_second: number; requests_in_flight: number; keyless_requests_per_minute: number };
  };
};
const l = account.data.limits;
const limits: Limits = {
  perMinute: l.requests_per_minute,
  perSecond: l.requests_per_second,
  inFlight: l.requests_in_flight,
  keylessPerMinute: l.keyless_requests_per_minute,
};

// The idle baseline: the paced accounts' routes one at a time, from accounts of their own (each
// well inside its windows: at most 250 requests a second in all, 25 per account), after a warm-up.
const baselineWorkload = new Workload(market, 999);
const baseline: Answered[] = [];
{
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < WARMUP_REQUESTS + BASELINE_REQUESTS; i++) {
    const at = now() + 4;
    const { path: p, route } = baselineWorkload.request();
    const answer = await get(service.url, p, route, {
      agent,
      localAddress: `127.0.${100 + (i % BASELINE_ACCOUNTS)}.1`,
      key: baselineKeys[i % BASELINE_ACCOUNTS] ?? '',
    });
    if (answer.status === 200) baselineWorkload.answered(p, answer.body);
    if (i >= WARMUP_REQUESTS) baseline.push(answer);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - now())));
  }
  agent.destroy();
}

// Resident memory of the primary and each HTTP worker, every second of the soak.
const memory = new Map<number, { role: string; samples: { t: number; mb: number }[] }>();
const sampleMemory = () => {
  for (const pid of serviceProcesses(service.pid)) {
    if (pid !== service.pid && !/src\/main\.(ts|js)/.test(commandOf(pid))) continue;
    const mb = residentMb(pid);
    if (mb === null) continue;
    const entry = memory.get(pid) ?? { role: pid === service.pid ? 'primary' : `worker ${pid}`, samples: [] };
    entry.samples.push({ t: now(), mb });
    memory.set(pid, entry);
  }
};

/** The histogram's samples include its timer's period, taken off below. */
const LOOP_RESOLUTION_MS = 5;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loopDelay.enable();
const started = now();
const until = started + SECONDS * 1000;
sampleMemory();
const sampler = setInterval(sampleMemory, 1000);
const [runs, flooded] = await Promise.all([
  Promise.all(clients.map((client) => driveAccount(service.url, client, limits, until, limits.perMinute + OVER_BY))),
  flood(service.url, market, FLOOD_CONNECTIONS, FLOOD_NETWORKS, FLOOD_RATE, until),
]);
clearInterval(sampler);
loopDelay.disable();
const ended = now();

// Errors: every answer of the run, baseline included.
const everything: Answered[] = [...baseline, ...runs.flatMap((r) => [...r.data, ...r.status]), ...[...flooded.networks.values()].flat()];
const serverErrors = everything.filter((a) => a.status >= 500);
const transport = everything.filter((a) => a.failed !== null);
const byStatus = (answers: readonly Answered[]) => {
  const counts = new Map<string, number>();
  for (const a of answers) {
    const name = a.failed ? 'failed' : a.status === 429 || a.status >= 500 ? `${a.status} ${a.code}` : String(a.status);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .sort()
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
};
if (serverErrors.length > 0)
  failures.push(
    `${serverErrors.length} 5xx answers (${byStatus(serverErrors)}; routes ${[...new Set(serverErrors.map((a) => a.route))].join(', ')})`,
  );
if (transport.length > 0)
  failures.push(
    `${transport.length} requests without an HTTP answer (${[...new Set(transport.map((a) => a.failed))].slice(0, 3).join('; ')})`,
  );

// Limits, per account and per flood network.
const isMinuteRefusal = (a: Answered) => a.status === 429 && a.code === 'rate_limited' && !(a.message ?? '').includes('in flight');
const limitLine = (name: string, admitted: Exchange[], answers: Answered[], start: number) => {
  const minuteMost = mostCertainInWindow(admitted, 60_000);
  const secondMost = mostCertainInWindow(admitted, 1_000);
  const minuteWrong = unjustifiedRefusals(admitted, answers.filter(isMinuteRefusal), 60_000, limits.perMinute);
  const secondWrong = unjustifiedRefusals(
    admitted,
    answers.filter((a) => a.code === 'burst_limited'),
    1_000,
    limits.perSecond,
  );
  const other = answers.filter((a) => a.status === 429 && (a.code === 'cooldown' || (a.message ?? '').includes('in flight'))).length;
  return { minuteMost, secondMost, minuteWrong, secondWrong, other, perMinute: countsPerWindow(admitted, start, ended, 60_000), name };
};
const accountLines: string[] = [];
const steady: number[] = [];
for (const run of runs) {
  const admitted = run.data.filter((a) => a.status !== 429 && a.failed === null);
  const f = limitLine(run.client.name, admitted, run.data, run.started);
  const refused = run.data.length - admitted.length;
  const problems: string[] = [];
  if (f.minuteMost > limits.perMinute) problems.push(`${f.minuteMost} admitted within one minute (limit ${limits.perMinute})`);
  if (f.secondMost > limits.perSecond) problems.push(`${f.secondMost} admitted within one second (limit ${limits.perSecond})`);
  if (f.minuteWrong + f.secondWrong > 0) problems.push(`${f.minuteWrong + f.secondWrong} refusals the limits do not explain`);
  if (f.other > 0) problems.push(`${f.other} cooldown or in-flight refusals`);
  if (run.client.kind === 'paced' && refused > 0) problems.push(`a paced account refused ${refused} times`);
  // Every whole minute of an account that wants more than its limit must hold exactly the limit;
  // fewer means it could not be driven at it (answers too slow for the in-flight limit).
  const short = f.perMinute.filter((n) => n < limits.perMinute);
  if (short.length > 0)
    problems.push(`not driven at its limit: ${short.length} of ${f.perMinute.length} whole minutes below ${limits.perMinute}`);
  steady.push(...f.perMinute);
  accountLines.push(
    `  ${run.client.name.padEnd(9)} sent ${String(run.data.length).padStart(5)}  admitted ${String(admitted.length).padStart(5)}  per minute ${f.perMinute.join(' ') || '-'}  most in 60 s ${f.minuteMost}, in 1 s ${f.secondMost}  refused ${refused}${problems.length ? `  FAIL: ${problems.join('; ')}` : ''}`,
  );
  if (problems.length) failures.push(`${run.client.name}: ${problems.join('; ')}`);
}
const floodLines: string[] = [];
for (const [network, answers] of [...flooded.networks].sort()) {
  const admitted = answers.filter((a) => a.status === 401);
  const refused = answers.filter((a) => a.status === 429);
  const most = mostCertainInWindow(admitted, 60_000);
  const wrong = unjustifiedRefusals(admitted, refused, 60_000, limits.keylessPerMinute);
  const unexpected = answers.filter((a) => a.status !== 401 && a.status !== 429 && a.failed === null).length;
  const problems: string[] = [];
  if (most > limits.keylessPerMinute) problems.push(`${most} keyless answers within one minute (limit ${limits.keylessPerMinute})`);
  if (wrong > 0) problems.push(`${wrong} refusals the keyless limit does not explain`);
  if (unexpected > 0) problems.push(`${unexpected} answers neither 401 nor 429`);
  floodLines.push(
    `  ${network}.0/24  sent ${String(answers.length).padStart(6)}  401 ${admitted.length}  429 ${refused.length}  most 401 in 60 s ${most}${problems.length ? `  FAIL: ${problems.join('; ')}` : ''}`,
  );
  if (problems.length) failures.push(`flood ${network}.0/24: ${problems.join('; ')}`);
}

// Latency of the paced accounts' admitted data requests, against the idle baseline.
const soakLatency = runs
  .filter((r) => r.client.kind === 'paced')
  .flatMap((r) => r.data.filter((a) => a.status !== 429 && a.failed === null).map((a) => a.received - a.sent));
const idleLatency = baseline.filter((a) => a.status !== 429 && a.failed === null).map((a) => a.received - a.sent);
const p99 = quantile(soakLatency, 0.99);
if (p99 >= P99_GOAL_MS) failures.push(`paced accounts' p99 ${p99.toFixed(1)} ms (goal < ${P99_GOAL_MS} ms)`);
const baselineRefused = baseline.filter((a) => a.status === 429).length;
if (baselineRefused > 0) failures.push(`${baselineRefused} baseline requests refused`);

// Memory: the first and the last minute of samples (a third of the run each when shorter).
const span = Math.min(60_000, (ended - started) / 3);
const memoryLines: string[] = [];
for (const { role, samples } of memory.values()) {
  const first = median(samples.filter((s) => s.t < started + span).map((s) => s.mb));
  const last = median(samples.filter((s) => s.t >= ended - span).map((s) => s.mb));
  const gone = samples.length > 0 && (samples[samples.length - 1]?.t ?? 0) < ended - 2000;
  const ratio = last / first;
  memoryLines.push(
    `  ${role.padEnd(14)} first ${first.toFixed(0)} MB  last ${last.toFixed(0)} MB  ratio ${gone ? 'gone' : ratio.toFixed(3)}  (max ${Math.max(...samples.map((s) => s.mb)).toFixed(0)} MB)`,
  );
  if (gone) failures.push(`${role} exited during the soak`);
  else if (!(ratio <= MEMORY_GOAL)) failures.push(`${role} resident memory grew ${ratio.toFixed(3)}x (goal <= ${MEMORY_GOAL})`);
}

const routesOf = (answers: readonly Answered[]) => {
  const routes = new Map<string, Answered[]>();
  for (const a of answers) routes.set(a.route, [...(routes.get(a.route) ?? []), a]);
  return [...routes].map(([route, list]) => `${route} ${byStatus(list)}`).join('; ');
};
const paced = runs.filter((r) => r.client.kind === 'paced');
const over = runs.filter((r) => r.client.kind === 'over');
const report = [
  `soak bench: ${SECONDS} s, ${paced.length} paced + ${over.length} over-limit accounts (${limits.perMinute + OVER_BY}/min offered), flood ${FLOOD_RATE}/s bad keys on ${FLOOD_CONNECTIONS} connections over ${FLOOD_NETWORKS} networks; service ${service.workers === 1 ? 'one process' : `${service.workers} HTTP workers`}, LIMIT_SCOPE ${service.limitScope}${process.env.LIMIT_SCOPE ? '' : ' (default)'}, started in ${service.startSeconds.toFixed(0)} s; node ${process.version}, ${os.cpus().length} cores`,
  `limits in force: ${limits.perMinute}/min, ${limits.perSecond}/s, ${limits.inFlight} in flight, keyless ${limits.keylessPerMinute}/min; market: ${dates.join(', ')}, ${market.roots.length} roots, ${market.contracts.length} quoted contracts`,
  `5xx: ${serverErrors.length}   no answer: ${transport.length}   requests: ${everything.length}`,
  `accounts (admitted per whole minute from each one's start; expected ${limits.perMinute} each, range seen ${steady.length ? `${Math.min(...steady)}-${Math.max(...steady)}` : '-'}):`,
  ...accountLines,
  `  paced answers: ${routesOf(paced.flatMap((r) => r.data))}`,
  `  over-limit answers: ${routesOf(over.flatMap((r) => r.data))}`,
  `  status (each account's network): ${byStatus(runs.flatMap((r) => r.status))}`,
  `bad-key flood (401 spends the keyless budget, 429 beyond it):`,
  ...floodLines,
  `latency of the paced accounts' admitted requests (client side, whole answer):`,
  `  idle baseline   ${String(idleLatency.length).padStart(6)} requests  p50 ${quantile(idleLatency, 0.5).toFixed(1)} ms  p99 ${quantile(idleLatency, 0.99).toFixed(1)} ms`,
  `  under the soak  ${String(soakLatency.length).padStart(6)} requests  p50 ${quantile(soakLatency, 0.5).toFixed(1)} ms  p99 ${p99.toFixed(1)} ms  (goal p99 < ${P99_GOAL_MS} ms)`,
  ...['trades', 'leaders', 'history'].map((route) => {
    const idle = baseline.filter((a) => a.route === route && a.status !== 429 && a.failed === null).map((a) => a.received - a.sent);
    const soak = paced.flatMap((r) =>
      r.data.filter((a) => a.route === route && a.status !== 429 && a.failed === null).map((a) => a.received - a.sent),
    );
    return `    ${route.padEnd(8)} idle p50 ${quantile(idle, 0.5).toFixed(1)} ms p99 ${quantile(idle, 0.99).toFixed(1)} ms (${idle.length})   soak p50 ${quantile(soak, 0.5).toFixed(1)} ms p99 ${quantile(soak, 0.99).toFixed(1)} ms (${soak.length})`;
  }),
  `  this client's own event-loop delay during the soak (part of every figure above): p50 ${(loopDelay.percentile(50) / 1e6 - LOOP_RESOLUTION_MS).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS).toFixed(1)} ms`,
  `  ratio soak / idle: p50 ${(quantile(soakLatency, 0.5) / quantile(idleLatency, 0.5)).toFixed(2)}, p99 ${(p99 / quantile(idleLatency, 0.99)).toFixed(2)}`,
  `resident memory (median of the first vs the last ${(span / 1000).toFixed(0)} s of samples, goal ratio <= ${MEMORY_GOAL}):`,
  ...memoryLines,
  failures.length === 0 ? 'all goals met' : `FAILED:\n${failures.map((f) => `  - ${f}`).join('\n')}`,
].join('\n');
lines.push(report);
process.stdout.write(`${lines.join('\n')}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/soak.txt', `${lines.join('\n')}\n`);

await pool.end();
await handle.close();
await service.stop();
await database.stop();
if (!process.env.SOAK_DATA_DIR) fs.rmSync(dir, { recursive: true, force: true });
process.exit(failures.length === 0 ? 0 : 1);
