import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiContractPath, loadApiContract, resolveRef, withParametersInline } from './openapi.js';

describe('withParametersInline', () => {
  const contract = loadApiContract();
  const document = contract.document as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const trades = document.paths['/v1/options/trades']?.get as Record<string, unknown>;

  it('writes out every parameter $ref of an operation, and each parameter schema $ref, leaving the document as it was', () => {
    const before = JSON.stringify(document);
    const inline = withParametersInline(document, trades);
    const parameters = inline.parameters as Record<string, unknown>[];
    const original = trades.parameters as unknown[];
    expect(original.some((p) => typeof (p as { $ref?: unknown }).$ref === 'string')).toBe(true);
    expect(parameters).toHaveLength(original.length);
    parameters.forEach((p, i) => {
      expect(p.$ref).toBeUndefined();
      expect((p.schema as { $ref?: unknown }).$ref).toBeUndefined();
      const resolved = resolveRef(document, original[i]);
      expect(p.name).toBe(resolved.name);
      expect(p.in).toBe(resolved.in);
      expect(p.schema).toEqual(resolveRef(document, resolved.schema));
    });
    // The operation's other fields are the same objects; the document is not changed.
    expect(inline.responses).toBe(trades.responses);
    expect(JSON.stringify(document)).toBe(before);
  });

  it('names the same parameters, with the same rules, as the contract reads them', () => {
    const operation = contract.byId.get('listOptionTrades');
    expect(operation).toBeDefined();
    const inline = withParametersInline(document, trades).parameters as {
      name: string;
      required?: boolean;
      schema: Record<string, unknown>;
    }[];
    expect(inline.map((p) => p.name)).toEqual(operation?.parameters.map((p) => p.name));
    const limit = inline.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
  });
});

describe('resolveRef and the schemas the validators read', () => {
  const contract = loadApiContract();
  const document = contract.document;

  it("keeps the members beside a $ref over the target's, the nearest first", () => {
    const doc = {
      components: {
        schemas: { A: { type: 'string', enum: ['x', 'y'], description: 'a' }, B: { $ref: '#/components/schemas/A', description: 'b' } },
      },
    };
    expect(resolveRef(doc, { $ref: '#/components/schemas/B', default: 'x' })).toEqual({
      type: 'string',
      enum: ['x', 'y'],
      description: 'b',
      default: 'x',
    });
    expect(resolveRef(doc, { $ref: '#/components/schemas/B', description: 'c' }).description).toBe('c');
    // Without siblings the target itself is returned.
    expect(resolveRef(doc, { $ref: '#/components/schemas/A' })).toBe(doc.components.schemas.A);
  });

  it("reads a shared enum with the parameter's own default (session of the trades route)", () => {
    const session = contract.byId.get('listOptionTrades')?.parameters.find((p) => p.name === 'session');
    expect(session?.schema).toMatchObject({ type: 'string', enum: ['rth', 'gth', 'all'], default: 'rth' });
  });

  it('states the strike as multipleOf 0.001 in the contract and gives the validators the decimal format', () => {
    const strike = resolveRef(document, { $ref: '#/components/parameters/StrikeRequired' });
    expect(strike.schema).toMatchObject({ type: 'number', multipleOf: 0.001 });
    const parsed = contract.byId.get('getContractTradeAtTime')?.parameters.find((p) => p.name === 'strike');
    expect(parsed?.schema).toMatchObject({ type: 'number', format: 'strike' });
    expect(parsed?.schema.multipleOf).toBeUndefined();
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    const operation = Object.values(paths)
      .flatMap((item) => Object.values(item))
      .find((op) => op.operationId === 'getContractTradeAtTime');
    const inline = withParametersInline(document, operation ?? {}).parameters as { name: string; schema: Record<string, unknown> }[];
    expect(inline.find((p) => p.name === 'strike')?.schema).toMatchObject({ format: 'strike' });
  });
});

describe('route families', () => {
  it('reads each x-family as a RouteFamily value and refuses a contract whose x-family is not one', () => {
    const contract = loadApiContract();
    const families = resolveRef(contract.document, { $ref: '#/components/schemas/RouteFamily' }).enum as string[];
    for (const op of contract.operations) expect(families, op.operationId).toContain(op.facts.family);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-'));
    try {
      const file = path.join(dir, 'v1.yaml');
      const text = fs.readFileSync(apiContractPath, 'utf8');
      expect(text).toContain('x-family: platform');
      fs.writeFileSync(file, text.replace('x-family: platform', 'x-family: plattform'));
      expect(() => loadApiContract(file)).toThrow(/x-family "plattform" is not one of RouteFamily's values/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
