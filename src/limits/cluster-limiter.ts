/**
 * One set of limits for a cluster of HTTP workers (LIMIT_SCOPE=cluster, the default). The primary
 * process holds the only RateLimiter; an account's windows and in-flight count are the configured
 * values whichever worker each request lands on (limits counted per worker would let an account
 * through N times).
 *
 * Asking the primary on every request cost a round trip over the IPC channel each (in the trades
 * benchmark most of the two workers' gain over one process). So a worker leases: when it has no
 * place for an account's request, it asks the primary for a batch of places (window places, used
 * one per request, and in-flight places, held while a request runs and reused after), and admits
 * the account's next requests from the batch without asking. The primary counts leased places as
 * taken, so the limits are never exceeded; a batch is at most the free places shared among the
 * workers. Every LEASE_MS a worker reports the times of the places it used (the windows hold when
 * each request was admitted, as in one process); a lease that admitted requests in that time is
 * kept, and the worker asks, without waiting for it, for the primary's windows again (the headers'
 * view); a lease that admitted none goes back. (A lease given back every LEASE_MS whether used or
 * not cost a busy account's requests a round trip each LEASE_MS on each worker: bench/trades saw
 * the limiter stage's mean at 2 to 15 ms, its median below 0.1 ms.) Holding a batch longer changes
 * no limit: its unused places count as taken in every window until used or given back. When the primary
 * would refuse a request while other workers hold places of the account, it first recalls them
 * (each worker gives back what it is not using), then decides: an account is refused only when it
 * has truly reached a limit. Near a limit this costs one more round trip; far from it, requests are
 * admitted without one. The rate-limit headers a worker sends from a batch are the primary's
 * windows when the batch was granted, less what the worker used since.
 *
 * Messages (JSON, tagged `oads: 'limit'`):
 * - worker to primary: `{ id, op: 'lease', account, now, consume, want, report }`, `{ op: 'settle',
 *   account, report, recalled }` (no answer), `{ id, op: 'state', account, now }`, `{ id, op:
 *   'keyless', network, now, budget, consume }`, `{ id, op: 'connection', account, now, limits }` (a
 *   stream connection); a report gives back places: `{ used: [times],
 *   unused, seats, unserved: [times] }` (unserved: places reported used whose requests were not served);
 * - primary to worker: `{ id, result }`, and `{ op: 'recall', account }`, which a worker answers
 *   with a settle marked recalled.
 * The primary gives back the places of a worker that exits (its unreported window places count as
 * used). Time comes from the service's clock (clock.ts) read by the workers, as it would be in one
 * process: they share one host and one offset, and the primary reads the same clock for an exit.
 */
import type { ConnectionAdmission, ConnectionLimits } from './connection-window.js';
import { ApiError } from '../errors.js';
import type { LeaseAnswer, WindowLessor } from './deployment-lessor.js';
import type { Admission, KeylessAdmission, KeylessBudget, Limiter, Rejection, WindowState } from './rate-limiter.js';

/** How long a client is asked to wait when the store of a deployment's limits does not answer (db-server/unavailable.ts's). */
const STORE_RETRY_AFTER_MS = 2_000;

/** How long a worker keeps places it does not use before it gives them back. */
export const LEASE_MS = 100;
/** The most window places and in-flight places one lease asks for. */
const LEASE_SLOTS = 64;
const LEASE_SEATS = 16;

/** Either end of an IPC channel (a cluster worker, or process in the worker). */
export interface Channel {
  send(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

interface Report {
  /** When each window place used was used. */
  used: number[];
  unused: number;
  seats: number;
  /** When each window place reported used before was used, by a request the service could not serve (given back). */
  unserved: number[];
}

type Request =
  | {
      oads: 'limit';
      id: number;
      op: 'lease';
      account: string;
      now: number;
      consume: boolean;
      want: { slots: number; seats: number };
      report: Report;
    }
  | { oads: 'limit'; op: 'settle'; account: string; now: number; report: Report; recalled: boolean }
  | { oads: 'limit'; id: number; op: 'state'; account: string; now: number }
  | { oads: 'limit'; id: number; op: 'keyless'; network: string; now: number; budget: KeylessBudget; consume: boolean }
  | { oads: 'limit'; id: number; op: 'connection'; account: string; now: number; limits: ConnectionLimits };

/** `unavailable`: the lessor's store (LIMIT_SCOPE=deployment) did not answer; the request answers 503. */
type LeaseResult =
  | { admitted: true; slots: number; seats: number; state: WindowState }
  | { admitted: false; rejection: Rejection; state: WindowState }
  | { admitted: false; unavailable: true; state: WindowState };

type Reply = { oads: 'limit'; id: number; result: LeaseResult | WindowState | KeylessAdmission | ConnectionAdmission };

interface Recall {
  oads: 'limit';
  op: 'recall';
  account: string;
}

function isLimitMessage(message: unknown): message is { oads: 'limit' } {
  return typeof message === 'object' && message !== null && (message as { oads?: unknown }).oads === 'limit';
}

/** Sends to a worker; one that has just exited is given up (leave() follows, on its exit). */
function send(channel: Channel, message: Reply | Recall): void {
  try {
    channel.send(message);
  } catch {
    // The worker's channel has closed.
  }
}

/** A worker as the primary sees it: its channel and the places it holds, per account. */
interface Holder {
  channel: Channel;
  holdings: Map<string, { slots: number; seats: number }>;
}

/** The leases of every worker of one primary's lessor (its RateLimiter, or the deployment's store). */
class LeaseBook {
  readonly holders = new Set<Holder>();
  /** Accounts whose places are being recalled: the workers not yet answered, the leases waiting. */
  private readonly recalls = new Map<string, { from: Set<Holder>; waiting: (() => void)[] }>();

  constructor(private readonly limiter: WindowLessor) {
    limiter.onRecall?.((account) => this.recallAll(account));
  }

  /** Recalls an account's places from every worker holding some (another machine asked); resolves once all have answered. */
  private recallAll(account: string): Promise<void> {
    return new Promise((resolve) => {
      const recall = this.recalls.get(account);
      if (recall) {
        recall.waiting.push(resolve);
        return;
      }
      const from = [...this.holders].filter((h) => h.holdings.has(account));
      if (from.length === 0) {
        resolve();
        return;
      }
      this.recalls.set(account, { from: new Set(from), waiting: [resolve] });
      for (const h of from) send(h.channel, { oads: 'limit', op: 'recall', account } satisfies Recall);
    });
  }

  settle(holder: Holder, account: string, now: number, report: Report): void {
    const held = holder.holdings.get(account);
    if (held) {
      held.slots -= report.used.length + report.unused;
      held.seats -= report.seats;
      if (held.slots <= 0 && held.seats <= 0) holder.holdings.delete(account);
    }
    if (report.used.length > 0 || report.unused > 0 || report.seats > 0 || report.unserved.length > 0)
      this.limiter.settle(account, now, report.used, report.unused, report.seats, report.unserved);
  }

  lease(holder: Holder, request: Extract<Request, { op: 'lease' }>): void {
    this.settle(holder, request.account, request.now, request.report);
    const recall = this.recalls.get(request.account);
    if (recall) recall.waiting.push(() => this.decide(holder, request, false));
    else this.decide(holder, request, true);
  }

  /** Grants a lease, or recalls the account's places from the workers first, or refuses. */
  private decide(holder: Holder, request: Extract<Request, { op: 'lease' }>, mayRecall: boolean): void {
    // A worker gone while its lease waited on a recall gets nothing.
    if (!this.holders.has(holder)) return;
    const { account, now, consume } = request;
    // After a recall, only the place this request needs: a batch would be held from the others.
    const want = mayRecall ? request.want : { slots: 1, seats: 1 };
    const reply = (result: LeaseResult | null): void => {
      if (result !== null) send(holder.channel, { oads: 'limit', id: request.id, result } satisfies Reply);
    };
    // The store did not answer (LIMIT_SCOPE=deployment): no place is granted, the request answers 503.
    const unavailable = (): LeaseResult => ({ admitted: false, unavailable: true, state: this.limiter.state(account, now) });
    let granted: ReturnType<WindowLessor['lease']>;
    try {
      granted = this.limiter.lease(account, now, consume, want, 2 * Math.max(1, this.holders.size), !mayRecall);
    } catch {
      reply(unavailable());
      return;
    }
    // A RateLimiter answers at once (the decision as it always was); the store later.
    if (!(granted instanceof Promise)) {
      const result = this.granted(holder, request, granted, mayRecall);
      if (result instanceof Promise) void result.then(reply, () => reply(unavailable()));
      else reply(result);
      return;
    }
    void granted.then((g) => this.granted(holder, request, g, mayRecall)).then(reply, () => reply(unavailable()));
  }

  /** A lease granted or refused; null when a recall of the workers was started (the decision follows it). */
  private granted(
    holder: Holder,
    request: Extract<Request, { op: 'lease' }>,
    granted: LeaseAnswer,
    mayRecall: boolean,
  ): LeaseResult | null | Promise<LeaseResult> {
    const { account, now } = request;
    if ('seats' in granted) {
      // A worker gone while the store answered: what it was granted goes back.
      if (!this.holders.has(holder)) {
        this.limiter.settle(account, now, [], granted.slots, granted.seats);
        return null;
      }
      const held = holder.holdings.get(account) ?? { slots: 0, seats: 0 };
      held.slots += granted.slots;
      held.seats += granted.seats;
      holder.holdings.set(account, held);
      return { admitted: true, ...granted, state: this.limiter.state(account, now) };
    }
    // A recall under way (another lease decided meanwhile, while the store answered this one): this one waits for it too.
    const under = this.recalls.get(account);
    if (mayRecall && granted.code !== 'cooldown' && under) {
      under.waiting.push(() => this.decide(holder, request, false));
      return null;
    }
    const from = [...this.holders].filter((h) => h.holdings.has(account));
    if (mayRecall && granted.code !== 'cooldown' && from.length > 0) {
      this.recalls.set(account, { from: new Set(from), waiting: [() => this.decide(holder, request, false)] });
      for (const h of from) send(h.channel, { oads: 'limit', op: 'recall', account } satisfies Recall);
      return null;
    }
    // No worker here holds places, but a lessor of the store asks the other machines on its last try.
    if (mayRecall && granted.code !== 'cooldown' && this.limiter.recallsOthers === true) {
      this.decide(holder, request, false);
      return null;
    }
    const { state: decidedOn, ...refused } = granted;
    const stateOf = (r: Rejection): WindowState => {
      const state = decidedOn ?? this.limiter.state(account, now);
      return r.code === 'cooldown' ? { ...state, cooldownUntil: now + r.retryAfterMs } : state;
    };
    const rejection = this.limiter.refuse(account, now, refused);
    if (rejection instanceof Promise) return rejection.then((r) => ({ admitted: false as const, rejection: r, state: stateOf(r) }));
    return { admitted: false, rejection, state: decidedOn ?? this.limiter.state(account, now) };
  }

  /** A worker has answered a recall (or is gone): once all have, the waiting leases are decided. */
  recalled(holder: Holder, account: string): void {
    const recall = this.recalls.get(account);
    if (!recall?.from.delete(holder) || recall.from.size > 0) return;
    this.recalls.delete(account);
    for (const decide of recall.waiting) decide();
  }

  /** A worker that exited: its in-flight places are free, its unreported window places count as used now. */
  leave(holder: Holder, now: number): void {
    this.holders.delete(holder);
    for (const [account, held] of holder.holdings) {
      this.limiter.settle(account, now, Array<number>(Math.max(0, held.slots)).fill(now), 0, held.seats);
    }
    holder.holdings.clear();
    for (const account of [...this.recalls.keys()]) this.recalled(holder, account);
  }
}

const books = new WeakMap<WindowLessor, LeaseBook>();

/**
 * Answers one worker's limit requests from the primary's RateLimiter or DeploymentLessor (every worker of one limiter
 * shares its lease book). Returns releaseAll(), to call when the worker exits; `clock` is the
 * service's, the one the workers' requests are stamped by.
 */
export function serveLimits(limiter: WindowLessor, channel: Channel, clock: () => number = Date.now): { releaseAll: () => void } {
  let book = books.get(limiter);
  if (!book) {
    book = new LeaseBook(limiter);
    books.set(limiter, book);
  }
  const holder: Holder = { channel, holdings: new Map() };
  book.holders.add(holder);
  const lessor = book;
  channel.on('message', (message) => {
    if (!isLimitMessage(message)) return;
    const request = message as Request;
    switch (request.op) {
      case 'lease':
        lessor.lease(holder, request);
        return;
      case 'settle':
        lessor.settle(holder, request.account, request.now, request.report);
        if (request.recalled) lessor.recalled(holder, request.account);
        return;
      case 'state':
        if (limiter.freshState) {
          const answer = (result: WindowState): void => send(channel, { oads: 'limit', id: request.id, result } satisfies Reply);
          limiter.freshState(request.account, request.now).then(answer, () => answer(limiter.state(request.account, request.now)));
          return;
        }
        channel.send({ oads: 'limit', id: request.id, result: limiter.state(request.account, request.now) } satisfies Reply);
        return;
      case 'keyless':
        channel.send({
          oads: 'limit',
          id: request.id,
          result: limiter.admitKeyless(request.network, request.now, request.budget, request.consume),
        } satisfies Reply);
        return;
      case 'connection':
        channel.send({
          oads: 'limit',
          id: request.id,
          result: limiter.admitConnection(request.account, request.now, request.limits),
        } satisfies Reply);
        return;
    }
  });
  return { releaseAll: () => lessor.leave(holder, clock()) };
}

/** The places a worker holds for one account. */
interface Lease {
  /** Window places not used yet. */
  slots: number;
  /** In-flight places held, `busy` of them by requests running here. */
  seats: number;
  busy: number;
  /** When each window place used since the last report was used. */
  used: number[];
  /** When each place reported used was used, by a request since released unserved. */
  unserved: number[];
  /** The primary's windows at the last grant or report (they counted this worker's places as taken). */
  state: WindowState | null;
  timer: NodeJS.Timeout | null;
  /** Requests admitted from the lease since the last report. */
  admitted: number;
}

/** The headers' view of a worker's lease: the primary's windows, plus the places it has not used. */
function leaseState(lease: Lease, state: WindowState, now: number): WindowState {
  const remaining = Math.min(state.limit, state.remaining + lease.slots);
  const burstRemaining = Math.min(state.burstLimit, state.burstRemaining + lease.slots);
  return {
    ...state,
    remaining,
    burstRemaining,
    reset: remaining > 0 ? now : state.reset,
    burstReset: burstRemaining > 0 ? now : state.burstReset,
  };
}

/** A worker's view of the primary's limits: leases, asked for when a request finds no place. */
export class ClusterLimiterClient implements Limiter {
  private readonly pending = new Map<number, (result: Reply['result']) => void>();
  private readonly leases = new Map<string, Lease>();
  private nextId = 1;
  /** Messages sent to the primary (for tests and the benchmark's account of the cost). */
  sent = 0;

  /** `clock`: the service's, which stamps the requests of this worker too. */
  constructor(
    private readonly channel: Channel,
    private readonly clock: () => number = Date.now,
  ) {
    channel.on('message', (message) => {
      if (!isLimitMessage(message)) return;
      if ((message as Partial<Recall>).op === 'recall') {
        this.settle((message as Recall).account, true);
        return;
      }
      const reply = message as Reply;
      const resolve = this.pending.get(reply.id);
      if (!resolve) return;
      this.pending.delete(reply.id);
      resolve(reply.result);
    });
  }

  /** Requests awaiting the primary's answer. */
  get waiting(): number {
    return this.pending.size;
  }

  private send(message: Request): void {
    this.sent += 1;
    this.channel.send(message);
  }

  private ask(request: Extract<Request, { id: number }>): Promise<Reply['result']> {
    return new Promise((resolve) => {
      this.pending.set(request.id, resolve);
      this.send(request);
    });
  }

  private lease(account: string): Lease {
    let lease = this.leases.get(account);
    if (!lease) {
      lease = { slots: 0, seats: 0, busy: 0, used: [], unserved: [], state: null, timer: null, admitted: 0 };
      this.leases.set(account, lease);
    }
    return lease;
  }

  /**
   * LEASE_MS from now: a lease that admitted requests meanwhile reports them and is kept (renew);
   * one that admitted none gives back what it holds unused.
   */
  private schedule(account: string, lease: Lease): void {
    if (lease.timer) return;
    lease.timer = setTimeout(() => {
      lease.timer = null;
      if (lease.admitted > 0 && this.leases.get(account) === lease) this.renew(account, lease);
      else this.settle(account, false);
    }, LEASE_MS);
    lease.timer.unref();
  }

  /**
   * Reports the places a lease in use has used and keeps the rest; then asks the primary's windows
   * (answered after the report, on the same channel) for the headers of the requests that follow.
   * No request waits for either.
   */
  private renew(account: string, lease: Lease): void {
    // In-flight places not in use beyond a batch's go back: each lease adds to them.
    const seats = Math.max(0, lease.seats - lease.busy - LEASE_SEATS);
    const report: Report = { used: lease.used, unused: 0, seats, unserved: lease.unserved };
    lease.seats -= seats;
    lease.used = [];
    lease.unserved = [];
    lease.admitted = 0;
    if (report.used.length > 0 || report.unserved.length > 0 || seats > 0)
      this.send({ oads: 'limit', op: 'settle', account, now: this.clock(), report, recalled: false });
    void this.ask({ oads: 'limit', id: this.nextId++, op: 'state', account, now: this.clock() }).then((state) => {
      if (this.leases.get(account) === lease) lease.state = state as WindowState;
    });
    this.schedule(account, lease);
  }

  /** Reports the places used and gives back those not in use (all of them when recalled). */
  private settle(account: string, recalled: boolean): void {
    const lease = this.leases.get(account);
    const report: Report = {
      used: lease?.used ?? [],
      unused: lease?.slots ?? 0,
      seats: lease ? lease.seats - lease.busy : 0,
      unserved: lease?.unserved ?? [],
    };
    if (lease) {
      if (lease.timer) clearTimeout(lease.timer);
      lease.timer = null;
      lease.used = [];
      lease.unserved = [];
      lease.admitted = 0;
      lease.slots = 0;
      lease.seats = lease.busy;
      if (lease.busy === 0) this.leases.delete(account);
    }
    if (!recalled && report.used.length === 0 && report.unused === 0 && report.seats === 0 && report.unserved.length === 0) return;
    this.send({ oads: 'limit', op: 'settle', account, now: this.clock(), report, recalled });
  }

  /** Admits a request from the lease: it holds a place until released. */
  private admitFrom(account: string, lease: Lease, now: number, consume: boolean): Admission {
    lease.busy += 1;
    lease.admitted += 1;
    if (consume) {
      lease.slots -= 1;
      lease.used.push(now);
    }
    this.schedule(account, lease);
    let released = false;
    return {
      admitted: true,
      release: (unserved = false) => {
        if (released) return;
        released = true;
        // A lease with a request running is never forgotten (settle keeps it).
        lease.busy -= 1;
        if (unserved && consume) {
          // Not reported yet: the place is unused again; reported: the primary is told.
          const at = lease.used.lastIndexOf(now);
          if (at >= 0) {
            lease.used.splice(at, 1);
            lease.slots += 1;
          } else {
            lease.unserved.push(now);
          }
        }
        this.schedule(account, lease);
      },
    };
  }

  async admitWithState(accountId: string, now: number, consume: boolean): Promise<{ admission: Admission; state: WindowState }> {
    let lease = this.lease(accountId);
    if (lease.state && lease.busy < lease.seats && (!consume || lease.slots > 0)) {
      return { admission: this.admitFrom(accountId, lease, now, consume), state: leaseState(lease, lease.state, now) };
    }
    const report: Report = { used: lease.used, unused: 0, seats: 0, unserved: lease.unserved };
    lease.used = [];
    lease.unserved = [];
    // In-flight places are asked for only when the lease has none free (a kept lease asks again for window places only).
    const want = { slots: consume ? LEASE_SLOTS : 0, seats: lease.busy < lease.seats ? 0 : LEASE_SEATS };
    const result = (await this.ask({
      oads: 'limit',
      id: this.nextId++,
      op: 'lease',
      account: accountId,
      now,
      consume,
      want,
      report,
    })) as LeaseResult;
    // A recall while the lease was asked for may have settled and forgotten it.
    lease = this.lease(accountId);
    if (!result.admitted && 'unavailable' in result)
      throw new ApiError(
        503,
        'upstream_busy',
        'The request limits cannot be counted now: the database is unavailable.',
        [],
        STORE_RETRY_AFTER_MS,
      );
    if (!result.admitted)
      return { admission: { admitted: false, rejection: result.rejection }, state: leaseState(lease, result.state, now) };
    lease.slots += result.slots;
    lease.seats += result.seats;
    lease.state = result.state;
    return { admission: this.admitFrom(accountId, lease, now, consume), state: leaseState(lease, result.state, now) };
  }

  /** The primary's windows, after this worker has reported its own part. */
  async state(accountId: string, now: number): Promise<WindowState> {
    this.settle(accountId, false);
    return (await this.ask({ oads: 'limit', id: this.nextId++, op: 'state', account: accountId, now })) as WindowState;
  }

  async admitKeyless(network: string, now: number, budget: KeylessBudget = 'credentials', consume = true): Promise<KeylessAdmission> {
    return (await this.ask({ oads: 'limit', id: this.nextId++, op: 'keyless', network, now, budget, consume })) as KeylessAdmission;
  }

  async admitConnection(accountId: string, now: number, limits: ConnectionLimits): Promise<ConnectionAdmission> {
    return (await this.ask({ oads: 'limit', id: this.nextId++, op: 'connection', account: accountId, now, limits })) as ConnectionAdmission;
  }
}

/**
 * Two ends of an in-process channel (messages delivered on a later turn, as over IPC): a service of
 * one process with LIMIT_SCOPE=deployment leases through serveLimits as a cluster's worker does.
 */
export function loopbackChannels(): [Channel, Channel] {
  const make = (): {
    listeners: ((message: unknown) => void)[];
    channel: Channel;
    peer?: { listeners: ((message: unknown) => void)[] };
  } => {
    const end: { listeners: ((message: unknown) => void)[]; channel: Channel; peer?: { listeners: ((message: unknown) => void)[] } } = {
      listeners: [],
      channel: {
        send: (message) => {
          const copy = structuredClone(message);
          setImmediate(() => {
            for (const listener of end.peer?.listeners ?? []) listener(copy);
          });
          return true;
        },
        on: (_event, listener) => {
          end.listeners.push(listener);
        },
      },
    };
    return end;
  };
  const a = make();
  const b = make();
  a.peer = b;
  b.peer = a;
  return [a.channel, b.channel];
}
