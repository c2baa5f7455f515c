import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, getAccount, getMarketCalendarDay, getStatus, listCatalog, listStockSplits } from '../../generated/client/index.js';
import type { Handler } from '../../src/handlers/types.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

describe('errors, validation and the route deadline', () => {
  let service: TestService;
  let key = '';
  const sleepy: Handler<'listCatalog'> = async ({ deps }) => {
    await sql`select pg_sleep(5)`.execute(deps.db);
    return { data: [] };
  };
  const broken: Handler<'getAccount'> = async () => {
    throw new Error('secret internal detail: relation "accounts" exploded at /srv/app.ts:12');
  };
  const offContract = (async () => ({ data: { status: 'sideways' } })) as unknown as Handler<'getStatus'>;

  beforeAll(async () => {
    service = await startTestService({
      limits: { endpointTimeoutMs: 400 },
      env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' },
      handlers: { listCatalog: sleepy, getAccount: broken, getStatus: offContract },
    });
    ({ key } = await service.newAccount());
  });
  afterAll(async () => service.stop());

  const raw = (path: string, init: RequestInit = {}) =>
    fetch(`${service.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) } });

  it('names every bad parameter in details', async () => {
    const r = await raw('/v1/stocks/splits?limit=0&symbol=TOOLONGSYMBOL&start_execution_date=2020-13-45&bogus=1');
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { code: string; details: { parameter: string }[] } };
    expect(body.error.code).toBe('invalid_parameter');
    expect(new Set(body.error.details.map((d) => d.parameter))).toEqual(new Set(['limit', 'symbol', 'start_execution_date', 'bogus']));
  });

  it('names `path` for a malformed percent-encoding in the URL path, not the path itself', async () => {
    const r = await raw('/v1/exports/%E0%A4%A');
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { code: string; details: { parameter: string; message: string }[] } };
    expect(body.error.code).toBe('invalid_parameter');
    expect(body.error.details).toEqual([{ parameter: 'path', message: 'malformed percent-encoding' }]);
  });

  it('rejects a repeated parameter that is not a list; a repeated list is one list', async () => {
    const r = await raw('/v1/options/trades?underlying_symbol=SPX&underlying_symbol=QQQ&side=ask&side=bid');
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { details: { parameter: string; message: string }[] } };
    expect(body.error.details).toEqual([{ parameter: 'underlying_symbol', message: 'given more than once' }]);
    // The repeated form's items are validated as the comma form's: count and values.
    const tooMany = await raw(`/v1/options/trades?underlying_symbol=SPX&${Array.from({ length: 11 }, () => 'side=ask').join('&')}`);
    expect(tooMany.status).toBe(400);
    const badItem = await raw('/v1/options/trades?underlying_symbol=SPX&exchange=cboe&exchange=nyse');
    expect(badItem.status).toBe(400);
    const bad = (await badItem.json()) as { error: { details: { parameter: string }[] } };
    expect(bad.error.details.map((d) => d.parameter)).toEqual(['exchange']);
  });

  it('validates list items and their count', async () => {
    const r = await raw(
      `/v1/options/trades?underlying_symbol=SPX&exchange=cboe,nyse&sentiment=${['bullish', 'bearish', 'neutral', 'unknown', 'bullish'].join(',')}`,
    );
    expect(r.status).toBe(400);
    const body = (await r.json()) as { error: { details: { parameter: string }[] } };
    expect(new Set(body.error.details.map((d) => d.parameter))).toEqual(new Set(['exchange', 'sentiment']));
  });

  it('answers 400 for bad JSON, a wrong content type and an invalid body on POST', async () => {
    const badJson = await raw('/v1/exports', { method: 'POST', body: '{"path":', headers: { 'content-type': 'application/json' } });
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { error: { code: string } }).error.code).toBe('invalid_body');
    const wrongType = await raw('/v1/exports', {
      method: 'POST',
      body: 'path=/v1/stocks/splits',
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(400);
    const invalid = await createExport({ client: service.client(key), body: { path: 'not-a-path' } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.error.details[0]?.parameter).toBe('body.path');
  });

  it('answers 404 for an unknown route and 405 for a known route with another method', async () => {
    const r = await raw('/v1/nope');
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('not_found');
    const outside = await raw('/nope');
    expect(outside.status).toBe(404);
    expect(outside.headers.get('x-request-id')).toMatch(/^req_/);
    const wrongMethod = await raw('/v1/stocks/splits', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(405);
    expect(((await wrongMethod.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });

  it('turns an unhandled error into a plain 500 that leaks nothing, logged with the request id', async () => {
    const r = await getAccount({ client: service.client(key) });
    expect(r.response.status).toBe(500);
    const text = JSON.stringify(r.error);
    expect(r.error?.error.code).toBe('internal_error');
    expect(text).not.toMatch(/secret|exploded|srv|stack|relation/);
    const requestId = r.response.headers.get('x-request-id') ?? '';
    expect(service.errors.some((line) => line.includes(requestId) && line.includes('exploded'))).toBe(true);
  });

  it('fails a handler that returns off-contract data (response validation on)', async () => {
    const r = await getStatus({ client: service.client() });
    expect(r.response.status).toBe(500);
  });

  it('answers 504 upstream_timeout past the deadline and cancels the database statement', async () => {
    const started = Date.now();
    const r = await listCatalog({ client: service.client(key) });
    expect(r.response.status).toBe(504);
    expect(r.error?.error.code).toBe('upstream_timeout');
    expect(Date.now() - started).toBeLessThan(3000);
    // The statement time-out cancels the sleep well before its 5 seconds: gone within the 3 s the
    // 504 is allowed, counted from the request.
    const running = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_stat_activity where query like '%pg_sleep(5)%' and state = 'active' and pid <> pg_backend_pid()`.execute(
          service.database.admin,
        )
      ).rows[0]?.n;
    expect(
      await settled(running, (n) => n === 0, {
        what: 'the cancelled pg_sleep(5) statement to leave pg_stat_activity',
        timeoutMs: started + 3000 - Date.now(),
      }),
    ).toBe(0);
  });

  it('puts a request id on every response, matching meta.request_id', async () => {
    const r = await getMarketCalendarDay({ client: service.client(key), query: { date: '2025-01-09' } });
    expect(r.data?.meta.request_id).toBe(r.response.headers.get('x-request-id'));
    expect(r.data?.data).toMatchObject({ status: 'closed', open_timestamp: null });
    expect(r.data?.meta).toMatchObject({ delayed: false, delay_ms: 0, coverage: { complete: true } });
    const bad = await listStockSplits({ client: service.client(key), query: { limit: 1000 } });
    expect(bad.response.headers.get('x-request-id')).toMatch(/^req_[0-9A-Z]{26}$/);
  });
});
