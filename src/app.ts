/**
 * The HTTP application: express 5 with express-openapi-validator enforcing the contract.
 * Order: request context → auth and limits → body → repeated-parameter check → validator →
 * entitlements → handler → error mapping.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { operationMatcher, withParametersInline, type OperationId, type OperationSpec } from './contract.js';
import { handlers as defaultHandlers, PENDING_OPERATIONS } from './handlers/index.js';
import type { FileBody, Handler, HandlerMap, HandlerResult } from './handlers/types.js';
import { authenticate, checkEntitlements, KeyCache, type AuthenticatedAccount } from './middleware/auth.js';
import { ApiError, invalidParameters, type ErrorDetail } from './errors.js';
import { errorMiddleware, sendError } from './middleware/errors.js';
import { newRequestId, requestContext } from './middleware/request-context.js';
import { hasAtMostThreeDecimals, isCalendarDate } from './middleware/query-validation.js';
import { memoiseValidatorRouteRegexps } from './middleware/route-regexp-cache.js';
import type { ServiceDeps } from './service.js';

export interface AppOptions {
  /** Replace handlers (tests): for example one that sleeps, to test the time-out. */
  handlers?: HandlerMap;
  docsDir?: string;
}

export interface App {
  express: express.Express;
  keys: KeyCache;
}

/**
 * Names every parameter that is given twice or not in the contract. Repeated ones stop the request
 * here; unknown ones are kept so the validator's findings can be added to them (one 400 naming every
 * bad parameter).
 */
const checkParameterNames: RequestHandler = (req, res, next) => {
  const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
  const operation = res.locals.operation as OperationSpec | null;
  if (search === '' || !operation) {
    next();
    return;
  }
  const known = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const seen = new Set<string>();
  const repeated = new Set<string>();
  const unknown = new Set<string>();
  for (const name of new URLSearchParams(search).keys()) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
    if (!known.has(name)) unknown.add(name);
  }
  const problems = [
    ...[...repeated].map((parameter) => ({ parameter, message: 'given more than once' })),
    ...[...unknown].filter((p) => !repeated.has(p)).map((parameter) => ({ parameter, message: 'unknown parameter' })),
  ];
  if (repeated.size > 0) {
    next(invalidParameters(problems));
    return;
  }
  if (problems.length > 0) res.locals.parameterProblems = problems;
  next();
};

const rejectUnknownParameters: RequestHandler = (_req, res, next) => {
  const problems = res.locals.parameterProblems as ErrorDetail[] | undefined;
  next(problems ? invalidParameters(problems) : undefined);
};

/** express-openapi-validator for one operation of the contract (request, and in tests response, validation). */
function validatorFor(deps: ServiceDeps, operation: OperationSpec): RequestHandler[] {
  const document = deps.contract.document as { paths: Record<string, Record<string, Record<string, unknown>>> };
  const spec = document.paths[operation.path]?.[operation.method] ?? {};
  const single = { ...document, paths: { [operation.path]: { [operation.method]: withParametersInline(document, spec) } } };
  return OpenApiValidator.middleware({
    apiSpec: single as never,
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: true, removeAdditional: false, allErrors: true },
    validateResponses: deps.config.validateResponses ? { removeAdditional: false, coerceTypes: false } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    formats: {
      // A real calendar date (ajv's fast mode accepts 2030-06-31).
      date: { type: 'string', validate: isCalendarDate },
      strike: { type: 'number', validate: hasAtMostThreeDecimals },
    },
  });
}

/** Streams a stored file with its validators; 304 when the client already holds this version. */
function sendFile(req: Request, res: Response, file: FileBody): void {
  res.setHeader('ETag', file.etag);
  res.setHeader('Content-Disposition', `attachment; filename="${file.downloadName}"`);
  if (req.get('if-none-match') === file.etag) {
    res.status(304).end();
    return;
  }
  res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(file.bytes));
  const stream = fs.createReadStream(file.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function sendResult(req: Request, res: Response, deps: ServiceDeps, result: HandlerResult<OperationId>): void {
  if (res.locals.timedOut || res.headersSent) return;
  for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
  if (result.file) {
    sendFile(req, res, result.file);
    return;
  }
  const requestId = String(res.locals.requestId);
  if (result.dataJson !== undefined && !deps.config.validateResponses) {
    // The print feeds hand over their rows as stored JSON text: written into the envelope as is,
    // never decoded and encoded again. (With response validation on, the parsed data is sent.)
    const meta = { as_of: deps.clock(), coverage: { complete: true, ...result.coverage }, delay_ms: 0, delayed: false, request_id: requestId, source: result.source ?? 'derived' };
    const tail = result.pagination ? `,"pagination":${JSON.stringify(result.pagination)}` : '';
    // Written by node's response itself: express's send would only re-derive these headers.
    const text = `{"data":${result.dataJson},"meta":${JSON.stringify(meta)}${tail}}`;
    res.statusCode = result.status ?? 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
    return;
  }
  if (result.bare) {
    res.status(result.status ?? 200).json(result.data);
    return;
  }
  if (result.metaRequestIdOnly) {
    res.status(result.status ?? 200).json({ data: result.data, meta: { request_id: requestId } });
    return;
  }
  const body: Record<string, unknown> = {
    data: result.data,
    meta: {
      as_of: deps.clock(),
      coverage: { complete: true, ...result.coverage },
      delay_ms: 0,
      delayed: false,
      request_id: requestId,
      source: result.source ?? 'derived',
    },
  };
  if (result.pagination) body.pagination = result.pagination;
  res.status(result.status ?? 200).json(body);
}

function dispatch(operation: OperationSpec, handler: Handler<OperationId> | undefined, deps: ServiceDeps): RequestHandler {
  return async (req: Request, res: Response) => {
    const account = (res.locals.account as AuthenticatedAccount | undefined) ?? null;
    const query = (req.query ?? {}) as Record<string, unknown>;
    const pathParams = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams ?? {};
    checkEntitlements(operation, account, query);
    if (!handler) {
      throw new ApiError(501, 'not_implemented', `${operation.path} is specified but not served yet.`);
    }
    const result = await handler({
      query: query,
      params: pathParams as never,
      body: req.body as never,
      account,
      requestId: String(res.locals.requestId),
      now: Number(res.locals.receivedAt),
      deps,
      link: { path: req.path, search: req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '' },
      headers: req.headers as Record<string, string | undefined>,
    });
    sendResult(req, res, deps, result);
  };
}

export function createApp(deps: ServiceDeps, options: AppOptions = {}): App {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  memoiseValidatorRouteRegexps();
  const keys = new KeyCache(deps.db, deps.config.authCacheTtlMs);
  const match = operationMatcher(deps.contract);

  if (options.docsDir) {
    app.use('/docs', express.static(path.resolve(options.docsDir), { index: 'index.html' }));
  }
  app.get('/', (_req, res) => res.redirect(302, '/docs/'));

  const api = express.Router();
  api.use((req, _res, next) => (req.path === '/v1' || req.path.startsWith('/v1/') ? next() : next('router')));
  api.use(requestContext({ logger: deps.logger, requestLog: deps.requestLog, timeoutMs: deps.config.limits.endpointTimeoutMs, clock: deps.clock, matchOperation: match }));
  api.use(authenticate({ config: deps.config, limiter: deps.limiter, keys, clock: deps.clock }));
  const parseJson = express.json({ limit: '64kb', strict: true, type: 'application/json' });
  api.use((req, res, next) => (req.method === 'POST' ? parseJson(req, res, next) : next()));
  api.use(checkParameterNames);

  // The operation was matched once, in requestContext. Each operation gets its own validator,
  // built from a copy of the contract holding only that operation: express-openapi-validator then
  // has one route to find instead of compiling and trying every route of the contract per request.
  const handlers: HandlerMap = { ...defaultHandlers, ...options.handlers };
  const routers = new Map(
    deps.contract.operations.map((operation) => {
      const handler = PENDING_OPERATIONS.has(operation.operationId) && !options.handlers?.[operation.operationId] ? undefined : handlers[operation.operationId];
      const router = express.Router();
      router.use(validatorFor(deps, operation));
      router.use(rejectUnknownParameters);
      router.use(dispatch(operation, handler, deps));
      return [operation, router] as const;
    }),
  );
  api.use((req, res, next) => {
    const operation = res.locals.operation as OperationSpec | null;
    const router = operation ? routers.get(operation) : undefined;
    if (!router) {
      const otherMethod = match('GET', req.path) ?? match('POST', req.path);
      sendError(res, otherMethod ? new ApiError(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}.`) : new ApiError(404, 'not_found', 'No such route.'));
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
  return { express: app, keys };
}
