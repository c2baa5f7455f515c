/**
 * Limits exact across machines (issue 37, section 3): two service "machines" (src/main.ts, each a
 * cluster of two HTTP workers) on one PostgreSQL primary with a streaming replica (the deployment
 * of the issue: test/support/replica-set.ts, DATABASE_REPLICA_URLS), with LIMIT_SCOPE at its default for DATABASE_URL
 * (deployment: counted in the store, src/limits/deployment-lessor.ts). Before it, each machine's
 * primary counted for itself and an account got its plan once per machine.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEAT_MS, HOLDER_TTL_MS } from '../../src/limits/deployment-lessor.js';
import { startReplicaSet, type ReplicaSet } from '../support/replica-set.js';
import { newKeys, request, startServiceProcess, stopServiceProcess, type Answer, type ServiceProcess } from '../support/service-process.js';

const PER_MINUTE = 40;
const IN_FLIGHT = 4;

/** A POST /v1/exports whose body never finishes: admitted, it holds its in-flight place until its socket closes. */
function stalledRequest(base: string, key: string): { answered(): number | null; close(): void } {
  const req = http.request(`${base}/v1/exports`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': '1000' },
  });
  req.on('error', () => undefined);
  let answered: number | null = null;
  req.on('response', (res) => {
    answered = res.statusCode ?? 0;
    res.resume();
  });
  req.write('{"path":');
  return { answered: () => answered, close: () => req.destroy() };
}

describe('limits across two machines on one PostgreSQL', () => {
  const machines: ServiceProcess[] = [];
  let databaseUrl = '';
  let set: ReplicaSet | undefined;

  beforeAll(async () => {
    set = await startReplicaSet();
    databaseUrl = set.primary.url;
    const env = {
      DATABASE_URL: databaseUrl,
      DATABASE_REPLICA_URLS: set.replica.url,
      WEB_WORKERS: '2',
      LIMIT_PER_MINUTE: String(PER_MINUTE),
      LIMIT_PER_SECOND: '100000',
      LIMIT_IN_FLIGHT: String(IN_FLIGHT),
      LIMIT_COOLDOWN_AFTER_REJECTIONS: '100000',
      SHUTDOWN_GRACE_MS: '1000',
    };
    // Started together: one migrates the shared database under the migrator's lock, the other
    // finds it migrated (the start of machines on an empty database is machines.test.ts's first case).
    const started = await Promise.allSettled([startServiceProcess({ env }), startServiceProcess({ env })]);
    // Whichever started is stopped by afterAll, also when the other did not.
    for (const s of started) if (s.status === 'fulfilled') machines.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
  });

  afterAll(async () => {
    for (const machine of machines) await stopServiceProcess(machine);
    await set?.close();
  });

  it("admits exactly an account's minute limit over both machines, not that many per machine", async () => {
    const [key = ''] = await newKeys(databaseUrl, 1);
    const answers: Answer[] = [];
    // 60 requests in rounds of four at once (two on each machine: within the in-flight limit).
    for (let round = 0; round < 15; round += 1) {
      answers.push(...(await Promise.all(Array.from({ length: 4 }, (_, i) => request(`${machines[i % 2]?.base}/v1/account`, { key })))));
    }
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(admitted).toHaveLength(PER_MINUTE);
    expect(refused).toHaveLength(20);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.error).toMatchObject({
        code: 'rate_limited',
        status: 429,
        message: `More than ${PER_MINUTE} requests in a rolling minute.`,
      });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect((answer.body.error as unknown as { retry_after_ms: number }).retry_after_ms).toBeGreaterThan(0);
      expect(answer.headers['x-ratelimit-remaining']).toBe('0');
    }
    expect(admitted.every((a) => a.headers['x-ratelimit-limit'] === String(PER_MINUTE))).toBe(true);
    // Both machines admitted some.
    for (const machine of machines) {
      const limits = await request(`${machine.base}/v1/account/limits`, { key });
      expect(limits.status).toBe(200);
      expect((limits.body.data as { minute_window: { remaining: number } }).minute_window.remaining).toBe(0);
    }
  });

  it("counts in-flight requests across both machines, and frees a machine's seats once it is killed", async () => {
    const [key = ''] = await newKeys(databaseUrl, 1);
    const [a, b] = machines as [ServiceProcess, ServiceProcess];
    // Two requests held in flight on each machine: the account's four.
    const hosts = [a, a, b, b];
    const stalled = hosts.map((m) => stalledRequest(m.base, key));
    // GET /v1/account/limits spends no window place but needs an in-flight place: it answers 429
    // once the four are admitted (polled, with a deadline). A stalled request that came after a
    // poll's place was taken is refused: it is sent again.
    const limits = (machine: ServiceProcess): Promise<Answer> => request(`${machine.base}/v1/account/limits`, { key });
    const deadline = Date.now() + 20_000;
    let answer: Answer;
    for (;;) {
      stalled.forEach((s, i) => {
        if (s.answered() !== null) stalled[i] = stalledRequest(hosts[i]?.base ?? '', key);
      });
      answer = await limits(a);
      if ((answer.status === 429 && stalled.every((s) => s.answered() === null)) || Date.now() > deadline) break;
    }
    expect(answer.status).toBe(429);
    expect(answer.body.error).toMatchObject({
      code: 'rate_limited',
      message: `At most ${IN_FLIGHT} requests may be in flight per account.`,
    });
    // On either machine, any request of the account is refused while the four are in flight.
    for (const machine of machines) {
      const refused = await request(`${machine.base}/v1/account`, { key });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({
        code: 'rate_limited',
        message: `At most ${IN_FLIGHT} requests may be in flight per account.`,
      });
      expect(refused.headers['retry-after']).toBe('1');
    }

    // Machine b dies without a word: its two seats come back once its lease in the store expires.
    const killedAt = Date.now();
    b.child.kill('SIGKILL');
    await b.exited;
    for (const s of stalled.slice(2)) s.close();
    do answer = await request(`${a.base}/v1/account`, { key });
    while (answer.status === 429 && Date.now() - killedAt < 3 * HOLDER_TTL_MS);
    const freedAfter = Date.now() - killedAt;
    expect(answer.status).toBe(200);
    // Within the lease (HOLDER_TTL_MS after b's last beat, at most BEAT_MS before the kill) and a margin for a loaded machine.
    expect(freedAfter).toBeLessThan(HOLDER_TTL_MS + BEAT_MS + 2_000);
    for (const s of stalled.slice(0, 2)) s.close();
  });
});
