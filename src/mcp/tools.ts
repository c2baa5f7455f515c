/**
 * The MCP tools, read from the contract: one per operation marked `x-mcp`, named by its
 * operationId (the catalog's `id`), so the catalog's `mcp` flag and the tool list are one list. A
 * tool's input schema is the operation's query parameters as JSON Schema (their types, enums,
 * bounds, defaults and descriptions); its arguments become the route's query string, which the
 * route then validates as it validates any request (same rules, same 400 naming each parameter).
 * Its output schema is the route's success body or the error body (outputSchemaOf).
 */
import type { ApiContract, OperationSpec, ParameterSpec } from '../api-contract/openapi.js';
import type { ErrorDetail } from '../errors.js';
import { echoed } from '../formats.js';
import { resolveRef } from '../json-ref.js';

type Schema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Schema>; required?: string[]; additionalProperties: false };
  outputSchema: { type: 'object'; anyOf: Schema[]; $defs: Record<string, Schema> };
  annotations: { title: string; readOnlyHint: true; destructiveHint: false; idempotentHint: true; openWorldHint: false };
}

/** JSON Schema keywords a parameter's schema carries over (OpenAPI's `example` and `x-` extensions stay behind). */
const SCHEMA_KEYWORDS = [
  'type',
  'enum',
  'format',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'default',
  'examples',
] as const;

function jsonSchemaOf(schema: Schema, description?: string): Schema {
  const out: Schema = {};
  for (const keyword of SCHEMA_KEYWORDS) if (schema[keyword] !== undefined) out[keyword] = schema[keyword];
  if (schema.items !== undefined)
    out.items = jsonSchemaOf(
      schema.items as Schema,
      typeof (schema.items as Schema).description === 'string' ? String((schema.items as Schema).description) : undefined,
    );
  const texts = [description, typeof schema.description === 'string' ? schema.description : undefined].filter((t): t is string =>
    Boolean(t?.trim()),
  );
  if (texts.length > 0) out.description = [...new Set(texts.map((t) => t.trim()))].join(' ');
  return out;
}

function queryParametersOf(operation: OperationSpec): ParameterSpec[] {
  return operation.parameters.filter((p) => p.in === 'query');
}

/** The formats of JSON Schema itself; OpenAPI's own (double, int64…) mean nothing to a JSON Schema validator and are left out. */
const JSON_SCHEMA_FORMATS = new Set(['date', 'date-time', 'time', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uri', 'uuid']);
const COMPONENT_SCHEMA = '#/components/schemas/';

/**
 * A tool's output schema (MCP `outputSchema`, which its structuredContent conforms to): the route's
 * success body or, for a refused call (isError), the API's error body, as one self-contained JSON
 * Schema: the contract's schemas it reaches under `$defs`, without OpenAPI's examples, extensions
 * and formats, and without their descriptions (the tool's description and the contract resource
 * have them), which nearly tripled the tool list.
 */
export function outputSchemaOf(contract: ApiContract, operation: OperationSpec): ToolDefinition['outputSchema'] {
  const document = contract.document as Schema;
  const op = ((document.paths as Record<string, Schema>)[operation.path] as Record<string, Schema>)[operation.method] as Schema;
  const response = resolveRef(document, (op.responses as Record<string, unknown>)['200']);
  const success = ((response.content as Record<string, Schema>)['application/json'] as Schema).schema;
  const defs: Record<string, Schema> = {};
  const pending: string[] = [];
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (typeof node !== 'object' || node === null) return node;
    const out: Schema = {};
    for (const [key, value] of Object.entries(node as Schema)) {
      if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
      // The schemas' texts stay in the contract (the oads://openapi.json resource): a tool list is read into an assistant's context.
      if ((key === 'description' || key === 'title') && typeof value === 'string') continue;
      // A `fields` projection leaves properties out: the schema names each object's properties, not which are present.
      if (key === 'required' && Array.isArray(value)) continue;
      if (key === 'format' && !JSON_SCHEMA_FORMATS.has(String(value))) continue;
      if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_SCHEMA)) {
        const name = value.slice(COMPONENT_SCHEMA.length);
        if (!(name in defs) && !pending.includes(name)) pending.push(name);
        out.$ref = `#/$defs/${name}`;
      } else out[key] = copy(value);
    }
    return out;
  };
  const anyOf = [copy(success), copy({ $ref: `${COMPONENT_SCHEMA}ErrorResponse` })] as Schema[];
  const schemas = (document.components as Record<string, Record<string, Schema>>).schemas ?? {};
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    const schema = schemas[name];
    if (!schema) throw new Error(`${operation.operationId}: ${COMPONENT_SCHEMA}${name} is not in the contract`);
    defs[name] = {}; // taken: a schema that refers to itself is not queued again
    defs[name] = copy(schema) as Schema;
  }
  return { type: 'object', anyOf, $defs: defs };
}

/** The argument of every tool that asks for part of the answer (projectFields); no route has a parameter of that name. */
export const FIELDS_ARGUMENT = 'fields';
const FIELD_PATH = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const MAX_FIELDS = 50;
const FIELDS_SCHEMA: Schema = {
  type: 'array',
  items: { type: 'string', pattern: FIELD_PATH.source },
  minItems: 1,
  maxItems: MAX_FIELDS,
  uniqueItems: true,
  description:
    "Only these fields of the answer's data, for a shorter answer (a volatility skew is about 100 KB whole): dot paths through objects and lists, e.g. ['expirations.date_of_expiry', 'expirations.atm_implied_volatility'] or, on a list of rows, ['id', 'premium']. meta and pagination come whole. Left out: the whole answer.",
};

/**
 * The `fields` argument checked: a list of 1 to 50 distinct dot paths; problems name `fields`.
 */
export function fieldsOf(value: unknown): { fields: string[] } | { problems: ErrorDetail[] } {
  const valid =
    Array.isArray(value) &&
    value.length >= 1 &&
    value.length <= MAX_FIELDS &&
    new Set(value).size === value.length &&
    value.every((f) => typeof f === 'string' && FIELD_PATH.test(f));
  return valid
    ? { fields: value as string[] }
    : { problems: [{ parameter: FIELDS_ARGUMENT, message: `must be a list of 1 to ${MAX_FIELDS} distinct dot paths (a.b.c)` }] };
}

/**
 * `body` with its `data` cut to the given paths (each a chain of property names; a list on the way
 * is followed into each of its items); everything else of the body as it was. `unmatched` names
 * the paths that met an object without their next property while meeting none with it (a path
 * naming no field of this answer), so they can be refused; a path through empty lists matches.
 */
export function projectFields(
  body: Record<string, unknown>,
  fields: readonly string[],
): { body: Record<string, unknown>; unmatched: string[] } {
  const unmatched: string[] = [];
  const paths = fields.map((f) => f.split('.'));
  const pick = (node: unknown, tails: string[][]): unknown => {
    if (Array.isArray(node)) return node.map((item) => pick(item, tails));
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    const byHead = new Map<string, string[][]>();
    for (const [head, ...tail] of tails) byHead.set(head!, [...(byHead.get(head!) ?? []), tail]);
    for (const [head, rest] of byHead) {
      if (!(head in (node as Record<string, unknown>))) continue;
      const value = (node as Record<string, unknown>)[head];
      out[head] = rest.some((t) => t.length === 0) ? value : pick(value, rest);
    }
    return out;
  };
  const seen = (node: unknown, path: string[]): 'yes' | 'no' | 'unknown' => {
    if (path.length === 0) return 'yes';
    if (Array.isArray(node)) {
      const answers = node.map((item) => seen(item, path));
      return answers.includes('yes') ? 'yes' : answers.includes('no') ? 'no' : 'unknown';
    }
    if (typeof node !== 'object' || node === null) return 'unknown';
    const [head, ...tail] = path;
    return head! in (node as Record<string, unknown>) ? seen((node as Record<string, unknown>)[head!], tail) : 'no';
  };
  for (const [i, path] of paths.entries()) if (seen(body.data, path) === 'no') unmatched.push(fields[i]!);
  return { body: { ...body, data: pick(body.data, paths) }, unmatched };
}

/** The operations served as tools, in the contract's order: those marked `x-mcp`. */
export function toolOperations(contract: ApiContract): OperationSpec[] {
  const operations = contract.operations.filter((o) => o.facts.mcp);
  for (const operation of operations) {
    // A tool's arguments are a query string: a route with a body or path parameters could not be one.
    if (operation.method !== 'get' || operation.parameters.some((p) => p.in !== 'query')) {
      throw new Error(`${operation.operationId}: x-mcp needs a GET operation whose parameters are all in the query`);
    }
  }
  return operations;
}

export function toolDefinition(operation: OperationSpec, contract: ApiContract): ToolDefinition {
  const parameters = queryParametersOf(operation);
  const required = parameters.filter((p) => p.required).map((p) => p.name);
  const description = [operation.description.trim() || operation.summary, `The result is the JSON body of GET ${operation.path}.`].join(
    '\n\n',
  );
  return {
    name: operation.operationId,
    title: operation.summary,
    description,
    inputSchema: {
      type: 'object',
      properties: {
        ...Object.fromEntries(parameters.map((p) => [p.name, jsonSchemaOf(p.schema, p.description)])),
        [FIELDS_ARGUMENT]: FIELDS_SCHEMA,
      },
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    },
    outputSchema: outputSchemaOf(contract, operation),
    annotations: { title: operation.summary, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

const definitions = new WeakMap<ApiContract, { operations: Map<string, OperationSpec>; tools: ToolDefinition[] }>();

/** The tools of a contract and their operations by tool name, built once per contract. */
export function toolsOf(contract: ApiContract): { operations: Map<string, OperationSpec>; tools: ToolDefinition[] } {
  let found = definitions.get(contract);
  if (found === undefined) {
    const operations = toolOperations(contract);
    found = { operations: new Map(operations.map((o) => [o.operationId, o])), tools: operations.map((o) => toolDefinition(o, contract)) };
    definitions.set(contract, found);
  }
  return found;
}

type Scalar = string | number | boolean;

function textOf(value: Scalar): string {
  return typeof value === 'string' ? value : String(value);
}

const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/**
 * A tool call's arguments as the query string of its route: a string as written, a number in
 * JavaScript's shortest decimal form, a boolean as `true`/`false`, a list comma-separated (as the
 * contract's list parameters are sent). Names are passed as given, so an unknown one is named by
 * the route's own validation. A value no query string can carry (an object, null, a list of lists,
 * a list for a one-value parameter) is a problem named here, before the route is asked.
 */
export function queryStringOf(operation: OperationSpec, args: Record<string, unknown>): { search: string } | { problems: ErrorDetail[] } {
  const lists = new Set(
    queryParametersOf(operation)
      .filter((p) => p.schema.type === 'array')
      .map((p) => p.name),
  );
  const params = new URLSearchParams();
  const problems: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(args)) {
    if (Array.isArray(value)) {
      if (!lists.has(name)) problems.push({ parameter: echoed(name), message: 'takes one value, not a list' });
      else if (!value.every(isScalar)) problems.push({ parameter: name, message: 'must be a list of strings, numbers or booleans' });
      else params.append(name, value.map(textOf).join(','));
    } else if (isScalar(value)) {
      params.append(name, textOf(value));
    } else {
      problems.push({ parameter: echoed(name), message: 'must be a string, a number, a boolean or a list of those' });
    }
  }
  return problems.length > 0 ? { problems } : { search: params.toString() };
}
