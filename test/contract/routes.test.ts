/**
 * The contract, route by route: every operation has a handler, and every route answers through the
 * generated client with a body the response validator accepted.
 */
import fs from 'node:fs';
import http from 'node:http';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../generated/client/index.js';
import { apiContractPath, loadApiContract, resolveRef } from '../../src/api-contract/openapi.js';
import { SERVED_SERVER, servedDocument } from '../../src/docs/enrich.js';
import { withSdkInstall } from '../../src/docs/sdk-install.js';
import { handlers } from '../../src/handlers/index.js';
import { exportJob } from '../../src/jobs/export.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const contract = loadApiContract();

/** Minutes of 2026-11-20 from 10:00 ET that the futures sample has bars of (the simulated market has SPX values then). */

describe('the contract and the handlers', () => {
  it('serves every operation of the contract, and nothing else', () => {
    const ids = contract.operations.map((o) => o.operationId);
    for (const id of ids) expect(typeof handlers[id], id).toBe('function');
    expect(Object.keys(handlers).sort()).toEqual([...ids].sort());
  });

  it('gives every operation its route facts as x- extensions', () => {
    for (const op of contract.operations) {
      expect(resolveRef(contract.document, { $ref: '#/components/schemas/RouteFamily' }).enum, op.operationId).toContain(op.facts.family);
      expect(['options', 'futures', 'equities', 'indices', 'none']).toContain(op.facts.dataset);
      expect(op.facts.paginated, op.operationId).toBe(op.parameters.some((p) => p.name === 'cursor_id'));
    }
  });
});

describe('every served route through the generated client', () => {
  let service: TestService;
  let client: Awaited<ReturnType<TestService['newAccount']>>['client'];
  let key: string;
  beforeAll(async () => {
    service = await startTestService({
      market: { dates: ['2026-11-19', '2026-11-20'] },
      jobs: true,
      env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' },
    });
    ({ client, key } = await service.newAccount({ plan: 'pro' }));
  });
  afterAll(async () => service.stop());

  it('answers each served route with its envelope', async () => {
    const quoted = await service.database.admin
      .selectFrom('quote_samples as q')
      .innerJoin('contracts as c', 'c.id', 'q.contract_id')
      .select(['c.root', 'c.date_of_expiry', 'c.contract_type', 'c.strike_thousandths'])
      .where('q.trading_date', '=', '2026-11-20')
      .where('c.root', '=', 'SPY')
      .orderBy('c.id')
      .limit(1)
      .executeTakeFirstOrThrow();
    const listed = {
      underlying_symbol: quoted.root,
      contract_type: quoted.contract_type,
      strike: quoted.strike_thousandths / 1000,
      date_of_expiry: quoted.date_of_expiry,
    };
    const calls: [string, () => Promise<{ response: Response; data?: unknown }>][] = [
      ['getStatus', () => sdk.getStatus({ client: service.client() })],
      ['getOpenApiDocument', () => sdk.getOpenApiDocument({ client: service.client() })],
      ['getAsyncApiDocument', () => sdk.getAsyncApiDocument({ client: service.client() })],
      ['listCatalog', () => sdk.listCatalog({ client, query: { family: 'options' } })],
      ['getAccount', () => sdk.getAccount({ client })],
      ['getAccountLimits', () => sdk.getAccountLimits({ client })],
      ['listAccountUsage', () => sdk.listAccountUsage({ client, query: { granularity: 'day', by_route: true } })],
      ['getMarketCalendarDay', () => sdk.getMarketCalendarDay({ client, query: { date: '2026-11-27' } })],
      ['listMarketSessions', () => sdk.listMarketSessions({ client, query: { date: '2026-11-27' } })],
      ['listFuturesProducts', () => sdk.listFuturesProducts({ client, query: { root: 'NQ' } })],
      ['listFuturesContracts', () => sdk.listFuturesContracts({ client, query: { as_of: '2026-11-20', include_expired: true } })],
      ['listFuturesBars', () => sdk.listFuturesBars({ client, query: { symbol: 'ES.c.0', date: '2026-11-20', interval: '1h' } })],
      [
        'listFuturesContinuous',
        () => sdk.listFuturesContinuous({ client, query: { symbol: 'ES.v.0', start_date: '2026-09-01', end_date: '2026-12-31' } }),
      ],
      ['listFuturesTrades', () => sdk.listFuturesTrades({ client, query: { root: 'ES', date: '2026-11-20' } })],
      ['listFuturesSettlements', () => sdk.listFuturesSettlements({ client, query: { root: 'ES', date: '2026-11-20' } })],
      ['getFuturesBasis', () => sdk.getFuturesBasis({ client, query: { symbol: 'ESZ6', at: Date.parse('2026-11-20T15:05:00Z') } })],
      ['listOptionOvernightSessions', () => sdk.listOptionOvernightSessions({ client })],
      ['listStockSplits', () => sdk.listStockSplits({ client, query: { limit: 5 } })],
      [
        'listOptionBars',
        () => sdk.listOptionBars({ client, query: { underlying_symbol: 'SPY', date: '2026-11-20', interval: '1h', limit: 5 } }),
      ],
      [
        'listOptionContracts',
        () => sdk.listOptionContracts({ client, query: { underlying_symbol: 'SPY', as_of: '2026-11-20', limit: 5 } }),
      ],
      [
        'getOptionChain',
        () =>
          sdk.getOptionChain({
            client,
            query: { underlying_symbol: 'SPY', at: Date.parse('2026-11-20T16:00:00Z'), moneyness: 'otm', limit: 5 },
          }),
      ],
      [
        'listOptionTrades',
        () => sdk.listOptionTrades({ client, query: { underlying_symbol: 'SPX', date: '2026-11-20', session: 'all', limit: 5 } }),
      ],
      ['listOptionFlow', () => sdk.listOptionFlow({ client, query: { date: '2026-11-20', exchange: ['cboe'], limit: 5 } })],
      ['listOvernightOptionFlow', () => sdk.listOvernightOptionFlow({ client, query: { date: '2026-11-20', limit: 5 } })],
      ['getPremiumDrift', () => sdk.getPremiumDrift({ client, query: { underlying_symbol: 'SPY', date: '2026-11-20', interval: '15m' } })],
      ['listFlowLeaders', () => sdk.listFlowLeaders({ client, query: { date: '2026-11-20', grain: 'contract', limit: 5 } })],
      [
        'getContractTradeAtTime',
        () => sdk.getContractTradeAtTime({ client, query: { ...listed, timestamp: Date.parse('2026-11-20T20:00:00Z') } }),
      ],
      [
        'listContractImpliedVolatility',
        () => sdk.listContractImpliedVolatility({ client, query: { ...listed, date: '2026-11-20', limit: 10 } }),
      ],
      ['getVolatilitySkew', () => sdk.getVolatilitySkew({ client, query: { underlying_symbol: 'SPX', date: '2026-11-20' } })],
      [
        'getIndexVolatility',
        () => sdk.getIndexVolatility({ client, query: { underlying_symbol: 'SPX', date: '2026-11-20', tenor: '9d' } }),
      ],
      [
        'listIndexVolatilityBars',
        () =>
          sdk.listIndexVolatilityBars({
            client,
            query: {
              underlying_symbol: 'SPX',
              interval: '5m',
              start_time: Date.parse('2026-11-20T15:00:00Z'),
              end_time: Date.parse('2026-11-20T15:15:00Z'),
            },
          }),
      ],
      ['listIndices', () => sdk.listIndices({ client })],
      ['listIndexBars', () => sdk.listIndexBars({ client, query: { symbol: 'SPX', date: '2026-11-20', interval: '1h' } })],
      [
        'getIndexSnapshot',
        () => sdk.getIndexSnapshot({ client, query: { symbols: ['SPX', 'NDX'], at: Date.parse('2026-11-20T18:00:00Z') } }),
      ],
      [
        'getVolatilityDrift',
        () => sdk.getVolatilityDrift({ client, query: { underlying_symbol: 'SPY', date: '2026-11-20', interval: '5m' } }),
      ],
      [
        'getExposureLevels',
        () =>
          sdk.getExposureLevels({ client, query: { underlying_symbol: 'SPX', date: '2026-11-20', include: ['vanna', 'charm', 'delta'] } }),
      ],
      [
        'getExposureHeatmap',
        () => sdk.getExposureHeatmap({ client, query: { underlying_symbol: 'SPX', date: '2026-11-20', metric: 'net_premium' } }),
      ],
      [
        'getOpenInterest',
        () => sdk.getOpenInterest({ client, query: { underlying_symbol: 'SPX', date: '2026-11-20', strikes_around: 10 } }),
      ],
    ];
    const created = await sdk.createExport({
      client,
      body: { path: '/v1/market/sessions', query: { date: '2026-11-27', asset: 'options' } },
    });
    expect(created.response.status).toBe(202);
    const id = created.data?.data.id ?? '';
    calls.push(['createExport', async () => created]);
    calls.push(['getExport', () => sdk.getExport({ client, path: { id } })]);
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 20_000 });
    calls.push(['downloadExport', () => sdk.downloadExport({ client, path: { id } })]);
    const served = contract.operations.map((o) => o.operationId);
    expect(calls.map(([id]) => id).sort()).toEqual([...served].sort());
    for (const [id, call] of calls) {
      const r = await call();
      expect(r.response.status, id).toBe(id === 'createExport' ? 202 : 200);
      expect(r.response.headers.get('content-type'), id).toMatch(/^application\/json/);
      expect(r.response.headers.get('x-request-id'), id).toMatch(/^req_/);
    }
  });

  it('accepts every list parameter in both forms, comma-separated and repeated, with the same answer', async () => {
    // A query each operation answers 200 to; underlying_symbols replaces underlying_symbol where both exist.
    const base: Record<string, Record<string, string>> = {
      listOptionTrades: { underlying_symbol: 'SPX', date: '2026-11-20', session: 'all', limit: '20' },
      listOptionFlow: { date: '2026-11-20', limit: '20' },
      listOvernightOptionFlow: { date: '2026-11-20', limit: '20' },
      listFlowLeaders: { date: '2026-11-20', grain: 'contract', limit: '20' },
      getPremiumDrift: { underlying_symbol: 'SPY', date: '2026-11-20', interval: '15m' },
      getVolatilitySkew: { underlying_symbol: 'SPX', date: '2026-11-20' },
      getOpenInterest: { underlying_symbol: 'SPX', date: '2026-11-20' },
      getExposureLevels: { underlying_symbol: 'SPX', date: '2026-11-20' },
      getExposureHeatmap: { underlying_symbol: 'SPX', date: '2026-11-20' },
      getIndexSnapshot: { at: String(Date.parse('2026-11-20T18:00:00Z')) },
    };
    const skewed = await sdk.getVolatilitySkew({ client, query: base.getVolatilitySkew as never });
    const expiries = (skewed.data?.data.expirations ?? []).map((e) => e.date_of_expiry);
    expect(expiries.length).toBeGreaterThanOrEqual(2);
    const checked: string[] = [];
    for (const operation of contract.operations) {
      for (const parameter of operation.parameters.filter((p) => p.in === 'query' && p.schema.type === 'array')) {
        const where = `${operation.operationId} ${parameter.name}`;
        const query = base[operation.operationId];
        expect(query, where).toBeDefined();
        const items = parameter.schema.items as { enum?: string[]; examples?: string[] };
        const example = ((parameter.schema.examples as string[][] | undefined) ?? [[]])[0] ?? [];
        const values =
          parameter.name === 'expirations'
            ? expiries.slice(0, 2)
            : example.length >= 2
              ? example.slice(0, 2)
              : (items.enum ?? []).slice(0, 2);
        expect(values, where).toHaveLength(2);
        const rest = new URLSearchParams(query);
        if (parameter.name === 'underlying_symbols') rest.delete('underlying_symbol');
        const comma = `${operation.path}?${rest.toString()}&${parameter.name}=${values.join(',')}`;
        const repeated = `${operation.path}?${rest.toString()}&${values.map((v) => `${parameter.name}=${v}`).join('&')}`;
        const answers = await Promise.all(
          [comma, repeated].map(async (url) => {
            const r = await fetch(`${service.url}${url}`, { headers: { authorization: `Bearer ${key}` } });
            const body = (await r.json()) as { data?: unknown; pagination?: { next_cursor_id?: string | null } };
            return { status: r.status, data: body.data, body };
          }),
        );
        expect(answers[0]?.status, `${where}: ${JSON.stringify(answers[0]?.body).slice(0, 300)}`).toBe(200);
        expect(answers[1]?.status, `${where}: ${JSON.stringify(answers[1]?.body).slice(0, 300)}`).toBe(200);
        expect(answers[1]?.data, where).toEqual(answers[0]?.data);
        checked.push(where);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(24);
    // A page of the repeated form goes on with its cursor in the same form: the cursor is bound to
    // the query, not to how the list was written.
    const first = await fetch(
      `${service.url}/v1/options/trades?underlying_symbol=SPX&date=2026-11-20&session=all&limit=2&side=ask&side=bid`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    const page = (await first.json()) as { pagination: { next_cursor_id: string; next_url: string } };
    expect(page.pagination.next_url).toContain('side=ask&side=bid');
    const joined = await fetch(
      `${service.url}/v1/options/trades?underlying_symbol=SPX&date=2026-11-20&session=all&limit=2&side=ask,bid&cursor_id=${page.pagination.next_cursor_id}`,
      { headers: { authorization: `Bearer ${key}` } },
    );
    expect(joined.status).toBe(200);
    expect((await fetch(`${service.url}${page.pagination.next_url}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });

  it('serves the contract at /v1/openapi.json with the examples and request samples of every operation', async () => {
    const served = await sdk.getOpenApiDocument({ client: service.client() });
    // Its server and samples name the origin it was requested at (the test service's).
    expect(served.data).toEqual(servedDocument(contract, undefined, service.url));
    expect((served.data as unknown as { servers: unknown }).servers).toEqual([{ url: service.url, description: SERVED_SERVER }]);
    const written = parse(fs.readFileSync(apiContractPath, 'utf8')) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const trades = (served.data as unknown as typeof written).paths['/v1/options/trades']?.get ?? {};
    expect(trades['x-codeSamples']).toHaveLength(3);
    expect(JSON.stringify(trades.responses)).toContain('"examples":{"default":{"summary"');
    // Everything else as written.
    const { 'x-codeSamples': _, responses: __, ...rest } = trades;
    const { responses: ___, ...writtenRest } = written.paths['/v1/options/trades']?.get ?? {};
    expect(rest).toEqual(writtenRest);
    expect({ ...(served.data as object), paths: null, servers: null, info: null }).toEqual({
      ...written,
      paths: null,
      servers: null,
      info: null,
    });
    // Its description gains the SDKs' install section (docs/sdk-install.ts), nothing else of its info changes.
    const info = (written as unknown as { info: { description: string; version: string } }).info;
    expect((served.data as unknown as { info: unknown }).info).toEqual({
      ...info,
      description: withSdkInstall(info.description, info.version),
    });
    // Every $ref of the served document resolves inside it, those of the response examples too: a
    // generator follows them all (scripts/check-generators runs the generators on this document).
    const unresolved: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      const ref = (node as { $ref?: unknown }).$ref;
      if (typeof ref === 'string') {
        const target = ref.startsWith('#/')
          ? ref
              .slice(2)
              .split('/')
              .reduce<unknown>(
                (at, key) => (at as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
                served.data,
              )
          : undefined;
        if (target === undefined) unresolved.push(`${where}: ${ref}`);
      }
      for (const [key, value] of Object.entries(node)) visit(value, `${where}/${key}`);
    };
    visit(served.data, '#');
    expect(unresolved).toEqual([]);
  });

  it('names the origin each request reached in the served contract and the AsyncAPI document', async () => {
    const get = async (path: string, headers: Record<string, string>): Promise<Record<string, unknown>> =>
      await new Promise((resolve, reject) => {
        const request = http.get(`${service.url}${path}`, { headers }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>));
        });
        request.on('error', reject);
      });
    const elsewhere = await get('/v1/openapi.json', { host: 'oads.example.test:9443' });
    expect(elsewhere.servers).toEqual([{ url: 'http://oads.example.test:9443', description: SERVED_SERVER }]);
    const trades = (elsewhere.paths as Record<string, Record<string, { 'x-codeSamples': { source: string }[] }>>)['/v1/options/trades'];
    for (const sample of trades?.get?.['x-codeSamples'] ?? []) {
      expect(sample.source).toContain('http://oads.example.test:9443');
      expect(sample.source).not.toContain('127.0.0.1');
    }
    // A Host that is no host[:port] writes nothing of itself into the document.
    const forged = await get('/v1/openapi.json', { host: 'evil"/><x' });
    expect(JSON.stringify(forged)).not.toContain('evil');
    // No proxy is trusted here (TRUST_PROXY unset): the forwarded headers are not read.
    const proxied = await get('/v1/asyncapi.json', { host: 'oads.example.test:9443', 'x-forwarded-proto': 'https' });
    expect((proxied.servers as Record<string, { host: string; protocol: string }>).service).toMatchObject({
      host: 'oads.example.test:9443',
      protocol: 'ws',
    });
  });

  it('lists every route in the catalog with its parameters', async () => {
    const r = await sdk.listCatalog({ client });
    const entries = r.data?.data ?? [];
    expect(entries.map((e) => e.id).sort()).toEqual(contract.operations.map((o) => o.operationId).sort());
    const trades = entries.find((e) => e.path === '/v1/options/trades');
    expect(trades?.params.map((p) => p.name)).toHaveLength(25);
    expect(trades?.params.find((p) => p.name === 'exchange')).toMatchObject({ type: 'list', item: 'enum', max_items: 17 });
  });

  it('filters the catalog by every family an entry has; futures lists its routes, indices its four routes', async () => {
    const entries = (await sdk.listCatalog({ client })).data?.data ?? [];
    const families = [...new Set(entries.map((e) => e.family))];
    expect(families).toEqual(expect.arrayContaining(['platform', 'exports']));
    for (const family of families) {
      const r = await sdk.listCatalog({ client, query: { family } });
      expect(r.response.status, family).toBe(200);
      expect(
        r.data?.data.map((e) => e.id),
        family,
      ).toEqual(entries.filter((e) => e.family === family).map((e) => e.id));
    }
    const futures = await sdk.listCatalog({ client, query: { family: 'futures' } });
    expect(futures.response.status).toBe(200);
    expect(futures.data?.data.map((e) => [e.id, e.dataset])).toEqual([
      ['listFuturesBars', 'futures'],
      ['getFuturesBasis', 'futures'],
      ['listFuturesContinuous', 'futures'],
      ['listFuturesContracts', 'futures'],
      ['listFuturesProducts', 'futures'],
      ['listFuturesSettlements', 'futures'],
      ['listFuturesTrades', 'futures'],
    ]);
    const indices = await sdk.listCatalog({ client, query: { family: 'indices' } });
    expect(indices.data?.data.map((e) => [e.id, e.dataset, e.paginated, e.streamable])).toEqual([
      ['listIndices', 'indices', false, false],
      ['listIndexBars', 'indices', true, true],
      ['getIndexSnapshot', 'indices', false, false],
      ['getIndexVolatility', 'indices', false, false],
      ['listIndexVolatilityBars', 'indices', true, false],
    ]);
    expect((await sdk.listCatalog({ client, query: { family: 'nope' as never } })).response.status).toBe(400);
  });
});
