/**
 * First in the chain: the request id (header and meta), the route template, the 20-second deadline,
 * and on finish one structured log line (request id, method, route, status, duration, account and
 * key prefix), one request-log entry and the request's metrics. A HEAD request is matched, logged
 * and counted as HEAD, and served as its GET (app.ts). The MCP endpoint, not an
 * operation of the contract, is logged under its own path, and so is a plain request to /v1/stream; a request whose HTTP status cannot say
 * what it did (an MCP tool call answers 200 whatever the route answered) sets
 * `res.locals.outcomeStatus`, which the entry records instead.
 */
import type { RequestHandler } from 'express';
import type { OperationSpec } from '../api-contract/openapi.js';
import { ApiError } from '../errors.js';
import { sendError } from './errors.js';
import type { Logger } from '../logging.js';
import type { Metrics } from '../metrics.js';
import type { RequestLogBuffer } from '../request-log.js';
import { newRequestId } from '../ids.js';
import { MCP_PATH } from '../api-contract/mcp-route.js';
import { STREAM_PATH } from '../api-contract/stream-protocol.js';

export interface RequestContextOptions {
  logger: Logger;
  metrics: Metrics;
  requestLog: RequestLogBuffer;
  timeoutMs: number;
  clock: () => number;
  matchOperation: (method: string, path: string) => OperationSpec | null;
}

export function requestContext(options: RequestContextOptions): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const now = options.clock();
    const requestId = newRequestId(now);
    const operation = options.matchOperation(req.method, req.path);
    const route =
      operation?.path ??
      (req.path === MCP_PATH || req.path === `${MCP_PATH}/`
        ? MCP_PATH
        : req.path === STREAM_PATH || req.path === `${STREAM_PATH}/`
          ? STREAM_PATH
          : 'unmatched');
    res.locals.requestId = requestId;
    res.locals.receivedAt = now;
    res.locals.operation = operation;
    res.setHeader('X-Request-Id', requestId);

    // The deadline: answer 504 and let the statement time-out cancel the database work.
    const deadline = setTimeout(() => {
      if (!res.headersSent) {
        res.locals.timedOut = true;
        sendError(
          res,
          new ApiError(504, 'upstream_timeout', `The endpoint did not answer within ${Math.round(options.timeoutMs / 1000)} seconds.`),
        );
      }
    }, options.timeoutMs);
    deadline.unref();

    res.on('close', () => {
      clearTimeout(deadline);
      const durationMs = Math.round((performance.now() - started) * 100) / 100;
      const status = (res.locals.outcomeStatus as number | undefined) ?? res.statusCode;
      const bytesOut = Number(res.getHeader('content-length') ?? 0) || 0;
      const accountId = (res.locals.accountId as string | undefined) ?? null;
      const method = res.locals.head === true ? 'HEAD' : req.method;
      options.requestLog.record({
        ts: new Date(now),
        request_id: requestId,
        account_id: accountId,
        key_id: (res.locals.keyId as string | undefined) ?? null,
        network: (res.locals.network as string | undefined) ?? null,
        method,
        route,
        status,
        duration_ms: durationMs,
        bytes_out: bytesOut,
      });
      options.metrics.requests.inc({ route, method, status });
      options.metrics.requestDuration.observe({ route, method }, durationMs / 1000);
      options.logger.info('request', {
        request_id: requestId,
        method,
        route,
        status,
        duration_ms: durationMs,
        account: accountId,
        key_prefix: (res.locals.keyPrefix as string | undefined) ?? null,
      });
    });
    next();
  };
}
