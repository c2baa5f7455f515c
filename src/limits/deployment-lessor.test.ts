/**
 * The lessor of the deployment's limits (deployment-lessor.ts) over an in-memory store that does
 * the arithmetic of the migration's limit_lease / limit_settle (the SQL itself is tested on
 * PostgreSQL in test/integration/limit-store.test.ts): machines sharing one store, each with its
 * workers leasing through the lease book (cluster-limiter.ts) as in a cluster.
 */
import { describe, expect, it } from 'vitest';
import type { Limits } from '../config.js';
import { ApiError } from '../errors.js';
import { ClusterLimiterClient, loopbackChannels, serveLimits } from './cluster-limiter.js';
import {
  DeploymentLessor,
  mergeReport,
  rejectionOf,
  windowStateOf,
  type LimitStore,
  type StoreLease,
  type StoreWindows,
} from './deployment-lessor.js';
import type { Admission } from './rate-limiter.js';

const LIMITS: Limits = {
  requestsPerMinute: 40,
  requestsPerSecond: 1000,
  requestsInFlight: 4,
  keylessRequestsPerMinute: 4,
  cooldownAfterRejections: 1000,
  cooldownMs: 30_000,
  endpointTimeoutMs: 20_000,
  exportsQueuedOrRunning: 5,
  exportMaxRows: 100_000,
  exportMaxBytes: 67_108_864,
  exportFlatMaxRows: 3_000_000,
  exportFlatMaxBytes: 536_870_912,
  exportMaxQueryParams: 32,
  exportBytesHeld: { basic: 1024 ** 3, pro: 4 * 1024 ** 3 },
  exportDiskFloorBytes: 1024 ** 3,
};

/** The store's arithmetic in memory, shared by the machines; `down` makes every call fail. */
class MemoryStore {
  admissions = new Map<string, number[]>();
  leases = new Map<string, Map<string, { slots: number; seats: number }>>();
  cooldowns = new Map<string, number>();
  rejections = new Map<string, number[]>();
  listeners: Parameters<LimitStore['listen']>[0][] = [];
  down = false;
  statements = 0;

  private windows(account: string, now: number): StoreWindows {
    const stamps = (this.admissions.get(account) ?? []).filter((t) => t > now - 60_000).sort((a, b) => a - b);
    this.admissions.set(account, stamps);
    const held = [...(this.leases.get(account)?.values() ?? [])];
    const reserved = held.reduce((n, l) => n + l.slots, 0);
    const second = stamps.filter((t) => t > now - 1000);
    return {
      minuteUsed: stamps.length + reserved,
      secondUsed: second.length + reserved,
      seated: held.reduce((n, l) => n + l.seats, 0),
      minuteNext: stamps[0] ?? null,
      secondNext: second[0] ?? null,
      cooldownUntil: this.cooldowns.get(account) ?? 0,
    };
  }

  private check(): void {
    this.statements += 1;
    if (this.down) throw new Error('Connection terminated unexpectedly');
  }

  port(): LimitStore {
    return {
      lease: async (r) => {
        this.check();
        const w = this.windows(r.account, r.now);
        const mine = this.leases.get(r.account) ?? new Map<string, { slots: number; seats: number }>();
        this.leases.set(r.account, mine);
        const others = [...mine].filter(([h]) => h !== r.holder).reduce((n, [, l]) => n + l.slots + l.seats, 0);
        const refusal: StoreLease['refusal'] =
          r.consume && w.cooldownUntil > r.now
            ? 'cooldown'
            : w.seated >= r.inFlight
              ? 'in_flight'
              : r.consume && w.secondUsed >= r.perSecond
                ? 'second'
                : r.consume && w.minuteUsed >= r.perMinute
                  ? 'minute'
                  : null;
        if (refusal) return { slots: 0, seats: 0, refusal, others, windows: w };
        const seats = r.seats === 0 ? 0 : Math.max(1, Math.min(r.seats, Math.floor((r.inFlight - w.seated) / r.share)));
        const free = Math.min(r.perSecond - w.secondUsed, r.perMinute - w.minuteUsed);
        const slots = r.consume ? Math.max(1, Math.min(r.slots, Math.floor(free / r.share))) : 0;
        const held = mine.get(r.holder) ?? { slots: 0, seats: 0 };
        mine.set(r.holder, { slots: held.slots + slots, seats: held.seats + seats });
        return { slots, seats, refusal: null, others, windows: this.windows(r.account, r.now) };
      },
      settle: async (r) => {
        this.check();
        const stamps = this.admissions.get(r.account) ?? [];
        stamps.push(...r.used);
        for (const t of r.unserved) stamps.splice(stamps.indexOf(t), 1);
        this.admissions.set(r.account, stamps);
        const held = this.leases.get(r.account)?.get(r.holder);
        if (held) {
          held.slots = Math.max(0, held.slots - r.used.length - r.unused);
          held.seats = Math.max(0, held.seats - r.seats);
          if (held.slots === 0 && held.seats === 0) this.leases.get(r.account)?.delete(r.holder);
        }
        return this.windows(r.account, r.now);
      },
      refuse: async (account, now, after, cooldownMs) => {
        this.check();
        const kept = [...(this.rejections.get(account) ?? []).filter((t) => t > now - 60_000), now];
        this.rejections.set(account, kept);
        if (kept.length >= after) this.cooldowns.set(account, now + cooldownMs);
        return this.cooldowns.get(account) ?? 0;
      },
      beat: async () => {
        this.check();
        return { alive: true, holders: Math.max(1, this.listeners.length) };
      },
      leave: async () => undefined,
      recall: async (account, from) => {
        this.check();
        for (const l of this.listeners) setImmediate(() => l.onRecall(account, from));
      },
      given: async (account) => {
        for (const l of this.listeners) setImmediate(() => l.onGiven(account));
      },
      listen: async (handlers) => {
        this.listeners.push(handlers);
        return { end: async () => void this.listeners.splice(this.listeners.indexOf(handlers), 1) };
      },
    };
  }
}

const T = 1_800_000_000_000;

/** A machine: its lessor on the shared store and `workers` clients leasing from it through the lease book. */
async function machine(store: MemoryStore, workers: number, clock: () => number) {
  const lessor = new DeploymentLessor(store.port(), LIMITS, clock, 0);
  await lessor.start();
  const clients = Array.from({ length: workers }, () => {
    const [served, client] = loopbackChannels();
    serveLimits(lessor, served, clock);
    return new ClusterLimiterClient(client, clock);
  });
  return { lessor, clients };
}

describe('the deployment lessor', () => {
  it("words a store's refusal as the RateLimiter does, and shows its windows in the service clock's time", () => {
    const w: StoreWindows = { minuteUsed: 40, secondUsed: 3, seated: 2, minuteNext: T - 59_000, secondNext: T - 400, cooldownUntil: 0 };
    expect(rejectionOf('minute', w, LIMITS, T)).toMatchObject({ code: 'rate_limited', kind: 'minute', retryAfterMs: 1000 });
    expect(rejectionOf('second', w, LIMITS, T)).toMatchObject({ code: 'burst_limited', kind: 'second', retryAfterMs: 600 });
    expect(rejectionOf('in_flight', w, LIMITS, T)).toMatchObject({ code: 'rate_limited', kind: 'in_flight', retryAfterMs: 1000 });
    expect(rejectionOf('cooldown', { ...w, cooldownUntil: T + 5000 }, LIMITS, T)).toMatchObject({ code: 'cooldown', retryAfterMs: 5000 });
    // A service clock 1 h ahead of the wall clock: the reset is said in the service's time.
    const state = windowStateOf(w, LIMITS, T, 3_600_000);
    expect(state).toMatchObject({ limit: 40, remaining: 0, reset: T - 59_000 + 60_000 + 3_600_000, burstRemaining: 997, inFlight: 2 });
    expect(state.burstReset).toBe(T + 3_600_000);
  });

  it('merges reports waiting to be sent', () => {
    const into = { used: [1], unused: 2, seats: 1, unserved: [] as number[] };
    mergeReport(into, { used: [2, 3], unused: 1, seats: 0, unserved: [1] });
    expect(into).toEqual({ used: [1, 2, 3], unused: 3, seats: 1, unserved: [1] });
  });

  it("admits exactly an account's minute limit over two machines of two workers, recalling each other's unused places", async () => {
    const store = new MemoryStore();
    const now = T;
    const a = await machine(store, 2, () => now);
    const b = await machine(store, 2, () => now);
    const clients = [...a.clients, ...b.clients];
    const admissions: Admission[] = [];
    for (let round = 0; round < 15; round += 1) {
      const answers = await Promise.all(clients.map((c) => c.admitWithState('acct', now, true)));
      for (const { admission } of answers) {
        admissions.push(admission);
        if (admission.admitted) admission.release();
      }
    }
    const admitted = admissions.filter((x) => x.admitted);
    expect(admitted).toHaveLength(40);
    expect(admissions.filter((x) => !x.admitted).map((x) => !x.admitted && x.rejection.kind)).toEqual(Array(20).fill('minute'));
    // Every machine's worker got some: the first batches are shares, not the whole minute.
    expect(store.statements).toBeGreaterThan(4);
    await Promise.all([a.lessor.stop(), b.lessor.stop()]);
  });

  it("serves a worker's next leases from the machine's pool, without a statement, and gives the pool back when idle", async () => {
    const store = new MemoryStore();
    const now = T;
    const m = await machine(store, 1, () => now);
    const lessor = m.lessor;
    // First lease: the worker's batch and the machine's pool, one statement.
    const before = store.statements;
    const first = await lessor.lease('acct', now, true, { slots: 4, seats: 1 }, 2);
    expect(first).toEqual({ slots: 4, seats: 1 });
    expect(store.statements).toBe(before + 1);
    // Counted as taken in the store: the worker's 4 and the pool's share.
    const taken = store.port();
    const w = await taken.settle({ account: 'acct', holder: lessor.holder, now, used: [], unused: 0, seats: 0, unserved: [] });
    // At most the free places over the share: 40 / 2, the worker's 4 and 16 for the pool.
    expect(w.minuteUsed).toBe(20);
    // The next lease is answered at once, not a promise: no round trip (the pool, below its low mark, is topped up meanwhile).
    expect(lessor.lease('acct', now, true, { slots: 4, seats: 0 }, 2)).toEqual({ slots: 4, seats: 0 });
    await m.lessor.stop();
    // Stopping gives the pool back: the worker's 8 remain (unreported: counted as taken until its holder is reaped).
    const deadline = Date.now() + 2000;
    while ((store.leases.get('acct')?.get(lessor.holder)?.slots ?? 0) > 8 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(store.leases.get('acct')?.get(lessor.holder)?.slots).toBe(8);
  });

  it('answers 503 upstream_busy with Retry-After when the store does not answer a lease, and sends the reports kept once it does', async () => {
    const store = new MemoryStore();
    const now = T;
    const m = await machine(store, 1, () => now);
    const [client] = m.clients as [ClusterLimiterClient];
    const first = await client.admitWithState('acct', now, true);
    expect(first.admission.admitted).toBe(true);
    // The lease holds a batch: the next requests are admitted from it without the store.
    store.down = true;
    const second = await client.admitWithState('acct', now, true);
    expect(second.admission.admitted).toBe(true);
    if (first.admission.admitted) first.admission.release();
    if (second.admission.admitted) second.admission.release();
    // Places spent, a new lease fails: 503, not an admission the store has not counted.
    const many: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i += 1)
      many.push(client.admitWithState('acct', now, true).then((x) => x.admission.admitted && x.admission.release()));
    const results = await Promise.allSettled(many);
    const failed = results.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
    expect(failed.length).toBeGreaterThan(0);
    for (const error of failed) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 503, code: 'upstream_busy', retryAfterMs: 2000 });
    }
    // Back: the used places reach the store (a report waits and is sent again).
    store.down = false;
    const deadline = Date.now() + 5_000;
    const admitted = 40 - failed.length + 2;
    while ((store.admissions.get('acct')?.length ?? 0) < admitted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(store.admissions.get('acct')).toHaveLength(admitted);
    await m.lessor.stop();
  });

  it('counts a refusal in the store, where a cooldown starts for every machine', async () => {
    const store = new MemoryStore();
    const now = T;
    const m = await machine(store, 1, () => now);
    const [client] = m.clients as [ClusterLimiterClient];
    store.cooldowns.set('acct', T + 10_000);
    const refused = await client.admitWithState('acct', now, true);
    expect(refused.admission).toMatchObject({ admitted: false, rejection: { code: 'cooldown', retryAfterMs: 10_000 } });
    store.cooldowns.delete('acct');
    store.admissions.set('acct', Array<number>(40).fill(T - 1000));
    const minute = await client.admitWithState('acct', now, true);
    expect(minute.admission).toMatchObject({ admitted: false, rejection: { kind: 'minute', retryAfterMs: 59_000 } });
    expect(minute.state).toMatchObject({ remaining: 0, reset: T + 59_000 });
    expect(store.rejections.get('acct')).toEqual([T]);
    await m.lessor.stop();
  });
});
