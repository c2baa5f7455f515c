/**
 * The rate-limit windows of the spec's Limits section, in the memory of one API process (each HTTP
 * worker of a cluster for itself, or with LIMIT_SCOPE=cluster the primary, answering its workers:
 * cluster-limiter.ts):
 * a rolling minute and a rolling second per account, requests in flight per account, two rolling
 * minutes per client network (one for keyless and bad-credential requests, one for the public
 * routes, so that a flood of bad keys does not make GET /v1/status answer 429), and a cooldown for an
 * account that keeps sending after 429s. Only admitted requests enter the windows, so rejected
 * requests do not consume them. Time comes in as an argument: the limiter has no clock of its own.
 */
import type { Limits } from '../config.js';
import { ConnectionWindow, type ConnectionAdmission, type ConnectionLimits } from './connection-window.js';

const MINUTE = 60_000;
const SECOND = 1_000;

/** Timestamps of admitted requests, oldest first, with amortised O(1) expiry. */
class Window {
  private readonly stamps: number[] = [];
  private head = 0;

  constructor(private readonly spanMs: number) {}

  size(now: number): number {
    const cutoff = now - this.spanMs;
    while (this.head < this.stamps.length && (this.stamps[this.head] ?? Infinity) <= cutoff) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.stamps.length) {
      this.stamps.splice(0, this.head);
      this.head = 0;
    }
    return this.stamps.length - this.head;
  }

  /** When the oldest entry leaves the window (Infinity when empty). */
  nextExpiry(now: number): number {
    return this.size(now) === 0 ? Infinity : (this.stamps[this.head] ?? now) + this.spanMs;
  }

  add(now: number): void {
    this.stamps.push(now);
  }

  /** Takes out one entry of `stamp` (a request given back unserved), if it is still in the window. */
  remove(stamp: number): void {
    for (let i = this.stamps.length - 1; i >= this.head; i -= 1) {
      const at = this.stamps[i] ?? -Infinity;
      if (at === stamp) {
        this.stamps.splice(i, 1);
        return;
      }
      if (at < stamp) return;
    }
  }

  /** Adds a stamp that may be older than the newest (a lease's, reported late): kept in order. */
  insert(stamp: number): void {
    let i = this.stamps.length;
    while (i > this.head && (this.stamps[i - 1] ?? -Infinity) > stamp) i -= 1;
    if (i === this.stamps.length) this.stamps.push(stamp);
    else this.stamps.splice(i, 0, stamp);
  }
}

/** How long to wait for a window of `spanMs` to have room: until its oldest leaves, else its span. */
function waitFor(window: Window, now: number, spanMs: number): number {
  const next = window.nextExpiry(now);
  return Number.isFinite(next) ? Math.max(1, next - now) : spanMs;
}

/** A refusal: its error code, and which limit refused (`kind`, what the metrics count it by). */
export type Rejection = {
  code: 'rate_limited' | 'burst_limited' | 'cooldown';
  kind: 'in_flight' | 'second' | 'minute' | 'cooldown' | 'keyless';
  retryAfterMs: number;
  message: string;
};

export interface WindowState {
  limit: number;
  remaining: number;
  /** Unix ms when one more request is allowed: now while some remain, else when the oldest expires. */
  reset: number;
  burstLimit: number;
  burstRemaining: number;
  burstReset: number;
  inFlight: number;
  cooldownUntil: number | null;
}

class AccountState {
  readonly minute = new Window(MINUTE);
  readonly second = new Window(SECOND);
  rejections = new Window(MINUTE);
  inFlight = 0;
  /** Window places leased to a cluster's workers and not yet reported used or given back. */
  reserved = 0;
  cooldownUntil = 0;
  lastSeen = 0;
}

/**
 * An admitted request holds its in-flight place until release(). `unserved`: the service itself
 * could not serve it (503 upstream_busy, 504: its database unavailable or too slow), so its place
 * in the minute and second windows is given back too: a client is not refused 429, nor cooled
 * down, for what the service failed to do.
 */
export type Admission = { admitted: true; release: (unserved?: boolean) => void } | { admitted: false; rejection: Rejection };

export type KeylessAdmission = { admitted: true; remaining: number; reset: number } | { admitted: false; rejection: Rejection };

/**
 * The keyless budgets of a client network: 'credentials' for requests without a valid key, 'public'
 * for the routes that need none (the same size, counted apart).
 */
export type KeylessBudget = 'credentials' | 'public';

/**
 * What the request path asks of the limits: the RateLimiter itself in a single process, or, in a
 * cluster's worker, a client of the primary's one RateLimiter (cluster-limiter.ts), whose answers
 * come back asynchronously. Callers await every answer.
 */
export interface Limiter {
  /** admit(), and the windows after it (the rate-limit headers), in one step. */
  admitWithState(
    accountId: string,
    now: number,
    consume: boolean,
  ): { admission: Admission; state: WindowState } | Promise<{ admission: Admission; state: WindowState }>;
  state(accountId: string, now: number): WindowState | Promise<WindowState>;
  admitKeyless(network: string, now: number, budget: KeylessBudget, consume: boolean): KeylessAdmission | Promise<KeylessAdmission>;
  /** A stream connection of the account (connection-window.ts): counted where the request windows are. */
  admitConnection(accountId: string, now: number, limits: ConnectionLimits): ConnectionAdmission | Promise<ConnectionAdmission>;
}

export class RateLimiter implements Limiter {
  private readonly accounts = new Map<string, AccountState>();
  private readonly networks = new Map<string, Window>();
  private sweeps = 0;
  private connections: ConnectionWindow | null = null;

  constructor(readonly limits: Limits) {}

  /** The stream connection window, made with the limits of the first connection asked for. */
  admitConnection(accountId: string, now: number, limits: ConnectionLimits): ConnectionAdmission {
    this.connections ??= new ConnectionWindow(limits);
    return this.connections.admit(accountId, now);
  }

  private account(id: string, now: number): AccountState {
    let state = this.accounts.get(id);
    if (!state) {
      state = new AccountState();
      this.accounts.set(id, state);
    }
    state.lastSeen = now;
    return state;
  }

  /**
   * Admits a request of an account or says why not. With `consume` false (GET /v1/account/limits)
   * the request holds an in-flight slot but spends nothing in the windows, and is answered during a
   * cooldown too.
   */
  admit(accountId: string, now: number, consume = true): Admission {
    this.sweep(now);
    const state = this.account(accountId, now);
    const rejection = this.check(state, now, consume);
    if (rejection) return { admitted: false, rejection: this.refused(state, now, rejection) };
    if (consume) {
      state.minute.add(now);
      state.second.add(now);
    }
    state.inFlight += 1;
    let released = false;
    return {
      admitted: true,
      release: (unserved = false) => {
        if (!released) {
          released = true;
          state.inFlight -= 1;
          if (unserved && consume) this.giveBack(state, [now]);
        }
      },
    };
  }

  /** Takes the window places of requests that were not served out of the minute and second windows. */
  private giveBack(state: AccountState, stamps: readonly number[]): void {
    for (const stamp of stamps) {
      state.minute.remove(stamp);
      state.second.remove(stamp);
    }
  }

  /**
   * Counts a refusal of `check()`: the rejection that crosses the threshold starts a cooldown.
   * Requests during a cooldown are refused without extending it, so a client that waits the
   * Retry-After it was given gets back in.
   */
  private refused(state: AccountState, now: number, rejection: Rejection): Rejection {
    if (rejection.code === 'cooldown') return rejection;
    state.rejections.add(now);
    if (state.rejections.size(now) >= this.limits.cooldownAfterRejections && this.limits.cooldownMs > 0) {
      state.cooldownUntil = now + this.limits.cooldownMs;
      state.rejections = new Window(MINUTE);
      return this.cooldownRejection(state, now);
    }
    return rejection;
  }

  /**
   * A lease for a cluster's worker (cluster-limiter.ts): up to `want.seats` in-flight places and,
   * with `consume`, up to `want.slots` places of the minute and second windows, each at most the
   * free places divided by `share` (at least the one a request needs); or why not, not yet counted
   * as a refusal (refuse() counts it, once the lessor has taken back what other workers held).
   */
  lease(
    accountId: string,
    now: number,
    consume: boolean,
    want: { slots: number; seats: number },
    share: number,
  ): { slots: number; seats: number } | Rejection {
    this.sweep(now);
    const state = this.account(accountId, now);
    const rejection = this.check(state, now, consume);
    if (rejection) return rejection;
    const l = this.limits;
    const part = (free: number, wanted: number): number => Math.max(1, Math.min(wanted, Math.floor(free / share)));
    const seats = part(l.requestsInFlight - state.inFlight, want.seats);
    const freeSlots = Math.min(l.requestsPerSecond - state.second.size(now), l.requestsPerMinute - state.minute.size(now)) - state.reserved;
    const slots = consume ? part(freeSlots, want.slots) : 0;
    state.inFlight += seats;
    state.reserved += slots;
    return { slots, seats };
  }

  /** Counts a lease's refusal as admit() counts its own; the rejection to answer. */
  refuse(accountId: string, now: number, rejection: Rejection): Rejection {
    return this.refused(this.account(accountId, now), now, rejection);
  }

  /**
   * What a worker gives back of its leases: the window places it used (when), those it did not use,
   * in-flight places, and the window places of requests reported used before that were not served
   * (`unserved`, when each was used).
   */
  settle(accountId: string, now: number, used: readonly number[], unused: number, seats: number, unserved: readonly number[] = []): void {
    const state = this.account(accountId, now);
    for (const stamp of used) {
      state.minute.insert(stamp);
      state.second.insert(stamp);
    }
    this.giveBack(state, unserved);
    state.reserved = Math.max(0, state.reserved - used.length - unused);
    state.inFlight = Math.max(0, state.inFlight - seats);
  }

  admitWithState(accountId: string, now: number, consume: boolean): { admission: Admission; state: WindowState } {
    const admission = this.admit(accountId, now, consume);
    return { admission, state: this.state(accountId, now) };
  }

  private cooldownRejection(state: AccountState, now: number): Rejection {
    return {
      code: 'cooldown',
      kind: 'cooldown',
      retryAfterMs: state.cooldownUntil - now,
      message: 'Cooling down after sustained requests following 429 responses.',
    };
  }

  private check(state: AccountState, now: number, consume: boolean): Rejection | null {
    if (consume && state.cooldownUntil > now) return this.cooldownRejection(state, now);
    if (state.inFlight >= this.limits.requestsInFlight) {
      return {
        code: 'rate_limited',
        kind: 'in_flight',
        retryAfterMs: 1000,
        message: `At most ${this.limits.requestsInFlight} requests may be in flight per account.`,
      };
    }
    if (!consume) return null;
    if (state.second.size(now) + state.reserved >= this.limits.requestsPerSecond) {
      return {
        code: 'burst_limited',
        kind: 'second',
        retryAfterMs: waitFor(state.second, now, SECOND),
        message: `More than ${this.limits.requestsPerSecond} requests in a rolling second.`,
      };
    }
    if (state.minute.size(now) + state.reserved >= this.limits.requestsPerMinute) {
      return {
        code: 'rate_limited',
        kind: 'minute',
        retryAfterMs: waitFor(state.minute, now, MINUTE),
        message: `More than ${this.limits.requestsPerMinute} requests in a rolling minute.`,
      };
    }
    return null;
  }

  state(accountId: string, now: number): WindowState {
    const state = this.account(accountId, now);
    const used = state.minute.size(now) + state.reserved;
    const burstUsed = state.second.size(now) + state.reserved;
    const remaining = Math.max(0, this.limits.requestsPerMinute - used);
    const burstRemaining = Math.max(0, this.limits.requestsPerSecond - burstUsed);
    return {
      limit: this.limits.requestsPerMinute,
      remaining,
      reset: remaining > 0 ? now : state.minute.nextExpiry(now),
      burstLimit: this.limits.requestsPerSecond,
      burstRemaining,
      burstReset: burstRemaining > 0 ? now : state.second.nextExpiry(now),
      inFlight: state.inFlight,
      cooldownUntil: state.cooldownUntil > now ? state.cooldownUntil : null,
    };
  }

  /**
   * A keyless budget of a client network: admits (and with `consume`, spends), or says how long to
   * wait. Without `consume` it only asks whether the budget has room: authentication asks before it
   * looks an unknown key up, so that credentials sent after the budget is spent cost no lookup.
   */
  admitKeyless(network: string, now: number, budget: KeylessBudget = 'credentials', consume = true): KeylessAdmission {
    this.sweep(now);
    const name = `${budget} ${network}`;
    let window = this.networks.get(name);
    if (!window) {
      window = new Window(MINUTE);
      this.networks.set(name, window);
    }
    if (window.size(now) >= this.limits.keylessRequestsPerMinute) {
      const who = budget === 'public' ? 'Requests to the routes that need no key are' : 'Requests without a valid key are';
      return {
        admitted: false,
        rejection: {
          code: 'rate_limited',
          kind: 'keyless',
          retryAfterMs: Math.max(1, window.nextExpiry(now) - now),
          message: `${who} limited to ${this.limits.keylessRequestsPerMinute} per minute per client network.`,
        },
      };
    }
    if (consume) window.add(now);
    const remaining = this.limits.keylessRequestsPerMinute - window.size(now);
    return { admitted: true, remaining, reset: remaining > 0 ? now : window.nextExpiry(now) };
  }

  /** Forgets idle accounts and networks now and then, so memory stays bounded. */
  private sweep(now: number): void {
    this.sweeps += 1;
    if (this.sweeps % 4096 !== 0) return;
    for (const [id, state] of this.accounts) {
      if (state.inFlight === 0 && state.reserved === 0 && now - state.lastSeen > 2 * MINUTE && state.cooldownUntil <= now)
        this.accounts.delete(id);
    }
    for (const [network, window] of this.networks) {
      if (window.size(now) === 0) this.networks.delete(network);
    }
  }
}

/**
 * The client network of an address: the /24 of IPv4 (IPv4-mapped IPv6 included) or the /56 of
 * IPv6, the usual allocation to one site, so one customer's hosts share one keyless budget.
 */
export function clientNetwork(rawAddress: string): string {
  // Forwarded entries may carry a port: "1.2.3.4:5678" or "[2001:db8::1]:443".
  const address = rawAddress.replace(/^\[([^\]]+)\](?::\d+)?$/, '$1').replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/, '$1');
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mappedHex) {
    const high = parseInt(mappedHex[1] ?? '0', 16);
    const low = parseInt(mappedHex[2] ?? '0', 16);
    return `${high >> 8}.${high & 0xff}.${low >> 8}.0/24`;
  }
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (address.includes(':')) {
    const [head = '', tail = ''] = address.split('::');
    const headGroups = head === '' ? [] : head.split(':');
    const tailGroups = tail === '' ? [] : tail.split(':');
    const groups = address.includes('::')
      ? [...headGroups, ...Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups]
      : headGroups;
    const g = groups.map((x) => parseInt(x || '0', 16));
    const fourth = (g[3] ?? 0) & 0xff00;
    return `${[g[0] ?? 0, g[1] ?? 0, g[2] ?? 0, fourth].map((x) => x.toString(16)).join(':')}::/56`;
  }
  return address || 'unknown';
}

/**
 * The client address: the socket peer, or with `trustedHops` proxies in front, the entry of
 * X-Forwarded-For that the outermost trusted proxy saw (entries further left can be forged).
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustedHops: number): string {
  const peer = socketAddress ?? 'unknown';
  if (trustedHops <= 0 || !forwardedFor) return peer;
  const chain = [
    ...forwardedFor
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    peer,
  ];
  return chain[Math.max(0, chain.length - 1 - trustedHops)] ?? peer;
}
