/**
 * Limits counted once for a deployment of several machines on one PostgreSQL (LIMIT_SCOPE=deployment,
 * the default with DATABASE_URL). Each machine's cluster primary answers its HTTP workers' leases
 * as with LIMIT_SCOPE=cluster (cluster-limiter.ts: the IPC limiter stays the fast path inside a
 * machine, a worker admits from its batch without a round trip), but the places come from the store:
 * the primary leases a batch for the worker and a pool for the machine in one statement
 * (src/db/limits.ts, limit_lease), which counts them as taken for every machine; later worker leases
 * are served from the pool at once, and the pool is topped up in the background when it runs low
 * (given back after POOL_IDLE_MS unused, or when recalled). The workers' reports (when each place was used, what went unused, the
 * seats back) are forwarded as one statement per account at a time (limit_settle), a later report
 * merged into the one waiting. A lease of an account waits for that account's report in flight, so
 * places given back are free before the store decides.
 *
 * Before refusing, a machine recalls: its own workers first (the lease book), then the other
 * machines holding places of the account (NOTIFY on RECALL_CHANNEL; each recalls its workers and
 * gives back what is not in use, then NOTIFYs GIVEN_CHANNEL); it asks again at each "given" and at
 * RECALL_WAIT_MS at the latest, then refuses and counts the refusal (cooldowns are in the store too).
 *
 * A machine beats every BEAT_MS; its leases expire HOLDER_TTL_MS after its last beat by the database's
 * clock, after which the next statement on an account reaps them: seats freed, window places counted
 * as used at the last beat (the dead machine may have admitted requests with them). The database
 * lost: a lease or a recall fails and the worker's request answers 503 upstream_busy with Retry-After
 * (places a worker already holds are counted as taken in the store, and are used); reports wait and
 * are sent once it answers. Windows in the store are the machines' wall-clock ms (the service clock
 * less its offset): machines keep their clocks in step (NTP).
 */
import { randomBytes } from 'node:crypto';
import type { Limits } from '../config.js';
import type { ConnectionAdmission, ConnectionLimits } from './connection-window.js';
import { RateLimiter, type KeylessAdmission, type KeylessBudget, type Rejection, type WindowState } from './rate-limiter.js';

/** How often a machine renews its holder's lease in the store. */
export const BEAT_MS = 1_000;
/** How long a machine's places outlive its last beat: a dead machine's are given back within this (and a beat). */
export const HOLDER_TTL_MS = 3_000;
/** The longest a refusal waits for other machines to give back an account's places. */
export const RECALL_WAIT_MS = 250;
/** Window places a machine's pool of an account asks the store for beyond a worker's lease, and below which it is topped up. */
const POOL_SLOTS = 128;
const POOL_LOW = 64;
/** A pool not leased from for this long goes back to the store. */
const POOL_IDLE_MS = 1_000;
/** The longest the times of places used wait to be sent to the store (merged with the reports that follow). */
export const REPORT_MS = 500;
/** How long a report the store could not take waits before it is sent again. */
const RETRY_MS = 500;

/** An account's windows in the store, leased places counted as taken (wall-clock ms). */
export interface StoreWindows {
  minuteUsed: number;
  secondUsed: number;
  seated: number;
  /** The oldest admission still in the minute (second) window, null when none. */
  minuteNext: number | null;
  secondNext: number | null;
  cooldownUntil: number;
}

export interface StoreLease {
  slots: number;
  seats: number;
  refusal: 'cooldown' | 'in_flight' | 'second' | 'minute' | null;
  /** Places of the account (window places and seats) held by other machines. */
  others: number;
  windows: StoreWindows;
}

/** What the lessor needs of the store (src/db/limits.ts). */
export interface LimitStore {
  lease(r: {
    account: string;
    holder: string;
    now: number;
    consume: boolean;
    slots: number;
    seats: number;
    share: number;
    perMinute: number;
    perSecond: number;
    inFlight: number;
  }): Promise<StoreLease>;
  settle(r: {
    account: string;
    holder: string;
    now: number;
    used: number[];
    unused: number;
    seats: number;
    unserved: number[];
  }): Promise<StoreWindows>;
  refuse(account: string, now: number, after: number, cooldownMs: number): Promise<number>;
  beat(holder: string, now: number, ttlMs: number): Promise<{ alive: boolean; holders: number }>;
  leave(holder: string): Promise<void>;
  recall(account: string, from: string): Promise<void>;
  given(account: string): Promise<void>;
  listen(handlers: {
    onRecall(account: string, from: string): void;
    onGiven(account: string): void;
    onLost(error: Error): void;
  }): Promise<{ end(): Promise<void> }>;
}

/** Places granted, or why not (with, from the store, the windows the refusal was decided on). */
export type LeaseAnswer = { slots: number; seats: number } | (Rejection & { state?: WindowState });

/** What the lease book (cluster-limiter.ts) asks of the windows it leases from: a RateLimiter, or this. */
export interface WindowLessor {
  lease(
    accountId: string,
    now: number,
    consume: boolean,
    want: { slots: number; seats: number },
    share: number,
    last?: boolean,
  ): LeaseAnswer | Promise<LeaseAnswer>;
  refuse(accountId: string, now: number, rejection: Rejection): Rejection | Promise<Rejection>;
  settle(accountId: string, now: number, used: readonly number[], unused: number, seats: number, unserved?: readonly number[]): void;
  state(accountId: string, now: number): WindowState;
  /** The windows as the store has them now (GET /v1/account/limits); a RateLimiter's state() is current already. */
  freshState?(accountId: string, now: number): Promise<WindowState>;
  admitKeyless(network: string, now: number, budget: KeylessBudget, consume: boolean): KeylessAdmission;
  admitConnection(accountId: string, now: number, limits: ConnectionLimits): ConnectionAdmission;
  /** A lease's last try (`last`) recalls places held elsewhere (other machines): the lease book makes one even when no worker of its own holds any. */
  readonly recallsOthers?: boolean;
  /** Called by the lease book: how to recall an account's places from this machine's workers. */
  onRecall?(recallWorkers: (account: string) => Promise<void>): void;
}

interface Pending {
  used: number[];
  unused: number;
  seats: number;
  unserved: number[];
}

/** The refusal of a store lease, as the RateLimiter words it (retry times in the service clock's ms). */
export function rejectionOf(refusal: NonNullable<StoreLease['refusal']>, w: StoreWindows, limits: Limits, wallNow: number): Rejection {
  switch (refusal) {
    case 'cooldown':
      return {
        code: 'cooldown',
        kind: 'cooldown',
        retryAfterMs: Math.max(1, w.cooldownUntil - wallNow),
        message: 'Cooling down after sustained requests following 429 responses.',
      };
    case 'in_flight':
      return {
        code: 'rate_limited',
        kind: 'in_flight',
        retryAfterMs: 1000,
        message: `At most ${limits.requestsInFlight} requests may be in flight per account.`,
      };
    case 'second':
      return {
        code: 'burst_limited',
        kind: 'second',
        retryAfterMs: w.secondNext === null ? 1000 : Math.max(1, w.secondNext + 1000 - wallNow),
        message: `More than ${limits.requestsPerSecond} requests in a rolling second.`,
      };
    case 'minute':
      return {
        code: 'rate_limited',
        kind: 'minute',
        retryAfterMs: w.minuteNext === null ? 60_000 : Math.max(1, w.minuteNext + 60_000 - wallNow),
        message: `More than ${limits.requestsPerMinute} requests in a rolling minute.`,
      };
  }
}

/** The rate-limit headers' windows from the store's (wall-clock ms in, the service clock's out). */
export function windowStateOf(w: StoreWindows, limits: Limits, wallNow: number, offset: number): WindowState {
  const remaining = Math.max(0, limits.requestsPerMinute - w.minuteUsed);
  const burstRemaining = Math.max(0, limits.requestsPerSecond - w.secondUsed);
  const now = wallNow + offset;
  return {
    limit: limits.requestsPerMinute,
    remaining,
    reset: remaining > 0 || w.minuteNext === null ? now : w.minuteNext + 60_000 + offset,
    burstLimit: limits.requestsPerSecond,
    burstRemaining,
    burstReset: burstRemaining > 0 || w.secondNext === null ? now : w.secondNext + 1000 + offset,
    inFlight: w.seated,
    cooldownUntil: w.cooldownUntil > wallNow ? w.cooldownUntil + offset : null,
  };
}

/** Adds a report to the one waiting to be sent. */
export function mergeReport(into: Pending, r: Pending): void {
  into.used.push(...r.used);
  into.unused += r.unused;
  into.seats += r.seats;
  into.unserved.push(...r.unserved);
}

function emptyReport(): Pending {
  return { used: [], unused: 0, seats: 0, unserved: [] };
}

function isEmpty(r: Pending): boolean {
  return r.used.length === 0 && r.unused === 0 && r.seats === 0 && r.unserved.length === 0;
}

/** One machine's lessor of the deployment's limits in the store. */
export class DeploymentLessor implements WindowLessor {
  readonly recallsOthers = true;
  /** This machine's name in the store (a new one if its lease was found expired). */
  holder = `${process.pid}-${randomBytes(6).toString('hex')}`;
  /** Live machines (this one included), from the last beat: a lease is at most the free places over twice this. */
  private machines = 1;
  private readonly pending = new Map<string, Pending>();
  private readonly flushing = new Map<string, Promise<void>>();
  private readonly windows = new Map<string, { w: StoreWindows; at: number }>();
  /** Places this machine holds in the store per account (leased, not yet reported or given back). */
  private readonly held = new Map<string, number>();
  private readonly refills = new Set<Promise<void>>();
  private readonly reportTimers = new Map<string, NodeJS.Timeout>();
  private readonly pools = new Map<string, { slots: number; seats: number; usedAt: number; refilling: boolean }>();
  private readonly givenWaiters = new Map<string, Set<() => void>>();
  private recallWorkers: (account: string) => Promise<void> = () => Promise.resolve();
  /** Keyless budgets and stream connections stay per machine. */
  private readonly local: RateLimiter;
  private beatTimer: NodeJS.Timeout | null = null;
  private listener: { end(): Promise<void> } | null = null;
  private stopped = false;
  /** The first beat (a lease taken before it would be an orphan, reaped by the next statement). */
  private ready: Promise<void> = Promise.resolve();

  /**
   * `clock`: the service's; `offset`: its offset from the wall clock (the store's windows are wall
   * ms); `log`: where a lost store connection is said.
   */
  constructor(
    private readonly store: LimitStore,
    private readonly limits: Limits,
    private readonly clock: () => number,
    private readonly offset: number,
    private readonly log: (message: string, fields?: Record<string, unknown>) => void = () => undefined,
  ) {
    this.local = new RateLimiter(limits);
  }

  /** Beats once and listens for recalls; then beats every BEAT_MS. A store not answering now is retried by the beats. */
  start(): Promise<void> {
    this.ready = (async () => {
      await this.beat();
      await this.listen();
      this.beatTimer = setInterval(() => void this.beat(), BEAT_MS);
      this.beatTimer.unref();
    })();
    return this.ready;
  }

  private async listen(): Promise<void> {
    if (this.stopped || this.listener) return;
    try {
      this.listener = await this.store.listen({
        onRecall: (account, from) => {
          if (from !== this.holder) void this.recalled(account);
        },
        onGiven: (account) => {
          for (const wake of this.givenWaiters.get(account) ?? []) wake();
        },
        onLost: (error) => {
          this.listener = null;
          this.log('limits: the recall connection was lost; listening again at the next beat', { error: error.message });
        },
      });
    } catch (error) {
      this.log('limits: cannot listen for recalls yet', { error: (error as Error).message });
    }
  }

  private async beat(): Promise<void> {
    try {
      this.returnIdlePools();
      const beat = await this.store.beat(this.holder, this.wall(), HOLDER_TTL_MS);
      this.machines = Math.max(1, beat.holders);
      if (!beat.alive) {
        // Our leases were reaped (counted as used): forget them, beat again under a new name.
        this.log("limits: this machine's lease in the store had expired; its places were reaped", { holder: this.holder });
        this.holder = `${process.pid}-${randomBytes(6).toString('hex')}`;
        this.held.clear();
        this.pools.clear();
        await this.store.beat(this.holder, this.wall(), HOLDER_TTL_MS);
      }
      if (!this.listener) await this.listen();
    } catch {
      // The database is away: leases will fail (503) until it answers; the beat tries again.
    }
  }

  /** Leaves the store: its leases expire at once (reaped by the next statement on each account). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.refills]);
    for (const account of [...this.reportTimers.keys()]) void this.flush(account);
    for (const account of [...this.pools.keys()]) this.returnPool(account);
    if (this.beatTimer) clearInterval(this.beatTimer);
    await Promise.all([...this.flushing.values()]).catch(() => undefined);
    await this.listener?.end().catch(() => undefined);
    await this.store.leave(this.holder).catch(() => undefined);
  }

  onRecall(recallWorkers: (account: string) => Promise<void>): void {
    this.recallWorkers = recallWorkers;
  }

  private wall(now: number = this.clock()): number {
    return now - this.offset;
  }

  /** Another machine asks for an account's places: the workers give back theirs, then this machine what it is not using. */
  private async recalled(account: string): Promise<void> {
    if ((this.held.get(account) ?? 0) <= 0) return;
    this.returnPool(account);
    await this.recallWorkers(account);
    await this.flush(account);
    await this.store.given(account).catch(() => undefined);
  }

  /**
   * A worker's lease: from the machine's pool when it has the places (no round trip: the pool is
   * refilled from the store in the background when it runs low), else from the store, the
   * worker's part and a batch more for the pool in one statement.
   */
  lease(
    accountId: string,
    now: number,
    consume: boolean,
    want: { slots: number; seats: number },
    share: number,
    last = false,
  ): LeaseAnswer | Promise<LeaseAnswer> {
    const pool = this.pools.get(accountId);
    if (!last && pool && (!consume || pool.slots > 0) && (want.seats === 0 || pool.seats > 0)) {
      const slots = consume ? Math.min(want.slots, pool.slots) : 0;
      const seats = Math.min(want.seats, pool.seats);
      pool.slots -= slots;
      pool.seats -= seats;
      pool.usedAt = Date.now();
      if (consume && pool.slots < POOL_LOW) this.refill(accountId, now, share);
      return { slots, seats };
    }
    return this.leaseFromStore(accountId, now, consume, want, share, last);
  }

  /** The machine's pool of an account: places leased from the store and not yet given to a worker. */
  private pool(account: string): { slots: number; seats: number; usedAt: number; refilling: boolean } {
    let pool = this.pools.get(account);
    if (!pool) {
      pool = { slots: 0, seats: 0, usedAt: Date.now(), refilling: false };
      this.pools.set(account, pool);
    }
    return pool;
  }

  private ask(account: string, now: number, consume: boolean, want: { slots: number; seats: number }, share: number): Promise<StoreLease> {
    return this.store.lease({
      account,
      holder: this.holder,
      now: this.wall(now),
      consume,
      slots: want.slots,
      seats: want.seats,
      // The machines' share and this machine's workers'.
      share: share * this.machines,
      perMinute: this.limits.requestsPerMinute,
      perSecond: this.limits.requestsPerSecond,
      inFlight: this.limits.requestsInFlight,
    });
  }

  /** Tops the pool up in the background (one refill of an account at a time; a refusal leaves it as it is). */
  private refill(account: string, now: number, share: number): void {
    const pool = this.pool(account);
    if (pool.refilling || this.stopped) return;
    pool.refilling = true;
    const refill = this.ask(account, now, true, { slots: POOL_SLOTS, seats: 0 }, share)
      .then((lease) => {
        this.windows.set(account, { w: lease.windows, at: Date.now() });
        if (lease.refusal !== null) return;
        this.held.set(account, (this.held.get(account) ?? 0) + lease.slots + lease.seats);
        const current = this.pool(account);
        current.slots += lease.slots;
        current.seats += lease.seats;
      })
      .catch(() => undefined)
      .finally(() => {
        const current = this.pools.get(account);
        if (current) current.refilling = false;
        this.refills.delete(refill);
      });
    this.refills.add(refill);
  }

  /** Gives the pool's places back to the store (with the next report). */
  private returnPool(account: string): void {
    const pool = this.pools.get(account);
    if (!pool) return;
    this.pools.delete(account);
    if (pool.slots > 0 || pool.seats > 0) this.settle(account, this.clock(), [], pool.slots, pool.seats);
  }

  private async leaseFromStore(
    accountId: string,
    now: number,
    consume: boolean,
    want: { slots: number; seats: number },
    share: number,
    last: boolean,
  ): Promise<LeaseAnswer> {
    await this.ready;
    // A pool that could not serve this lease goes back first: its places are free for it in the store.
    this.returnPool(accountId);
    await this.flush(accountId);
    const batch = { slots: consume ? want.slots + POOL_SLOTS : 0, seats: want.seats };
    let lease = await this.ask(accountId, now, consume, batch, share);
    if (lease.refusal !== null && last && lease.refusal !== 'cooldown' && lease.others > 0) {
      // Other machines hold places: they are asked to give back what they are not using.
      const deadline = Date.now() + RECALL_WAIT_MS;
      await this.store.recall(accountId, this.holder);
      while (lease.refusal !== null && lease.others > 0) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        await this.givenOrTimeout(accountId, left);
        lease = await this.ask(accountId, now, consume, want, share);
      }
    }
    this.windows.set(accountId, { w: lease.windows, at: Date.now() });
    // A refusal carries the windows it was decided on (a report finished meanwhile may have changed the cached ones).
    if (lease.refusal !== null)
      return {
        ...rejectionOf(lease.refusal, lease.windows, this.limits, this.wall(now)),
        state: windowStateOf(lease.windows, this.limits, this.wall(now), this.offset),
      };
    this.held.set(accountId, (this.held.get(accountId) ?? 0) + lease.slots + lease.seats);
    const slots = Math.min(want.slots, lease.slots);
    const seats = Math.min(want.seats, lease.seats);
    const pool = this.pool(accountId);
    pool.slots += lease.slots - slots;
    pool.seats += lease.seats - seats;
    pool.usedAt = Date.now();
    return { slots, seats };
  }

  /** Pools not leased from for POOL_IDLE_MS go back to the store (at each beat). */
  private returnIdlePools(): void {
    const before = Date.now() - POOL_IDLE_MS;
    for (const [account, pool] of this.pools) if (pool.usedAt < before && !pool.refilling) this.returnPool(account);
  }

  private givenOrTimeout(account: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      let waiters = this.givenWaiters.get(account);
      if (!waiters) {
        waiters = new Set();
        this.givenWaiters.set(account, waiters);
      }
      const set = waiters;
      const wake = (): void => {
        clearTimeout(timer);
        set.delete(wake);
        if (set.size === 0) this.givenWaiters.delete(account);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
    });
  }

  async refuse(accountId: string, now: number, rejection: Rejection): Promise<Rejection> {
    if (rejection.code === 'cooldown') return rejection;
    const wallNow = this.wall(now);
    const until = await this.store.refuse(accountId, wallNow, this.limits.cooldownAfterRejections, this.limits.cooldownMs);
    if (until > wallNow) {
      const cached = this.windows.get(accountId);
      if (cached) cached.w = { ...cached.w, cooldownUntil: until };
      return rejectionOf('cooldown', { ...(cached?.w ?? emptyWindows()), cooldownUntil: until }, this.limits, wallNow);
    }
    return rejection;
  }

  settle(accountId: string, _now: number, used: readonly number[], unused: number, seats: number, unserved: readonly number[] = []): void {
    const report: Pending = {
      used: used.map((t) => this.wall(t)),
      unused,
      seats,
      unserved: unserved.map((t) => this.wall(t)),
    };
    if (isEmpty(report)) return;
    const pending = this.pending.get(accountId) ?? emptyReport();
    mergeReport(pending, report);
    this.pending.set(accountId, pending);
    // Places given back are sent at once (another machine may wait for them); the times of places
    // used only within REPORT_MS, with the reports that follow: until then the places count as
    // taken in the store all the same.
    if (report.unused > 0 || report.seats > 0 || report.unserved.length > 0) {
      void this.flush(accountId);
    } else if (!this.reportTimers.has(accountId)) {
      const timer = setTimeout(() => {
        this.reportTimers.delete(accountId);
        void this.flush(accountId);
      }, REPORT_MS);
      timer.unref();
      this.reportTimers.set(accountId, timer);
    }
  }

  /** Sends the account's waiting report (after the one in flight); resolves once the store has it, or could not take it. */
  private flush(account: string): Promise<void> {
    const previous = this.flushing.get(account) ?? Promise.resolve();
    const timer = this.reportTimers.get(account);
    if (timer) {
      clearTimeout(timer);
      this.reportTimers.delete(account);
    }
    const next = previous.then(async () => {
      const report = this.pending.get(account);
      if (!report || isEmpty(report)) return;
      this.pending.delete(account);
      try {
        const w = await this.store.settle({ account, holder: this.holder, now: this.wall(), ...report });
        this.windows.set(account, { w, at: Date.now() });
        const left = (this.held.get(account) ?? 0) - report.used.length - report.unused - report.seats;
        if (left > 0) this.held.set(account, left);
        else this.held.delete(account);
      } catch {
        // Kept for the next try: the places stay counted as taken meanwhile.
        mergeReport(this.pending.get(account) ?? (this.pending.set(account, emptyReport()).get(account) as Pending), report);
        if (!this.stopped) setTimeout(() => void this.flush(account), RETRY_MS).unref();
      }
    });
    const tracked = next.finally(() => {
      if (this.flushing.get(account) === tracked) this.flushing.delete(account);
    });
    this.flushing.set(account, tracked);
    return tracked;
  }

  state(accountId: string, now: number): WindowState {
    const cached = this.windows.get(accountId);
    return windowStateOf(cached?.w ?? emptyWindows(), this.limits, this.wall(now), this.offset);
  }

  /** The windows as of the last statement on the account when at most REPORT_MS old (a report in flight awaited), else read now. */
  async freshState(accountId: string, now: number): Promise<WindowState> {
    await this.flushing.get(accountId);
    let cached = this.windows.get(accountId);
    if (!cached || Date.now() - cached.at > REPORT_MS) {
      await this.flush(accountId);
      cached = this.windows.get(accountId);
    }
    if (!cached || Date.now() - cached.at > REPORT_MS) {
      const w = await this.store.settle({
        account: accountId,
        holder: this.holder,
        now: this.wall(now),
        used: [],
        unused: 0,
        seats: 0,
        unserved: [],
      });
      this.windows.set(accountId, { w, at: Date.now() });
    }
    return this.state(accountId, now);
  }

  admitKeyless(network: string, now: number, budget: KeylessBudget, consume: boolean): KeylessAdmission {
    return this.local.admitKeyless(network, now, budget, consume);
  }

  admitConnection(accountId: string, now: number, limits: ConnectionLimits): ConnectionAdmission {
    return this.local.admitConnection(accountId, now, limits);
  }
}

function emptyWindows(): StoreWindows {
  return { minuteUsed: 0, secondUsed: 0, seated: 0, minuteNext: null, secondNext: null, cooldownUntil: 0 };
}
