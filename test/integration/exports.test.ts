import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getAccountLimits, getExport } from '../../generated/client/index.js';
import { insertExportWithinLimit } from '../../src/db/exports.js';
import { newId } from '../../src/ids.js';
import { exportJob } from '../../src/jobs/export.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

describe('exports', () => {
  let service: TestService;
  let account: Awaited<ReturnType<TestService['newAccount']>>;
  beforeAll(async () => {
    service = await startTestService({ jobs: true, env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' } });
    account = await service.newAccount();
  });
  afterAll(async () => service.stop());

  /** The export once its job has finished (the worker runs it through pg-boss). */
  async function settledExport(id: string) {
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 20_000 });
    return (await getExport({ client: account.client, path: { id } })).data?.data;
  }

  it('runs an export of a paginated route through the worker and serves the file', async () => {
    const created = await createExport({
      client: account.client,
      body: { path: '/v1/stocks/splits', query: { limit: 12, end_execution_date: '2024-12-31' } },
    });
    expect(created.response.status).toBe(202);
    const job = created.data?.data;
    expect(job).toMatchObject({
      path: '/v1/stocks/splits',
      query: { limit: '12', end_execution_date: '2024-12-31' },
      status: 'queued',
      revision: 1,
    });
    expect(created.data?.meta).toEqual({ request_id: created.response.headers.get('x-request-id') });

    const ready = await settledExport(job?.id ?? '');
    expect(ready).toMatchObject({ status: 'ready', rows: 12, truncated: true, download_url: `/v1/exports/${job?.id}/download` });
    expect(ready?.revision).toBeGreaterThan(1);
    expect(ready?.pages).toBe(1);

    const file = await downloadExport({ client: account.client, path: { id: job?.id ?? '' }, parseAs: 'text' });
    expect(file.response.status).toBe(200);
    expect(file.response.headers.get('content-disposition')).toBe(`attachment; filename="${job?.id}.json"`);
    const body = JSON.parse(file.data as unknown as string) as {
      data: { execution_date: string }[];
      meta: { export_id: string };
      pages: number;
      truncated: boolean;
    };
    expect(body.data).toHaveLength(12);
    expect(body.truncated).toBe(true);
    expect(body.meta.export_id).toBe(job?.id);
    expect(body.data.every((s) => s.execution_date <= '2024-12-31')).toBe(true);
    expect(Number(file.response.headers.get('content-length'))).toBe(ready?.bytes);

    const etag = file.response.headers.get('etag') ?? '';
    const again = await fetch(`${service.url}/v1/exports/${job?.id}/download`, {
      headers: { authorization: `Bearer ${account.key}`, 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it('follows every page of a paginated route when the row cap allows', async () => {
    const created = await createExport({ client: account.client, body: { path: '/v1/stocks/splits', query: { limit: 100000 } } });
    const ready = await settledExport(created.data?.data.id ?? '');
    expect(ready).toMatchObject({ status: 'ready', truncated: false });
    expect(ready?.rows).toBeGreaterThanOrEqual(50);
  });

  it('exports a route whose data is an object', async () => {
    const created = await createExport({ client: account.client, body: { path: '/v1/market/calendar', query: { date: '2026-11-27' } } });
    const ready = await settledExport(created.data?.data.id ?? '');
    expect(ready).toMatchObject({ status: 'ready', rows: 1, pages: 1, truncated: false });
    const file = await downloadExport({ client: account.client, path: { id: ready?.id ?? '' }, parseAs: 'text' });
    expect((JSON.parse(file.data as unknown as string) as { data: { status: string } }).data.status).toBe('early_close');
  });

  it('validates the query by the target route rules, naming each parameter', async () => {
    const r = await createExport({
      client: account.client,
      body: { path: '/v1/stocks/splits', query: { limit: 0, bogus: 'x', symbol: '1BAD' } },
    });
    expect(r.response.status).toBe(400);
    expect(new Set(r.error?.error.details.map((d) => d.parameter))).toEqual(new Set(['query.limit', 'query.bogus', 'query.symbol']));
    const cursor = await createExport({ client: account.client, body: { path: '/v1/stocks/splits', query: { cursor_id: 'abc' } } });
    expect(cursor.response.status).toBe(400);
    expect(cursor.error?.error.details[0]?.parameter).toBe('query.cursor_id');
    for (const path of ['/v1/account', '/v1/account/usage', '/v1/catalog', '/v1/status', '/v1/nope', '/v1/options/levels']) {
      const bad = await createExport({ client: account.client, body: { path } });
      expect(bad.response.status, path).toBe(400);
    }
    // An unknown path is named as unknown, not as a platform or account route (issue 33 §10).
    const unknown = await createExport({ client: account.client, body: { path: '/v1/nope' } });
    expect(unknown.error?.error.message).toBe('/v1/nope is not a route of the catalog.');
    expect(unknown.error?.error.details).toEqual([{ parameter: 'body.path', message: 'not a route of the catalog' }]);
    const platform = await createExport({ client: account.client, body: { path: '/v1/account/usage' } });
    expect(platform.error?.error.message).toMatch(/platform and account routes cannot be exported/);
    const tooMany = await createExport({
      client: account.client,
      body: { path: '/v1/stocks/splits', query: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`p${i}`, i])) },
    });
    expect(tooMany.response.status).toBe(400);
  });

  it('refuses exports of overnight data without the entitlement (403), as the routes do', async () => {
    const basic = await service.newAccount({ plan: 'basic', overnight: false });
    const asks: { path: string; query: Record<string, string | number> }[] = [
      { path: '/v1/options/trades', query: { underlying_symbol: 'SPXW', session: 'gth' } },
      { path: '/v1/options/trades', query: { underlying_symbol: 'SPXW', session: 'all' } },
      { path: '/v1/options/flow', query: { session: 'gth' } },
      { path: '/v1/options/flow/overnight', query: {} },
      { path: '/v1/options/flow/premium-drift', query: { underlying_symbol: 'SPX', session: 'gth' } },
      {
        path: '/v1/options/contract/implied-volatility',
        query: { underlying_symbol: 'SPXW', contract_type: 'call', strike: 6600, date_of_expiry: '2026-11-20', session: 'gth' },
      },
    ];
    for (const body of asks) {
      const r = await createExport({ client: basic.client, body });
      expect(r.response.status, `${body.path} ${JSON.stringify(body.query)}`).toBe(403);
      expect(r.error?.error.code).toBe('forbidden');
    }
    // The regular session stays exportable for the same account.
    const rth = await createExport({ client: basic.client, body: { path: '/v1/options/trades', query: { underlying_symbol: 'SPXW' } } });
    expect(rth.response.status).toBe(202);
  });

  it('fails an export whose route has no data, with the failure fields filled', async () => {
    const created = await createExport({ client: account.client, body: { path: '/v1/stocks/splits', query: { symbol: 'ZZZZ' } } });
    const failed = await settledExport(created.data?.data.id ?? '');
    expect(failed).toMatchObject({ status: 'failed', error_code: 'no_data' });
    expect(failed?.failure_reason).toMatch(/ZZZZ/);
    expect(failed?.failed_timestamp).toBeGreaterThan(0);
    const download = await downloadExport({ client: account.client, path: { id: failed?.id ?? '' } });
    expect(download.response.status).toBe(409);
    expect(download.error?.error.code).toBe('export_not_ready');
  });

  it('allows at most five queued or running exports per account (429 export_limit)', async () => {
    const busy = await service.newAccount();
    for (let i = 0; i < 5; i += 1) {
      await insertExportWithinLimit(
        service.database.admin,
        { id: newId('exp', 20), account_id: busy.id, operation_id: 'listStockSplits', path: '/v1/stocks/splits', query: {} },
        { activeLimit: 5, bytesLimit: Number.MAX_SAFE_INTEGER, now: new Date() },
      );
    }
    const limits = await getAccountLimits({ client: busy.client });
    expect(limits.data?.data.exports_active).toBe(5);
    const r = await createExport({ client: busy.client, body: { path: '/v1/stocks/splits' } });
    expect(r.response.status).toBe(429);
    expect(r.error?.error.code).toBe('export_limit');
    expect(r.response.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it("hides another account's export (404)", async () => {
    const created = await createExport({ client: account.client, body: { path: '/v1/market/calendar' } });
    const other = await service.newAccount();
    const r = await getExport({ client: other.client, path: { id: created.data?.data.id ?? '' } });
    expect(r.response.status).toBe(404);
    expect((await downloadExport({ client: other.client, path: { id: created.data?.data.id ?? '' } })).response.status).toBe(404);
  });
});
