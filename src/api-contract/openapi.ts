/**
 * The contract, read once from openapi/v1.yaml: the document given to the validator and the list
 * of operations with their route facts (the `x-` extensions). The document served at
 * /v1/openapi.json, with examples and request samples added, is built where it is served
 * (docs/enrich.ts servedDocument), so a process that never serves it never reads the examples.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { components, operations } from '../../generated/openapi.js';
import { resolveRef, type Json } from '../json-ref.js';
import { parseParameterRules, type ParameterRule } from '../parameters/rules.js';

export type OperationId = keyof operations;
/** The dataset release a route belongs to, or none (platform, account and market routes). */
export type RouteDataset = components['schemas']['CatalogEntry']['dataset'];
/** The family of a route: one of the contract's RouteFamily values, which the catalog's filter accepts. */
export type RouteFamily = components['schemas']['RouteFamily'];

export interface RouteFacts {
  family: RouteFamily;
  dataset: RouteDataset;
  public: boolean;
  mcp: boolean;
  streamable: boolean;
  overnight: boolean;
  paginated: boolean;
  historyParams: string[];
  /** `x-parameter-rules`: rules between the query's parameters (parameters/rules.ts); none when absent. */
  parameterRules: ParameterRule[];
  /** `x-quota-free`: the request spends nothing of the minute and second windows (still in flight, still logged). */
  quotaFree: boolean;
  /** `x-overnight-only`: every answer is overnight data, so the overnight entitlement is needed whatever the query. */
  overnightOnly: boolean;
}

export interface ParameterSpec {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  description: string;
  schema: Record<string, unknown>;
}

export interface OperationSpec {
  operationId: OperationId;
  method: 'get' | 'post';
  path: string;
  /** The path in express syntax (`{id}` → `:id`). */
  expressPath: string;
  summary: string;
  description: string;
  facts: RouteFacts;
  parameters: ParameterSpec[];
}

export interface ApiContract {
  /** The contract as written: what the validators compile. */
  document: Record<string, unknown>;
  operations: OperationSpec[];
  byId: Map<OperationId, OperationSpec>;
}

export const apiContractPath = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../openapi/v1.yaml');

export { resolveRef };

/** Each contract file parsed, once per process while it is unchanged (YAML parsing is about a third of a second). */
const parsedContracts = new Map<string, { version: string; document: Json }>();

/**
 * The contract file as parsed, a copy of its own for each caller (a validator may change the
 * document it is given): every reader of the file in a process shares one parse, until the file's
 * size or modification time changes.
 */
export function contractDocument(file = apiContractPath): Json {
  const stat = fs.statSync(file);
  const version = `${stat.size} ${stat.mtimeMs}`;
  let parsed = parsedContracts.get(file);
  if (parsed?.version !== version) {
    parsed = { version, document: parse(fs.readFileSync(file, 'utf8')) as Json };
    parsedContracts.set(file, parsed);
  }
  return structuredClone(parsed.document);
}

/**
 * A strike is a number of at most three decimals, written in the contract as `multipleOf: 0.001`
 * (a standard constraint every generator reads). Checked as a binary fraction that would refuse
 * most strikes (5900.123 / 0.001 is not an integer in floating point), so the validators are given
 * the decimal check instead: the format `strike` (formats.ts hasAtMostThreeDecimals).
 */
export const STRIKE_STEP = 0.001;
function enforceable(schema: Json): Json {
  if (schema.multipleOf !== STRIKE_STEP) return schema;
  const { multipleOf: _, ...rest } = schema;
  return { ...rest, format: 'strike' };
}

/** A schema with its `$ref`s resolved (items and array members too), for the catalog and the validators. */
export function resolveSchema(document: Json, schema: unknown): Json {
  const resolved = enforceable({ ...resolveRef(document, schema) });
  if (resolved.items) resolved.items = resolveSchema(document, resolved.items);
  return resolved;
}

/**
 * An operation with its parameters written out where they were `$ref`s (and each parameter's own
 * schema `$ref`, one level): express-openapi-validator's parameter mutator follows every `$ref` of
 * the operation again on each request (26 on the trades route); written out once here, it reads
 * them as they are. Nested `$ref`s (array items) stay, for ajv to resolve when it compiles.
 */
export function withParametersInline(document: Json, operation: Json): Json {
  const parameters = ((operation.parameters as unknown[] | undefined) ?? []).map((p) => {
    const parameter = { ...resolveRef(document, p) };
    if (parameter.schema !== undefined) parameter.schema = enforceable(resolveRef(document, parameter.schema));
    return parameter;
  });
  return { ...operation, parameters };
}

/** An operation's x-family, which must be one of the RouteFamily schema's values (so the catalog filter accepts it). */
function familyOf(document: Json, operationId: string, value: unknown): RouteFamily {
  const families = resolveRef(document, { $ref: '#/components/schemas/RouteFamily' }).enum as unknown[] | undefined;
  if (!families?.includes(value)) throw new Error(`${operationId}: x-family ${JSON.stringify(value)} is not one of RouteFamily's values`);
  return value as RouteFamily;
}

export function loadApiContract(file = apiContractPath): ApiContract {
  const document = contractDocument(file);
  const operations: OperationSpec[] = [];
  for (const [routePath, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of ['get', 'post'] as const) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const parameters = ((op.parameters as unknown[] | undefined) ?? []).map((p) => {
        const param = resolveRef(document, p);
        return {
          name: String(param.name),
          in: param.in as ParameterSpec['in'],
          required: param.required === true,
          description: typeof param.description === 'string' ? param.description : '',
          schema: resolveSchema(document, param.schema),
        };
      });
      const operationId = op.operationId as OperationId;
      operations.push({
        operationId,
        method,
        path: routePath,
        expressPath: routePath.replace(/\{(\w+)\}/g, ':$1'),
        summary: typeof op.summary === 'string' ? op.summary : '',
        description: typeof op.description === 'string' ? op.description : '',
        facts: {
          family: familyOf(document, operationId, op['x-family']),
          dataset: op['x-dataset'] as RouteDataset,
          public: op['x-public'] === true,
          mcp: op['x-mcp'] === true,
          streamable: op['x-streamable'] === true,
          overnight: op['x-overnight'] === true,
          paginated: op['x-paginated'] === true,
          historyParams: (op['x-history-params'] as string[] | undefined) ?? [],
          parameterRules: parseParameterRules(
            op['x-parameter-rules'],
            parameters.filter((p) => p.in === 'query'),
            operationId,
          ),
          quotaFree: op['x-quota-free'] === true,
          overnightOnly: op['x-overnight-only'] === true,
        },
        parameters,
      });
    }
  }
  return { document, operations, byId: new Map(operations.map((o) => [o.operationId, o])) };
}

/** Finds the operation a method and path belong to (for logging and auth before validation). */
export function operationMatcher(contract: ApiContract): (method: string, urlPath: string) => OperationSpec | null {
  const compiled = contract.operations.map((op) => ({
    op,
    method: op.method.toUpperCase(),
    pattern: new RegExp(`^${op.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`),
  }));
  return (method, urlPath) => compiled.find((c) => c.method === method && c.pattern.test(urlPath))?.op ?? null;
}
