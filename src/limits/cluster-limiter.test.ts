import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { Limits } from '../config.js';
import { ClusterLimiterClient, LEASE_MS, serveLimits, type Channel } from './cluster-limiter.js';
import { RateLimiter, type Admission, type WindowState } from './rate-limiter.js';

const LIMITS: Limits = {
  requestsPerMinute: 10,
  requestsPerSecond: 5,
  requestsInFlight: 3,
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

/**
 * Both ends of an IPC channel in memory: each message is copied through JSON (as node's IPC
 * serializes it) and delivered on a later turn of the event loop, never synchronously.
 */
function channelPair(): { primary: Channel; worker: Channel & { sent: unknown[] } } {
  const toPrimary = new EventEmitter();
  const toWorker = new EventEmitter();
  const deliver = (target: EventEmitter, message: unknown) =>
    setImmediate(() => target.emit('message', JSON.parse(JSON.stringify(message))));
  const sent: unknown[] = [];
  return {
    primary: { send: (m) => deliver(toWorker, m), on: (_e, l) => toPrimary.on('message', l) },
    worker: {
      sent,
      send: (m) => {
        sent.push(m);
        deliver(toPrimary, m);
      },
      on: (_e, l) => toWorker.on('message', l),
    },
  };
}

/** A primary's limiter and `n` workers' clients of it. */
function cluster(n: number, limits: Limits = LIMITS) {
  const limiter = new RateLimiter(limits);
  const workers = Array.from({ length: n }, () => {
    const { primary, worker } = channelPair();
    const served = serveLimits(limiter, primary);
    return { client: new ClusterLimiterClient(worker), channel: worker, exit: served.releaseAll };
  });
  return { limiter, workers };
}

const T = 1_800_000_000_000;

async function admitAndRelease(
  client: ClusterLimiterClient,
  account: string,
  now: number,
  consume = true,
): Promise<{ admitted: boolean; code: string | null; state: WindowState }> {
  const { admission, state } = await client.admitWithState(account, now, consume);
  if (admission.admitted) admission.release();
  return { admitted: admission.admitted, code: admission.admitted ? null : admission.rejection.code, state };
}

describe('cluster limits: one RateLimiter leasing places to every worker', () => {
  it('counts an account once across workers: 5 a second admitted in all, not 5 per worker', async () => {
    const { workers } = cluster(2, { ...LIMITS, requestsInFlight: 100 });
    const [a, b] = workers.map((w) => w.client) as [ClusterLimiterClient, ClusterLimiterClient];
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => admitAndRelease(i % 2 === 0 ? a : b, 'acct_1', T + i)));
    expect(answers.filter((x) => x.admitted)).toHaveLength(5);
    expect(answers.filter((x) => !x.admitted).map((x) => x.code)).toEqual(['burst_limited', 'burst_limited', 'burst_limited']);
    // The minute window saw the same five, whichever worker asks.
    expect((await b.state('acct_1', T + 10)).remaining).toBe(5);
    expect((await a.state('acct_1', T + 10)).remaining).toBe(5);
  });

  it("admits exactly the minute limit across workers, a worker's unused batch taken back before any refusal", async () => {
    const { limiter, workers } = cluster(2, { ...LIMITS, requestsPerMinute: 50, requestsPerSecond: 1000, requestsInFlight: 1000 });
    const [a, b] = workers.map((w) => w.client) as [ClusterLimiterClient, ClusterLimiterClient];
    // a takes a batch and uses one place of it; b then has the other 49, though a holds some unused.
    expect((await admitAndRelease(a, 'acct_2', T)).admitted).toBe(true);
    expect(limiter.state('acct_2', T).remaining).toBeLessThan(49);
    const fromB = [];
    for (let i = 1; i <= 60; i += 1) fromB.push(await admitAndRelease(b, 'acct_2', T + i));
    expect(fromB.filter((x) => x.admitted)).toHaveLength(49);
    expect(fromB.at(-1)?.code).toBe('rate_limited');
    // Interleaved from both workers, with nothing spent: 50 again, no more.
    const { workers: fresh } = cluster(2, { ...LIMITS, requestsPerMinute: 50, requestsPerSecond: 1000, requestsInFlight: 1000 });
    const mixed = await Promise.all(Array.from({ length: 90 }, (_, i) => admitAndRelease(fresh[i % 2]!.client, 'acct_2', T + i)));
    expect(mixed.filter((x) => x.admitted)).toHaveLength(50);
  });

  it('admits from a batch without asking the primary', async () => {
    const { limiter, workers } = cluster(1, { ...LIMITS, requestsPerMinute: 100_000, requestsPerSecond: 10_000, requestsInFlight: 100 });
    const client = workers[0]!.client;
    for (let i = 0; i < 200; i += 1) expect((await admitAndRelease(client, 'acct_3', T + i)).admitted).toBe(true);
    expect(client.sent).toBeLessThan(10);
    // Reported, the windows hold all 200 at their own times.
    await client.state('acct_3', T + 200);
    expect(limiter.state('acct_3', T + 200)).toMatchObject({ remaining: 100_000 - 200, inFlight: 0 });
    expect(limiter.state('acct_3', T + 1_000 + 100).burstRemaining).toBe(10_000 - 99);
  });

  it('keeps a lease in use past LEASE_MS, reporting the places it used, and gives it back once a LEASE_MS passes unused', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { limiter, workers } = cluster(1, { ...LIMITS, requestsPerMinute: 100_000, requestsPerSecond: 10_000, requestsInFlight: 100 });
      const { client, channel } = workers[0]!;
      const ops = (op: string) => channel.sent.filter((m) => (m as { op?: string }).op === op).length;
      // The channel delivers on later turns of the event loop (setImmediate, not faked).
      const answered = async () => {
        while (client.waiting > 0) await new Promise((resolve) => setImmediate(resolve));
      };
      for (let period = 0; period < 5; period += 1) {
        for (let i = 0; i < 3; i += 1) expect((await admitAndRelease(client, 'acct_10', T + period * LEASE_MS + i)).admitted).toBe(true);
        vi.advanceTimersByTime(LEASE_MS);
        await answered();
      }
      // One lease for all 15 requests; each period's places reported when it ended.
      expect(ops('lease')).toBe(1);
      expect(ops('settle')).toBe(5);
      // A kept lease asks again once its window places are spent (64 a batch), and holds no more
      // in-flight places for it: 200 more requests over 5 periods, 4 leases in all, a batch of seats at most.
      for (let period = 0; period < 5; period += 1) {
        for (let i = 0; i < 40; i += 1) await admitAndRelease(client, 'acct_10', T + (5 + period) * LEASE_MS + i);
        vi.advanceTimersByTime(LEASE_MS);
        await answered();
      }
      expect(ops('lease')).toBe(4);
      // Held meanwhile: the primary counts the lease's places as taken, and its in-flight places are a batch's.
      expect(limiter.state('acct_10', T + 10 * LEASE_MS).remaining).toBeLessThan(100_000 - 215);
      expect(limiter.state('acct_10', T + 10 * LEASE_MS).inFlight).toBeLessThanOrEqual(17);
      // A period without a request: the lease goes back, every place it did not use with it.
      vi.advanceTimersByTime(LEASE_MS);
      expect(await client.state('acct_10', T + 11 * LEASE_MS)).toMatchObject({ remaining: 100_000 - 215, inFlight: 0 });
      // The next request asks for a lease again.
      expect((await admitAndRelease(client, 'acct_10', T + 12 * LEASE_MS)).admitted).toBe(true);
      expect(ops('lease')).toBe(5);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds in-flight places across workers; a place one worker no longer uses is recalled for another', async () => {
    const { workers } = cluster(2);
    const [a, b] = workers.map((w) => w.client) as [ClusterLimiterClient, ClusterLimiterClient];
    const held: Admission[] = [];
    for (const client of [a, b, a]) held.push((await client.admitWithState('acct_4', T, true)).admission);
    expect(held.every((h) => h.admitted)).toBe(true);
    const fourth = await b.admitWithState('acct_4', T + 1, true);
    expect(fourth.admission.admitted).toBe(false);
    expect(fourth.admission.admitted ? null : fourth.admission.rejection.code).toBe('rate_limited');
    expect(fourth.state.inFlight).toBe(3);
    const first = held[0];
    if (!first?.admitted) throw new Error('expected an admission');
    first.release();
    first.release(); // a second release of the same request changes nothing
    // a keeps the place it no longer uses; b's request has it recalled.
    expect((await b.admitWithState('acct_4', T + 3, true)).admission.admitted).toBe(true);
    expect((await a.admitWithState('acct_4', T + 4, true)).admission.admitted).toBe(false);
  });

  it('gives back the window places of requests released unserved, reported to the primary or not yet', async () => {
    const { limiter, workers } = cluster(1, { ...LIMITS, requestsInFlight: 100 });
    const client = (workers[0] as (typeof workers)[number]).client;
    // Released unserved before the lease is reported: the place is the lease's again.
    const early = (await client.admitWithState('acct_9', T, true)).admission;
    if (early.admitted) early.release(true);
    // Released unserved after its use was reported (a state read reports it): the primary is told.
    const late = (await client.admitWithState('acct_9', T + 1, true)).admission;
    await client.state('acct_9', T + 2);
    expect(limiter.state('acct_9', T + 2).remaining).toBe(9);
    if (late.admitted) late.release(true);
    const served = (await client.admitWithState('acct_9', T + 3, true)).admission;
    if (served.admitted) served.release(false);
    expect(await client.state('acct_9', T + 4)).toMatchObject({ remaining: 9, burstRemaining: 4, inFlight: 0 });
  });

  it('frees the in-flight places of a worker that exits, and only those', async () => {
    const { workers } = cluster(2);
    const [a, b] = workers as [(typeof workers)[number], (typeof workers)[number]];
    await a.client.admitWithState('acct_5', T, true);
    await a.client.admitWithState('acct_5', T, true);
    await b.client.admitWithState('acct_5', T, true);
    expect((await b.client.state('acct_5', T)).inFlight).toBe(3);
    a.exit();
    expect((await b.client.state('acct_5', T)).inFlight).toBe(1);
  });

  it('spends the consumption-free limits request (GET /v1/account/limits) from no window, during a cooldown too', async () => {
    const { workers } = cluster(1, { ...LIMITS, cooldownAfterRejections: 2 });
    const client = workers[0]!.client;
    const { admission, state } = await client.admitWithState('acct_6', T, false);
    expect(admission.admitted).toBe(true);
    expect(state).toMatchObject({ remaining: 10, burstRemaining: 5, inFlight: 1 });
    if (admission.admitted) admission.release();
    const codes = [];
    for (let i = 0; i < 8; i += 1) codes.push((await admitAndRelease(client, 'acct_6', T + 1)).code);
    expect(codes.at(-1)).toBe('cooldown');
    expect((await admitAndRelease(client, 'acct_6', T + 2, false)).admitted).toBe(true);
  });

  it('shares the keyless budget of a client network across workers, the public routes apart', async () => {
    const { workers } = cluster(2);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await workers[i % 2]!.client.admitKeyless('10.0.0.0/24', T + i, 'credentials', true));
    expect(results.map((r) => r.admitted)).toEqual([true, true, true, true, false, false]);
    const last = results[5]!;
    expect(last.admitted ? null : last.rejection).toMatchObject({ code: 'rate_limited', retryAfterMs: 60_000 - 5 });
    expect((await workers[0]!.client.admitKeyless('10.0.0.0/24', T + 6, 'public', true)).admitted).toBe(true);
  });

  it('answers each request by its own id when answers interleave', async () => {
    const { workers } = cluster(1);
    const client = workers[0]!.client;
    const [state, keyless, admitted] = await Promise.all([
      client.state('acct_7', T),
      client.admitKeyless('10.0.1.0/24', T, 'credentials', true),
      client.admitWithState('acct_7', T, true),
    ]);
    expect(state.remaining).toBe(10);
    expect(keyless).toMatchObject({ admitted: true, remaining: 3 });
    expect(admitted.state.remaining).toBe(9);
    expect(client.waiting).toBe(0);
  });

  it('ignores messages that are not its own on a shared channel', async () => {
    const { workers } = cluster(1);
    const { channel, client } = workers[0]!;
    channel.send({ oads: 'stop' });
    channel.send('hello');
    expect((await client.admitWithState('acct_8', T, true)).admission.admitted).toBe(true);
  });

  it("counts an account's stream connections once for all the workers, then cools it down", async () => {
    const { workers } = cluster(2);
    const limits = { connectionsPerWindow: 4, connectionWindowMs: 600_000, cooldownMs: 600_000 };
    const [a, b] = workers.map((w) => w.client);
    if (!a || !b) throw new Error('two workers');
    const admitted: boolean[] = [];
    for (let i = 0; i < 4; i += 1) admitted.push((await (i % 2 === 0 ? a : b).admitConnection('acct_c', T + i, limits)).admitted);
    expect(admitted).toEqual([true, true, true, true]);
    expect(await b.admitConnection('acct_c', T + 10, limits)).toEqual({ admitted: false, retryAfterMs: 600_000 });
    expect(await a.admitConnection('acct_c', T + 20, limits)).toEqual({ admitted: false, retryAfterMs: 599_990 });
    expect((await a.admitConnection('acct_d', T + 20, limits)).admitted).toBe(true);
  });
});
