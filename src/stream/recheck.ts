/**
 * The streams' accounts looked up again (stream/hub.ts does it for each load and each levels
 * cadence), through the REST routes' key cache, so a change reaches the streams within
 * AUTH_CACHE_TTL_MS: a revoked key or a suspended account ends the stream (an error message, then
 * the close 4401 or 4403; the stream is no longer resumable); an account that lost an entitlement a
 * subscription needs (overnight data) ends that subscription with the route's 403 error message.
 */
import { checkEntitlements, type AuthenticatedAccount } from '../entitlements.js';
import { ApiError } from '../errors.js';
import { newRequestId } from '../ids.js';
import { errorBody, toApiError } from '../middleware/errors.js';
import { CLOSE, closeReason } from '../api-contract/stream-protocol.js';
import type { Stream } from './stream.js';

/** Where the streams' accounts are looked up again by key prefix (the REST routes' key cache). */
export interface AccountLookup {
  lookup(prefix: string, now: number): Promise<{ account: AuthenticatedAccount } | null>;
}

/**
 * Looks up the key of each stream holding a subscription (once per key) and applies what changed;
 * `forget` is told of each stream ended, before its close.
 */
export async function recheckStreams(
  lookup: AccountLookup,
  streams: Iterable<Stream>,
  now: number,
  forget: (stream: Stream) => void,
): Promise<void> {
  const byPrefix = new Map<string, Stream[]>();
  for (const stream of streams) {
    const prefix = stream.account.key?.prefix;
    if (prefix === undefined || stream.subscriptions.size === 0) continue;
    byPrefix.set(prefix, [...(byPrefix.get(prefix) ?? []), stream]);
  }
  await Promise.all(
    [...byPrefix].map(async ([prefix, held]) => {
      const entry = await lookup.lookup(prefix, now);
      const requestId = newRequestId(now);
      for (const stream of held) applyAccount(stream, entry?.account ?? null, requestId, forget);
    }),
  );
}

/** The stream's account as the lookup found it (null: the key is gone). */
function applyAccount(stream: Stream, account: AuthenticatedAccount | null, requestId: string, forget: (stream: Stream) => void): void {
  const ending =
    account === null
      ? { code: CLOSE.unauthorized, error: new ApiError(401, 'unauthorized', 'The API key was revoked.') }
      : account.status === 'suspended'
        ? { code: CLOSE.forbidden, error: new ApiError(403, 'account_suspended', 'This account is suspended.') }
        : null;
  if (ending !== null) {
    stream.subscriptions.clear();
    forget(stream);
    stream.send(`"type":"error","subscription":null,"request":null,${JSON.stringify(errorBody(ending.error, requestId)).slice(1)}`);
    const ws = stream.ws;
    stream.ws = null;
    ws?.close(ending.code, closeReason(`${ending.error.code}: ${ending.error.message}`));
    return;
  }
  if (account === null) return;
  stream.account = account;
  for (const sub of [...stream.subscriptions.values()]) {
    try {
      checkEntitlements(sub.operation, account, sub.query);
    } catch (error) {
      const apiError = toApiError(error);
      if (!apiError) throw error;
      stream.subscriptions.delete(sub.id);
      stream.send(
        `"type":"error","subscription":${JSON.stringify(sub.id)},"request":null,${JSON.stringify(errorBody(apiError, requestId)).slice(1)}`,
      );
    }
  }
}
