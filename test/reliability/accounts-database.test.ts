/**
 * One account cannot stall another (issue #20, section 4): with three accounts holding 12 slow
 * requests against a pool of 10, an unrelated account's small read waited behind them. Now
 * each account holds at most a quarter of the request pool (3 of 10) at the database gate
 * (src/middleware/database-gate.ts): the slow accounts' fourth requests wait their bounded time and
 * answer 503 upstream_busy with Retry-After, and the unrelated account's read finds a connection at
 * once. The requests are made slow by a lock held on the table they read.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockTable, request, waitingOnLocks, type Answer } from '../support/service-process.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

describe('the database gate: accounts kept apart', () => {
  let service: TestService;
  let observer: pg.Client;

  beforeAll(async () => {
    // Limits high enough that only the gate can refuse; a short bounded wait.
    service = await startTestService({ env: { DATABASE_WAIT_MS: '1000', LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' } });
    observer = new pg.Client({ connectionString: service.database.connectionString });
    await observer.connect();
  });

  afterAll(async () => {
    await observer?.end();
    await service?.stop();
  });

  it("answers an unrelated account's read at once while three accounts' slow requests hold their shares", async () => {
    expect(service.config.databasePoolSize).toBe(10);
    const slow = await Promise.all([1, 2, 3].map(() => service.newAccount()));
    const other = await service.newAccount();

    const lock = await lockTable(service.database.connectionString, 'stock_splits');
    let held: Promise<Answer>[] = [];
    try {
      held = slow.flatMap(({ key }) => [1, 2, 3, 4].map(() => request(`${service.url}/v1/stocks/splits?symbol=AAPL`, { key })));
      // Three of each account's four reach the database and wait on the lock: 9 of the 10 connections.
      await settled(
        () => waitingOnLocks(observer),
        (apps) => apps.filter((a) => a === 'oads-api').length === 9,
        { what: 'nine requests to wait on the lock' },
      );

      const started = performance.now();
      const page = await request(`${service.url}/v1/account/usage`, { key: other.key });
      const ms = performance.now() - started;
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      // Before the gate it waited for a connection until the slow requests' statements timed out (20 s).
      expect(ms).toBeLessThan(3_000);

      // Each slow account's fourth request found no place within the bounded wait.
      const refused = await settled(
        async () => (await Promise.all(held.map((p) => Promise.race([p, Promise.resolve(null)])))).filter((a): a is Answer => a !== null),
        (answers) => answers.length === 3,
        { what: "each slow account's fourth request to be answered", timeoutMs: 5_000 },
      );
      for (const answer of refused) {
        expect(answer.status).toBe(503);
        expect(answer.body.error?.code).toBe('upstream_busy');
        expect(answer.headers['retry-after']).toBe('1');
      }
      expect(await waitingOnLocks(observer)).toHaveLength(9);
    } finally {
      await lock.release();
    }
    const answers = await Promise.all(held);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(9);
    expect(service.app.gate.inUse).toBe(0);
  });
});
