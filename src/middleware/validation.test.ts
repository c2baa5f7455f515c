import { describe, expect, it } from 'vitest';
import { loadApiContract, withParametersInline } from '../api-contract/openapi.js';
import type { Json } from '../json-ref.js';
import { validatorDocument } from './validation.js';

/** Every local `$ref` string in a value. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string') found.push(member);
      else refsIn(member, found);
    }
  }
  return found;
}

function target(document: Json, ref: string): unknown {
  let node: unknown = document;
  for (const key of ref.replace(/^#\//, '').split('/')) node = (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node;
}

describe('validatorDocument', () => {
  const contract = loadApiContract();
  const document = contract.document as Json & { paths: Record<string, Record<string, Json>>; components: Record<string, Json> };
  const documents = contract.operations.map((operation) => {
    const inline = withParametersInline(document, document.paths[operation.path]?.[operation.method] ?? {});
    return {
      operation,
      inline,
      without: validatorDocument(document, inline, operation, false),
      with: validatorDocument(document, inline, operation, true),
    };
  });

  it('holds the one operation, each $ref it keeps resolving inside it to the contract’s own component', () => {
    for (const { operation, inline, without, with: withResponses } of documents) {
      for (const copy of [without, withResponses]) {
        expect(Object.keys(copy.paths as Json)).toEqual([operation.path]);
        for (const ref of refsIn(copy)) {
          expect(target(copy, ref), `${operation.operationId}: ${ref}`).toBeDefined();
          expect(target(copy, ref)).toBe(target(document, ref));
        }
      }
      // The request side is the operation's own, unchanged.
      const kept = (without.paths as Record<string, Record<string, Json>>)[operation.path]?.[operation.method];
      expect(kept?.parameters).toBe(inline.parameters);
      expect(kept?.requestBody).toBe(inline.requestBody);
      expect((withResponses.paths as Record<string, Record<string, Json>>)[operation.path]?.[operation.method]).toBe(inline);
      expect((without.components as Json).securitySchemes).toBe(document.components.securitySchemes);
    }
  });

  it('keeps only the components the operation refers to, and without response validation no response content', () => {
    const schemaCount = Object.keys(document.components.schemas ?? {}).length;
    const trades = documents.find((d) => d.operation.operationId === 'listOptionTrades');
    expect(trades).toBeDefined();
    const kept = (trades?.without.paths as Record<string, Record<string, Json>>)['/v1/options/trades']?.get;
    for (const response of Object.values(kept?.responses as Record<string, Json>))
      expect(response).toEqual({ description: 'not validated' });
    // Trades' query refers to few schemas; its responses to many more.
    const without = Object.keys((trades?.without.components as Record<string, Json>).schemas ?? {}).length;
    const withResponses = Object.keys((trades?.with.components as Record<string, Json>).schemas ?? {}).length;
    expect(without).toBeLessThan(withResponses);
    expect(withResponses).toBeLessThan(schemaCount);
    expect(Object.keys(trades?.with.components as Json)).not.toContain('examples');
  });
});
