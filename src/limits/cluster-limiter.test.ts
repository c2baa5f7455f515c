import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Limits } from '../config.js';
import { ClusterLimiterClient, serveLimits, type Channel } from './cluster-limiter.js';
import { RateLimiter, type Admission } from './rate-limiter.js';

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
  exportMaxQueryParams: 32,
};

/**
 * Both ends of an IPC channel in memory: each message is copied through JSON (as node's IPC
 * serializes it) and delivered on a later turn of the event loop, never synchronously.
 */
function channelPair(): { primary: Channel; worker: Channel & { sent: unknown[] } } {
  const toPrimary = new EventEmitter();
  const toWorker = new EventEmitter();
  const deliver = (target: EventEmitter, message: unknown) => setImmediate(() => target.emit('message', JSON.parse(JSON.stringify(message))));
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

function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

describe('cluster limits: one RateLimiter answering every worker', () => {
  it('counts an account once across workers: 5 a second admitted in all, not 5 per worker', async () => {
    const { workers } = cluster(2, { ...LIMITS, requestsInFlight: 100 });
    const [a, b] = workers.map((w) => w.client) as [ClusterLimiterClient, ClusterLimiterClient];
    const answers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const { admission, state } = await (i % 2 === 0 ? a : b).admitWithState('acct_1', T + i, true);
        if (admission.admitted) admission.release();
        return { admitted: admission.admitted, burstRemaining: state.burstRemaining, code: admission.admitted ? null : admission.rejection.code };
      }),
    );
    expect(answers.filter((x) => x.admitted)).toHaveLength(5);
    // In the order the primary received them: the windows' remaining counts fall 4, 3, 2, 1, 0.
    expect(answers.slice(0, 5).map((x) => x.burstRemaining)).toEqual([4, 3, 2, 1, 0]);
    expect(answers.slice(5).map((x) => x.code)).toEqual(['burst_limited', 'burst_limited', 'burst_limited']);
    // The minute window saw the same five, whichever worker asks.
    expect((await b.state('acct_1', T + 10)).remaining).toBe(5);
    expect((await a.state('acct_1', T + 10)).remaining).toBe(5);
  });

  it('holds in-flight slots across workers until each response releases its own', async () => {
    const { workers } = cluster(2);
    const [a, b] = workers.map((w) => w.client) as [ClusterLimiterClient, ClusterLimiterClient];
    const held: Admission[] = [];
    for (const client of [a, b, a]) held.push((await client.admitWithState('acct_2', T, true)).admission);
    expect(held.every((h) => h.admitted)).toBe(true);
    const fourth = await b.admitWithState('acct_2', T + 1, true);
    expect(fourth.admission.admitted).toBe(false);
    expect(fourth.state.inFlight).toBe(3);
    const first = held[0];
    if (!first?.admitted) throw new Error('expected an admission');
    first.release();
    first.release(); // a second release of the same request changes nothing
    await settle();
    expect((await b.state('acct_2', T + 2)).inFlight).toBe(2);
    expect((await b.admitWithState('acct_2', T + 3, true)).admission.admitted).toBe(true);
    expect((await a.state('acct_2', T + 4)).inFlight).toBe(3);
  });

  it("frees the in-flight slots of a worker that exits, and only those", async () => {
    const { workers } = cluster(2);
    const [a, b] = workers as [(typeof workers)[number], (typeof workers)[number]];
    await a.client.admitWithState('acct_3', T, true);
    await a.client.admitWithState('acct_3', T, true);
    await b.client.admitWithState('acct_3', T, true);
    expect((await b.client.state('acct_3', T)).inFlight).toBe(3);
    a.exit();
    expect((await b.client.state('acct_3', T)).inFlight).toBe(1);
  });

  it('spends the consumption-free limits request (GET /v1/account/limits) from no window', async () => {
    const { workers } = cluster(1);
    const client = workers[0]!.client;
    const { admission, state } = await client.admitWithState('acct_4', T, false);
    expect(admission.admitted).toBe(true);
    expect(state).toMatchObject({ remaining: 10, burstRemaining: 5, inFlight: 1 });
  });

  it('shares the keyless budget of a client network across workers', async () => {
    const { workers } = cluster(2);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await workers[i % 2]!.client.admitKeyless('10.0.0.0/24', T + i));
    expect(results.map((r) => r.admitted)).toEqual([true, true, true, true, false, false]);
    const last = results[5]!;
    expect(last.admitted ? null : last.rejection).toMatchObject({ code: 'rate_limited', retryAfterMs: 60_000 - 5 });
  });

  it('answers each request by its own id when answers interleave', async () => {
    const { workers } = cluster(1);
    const client = workers[0]!.client;
    const [state, keyless, admitted] = await Promise.all([
      client.state('acct_5', T),
      client.admitKeyless('10.0.1.0/24', T),
      client.admitWithState('acct_5', T, true),
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
    expect((await client.admitWithState('acct_6', T, true)).admission.admitted).toBe(true);
  });
});
