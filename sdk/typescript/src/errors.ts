/**
 * Errors the SDK throws. Every answer outside 2xx becomes an `OadsError` carrying the contract's
 * error object (code, message, details naming each bad parameter, request id) and the wait the
 * service asked for (Retry-After on 429 and 503). `code` is the contract's union of codes, so a
 * `switch (error.code)` is checked for exhaustiveness; an answer that is not the service's error
 * object (a proxy's HTML page, say) has the code `unexpected_response`.
 */
import type { ErrorOf } from './operations.js';

/** The contract's error object (`error` of every non-2xx body). */
export type ErrorObject = ErrorOf<'listOptionTrades'>['error'];

/** The contract's error codes, and `unexpected_response` for a body that is not the service's. */
export type OadsErrorCode = ErrorObject['code'] | 'unexpected_response';

/** One bad parameter of a 400 (`query.name` for a parameter of an export's query). */
export type ErrorDetail = ErrorObject['details'][number];

export class OadsError extends Error {
  override readonly name = 'OadsError';
  /** The HTTP status. */
  readonly status: number;
  readonly code: OadsErrorCode;
  /** One element per bad parameter (400); empty otherwise. */
  readonly details: ErrorDetail[];
  /** Seconds to wait before retrying, from the Retry-After header (429 and 503); null without one. */
  readonly retryAfter: number | null;
  /** The request id the service logged the request under (X-Request-Id), for support. */
  readonly requestId: string | null;

  constructor(fields: {
    status: number;
    code: OadsErrorCode;
    message: string;
    details?: ErrorDetail[];
    retryAfter?: number | null;
    requestId?: string | null;
  }) {
    super(fields.message);
    this.status = fields.status;
    this.code = fields.code;
    this.details = fields.details ?? [];
    this.retryAfter = fields.retryAfter ?? null;
    this.requestId = fields.requestId ?? null;
  }

  /** The error a non-2xx answer stands for, from its status, headers and body. */
  static fromResponse(response: Response, body: unknown): OadsError {
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    const requestId = response.headers.get('x-request-id');
    const error = errorObject(body);
    if (error === null) {
      const text = typeof body === 'string' && body.length > 0 ? `: ${body.slice(0, 200)}` : '';
      return new OadsError({
        status: response.status,
        code: 'unexpected_response',
        message: `HTTP ${response.status}${text}`,
        retryAfter,
        requestId,
      });
    }
    return new OadsError({
      status: response.status,
      code: error.code,
      message: error.message,
      details: Array.isArray(error.details) ? error.details : [],
      retryAfter,
      requestId: error.request_id,
    });
  }
}

/** An export that ended in `failed`: the job as last polled, with its error code and reason. */
export class OadsExportFailedError extends Error {
  override readonly name = 'OadsExportFailedError';
  /** The route's error code (no_data, invalid_parameter, ...), export_too_large, data_pending or internal_error. */
  readonly code: string;

  constructor(readonly job: { id: string; error_code?: string; failure_reason?: string }) {
    super(job.failure_reason ?? `Export ${job.id} failed.`);
    this.code = job.error_code ?? 'internal_error';
  }
}

/** Retry-After in seconds: the header's delay-seconds, or its HTTP date (RFC 9110 §10.2.3) from now. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === '') return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The contract's error object in a body, or null when the body is not one. */
function errorObject(body: unknown): ErrorObject | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const error: unknown = body.error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as Partial<Record<keyof ErrorObject, unknown>>;
  return typeof code === 'string' && typeof message === 'string' ? (error as ErrorObject) : null;
}
