import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiContract, withParametersInline, type OperationId } from '../api-contract/openapi.js';
import { ApiError, type ErrorDetail } from '../errors.js';
import { parameterRules, throwCalendarProblems } from './parameter-rules.js';

const contract = loadApiContract();
const operationOf = (id: OperationId) => {
  const operation = contract.byId.get(id);
  if (!operation) throw new Error(`no operation ${id}`);
  return operation;
};

/**
 * One operation served as the app serves it: the contract's validator for it alone, then the rules,
 * then a handler that answers the query it reads after the steps of app.ts dispatch (an entitlement
 * check, here a 403 when the request sends x-forbid, then the calendar rules' 400).
 */
function appFor(id: OperationId): express.Express {
  const operation = operationOf(id);
  const document = contract.document as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const spec = document.paths[operation.path]?.[operation.method] ?? {};
  const app = express();
  app.set('query parser', 'simple');
  app.use(
    OpenApiValidator.middleware({
      apiSpec: { ...document, paths: { [operation.path]: { [operation.method]: withParametersInline(document, spec) } } } as never,
      validateRequests: { allowUnknownQueryParameters: true, coerceTypes: true, removeAdditional: false, allErrors: true },
      validateResponses: false,
      validateSecurity: false,
      ignoreUndocumented: false,
    }),
  );
  app.use(parameterRules(operation));
  app.get(operation.path, (req, res) => {
    if (req.headers['x-forbid'] !== undefined) throw new ApiError(403, 'forbidden', 'not entitled');
    throwCalendarProblems(res);
    res.json({ query: req.query });
  });
  const errors: ErrorRequestHandler = (err, _req, res, _next) => {
    const status = err instanceof ApiError ? err.status : Number((err as { status?: number }).status ?? 500);
    res
      .status(status)
      .json(err instanceof ApiError ? { code: err.code, details: err.details } : { message: String((err as Error).message) });
  };
  app.use(errors);
  return app;
}

const servers: { close: () => void }[] = [];
async function serve(app: express.Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterAll(() => {
  for (const server of servers) server.close();
});

interface Answer {
  status: number;
  body: { query?: Record<string, unknown>; code?: string; details?: ErrorDetail[] };
}
const get = async (base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> => {
  const response = await fetch(`${base}${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
};

describe('parameterRules after the validator', () => {
  let leaders = '';
  let trades = '';
  let drift = '';
  beforeAll(async () => {
    leaders = await serve(appFor('listFlowLeaders'));
    trades = await serve(appFor('listOptionTrades'));
    drift = await serve(appFor('getPremiumDrift'));
  });

  it('fills the sort of the grain the validator defaulted, and keeps what was sent', async () => {
    expect((await get(leaders, '/v1/options/flow/leaders')).body.query).toMatchObject({
      grain: 'root',
      sort: 'net',
      order: 'desc',
      limit: 50,
    });
    expect((await get(leaders, '/v1/options/flow/leaders?grain=contract&limit=5')).body.query).toMatchObject({
      grain: 'contract',
      sort: 'change_percent',
      limit: 5,
    });
    expect((await get(leaders, '/v1/options/flow/leaders?grain=contract&sort=volume')).body.query).toMatchObject({
      grain: 'contract',
      sort: 'volume',
    });
  });

  it('answers 400 invalid_parameter naming each parameter of each broken rule', async () => {
    const answer = await get(leaders, '/v1/options/flow/leaders?sort=change_percent&underlying_symbols=SPY');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 'invalid_parameter',
      details: [
        { parameter: 'sort', message: 'grain root accepts sort net, bullish, bearish, premium, volume, trades' },
        { parameter: 'underlying_symbols', message: 'accepted with grain contract only' },
      ],
    });
    expect((await get(leaders, '/v1/options/flow/leaders?grain=contract&sort=net')).body.details?.map((d) => d.parameter)).toEqual([
      'sort',
    ]);
  });

  it('reads the values the validator coerced: numbers compare as numbers', async () => {
    const answer = await get(trades, '/v1/options/trades?underlying_symbol=SPY&min_size=9&max_size=10&min_strike=600&max_strike=50');
    expect(answer.status).toBe(400);
    expect(answer.body.details?.map((d) => d.parameter)).toEqual(['min_strike', 'max_strike']);
    expect((await get(trades, '/v1/options/trades?underlying_symbol=SPY&min_size=9&max_size=10')).status).toBe(200);
    const neither = await get(trades, '/v1/options/trades');
    expect(neither.body.details).toEqual([
      { parameter: 'underlying_symbol', message: 'give exactly one of underlying_symbol and underlying_symbols' },
      { parameter: 'underlying_symbols', message: 'give exactly one of underlying_symbol and underlying_symbols' },
    ]);
  });

  it('answers a broken calendar rule with the others at once, or alone after the entitlement check', async () => {
    // 10:00 ET on 2026-11-20, outside the rth session of 2026-11-19.
    const start = Date.parse('2026-11-20T15:00:00Z');
    const outside = {
      parameter: 'start_time',
      message:
        'the window must lie within the rth session of 2026-11-19 (09:30 ET to the options regular close, 16:15 ET or 13:15 on an early close, inclusive)',
    };
    const both = await get(
      drift,
      `/v1/options/flow/premium-drift?underlying_symbol=SPY&min_strike=600&max_strike=500&date=2026-11-19&start_time=${start}`,
      { 'x-forbid': '1' },
    );
    expect(both.status).toBe(400);
    expect(both.body.details).toEqual([
      { parameter: 'min_strike', message: 'must not exceed max_strike' },
      { parameter: 'max_strike', message: 'must not be below min_strike' },
      outside,
    ]);
    const alone = `/v1/options/flow/premium-drift?underlying_symbol=SPY&date=2026-11-19&start_time=${start}`;
    expect((await get(drift, alone, { 'x-forbid': '1' })).status).toBe(403);
    expect((await get(drift, alone)).body).toEqual({ code: 'invalid_parameter', details: [outside] });
    expect((await get(drift, `/v1/options/flow/premium-drift?underlying_symbol=SPY&date=2026-11-20&start_time=${start}`)).status).toBe(200);
  });

  it('lets a schema error through to the error handler before any rule runs', async () => {
    const answer = await get(leaders, '/v1/options/flow/leaders?limit=201&sort=change_percent');
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBeUndefined();
  });
});

describe('parameterRules for an operation without rules', () => {
  it('passes every request on', () => {
    const middleware = parameterRules(operationOf('getStatus'));
    let called = 0;
    middleware({} as never, {} as never, (err?: unknown) => {
      expect(err).toBeUndefined();
      called += 1;
    });
    expect(called).toBe(1);
  });
});

describe('parameterRules on a request whose query is still the prototype getter', () => {
  it('sets the completed query on the request itself', () => {
    const proto = {
      get query(): Record<string, unknown> {
        return { grain: 'contract' };
      },
    };
    const req = Object.create(proto) as { query: Record<string, unknown> };
    parameterRules(operationOf('listFlowLeaders'))(req as never, {} as never, (err?: unknown) => expect(err).toBeUndefined());
    expect(req.query).toEqual({ grain: 'contract', sort: 'change_percent' });
  });
});
