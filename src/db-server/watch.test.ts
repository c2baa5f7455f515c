import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DatabaseUnavailableError } from './unavailable.js';
import { DatabaseWatch } from './watch.js';

const refused = (): NodeJS.ErrnoException => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:54329'), { code: 'ECONNREFUSED' });

/** A probe whose answers the test decides: each call takes the next one, and is counted. */
function scriptedProbe(answers: ('up' | 'refused' | 'bad password')[]): { probe: () => Promise<void>; calls: () => number } {
  let calls = 0;
  return {
    calls: () => calls,
    probe: async () => {
      const answer = answers[Math.min(calls, answers.length - 1)];
      calls += 1;
      if (answer === 'refused') throw refused();
      if (answer === 'bad password')
        throw Object.assign(new Error('password authentication failed for user "postgres"'), { code: '28P01' });
    },
  };
}

describe('DatabaseWatch', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ignores errors that do not say the database is unavailable', async () => {
    const { probe, calls } = scriptedProbe(['up']);
    const watch = new DatabaseWatch({ probe });
    watch.suspect(new Error('relation "prints" does not exist'));
    watch.suspect(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(0);
    expect(watch.state.status).toBe('up');
  });

  it('marks the database down when a probe fails, refuses meanwhile, probes with doubling pauses up to 2 s, and is up once one answers', async () => {
    const { probe, calls } = scriptedProbe(['refused', 'refused', 'refused', 'refused', 'refused', 'refused', 'up']);
    const watch = new DatabaseWatch({ probe });
    watch.suspect(refused());
    await vi.advanceTimersByTimeAsync(0);
    expect(calls()).toBe(1);
    expect(watch.state).toMatchObject({ status: 'down', error: 'connect ECONNREFUSED 127.0.0.1:54329' });
    expect(() => watch.assertUp()).toThrow(DatabaseUnavailableError);
    // Pauses 100, 200, 400, 800, 1600, then 2000 (the longest): the seventh probe answers.
    for (const [pause, probes] of [
      [100, 2],
      [200, 3],
      [400, 4],
      [800, 5],
      [1600, 6],
    ] as const) {
      await vi.advanceTimersByTimeAsync(pause - 1);
      expect(calls()).toBe(probes - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(calls()).toBe(probes);
    }
    expect(watch.state.status).toBe('down');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls()).toBe(7);
    expect(watch.state).toEqual({ status: 'up', downSince: null, error: null });
    expect(() => watch.assertUp()).not.toThrow();
    // No probe runs once the database is up again.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(7);
  });

  it('takes a server that answers with another error as up: requests meet that error themselves', async () => {
    const { probe } = scriptedProbe(['bad password']);
    const watch = new DatabaseWatch({ probe });
    watch.markDown('embedded PostgreSQL exited (SIGKILL)');
    expect(watch.state.status).toBe('down');
    await vi.advanceTimersByTimeAsync(0);
    expect(watch.state.status).toBe('up');
  });

  it('tells onDown once each time the database is found down from up (what waits on it is cut)', async () => {
    const { probe } = scriptedProbe(['refused', 'refused', 'up', 'refused', 'up']);
    const downs: string[] = [];
    const watch = new DatabaseWatch({ probe, onDown: (reason) => downs.push(reason) });
    watch.suspect(refused());
    await vi.advanceTimersByTimeAsync(0);
    watch.markDown('told by another worker');
    expect(downs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(watch.state.status).toBe('up');
    watch.markDown('embedded PostgreSQL exited (SIGKILL)');
    expect(downs).toHaveLength(2);
    expect(downs[1]).toBe('embedded PostgreSQL exited (SIGKILL)');
  });

  it('probes at once when asked (the embedded server is back) instead of after the pause', async () => {
    const { probe, calls } = scriptedProbe(['refused', 'refused', 'refused', 'up']);
    const watch = new DatabaseWatch({ probe });
    watch.markDown('embedded PostgreSQL exited (SIGKILL)');
    await vi.advanceTimersByTimeAsync(300);
    expect(calls()).toBe(3);
    watch.probeNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls()).toBe(4);
    expect(watch.state.status).toBe('up');
  });

  it('one probe at a time, however many connections fail together', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const watch = new DatabaseWatch({
      probe: () => {
        calls += 1;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    for (let i = 0; i < 20; i += 1) watch.suspect(refused());
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    // A probe that just answered is trusted for a moment: suspicions then start no new probe.
    watch.suspect(refused());
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
  });

  it('stops probing when closed', async () => {
    const { probe, calls } = scriptedProbe(['refused']);
    const watch = new DatabaseWatch({ probe });
    watch.suspect(refused());
    await vi.advanceTimersByTimeAsync(0);
    watch.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls()).toBe(1);
    watch.markDown('after close');
    expect(calls()).toBe(1);
  });
});
