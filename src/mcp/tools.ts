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
      properties: Object.fromEntries(parameters.map((p) => [p.name, jsonSchemaOf(p.schema, p.description)])),
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
