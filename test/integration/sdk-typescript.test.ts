/**
 * The TypeScript SDK (sdk/typescript, `@oads/sdk`) as a user meets it, imported through its entry
 * point, against a started service with a small market loaded: a list filter sent as the contract
 * says and three pages walked by cursor (checked against the stored prints), a 429 retried after the
 * Retry-After it carried, an export run to its file (checked against the route's own pages), and a
 * 422 and 400s thrown as typed errors with the API's codes.
 *
 * The service's clock starts at the market's "now" and runs in real time, so the rate limiter's
 * windows pass as they would in production. Every request the SDK sends goes through a recording
 * fetch, so the test sees the URLs and the moments of each request and answer.
 */
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  Oads,
  OadsError,
  operationIds,
  retryAfterSeconds,
  type OadsErrorCode,
  type ParamsOf,
  type ClientLimits,
  type OptionPrint,
  type RetryEvent,
} from '../../sdk/typescript/src/index.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { ApiError } from '../../src/errors.js';
import { getMarketCalendarDay } from '../../src/handlers/market.js';
import type { Handler } from '../../src/handlers/types.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
/** The per-second limit of this file's deployment: small, so that a 429 is easy to provoke. */
const PER_SECOND = 3;
const ASK_SIDES = new Set(['at_ask', 'near_ask', 'above_ask']);

interface Exchange {
  url: URL;
  sentAt: number;
  answeredAt: number;
  status: number;
  retryAfter: string | null;
}

/** A fetch that passes every request on and records it. */
function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const sentAt = performance.now();
    const response = await fetch(request);
    log.push({
      url: new URL(request.url),
      sentAt,
      answeredAt: performance.now(),
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
    });
    return response;
  };
}

const sequenceOf = (r: OptionPrint): number => Number(r.id.split(':').at(-1));
const newestFirst = (a: OptionPrint, b: OptionPrint): number => b.timestamp - a.timestamp || sequenceOf(b) - sequenceOf(a);

describe('the TypeScript SDK against the live service', () => {
  let service: TestService;
  let stored: OptionPrint[];
  const offset = Date.now() - MARKET_NOW;
  /** The calendar route answers this many 503 upstream_busy (through the service's own error mapping) before its real answers. */
  let busyAnswers = 0;
  const busyCalendar: Handler<'getMarketCalendarDay'> = async (ctx) => {
    if (busyAnswers > 0) {
      busyAnswers -= 1;
      throw new ApiError(503, 'upstream_busy', 'Work capacity is full; retry shortly.', [], 400);
    }
    return getMarketCalendarDay(ctx);
  };

  /**
   * An SDK client as a new account, with its exchanges recorded. Its client-side limiter is off
   * unless asked for: these tests provoke the service's own 429s and count every request sent.
   */
  async function newUser(
    options: { onRetry?: (event: RetryEvent) => void; limits?: ClientLimits | false } = {},
  ): Promise<{ oads: Oads; log: Exchange[] }> {
    const { key } = await service.newAccount({ plan: 'pro' });
    const log: Exchange[] = [];
    const limits = options.limits ?? false;
    return { oads: new Oads({ apiKey: key, baseUrl: service.url, fetch: recordingFetch(log), onRetry: options.onRetry, limits }), log };
  }

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      jobs: true,
      clock: () => Date.now() - offset,
      limits: { requestsPerSecond: PER_SECOND },
      handlers: { getMarketCalendarDay: busyCalendar },
    });
    stored = (await printBodies(service.database.admin, DAY)).map((b) => JSON.parse(b) as OptionPrint);
  });
  afterAll(async () => service.stop());

  it('has one method per operationId of the contract', () => {
    const contract = YAML.parse(fs.readFileSync(new URL('../../openapi/v1.yaml', import.meta.url), 'utf8')) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const contractIds = Object.values(contract.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (typeof op === 'object' && op.operationId ? [op.operationId] : [])),
    );
    expect(new Set(operationIds)).toEqual(new Set(contractIds));
    const oads = new Oads({ baseUrl: service.url });
    for (const id of contractIds) expect(typeof (oads as unknown as Record<string, unknown>)[id], id).toBe('function');
  });

  it('walks three pages of trades by cursor with a list filter, each print matching it, none repeated', async () => {
    const { oads, log } = await newUser();
    const expected = stored.filter((p) => p.underlying_symbol === 'SPY' && p.session !== 'gth' && ASK_SIDES.has(p.side)).sort(newestFirst);
    expect(expected.length).toBeGreaterThan(30);
    // A page size that makes the walk exactly three pages long, the last one short or full.
    const limit = Math.ceil(expected.length / 3);
    expect(limit).toBeLessThanOrEqual(500);

    const pages = [];
    for await (const page of oads.pages('listOptionTrades', { underlying_symbol: 'SPY', date: DAY, side: ['ask', 'above_ask'], limit }))
      pages.push(page);

    expect(pages).toHaveLength(3);
    const rows = pages.flatMap((p) => p.data);
    expect(rows.every((p) => p.underlying_symbol === 'SPY' && ASK_SIDES.has(p.side))).toBe(true);
    expect(new Set(rows.map((p) => p.id)).size).toBe(rows.length);
    expect(rows.map((p) => p.id)).toEqual(expected.map((p) => p.id));
    expect(pages.map((p) => p.pagination.next_cursor_id === null)).toEqual([false, false, true]);

    // The list went out once, comma-joined (explode: false), and each later page carried the cursor before it.
    const sent = log.filter((x) => x.url.pathname === '/v1/options/trades');
    expect(sent).toHaveLength(3);
    for (const [i, x] of sent.entries()) {
      expect(x.url.searchParams.getAll('side')).toEqual(['ask,above_ask']);
      expect(x.url.searchParams.get('cursor_id')).toBe(i === 0 ? null : pages[i - 1]!.pagination.next_cursor_id);
    }
  });

  it('retries a 429 after the Retry-After it carried, and the call succeeds', async () => {
    const retries: RetryEvent[] = [];
    const { oads, log } = await newUser({ onRetry: (event) => retries.push(event) });
    // One call more than the rolling second allows, at once (on a route that counts: /v1/account/limits is quota-free).
    const accounts = await Promise.all(Array.from({ length: PER_SECOND + 1 }, () => oads.getAccount()));
    expect(accounts.map((a) => a.data.plan)).toEqual(Array(PER_SECOND + 1).fill('pro'));

    const refused = log.filter((x) => x.status === 429);
    expect(refused).toHaveLength(1);
    const waitMs = retryAfterSeconds(refused[0]!.retryAfter)! * 1000;
    expect(waitMs).toBeGreaterThanOrEqual(1000);
    expect(retries).toEqual([
      { operation: 'getAccount', attempt: 1, status: 429, code: 'burst_limited', retryAfter: waitMs / 1000, delayMs: waitMs },
    ]);
    // The retry went out no sooner than Retry-After after the 429 arrived (timers may fire a hair early), and succeeded.
    const retried = log.filter((x) => x.sentAt >= refused[0]!.answeredAt);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.sentAt - refused[0]!.answeredAt).toBeGreaterThanOrEqual(waitMs - 5);
    expect(retried[0]!.url.pathname).toBe('/v1/account');
    expect(retried[0]!.status).toBe(200);
    expect(log).toHaveLength(PER_SECOND + 2);
  });

  it("keeps a Promise.all within the account's limits by itself: the limits read once, no 429, never more in flight than allowed", async () => {
    const retries: RetryEvent[] = [];
    const { oads, log } = await newUser({ onRetry: (event) => retries.push(event), limits: {} });
    const calls = 2 * PER_SECOND + 1;
    const accounts = await Promise.all(Array.from({ length: calls }, () => oads.getAccount()));
    expect(accounts.map((a) => a.data.plan)).toEqual(Array(calls).fill('pro'));
    expect(retries).toEqual([]);
    expect(log.filter((x) => x.status !== 200)).toEqual([]);
    expect(log.map((x) => x.url.pathname)).toEqual(['/v1/account/limits', ...Array<string>(calls).fill('/v1/account')]);
    expect(await oads.clientLimits()).toEqual({ inFlight: 4, perSecond: PER_SECOND, perMinute: 250 });
    // At most PER_SECOND starts within any second, so the last wave waited about two seconds.
    const starts = log.slice(1).map((x) => x.sentAt);
    for (const [i, t] of starts.entries()) {
      if (i >= PER_SECOND) expect(t - starts[i - PER_SECOND]!).toBeGreaterThanOrEqual(1000);
    }
    // And never more than the in-flight limit at once (an answer's moment is recorded before the next start it frees).
    const limited = new Oads({ apiKey: (await service.newAccount()).key, baseUrl: service.url, limits: { inFlight: 2, perSecond: null } });
    let open = 0;
    let most = 0;
    const counting: typeof fetch = async (input, init) => {
      open += 1;
      most = Math.max(most, open);
      try {
        return await fetch(input, init);
      } finally {
        open -= 1;
      }
    };
    const watched = new Oads({
      apiKey: (await service.newAccount()).key,
      baseUrl: service.url,
      fetch: counting,
      limits: { inFlight: 2, perSecond: null, perMinute: null },
    });
    await Promise.all(Array.from({ length: 8 }, () => watched.getAccountLimits()));
    expect(most).toBe(2);
    expect(await limited.clientLimits()).toEqual({ inFlight: 2, perSecond: null, perMinute: 250 });
  });

  it('throws the 429 when retrying is off, with its code and Retry-After', async () => {
    const { key } = await service.newAccount();
    const oads = new Oads({ apiKey: key, baseUrl: service.url, retry: { maxAttempts: 1 }, limits: false });
    const settled = await Promise.allSettled(Array.from({ length: PER_SECOND + 1 }, () => oads.getAccount()));
    const errors = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(OadsError);
    expect(errors[0]).toMatchObject({ status: 429, code: 'burst_limited' });
    expect((errors[0] as OadsError).retryAfter).toBeGreaterThanOrEqual(1);
  });

  it("retries a 503 after its Retry-After (whole seconds, over the body's retry_after_ms)", async () => {
    const retries: RetryEvent[] = [];
    const { oads, log } = await newUser({ onRetry: (event) => retries.push(event) });
    busyAnswers = 1;
    const day = await oads.getMarketCalendarDay({ date: '2026-11-27' });
    expect(day.data.status).toBe('early_close');
    expect(log.map((x) => [x.status, x.retryAfter])).toEqual([
      [503, '1'],
      [200, null],
    ]);
    expect(retries).toMatchObject([
      { operation: 'getMarketCalendarDay', status: 503, code: 'upstream_busy', retryAfter: 1, delayMs: 1000 },
    ]);
    expect(log[1]!.sentAt - log[0]!.answeredAt).toBeGreaterThanOrEqual(995);
  });

  it('retries a GET that got no answer (connection refused) with backoff, but not a POST', async () => {
    const { key } = await service.newAccount({ plan: 'pro' });
    // The first `refused` requests go to a port nothing listens on: fetch's own connection error.
    let refused = 2;
    const sent: string[] = [];
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      if (refused-- > 0) return fetch(new Request(request.url.replace(new URL(service.url).origin, 'http://127.0.0.1:9'), request));
      return fetch(request);
    };
    const retries: RetryEvent[] = [];
    const oads = new Oads({
      apiKey: key,
      baseUrl: service.url,
      fetch: flaky,
      retry: { baseDelayMs: 20 },
      onRetry: (e) => retries.push(e),
      limits: false,
    });
    const day = await oads.getMarketCalendarDay({ date: '2026-11-27' });
    expect(day.data.status).toBe('early_close');
    expect(sent).toEqual(Array(3).fill('GET /v1/market/calendar'));
    expect(retries.map((e) => [e.attempt, e.status, e.code])).toEqual([
      [1, null, 'connection_error'],
      [2, null, 'connection_error'],
    ]);
    expect(retries.every((e) => e.delayMs >= 0 && e.delayMs <= 20 * 2 ** (e.attempt - 1))).toBe(true);

    // A POST may have reached the service before the connection dropped: it is not sent again.
    refused = 1;
    sent.length = 0;
    await expect(oads.createExport({ path: '/v1/options/trades', query: { underlying_symbol: 'SPY', date: DAY } })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(sent).toEqual(['POST /v1/exports']);
    // Retrying has its bound: after maxAttempts the connection error is thrown.
    refused = 10;
    sent.length = 0;
    await expect(oads.getMarketCalendarDay({ date: '2026-11-27' })).rejects.toBeInstanceOf(TypeError);
    expect(sent).toHaveLength(4);
  });

  it('runs an export to ready and downloads the file the route itself would answer', async () => {
    const { oads, log } = await newUser();
    const query = {
      underlying_symbol: 'SPY',
      date: DAY,
      side: ['ask', 'above_ask'],
      contract_type: 'put',
    } satisfies ParamsOf<'listOptionTrades'>;
    const result = await oads.runExport({ path: '/v1/options/trades', query: { ...query, limit: 100_000 } }, { pollIntervalMs: 500 });

    expect(result.job).toMatchObject({ status: 'ready', path: '/v1/options/trades', truncated: false });
    expect(log.filter((x) => x.url.pathname === `/v1/exports/${result.job.id}`).length).toBeGreaterThanOrEqual(1);
    const download = log.at(-1)!;
    expect(download.url.pathname).toBe(result.job.download_url);
    expect(new TextEncoder().encode(result.text).length).toBe(result.job.bytes);
    expect(result.etag).toMatch(/^"/);

    const routeRows = [];
    for await (const page of oads.pages('listOptionTrades', { ...query, limit: 500 })) routeRows.push(...page.data);
    expect(routeRows.length).toBeGreaterThan(0);
    expect(result.job.rows).toBe(routeRows.length);
    expect(result.file.truncated).toBe(false);
    expect(result.file.data).toEqual(routeRows);

    // A csv export gives the file's bytes: the gzip-compressed CSV, a header and a line per row.
    const csv = await oads.runExport(
      { path: '/v1/options/trades', query: { ...query, limit: 100_000 }, format: 'csv' },
      { pollIntervalMs: 500 },
    );
    expect(csv.job).toMatchObject({ status: 'ready', format: 'csv', rows: routeRows.length });
    expect(csv.bytes.length).toBe(csv.job.bytes);
    const lines = gunzipSync(csv.bytes).toString('utf8').split('\r\n');
    expect(lines[0]?.split(',')).toEqual(Object.keys(routeRows[0]!));
    expect(lines.filter((line) => line !== '')).toHaveLength(routeRows.length + 1);
  });

  it('throws a 422 and 400s as OadsError with the API codes and details', async () => {
    const { oads } = await newUser();
    const caught = async (call: Promise<unknown>): Promise<OadsError> => {
      const error = await call.then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(OadsError);
      return error as OadsError;
    };

    const noData = await caught(oads.listStockSplits({ symbol: 'ZZZZ' }));
    expect(noData).toMatchObject({ status: 422, code: 'no_data', details: [], retryAfter: null });
    expect(noData.message).toMatch(/ZZZZ/);
    expect(noData.requestId).toMatch(/^req_/);

    const badLimit = await caught(oads.listOptionTrades({ underlying_symbol: 'SPY', limit: 501, side: ['ask'] }));
    expect(badLimit).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(badLimit.details.map((d) => d.parameter)).toEqual(['limit']);

    const badCursor = await caught(oads.listOptionTrades({ underlying_symbol: 'SPY', cursor_id: 'not-a-cursor' }));
    expect(badCursor).toMatchObject({ status: 400, code: 'invalid_cursor' });

    // The code is the contract's union: a switch over it is checked for exhaustiveness.
    const kind = (code: OadsErrorCode): string => {
      switch (code) {
        case 'invalid_parameter':
        case 'invalid_cursor':
        case 'invalid_body':
          return 'fix the request';
        case 'no_data':
          return 'nothing there';
        case 'rate_limited':
        case 'burst_limited':
        case 'cooldown':
        case 'export_limit':
        case 'data_pending':
        case 'upstream_busy':
          return 'wait';
        case 'unauthorized':
        case 'forbidden':
        case 'account_suspended':
        case 'not_found':
        case 'method_not_allowed':
        case 'export_not_ready':
        case 'export_expired':
        case 'export_too_large':
        case 'internal_error':
        case 'upstream_timeout':
        case 'upgrade_required':
        case 'unexpected_response':
          return 'other';
      }
    };
    expect([noData, badLimit, badCursor].map((e) => kind(e.code))).toEqual(['nothing there', 'fix the request', 'fix the request']);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(retryAfterSeconds('2')).toBe(2);
    expect(retryAfterSeconds(null)).toBeNull();
    expect(retryAfterSeconds('soon')).toBeNull();
    expect(retryAfterSeconds('Fri, 20 Nov 2026 23:00:03 GMT', Date.parse('2026-11-20T23:00:00.500Z'))).toBe(3);
  });
});
