/**
 * Authentication and the rate-limit windows. Requests without valid credentials spend the keyless
 * budget of their client network, and the public routes a budget of their own (so a flood of bad
 * keys leaves GET /v1/status answering); a key not known is looked up only while that budget has
 * room. A valid key admits the request through its account's windows (a suspended account's too,
 * before its 403), and every authenticated response carries the X-RateLimit-* headers. A 401 says
 * how to authenticate in WWW-Authenticate (RFC 6750: a bearer token; `error="invalid_token"` when
 * one was sent and is not a key's, no error code when none was). Each 429 is counted by kind. A
 * request answered 503 upstream_busy or 504 (the service could not serve it) gives its window places back.
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import type { OperationSpec } from '../api-contract/openapi.js';
import { findKeyByPrefix } from '../db/accounts.js';
import type { Database } from '../db/connection.js';
import { keyMatches, keyPrefix } from '../api-keys.js';
import { authenticatedAccount, type AuthenticatedAccount } from '../entitlements.js';
import { ApiError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { sendError } from './errors.js';
import { stamp, type Stamps } from '../stage-timing.js';
import { clientAddress, clientNetwork, type KeylessBudget, type Limiter, type WindowState } from '../limits/rate-limiter.js';

interface CachedKey {
  account: AuthenticatedAccount;
  secretHash: Buffer;
  expires: number;
  /** The key last seen to match the hash, so a cache hit needs no hashing. */
  verified?: Buffer;
}

/** Whether a presented key opens a cached entry: constant-time either way. */
export function keyOpens(entry: CachedKey, token: string): boolean {
  const presented = Buffer.from(token, 'utf8');
  if (entry.verified && entry.verified.length === presented.length && timingSafeEqual(entry.verified, presented)) return true;
  if (!keyMatches(token, entry.secretHash)) return false;
  entry.verified = presented;
  return true;
}

/**
 * Keys read from the database are kept `ttlMs`, so a revocation takes effect within that time. A
 * prefix that matches no key is kept as well (negatively), so a key sent again costs no lookup.
 */
export class KeyCache {
  private readonly entries = new Map<string, CachedKey | null>();
  private readonly expiries = new Map<string, number>();
  private readonly pending = new Map<string, Promise<CachedKey | null>>();
  /** Lookups made in the database since the start (what a flood of bad keys would cost). */
  lookups = 0;

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
  ) {}

  /** The entry of a prefix read less than `ttlMs` ago (null: no such key), or undefined. */
  fresh(prefix: string, now: number): CachedKey | null | undefined {
    const expiry = this.expiries.get(prefix);
    return expiry !== undefined && expiry > now ? (this.entries.get(prefix) ?? null) : undefined;
  }

  /** Whether the prefix was a key's when last read (fresh or not). */
  knownValid(prefix: string): boolean {
    return (this.entries.get(prefix) ?? null) !== null;
  }

  /** The entry of a prefix, read from the database unless fresh; concurrent reads of one prefix are one. */
  async lookup(prefix: string, now: number): Promise<CachedKey | null> {
    const fresh = this.fresh(prefix, now);
    if (fresh !== undefined) return fresh;
    const pending = this.pending.get(prefix);
    if (pending) return await pending;
    const read = this.read(prefix, now).finally(() => this.pending.delete(prefix));
    this.pending.set(prefix, read);
    return await read;
  }

  private async read(prefix: string, now: number): Promise<CachedKey | null> {
    this.lookups += 1;
    const row = await findKeyByPrefix(this.db, prefix);
    const entry: CachedKey | null = row
      ? {
          account: authenticatedAccount(row.account, { id: row.key_id, prefix, name: row.key_name, created_at: row.key_created_at }),
          secretHash: row.secret_hash,
          expires: now + this.ttlMs,
        }
      : null;
    if (this.entries.size > 10_000) {
      this.entries.clear();
      this.expiries.clear();
    }
    this.entries.set(prefix, entry);
    this.expiries.set(prefix, now + this.ttlMs);
    return entry;
  }

  clear(): void {
    this.entries.clear();
    this.expiries.clear();
  }
}

export function setRateLimitHeaders(res: Response, state: WindowState): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(state.reset));
  res.setHeader('X-RateLimit-Burst-Limit', String(state.burstLimit));
  res.setHeader('X-RateLimit-Burst-Remaining', String(state.burstRemaining));
}

export interface AuthOptions {
  config: Config;
  limiter: Limiter;
  keys: KeyCache;
  clock: () => number;
  metrics: Metrics;
}

/** The protection space named in WWW-Authenticate (RFC 7235 §2.2): the API, whatever its host. */
const REALM = 'Options Analytics Data Service';

/** The challenge of a 401 (RFC 6750 §3): an error code only when credentials were sent. */
export function bearerChallenge(tokenSent: boolean): string {
  return tokenSent
    ? `Bearer realm="${REALM}", error="invalid_token", error_description="The API key is not valid."`
    : `Bearer realm="${REALM}"`;
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? (match[1] ?? null) : null;
}

/**
 * Whether a response was already answered (headers sent: the route deadline's 504) or closed (the
 * client left) while authentication awaited the database or the limiter: nothing more is written
 * to it, and no place is held for it.
 */
function answered(res: Response): boolean {
  return res.headersSent || res.closed;
}

/**
 * Whether the service itself could not serve a request: its database unavailable or its capacity
 * full (503 upstream_busy), or its deadline passed (504). A 503 data_pending (a load started) is served.
 */
function unserved(res: Response): boolean {
  return res.statusCode === 504 || (res.statusCode === 503 && res.locals.errorCode === 'upstream_busy');
}

export function authenticate(options: AuthOptions): RequestHandler {
  const { limiter, keys, clock, config, metrics } = options;

  /** Admits (and with `consume`, spends) a keyless budget, or answers 429 and says false (false too once answered). */
  const keyless = async (res: Response, network: string, now: number, budget: KeylessBudget, consume: boolean): Promise<boolean> => {
    const admission = await limiter.admitKeyless(network, now, budget, consume);
    if (answered(res)) return false;
    if (!admission.admitted) {
      metrics.limiterRejections.inc({ kind: `keyless_${budget}` });
      sendError(res, new ApiError(429, 'rate_limited', admission.rejection.message, [], admission.rejection.retryAfterMs));
      return false;
    }
    return true;
  };

  return async (req, res, next) => {
    const now = clock();
    const network = clientNetwork(clientAddress(req.socket.remoteAddress, req.get('x-forwarded-for'), config.trustProxyHops));
    res.locals.network = network;
    const operation = res.locals.operation as OperationSpec | null;

    if (operation?.facts.public) {
      if (await keyless(res, network, now, 'public', true)) next();
      return;
    }

    const token = bearerToken(req.get('authorization'));
    const prefix = token === null ? null : keyPrefix(token);
    // The visible part of a well-formed key, for the request's log line (support sees it too).
    if (prefix !== null) res.locals.keyPrefix = prefix;
    let cached: CachedKey | null = null;
    if (prefix !== null) {
      const fresh = keys.fresh(prefix, now);
      if (fresh !== undefined) {
        cached = fresh;
      } else {
        // A prefix not known as a key's is looked up only while the network's keyless budget has
        // room (the lookup is what bad credentials would cost); a key's own prefix always is.
        if (!keys.knownValid(prefix) && !(await keyless(res, network, now, 'credentials', false))) return;
        cached = await keys.lookup(prefix, now);
        // Answered meanwhile (the route deadline, while the database did not answer) or left.
        if (answered(res)) return;
      }
    }
    if (token === null || cached === null || !keyOpens(cached, token)) {
      if (!(await keyless(res, network, now, 'credentials', true))) return;
      res.setHeader('WWW-Authenticate', bearerChallenge(token !== null));
      sendError(
        res,
        new ApiError(401, 'unauthorized', token === null ? 'Missing API key: send Authorization: Bearer <API_KEY>.' : 'Invalid API key.'),
      );
      return;
    }

    const account = cached.account;
    res.locals.accountId = account.id;
    res.locals.keyId = account.key?.id;
    res.locals.account = account;

    stamp(res.locals.stages as Stamps | undefined, 'key');
    // A suspended account's requests go through its windows like any other's, then answer 403.
    const consumes = operation?.facts.quotaFree !== true;
    const { admission, state } = await limiter.admitWithState(account.id, now, consumes);
    // A place taken for a request already answered (the deadline's 504 while the key was looked
    // up or a cluster's primary asked) or whose client has left is given back at once: its
    // response closed before this handler could wait for it to close.
    if (answered(res)) {
      if (admission.admitted) admission.release();
      return;
    }
    // A request the service could not serve (503 upstream_busy, the deadline's 504) gives back its
    // window places too: no 429 or cooldown is counted for it.
    if (admission.admitted) res.once('close', () => admission.release(unserved(res)));
    setRateLimitHeaders(res, state);
    if (!admission.admitted) {
      const { code, kind, retryAfterMs, message } = admission.rejection;
      metrics.limiterRejections.inc({ kind });
      sendError(res, new ApiError(429, code, message, [], retryAfterMs));
      return;
    }
    if (account.status === 'suspended') {
      sendError(res, new ApiError(403, 'account_suspended', 'This account is suspended.'));
      return;
    }
    next();
  };
}
