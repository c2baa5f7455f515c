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
export declare class OadsError extends Error {
    readonly name = "OadsError";
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
    });
    /** The error a non-2xx answer stands for, from its status, headers and body. */
    static fromResponse(response: Response, body: unknown): OadsError;
}
/** An export that ended in `failed`: the job as last polled, with its error code and reason. */
export declare class OadsExportFailedError extends Error {
    readonly job: {
        id: string;
        error_code?: string;
        failure_reason?: string;
    };
    readonly name = "OadsExportFailedError";
    /** The route's error code (no_data, invalid_parameter, ...), export_too_large, data_pending or internal_error. */
    readonly code: string;
    constructor(job: {
        id: string;
        error_code?: string;
        failure_reason?: string;
    });
}
/** Retry-After in seconds: the header's delay-seconds, or its HTTP date (RFC 9110 §10.2.3) from now. */
export declare function retryAfterSeconds(header: string | null, now?: number): number | null;
