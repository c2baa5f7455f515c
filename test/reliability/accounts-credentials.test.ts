/**
 * Bad credentials cost nothing, and the limits hold for every account (issue #20, section 4):
 * - 600 requests with random keys ran 594 key lookups in the database after the keyless budget was
 *   spent; now a key prefix not known as a key's is looked up only while the budget has room, and
 *   one that matched nothing is not looked up again (counted by the key cache's lookups counter:
 *   every call of db/accounts.ts findKeyByPrefix);
 * - such a flood made GET /v1/status answer 429 for the whole client network; the public routes now
 *   have a budget of their own;
 * - a suspended account's requests answered 403 without entering its windows, so it could send
 *   without limit; now they are counted and refused 429 like any other's;
 * - GET /v1/account/limits answered 429 cooldown during a cooldown; it spends no data call, so it
 *   now answers with the cooldown in its body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAccountStatus } from '../../src/db/accounts.js';
import { ID_ALPHABET, randomString } from '../../src/ids.js';
import { request as plainRequest, type Answer } from '../support/service-process.js';
import { startTestService, type TestService } from '../support/service.js';

const KEYLESS = 20;

/** A well-formed key that no account has. */
function randomKey(): string {
  return `oads_${randomString(8, ID_ALPHABET)}_${randomString(32, ID_ALPHABET)}`;
}

describe('bad credentials and suspended accounts', () => {
  let service: TestService;
  /** The client network of the test's requests (the service trusts one proxy hop). */
  let network = '198.51.100.7';

  async function request(url: string, options: { key?: string } = {}): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(url, {
      headers: { 'x-forwarded-for': network, ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) },
    });
    const body = (await response.json()) as Answer['body'];
    return {
      status: response.status,
      headers: Object.fromEntries(
        ['retry-after', 'x-ratelimit-burst-remaining'].map((name) => [name, response.headers.get(name) ?? undefined]),
      ),
      body,
      ms: performance.now() - started,
    };
  }

  beforeAll(async () => {
    service = await startTestService({
      env: { AUTH_CACHE_TTL_MS: '60000', TRUST_PROXY: '1' },
      limits: {
        keylessRequestsPerMinute: KEYLESS,
        requestsPerSecond: 5,
        requestsPerMinute: 1000,
        cooldownAfterRejections: 3,
        cooldownMs: 60_000,
      },
    });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('looks a bad key up once, none after the keyless budget is spent, and keeps /v1/status answering', async () => {
    const { key } = await service.newAccount();
    // Known to the service before the flood: a key it has seen is never on the keyless budget.
    expect((await request(`${service.url}/v1/account`, { key })).status).toBe(200);
    const before = service.app.keys.lookups;

    // Ten bad keys, each sent twice: ten lookups, twenty 401s, and the budget is spent.
    const bad = Array.from({ length: KEYLESS / 2 }, randomKey);
    const first = await Promise.all([...bad, ...bad].map((k) => request(`${service.url}/v1/account`, { key: k })));
    expect(first.map((a) => a.status)).toEqual(Array<number>(KEYLESS).fill(401));
    expect(service.app.keys.lookups - before).toBe(bad.length);

    // The flood goes on with new keys: 429 at once, no lookup.
    const flood = await Promise.all(Array.from({ length: 300 }, () => request(`${service.url}/v1/account`, { key: randomKey() })));
    expect(new Set(flood.map((a) => a.status))).toEqual(new Set([429]));
    expect(flood[0]?.body.error?.code).toBe('rate_limited');
    expect(flood[0]?.headers['retry-after']).toMatch(/^\d+$/);
    expect(service.app.keys.lookups - before).toBe(bad.length);

    // Health and the valid key are untouched; the plain socket's network (127.0.0.0/24) is another.
    const status = await request(`${service.url}/v1/status`);
    expect(status.status).toBe(200);
    expect((await request(`${service.url}/v1/account`, { key })).status).toBe(200);
    expect((await plainRequest(`${service.url}/v1/account`, { key: randomKey() })).status).toBe(401);
  });

  it('counts a suspended account in its windows and answers 429 past them', async () => {
    network = '203.0.113.7';
    const { id, key } = await service.newAccount();
    await setAccountStatus(service.database.admin, id, 'suspended');
    const answers = [];
    for (let i = 0; i < 8; i += 1) answers.push(await request(`${service.url}/v1/account`, { key }));
    // Five in the rolling second (a test on a slow machine may see the second pass: at least five 403s first).
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses).toContain(429);
    expect(answers[0]?.body.error?.code).toBe('account_suspended');
    expect(answers[0]?.headers['x-ratelimit-burst-remaining']).toBe('4');
    const limited = answers.find((a) => a.status === 429);
    expect(['burst_limited', 'cooldown']).toContain(limited?.body.error?.code);
  });

  it('answers GET /v1/account/limits during a cooldown, with the cooldown in its body', async () => {
    network = '192.0.2.7';
    const { key } = await service.newAccount();
    let last = await request(`${service.url}/v1/account`, { key });
    // Past the burst (5 a second) three rejections start the cooldown.
    for (let i = 0; i < 20 && last.body.error?.code !== 'cooldown'; i += 1) last = await request(`${service.url}/v1/account`, { key });
    expect(last.status).toBe(429);
    expect(last.body.error?.code).toBe('cooldown');

    const limits = await request(`${service.url}/v1/account/limits`, { key });
    expect(limits.status, JSON.stringify(limits.body)).toBe(200);
    const data = limits.body.data as { cooldown_until: number | null; minute_window: { remaining: number } };
    expect(data.cooldown_until).toBeGreaterThan(Date.now());
    // The data route is still refused.
    expect((await request(`${service.url}/v1/account`, { key })).body.error?.code).toBe('cooldown');
  });
});
