/**
 * Platform overhead: autocannon against a cheap authenticated route (auth, limits with raised
 * values, request validation, envelope, request log, JSON log line) and against a bare Express route
 * answering a JSON body of similar size, in the same process, same machine, same connections.
 * The connections use the keys of bench/support.ts ACCOUNTS accounts in turn.
 * Prints requests per second of both, their ratio (goal: >= 0.5) and latency percentiles.
 */
import fs from 'node:fs';
import os from 'node:os';
import type autocannon from 'autocannon';
import express from 'express';
import { CONNECTIONS, DURATION, measure, startBenchService } from '../support.js';

const bench = await startBenchService('platform');
const { service, key, headers } = bench;

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
const platform = await measure(`${service.url}${routePath}`, headers);
const ratio = platform.requests.average / baseline.requests.average;

const line = (name: string, r: autocannon.Result) =>
  `${name.padEnd(28)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${r.latency.p50} ms   p99 ${r.latency.p99} ms   errors ${r.errors + r.non2xx}`;
const report = [
  `platform bench: ${CONNECTIONS} connections (${headers.length} accounts), ${DURATION}s each, node ${process.version}, ${os.cpus().length} cores`,
  line('bare express', baseline),
  line('authenticated route', platform),
  `ratio (authenticated / bare): ${ratio.toFixed(3)}  (goal >= 0.5)`,
].join('\n');
process.stdout.write(`${report}\n`);
fs.mkdirSync('bench/results', { recursive: true });
fs.writeFileSync('bench/results/platform.txt', `${report}\n`);

bareServer.close();
await bench.close();
process.exit(0);
