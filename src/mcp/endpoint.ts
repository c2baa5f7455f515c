/**
 * MCP over Streamable HTTP at POST /v1/mcp, stateless: each HTTP request carries one JSON-RPC
 * message and gets a server of its own, answering in plain JSON (no session, no SSE stream), so any
 * worker of a cluster can answer any request. The request has passed through the /v1 chain before
 * it reaches this handler: its request id, its one request-log entry, the Bearer key and the rate
 * limits (an MCP request counts once, as any /v1 request; a refused one is an HTTP 401 or 429).
 *
 * A tool call (and a resource read) then runs its route in-process (inject.ts) from the point after
 * authentication: the parameter names, the operation's validator and rules, the database gate,
 * entitlements, the handler and the error mapping, the very middleware a REST request meets. It
 * does not pass the context or auth middleware again, so it is neither counted nor logged a second
 * time; the request's log entry takes the status the route answered (a tool error travels in an
 * HTTP 200, yet a 400 should count as a client error in the usage). A route's error answer is a
 * tool error whose content is the API's error body (code, message, details).
 *
 * The low-level `Server` of the SDK is used rather than `McpServer`: the input schemas are JSON
 * Schema read from the contract, and the arguments must reach the route's own validation
 * unchanged, not a second validator with other messages.
 */
import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler, type Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { OperationId, OperationSpec } from '../api-contract/openapi.js';
import { ApiError, invalidParameters, type ErrorDetail } from '../errors.js';
import { echoed } from '../formats.js';
import { errorBody, errorMiddleware, sendError } from '../middleware/errors.js';
import { checkParameterNames } from '../middleware/validation.js';
import type { ServiceDeps } from '../service.js';
import { injectGet, type InjectedAnswer } from './inject.js';
import { MCP_PATH } from '../api-contract/mcp-route.js';
import { FIELDS_ARGUMENT, fieldsOf, projectFields, queryStringOf, toolsOf } from './tools.js';

export interface McpEndpointOptions {
  deps: ServiceDeps;
  /** An operation's own middleware (validation, database gate, handler), as app.ts serves it. */
  routerOf: (operation: OperationSpec) => RequestHandler | undefined;
}

/** What the authenticated MCP request hands to the route it runs: what context and auth set. */
interface CallContext {
  locals: Record<string, unknown>;
  operation: OperationSpec;
}

/** The res.locals the context and auth middleware set, which the route's own middleware reads. */
const CALL_LOCALS = ['requestId', 'receivedAt', 'account', 'accountId', 'keyId', 'network'] as const;

/** The request headers that say which origin the service was reached at, handed to the route run. */
const ORIGIN_HEADERS = ['host', 'x-forwarded-host', 'x-forwarded-proto'] as const;

const RESOURCE_NOT_FOUND = -32002;

const RESOURCES: readonly (Resource & { operationId: OperationId })[] = [
  {
    uri: 'oads://catalog',
    name: 'catalog',
    title: 'Endpoint catalog',
    description:
      'The body of GET /v1/catalog: every route with its parameters, dataset, pagination, and whether it is an MCP tool (mcp) or streamable.',
    mimeType: 'application/json',
    operationId: 'listCatalog',
  },
  {
    uri: 'oads://openapi.json',
    name: 'contract',
    title: 'OpenAPI contract',
    description: 'The body of GET /v1/openapi.json: the OpenAPI 3.1 contract of every route, its parameters, responses and error codes.',
    mimeType: 'application/json',
    operationId: 'getOpenApiDocument',
  },
];

const INSTRUCTIONS = [
  "Read-only US options market data. Each tool is one route of the REST API (its name is the route's id in the catalog) and returns that route's JSON body: {data, meta, pagination?}.",
  'A paginated tool returns pagination.next_cursor_id: call the same tool with the same arguments and cursor_id set to it for the next page.',
  "Every tool takes `fields` besides the route's parameters: dot paths of the data to keep (['expirations.date_of_expiry'], ['id', 'premium']) for a shorter answer.",
  'A refused call is a tool error whose text is the API error body {"error": {code, message, status, details, retry_after_ms}}; details name each bad parameter.',
  "Every MCP request counts against the account's rate limits like a REST request.",
].join('\n');

/** The HTTP request's own JSON-RPC error (the transport answers its other refusals the same way). */
function sendJsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** The headers the transport reads, as a web Request carries them. */
function webRequestOf(req: express.Request): Request {
  const headers = new Headers();
  for (const name of ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']) {
    const value = req.get(name);
    if (value !== undefined) headers.set(name, value);
  }
  return new Request(`http://localhost${MCP_PATH}`, { method: 'POST', headers });
}

function parsed(answer: InjectedAnswer): Record<string, unknown> {
  return JSON.parse(answer.body) as Record<string, unknown>;
}

/** Runs an operation's route for the MCP request answered on `res`, with `search` as its query string. */
type RouteRun = (res: Response, operation: OperationSpec, search: string) => Promise<InjectedAnswer>;

export function mcpEndpoint(options: McpEndpointOptions): RequestHandler {
  const { deps, routerOf } = options;
  const { tools, operations } = toolsOf(deps.apiContract);
  const run = routeRunner(deps, routerOf);
  const serverFor = (res: Response): Server => {
    // Low-level Server (see the header): JSON Schema input schemas, arguments passed on unchanged.
    const server = new Server(
      { name: 'options-analytics-data-service', version: deps.config.version },
      { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
    server.setRequestHandler(
      CallToolRequestSchema,
      async (request) => await callTool(run, operations, res, request.params.name, request.params.arguments ?? {}),
    );
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: RESOURCES.map(({ operationId: _operationId, ...resource }) => resource),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => await readResource(run, deps, res, request.params.uri));
    return server;
  };

  return async (req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      sendError(
        res,
        new ApiError(
          405,
          'method_not_allowed',
          `${req.method} is not allowed on ${MCP_PATH}: send each MCP message as a POST (Streamable HTTP, stateless, JSON answers).`,
        ),
      );
      return;
    }
    // One message per request, so that every MCP request (each tool call) counts once.
    if (Array.isArray(req.body)) {
      sendJsonRpcError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: send one JSON-RPC message per request, not a batch.');
      return;
    }
    // The SDK's own check of a call's params answers any failure -32603 Internal error; arguments
    // that are not an object are the caller's params: -32602 Invalid params, with the call's id.
    const message = req.body as { method?: unknown; id?: unknown; params?: { arguments?: unknown } } | null;
    const args = message?.method === 'tools/call' ? message.params?.arguments : undefined;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      const id = typeof message?.id === 'string' || typeof message?.id === 'number' ? message.id : null;
      res
        .status(200)
        .json({ jsonrpc: '2.0', error: { code: ErrorCode.InvalidParams, message: 'Invalid params: arguments must be an object.' }, id });
      return;
    }
    await answerMessage(serverFor(res), req, res);
  };
}

/**
 * The route's middleware after auth, as app.ts runs it, in an application of its own: the
 * request's context comes from the MCP request (calls), never from anything a client sent.
 */
function routeRunner(deps: ServiceDeps, routerOf: McpEndpointOptions['routerOf']): RouteRun {
  const calls = new WeakMap<IncomingMessage, CallContext>();
  const routes = express();
  routes.disable('x-powered-by');
  routes.set('etag', false);
  routes.set('query parser', 'simple');
  routes.use((req, res, next) => {
    const call = calls.get(req);
    if (!call) throw new Error('a request reached the MCP routes without its call context');
    Object.assign(res.locals, call.locals, { operation: call.operation });
    next();
  });
  routes.use(checkParameterNames);
  routes.use((req, res, next) => {
    const router = routerOf(res.locals.operation as OperationSpec);
    if (!router) throw new Error(`no route for ${(res.locals.operation as OperationSpec).operationId}`);
    router(req, res, next);
  });
  routes.use(errorMiddleware(deps.logger));

  return async (res, operation, search) => {
    const abandoned = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const url = search === '' ? operation.path : `${operation.path}?${search}`;
    const locals = Object.fromEntries(CALL_LOCALS.map((name) => [name, res.locals[name] as unknown]));
    const outer = res.req.headers;
    const prepare = (req: IncomingMessage): void => {
      // The documents a route serves name the origin the MCP request reached (services/public-url.ts).
      for (const name of ORIGIN_HEADERS) {
        const value = outer[name];
        if (typeof value === 'string') req.headers[name] = value;
      }
      calls.set(req, { locals, operation });
    };
    const answer = await injectGet(routes, url, prepare, abandoned);
    if (answer === null) throw new McpError(ErrorCode.InternalError, 'The request ended before the route answered.');
    if (!res.headersSent) res.locals.outcomeStatus = answer.status;
    return answer;
  };
}

/** A tool call: its route's answer, a tool error when not 200; arguments that make no query string are refused as the route would. */
async function callTool(
  run: RouteRun,
  operations: ReadonlyMap<string, OperationSpec>,
  res: Response,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const operation = operations.get(name);
  if (!operation) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${echoed(name)}`);
  // `fields` is the tool's own argument (tools.ts projectFields), not a parameter of the route.
  const { [FIELDS_ARGUMENT]: fieldsArgument, ...routeArgs } = args;
  const fields = fieldsArgument === undefined ? { fields: null } : fieldsOf(fieldsArgument);
  const query = queryStringOf(operation, routeArgs);
  const refuse = (problems: ErrorDetail[]): InjectedAnswer => {
    const error = invalidParameters(problems);
    res.locals.outcomeStatus = error.status;
    return { status: error.status, body: JSON.stringify(errorBody(error, String(res.locals.requestId))) };
  };
  let answer: InjectedAnswer;
  if ('problems' in query || 'problems' in fields) {
    answer = refuse([...('problems' in query ? query.problems : []), ...('problems' in fields ? fields.problems : [])]);
  } else {
    answer = await run(res, operation, query.search);
    if (answer.status === 200 && fields.fields !== null) {
      const projected = projectFields(parsed(answer), fields.fields);
      answer =
        projected.unmatched.length > 0
          ? refuse(projected.unmatched.map((f) => ({ parameter: FIELDS_ARGUMENT, message: `${f} names no field of this answer's data` })))
          : { status: 200, body: JSON.stringify(projected.body) };
    }
  }
  const body = parsed(answer);
  const result: CallToolResult = { content: [{ type: 'text', text: answer.body }], structuredContent: body };
  return answer.status === 200 ? result : { ...result, isError: true };
}

/** A resource read: its route's body, or the route's error as an MCP error. */
async function readResource(run: RouteRun, deps: ServiceDeps, res: Response, uri: string): Promise<ReadResourceResult> {
  const resource = RESOURCES.find((r) => r.uri === uri);
  const operation = resource ? deps.apiContract.byId.get(resource.operationId) : undefined;
  if (!resource || !operation) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${echoed(uri)}`);
  const answer = await run(res, operation, '');
  if (answer.status !== 200) {
    const body = parsed(answer) as { error: { code: string; message: string } };
    throw new McpError(ErrorCode.InternalError, `${body.error.code}: ${body.error.message}`, body);
  }
  return { contents: [{ uri, mimeType: 'application/json', text: answer.body }] };
}

/** Hands the request's one message to `server` through a stateless transport, and writes its answer to `res`. */
async function answerMessage(server: Server, req: express.Request, res: Response): Promise<void> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    // express.json() has read a JSON body already; any other body is the transport's 415.
    const response = await transport.handleRequest(webRequestOf(req), req.body === undefined ? {} : { parsedBody: req.body });
    const text = await response.text();
    // The deadline may have answered 504 meanwhile.
    if (res.headersSent) return;
    res.status(response.status);
    response.headers.forEach((value, name) => res.setHeader(name, value));
    if (text === '') {
      res.end();
      return;
    }
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  } finally {
    await server.close();
  }
}
