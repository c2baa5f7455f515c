import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getAccount,
  getAccountLimits,
  getMarketCalendarDay,
  getOpenApiDocument,
  getStatus,
  listOptionTrades,
  listStockSplits,
} from '../../generated/client/index.js';
import { revokeKey, setAccountStatus } from '../../src/db/accounts.js';
import type { Handler } from '../../src/handlers/types.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

const RATE_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-burst-limit',
  'x-ratelimit-burst-remaining',
];

describe('authentication and entitlements', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { AUTH_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => service.stop());

  it('serves /v1/status and /v1/openapi.json without a key', async () => {
    const status = await getStatus({ client: service.client() });
    expect(status.response.status).toBe(200);
    expect(status.data?.data.database.status).toBe('ok');
    expect(status.data?.data.datasets.find((d) => d.dataset === 'equities.splits')?.rows).toBeGreaterThanOrEqual(50);
    const doc = await getOpenApiDocument({ client: service.client() });
    expect(doc.data?.openapi).toBe('3.1.0');
    expect(Object.keys(doc.data?.paths ?? {})).toContain('/v1/options/trades');
  });

  it('answers 401 for a missing, malformed or unknown key, with the error body', async () => {
    const missing = await getAccount({ client: service.client() });
    expect(missing.response.status).toBe(401);
    expect(missing.error?.error.code).toBe('unauthorized');
    expect(missing.error?.error.request_id).toBe(missing.response.headers.get('x-request-id'));
    const malformed = await getAccount({ client: service.client('not-a-key') });
    expect(malformed.response.status).toBe(401);
    const unknown = await getAccount({ client: service.client('oads_aaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA') });
    expect(unknown.response.status).toBe(401);
  });

  it('knows the account behind a key and carries the rate-limit headers on every authenticated response', async () => {
    const { id, key, client } = await service.newAccount({ plan: 'pro' });
    const account = await getAccount({ client });
    expect(account.response.status).toBe(200);
    expect(account.data?.data).toMatchObject({ id, plan: 'pro', status: 'active', entitlements: { overnight: true } });
    expect(account.data?.data.key.prefix).toBe(key.slice(0, 13));
    expect(account.data?.data.limits).toMatchObject({
      requests_per_minute: 250,
      requests_per_second: 30,
      requests_in_flight: 4,
      keyless_requests_per_minute: 60,
    });
    for (const h of RATE_HEADERS) expect(account.response.headers.get(h), h).toMatch(/^\d+$/);
    expect(account.response.headers.get('x-ratelimit-limit')).toBe('250');
    const bad = await listStockSplits({ client, query: { limit: 0 } });
    expect(bad.response.status).toBe(400);
    for (const h of RATE_HEADERS) expect(bad.response.headers.get(h), h).not.toBeNull();
  });

  it('stores only a hash of the key', async () => {
    const { key } = await service.newAccount();
    const rows = await service.database.admin.selectFrom('api_keys').selectAll().execute();
    for (const row of rows) {
      expect(row.secret_hash.toString('utf8')).not.toContain(key);
      expect(row.secret_hash.length).toBe(32);
    }
  });

  it('answers 403 when the dataset release is missing, and account_suspended for a suspended account', async () => {
    const { client } = await service.newAccount({ plan: 'basic', datasets: ['options'] });
    const splits = await listStockSplits({ client });
    expect(splits.response.status).toBe(403);
    expect(splits.error?.error.code).toBe('forbidden');
    // Routes that need no dataset stay open.
    expect((await getMarketCalendarDay({ client })).response.status).toBe(200);

    const suspended = await service.newAccount();
    await setAccountStatus(service.database.admin, suspended.id, 'suspended');
    const answer = await getAccount({ client: suspended.client });
    expect(answer.response.status).toBe(403);
    expect(answer.error?.error.code).toBe('account_suspended');
  });

  it('needs the Pro plan or the overnight entitlement for overnight data', async () => {
    const basic = await service.newAccount({ plan: 'basic' });
    const gth = await listOptionTrades({ client: basic.client, query: { underlying_symbol: 'SPX', session: 'gth' } });
    expect(gth.response.status).toBe(403);
    expect(gth.error?.error.message).toMatch(/overnight/i);
    const entitled = await service.newAccount({ plan: 'basic', overnight: true });
    const allowed = await listOptionTrades({ client: entitled.client, query: { underlying_symbol: 'SPX', session: 'gth' } });
    expect(allowed.response.status).not.toBe(403);
  });

  it('refuses a revoked key', async () => {
    const { key, client } = await service.newAccount();
    expect((await getAccount({ client })).response.status).toBe(200);
    await revokeKey(service.database.admin, key.slice(0, 13));
    expect((await getAccount({ client })).response.status).toBe(401);
  });
});

describe('rate limits', () => {
  let service: TestService;
  // The service's clock (the limiter's windows, the key cache, request times): it stands still
  // unless a test moves it, so the windows roll when a test says and not with the wall clock.
  let now = Date.now();
  const clock = (): number => now;
  const advance = (ms: number): void => {
    now += ms;
  };
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const slowAccount: Handler<'getAccount'> = async (ctx) => {
    await gate;
    return {
      data: {
        id: ctx.account?.id ?? '',
        name: 'slow',
        plan: 'pro',
        datasets: [],
        entitlements: { overnight: true },
        status: 'active',
        created_timestamp: 0,
        key: { id: 'k', prefix: 'p', name: null, created_timestamp: 0 },
        limits: {
          requests_per_minute: 1,
          requests_per_second: 1,
          requests_in_flight: 1,
          keyless_requests_per_minute: 1,
          endpoint_timeout_ms: 1,
          exports_queued_or_running: 1,
          export_max_rows: 1,
          export_max_bytes: 1,
          export_flat_max_rows: 1,
          export_flat_max_bytes: 1,
          export_max_query_params: 1,
          export_bytes_held_max: 1,
        },
      },
    };
  };

  beforeAll(async () => {
    service = await startTestService({
      limits: { requestsPerMinute: 20, requestsPerSecond: 8, keylessRequestsPerMinute: 6, cooldownAfterRejections: 12, cooldownMs: 30_000 },
      handlers: { getAccount: slowAccount },
      clock,
    });
  });
  afterAll(async () => service.stop());

  it('answers the fifth simultaneous request 429 rate_limited with Retry-After: 1', async () => {
    const { id, client } = await service.newAccount();
    gate = new Promise((resolve) => (release = resolve));
    const inFlight = [1, 2, 3, 4].map(() => getAccount({ client }));
    await settled(
      () => service.deps.limiter.state(id, clock()),
      (s) => s.inFlight === 4,
      { what: 'the four held requests to be admitted' },
    );
    const fifth = await getMarketCalendarDay({ client });
    expect(fifth.response.status).toBe(429);
    expect(fifth.error?.error.code).toBe('rate_limited');
    expect(fifth.response.headers.get('retry-after')).toBe('1');
    expect(fifth.error?.error.retry_after_ms).toBe(1000);
    release();
    const done = await Promise.all(inFlight);
    expect(done.map((d) => d.response.status)).toEqual([200, 200, 200, 200]);
    expect((await getMarketCalendarDay({ client })).response.status).toBe(200);
  });

  it('limits the rolling second (burst_limited) and does not let rejected requests consume the window', async () => {
    const { client } = await service.newAccount();
    const statuses: number[] = [];
    let lastRemaining = '';
    for (let i = 0; i < 10; i += 1) {
      const r = await getMarketCalendarDay({ client, query: { date: '2024-07-03' } });
      statuses.push(r.response.status);
      if (r.response.status === 200) lastRemaining = r.response.headers.get('x-ratelimit-remaining') ?? '';
      if (r.response.status === 429) {
        expect(r.error?.error.code).toBe('burst_limited');
        expect(Number(r.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(r.error?.error.retry_after_ms).toBeGreaterThan(0);
        // The rejection spent nothing: the minute window still shows 20 - 8 remaining.
        expect(r.response.headers.get('x-ratelimit-remaining')).toBe('12');
        expect(r.response.headers.get('x-ratelimit-burst-remaining')).toBe('0');
      }
    }
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses.slice(8)).toEqual([429, 429]);
    expect(lastRemaining).toBe('12');
  });

  it('limits the rolling minute (rate_limited) with X-RateLimit-Reset when one more is allowed', async () => {
    const { client } = await service.newAccount();
    const started = clock();
    let response: Response | null = null;
    let code: string | undefined;
    for (let i = 0; i < 21; i += 1) {
      // Eight fill the rolling second; the next eight come once it has passed.
      if (i > 0 && i % 8 === 0) advance(1000);
      const r = await getMarketCalendarDay({ client });
      response = r.response;
      code = r.error?.error.code;
    }
    expect(response?.status).toBe(429);
    expect(code).toBe('rate_limited');
    const reset = Number(response?.headers.get('x-ratelimit-reset'));
    // One more is allowed when the first of the minute leaves it.
    expect(reset).toBe(started + 60_000);
    expect(Number(response?.headers.get('retry-after'))).toBeGreaterThan(50);
  });

  it('GET /v1/account/limits reports the windows without spending them', async () => {
    const { client } = await service.newAccount();
    await getMarketCalendarDay({ client });
    const first = await getAccountLimits({ client });
    const second = await getAccountLimits({ client });
    expect(first.data?.data.minute_window).toMatchObject({ limit: 20, remaining: 19 });
    expect(second.data?.data.minute_window.remaining).toBe(19);
    expect(second.response.headers.get('x-ratelimit-remaining')).toBe('19');
    expect(second.data?.data.in_flight).toEqual({ limit: 4, current: 1 });
    expect(second.data?.data.limits.requests_per_second).toBe(8);
  });

  it('cools an account down when it keeps sending after 429s', async () => {
    const { client } = await service.newAccount();
    const codes: string[] = [];
    for (let i = 0; i < 25; i += 1) {
      const r = await getMarketCalendarDay({ client });
      if (r.error) codes.push(r.error.error.code);
    }
    expect(codes).toContain('burst_limited');
    expect(codes.at(-1)).toBe('cooldown');
    // Past the rolling second, so only the cooldown can refuse.
    advance(1000);
    const later = await getMarketCalendarDay({ client });
    expect(later.response.status).toBe(429);
    expect(later.error?.error.code).toBe('cooldown');
    expect(Number(later.response.headers.get('retry-after'))).toBeGreaterThan(20);
  });

  it('keeps bad-credential requests and the routes that need no key on budgets of their own per client network', async () => {
    // A key the service has read is never on the keyless budget.
    const { client } = await service.newAccount();
    expect((await getMarketCalendarDay({ client })).response.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i += 1) statuses.push((await getAccount({ client: service.client('bad') })).response.status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    const limited = await getAccount({ client: service.client('bad') });
    expect(limited.error?.error.code).toBe('rate_limited');
    expect(limited.response.headers.get('retry-after')).toMatch(/^\d+$/);
    // The routes that need no key answer on a budget of their own.
    const publicStatuses: number[] = [];
    for (let i = 0; i < 7; i += 1) publicStatuses.push((await getStatus({ client: service.client() })).response.status);
    expect(publicStatuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    expect((await getMarketCalendarDay({ client })).response.status).toBe(200);
  });
});
