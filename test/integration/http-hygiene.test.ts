/**
 * HTTP hygiene and operations, on one service over the ingest fixture's prints: Allow on 405, HEAD
 * on the GET routes, WWW-Authenticate on 401, compression of bodies from the threshold on only (set
 * low here, 2 KiB, so that a page of the fixture's ten prints is above it and a page of one below),
 * and the Prometheus metrics (their text parsed, counters read before and after requests).
 */
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport } from '../../generated/client/index.js';
import { loadConfig } from '../../src/config.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

/** The fixture's prints: ten SPXW prints of this day. */
const DAY = '2026-11-20';
const PRINTS = path.resolve(import.meta.dirname, '../fixtures/ingest/prints.csv');
const THRESHOLD = 2048;

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The bytes as sent (compressed when Content-Encoding says so). */
  body: Buffer;
}

/** A request whose response is read as sent: no decompression, HEAD and any method allowed. */
function raw(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A body decoded by its Content-Encoding. */
function decoded(response: RawResponse): string {
  switch (response.headers['content-encoding']) {
    case 'gzip':
      return zlib.gunzipSync(response.body).toString('utf8');
    case 'br':
      return zlib.brotliDecompressSync(response.body).toString('utf8');
    case undefined:
      return response.body.toString('utf8');
    default:
      throw new Error(`unexpected content encoding ${response.headers['content-encoding']}`);
  }
}

/** Headers that differ between two requests of the same thing. */
const PER_REQUEST = new Set([
  'date',
  'x-request-id',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-burst-remaining',
  'connection',
  'keep-alive',
]);
/** Framing: a HEAD has no body to frame (RFC 9110 §9.3.2 lets it omit what only the content determines). */
const FRAMING = new Set(['transfer-encoding']);
const stable = (headers: http.IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.has(name) && !FRAMING.has(name)));

/** The samples of a Prometheus text exposition: `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    found.set(match[1] as string, Number(match[2]));
  }
  return found;
}

describe('HTTP hygiene and metrics', () => {
  let service: TestService;
  let key: string;
  let printsLoaded: number;
  const authorized = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
  const metrics = async () => {
    const r = await raw(service.metricsUrl ?? '');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return samples(r.body.toString('utf8'));
  };

  beforeAll(async () => {
    service = await startTestService({
      jobs: true,
      clock: () => MARKET_NOW,
      env: { METRICS_PORT: '0', LIMIT_PER_MINUTE: '20', COMPRESSION_THRESHOLD: String(THRESHOLD) },
    });
    ({ key } = await service.newAccount());
    printsLoaded = (await loadMarketFile(service.database.admin, 'prints', PRINTS)).loaded;
  });
  afterAll(async () => service.stop());

  it("answers 405 with the route's methods in Allow", async () => {
    const onGet = await raw(`${service.url}/v1/stocks/splits`, { method: 'DELETE', headers: authorized() });
    expect(onGet.status).toBe(405);
    expect(onGet.headers.allow).toBe('GET, HEAD');
    expect((JSON.parse(onGet.body.toString()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
    const onPost = await raw(`${service.url}/v1/exports`, { method: 'GET', headers: authorized() });
    expect(onPost.status).toBe(405);
    expect(onPost.headers.allow).toBe('POST');
    // HEAD is GET without the body: on a POST-only route it is not allowed either.
    const headOnPost = await raw(`${service.url}/v1/exports`, { method: 'HEAD', headers: authorized() });
    expect(headOnPost.status).toBe(405);
    expect(headOnPost.headers.allow).toBe('POST');
    const unknown = await raw(`${service.url}/v1/nope`, { method: 'DELETE', headers: authorized() });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it("answers HEAD on a GET route with the GET's status and headers and no body", async () => {
    for (const [path, headers] of [
      ['/v1/market/calendar', authorized()],
      [`/v1/options/trades?underlying_symbol=SPXW&date=${DAY}&limit=2`, authorized()],
      ['/v1/options/trades?underlying_symbol=SPXW&limit=0', authorized()],
      ['/v1/openapi.json', { 'accept-encoding': 'gzip' }],
    ] as const) {
      const get = await raw(`${service.url}${path}`, { headers });
      const head = await raw(`${service.url}${path}`, { method: 'HEAD', headers });
      expect(get.status, path).toBeLessThan(500);
      expect(head.status, path).toBe(get.status);
      expect(head.body.length, path).toBe(0);
      expect(stable(head.headers), path).toEqual(stable(get.headers));
    }
  });

  it('challenges a request without a valid key with WWW-Authenticate (RFC 6750)', async () => {
    const missing = await raw(`${service.url}/v1/account`);
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="Options Analytics Data Service"');
    const invalid = await raw(`${service.url}/v1/account`, {
      headers: { authorization: 'Bearer oads_abcdefgh_0123456789abcdefABCDEF0123456789' },
    });
    expect(invalid.status).toBe(401);
    expect(invalid.headers['www-authenticate']).toMatch(
      /^Bearer realm="Options Analytics Data Service", error="invalid_token", error_description="[^"]+"$/,
    );
    const fine = await raw(`${service.url}/v1/account`, { headers: authorized() });
    expect(fine.status).toBe(200);
    expect(fine.headers['www-authenticate']).toBeUndefined();
  });

  it('compresses the contract and large JSON bodies, as the client accepts, and not small ones', async () => {
    const threshold = service.config.compressionThresholdBytes;
    expect(threshold).toBe(THRESHOLD);
    const contract = await raw(`${service.url}/v1/openapi.json`);
    expect(contract.headers['content-encoding']).toBeUndefined();
    expect(contract.body.length).toBeGreaterThan(threshold);
    // Compressed with the default threshold too.
    expect(contract.body.length).toBeGreaterThan(loadConfig({}).compressionThresholdBytes);
    const pageUrl = `${service.url}/v1/options/trades?underlying_symbol=SPXW&date=${DAY}&limit=500`;
    const page = await raw(pageUrl, { headers: authorized() });
    expect(page.status).toBe(200);
    expect(page.body.length).toBeGreaterThan(threshold);
    for (const [url, headers, identity] of [
      [`${service.url}/v1/openapi.json`, {}, contract],
      [pageUrl, authorized(), page],
    ] as const) {
      for (const encoding of ['gzip', 'br']) {
        const compressed = await raw(url, { headers: { ...headers, 'accept-encoding': encoding } });
        expect(compressed.headers['content-encoding'], `${url} ${encoding}`).toBe(encoding);
        expect(compressed.headers.vary).toMatch(/Accept-Encoding/);
        expect(compressed.body.length).toBeLessThan(identity.body.length / 3);
        // The same document (a page's meta has its own request id).
        const text = decoded(compressed);
        expect(url.includes('trades') ? (JSON.parse(text) as { data: unknown }).data : text).toEqual(
          url.includes('trades') ? (JSON.parse(identity.body.toString()) as { data: unknown }).data : identity.body.toString(),
        );
      }
    }
    const small = await raw(`${service.url}/v1/options/trades?underlying_symbol=SPXW&date=${DAY}&limit=1`, {
      headers: authorized({ 'accept-encoding': 'gzip, br' }),
    });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(threshold);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(Number(small.headers['content-length'])).toBe(small.body.length);
    const status = await raw(`${service.url}/v1/status`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(status.headers['content-encoding']).toBeUndefined();
  });

  it('counts requests, durations, limiter rejections, pools, queues, exports and ingest in /metrics', async () => {
    const before = await metrics();
    const okStatus = 'oads_http_requests_total{route="/v1/status",method="GET",status="200"}';
    const headStatus = 'oads_http_requests_total{route="/v1/status",method="HEAD",status="200"}';
    const durations = 'oads_http_request_duration_seconds_count{route="/v1/status",method="GET"}';
    for (let i = 0; i < 3; i++) await raw(`${service.url}/v1/status`);
    await raw(`${service.url}/v1/status`, { method: 'HEAD' });
    // A new account past its 20 a minute: the last three are refused (kind "minute").
    const burst = await service.newAccount();
    const statuses: number[] = [];
    for (let i = 0; i < 23; i++)
      statuses.push((await raw(`${service.url}/v1/account`, { headers: { authorization: `Bearer ${burst.key}` } })).status);
    const rejected = statuses.filter((s) => s === 429).length;
    expect(rejected).toBe(3);
    // An export runs in the job worker: its duration is observed.
    const created = await createExport({ client: service.client(key), body: { path: '/v1/stocks/splits', query: { limit: 5 } } });
    await settledJob(service.database.admin, exportJob.name, created.data?.data.id ?? '', { timeoutMs: 20_000 });

    const after = await metrics();
    const moved = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    expect(moved(okStatus)).toBe(3);
    expect(moved(headStatus)).toBe(1);
    expect(moved(durations)).toBe(3);
    expect(after.get('oads_http_request_duration_seconds_bucket{le="+Inf",route="/v1/status",method="GET"}')).toBe(after.get(durations));
    expect(moved('oads_http_requests_total{route="/v1/account",method="GET",status="429"}')).toBe(rejected);
    expect(moved('oads_limiter_rejections_total{kind="minute"}')).toBe(3);
    expect(after.get('oads_export_duration_seconds_count{outcome="ready"}')).toBe(1);
    // The fixture loaded before: its prints went through ingest in this process.
    expect(printsLoaded).toBeGreaterThan(0);
    expect(after.get('oads_ingest_rows_total{kind="prints"}')).toBe(printsLoaded);
    expect(after.get('oads_ingest_rows_per_second{kind="prints"}')).toBeGreaterThan(0);
    expect(after.get('oads_db_pool_connections_open{pool="api"}')).toBeGreaterThan(0);
    expect(after.get('oads_db_pool_connections_in_use{pool="api"}')).toBe(0);
    expect(after.get('oads_db_pool_waiting{pool="api"}')).toBe(0);
    expect(after.get('oads_job_queue_depth{queue="export"}')).toBe(0);
    expect(after.has('process_resident_memory_bytes')).toBe(true);
  });
});
