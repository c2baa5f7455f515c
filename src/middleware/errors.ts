/**
 * One mapping to the error body. Services throw `ApiError` (src/errors.ts); validator errors,
 * express.json()'s errors, a lost database and anything unexpected are turned into the same body
 * here. A lost or full database (db-server/unavailable.ts) is 503 upstream_busy with Retry-After: the same request
 * succeeds once it is back. Unknown errors become a plain 500 and are logged with the request id,
 * never echoed. (The errors node's HTTP server answers before express, such as 431, get the same
 * body from client-errors.ts.)
 */
import type { ErrorRequestHandler, Response } from 'express';
import type { components } from '../../generated/openapi.js';
import { DATABASE_RETRY_AFTER_MS, databaseCannotServe } from '../db-server/unavailable.js';
import { ApiError, invalidParameters, type ErrorDetail } from '../errors.js';
import { echoed } from '../formats.js';
import type { Logger } from '../logging.js';

type ErrorBody = components['schemas']['ErrorResponse'];

/**
 * Longest message sent: a message is a sentence, and one that echoes a user-given text (a path)
 * must not carry kilobytes of it back. (A user-given name in the details is cut where it is
 * named: formats.ts echoed.)
 */
const MESSAGE_MAX = 256;

/** The error body of an ApiError. */
export function errorBody(error: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message.length <= MESSAGE_MAX ? error.message : `${error.message.slice(0, MESSAGE_MAX - 1)}…`,
      status: error.status,
      request_id: requestId,
      details: error.details,
      retry_after_ms: error.retryAfterMs ?? (error.status === 429 || error.status === 503 ? 1000 : null),
    },
  };
}

/**
 * Writes the error body, with Retry-After on 429 and 503; nothing once the response has been
 * answered (the route deadline's 504 came first).
 */
export function sendError(res: Response, error: ApiError): void {
  if (res.headersSent) return;
  // For what reads the answer once it is sent (auth.ts: whether the service could serve it).
  res.locals.errorCode = error.code;
  const requestId = String(res.locals.requestId ?? '');
  if (error.retryAfterMs !== null) {
    res.setHeader('Retry-After', String(Math.max(0, Math.ceil(error.retryAfterMs / 1000))));
  } else if (error.status === 429 || error.status === 503) {
    res.setHeader('Retry-After', '1');
  }
  res.status(error.status).json(errorBody(error, requestId));
}

interface ValidatorError {
  status: number;
  message?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
}

function isValidatorError(err: unknown): err is ValidatorError {
  return typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number' && 'errors' in err;
}

/** The API's own routes: a validator error whose path is one of them is about the request's URL path. */
const ROUTE_PREFIX = '/v1/';

/**
 * `/query/limit` or `.query.limit` → `limit`; body paths keep their `body.` prefix; the request's
 * URL path itself (a malformed percent-encoding, which the validator reports with the URL as its
 * path) → `path`.
 */
function parameterName(path: string | undefined): string {
  if (!path) return 'request';
  if (path.startsWith(ROUTE_PREFIX)) return 'path';
  const parts = path
    .replace(/^[./]+/, '')
    .split(/[./]/)
    .filter(Boolean);
  const [location, ...rest] = parts;
  if (location === 'query' || location === 'params' || location === 'path' || location === 'headers') {
    return rest.length > 0 ? (rest[0] ?? 'request') : 'request';
  }
  if (location === 'body') return rest.length > 0 ? `body.${rest.join('.')}` : 'body';
  return parts.join('.') || 'request';
}

/** A validator finding's message; its URI decoder's ("malformed uri'", a stray quote included) said plainly. */
function validatorMessage(message: string | undefined): string {
  if (message === undefined) return 'is invalid';
  return message.startsWith('malformed uri') ? 'malformed percent-encoding' : message;
}

/**
 * The errors of express.json() (body-parser), by their `type`. An unsupported charset or content
 * encoding is 415 there; createExport declares no 415, so it is 400 invalid_body like a body of
 * another content type (the validator's 415 above).
 */
const BODY_ERRORS = new Map<unknown, { sentence: string; detail: string }>([
  ['entity.parse.failed', { sentence: 'The request body is not valid JSON.', detail: 'malformed JSON' }],
  ['entity.too.large', { sentence: 'The request body is too large.', detail: 'too large' }],
  ['charset.unsupported', { sentence: 'The body must be JSON in UTF-8.', detail: 'unsupported charset' }],
  ['encoding.unsupported', { sentence: "The body's content encoding is not supported.", detail: 'unsupported content encoding' }],
  ['request.size.invalid', { sentence: 'The request body does not match its Content-Length.', detail: 'length mismatch' }],
  ['request.aborted', { sentence: 'The request body was not sent whole.', detail: 'aborted' }],
]);

/** The answer to a request that met a lost database: nothing of the driver's error is sent. */
function databaseUnavailableError(): ApiError {
  return new ApiError(503, 'upstream_busy', 'The database is temporarily unavailable; retry shortly.', [], DATABASE_RETRY_AFTER_MS);
}

export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (isValidatorError(err)) {
    if (err.status === 404) return new ApiError(404, 'not_found', 'No such route.');
    if (err.status === 405) return new ApiError(405, 'method_not_allowed', 'Method not allowed on this route.');
    if (err.status === 415)
      return new ApiError(400, 'invalid_body', 'The body must be application/json.', [
        { parameter: 'body', message: 'unsupported content type' },
      ]);
    if (err.status === 400) {
      const errors = err.errors ?? [];
      // A value that matches no branch of an anyOf is one finding, not one per branch tried.
      // A name of the body's own (an unknown member) is echoed cut.
      const anyOf = new Set(errors.filter((e) => e.errorCode === 'anyOf.openapi.validation').map((e) => echoed(parameterName(e.path))));
      const details = errors
        .map((e) => ({ parameter: echoed(parameterName(e.path)), message: validatorMessage(e.message), errorCode: e.errorCode }))
        .filter((d) => !anyOf.has(d.parameter) || d.errorCode === 'anyOf.openapi.validation')
        .map(({ parameter, message }) => ({ parameter, message }));
      const onBody = details.length > 0 && details.every((d) => d.parameter.startsWith('body'));
      return onBody
        ? new ApiError(400, 'invalid_body', 'The request body is invalid.', details)
        : invalidParameters(details.length > 0 ? details : [{ parameter: 'request', message: err.message ?? 'invalid' }]);
    }
    return null;
  }
  const bodyError = typeof err === 'object' && err !== null ? BODY_ERRORS.get((err as { type?: unknown }).type) : undefined;
  if (bodyError) return new ApiError(400, 'invalid_body', bodyError.sentence, [{ parameter: 'body', message: bodyError.detail }]);
  // After the body's errors: body-parser's aborted request carries ECONNABORTED too.
  if (databaseCannotServe(err)) return databaseUnavailableError();
  return null;
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    let mapped = toApiError(err);
    const earlier = res.locals.parameterProblems as ErrorDetail[] | undefined;
    if (mapped?.code === 'invalid_parameter' && earlier && mapped.details !== earlier) {
      // A parameter named already (a number not in plain decimal) is not named again by what the
      // validator made of its coerced value.
      const named = new Set(earlier.map((d) => d.parameter));
      mapped = invalidParameters([...earlier, ...mapped.details.filter((d) => !named.has(d.parameter))]);
    }
    if (mapped) {
      sendError(res, mapped);
      return;
    }
    logger.error('unhandled error', {
      request_id: res.locals.requestId,
      route: req.path,
      error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
    });
    sendError(res, new ApiError(500, 'internal_error', 'Internal error. Quote the request id to support.'));
  };
}
