/**
 * The client: one method per operationId (operations.ts), each taking the operation's path and query
 * parameters in one object (or createExport's body) and resolving to the parsed JSON body; any
 * non-2xx answer throws an OadsError. Requests go through the generated hey-api client, so lists
 * are sent as the contract says (`explode: false`: `side=ask,above_ask`, never the name twice).
 *
 * Answers 429 and 503 are retried after the wait the service asks for (Retry-After; the contract's
 * "wait Retry-After seconds"), or with exponential backoff and full jitter when it names none, up
 * to a bounded number of attempts; a wait longer than `maxDelayMs` is not slept through but thrown,
 * so a cooled-down account learns it at once. A GET that got no answer at all (the connection was
 * refused or dropped: fetch's TypeError) is retried the same way with backoff, since reading again
 * is harmless; a POST (createExport) is not, since the first may have created the export, nor is a
 * request the caller aborted.
 *
 * With a key, requests also wait their turn in a client-side limiter (limiter.ts) that keeps them
 * within the account's in-flight, per-second and per-minute limits, read from GET
 * /v1/account/limits on the first request: a `Promise.all` of many calls is paced rather than
 * refused. Each attempt takes a place and gives it back when its answer is read; a retry's wait
 * holds none.
 */
import { OadsError, OadsExportFailedError, retryAfterSeconds } from './errors.js';
import { createClient, createConfig } from './generated/client/index.js';
import { Limiter } from './limiter.js';
import { operationIds, operationRequest, } from './operations.js';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Oads {
    baseUrl;
    client;
    retry;
    onRetry;
    limiter;
    constructor(options = {}) {
        this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
        const apiKey = options.apiKey;
        this.client = createClient(createConfig({
            baseUrl: this.baseUrl,
            ...(apiKey !== undefined ? { auth: () => apiKey } : {}),
            ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
            ...(options.headers !== undefined ? { headers: options.headers } : {}),
        }));
        const retry = options.retry ?? {};
        this.retry = { maxAttempts: retry.maxAttempts ?? 4, maxDelayMs: retry.maxDelayMs ?? 60_000, baseDelayMs: retry.baseDelayMs ?? 500 };
        if (!(this.retry.maxAttempts >= 1))
            throw new RangeError('retry.maxAttempts must be at least 1.');
        this.onRetry = options.onRetry;
        this.limiter =
            apiKey === undefined || options.limits === false
                ? null
                : new Limiter(options.limits ?? {}, async () => {
                    const sent = await this.send('getAccountLimits', operationRequest('getAccountLimits'), {}, { limited: false });
                    return sent.data.data.limits;
                });
    }
    /** The limits the client-side limiter keeps (read from the account on first use); null when it is off (no key, or `limits: false`). */
    async clientLimits() {
        return this.limiter ? this.limiter.limits() : null;
    }
    /** Calls an operation by its operationId (what each method does). */
    async call(operationId, ...args) {
        const request = operationRequest(operationId);
        const sent = request.hasBody
            ? await this.send(operationId, request, { body: args[0] })
            : await this.send(operationId, request, splitParams(request, (args[0] ?? {})));
        return sent.data;
    }
    /**
     * The pages of a paginated operation, first to last: each page is the parsed body; the next one
     * repeats the query with `cursor_id` set to the page's `pagination.next_cursor_id`, until that is
     * null. A page whose scan budget ran out may hold fewer rows than `limit` (even none) and still
     * have a cursor: the walk goes on.
     */
    async *pages(operationId, ...args) {
        const query = { ...(args[0] ?? {}) };
        delete query.cursor_id;
        let cursor = null;
        do {
            const params = cursor === null ? query : { ...query, cursor_id: cursor };
            const page = (await this.call(operationId, ...[params]));
            yield page;
            cursor = page.pagination.next_cursor_id;
        } while (cursor !== null);
    }
    async runExport(body, options = {}) {
        let pollIntervalMs = options.pollIntervalMs ?? 1000;
        const maxPollIntervalMs = Math.max(pollIntervalMs, options.maxPollIntervalMs ?? 10_000);
        const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
        let sent = await this.send('createExport', operationRequest('createExport'), { body });
        let job = sent.data.data;
        while (job.status !== 'ready') {
            if (job.status === 'failed')
                throw new OadsExportFailedError(job);
            const suggested = retryAfterSeconds(sent.response.headers.get('retry-after'));
            const waitMs = suggested !== null ? suggested * 1000 : pollIntervalMs;
            if (Date.now() + waitMs > deadline)
                throw new Error(`Export ${job.id} is still ${job.status} after the timeout.`);
            await sleep(waitMs);
            pollIntervalMs = Math.min(maxPollIntervalMs, pollIntervalMs * 1.5);
            sent = await this.send('getExport', operationRequest('getExport'), { path: { id: job.id } });
            job = sent.data.data;
        }
        if (job.download_url === undefined)
            throw new Error(`Export ${job.id} is ready without a download_url.`);
        const flat = body.format === 'csv' || body.format === 'parquet';
        const download = await this.send(job.download_url, { ...operationRequest('downloadExport'), url: job.download_url, pathNames: [] }, { parseAs: flat ? 'arrayBuffer' : 'text' });
        if (flat)
            return { job, bytes: new Uint8Array(download.data), etag: download.response.headers.get('etag') };
        const text = download.data;
        return { job, text, file: JSON.parse(text), etag: download.response.headers.get('etag') };
    }
    /** Sends one request, retrying 429 and 503 as configured; the parsed body of a 2xx, else throws OadsError. */
    async send(operation, request, values, { limited = true } = {}) {
        // The routes that need no key count against no account; GET /v1/account/limits takes an in-flight place only.
        const limiter = limited && request.options.security !== undefined ? this.limiter : null;
        const consume = operation !== 'getAccountLimits';
        for (let attempt = 1;; attempt += 1) {
            const options = { ...request.options, ...values, method: request.method, url: request.url, throwOnError: false };
            const release = limiter ? await limiter.acquire(consume) : null;
            let result;
            try {
                result = await this.client.request(options);
            }
            finally {
                release?.();
            }
            // No response: the request never got an answer (network, DNS, abort); the fetch error as thrown
            // when it is not retried.
            if (result.response === undefined) {
                const delayMs = this.connectionRetryDelay(request.method, result.error, attempt);
                if (delayMs === null)
                    throw result.error;
                this.onRetry?.({ operation, attempt, status: null, code: 'connection_error', retryAfter: null, delayMs });
                await sleep(delayMs);
                continue;
            }
            if (result.response.ok)
                return { data: result.data, response: result.response };
            const error = OadsError.fromResponse(result.response, result.error);
            const delayMs = this.retryDelay(error, attempt);
            if (delayMs === null)
                throw error;
            this.onRetry?.({ operation, attempt, status: error.status, code: error.code, retryAfter: error.retryAfter, delayMs });
            await sleep(delayMs);
        }
    }
    /** The wait before the next attempt of a request that got no answer, or null when it is not retried. */
    connectionRetryDelay(method, error, attempt) {
        if (method.toUpperCase() !== 'GET' || attempt >= this.retry.maxAttempts)
            return null;
        // fetch rejects with a TypeError when the network failed; an abort is a DOMException (AbortError).
        if (!(error instanceof TypeError))
            return null;
        return Math.min(this.retry.maxDelayMs, Math.random() * this.retry.baseDelayMs * 2 ** (attempt - 1));
    }
    /** The wait before the next attempt after `error`, or null when it is not retried. */
    retryDelay(error, attempt) {
        if (error.status !== 429 && error.status !== 503)
            return null;
        if (attempt >= this.retry.maxAttempts)
            return null;
        const delayMs = error.retryAfter !== null ? error.retryAfter * 1000 : Math.random() * this.retry.baseDelayMs * 2 ** (attempt - 1);
        return delayMs > this.retry.maxDelayMs ? null : delayMs;
    }
}
for (const id of operationIds) {
    Object.defineProperty(Oads.prototype, id, {
        value: function (...args) {
            return this.call(id, ...args);
        },
        writable: true,
        configurable: true,
    });
}
/** An operation's parameters split into those of its path and those of its query. */
function splitParams(request, params) {
    const path = {};
    const query = {};
    for (const [name, value] of Object.entries(params)) {
        if (request.pathNames.includes(name))
            path[name] = value;
        else
            query[name] = value;
    }
    return { path, query };
}
function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
//# sourceMappingURL=oads.js.map