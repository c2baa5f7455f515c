import { describe, expect, it } from 'vitest';
import { loadApiContract, type ApiContract, type OperationSpec } from '../api-contract/openapi.js';
import { queryStringOf, toolDefinition, toolOperations, toolsOf } from './tools.js';

const contract = loadApiContract();
const trades = contract.byId.get('listOptionTrades')!;

describe('MCP tools from the contract', () => {
  it('has one tool per x-mcp operation, named by its operationId, built once per contract', () => {
    const { tools, operations } = toolsOf(contract);
    expect(tools.map((t) => t.name)).toEqual(contract.operations.filter((o) => o.facts.mcp).map((o) => o.operationId));
    expect([...operations.keys()]).toEqual(tools.map((t) => t.name));
    expect(toolsOf(contract).tools).toBe(tools);
  });

  it('writes a parameter as JSON Schema: its bounds, enum, default and both descriptions, no OpenAPI leftovers', () => {
    const properties = toolDefinition(trades).inputSchema.properties;
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
