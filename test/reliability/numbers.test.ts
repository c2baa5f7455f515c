/**
 * Numbers that are not numbers (issue #20, section 3), as a property of the contract: every numeric
 * query parameter of every operation, read from openapi/v1.yaml, is driven with NaN, ±Infinity,
 * ±1e309, an empty value and a 10 KB digit string (and, for integers, hex and exponent forms), one
 * request each against a real service, and must answer 400 naming that parameter once. The same
 * values in an export's query must be refused with `query.<name>`. The forms the contract accepts
 * (plain decimals; an exponent on a decimal number) still pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiContract, type OperationSpec, type ParameterSpec } from '../../src/api-contract/openapi.js';
import { startTestService, type TestService } from '../support/service.js';

interface ErrorBody {
  error: { code: string; status: number; details: { parameter: string; message: string }[] };
}

const contract = loadApiContract();

const numericType = (p: ParameterSpec): 'integer' | 'number' | null =>
  p.schema.type === 'integer' || p.schema.type === 'number' ? p.schema.type : null;

/** The operations with numeric query parameters, each with its required parameters filled from the schemas' examples. */
const targets = contract.operations.flatMap((operation) => {
  const numeric = operation.parameters.filter((p) => p.in === 'query' && numericType(p) !== null);
  return numeric.length === 0 ? [] : [{ operation, numeric }];
});

function exampleOf(p: ParameterSpec): string {
  type Example = string | number | boolean | (string | number | boolean)[];
  const examples = p.schema.examples as Example[] | undefined;
  const example = examples?.[0] ?? (p.schema.items as { examples?: Example[] } | undefined)?.examples?.[0];
  if (example === undefined) throw new Error(`${p.name} has no example in the contract`);
  return Array.isArray(example) ? example.map(String).join(',') : String(example);
}

/** The path with its path parameters filled, and the required query parameters other than `except`. */
function requestOf(operation: OperationSpec, except: string): { path: string; query: URLSearchParams } {
  let path = operation.path;
  const query = new URLSearchParams();
  for (const p of operation.parameters) {
    if (!p.required || p.name === except) continue;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(exampleOf(p)));
    else if (p.in === 'query') query.set(p.name, exampleOf(p));
  }
  return { path, query };
}

const TEN_KB = '9'.repeat(10 * 1024);
const NOT_NUMBERS = ['NaN', 'Infinity', '-Infinity', '1e309', '-1e309', '', TEN_KB];
/** What formats.ts says of a value not in a numeric form. */
const FORM_MESSAGES = [
  'must be an integer in plain decimal digits',
  'must be a decimal number',
  'must be a finite number',
  'is out of range',
  'must be an integer',
];
const NOT_INTEGERS = [...NOT_NUMBERS, '0x10', '1e2', '1.5', '+5', ' 5', '9007199254740993'];

describe('numeric query parameters, from the contract', () => {
  let service: TestService;
  let key = '';

  beforeAll(async () => {
    service = await startTestService({ env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000', LIMIT_IN_FLIGHT: '64' } });
    ({ key } = await service.newAccount({ plan: 'pro', overnight: true }));
  });
  afterAll(async () => service.stop());

  const get = async (path: string, query: URLSearchParams): Promise<{ status: number; body: unknown; text: string }> => {
    const r = await fetch(`${service.url}${path}?${query.toString()}`, { headers: { authorization: `Bearer ${key}` } });
    const text = await r.text();
    return { status: r.status, text, body: text.startsWith('{') ? JSON.parse(text) : null };
  };

  it('reads a few dozen numeric parameters from the contract', () => {
    const count = targets.reduce((n, t) => n + t.numeric.length, 0);
    expect(count).toBeGreaterThan(50);
    expect(targets.map((t) => t.operation.operationId)).toEqual(
      expect.arrayContaining([
        'listOptionTrades',
        'listFlowLeaders',
        'listStockSplits',
        'getContractTradeAtTime',
        'listContractImpliedVolatility',
      ]),
    );
  });

  it('answers 400 naming the parameter, once, for every value that is not a finite plain decimal', async () => {
    const failures: string[] = [];
    let requests = 0;
    for (const { operation, numeric } of targets) {
      for (const p of numeric) {
        const { path, query } = requestOf(operation, p.name);
        for (const value of numericType(p) === 'integer' ? NOT_INTEGERS : NOT_NUMBERS) {
          const q = new URLSearchParams(query);
          q.set(p.name, value);
          const { status, body, text } = await get(path, q);
          requests += 1;
          const named = (body as ErrorBody | null)?.error?.details?.filter((d) => d.parameter === p.name) ?? [];
          const shown = value.length > 20 ? `${value.slice(0, 8)}…(${value.length})` : JSON.stringify(value);
          if (status !== 400 || (body as ErrorBody).error.code !== 'invalid_parameter' || named.length !== 1) {
            failures.push(`${operation.operationId} ${p.name}=${shown}: ${status} ${text.slice(0, 160)}`);
          } else if (text.length > 2000) {
            failures.push(`${operation.operationId} ${p.name}=${shown}: a body of ${text.length} characters`);
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(400);
    expect(failures).toEqual([]);
  });

  it('keeps accepting the plain forms, and an exponent on a decimal number', async () => {
    // The example of each parameter may break a rule of its own (a window outside the overnight
    // session); what is checked is that its form is never the problem, and that an exponent on a
    // decimal number is answered exactly as its plain form.
    const failures: string[] = [];
    for (const { operation, numeric } of targets) {
      for (const p of numeric) {
        const { path, query } = requestOf(operation, p.name);
        const example = exampleOf(p);
        const answers = [];
        for (const value of numericType(p) === 'number' ? [example, Number(example).toExponential()] : [example]) {
          const q = new URLSearchParams(query);
          q.set(p.name, value);
          const { status, body, text } = await get(path, q);
          const formProblem =
            status === 400 && (body as ErrorBody).error.details.some((d) => d.parameter === p.name && FORM_MESSAGES.includes(d.message));
          if (formProblem || status === 500) failures.push(`${operation.operationId} ${p.name}=${value}: ${status} ${text.slice(0, 200)}`);
          answers.push(`${status} ${JSON.stringify((body as ErrorBody | null)?.error?.details ?? null)}`);
        }
        if (answers.length === 2 && answers[0] !== answers[1]) failures.push(`${operation.operationId} ${p.name}: ${answers.join(' / ')}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('names every bad number and unknown parameter of one request in one 400', async () => {
    const { status, body } = await get(
      '/v1/options/trades',
      new URLSearchParams({ underlying_symbol: 'SPX', limit: '1e2', min_size: 'Infinity', max_dte: '0x10', bogus: '1' }),
    );
    expect(status).toBe(400);
    const details = (body as ErrorBody).error.details;
    expect(details.map((d) => d.parameter).sort()).toEqual(['bogus', 'limit', 'max_dte', 'min_size']);
  });

  it("answers the issue's cases with 400, never 500 or 200", async () => {
    const cases: [string, Record<string, string>][] = [
      ['/v1/options/trades', { underlying_symbol: 'SPX', limit: '1e309' }],
      ['/v1/options/trades', { underlying_symbol: 'SPX', min_size: '-1e309' }],
      ['/v1/options/trades', { underlying_symbol: 'SPX', max_dte: 'Infinity' }],
      ['/v1/options/trades', { underlying_symbol: 'SPX', start_time: '1e309' }],
      ['/v1/stocks/splits', { limit: '1e309' }],
      ['/v1/options/flow/leaders', { grain: 'contract', limit: '1e309' }],
      [
        '/v1/options/contract/trade-at-time',
        { underlying_symbol: 'SPXW', contract_type: 'call', strike: '5900', date_of_expiry: '2026-11-20', timestamp: '1e309' },
      ],
      [
        '/v1/options/contract/implied-volatility',
        { underlying_symbol: 'SPXW', contract_type: 'call', strike: '5900', date_of_expiry: '2026-11-20', limit: '-Infinity' },
      ],
      ['/v1/stocks/splits', { limit: '0x10' }],
      ['/v1/stocks/splits', { limit: '1e2' }],
    ];
    for (const [path, query] of cases) {
      const { status } = await get(path, new URLSearchParams(query));
      expect(`${path} ${JSON.stringify(query)}: ${status}`).toBe(`${path} ${JSON.stringify(query)}: 400`);
    }
  });

  describe('in an export query', () => {
    const post = async (text: string): Promise<{ status: number; body: ErrorBody }> => {
      const r = await fetch(`${service.url}/v1/exports`, {
        method: 'POST',
        body: text,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });
      return { status: r.status, body: (await r.json()) as ErrorBody };
    };
    it('refuses the same values, as strings, naming query.<parameter>', async () => {
      // The routes an export may name: served data routes (account and platform routes are not exported).
      const exportTargets = targets.filter(
        (t) => service.deps.served.has(t.operation.operationId) && !['account', 'platform'].includes(t.operation.facts.family),
      );
      expect(exportTargets.length).toBeGreaterThan(4);
      const failures: string[] = [];
      for (const { operation, numeric } of exportTargets) {
        for (const p of numeric) {
          const { query } = requestOf(operation, p.name);
          for (const value of numericType(p) === 'integer' ? NOT_INTEGERS : NOT_NUMBERS) {
            const { status, body } = await post(
              JSON.stringify({ path: operation.path, query: { ...Object.fromEntries(query), [p.name]: value } }),
            );
            const named = body.error.details.filter((d) => d.parameter === `query.${p.name}`);
            if (status !== 400 || named.length !== 1)
              failures.push(
                `${operation.operationId} ${p.name}=${value.slice(0, 20)}: ${status} ${JSON.stringify(body.error.details).slice(0, 300)}`,
              );
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it('refuses a JSON number that overflows to Infinity, and a boolean for a number, naming it once', async () => {
      // JSON.parse reads 1e309 as Infinity: the body's own schema (ExportQueryValue) refuses it as
      // body.query.<name>; a boolean passes that schema and is refused as query.<name>.
      for (const value of ['1e309', '-1e309', 'true']) {
        for (const name of ['limit', 'min_premium']) {
          const { status, body } = await post(`{"path":"/v1/options/trades","query":{"underlying_symbol":"SPX","${name}":${value}}}`);
          expect(status).toBe(400);
          expect(body.error.details).toHaveLength(1);
          expect(body.error.details[0]?.parameter).toMatch(new RegExp(`^(body\\.)?query\\.${name}$`));
        }
      }
    });
  });
});
