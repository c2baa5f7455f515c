/**
 * A hung database must not take accounts' in-flight places (issue #34, section 1). With the
 * embedded PostgreSQL stopped (SIGSTOP: connections open, nothing answers), four requests of one
 * key answered the route deadline's 504, and once the database answered again that account got
 * `429 At most 4 requests may be in flight per account` for as long as it was watched: the key
 * lookup had been waiting when the 504 was sent, and once it answered the request took its place,
 * then failed to write its rate-limit headers on the answered response before it could wait for
 * the response's close, so the place was never given back.
 *
 * Every path that takes a place gives it back: the deadline (in the key lookup and past it), a
 * client that leaves, and a worker that dies (the primary takes back what it had leased). The
 * service runs as `make run` runs it, two HTTP workers leasing from the primary's limiter; the
 * route deadline is shortened, and the finding of a hang (DATABASE_HANG_MS) lengthened so that the
 * deadline comes first.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { settled } from '../support/settled.js';
import {
  connect,
  hangDatabase,
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

const IN_FLIGHT = 4;
const DEADLINE_MS = 3_000;

describe("a hung database and accounts' in-flight places", () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await startServiceProcess({
      env: {
        WEB_WORKERS: '2',
        LIMIT_IN_FLIGHT: String(IN_FLIGHT),
        ENDPOINT_TIMEOUT_MS: String(DEADLINE_MS),
        AUTH_CACHE_TTL_MS: '600000',
        LIMIT_KEYLESS_PER_MINUTE: '1000000',
        // The deadline comes before the hang is found (which answers 503: database-hung.test.ts).
        DATABASE_HANG_MS: '60000',
        // Each worker's database gate admits all IN_FLIGHT requests of one account (a quarter of its
        // share of the pool), however the cluster deals the connections: three on one worker would
        // otherwise leave one at the gate (503 after its wait), not at the lock or the deadline.
        DATABASE_POOL_SIZE: String(IN_FLIGHT * 4 * 2),
      },
    });
    const client = await connect(service.pgUrl);
    await client.query(`insert into stock_splits (symbol, execution_date, split_from, split_to) values ('AAPL', '2020-08-31', 1, 4)`);
    await client.end();
  });

  afterAll(async () => {
    if (service) await stopServiceProcess(service);
  });

  /** A key of an account of its own. */
  const newKey = async (): Promise<string> => ((await newKeys(service.pgUrl, 1)) as [string])[0];

  /** `IN_FLIGHT` requests of `key` at once. */
  const together = (key: string, route = '/v1/account', timeoutMs?: number): Promise<PromiseSettledResult<Answer>[]> =>
    Promise.allSettled(Array.from({ length: IN_FLIGHT }, () => request(`${service.base}${route}`, { key, timeoutMs })));

  /** Every place of the account is free: as many requests at once as it may have in flight all answer 200. */
  async function placesFree(key: string, timeoutMs = 10_000): Promise<void> {
    const answers = await settled(
      // Each round's requests time out: one lost to the workers' replacement (a connection handed to a
      // worker as it died) is asked again by the next round, not waited on until the test's timeout.
      async () =>
        (await together(key, '/v1/account', 10_000)).map((r) =>
          r.status === 'fulfilled' ? `${r.value.status} ${r.value.body.error?.message ?? ''}` : `failed: ${String(r.reason)}`,
        ),
      (statuses) => statuses.every((s) => s.startsWith('200')),
      { what: `${IN_FLIGHT} requests at once of the account to be admitted`, timeoutMs },
    );
    expect(answers).toHaveLength(IN_FLIGHT);
  }

  it('gives the places back of requests answered 504 while their key was being looked up', async () => {
    onTestFailed(() => console.log(service.output()));
    const key = await newKey();
    const resume = hangDatabase(service);
    let answers: PromiseSettledResult<Answer>[];
    try {
      answers = await together(key);
    } finally {
      resume();
    }
    for (const answer of answers) {
      expect(answer.status).toBe('fulfilled');
      if (answer.status === 'fulfilled') expect(answer.value.status, JSON.stringify(answer.value.body)).toBe(504);
    }
    await placesFree(key);
  });

  it('gives the places back of requests answered 504 past authentication', async () => {
    onTestFailed(() => console.log(service.output()));
    const key = await newKey();
    // The key cached by both workers (each request comes on a connection of its own, dealt in turn).
    for (let i = 0; i < 2; i += 1) expect((await request(`${service.base}/v1/account`, { key })).status).toBe(200);
    const resume = hangDatabase(service);
    let answers: PromiseSettledResult<Answer>[];
    try {
      answers = await together(key, '/v1/stocks/splits?symbol=AAPL');
    } finally {
      resume();
    }
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value.status : 0))).toEqual(Array(IN_FLIGHT).fill(504));
    await placesFree(key);
  });

  it('gives the places back of requests whose client left while the key was being looked up', async () => {
    onTestFailed(() => console.log(service.output()));
    const key = await newKey();
    const resume = hangDatabase(service);
    let answers: PromiseSettledResult<Answer>[];
    try {
      answers = await together(key, '/v1/account', 300);
    } finally {
      resume();
    }
    expect(answers.map((a) => (a.status === 'rejected' ? (a.reason as { code?: string }).code : 'answered'))).toEqual(
      Array(IN_FLIGHT).fill('ETIMEDOUT'),
    );
    await placesFree(key);
  });

  it('gives the places back of requests in flight on workers that die', async () => {
    onTestFailed(() => console.log(service.output()));
    const key = await newKey();
    for (let i = 0; i < 2; i += 1) expect((await request(`${service.base}/v1/account`, { key })).status).toBe(200);
    // The requests hold their places while they wait on a lock; both workers are then killed.
    const lock = await lockTable(service.pgUrl, 'stock_splits');
    const observer = await connect(service.pgUrl);
    try {
      const cut = together(key, '/v1/stocks/splits?symbol=AAPL');
      await settled(
        () => waitingOnLocks(observer),
        (apps) => apps.filter((a) => a === 'oads-api').length >= IN_FLIGHT,
        { what: 'the requests to wait on the lock', timeoutMs: DEADLINE_MS },
      );
      const workers = workerPids(service);
      expect(workers).toHaveLength(2);
      for (const pid of workers) process.kill(pid, 'SIGKILL');
      const answers = await cut;
      expect(answers.every((a) => a.status === 'rejected')).toBe(true);
    } finally {
      await observer.end();
      await lock.release();
    }
    // The replacements are forked after a second and load the service (long on a loaded machine).
    await placesFree(key, 60_000);
  });
});
