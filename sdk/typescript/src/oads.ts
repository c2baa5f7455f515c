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
import { OadsError, OadsExportFailedError, retryAfterSeconds, type OadsErrorCode } from './errors.js';
import { createClient, createConfig, type Client } from './generated/client/index.js';
import { Limiter, type AccountLimitValues, type ClientLimits } from './limiter.js';
import {
  operationIds,
  operationRequest,
  type ArgsOf,
  type BodyOf,
  type DataByPath,
  type OperationId,
  type OperationMethods,
  type OperationRequest,
  type PaginatedOperationId,
  type ParamsOf,
  type ResultOf,
} from './operations.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4); 1 turns retrying off. */
  maxAttempts?: number;
  /** The longest wait before a retry, in ms (default 60 000): an answer asking for longer is thrown. */
  maxDelayMs?: number;
  /** Without Retry-After: the first backoff in ms (default 500), doubled at each attempt, with full jitter. */
  baseDelayMs?: number;
}

/** What `onRetry` is told before the SDK waits and sends a request again. */
export interface RetryEvent {
  /** The operation, or the URL for a request that is not one (an export's download_url). */
  operation: string;
  /** The attempt that failed (1 for the first). */
  attempt: number;
  /** The answer's status; null when the request got no answer (a connection error). */
  status: number | null;
  /** The answer's error code; `connection_error` when the request got no answer. */
  code: OadsErrorCode | 'connection_error';
  /** Retry-After in seconds, null when the answer had none. */
  retryAfter: number | null;
  /** How long the SDK now waits, in ms. */
  delayMs: number;
}

export interface OadsOptions {
  /** The account's API key, sent as `Authorization: Bearer <key>`; routes that need none work without it. */
  apiKey?: string;
  /** The service, e.g. `https://oads.example.com` (default http://127.0.0.1:8080). */
  baseUrl?: string;
  retry?: RetryOptions;
  /** Called before each retry (for logs or metrics). */
  onRetry?: (event: RetryEvent) => void;
  /** A fetch implementation (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Headers sent with every request (a User-Agent, say). */
  headers?: Record<string, string>;
  /**
   * The client-side limiter (with a key only): the limits this client keeps its requests within.
   * Default: the account's in-flight, per-second and per-minute limits, read from GET
   * /v1/account/limits once, on the first request. A number sets one limit, null turns it off, a
   * member left out is read from the account; `false` turns the limiter off.
   */
  limits?: ClientLimits | false;
}

export interface RunExportOptions {
  /**
   * The first wait between polls when the service suggests none (Retry-After on the poll), in ms
   * (default 1000); each later wait is half as long again, up to `maxPollIntervalMs`.
   */
  pollIntervalMs?: number;
  /** The longest wait between polls the SDK chooses itself, in ms (default 10 000). */
  maxPollIntervalMs?: number;
  /** Give up (and throw) when the export is not ready after this long, in ms (default 30 minutes, the longest an export waits for its data). */
  timeoutMs?: number;
}

type ExportJob = ResultOf<'getExport'>['data'];

/** The data routes an export may read (`body.path` of runExport); any other string is accepted too, its file's data then `unknown`. */
export type ExportPath = Exclude<keyof DataByPath, `/v1/exports${string}` | `/v1/account${string}`>;

/** The file of an export of `P`: its `data` is the `data` of the route's answer (all pages' rows, or its object). */
export type ExportFile<P extends string = string> = Omit<ResultOf<'downloadExport'>, 'data'> & {
  data: P extends keyof DataByPath ? DataByPath[P] : unknown;
};

/** The body of an export to a JSON file (`format` json, the default). */
export type JsonExportBody<P extends string> = Omit<BodyOf<'createExport'>, 'path' | 'format'> & { path: P; format?: 'json' };

/** The body of an export to a flat file: gzip-compressed CSV or Parquet. */
export type FlatExportBody<P extends string> = Omit<BodyOf<'createExport'>, 'path' | 'format'> & { path: P; format: 'csv' | 'parquet' };

/** A finished csv or parquet export: its job as last polled and the file's bytes as sent. */
export interface FlatExportResult {
  job: ExportJob;
  /** The file: gzip-compressed CSV (`.csv.gz`, RFC 4180 with a header row) or Apache Parquet. */
  bytes: Uint8Array;
  /** The file's strong validator (ETag), for a later conditional download. */
  etag: string | null;
}

/** A finished export: its job as last polled (rows, pages, truncated, bytes, expires_timestamp), the file's text and its parsed JSON. */
export interface ExportResult<P extends string = string> {
  job: ExportJob;
  /** The file as sent (one JSON document). */
  text: string;
  /** The file parsed: data (typed as the route's: the rows of `/v1/options/trades` are OptionPrint[]), meta, pages and truncated. */
  file: ExportFile<P>;
  /** The file's strong validator (ETag), for a later conditional download. */
  etag: string | null;
}

interface Sent {
  data: unknown;
  response: Response;
}

type PageArgs<K extends PaginatedOperationId> = undefined extends ArgsOf<K>[0]
  ? [params?: Omit<ParamsOf<K>, 'cursor_id'>]
  : [params: Omit<ParamsOf<K>, 'cursor_id'>];

// The operations are methods of the class's prototype (installed below from the generated SDK); this
// interface gives them their types. Merging an interface into a class is the way to declare
// members a class gets outside its body.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Oads extends OperationMethods {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Oads {
  readonly baseUrl: string;
  private readonly client: Client;
  private readonly retry: Required<RetryOptions>;
  private readonly onRetry: ((event: RetryEvent) => void) | undefined;
  private readonly limiter: Limiter | null;

  constructor(options: OadsOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const apiKey = options.apiKey;
    this.client = createClient(
      createConfig({
        baseUrl: this.baseUrl,
        ...(apiKey !== undefined ? { auth: () => apiKey } : {}),
        ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
        ...(options.headers !== undefined ? { headers: options.headers } : {}),
      }),
    );
    const retry = options.retry ?? {};
    this.retry = { maxAttempts: retry.maxAttempts ?? 4, maxDelayMs: retry.maxDelayMs ?? 60_000, baseDelayMs: retry.baseDelayMs ?? 500 };
    if (!(this.retry.maxAttempts >= 1)) throw new RangeError('retry.maxAttempts must be at least 1.');
    this.onRetry = options.onRetry;
    this.limiter =
      apiKey === undefined || options.limits === false
        ? null
        : new Limiter(options.limits ?? {}, async () => {
            const sent = await this.send('getAccountLimits', operationRequest('getAccountLimits'), {}, { limited: false });
            return (sent.data as ResultOf<'getAccountLimits'>).data.limits satisfies AccountLimitValues;
          });
  }

  /** The limits the client-side limiter keeps (read from the account on first use); null when it is off (no key, or `limits: false`). */
  async clientLimits(): Promise<Readonly<Required<ClientLimits>> | null> {
    return this.limiter ? this.limiter.limits() : null;
  }

  /** Calls an operation by its operationId (what each method does). */
  async call<K extends OperationId>(operationId: K, ...args: ArgsOf<K>): Promise<ResultOf<K>> {
    const request = operationRequest(operationId);
    const sent = request.hasBody
      ? await this.send(operationId, request, { body: args[0] })
      : await this.send(operationId, request, splitParams(request, (args[0] ?? {}) as Record<string, unknown>));
    return sent.data as ResultOf<K>;
  }

  /**
   * The pages of a paginated operation, first to last: each page is the parsed body; the next one
   * repeats the query with `cursor_id` set to the page's `pagination.next_cursor_id`, until that is
   * null. A page whose scan budget ran out may hold fewer rows than `limit` (even none) and still
   * have a cursor: the walk goes on.
   */
  async *pages<K extends PaginatedOperationId>(operationId: K, ...args: PageArgs<K>): AsyncGenerator<ResultOf<K>, void, undefined> {
    const query = { ...(args[0] ?? {}) } as Record<string, unknown>;
    delete query.cursor_id;
    let cursor: string | null = null;
    do {
      const params = cursor === null ? query : { ...query, cursor_id: cursor };
      const page = (await this.call(operationId, ...([params] as ArgsOf<K>))) as ResultOf<K> & {
        pagination: { next_cursor_id: string | null };
      };
      yield page;
      cursor = page.pagination.next_cursor_id;
    } while (cursor !== null);
  }

  /**
   * Runs an export to its file: creates it (POST /v1/exports), polls the job until it is ready
   * (waiting what each answer's Retry-After asks, else a wait growing from `pollIntervalMs` to
   * `maxPollIntervalMs`, so a long export does not spend the account's requests), then downloads the file
   * from the job's download_url. A failed export throws OadsExportFailedError; one still not ready
   * after `timeoutMs` throws an Error naming its id and status. A JSON export (the default) gives the
   * file's text and its parsed JSON; a csv or parquet export gives the file's bytes.
   */
  async runExport<P extends ExportPath | (string & {})>(body: JsonExportBody<P>, options?: RunExportOptions): Promise<ExportResult<P>>;
  async runExport<P extends ExportPath | (string & {})>(body: FlatExportBody<P>, options?: RunExportOptions): Promise<FlatExportResult>;
  /** A body whose format is not known until run time: either result. */
  async runExport<P extends ExportPath | (string & {})>(
    body: Omit<BodyOf<'createExport'>, 'path'> & { path: P },
    options?: RunExportOptions,
  ): Promise<ExportResult<P> | FlatExportResult>;
  async runExport<P extends ExportPath | (string & {})>(
    body: Omit<BodyOf<'createExport'>, 'path'> & { path: P },
    options: RunExportOptions = {},
  ): Promise<ExportResult<P> | FlatExportResult> {
    let pollIntervalMs = options.pollIntervalMs ?? 1000;
    const maxPollIntervalMs = Math.max(pollIntervalMs, options.maxPollIntervalMs ?? 10_000);
    const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
    let sent = await this.send('createExport', operationRequest('createExport'), { body });
    let job = (sent.data as ResultOf<'createExport'>).data;
    while (job.status !== 'ready') {
      if (job.status === 'failed') throw new OadsExportFailedError(job);
      const suggested = retryAfterSeconds(sent.response.headers.get('retry-after'));
      const waitMs = suggested !== null ? suggested * 1000 : pollIntervalMs;
      if (Date.now() + waitMs > deadline) throw new Error(`Export ${job.id} is still ${job.status} after the timeout.`);
      await sleep(waitMs);
      pollIntervalMs = Math.min(maxPollIntervalMs, pollIntervalMs * 1.5);
      sent = await this.send('getExport', operationRequest('getExport'), { path: { id: job.id } });
      job = (sent.data as ResultOf<'getExport'>).data;
    }
    if (job.download_url === undefined) throw new Error(`Export ${job.id} is ready without a download_url.`);
    const flat = body.format === 'csv' || body.format === 'parquet';
    const download = await this.send(
      job.download_url,
      { ...operationRequest('downloadExport'), url: job.download_url, pathNames: [] },
      { parseAs: flat ? 'arrayBuffer' : 'text' },
    );
    if (flat) return { job, bytes: new Uint8Array(download.data as ArrayBuffer), etag: download.response.headers.get('etag') };
    const text = download.data as string;
    return { job, text, file: JSON.parse(text) as ExportFile<P>, etag: download.response.headers.get('etag') };
  }

  /** Sends one request, retrying 429 and 503 as configured; the parsed body of a 2xx, else throws OadsError. */
  private async send(
    operation: string,
    request: OperationRequest,
    values: { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown; parseAs?: 'text' | 'arrayBuffer' },
    { limited = true }: { limited?: boolean } = {},
  ): Promise<Sent> {
    // The routes that need no key count against no account; GET /v1/account/limits takes an in-flight place only.
    const limiter = limited && request.options.security !== undefined ? this.limiter : null;
    const consume = operation !== 'getAccountLimits';
    for (let attempt = 1; ; attempt += 1) {
      const options = { ...request.options, ...values, method: request.method, url: request.url, throwOnError: false };
      const release = limiter ? await limiter.acquire(consume) : null;
      let result: { data?: unknown; error?: unknown; response?: Response };
      try {
        result = await this.client.request(options);
      } finally {
        release?.();
      }
      // No response: the request never got an answer (network, DNS, abort); the fetch error as thrown
      // when it is not retried.
      if (result.response === undefined) {
        const delayMs = this.connectionRetryDelay(request.method, result.error, attempt);
        if (delayMs === null) throw result.error;
        this.onRetry?.({ operation, attempt, status: null, code: 'connection_error', retryAfter: null, delayMs });
        await sleep(delayMs);
        continue;
      }
      if (result.response.ok) return { data: result.data, response: result.response };
      const error = OadsError.fromResponse(result.response, result.error);
      const delayMs = this.retryDelay(error, attempt);
      if (delayMs === null) throw error;
      this.onRetry?.({ operation, attempt, status: error.status, code: error.code, retryAfter: error.retryAfter, delayMs });
      await sleep(delayMs);
    }
  }

  /** The wait before the next attempt of a request that got no answer, or null when it is not retried. */
  private connectionRetryDelay(method: string, error: unknown, attempt: number): number | null {
    if (method.toUpperCase() !== 'GET' || attempt >= this.retry.maxAttempts) return null;
    // fetch rejects with a TypeError when the network failed; an abort is a DOMException (AbortError).
    if (!(error instanceof TypeError)) return null;
    return Math.min(this.retry.maxDelayMs, Math.random() * this.retry.baseDelayMs * 2 ** (attempt - 1));
  }

  /** The wait before the next attempt after `error`, or null when it is not retried. */
  private retryDelay(error: OadsError, attempt: number): number | null {
    if (error.status !== 429 && error.status !== 503) return null;
    if (attempt >= this.retry.maxAttempts) return null;
    const delayMs = error.retryAfter !== null ? error.retryAfter * 1000 : Math.random() * this.retry.baseDelayMs * 2 ** (attempt - 1);
    return delayMs > this.retry.maxDelayMs ? null : delayMs;
  }
}

for (const id of operationIds) {
  Object.defineProperty(Oads.prototype, id, {
    value: function (this: Oads, ...args: unknown[]) {
      return this.call(id, ...(args as ArgsOf<typeof id>));
    },
    writable: true,
    configurable: true,
  });
}

/** An operation's parameters split into those of its path and those of its query. */
function splitParams(
  request: OperationRequest,
  params: Record<string, unknown>,
): { path: Record<string, unknown>; query: Record<string, unknown> } {
  const path: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    if (request.pathNames.includes(name)) path[name] = value;
    else query[name] = value;
  }
  return { path, query };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
