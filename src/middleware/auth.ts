/**
 * Authentication and the rate-limit windows. Public routes and requests without valid credentials
 * spend the keyless budget of their client network; a valid key admits the request through its
 * account's windows, and every authenticated response carries the X-RateLimit-* headers.
 */
import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Config } from '../config.js';
import type { OperationSpec } from '../contract.js';
import { findKeyByPrefix } from '../db/accounts.js';
import type { Database } from '../db/connection.js';
import { keyMatches, keyPrefix } from '../api-keys.js';
import { authenticatedAccount, type AuthenticatedAccount } from '../entitlements.js';
import { ApiError } from '../errors.js';
import { sendError } from './errors.js';
import { clientAddress, clientNetwork, type Limiter, type WindowState } from '../limits/rate-limiter.js';

interface CachedKey {
  account: AuthenticatedAccount;
  secretHash: Buffer;
  expires: number;
  /** The key last seen to match the hash, so a cache hit needs no hashing. */
  verified?: Buffer;
}

/** Whether a presented key opens a cached entry: constant-time either way. */
function keyOpens(entry: CachedKey, token: string): boolean {
  const presented = Buffer.from(token, 'utf8');
  if (entry.verified && entry.verified.length === presented.length && timingSafeEqual(entry.verified, presented)) return true;
  if (!keyMatches(token, entry.secretHash)) return false;
  entry.verified = presented;
  return true;
}

/** Keys read from the database are kept `ttlMs`, so a revocation takes effect within that time. */
export class KeyCache {
  private readonly entries = new Map<string, CachedKey | null>();
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly ttlMs: number,
  ) {}

  async lookup(prefix: string, now: number): Promise<CachedKey | null> {
    const expiry = this.expiries.get(prefix);
    if (expiry !== undefined && expiry > now) return this.entries.get(prefix) ?? null;
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
}

function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? (match[1] ?? null) : null;
}

export function authenticate(options: AuthOptions): RequestHandler {
  const { limiter, keys, clock, config } = options;

  const spendKeyless = async (res: Response, network: string, now: number): Promise<boolean> => {
    const admission = await limiter.admitKeyless(network, now);
    if (!admission.admitted) {
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
      if (await spendKeyless(res, network, now)) next();
      return;
    }

    const token = bearerToken(req.get('authorization'));
    const prefix = token === null ? null : keyPrefix(token);
    const cached = prefix === null ? null : await keys.lookup(prefix, now);
    if (token === null || cached === null || !keyOpens(cached, token)) {
      if (!(await spendKeyless(res, network, now))) return;
      sendError(res, new ApiError(401, 'unauthorized', token === null ? 'Missing API key: send Authorization: Bearer <API_KEY>.' : 'Invalid API key.'));
      return;
    }

    const account = cached.account;
    res.locals.accountId = account.id;
    res.locals.keyId = account.key?.id;
    res.locals.account = account;
    if (account.status === 'suspended') {
      setRateLimitHeaders(res, await limiter.state(account.id, now));
      sendError(res, new ApiError(403, 'account_suspended', 'This account is suspended.'));
      return;
    }

    const consumes = operation?.facts.quotaFree !== true;
    const { admission, state } = await limiter.admitWithState(account.id, now, consumes);
    setRateLimitHeaders(res, state);
    if (!admission.admitted) {
      const { code, retryAfterMs, message } = admission.rejection;
      sendError(res, new ApiError(429, code, message, [], retryAfterMs));
      return;
    }
    // A client that left while a cluster's primary was asked has already closed the response.
    if (res.closed) {
      admission.release();
      return;
    }
    res.on('close', admission.release);
    next();
  };
}
