/**
 * The request pool shared out between accounts. Requests of several accounts that hold their
 * connections for long (a slow read, a lock) would otherwise fill the pool, and an unrelated
 * account's small page would queue behind them for as long as they last. So an authenticated
 * request, once validated, takes a place at this process's gate before its handler runs: there are
 * as many places as the process has request connections, and one account holds at most a quarter of
 * them (rounded up), whatever its rate limits let through. A request that finds no place for its
 * account waits, first come first served, for at most `waitMs`, then answers 503 upstream_busy with
 * Retry-After (the spec's "service work capacity full"). Its place is given back when its response
 * closes.
 *
 * Per process, like the pool it guards: each HTTP worker of a cluster has its own pool.
 */
import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { sendError } from './errors.js';

/** How long a refused request is asked to wait before it tries again. */
const BUSY_RETRY_AFTER_MS = 1_000;

interface Waiter {
  account: string;
  admit: () => void;
}

export class DatabaseGate {
  /** The places one account may hold at once. */
  readonly perAccount: number;
  private busy = 0;
  private readonly held = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly places: number,
    readonly waitMs: number,
  ) {
    this.perAccount = Math.max(1, Math.ceil(places / 4));
  }

  private free(account: string): boolean {
    return this.busy < this.places && (this.held.get(account) ?? 0) < this.perAccount;
  }

  private take(account: string): () => void {
    this.busy += 1;
    this.held.set(account, (this.held.get(account) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.busy -= 1;
      const left = (this.held.get(account) ?? 1) - 1;
      if (left === 0) this.held.delete(account);
      else this.held.set(account, left);
      this.wake();
    };
  }

  /** Admits the first waiters that now have a place, in arrival order. */
  private wake(): void {
    for (let i = 0; i < this.waiting.length && this.busy < this.places;) {
      const waiter = this.waiting[i] as Waiter;
      if (this.free(waiter.account)) {
        this.waiting.splice(i, 1);
        waiter.admit();
      } else {
        i += 1;
      }
    }
  }

  /**
   * A place for a request of `account`: its release, or null when none was free within `waitMs`
   * (or `gone` resolved first: the client left).
   */
  async enter(account: string, gone: Promise<void>): Promise<(() => void) | null> {
    // Waiters left after a wake() lack a place for their own account, so a request that has one
    // overtakes none of them by taking it.
    if (this.free(account)) return this.take(account);
    return await new Promise((resolve) => {
      const waiter: Waiter = {
        account,
        admit: () => {
          clearTimeout(timer);
          resolve(this.take(account));
        },
      };
      const leave = (): void => {
        const index = this.waiting.indexOf(waiter);
        if (index < 0) return;
        this.waiting.splice(index, 1);
        clearTimeout(timer);
        resolve(null);
      };
      this.waiting.push(waiter);
      const timer = setTimeout(leave, this.waitMs);
      void gone.then(leave);
    });
  }

  /** Places held now, for tests and logs. */
  get inUse(): number {
    return this.busy;
  }
}

/** The gate as middleware, for requests with an account (others pass). */
export function databaseGate(gate: DatabaseGate, metrics: Metrics): RequestHandler {
  return async (_req, res, next) => {
    const account = res.locals.accountId as string | undefined;
    if (account === undefined) {
      next();
      return;
    }
    const gone = new Promise<void>((resolve) => res.once('close', () => resolve()));
    const release = await gate.enter(account, gone);
    if (release === null) {
      if (!res.closed) {
        metrics.gateRejections.inc();
        sendError(
          res,
          new ApiError(503, 'upstream_busy', "The service's database capacity is full; retry with backoff.", [], BUSY_RETRY_AFTER_MS),
        );
      }
      return;
    }
    // Answered meanwhile (the route deadline) or left: the place goes back at once.
    if (res.closed || res.headersSent) {
      release();
      return;
    }
    res.once('close', release);
    next();
  };
}
