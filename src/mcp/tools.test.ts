import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { loadApiContract, type ApiContract, type OperationSpec } from '../api-contract/openapi.js';
import { loadExamples } from '../docs/enrich.js';
import { fieldsOf, projectFields, queryStringOf, toolDefinition, toolOperations, toolsOf } from './tools.js';

const contract = loadApiContract();
const trades = contract.byId.get('listOptionTrades')!;

describe('MCP tools from the contract', () => {
  it('has one tool per x-mcp operation, named by its operationId, built once per contract', () => {
    const { tools, operations } = toolsOf(contract);
    expect(tools.map((t) => t.name)).toEqual(contract.operations.filter((o) => o.facts.mcp).map((o) => o.operationId));
    expect([...operations.keys()]).toEqual(tools.map((t) => t.name));
    expect(toolsOf(contract).tools).toBe(tools);
  });

  it("declares each tool's output: the route's success body or the error body, self-contained, that the captured answers meet", () => {
    // As the MCP SDK's client checks structuredContent: Ajv (draft-07 by default), formats added, not strict.
    const ajv = new Ajv({ strict: false, validateFormats: true, allErrors: true });
    addFormats.default(ajv);
    const examples = loadExamples();
    const error = {
      error: {
        code: 'invalid_parameter',
        message: 'x',
        status: 400,
        request_id: 'req_1',
        details: [{ parameter: 'limit', message: 'y' }],
        retry_after_ms: null,
      },
    };
    let checked = 0;
    for (const tool of toolsOf(contract).tools) {
      const text = JSON.stringify(tool.outputSchema);
      expect(text, tool.name).not.toMatch(/#\/components\/|"examples"|"x-|"format":"(double|int64|int32|float)"/);
      const validate = ajv.compile(tool.outputSchema);
      expect(validate(error), `${tool.name} error: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(validate({ data: 1 }), tool.name).toBe(false);
      const example = examples.get(tool.name);
      if (example) {
        expect(validate(example.value), `${tool.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('cuts an answer to the fields asked for, through objects and lists, and names the paths that match nothing', () => {
    const body = {
      data: {
        expirations: [
          {
            date_of_expiry: '2026-11-21',
            atm: 0.2,
            points: [
              { strike: 1, iv: 0.3 },
              { strike: 2, iv: null },
            ],
          },
        ],
        count: 1,
      },
      meta: { request_id: 'req_1' },
    };
    expect(projectFields(body, ['expirations.date_of_expiry', 'expirations.points.strike'])).toEqual({
      body: {
        data: { expirations: [{ date_of_expiry: '2026-11-21', points: [{ strike: 1 }, { strike: 2 }] }] },
        meta: { request_id: 'req_1' },
      },
      unmatched: [],
    });
    // A whole subtree, and a list of rows at the top.
    expect(projectFields(body, ['count', 'expirations.points']).body.data).toEqual({
      count: 1,
      expirations: [{ points: body.data.expirations[0]!.points }],
    });
    const rows = {
      data: [
        { id: 'a', premium: 5, side: 'ask' },
        { id: 'b', premium: 7 },
      ],
      pagination: { next_cursor_id: null },
    };
    expect(projectFields(rows, ['id', 'side'])).toEqual({
      body: { data: [{ id: 'a', side: 'ask' }, { id: 'b' }], pagination: { next_cursor_id: null } },
      unmatched: [],
    });
    expect(projectFields(rows, ['id', 'nope', 'id.deeper']).unmatched).toEqual(['nope']);
    expect(projectFields({ data: [] }, ['anything']).unmatched).toEqual([]);
    expect(fieldsOf(['a.b', 'c'])).toEqual({ fields: ['a.b', 'c'] });
    for (const bad of [[], 'a', ['a', 'a'], ['A'], ['a..b'], [1], Array.from({ length: 51 }, (_, i) => `f${i}`)]) {
      expect(fieldsOf(bad), JSON.stringify(bad)).toHaveProperty('problems');
    }
  });

  it('writes a parameter as JSON Schema: its bounds, enum, default and both descriptions, no OpenAPI leftovers', () => {
    const properties = toolDefinition(trades, contract).inputSchema.properties;
    expect(properties.limit).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 500,
      default: 100,
      examples: [100],
      description: 'Max rows per page.',
    });
    const symbol = properties.underlying_symbol!;
    expect(symbol.pattern).toBe('^[A-Za-z][A-Za-z0-9.]{0,7}$');
    // The parameter's description, then its schema's.
    expect(symbol.description).toMatch(/^Option root or family\..*A letter followed by up to 7 letters/s);
    expect(properties.exchange).toMatchObject({
      type: 'array',
      minItems: 1,
      maxItems: 17,
      items: { type: 'string', enum: expect.arrayContaining(['cboe', 'ise']) as unknown },
    });
    expect(properties.min_strike).toMatchObject({ type: 'number', exclusiveMinimum: 0, maximum: 1_000_000 });
    for (const schema of Object.values(properties)) {
      expect(Object.keys(schema).filter((k) => k === 'example' || k.startsWith('x-'))).toEqual([]);
    }
  });

  it('refuses an x-mcp operation a query string cannot call', () => {
    const exports = contract.byId.get('createExport')!;
    const marked: OperationSpec = { ...exports, facts: { ...exports.facts, mcp: true } };
    const broken: ApiContract = { ...contract, operations: [marked] };
    expect(() => toolOperations(broken)).toThrow(/createExport: x-mcp needs a GET operation/);
  });
});

describe('tool arguments as a query string', () => {
  const search = (args: Record<string, unknown>): string => {
    const result = queryStringOf(trades, args);
    if (!('search' in result)) throw new Error(JSON.stringify(result.problems));
    return decodeURIComponent(result.search.replace(/\+/g, ' '));
  };

  it('writes strings as given, numbers and booleans as their values, lists comma-separated', () => {
    expect(search({ underlying_symbol: 'SPY', limit: 25, min_strike: 5800.5, otm_only: true, exchange: ['cboe', 'ise'] })).toBe(
      'underlying_symbol=SPY&limit=25&min_strike=5800.5&otm_only=true&exchange=cboe,ise',
    );
    // A list given as its comma-separated text, and a name the route does not know, go as they are: the route names them.
    expect(search({ exchange: 'cboe,ise', bogus: 'x y' })).toBe('exchange=cboe,ise&bogus=x y');
    expect(search({})).toBe('');
  });

  it('names every value a query string cannot carry', () => {
    expect(
      queryStringOf(trades, { underlying_symbol: { root: 'SPY' }, limit: [1], exchange: [['cboe']], date: null, side: ['ask'] }),
    ).toEqual({
      problems: [
        { parameter: 'underlying_symbol', message: 'must be a string, a number, a boolean or a list of those' },
        { parameter: 'limit', message: 'takes one value, not a list' },
        { parameter: 'exchange', message: 'must be a list of strings, numbers or booleans' },
        { parameter: 'date', message: 'must be a string, a number, a boolean or a list of those' },
      ],
    });
  });
});
