/**
 * MCP at /v1/mcp through the SDK's own client: the tools are the contract's x-mcp operations (and
 * the catalog's mcp flag says so), a tool answers what its REST route answers (pages, cursors,
 * errors, entitlements), every MCP request counts once against the limits and is logged once.
 * One service and one small loaded session for the file; each test its own account, so the small
 * per-minute limit of the service is each test's own.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccountLimits, getOpenApiDocument, listAccountUsage, listCatalog, listOptionTrades } from '../../generated/client/index.js';
import type { Client as RestClient } from '../../generated/client/client/index.js';
import { listMarketSessions } from '../../src/handlers/market.js';
import type { Handler } from '../../src/handlers/types.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

const DAY = '2026-11-20';
/** Per account and minute: enough for each test's calls, few enough to reach a 429 quickly. */
const PER_MINUTE = 16;

type Body = Record<string, unknown> & {
  data: { id: string }[];
  pagination: { next_cursor_id: string | null; has_more: boolean; count: number; limit: number };
  error?: never;
};
type ErrorBody = { error: { code: string; message: string; status: number; details: { parameter: string; message: string }[] } };

describe('MCP tool access', () => {
  let service: TestService;
  let now = MARKET_NOW;
  let rest: RestClient;
  let restKey: string;
  const open: Client[] = [];

  async function connect(key?: string): Promise<Client> {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/v1/mcp`), { requestInit: { headers } }));
    open.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** The JSON body a tool's text content carries, checked equal to its structured content. */
  function bodyOf<T>(result: CallToolResult): T {
    const [content] = result.content;
    expect(content?.type).toBe('text');
    const body = JSON.parse((content as { text: string }).text) as T;
    expect(result.structuredContent).toEqual(body);
    return body;
  }

  /** A REST GET with a raw query string (unknown names included), as the API answers it. */
  async function restGet(path: string, search: string, key = restKey): Promise<{ status: number; body: unknown }> {
    const response = await fetch(`${service.url}${path}?${search}`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: response.status, body: await response.json() };
  }

  const ids = (body: Body): string[] => body.data.map((r) => r.id);

  // listMarketSessions waits for the test once `hold` is set (the client that leaves mid-call).
  let hold: Promise<void> | null = null;
  let held = false;
  const heldSessions: Handler<'listMarketSessions'> = async (ctx) => {
    if (hold) {
      held = true;
      await hold;
    }
    return await listMarketSessions(ctx);
  };

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      clock: () => now,
      limits: { requestsPerMinute: PER_MINUTE },
      handlers: { listMarketSessions: heldSessions },
    });
    const account = await service.newAccount();
    rest = account.client;
    restKey = account.key;
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await service.stop();
  });

  it('lists one tool per x-mcp operation, with the input schema of its query parameters; the catalog marks exactly those', async () => {
    const { key } = await service.newAccount();
    const client = await connect(key);
    const { tools } = await client.listTools();
    const marked = service.deps.apiContract.operations.filter((o) => o.facts.mcp).map((o) => o.operationId);
    expect(tools).toHaveLength(31);
    expect(tools.map((t) => t.name).sort()).toEqual([...marked].sort());
    // REST on another account, so this one's minute is only MCP's.
    const catalog = await listCatalog({ client: rest });
    expect(
      (catalog.data?.data ?? [])
        .filter((e) => e.mcp)
        .map((e) => e.id)
        .sort(),
    ).toEqual(tools.map((t) => t.name).sort());

    for (const tool of tools) {
      const operation = service.deps.apiContract.byId.get(tool.name as never)!;
      const query = operation.parameters.filter((p) => p.in === 'query');
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toEqual([...query.map((p) => p.name), 'fields']);
      expect(tool.inputSchema.required ?? [], tool.name).toEqual(query.filter((p) => p.required).map((p) => p.name));
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    // The interface specification's bounds: trades limit 1 to 500 (default 100), 1 to 10 underlyings.
    const trades = tools.find((t) => t.name === 'listOptionTrades')!;
    const properties = trades.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
    expect(properties.limit?.description).toMatch(/rows per page/i);
    expect(properties.underlying_symbols).toMatchObject({ type: 'array', minItems: 1, maxItems: 10, items: { type: 'string' } });
    expect(properties.session).toMatchObject({ type: 'string', enum: ['rth', 'gth', 'all'], default: 'rth' });
    expect(trades.inputSchema.additionalProperties).toBe(false);
    expect(tools.find((t) => t.name === 'getPremiumDrift')?.inputSchema.required).toEqual(['underlying_symbol']);
    // Every tool declares its output; this client, having listed them, checks each answer's
    // structuredContent against it (the SDK client does so by itself): a body and an error here.
    for (const tool of tools) expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
    const answered = await call(client, 'listOptionTrades', { underlying_symbol: 'SPY', limit: 3 });
    expect(answered.isError).toBeFalsy();
    expect(bodyOf<Body>(answered).data).toHaveLength(3);
    const refused = await call(client, 'getPremiumDrift', { underlying_symbol: 'SPY', interval: '2m' });
    expect(refused.isError).toBe(true);
    expect(bodyOf<{ error: { code: string } }>(refused).error.code).toBe('invalid_parameter');
    // fields: a skew cut to each expiration's date and at-the-money volatility, the route's values,
    // a fraction of the whole; a path naming nothing is refused naming it.
    const whole = bodyOf<{ data: { expirations: Record<string, unknown>[] } }>(
      await call(client, 'getVolatilitySkew', { underlying_symbol: 'SPX' }),
    );
    expect(whole.data.expirations.length).toBeGreaterThan(0);
    const cut = await call(client, 'getVolatilitySkew', {
      underlying_symbol: 'SPX',
      fields: ['expirations.date_of_expiry', 'expirations.atm_implied_volatility'],
    });
    expect(cut.isError).toBeFalsy();
    const cutBody = bodyOf<{ data: { expirations: Record<string, unknown>[] }; meta: unknown }>(cut);
    expect(cutBody.data.expirations).toEqual(
      whole.data.expirations.map((e) => ({ date_of_expiry: e.date_of_expiry, atm_implied_volatility: e.atm_implied_volatility })),
    );
    expect(cutBody.meta).toBeDefined();
    expect(JSON.stringify(cutBody).length).toBeLessThan(JSON.stringify(whole).length / 4);
    const unknown = await call(client, 'getVolatilitySkew', { underlying_symbol: 'SPX', fields: ['expirations.nope'] });
    expect(unknown.isError).toBe(true);
    expect(bodyOf<{ error: { details: unknown[] } }>(unknown).error.details).toEqual([
      { parameter: 'fields', message: "expirations.nope names no field of this answer's data" },
    ]);
  });

  it("answers a trades call with the route's body and follows its cursor to the same second page as REST", async () => {
    const { key } = await service.newAccount();
    const client = await connect(key);
    const first = await call(client, 'listOptionTrades', { underlying_symbol: 'SPY', limit: 25 });
    expect(first.isError).toBeFalsy();
    const page1 = bodyOf<Body>(first);
    const rest1 = (await listOptionTrades({ client: rest, query: { underlying_symbol: 'SPY', limit: 25 } })).data as unknown as Body;
    expect(page1.data).toHaveLength(25);
    expect(page1.data).toEqual(rest1.data);
    expect(page1.pagination).toMatchObject({ count: 25, limit: 25, has_more: true });
    expect(page1.meta).toMatchObject({ source: 'opra', coverage: { complete: true, scan_complete: true } });

    const cursor = page1.pagination.next_cursor_id;
    expect(cursor).toEqual(expect.any(String));
    const page2 = bodyOf<Body>(await call(client, 'listOptionTrades', { underlying_symbol: 'SPY', limit: 25, cursor_id: cursor }));
    const rest2 = (
      await listOptionTrades({ client: rest, query: { underlying_symbol: 'SPY', limit: 25, cursor_id: rest1.pagination.next_cursor_id! } })
    ).data as unknown as Body;
    expect(ids(page2)).toEqual(ids(rest2));
    expect(ids(page2)).toHaveLength(25);
    expect(ids(page2).filter((id) => ids(page1).includes(id))).toEqual([]);

    // Lists go as lists; numbers and booleans as their values.
    const lists = { underlying_symbols: ['SPY', 'QQQ'], side: ['ask', 'bid'], include_complex: false, min_premium: 1000.5, limit: 30 };
    const byList = bodyOf<Body>(await call(client, 'listOptionTrades', lists));
    const restList = await listOptionTrades({ client: rest, query: lists as never });
    expect(restList.response.status).toBe(200);
    expect(ids(byList)).toEqual(ids(restList.data as unknown as Body));
    expect(byList.data.length).toBeGreaterThan(0);
  });

  it('answers bad parameters, broken rules and a missing entitlement with the tool error REST gives', async () => {
    const { key } = await service.newAccount({ plan: 'basic', overnight: false });
    const client = await connect(key);
    const basicKey = key;

    const bad = await call(client, 'listOptionTrades', { underlying_symbol: 'SPY', limit: 0, session: 'xyz', bogus: 1 });
    expect(bad.isError).toBe(true);
    const badBody = bodyOf<ErrorBody>(bad);
    expect(badBody.error.code).toBe('invalid_parameter');
    expect(badBody.error.status).toBe(400);
    expect(new Set(badBody.error.details.map((d) => d.parameter))).toEqual(new Set(['limit', 'session', 'bogus']));
    const restBad = (await restGet('/v1/options/trades', 'underlying_symbol=SPY&limit=0&session=xyz&bogus=1')).body as ErrorBody;
    expect(badBody.error.message).toBe(restBad.error.message);
    expect(badBody.error.details).toEqual(restBad.error.details);

    const both = bodyOf<ErrorBody>(await call(client, 'listOptionTrades', { underlying_symbol: 'SPY', underlying_symbols: ['QQQ'] }));
    const restBoth = (await restGet('/v1/options/trades', 'underlying_symbol=SPY&underlying_symbols=QQQ')).body as ErrorBody;
    expect(both.error.code).toBe('invalid_parameter');
    expect({ message: both.error.message, details: both.error.details }).toEqual({
      message: restBoth.error.message,
      details: restBoth.error.details,
    });

    const shapes = bodyOf<ErrorBody>(await call(client, 'listOptionTrades', { underlying_symbol: { root: 'SPY' }, limit: [1, 2] }));
    expect(shapes.error.code).toBe('invalid_parameter');
    expect(shapes.error.details.map((d) => d.parameter).sort()).toEqual(['limit', 'underlying_symbol']);

    const overnight = await call(client, 'listOptionTrades', { underlying_symbol: 'SPX', session: 'gth' });
    const forbidden = bodyOf<ErrorBody>(overnight);
    const restForbidden = await restGet('/v1/options/trades', 'underlying_symbol=SPX&session=gth', basicKey);
    expect(overnight.isError).toBe(true);
    expect(restForbidden.status).toBe(403);
    expect(forbidden.error).toMatchObject({ code: 'forbidden', status: 403, message: (restForbidden.body as ErrorBody).error.message });

    await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toBeInstanceOf(McpError);
  });

  it('counts each MCP request once against the minute and logs it once under /v1/mcp, visible in usage', async () => {
    const { id, key, client: restOwn } = await service.newAccount();
    const mcpRows = async () =>
      await service.database.admin
        .selectFrom('request_log')
        .select(['route', 'status', 'method'])
        .where('account_id', '=', id)
        .where('route', '=', '/v1/mcp')
        .orderBy('ts')
        .execute();
    const remaining = async (): Promise<number> => (await getAccountLimits({ client: restOwn })).data!.data.minute_window.remaining;

    const client = await connect(key);
    const flushed = async () => {
      await service.deps.requestLog.flush();
      return await mcpRows();
    };
    // The client's last connection request is its GET for a stream, which the endpoint refuses (405).
    const connectRequests = await settled(flushed, (rows) => rows.some((r) => r.method === 'GET'), {
      what: 'the connection requests in the log',
    });
    expect(connectRequests).toEqual([
      { route: '/v1/mcp', status: 200, method: 'POST' },
      { route: '/v1/mcp', status: 202, method: 'POST' },
      { route: '/v1/mcp', status: 405, method: 'GET' },
    ]);
    // limits is quota-free: the minute has spent exactly the connection's requests.
    expect(await remaining()).toBe(PER_MINUTE - connectRequests.length);

    const before = await remaining();
    const good = await call(client, 'getMarketCalendarDay', { date: DAY });
    expect(bodyOf<{ data: { status: string } }>(good).data.status).toBe('open');
    expect(await remaining()).toBe(before - 1);
    const bad = await call(client, 'listStockSplits', { limit: 0 });
    expect(bad.isError).toBe(true);
    expect(await remaining()).toBe(before - 2);
    // Each call's place at the database gate was given back with its answer.
    expect(service.app.gate.inUse).toBe(0);

    const rows = await settled(flushed, (r) => r.length === connectRequests.length + 2, { what: 'the two tool calls in the log' });
    // The calls' entries: POST /v1/mcp with the status the route answered (200, then 400).
    expect(rows.slice(-2)).toEqual([
      { route: '/v1/mcp', status: 200, method: 'POST' },
      { route: '/v1/mcp', status: 400, method: 'POST' },
    ]);

    now += 1000;
    const usage = await listAccountUsage({ client: restOwn, query: { by_route: true } });
    const routes = (usage.data?.data ?? []).flatMap((b) => b.routes ?? []).filter((r) => r.route === '/v1/mcp');
    expect(routes.reduce((n, r) => n + r.requests, 0)).toBe(rows.length);
    expect(routes.reduce((n, r) => n + r.client_errors, 0)).toBe(rows.filter((r) => r.status >= 400 && r.status < 500).length);
  });

  it("gives a call's database-gate place back when its client leaves before the route answers", async () => {
    const { key } = await service.newAccount();
    const client = await connect(key);
    let release: () => void = () => undefined;
    hold = new Promise((resolve) => (release = resolve));
    const pending = client.callTool({ name: 'listMarketSessions', arguments: { date: DAY } }).catch((error: unknown) => error);
    await settled(() => held && service.app.gate.inUse === 1, Boolean, { what: 'the call to hold its place in the route' });
    await client.close();
    await settled(
      () => service.app.gate.inUse,
      (n) => n === 0,
      { what: 'the place to be given back' },
    );
    expect(await pending).toBeInstanceOf(Error);
    hold = null;
    release();
    // The service goes on answering.
    const again = await connect(key);
    expect((await call(again, 'listMarketSessions', { date: DAY })).isError).toBeFalsy();
    expect(service.errors).toEqual([]);
  });

  it('answers 429 rate_limited once the minute is spent, and logs it', async () => {
    const { id, key } = await service.newAccount();
    const client = await connect(key);
    let refusal: unknown = null;
    for (let i = 0; i < PER_MINUTE + 1 && refusal === null; i += 1) {
      await call(client, 'getMarketCalendarDay', { date: DAY }).catch((error: unknown) => {
        refusal = error;
      });
    }
    expect(refusal).toBeInstanceOf(StreamableHTTPError);
    expect((refusal as StreamableHTTPError).code).toBe(429);
    expect((refusal as Error).message).toContain('rate_limited');
    await service.deps.requestLog.flush();
    const limited = await settled(
      async () =>
        await service.database.admin
          .selectFrom('request_log')
          .select(['route', 'status'])
          .where('account_id', '=', id)
          .where('status', '=', 429)
          .execute(),
      (r) => r.length > 0,
      { what: 'the 429 in the log' },
    );
    expect(limited[0]).toEqual({ route: '/v1/mcp', status: 429 });
  });

  it('refuses a missing or unknown key with 401, other methods with 405 and a batch with 400', async () => {
    const missing = await connect().catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(StreamableHTTPError);
    expect((missing as StreamableHTTPError).code).toBe(401);
    const unknown = await connect('oads_aaaaaaaa_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA').catch((error: unknown) => error);
    expect((unknown as StreamableHTTPError).code).toBe(401);
    expect((unknown as Error).message).toContain('unauthorized');

    const { key } = await service.newAccount();
    const get = await fetch(`${service.url}/v1/mcp`, { headers: { Authorization: `Bearer ${key}`, Accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(((await get.json()) as ErrorBody).error.code).toBe('method_not_allowed');
    const batch = await fetch(`${service.url}/v1/mcp`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ]),
    });
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { code: number } }).error.code).toBe(-32600);
  });

  it('answers a tools/call whose arguments are not an object with -32602 Invalid params, not -32603', async () => {
    const { key } = await service.newAccount();
    for (const args of ['SPY', 42, [1, 2], null, true]) {
      const answer = await fetch(`${service.url}/v1/mcp`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'listStockSplits', arguments: args } }),
      });
      const body = (await answer.json()) as { id: unknown; error?: { code: number; message: string } };
      expect(body.error?.code, JSON.stringify(args)).toBe(-32602);
      expect(body.error?.message).toMatch(/arguments must be an object/);
      expect(body.id).toBe(7);
    }
  });

  it('serves the catalog and the contract as resources, as their routes answer them', async () => {
    const { key } = await service.newAccount();
    const client = await connect(key);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['oads://catalog', 'oads://openapi.json']);
    const catalog = await client.readResource({ uri: 'oads://catalog' });
    const catalogBody = JSON.parse((catalog.contents[0] as { text: string }).text) as { data: unknown };
    expect(catalogBody.data).toEqual((await listCatalog({ client: rest })).data?.data);
    const contract = await client.readResource({ uri: 'oads://openapi.json' });
    expect(JSON.parse((contract.contents[0] as { text: string }).text)).toEqual((await getOpenApiDocument({ client: rest })).data);
    await expect(client.readResource({ uri: 'oads://nothing' })).rejects.toBeInstanceOf(McpError);
  });
});
