import { describe, expect, it } from 'vitest';
import { loadApiContract } from './openapi.js';
import { buildCatalog, EXPORTABLE_FAMILIES, type CatalogEntry } from './catalog.js';

const contract = loadApiContract();
const catalog = buildCatalog(contract.operations);

function entry(path: string, method = 'GET'): CatalogEntry {
  const found = catalog.find((e) => e.path === path && e.method === method);
  if (!found) throw new Error(`no catalog entry for ${method} ${path}`);
  return found;
}

function param(path: string, name: string): CatalogEntry['params'][number] {
  const found = entry(path).params.find((p) => p.name === name);
  if (!found) throw new Error(`no parameter ${name} on ${path}`);
  return found;
}

describe('buildCatalog: entries', () => {
  it('lists every operation of the contract exactly once', () => {
    const document = contract.document as { paths: Record<string, Record<string, { operationId?: string }>> };
    const fromDocument: string[] = [];
    for (const item of Object.values(document.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const id = item[method]?.operationId;
        if (id) fromDocument.push(id);
      }
    }
    expect(fromDocument.length).toBeGreaterThan(20);
    expect(catalog).toHaveLength(fromDocument.length);
    expect(catalog.map((e) => e.id).sort()).toEqual([...fromDocument].sort());
    expect(new Set(catalog.map((e) => `${e.method} ${e.path}`)).size).toBe(catalog.length);
  });

  it('is sorted by path', () => {
    const paths = catalog.map((e) => e.path);
    expect(paths).toEqual([...paths].sort((a, b) => a.localeCompare(b)));
    // the contract's paths contain no character where code-unit and locale order differ
    expect(paths).toEqual([...paths].sort());
    expect(paths[0]).toBe('/v1/account');
    expect(paths.indexOf('/v1/options/flow')).toBeLessThan(paths.indexOf('/v1/options/flow/leaders'));
    expect(paths.at(-1)).toBe('/v1/stocks/splits');
  });

  it('is built from the operations, whatever their order', () => {
    const reversed = buildCatalog([...contract.operations].reverse());
    expect(reversed).toEqual(catalog);
  });

  it('carries id, upper-case method, path, summary and trimmed description of each operation', () => {
    for (const op of contract.operations) {
      const e = entry(op.path, op.method.toUpperCase());
      expect(e.id).toBe(op.operationId);
      expect(e.summary).toBe(op.summary);
      expect(e.summary.length).toBeGreaterThan(0);
      expect(e.description).toBe(op.description.trim());
    }
    expect(entry('/v1/exports', 'POST').id).toBe('createExport');
    expect(entry('/v1/options/trades').id).toBe('listOptionTrades');
  });

  it('states the route facts of the operation x- extensions', () => {
    for (const op of contract.operations) {
      const e = entry(op.path, op.method.toUpperCase());
      expect({
        family: e.family,
        dataset: e.dataset,
        public: e.public,
        mcp: e.mcp,
        streamable: e.streamable,
        overnight: e.overnight,
        paginated: e.paginated,
      }).toEqual({
        family: op.facts.family,
        dataset: op.facts.dataset,
        public: op.facts.public,
        mcp: op.facts.mcp,
        streamable: op.facts.streamable,
        overnight: op.facts.overnight,
        paginated: op.facts.paginated,
      });
      if (op.facts.historyParams.length > 0) expect(e.history_params).toEqual(op.facts.historyParams);
      else expect(e).not.toHaveProperty('history_params');
    }
  });

  it('trades: options dataset, paginated, overnight, history bounded by date', () => {
    const trades = entry('/v1/options/trades');
    expect(trades.family).toBe('options');
    expect(trades.dataset).toBe('options');
    expect(trades.paginated).toBe(true);
    expect(trades.overnight).toBe(true);
    expect(trades.public).toBe(false);
    expect(trades.mcp).toBe(true);
    expect(trades.streamable).toBe(true);
    expect(trades.history_params).toContain('date');
    expect(trades.history_params).toEqual(['date', 'start_time', 'end_time']);
  });

  it('status and openapi.json: public, dataset none, no history params', () => {
    for (const path of ['/v1/status', '/v1/openapi.json', '/v1/asyncapi.json']) {
      const e = entry(path);
      expect(e.public).toBe(true);
      expect(e.dataset).toBe('none');
      expect(e.family).toBe('platform');
      expect(e.paginated).toBe(false);
      expect(e).not.toHaveProperty('history_params');
    }
    expect(
      catalog
        .filter((e) => e.public)
        .map((e) => e.path)
        .sort(),
    ).toEqual(['/v1/asyncapi.json', '/v1/openapi.json', '/v1/status']);
  });

  it('the family filter accepts every family an entry has, and the families without routes yet', () => {
    const filter = param('/v1/catalog', 'family');
    expect(filter.type).toBe('enum');
    const families = new Set(catalog.map((e) => e.family));
    expect([...families]).toEqual(expect.arrayContaining(['options', 'platform', 'exports']));
    for (const family of families) expect(filter.enum, family).toContain(family);
    expect(filter.enum).toEqual(expect.arrayContaining(['futures', 'indices']));
  });

  it('stocks family: splits carry start_execution_date / end_execution_date', () => {
    const stocks = catalog.filter((e) => e.family === 'stocks');
    expect(stocks.length).toBeGreaterThan(0);
    for (const e of stocks) {
      expect(e.dataset).toBe('equities');
      expect(e.history_params).toEqual(expect.arrayContaining(['start_execution_date', 'end_execution_date']));
      const names = e.params.map((p) => p.name);
      expect(names).toContain('start_execution_date');
      expect(names).toContain('end_execution_date');
    }
    expect(param('/v1/stocks/splits', 'start_execution_date').type).toBe('date');
    expect(param('/v1/stocks/splits', 'limit')).toMatchObject({ type: 'int', min: 1, max: 999, default: 100 });
  });

  it('lists only query parameters, in the contract order', () => {
    for (const op of contract.operations) {
      const e = entry(op.path, op.method.toUpperCase());
      expect(e.params.map((p) => p.name)).toEqual(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    }
    // the export id is a path parameter
    expect(entry('/v1/exports/{id}').params).toEqual([]);
  });
});

describe('buildCatalog: parameter typing', () => {
  const TRADES = '/v1/options/trades';

  it('Unix-ms integers are ms with their bounds', () => {
    expect(param(TRADES, 'start_time')).toMatchObject({ type: 'ms', min: 946_684_800_000, max: 4_102_444_800_000 });
    expect(param(TRADES, 'end_time').type).toBe('ms');
    expect(param('/v1/account/usage', 'start_time').type).toBe('ms');
    expect(param('/v1/options/contract/trade-at-time', 'timestamp').type).toBe('ms');
  });

  it('other integers are int with min, max and default', () => {
    expect(param(TRADES, 'limit')).toEqual({
      name: 'limit',
      type: 'int',
      required: false,
      description: 'Max rows per page.',
      default: 100,
      min: 1,
      max: 500,
    });
    expect(param(TRADES, 'min_dte')).toMatchObject({ type: 'int', min: 0, max: 3650 });
    expect(param(TRADES, 'min_dte')).not.toHaveProperty('default');
  });

  it('a strike is decimal, required, with its exclusive minimum as min', () => {
    const strike = param('/v1/options/contract/implied-volatility', 'strike');
    expect(strike).toMatchObject({ type: 'decimal', required: true, min: 0, max: 99999.999 });
    expect(param('/v1/options/contract/trade-at-time', 'strike').type).toBe('decimal');
  });

  it('other numbers are number', () => {
    expect(param(TRADES, 'min_premium')).toMatchObject({ type: 'number', min: 0, max: 1_000_000_000_000 });
    expect(param(TRADES, 'min_premium')).not.toHaveProperty('item');
  });

  it('a list of enums: type list, item enum, the item enum values and max_items', () => {
    const side = param(TRADES, 'side');
    expect(side.type).toBe('list');
    expect(side.item).toBe('enum');
    expect(side.enum).toEqual(['above_ask', 'at_ask', 'near_ask', 'ask', 'mid', 'near_bid', 'at_bid', 'bid', 'below_bid', 'unknown']);
    expect(side.max_items).toBe(10);
    expect(param(TRADES, 'sentiment')).toMatchObject({ type: 'list', item: 'enum', max_items: 4 });
    // items given by $ref are resolved
    expect(param(TRADES, 'exchange')).toMatchObject({ type: 'list', item: 'enum', max_items: 17 });
    expect(param(TRADES, 'exchange').enum).toContain('cboe');
  });

  it('a list of strings: item string, no enum', () => {
    const symbols = param(TRADES, 'underlying_symbols');
    expect(symbols).toMatchObject({ type: 'list', item: 'string', max_items: 10 });
    expect(symbols).not.toHaveProperty('enum');
    expect(param('/v1/options/volatility/skew', 'expirations')).toMatchObject({ type: 'list', item: 'date', max_items: 8 });
  });

  it('dates are date, booleans bool with default, plain strings string', () => {
    expect(param(TRADES, 'date').type).toBe('date');
    expect(param(TRADES, 'date_of_expiry').type).toBe('date');
    expect(param(TRADES, 'otm_only')).toMatchObject({ type: 'bool', default: false });
    expect(param(TRADES, 'include_complex')).toMatchObject({ type: 'bool', default: true });
    expect(param(TRADES, 'underlying_symbol').type).toBe('string');
    expect(param(TRADES, 'cursor_id').type).toBe('string');
    expect(param('/v1/stocks/splits', 'symbol').type).toBe('string');
  });

  it('enums are enum with their values and default', () => {
    expect(param(TRADES, 'session')).toMatchObject({ type: 'enum', default: 'rth', enum: ['rth', 'gth', 'all'] });
    expect(param('/v1/options/volatility/skew', 'session')).toMatchObject({ type: 'enum', default: 'rth' });
    expect(param(TRADES, 'contract_type')).toMatchObject({ type: 'enum', enum: ['call', 'put'] });
    expect(param('/v1/account/usage', 'granularity')).toMatchObject({ type: 'enum', default: 'hour', enum: ['hour', 'day'] });
  });

  it('every parameter type is in the catalog vocabulary and carries a description', () => {
    const vocabulary = new Set(['string', 'int', 'number', 'decimal', 'bool', 'ms', 'date', 'enum', 'list']);
    for (const e of catalog) {
      for (const p of e.params) {
        expect(vocabulary.has(p.type), `${e.path} ${p.name}: ${p.type}`).toBe(true);
        if (p.item !== undefined) expect(vocabulary.has(p.item)).toBe(true);
        expect(typeof p.required).toBe('boolean');
        expect(p.description.length, `${e.path} ${p.name}`).toBeGreaterThan(0);
      }
    }
  });
});

describe('EXPORTABLE_FAMILIES', () => {
  it('holds the data families, not platform, account or exports', () => {
    for (const family of ['options', 'stocks', 'market', 'futures', 'indices']) expect(EXPORTABLE_FAMILIES.has(family)).toBe(true);
    for (const family of ['platform', 'account', 'exports']) expect(EXPORTABLE_FAMILIES.has(family)).toBe(false);
  });
});
