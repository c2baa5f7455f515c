/**
 * The database goes away (issue #20, section 1): `make run` as a cluster (a primary and two HTTP
 * workers, src/main.ts) over its embedded PostgreSQL, whose postmaster is killed with SIGKILL while
 * an export job (in the primary) and a request (in a worker) wait on it. Its data folder is made
 * unreadable at the same moment, so that the restarts fail and the outage lasts until the test
 * gives the folder back: nothing exits, every request meanwhile answers 503 upstream_busy with
 * Retry-After, /v1/status says within a second that the database is down, and once the supervisor
 * has restarted the server, requests and jobs work again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { settled } from '../support/settled.js';
import {
  connect,
  lockTable,
  newKeys,
  request,
  startServiceProcess,
  stopServiceProcess,
  waitingOnLocks,
  type Answer,
  type ServiceProcess,
} from '../support/service-process.js';

describe('the embedded PostgreSQL killed under a cluster', () => {
  let service: ServiceProcess;
  let keys: string[];
  let pgDir: string;
  let pgMode: number;

  beforeAll(async () => {
    // The test reads /v1/status (a route that needs no key) until the restarted database answers:
    // on a loaded machine that took more than the keyless budget's 60 reads a minute (a 429 then
    // hid the recovery). The keyless limit is not what this test is about.
    service = await startServiceProcess({
      env: { WEB_WORKERS: '2', LIMIT_IN_FLIGHT: '100', AUTH_CACHE_TTL_MS: '60000', LIMIT_KEYLESS_PER_MINUTE: '1000000' },
    });
    keys = await newKeys(service.pgUrl, 2);
    pgDir = path.join(service.dataDir, 'pg');
    pgMode = fs.statSync(pgDir).mode & 0o777;
    const client = await connect(service.pgUrl);
    await client.query(`insert into stock_splits (symbol, execution_date, split_from, split_to) values ('AAPL', '2020-08-31', 1, 4)`);
    await client.end();
  });

  afterAll(async () => {
    if (pgDir && fs.existsSync(pgDir)) fs.chmodSync(pgDir, pgMode);
    if (service) await stopServiceProcess(service);
    if (service) fs.rmSync(service.dataDir, { recursive: true, force: true });
  });

  it('stays up, answers 503 upstream_busy and a down status meanwhile, and serves again once the server is restarted', async () => {
    onTestFailed(() => console.log(service.output()));
    const [cached, fresh] = keys as [string, string];
    // The first key is authenticated (and cached by a worker) before the outage; the second is
    // first seen during it, so its lookup meets the lost database.
    expect((await request(`${service.base}/v1/account`, { key: cached })).status).toBe(200);

    const lock = await lockTable(service.pgUrl, 'stock_splits');
    const observer = await connect(service.pgUrl);
    const exported = await request(`${service.base}/v1/exports`, {
      key: cached,
      method: 'POST',
      body: { path: '/v1/stocks/splits', query: { symbol: 'AAPL' } },
    });
    expect(exported.status).toBe(202);
    const inFlight = request(`${service.base}/v1/stocks/splits?symbol=AAPL`, { key: cached });
    // The export job (primary, pool oads-api) and the request (a worker, oads-api) wait on the lock.
    await settled(
      () => waitingOnLocks(observer),
      (apps) => apps.filter((a) => a === 'oads-api').length >= 2,
      { what: 'the export and the request to wait on the lock', timeoutMs: 20_000 },
    );
    await observer.end();

    const postmaster = service.postmasterPid();
    process.kill(postmaster, 'SIGKILL');
    fs.chmodSync(pgDir, 0);

    // The lock is let go only once the request has its answer: a backend outliving its postmaster
    // by a moment would otherwise take the lock and meet the unreadable folder (a 500 that only
    // this test's way of holding off the restarts can cause).
    const cut = await inFlight;
    void lock.release();
    expect(cut.status, JSON.stringify(cut.body)).toBe(503);
    expect(cut.body.error?.code).toBe('upstream_busy');
    expect(Number(cut.headers['retry-after'])).toBeGreaterThan(0);

    const status = await request(`${service.base}/v1/status`);
    expect(status.ms).toBeLessThan(1_000);
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({ status: 'degraded', database: { status: 'down', latency_ms: null } });

    for (const [key, route] of [
      [fresh, '/v1/account'],
      [cached, '/v1/stocks/splits?symbol=AAPL'],
    ] as const) {
      const answer = await request(`${service.base}${route}`, { key });
      expect(answer.status, `${route}: ${JSON.stringify(answer.body)}`).toBe(503);
      expect(answer.body.error?.code).toBe('upstream_busy');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(service.child.exitCode).toBeNull();
    expect(service.output()).not.toMatch(/HTTP worker exited/);

    fs.chmodSync(pgDir, pgMode);
    await settled(
      () => request(`${service.base}/v1/status`),
      (answer: Answer) => (answer.body.data as { status?: string } | undefined)?.status === 'ok',
      { what: 'the status to be ok again after the restart', timeoutMs: 30_000 },
    );
    expect(service.postmasterPid()).not.toBe(postmaster);
    expect(service.output()).toMatch(/embedded PostgreSQL restarted/);

    // /v1/status reads through a pool of its own; each worker's watch finds the database back at
    // its next probe (backoff up to 2 s), answering 503 upstream_busy until then. Four reads on
    // fresh connections (the primary deals them to both workers in turn) all answered 200.
    await settled(
      async () => {
        const statuses: number[] = [];
        for (const key of [fresh, cached, fresh, cached]) statuses.push((await request(`${service.base}/v1/account`, { key })).status);
        return statuses;
      },
      (statuses: number[]) => statuses.every((status) => status === 200),
      { what: 'account reads on both workers to succeed after the restart', timeoutMs: 10_000 },
    );
    const splits = await request(`${service.base}/v1/stocks/splits?symbol=AAPL`, { key: cached });
    expect(splits.status, JSON.stringify(splits.body)).toBe(200);
    // The job queue works again: a new export is run to the end.
    const again = await request(`${service.base}/v1/exports`, {
      key: fresh,
      method: 'POST',
      body: { path: '/v1/stocks/splits', query: { symbol: 'AAPL' } },
    });
    expect(again.status).toBe(202);
    const id = (again.body.data as { id: string }).id;
    const ready = await settled(
      () => request(`${service.base}/v1/exports/${id}`, { key: fresh }),
      (answer: Answer) => (answer.body.data as { status?: string } | undefined)?.status === 'ready',
      { what: 'the export after the restart to be ready', timeoutMs: 30_000 },
    );
    expect(ready.body.data).toMatchObject({ status: 'ready', rows: 1 });
    expect(service.child.exitCode).toBeNull();
    expect(service.output()).not.toMatch(/HTTP worker exited|Unhandled|uncaught/i);
  });
});
