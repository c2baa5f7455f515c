/**
 * The MCP tools, read from the contract: one per operation marked `x-mcp`, named by its
 * operationId (the catalog's `id`), so the catalog's `mcp` flag and the tool list are one list. A
 * tool's input schema is the operation's query parameters as JSON Schema (their types, enums,
 * bounds, defaults and descriptions); its arguments become the route's query string, which the
 * route then validates as it validates any request (same rules, same 400 naming each parameter).
 */
import type { ApiContract, OperationSpec, ParameterSpec } from '../api-contract/openapi.js';
import type { ErrorDetail } from '../errors.js';
import { echoed } from '../formats.js';

type Schema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Schema>; required?: string[]; additionalProperties: false };
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

export function toolDefinition(operation: OperationSpec): ToolDefinition {
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
    annotations: { title: operation.summary, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

const definitions = new WeakMap<ApiContract, { operations: Map<string, OperationSpec>; tools: ToolDefinition[] }>();

/** The tools of a contract and their operations by tool name, built once per contract. */
export function toolsOf(contract: ApiContract): { operations: Map<string, OperationSpec>; tools: ToolDefinition[] } {
  let found = definitions.get(contract);
  if (found === undefined) {
    const operations = toolOperations(contract);
    found = { operations: new Map(operations.map((o) => [o.operationId, o])), tools: operations.map(toolDefinition) };
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
