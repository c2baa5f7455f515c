/**
 * `make examples`: the contract's response examples, captured from the service. Starts an embedded
 * PostgreSQL in a temporary folder, the service on it with response validation on, loads the tests'
 * small simulated market (test/support/simulated-market.ts, the week of 2026-11-16), calls every
 * operation once as the demo Pro account with representative parameters, and writes each success
 * body to openapi/examples/<operationId>.json (arrays cut to a few items; ids, cursors and request
 * ids as they came) and the requests to openapi/examples/requests.json. Run by hand when a
 * response's shape changes; `make test` checks the files against the contract (src/docs/).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createAccount, createKey } from '../src/accounts.js';
import { loadConfig } from '../src/config.js';
import { freePort, startEmbeddedPostgres } from '../src/db-server/embedded.js';
import { examplesDir, REQUESTS_FILE } from '../src/docs/enrich.js';
import { createLogger } from '../src/logging.js';
import { seedSplits } from '../src/seed.js';
import { startService } from '../src/server.js';
import { simulateAndLoad } from '../test/support/simulated-market.js';

/** Arrays longer than this are cut to ARRAY_KEEP items. */
const ARRAY_LIMIT = 4;
const ARRAY_KEEP = 3;
const DAY = '2026-11-20';

type Json = Record<string, unknown>;

/** Every array of the body cut to its first few items, at every depth. */
function trimmed(value: unknown): unknown {
  if (Array.isArray(value)) return (value.length > ARRAY_LIMIT ? value.slice(0, ARRAY_KEEP) : value).map(trimmed);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v)]));
  return value;
}

/**
 * The items that show most, where the first few would not: the last days of the usage (the first
 * are empty days before the account existed), the heat map's largest cells (its first are zeros).
 */
function telling(operationId: string, body: Json): Json {
  const data = body.data as Json;
  if (operationId === 'listAccountUsage') return { ...body, data: (body.data as unknown[]).slice(-ARRAY_KEEP) };
  if (operationId === 'getExposureHeatmap') {
    const cells = data.cells as { value: number }[];
    const largest = new Set([...cells].sort((a, b) => Math.abs(b.value) - Math.abs(a.value)).slice(0, ARRAY_KEEP));
    return { ...body, data: { ...data, cells: cells.filter((c) => largest.has(c)) } };
  }
  return body;
}

/**
 * The documents served bare, abridged to show their shape: the members their schema names, one
 * path (the status route's operation, its name and summary) or channel (without its messages), and
 * no long description. Nothing of them that is a `$ref`: inside the served OpenAPI document, a
 * generator would follow an example's `$ref` (an AsyncAPI document's `#/components/messages/...`
 * resolves nowhere there, and @hey-api/openapi-ts crashed on it).
 */
function abridgedDocument(document: Json): Json {
  const info = { ...(document.info as Json), description: '(abridged)' };
  if (document.openapi) {
    const status = ((document.paths as Json)['/v1/status'] as Json).get as Json;
    const operation = { operationId: status.operationId, tags: status.tags, summary: status.summary };
    return { openapi: document.openapi, info, paths: { '/v1/status': { get: operation } } };
  }
  const [name, channel] = Object.entries(document.channels as Json)[0] ?? [];
  const { messages: _messages, ...shown } = (channel ?? {}) as Json;
  return { asyncapi: document.asyncapi, info, channels: name === undefined ? {} : { [name]: shown } };
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-examples-'));
  fs.chmodSync(work, 0o755);
  const postgres = await startEmbeddedPostgres(path.join(work, 'pg'), await freePort());
  try {
    await capture(postgres.url, work);
  } finally {
    await postgres.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

async function capture(databaseUrl: string, work: string): Promise<void> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    LOG_LEVEL: 'silent',
    VALIDATE_RESPONSES: 'true',
    SEED_ON_START: 'false',
    DATA_DIR: path.join(work, 'data'),
    LIMIT_PER_SECOND: '1000',
    LIMIT_PER_MINUTE: '100000',
  });
  const service = await startService(config, { logger: createLogger('silent'), jobs: true });
  try {
    process.stdout.write('loading the simulated market...\n');
    await simulateAndLoad(service.database.admin, { dates: ['2026-11-19', DAY], history: true, record: true });
    await seedSplits(service.database.admin);
    const account = await createAccount(service.database.admin, { id: 'acct_demo', name: 'Demo (Pro)', plan: 'pro', overnight: true });
    const { key } = await createKey(service.database.admin, account, 'demo');

    const call = async (
      method: 'GET' | 'POST',
      route: string,
      query: Record<string, string | number | boolean | string[]> = {},
      body?: unknown,
    ): Promise<Json> => {
      const search = Object.entries(query)
        .map(([k, v]) => `${k}=${(Array.isArray(v) ? v : [v]).map((x) => encodeURIComponent(String(x))).join(',')}`)
        .join('&');
      const url = `${route}${search ? `?${search}` : ''}`;
      const r = await fetch(`${service.url}${url}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await r.text();
      if (r.status !== 200 && r.status !== 202) throw new Error(`${method} ${url}: ${r.status} ${text.slice(0, 500)}`);
      return { request: `${method} ${url}${body ? ` ${JSON.stringify(body)}` : ''}`, body: JSON.parse(text) as unknown };
    };

    const captured = new Map<string, Json>();
    const take = async (operationId: string, answer: Promise<Json>): Promise<Json> => {
      const got = await answer;
      captured.set(operationId, got);
      process.stdout.write(`${operationId}: ${String(got.request)}\n`);
      return got.body as Json;
    };

    const trades = await take(
      'listOptionTrades',
      call('GET', '/v1/options/trades', { underlying_symbol: 'SPY', date: DAY, side: ['ask', 'above_ask'], limit: 5 }),
    );
    const quoted = (trades.data as Json[]).find((p) => p.bid !== null && p.ask !== null) ?? (trades.data as Json[])[0];
    if (!quoted) throw new Error('no SPY print on the simulated market');
    const contract = {
      underlying_symbol: String(quoted.underlying_symbol),
      contract_type: String(quoted.contract_type),
      strike: Number(quoted.strike),
      date_of_expiry: String(quoted.date_of_expiry),
    };
    await take('listOptionFlow', call('GET', '/v1/options/flow', { date: DAY, min_premium: 10000, limit: 5 }));
    await take('listOvernightOptionFlow', call('GET', '/v1/options/flow/overnight', { date: DAY, limit: 5 }));
    await take('listFlowLeaders', call('GET', '/v1/options/flow/leaders', { date: DAY, grain: 'contract', limit: 5 }));
    await take('getPremiumDrift', call('GET', '/v1/options/flow/premium-drift', { underlying_symbol: 'SPY', date: DAY, interval: '15m' }));
    await take(
      'listContractImpliedVolatility',
      call('GET', '/v1/options/contract/implied-volatility', { ...contract, date: DAY, limit: 5 }),
    );
    const tradeAtTime = await take(
      'getContractTradeAtTime',
      call('GET', '/v1/options/contract/trade-at-time', { ...contract, timestamp: Number(quoted.timestamp) }),
    );
    const optionSymbol = String((tradeAtTime.data as Json).option_symbol).replace(/ +/, '');
    await take('listOptionBars', call('GET', '/v1/options/bars', { option_symbol: optionSymbol, date: DAY, interval: '1h', limit: 5 }));
    await take('getVolatilitySkew', call('GET', '/v1/options/volatility/skew', { underlying_symbol: 'SPX', date: DAY }));
    await take('getIndexVolatility', call('GET', '/v1/indices/volatility', { underlying_symbol: 'SPX', date: DAY }));
    await take(
      'listIndexVolatilityBars',
      call('GET', '/v1/indices/volatility/bars', {
        underlying_symbol: 'SPX',
        tenor: '30d',
        interval: '5m',
        start_time: Date.parse(`${DAY}T15:00:00Z`),
        end_time: Date.parse(`${DAY}T15:15:00Z`),
      }),
    );
    await take('listIndices', call('GET', '/v1/indices'));
    await take('listIndexBars', call('GET', '/v1/indices/bars', { symbol: 'SPX', date: DAY, interval: '1h', limit: 3 }));
    await take(
      'getIndexSnapshot',
      call('GET', '/v1/indices/snapshot', { symbols: ['SPX', 'NDX', 'RUT'], at: Date.parse(`${DAY}T20:00:00Z`) }),
    );
    await take('getVolatilityDrift', call('GET', '/v1/options/volatility/drift', { underlying_symbol: 'SPY', date: DAY, interval: '5m' }));
    await take('getOpenInterest', call('GET', '/v1/options/open-interest', { underlying_symbol: 'SPX', date: DAY, strikes_around: 5 }));
    await take('getExposureLevels', call('GET', '/v1/options/levels', { underlying_symbol: 'SPX', date: DAY }));
    await take('getExposureHeatmap', call('GET', '/v1/options/exposure/heatmap', { underlying_symbol: 'SPX', date: DAY }));
    await take('listOptionOvernightSessions', call('GET', '/v1/options/sessions', { date: DAY }));
    await take('listOptionContracts', call('GET', '/v1/options/contracts', { underlying_symbol: 'SPY', as_of: DAY, limit: 5 }));
    await take(
      'getOptionChain',
      call('GET', '/v1/options/chain', { underlying_symbol: 'SPY', at: Date.parse(`${DAY}T16:00:00Z`), moneyness: 'otm', limit: 3 }),
    );
    await take('listStockSplits', call('GET', '/v1/stocks/splits', { limit: 5 }));
    await take('listFuturesProducts', call('GET', '/v1/futures/products', { root: 'ES' }));
    await take('listFuturesContracts', call('GET', '/v1/futures/contracts', { root: 'ES', as_of: DAY }));
    await take('listFuturesBars', call('GET', '/v1/futures/bars', { symbol: 'ES.c.0', date: DAY, interval: '1h', limit: 3 }));
    await take(
      'listFuturesContinuous',
      call('GET', '/v1/futures/continuous', { symbol: 'ES.v.0', start_date: '2026-09-01', end_date: DAY }),
    );
    await take('listFuturesTrades', call('GET', '/v1/futures/trades', { symbol: 'ESZ26', date: DAY, min_notional: 1000000, limit: 5 }));
    await take('listFuturesSettlements', call('GET', '/v1/futures/settlements', { root: 'ES', date: DAY, limit: 2 }));
    await take(
      'getFuturesBasis',
      call('GET', '/v1/futures/basis', { root: 'ES', contracts: 'listed', at: Date.parse(`${DAY}T19:00:00Z`) }),
    );
    await take('listMarketSessions', call('GET', '/v1/market/sessions', { date: DAY }));
    await take('getMarketCalendarDay', call('GET', '/v1/market/calendar', { date: '2026-11-27' }));
    await take('listCatalog', call('GET', '/v1/catalog', { family: 'options' }));
    await take('getStatus', call('GET', '/v1/status'));
    await take('getOpenApiDocument', call('GET', '/v1/openapi.json'));
    await take('getAsyncApiDocument', call('GET', '/v1/asyncapi.json'));
    const job = await take(
      'createExport',
      call('POST', '/v1/exports', {}, { path: '/v1/options/trades', query: { underlying_symbol: 'SPY', date: DAY, limit: 5 } }),
    );
    const id = String((job.data as Json).id);
    // Polling, as a client does: the export runs on the service's own job workers.
    for (let i = 0; i < 600; i += 1) {
      const polled = await call('GET', `/v1/exports/${id}`);
      if (((polled.body as Json).data as Json).status === 'ready') break;
      if (((polled.body as Json).data as Json).status === 'failed') throw new Error(`export failed: ${JSON.stringify(polled.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await take('getExport', call('GET', `/v1/exports/${id}`));
    await take('downloadExport', call('GET', `/v1/exports/${id}/download`));
    // After the others, so that the usage and the limits show them.
    await take('getAccount', call('GET', '/v1/account'));
    await take('getAccountLimits', call('GET', '/v1/account/limits'));
    await new Promise((resolve) => setTimeout(resolve, 2 * config.requestLogFlushMs + 200));
    await take('listAccountUsage', call('GET', '/v1/account/usage', { granularity: 'day', by_route: true }));

    const missing = service.deps.apiContract.operations.map((o) => o.operationId).filter((op) => !captured.has(op));
    if (missing.length > 0) throw new Error(`no example captured for ${missing.join(', ')}`);
    fs.mkdirSync(examplesDir, { recursive: true });
    for (const file of fs.readdirSync(examplesDir)) if (file.endsWith('.json')) fs.rmSync(path.join(examplesDir, file));
    const requests: Record<string, string> = {};
    for (const [operationId, got] of [...captured].sort(([a], [b]) => a.localeCompare(b))) {
      const body = got.body as Json;
      const value =
        operationId === 'getOpenApiDocument' || operationId === 'getAsyncApiDocument'
          ? abridgedDocument(body)
          : trimmed(telling(operationId, body));
      fs.writeFileSync(path.join(examplesDir, `${operationId}.json`), `${JSON.stringify(value, null, 2)}\n`);
      requests[operationId] = String(got.request);
    }
    fs.writeFileSync(path.join(examplesDir, REQUESTS_FILE), `${JSON.stringify(requests, null, 2)}\n`);
    process.stdout.write(`wrote ${captured.size} examples to ${path.relative(process.cwd(), examplesDir)}\n`);
  } finally {
    await service.stop();
  }
}

await main();
