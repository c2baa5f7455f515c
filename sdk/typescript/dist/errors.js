export class OadsError extends Error {
    name = 'OadsError';
    /** The HTTP status. */
    status;
    code;
    /** One element per bad parameter (400); empty otherwise. */
    details;
    /** Seconds to wait before retrying, from the Retry-After header (429 and 503); null without one. */
    retryAfter;
    /** The request id the service logged the request under (X-Request-Id), for support. */
    requestId;
    constructor(fields) {
        super(fields.message);
        this.status = fields.status;
        this.code = fields.code;
        this.details = fields.details ?? [];
        this.retryAfter = fields.retryAfter ?? null;
        this.requestId = fields.requestId ?? null;
    }
    /** The error a non-2xx answer stands for, from its status, headers and body. */
    static fromResponse(response, body) {
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
    job;
    name = 'OadsExportFailedError';
    /** The route's error code (no_data, invalid_parameter, ...), export_too_large, data_pending or internal_error. */
    code;
    constructor(job) {
        super(job.failure_reason ?? `Export ${job.id} failed.`);
        this.job = job;
        this.code = job.error_code ?? 'internal_error';
    }
}
/** Retry-After in seconds: the header's delay-seconds, or its HTTP date (RFC 9110 §10.2.3) from now. */
export function retryAfterSeconds(header, now = Date.now()) {
    if (header === null || header.trim() === '')
        return null;
    const value = header.trim();
    if (/^\d+$/.test(value))
        return Number(value);
    const date = Date.parse(value);
    return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
/** The contract's error object in a body, or null when the body is not one. */
function errorObject(body) {
    if (typeof body !== 'object' || body === null || !('error' in body))
        return null;
    const error = body.error;
    if (typeof error !== 'object' || error === null)
        return null;
    const { code, message } = error;
    return typeof code === 'string' && typeof message === 'string' ? error : null;
}
//# sourceMappingURL=errors.js.map