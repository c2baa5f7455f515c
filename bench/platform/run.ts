/**
 * Platform overhead: autocannon against a cheap authenticated route (auth, limits with raised
 * values, request validation, envelope, request log, JSON log line) and against a bare Express route
 * answering a JSON body of similar size, in the same process, same machine, same connections.
 * Prints requests per second of both, their ratio (goal: >= 0.5) and latency percentiles.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type autocannon from 'autocannon';
import express from 'express';
import { createAccount, createKey } from '../../src/accounts.js';
import { loadConfig } from '../../src/config.js';
import { freePort, startEmbeddedPostgres } from '../../src/db/connection.js';
import { createLogger } from '../../src/middleware/logging.js';
import { startService } from '../../src/server.js';

const execFileAsync = promisify(execFile);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

/** autocannon in a child process, so the load generator does not share the servers' event loop. */
async function autocannonRun(url: string, headers: Record<string, string>, seconds: number): Promise<autocannon.Result> {
  const args = ['autocannon', '--json', '-c', String(CONNECTIONS), '-d', String(seconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  args.push(url);
  const { stdout } = await execFileAsync('npx', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as autocannon.Result;
}

async function measure(url: string, headers: Record<string, string>): Promise<autocannon.Result> {
  await autocannonRun(url, headers, 2); // warm-up
  return await autocannonRun(url, headers, DURATION);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-bench-'));
fs.chmodSync(dir, 0o755);
const databaseUrl = process.env.DATABASE_URL ?? (await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort())).url;
const config = loadConfig({
  DATABASE_URL: databaseUrl,
  PORT: '0',
  LIMIT_PER_MINUTE: '10000000',
  LIMIT_PER_SECOND: '1000000',
  LIMIT_IN_FLIGHT: '10000',
  VALIDATE_RESPONSES: 'false',
});
const devNull = fs.openSync('/dev/null', 'w');
const service = await startService(config, { logger: createLogger('info', (line) => fs.writeSync(devNull, line)), jobs: false });
const accountId = await createAccount(service.database.admin, { name: 'bench', plan: 'pro' });
const { key } = await createKey(service.database.admin, accountId);

const routePath = '/v1/market/calendar?date=2026-11-27';
const sample = (await (await fetch(`${service.url}${routePath}`, { headers: { authorization: `Bearer ${key}` } })).json()) as unknown;
const bare = express();
bare.get('/bare', (_req, res) => {
  res.json(sample);
});
const bareServer = bare.listen(0, '127.0.0.1');
await new Promise((resolve) => bareServer.once('listening', resolve));
const barePort = (bareServer.address() as { port: number }).port;

const baseline = await measure(`http://127.0.0.1:${barePort}/bare`, {});
const platform = await measure(`${service.url}${routePath}`, { authorization: `Bearer ${key}` });
const ratio = platform.requests.average / baseline.requests.average;

const line = (name: string, r: autocannon.Result) =>
  `${name.padEnd(28)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   errors ${r.errors + r.non2xx}`;
const report = [
  `platform bench: ${CONNECTIONS} connections, ${DURATION}s each, node ${process.version}, ${os.cpus().length} cores`,
  line('bare express', baseline),
  line('authenticated route', platform),
  `ratio (authenticated / bare): ${ratio.toFixed(3)}  (goal >= 0.5)`,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/platform.txt', `${report}\n`);

bareServer.close();
await service.stop();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
