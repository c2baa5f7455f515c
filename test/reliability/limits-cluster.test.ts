/**
 * Limits are the configured values, whatever the worker count (issue #20, section 4): with two HTTP
 * workers each counted an account's windows for itself, so an account got twice its limits. Now
 * the default (LIMIT_SCOPE=cluster) counts them once, in the primary, which the workers lease
 * places from in batches (src/limits/cluster-limiter.ts). The service runs as `make run` runs it,
 * with two workers; each request comes on a connection of its own, which node's cluster hands to
 * the workers in turn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newKeys, request, startServiceProcess, stopServiceProcess, type Answer, type ServiceProcess } from '../support/service-process.js';

const PER_MINUTE = 40;

describe('limits across two HTTP workers', () => {
  let service: ServiceProcess;
  let key = '';

  beforeAll(async () => {
    service = await startServiceProcess({
      env: { WEB_WORKERS: '2', LIMIT_PER_MINUTE: String(PER_MINUTE), LIMIT_PER_SECOND: '100000', LIMIT_IN_FLIGHT: '1000' },
    });
    [key = ''] = await newKeys(service.pgUrl, 1);
  });

  afterAll(async () => {
    if (service) await stopServiceProcess(service);
  });

  it("admits exactly an account's minute limit, not that many per worker", async () => {
    const answers: Answer[] = [];
    // In rounds of ten at once, so that both workers admit the account's requests at the same time.
    for (let round = 0; round < 6; round += 1) {
      answers.push(...(await Promise.all(Array.from({ length: 10 }, () => request(`${service.base}/v1/account`, { key })))));
    }
    const admitted = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(admitted).toHaveLength(PER_MINUTE);
    expect(new Set(refused.map((a) => `${a.status} ${a.body.error?.code}`))).toEqual(new Set(['429 rate_limited']));
    expect(admitted.every((a) => a.headers['x-ratelimit-limit'] === String(PER_MINUTE))).toBe(true);
    // Both workers answered (a request id carries its process's part).
    expect(new Set(answers.map((a) => String(a.headers['x-request-id']).slice(14, -8))).size).toBe(2);

    // The account's windows as either worker reports them: all spent.
    for (let i = 0; i < 4; i += 1) {
      const limits = await request(`${service.base}/v1/account/limits`, { key });
      expect(limits.status).toBe(200);
      expect((limits.body.data as { minute_window: { remaining: number } }).minute_window.remaining).toBe(0);
    }
  });
});
