/**
 * Calls to the /v1 routes with the user's key as a Bearer token. A non-2xx answer becomes an
 * ApiFailure carrying the API's own error (status, code, message, details, request id), shown to the
 * user as it is; a request that never got an answer is a network failure with status 0.
 */
import type { ListOptionTradesErrors } from '../generated/client/types.gen';

type ErrorBody = ListOptionTradesErrors[400];
export type ErrorDetail = ErrorBody['error']['details'][number];

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly ErrorDetail[] = [],
    readonly requestId: string | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

const KEY_ITEM = 'oads.apiKey';

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

/** A route's path and query as the page requests it (also what the page records as drawn). */
export function urlOf(path: string, query: URLSearchParams): string {
  const search = query.toString();
  return search === '' ? path : `${path}?${search}`;
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}

/** GET a /v1 URL; the parsed JSON body of a 2xx answer, else an ApiFailure. */
export async function getJson<T>(url: string): Promise<T> {
  const key = storedKey();
  if (key === null) throw new ApiFailure(0, 'no_key', 'Enter an API key first.');
  let response: Response;
  try {
    response = await fetch(url, { headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' } });
  } catch (error) {
    throw new ApiFailure(0, 'network_error', `The service did not answer (${error instanceof Error ? error.message : String(error)}).`);
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok && body !== null) return body as T;
  if (isErrorBody(body)) {
    const e = body.error;
    throw new ApiFailure(response.status, e.code, e.message, e.details ?? [], e.request_id ?? null, e.retry_after_ms ?? null);
  }
  throw new ApiFailure(response.status, 'unexpected_response', `HTTP ${response.status} without an API error body.`);
}
