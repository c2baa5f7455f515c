/**
 * The contract documents every field a user reads: each schema property and each parameter has a
 * description, its own or its $ref target's, and none is blank.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';

type Json = Record<string, unknown>;

const contractFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'openapi', 'v1.yaml');

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function target(document: Json, ref: string): unknown {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
}

/** The node's own description, else its $ref target's (followed through chains of $ref). */
function describedBy(document: Json, node: unknown, seen = new Set<string>()): unknown {
  if (!isObject(node)) return undefined;
  if (node.description !== undefined) return node.description;
  if (typeof node.$ref === 'string' && !seen.has(node.$ref)) {
    seen.add(node.$ref);
    return describedBy(document, target(document, node.$ref), seen);
  }
  return undefined;
}

const blank = (description: unknown): boolean => typeof description !== 'string' || description.trim() === '';

/** Every property of every schema reachable in `node`, by a readable location. */
function properties(node: unknown, at: string, out: Array<[string, unknown]>): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => properties(item, `${at}[${i}]`, out));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
    if (key === 'properties' && isObject(value)) {
      for (const [name, property] of Object.entries(value)) {
        out.push([`${at}.properties.${name}`, property]);
        properties(property, `${at}.properties.${name}`, out);
      }
    } else {
      properties(value, `${at}.${key}`, out);
    }
  }
}

/** Every parameter object, inline or a component. */
function parameters(document: Json): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const components = isObject(document.components) ? document.components : {};
  for (const [name, parameter] of Object.entries(isObject(components.parameters) ? components.parameters : {})) {
    out.push([`components.parameters.${name}`, parameter]);
  }
  for (const [route, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      const list = method === 'parameters' ? operation : isObject(operation) ? operation.parameters : undefined;
      if (!Array.isArray(list)) continue;
      list.forEach((parameter, i) => out.push([`${method.toUpperCase()} ${route} parameters[${i}]`, parameter]));
    }
  }
  return out;
}

function undocumented(document: Json): string[] {
  const props: Array<[string, unknown]> = [];
  properties(document.paths, 'paths', props);
  properties(document.components, 'components', props);
  const missing = props.filter(([, property]) => blank(describedBy(document, property))).map(([at]) => at);
  for (const [at, parameter] of parameters(document)) {
    if (blank(describedBy(document, parameter))) missing.push(at);
  }
  return missing;
}

describe('the contract documents its fields', () => {
  const document = parse(fs.readFileSync(contractFile, 'utf8')) as Json;

  it('gives every schema property and every parameter a description that is not blank', () => {
    expect(undocumented(document)).toEqual([]);
  });

  it('finds an undescribed property, a blank one, and one described only by its $ref target', () => {
    const sample: Json = {
      paths: {},
      components: {
        parameters: { Bare: { name: 'bare', in: 'query', schema: { type: 'string' } } },
        schemas: {
          Described: { type: 'string', description: 'A described type.' },
          Holder: {
            type: 'object',
            properties: {
              plain: { type: 'string' },
              empty: { type: 'string', description: '  ' },
              byRef: { $ref: '#/components/schemas/Described' },
              nested: {
                type: 'array',
                items: { type: 'object', properties: { inner: { type: 'number' } }, description: 'x' },
                description: 'y',
              },
            },
          },
        },
      },
    };
    expect(undocumented(sample).sort()).toEqual([
      'components.parameters.Bare',
      'components.schemas.Holder.properties.empty',
      'components.schemas.Holder.properties.nested.items.properties.inner',
      'components.schemas.Holder.properties.plain',
    ]);
  });
});
