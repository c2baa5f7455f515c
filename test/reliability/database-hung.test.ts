/**
 * A hung database is found like a dead one (issue #34, section 2). With every process of the
 * embedded PostgreSQL stopped (SIGSTOP: connections stay open, nothing answers), every request
 * waited the whole route deadline and answered 504 without Retry-After, even once /v1/status said
 * `down`; /v1/status itself answered 504 after 20 s (its statement time-out is the server's, which
 * a stopped server does not apply); and requests queued behind the stuck key lookup were refused
 * 429 once the database answered again.
 *
 * Now a statement or connection with no answer for DATABASE_HANG_MS makes the process probe the
 * database; a probe not answered in that time marks it down and cuts the connections waiting on
 * it, and the primary tells every worker: requests answer 503 upstream_busy with Retry-After (at
 * once, once it is known), /v1/status answers within a second, and no request is refused 429 for
 * what the service itself could not serve: a request answered 503 upstream_busy or 504 takes no
 * place in its account's windows. The service runs as `make run` runs it, two HTTP
 * workers; the route deadline keeps its default (20 s), which no answer here may come near.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { settled } from '../support/settled.js';
import {
  connect,
  hangDatabase,
  newKeys,
  request,
  startServiceProcess,
  stopServiceProcess,
  type Answer,
  type ServiceProcess,
} from '../support/service-process.js';

const HANG_MS = 1_000;
const PER_MINUTE = 40;
/** No answer may take this long: a hang found (a statement's wait and a probe's) and some slack for a loaded machine. */
const FOUND_WITHIN_MS = 4 * HANG_MS + 2_000;

describe('a hung database', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await startServiceProcess({
      env: {
        WEB_WORKERS: '2',
        DATABASE_HANG_MS: String(HANG_MS),
        AUTH_CACHE_TTL_MS: '600000',
        LIMIT_KEYLESS_PER_MINUTE: '1000000',
        LIMIT_PER_MINUTE: String(PER_MINUTE),
        LIMIT_PER_SECOND: '100000',
        // A worker's request-log flush would find the hang by itself: only requests find it here.
        REQUEST_LOG_FLUSH_MS: '60000',
      },
    });
    const client = await connect(service.pgUrl);
    await client.query(`insert into stock_splits (symbol, execution_date, split_from, split_to) values ('AAPL', '2020-08-31', 1, 4)`);
    await client.end();
  });

  afterAll(async () => {
    if (service) await stopServiceProcess(service);
  });

  const unserved = (answer: Answer, what: string): void => {
    expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(503);
    expect(answer.body.error?.code).toBe('upstream_busy');
    expect(Number(answer.headers['retry-after']), what).toBeGreaterThan(0);
  };

  it('answers 503 with Retry-After instead of waiting the deadline, /v1/status within a second, and no 429 afterwards', async () => {
    onTestFailed(() => console.log(service.output()));
    const [cached, fresh] = (await newKeys(service.pgUrl, 2)) as [string, string];
    // The key cached by both workers, and idle connections in their request and status pools.
    for (let i = 0; i < 2; i += 1) {
      expect((await request(`${service.base}/v1/stocks/splits?symbol=AAPL`, { key: cached })).status).toBe(200);
      expect((await request(`${service.base}/v1/status`)).status).toBe(200);
    }

    const resume = hangDatabase(service);
    const during: Answer[] = [];
    try {
      // Found by one worker: its request waiting on a statement is cut, and answers 503.
      const first = await request(`${service.base}/v1/stocks/splits?symbol=AAPL`, { key: cached, timeoutMs: FOUND_WITHIN_MS });
      unserved(first, 'the request that finds the hang');
      during.push(first);

      // Known down in every worker (the primary tells the other): each answers at once (each
      // request comes on a connection of its own, dealt to the workers in turn), the lookup of a
      // key not seen before too.
      for (let i = 0; i < 6; i += 1) {
        const [key, route] = i % 2 === 0 ? [fresh, '/v1/account'] : [cached, '/v1/stocks/splits?symbol=AAPL'];
        const answer = await request(`${service.base}${route}`, { key, timeoutMs: FOUND_WITHIN_MS });
        unserved(answer, `request ${i} once down`);
        expect(answer.ms, `request ${i} once down`).toBeLessThan(1_000);
        during.push(answer);
      }
      for (let i = 0; i < 4; i += 1) {
        const status = await request(`${service.base}/v1/status`, { timeoutMs: FOUND_WITHIN_MS });
        expect(status.ms, `status ${i}`).toBeLessThan(1_000);
        expect(status.status).toBe(200);
        expect(status.body.data).toMatchObject({ status: 'degraded', database: { status: 'down', latency_ms: null } });
      }
    } finally {
      resume();
    }
    expect(during.filter((a) => a.status === 429)).toEqual([]);

    // Back: served again, each account with every in-flight place free and no cooldown.
    await settled(
      async () => {
        const statuses: number[] = [];
        for (const key of [cached, fresh, cached, fresh]) statuses.push((await request(`${service.base}/v1/account`, { key })).status);
        return statuses;
      },
      (statuses) => statuses.every((s) => s === 200),
      { what: 'both workers to serve again', timeoutMs: 20_000 },
    );
    for (const key of [cached, fresh]) {
      const answers = await Promise.all(Array.from({ length: 4 }, () => request(`${service.base}/v1/account`, { key })));
      expect(answers.map((a) => `${a.status} ${a.body.error?.message ?? ''}`)).toEqual(Array(4).fill('200 '));
    }
    const status = await request(`${service.base}/v1/status`);
    expect(status.body.data).toMatchObject({ database: { status: 'ok' } });
  });

  it("counts no request it could not serve in an account's windows: no 429 nor cooldown for them", async () => {
    onTestFailed(() => console.log(service.output()));
    // Two accounts: the one counted, and one that polls for the database's return.
    const [key] = (await newKeys(service.pgUrl, 1)) as [string];
    const [poller] = (await newKeys(service.pgUrl, 1)) as [string];
    for (let i = 0; i < 2; i += 1) expect((await request(`${service.base}/v1/account`, { key })).status).toBe(200);

    const resume = hangDatabase(service);
    const during: Answer[] = [];
    try {
      // More than the minute allows, all answered 503 by a service that cannot serve them.
      for (let i = 0; i < PER_MINUTE + 5; i += 1) {
        during.push(await request(`${service.base}/v1/stocks/splits?symbol=AAPL`, { key, timeoutMs: FOUND_WITHIN_MS }));
      }
    } finally {
      resume();
    }
    expect(during.map((a) => `${a.status} ${a.body.error?.code}`)).toEqual(Array(PER_MINUTE + 5).fill('503 upstream_busy'));

    // Back (found by another account), the account has its minute but the two requests served.
    await settled(
      async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 2; i += 1) statuses.push((await request(`${service.base}/v1/account`, { key: poller })).status);
        return statuses;
      },
      (statuses) => statuses.every((s) => s === 200),
      { what: 'both workers to serve again', timeoutMs: 20_000 },
    );
    const after: string[] = [];
    for (let i = 0; i < PER_MINUTE - 2; i += 1) {
      const answer = await request(`${service.base}/v1/account`, { key });
      after.push(`${answer.status} ${answer.body.error?.message ?? ''}`);
    }
    expect(after).toEqual(Array(PER_MINUTE - 2).fill('200 '));
  });
});
