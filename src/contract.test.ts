import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractPath, loadContract, resolveRef, withParametersInline } from './contract.js';

describe('withParametersInline', () => {
  const contract = loadContract();
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
    const inline = withParametersInline(document, trades).parameters as { name: string; required?: boolean; schema: Record<string, unknown> }[];
    expect(inline.map((p) => p.name)).toEqual(operation?.parameters.map((p) => p.name));
    const limit = inline.find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 100 });
  });
});

describe('route families', () => {
  it('reads each x-family as a RouteFamily value and refuses a contract whose x-family is not one', () => {
    const contract = loadContract();
    const families = resolveRef(contract.document, { $ref: '#/components/schemas/RouteFamily' }).enum as string[];
    for (const op of contract.operations) expect(families, op.operationId).toContain(op.facts.family);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-'));
    try {
      const file = path.join(dir, 'v1.yaml');
      const text = fs.readFileSync(contractPath, 'utf8');
      expect(text).toContain('x-family: platform');
      fs.writeFileSync(file, text.replace('x-family: platform', 'x-family: plattform'));
      expect(() => loadContract(file)).toThrow(/x-family "plattform" is not one of RouteFamily's values/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
