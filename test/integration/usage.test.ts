import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMarketCalendarDay, listAccountUsage, listStockSplits } from '../../generated/client/index.js';
import { HOUR_MS } from '../../src/analytics/usage.js';
import { insertRequestLogBatch } from '../../src/db/request-log.js';
import { requestLogRetention } from '../../src/jobs/request-log-retention.js';
import { startTestService, type TestService } from '../support/service.js';

describe('request log and usage', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { LIMIT_PER_SECOND: '1000' } });
  });
  afterAll(async () => service.stop());

  it('records every request, rejected ones included, and reports them per hour and route', async () => {
    const { id, client } = await service.newAccount();
    const other = await service.newAccount();
    await getMarketCalendarDay({ client });
    await getMarketCalendarDay({ client, query: { date: '2024-12-24' } });
    await listStockSplits({ client, query: { limit: 0 } });
    await listStockSplits({ client, query: { symbol: 'ZZZZ' } });
    await getMarketCalendarDay({ client: other.client });

    const usage = await listAccountUsage({ client, query: { by_route: true } });
    expect(usage.response.status).toBe(200);
    expect(usage.data?.meta.coverage.durable).toBe(true);
    expect(usage.data?.meta.source).toBe('derived');
    const buckets = usage.data?.data ?? [];
    expect(buckets.length).toBeGreaterThanOrEqual(24);
    for (const b of buckets) {
      expect(b.start_time % HOUR_MS).toBe(0);
      expect(b.end_time - b.start_time).toBe(HOUR_MS);
    }
    const total = buckets.reduce((n, b) => n + b.requests, 0);
    expect(total).toBe(4); // the usage request itself is still in flight
    expect(buckets.reduce((n, b) => n + b.client_errors, 0)).toBe(2);
    const current = buckets.find((b) => b.requests > 0);
    expect(current?.routes?.[0]).toMatchObject({ route: '/v1/market/calendar', requests: 2 });
    expect(current?.routes?.[1]).toMatchObject({ route: '/v1/stocks/splits', requests: 2, client_errors: 2 });
    expect(buckets.filter((b) => b.requests === 0).every((b) => b.routes === undefined)).toBe(true);
    expect(current?.bytes_out).toBeGreaterThan(0);

    const rows = await service.database.admin
      .selectFrom('request_log')
      .select(['account_id', 'status'])
      .where('account_id', '=', id)
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(4);
  });

  it('buckets by UTC day over seven days by default, with empty days present', async () => {
    const { client } = await service.newAccount();
    const usage = await listAccountUsage({ client, query: { granularity: 'day' } });
    const buckets = usage.data?.data ?? [];
    expect(buckets.length).toBeGreaterThanOrEqual(7);
    expect(buckets.length).toBeLessThanOrEqual(8);
    for (const b of buckets) expect(b.start_time % 86_400_000).toBe(0);
  });

  it('rejects a range whose start is not before its end', async () => {
    const { client } = await service.newAccount();
    const now = Date.now();
    const r = await listAccountUsage({ client, query: { start_time: now, end_time: now - HOUR_MS } });
    expect(r.response.status).toBe(400);
    expect(r.error?.error.details[0]?.parameter).toBe('start_time');
  });

  it('counts 429s and prunes entries older than seven days', async () => {
    const { id, client } = await service.newAccount();
    const old = new Date(Date.now() - 8 * 86_400_000);
    await insertRequestLogBatch(service.database.admin, [
      {
        ts: old,
        request_id: 'req_old',
        account_id: id,
        key_id: null,
        network: null,
        method: 'GET',
        route: '/v1/catalog',
        status: 429,
        duration_ms: 1,
        bytes_out: 10,
      },
      {
        ts: new Date(Date.now() - 2 * HOUR_MS),
        request_id: 'req_recent',
        account_id: id,
        key_id: null,
        network: null,
        method: 'GET',
        route: '/v1/catalog',
        status: 429,
        duration_ms: 1,
        bytes_out: 10,
      },
    ]);
    const usage = await listAccountUsage({ client });
    expect(usage.data?.data.reduce((n, b) => n + b.rate_limited, 0)).toBe(1);
    await requestLogRetention.handler({ admin: service.database.admin, logger: service.deps.logger, clock: Date.now }, {});
    // The rows written here; the usage request's own row may be flushed meanwhile (REQUEST_LOG_FLUSH_MS).
    const left = await service.database.admin
      .selectFrom('request_log')
      .select('request_id')
      .where('account_id', '=', id)
      .where('request_id', 'in', ['req_old', 'req_recent'])
      .execute();
    expect(left.map((r) => r.request_id)).toEqual(['req_recent']);
  });
});
