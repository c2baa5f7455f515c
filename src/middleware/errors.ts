/**
 * One mapping to the error body. Services throw `ApiError` (src/errors.ts); validator errors and
 * anything unexpected are turned into the same body here. Unknown errors become a plain 500 and are
 * logged with the request id, never echoed.
 */
import type { ErrorRequestHandler, Response } from 'express';
import type { components } from '../../generated/openapi.js';
import { ApiError, invalidParameters, type ErrorDetail } from '../errors.js';

type ErrorBody = components['schemas']['Error'];
import type { Logger } from '../logging.js';

/** Writes the error body, with Retry-After on 429 and 503. */
export function sendError(res: Response, error: ApiError): void {
  const requestId = String(res.locals.requestId ?? '');
  if (error.retryAfterMs !== null) {
    res.setHeader('Retry-After', String(Math.max(0, Math.ceil(error.retryAfterMs / 1000))));
  } else if (error.status === 429 || error.status === 503) {
    res.setHeader('Retry-After', '1');
  }
  const body: ErrorBody = {
    error: {
      code: error.code,
      message: error.message,
      status: error.status,
      request_id: requestId,
      details: error.details,
      retry_after_ms: error.retryAfterMs ?? (error.status === 429 || error.status === 503 ? 1000 : null),
    },
  };
  res.status(error.status).json(body);
}

interface ValidatorError {
  status: number;
  message?: string;
  errors?: { path?: string; message?: string; errorCode?: string }[];
}

function isValidatorError(err: unknown): err is ValidatorError {
  return typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number' && 'errors' in err;
}

/** `/query/limit` or `.query.limit` → `limit`; body paths keep their `body.` prefix. */
function parameterName(path: string | undefined): string {
  if (!path) return 'request';
  const parts = path.replace(/^[./]+/, '').split(/[./]/).filter(Boolean);
  const [location, ...rest] = parts;
  if (location === 'query' || location === 'params' || location === 'path' || location === 'headers') {
    return rest.length > 0 ? (rest[0] ?? 'request') : 'request';
  }
  if (location === 'body') return rest.length > 0 ? `body.${rest.join('.')}` : 'body';
  return parts.join('.') || 'request';
}

export function toApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  if (isValidatorError(err)) {
    if (err.status === 404) return new ApiError(404, 'not_found', 'No such route.');
    if (err.status === 405) return new ApiError(405, 'method_not_allowed', 'Method not allowed on this route.');
    if (err.status === 415) return new ApiError(400, 'invalid_body', 'The body must be application/json.', [{ parameter: 'body', message: 'unsupported content type' }]);
    if (err.status === 400) {
      const details = (err.errors ?? []).map((e) => ({ parameter: parameterName(e.path), message: (e.message ?? 'is invalid').replace(/^must/, 'must') }));
      const onBody = details.length > 0 && details.every((d) => d.parameter.startsWith('body'));
      return onBody
        ? new ApiError(400, 'invalid_body', 'The request body is invalid.', details)
        : invalidParameters(details.length > 0 ? details : [{ parameter: 'request', message: err.message ?? 'invalid' }]);
    }
    return null;
  }
  // express.json() parse failures
  if (typeof err === 'object' && err !== null && (err as { type?: string }).type === 'entity.parse.failed') {
    return new ApiError(400, 'invalid_body', 'The request body is not valid JSON.', [{ parameter: 'body', message: 'malformed JSON' }]);
  }
  if (typeof err === 'object' && err !== null && (err as { type?: string }).type === 'entity.too.large') {
    return new ApiError(400, 'invalid_body', 'The request body is too large.', [{ parameter: 'body', message: 'too large' }]);
  }
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
      mapped = invalidParameters([...earlier, ...mapped.details]);
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
