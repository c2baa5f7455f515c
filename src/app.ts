/**
 * The HTTP application: express 5 with the contract enforced at the edge. A request under /v1 goes
 * request context → auth and limits → body → parameter names → the operation's validation chain
 * (validator, declared rules between parameters) → a place at the database gate (an account's
 * share of the request pool) → entitlements → its handler, which returns a
 * service's result → the envelope; every error goes through one mapping (middleware/errors.ts).
 *
 * Before all of it, for every route: HEAD is served as GET without the body, and a response of at
 * least config.compressionThresholdBytes is compressed (br or gzip, as the client accepts). A
 * method a route does not have is 405 with the route's methods in Allow.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import compression from 'compression';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { operationMatcher, type ApiContract, type OperationId, type OperationSpec } from './api-contract/openapi.js';
import { checkEntitlements, type AuthenticatedAccount } from './entitlements.js';
import { ApiError } from './errors.js';
import { docsPage } from './docs-page.js';
import { publicOrigin } from './services/public-url.js';
import { explorerPage } from './explorer-page.js';
import type { Handler, HandlerMap } from './handlers/types.js';
import { newRequestId } from './ids.js';
import { authenticate, KeyCache } from './middleware/auth.js';
import { DatabaseGate, databaseGate } from './middleware/database-gate.js';
import { errorMiddleware, sendError } from './middleware/errors.js';
import { mcpEndpoint } from './mcp/endpoint.js';
import { MCP_PATH } from './api-contract/mcp-route.js';
import { streamWithoutUpgrade } from './stream/gateway.js';
import { requestContext } from './middleware/request-context.js';
import { inReadScope } from './db/replicas.js';
import { throwCalendarProblems } from './middleware/parameter-rules.js';
import { checkParameterNames, searchOf, validationFor } from './middleware/validation.js';
import type { ServiceDeps } from './service.js';
import { envelopeOf, envelopeText, metaOf, utf8Bytes } from './services/envelope.js';
import type { FileBody, Result } from './services/types.js';
import { serverTiming, stamp, startStamps, type Stamps } from './stage-timing.js';

export interface AppOptions {
  docsDir?: string;
  /** The built explorer page (scripts/build-explorer.ts), served at /explorer when given. */
  explorerDir?: string;
  /** Connections of this process's request pool (default: config.databasePoolSize): the database gate's places. */
  poolSize?: number;
}

export interface App {
  express: express.Express;
  keys: KeyCache;
  gate: DatabaseGate;
}

/** Streams a stored file (from this machine's disk, or its chunks from the database) with its validators; 304 when the client already holds this version. */
function sendFile(req: Request, res: Response, file: FileBody): void {
  res.setHeader('ETag', file.etag);
  res.setHeader('Content-Disposition', `attachment; filename="${file.downloadName}"`);
  if (req.get('if-none-match') === file.etag) {
    res.status(304).end();
    return;
  }
  res.status(200).setHeader('Content-Type', file.mediaType);
  res.setHeader('Content-Length', String(file.bytes));
  // HEAD: the headers only, without reading the file (from the disk, or its chunks from the database).
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = file.read ? Readable.from(file.read()) : fs.createReadStream(file.path ?? '');
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function sendResult(req: Request, res: Response, deps: ServiceDeps, result: Result<OperationId>): void {
  if (res.locals.timedOut || res.headersSent) return;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  if (result.file) {
    sendFile(req, res, result.file);
    return;
  }
  const status = result.status ?? 200;
  if (result.bare) {
    res.status(status).json(result.data);
    return;
  }
  const requestId = String(res.locals.requestId);
  if (result.metaRequestIdOnly) {
    res.status(status).json(envelopeOf(result, { request_id: requestId }));
    return;
  }
  const meta = metaOf(result, deps.clock(), requestId);
  if (result.dataJson !== undefined && !deps.config.validateResponses) {
    // Written by node's response itself: express's send would only re-derive these headers. (With
    // response validation on, the parsed data is sent, for the validator to read.)
    // Not a spread of `result`: a spread reads every getter, and the feeds' `data` is a getter
    // that parses the page's text (a tenth of a trades request's time, for nothing).
    // Encoded once: Buffer.byteLength of the text and then res.end(text) read a page's 65 kB twice.
    const body = utf8Bytes(envelopeText(result as Result<OperationId> & { dataJson: string }, meta));
    const stages = res.locals.stages as Stamps | undefined;
    if (stages !== undefined) {
      stamp(stages, 'envelope');
      res.setHeader('Server-Timing', serverTiming(stages));
    }
    res.statusCode = status;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.end(body);
    return;
  }
  res.status(status).json(envelopeOf(result, meta));
}

/**
 * HEAD as GET: the route, its checks and its headers are the GET's, and node sends no body (the
 * response was made for a HEAD request, whatever the method says afterwards). The request log and
 * the metrics still say HEAD (request-context.ts).
 */
const headAsGet: RequestHandler = (req, res, next) => {
  if (req.method === 'HEAD') {
    res.locals.head = true;
    req.method = 'GET';
  }
  next();
};

/**
 * Compression of what is worth it: the docs page, the contract and large JSON bodies.
 * Smaller bodies go as they are: bench/trades measures a page compressed and not, in one run
 * (README, Operations). An export file is sent as stored: its strong ETag names those bytes.
 */
function compressLarge(thresholdBytes: number): RequestHandler {
  return compression({
    threshold: thresholdBytes,
    filter: (req, res) => !String(res.getHeader('Content-Disposition') ?? '').startsWith('attachment') && compression.filter(req, res),
  });
}

/** The methods of the routes whose template matches a path (HEAD with GET), for Allow. */
function methodsOf(contract: ApiContract, match: (method: string, path: string) => OperationSpec | null, urlPath: string): string[] {
  const methods = [...new Set(contract.operations.map((o) => o.method.toUpperCase()))].filter((method) => match(method, urlPath) !== null);
  return methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
}

function dispatch(operation: OperationSpec, handler: Handler<OperationId>, deps: ServiceDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const account = (res.locals.account as AuthenticatedAccount | undefined) ?? null;
    const query = (req.query ?? {}) as Record<string, unknown>;
    checkEntitlements(operation, account, query);
    throwCalendarProblems(res);
    const stages = res.locals.stages as Stamps | undefined;
    stamp(stages, 'entitlements');
    const pathParams = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams ?? {};
    const call = () =>
      handler({
        query: query,
        params: pathParams as never,
        body: req.body as never,
        operation,
        account,
        requestId: String(res.locals.requestId),
        now: Number(res.locals.receivedAt),
        deps,
        link: { path: req.path, search: searchOf(req.originalUrl) },
        headers: req.headers as Record<string, string | undefined>,
        ...(stages === undefined ? {} : { stamp: (stage: string) => stamp(stages, stage) }),
      });
    // With read replicas, a request's reads may go to one by the floor rule of db/replicas.ts (one
    // scope per request); without, no scope is opened (AsyncLocalStorage is not paid for).
    const result = await (deps.replicas ? inReadScope(call) : call());
    stamp(stages, 'result');
    sendResult(req, res, deps, result);
  };
}

export function createApp(deps: ServiceDeps, handlers: HandlerMap, options: AppOptions = {}): App {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  const keys = new KeyCache(deps.db, deps.config.authCacheTtlMs);
  const gate = new DatabaseGate(options.poolSize ?? deps.config.databasePoolSize, deps.config.databaseWaitMs);
  const match = operationMatcher(deps.apiContract);

  // STAGE_TIMING: the request's stamps start here, and a stamp follows each middleware below.
  const timing = deps.config.stageTiming;
  const stampAs =
    (stage: string): RequestHandler =>
    (_req, res, next) => {
      stamp(res.locals.stages as Stamps | undefined, stage);
      next();
    };
  if (timing)
    app.use((_req, res, next) => {
      res.locals.stages = startStamps();
      next();
    });
  app.use(headAsGet);
  app.use(compressLarge(deps.config.compressionThresholdBytes));
  if (options.docsDir) {
    const servers = deps.apiContract.document.servers as { url: string }[] | undefined;
    const from = servers?.[0]?.url;
    app.use(
      '/docs',
      docsPage(
        options.docsDir,
        from ? { from, originOf: (req) => publicOrigin(deps.config, req.headers as Record<string, string | undefined>) } : undefined,
      ),
    );
  }
  if (options.explorerDir) app.use('/explorer', explorerPage(options.explorerDir));
  app.get('/', (_req, res) => res.redirect(302, '/docs/'));

  const api = express.Router();
  api.use((req, _res, next) => (req.path === '/v1' || req.path.startsWith('/v1/') ? next() : next('router')));
  api.use(
    requestContext({
      logger: deps.logger,
      metrics: deps.metrics,
      requestLog: deps.requestLog,
      timeoutMs: deps.config.limits.endpointTimeoutMs,
      clock: deps.clock,
      matchOperation: match,
    }),
  );
  if (timing) api.use(stampAs('context'));
  // GET /v1/stream without the WebSocket upgrade: 426 (the upgrade itself is stream/gateway.ts's).
  api.use(streamWithoutUpgrade());
  api.use(authenticate({ config: deps.config, limiter: deps.limiter, keys, clock: deps.clock, metrics: deps.metrics }));
  if (timing) api.use(stampAs('limiter'));
  const parseJson = express.json({ limit: '64kb', strict: true, type: 'application/json' });
  api.use((req, res, next) => (req.method === 'POST' ? parseJson(req, res, next) : next()));
  api.use(checkParameterNames);
  if (timing) api.use(stampAs('names'));

  // The operation was matched once, in requestContext; each has its own router.
  const routers = new Map(
    deps.apiContract.operations.map((operation) => {
      const router = express.Router();
      router.use(validationFor(deps, operation));
      if (timing) router.use(stampAs('validation'));
      router.use(databaseGate(gate, deps.metrics));
      if (timing) router.use(stampAs('gate'));
      router.use(dispatch(operation, handlers[operation.operationId] as Handler<OperationId>, deps));
      return [operation, router] as const;
    }),
  );
  // MCP (src/mcp): authenticated and counted above; a tool call runs its operation's router.
  api.all(MCP_PATH, mcpEndpoint({ deps, routerOf: (operation) => routers.get(operation) }));
  api.use((req, res, next) => {
    const operation = res.locals.operation as OperationSpec | null;
    const router = operation ? routers.get(operation) : undefined;
    if (!router) {
      const allowed = methodsOf(deps.apiContract, match, req.path);
      if (allowed.length === 0) {
        sendError(res, new ApiError(404, 'not_found', 'No such route.'));
        return;
      }
      res.setHeader('Allow', allowed.join(', '));
      sendError(res, new ApiError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}.`));
      return;
    }
    router(req, res, next);
  });
  api.use(errorMiddleware(deps.logger));
  app.use(api);
  app.use((_req, res) => {
    res.locals.requestId = newRequestId(deps.clock());
    res.setHeader('X-Request-Id', String(res.locals.requestId));
    sendError(res, new ApiError(404, 'not_found', 'No such route: the API lives under /v1 and its documentation at /docs.'));
  });
  return { express: app, keys, gate };
}
