/**
 * The deployment's limits in the store (src/db/limits.ts, migration 20261128T120000): the lease
 * arithmetic of limit_lease / limit_settle / limit_refuse and the reaping of a dead holder's
 * places, on a real PostgreSQL. Two holders stand for two machines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { limitStore, type LimitStatements } from '../../src/db/limits.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createDatabase } from '../support/service.js';

const LIMITS = { perMinute: 40, perSecond: 1000, inFlight: 4 };
const T0 = 1_800_000_000_000;

describe('limits counted in the store', () => {
  let handle: DatabaseHandle;
  let store: LimitStatements;
  let n = 0;
  const account = (): string => `acct_${(n += 1)}`;
  const lease = (a: string, holder: string, now: number, want: { slots: number; seats: number }, share = 1, consume = true) =>
    store.lease({ account: a, holder, now, consume, ...want, share, ...LIMITS });

  beforeAll(async () => {
    const url = await createDatabase(inject('postgresUrl'));
    handle = await openDatabase({ databaseUrl: url, embeddedDir: '', embeddedPort: 0, poolSize: 4, statementTimeoutMs: 10_000 });
    await migrateToLatest(handle.admin);
    store = limitStore(handle.db, url);
    await store.beat('a', T0, 60_000);
    await store.beat('b', T0, 60_000);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('leases at most the free places over the share, counts them taken, and refuses at the limit', async () => {
    const a = account();
    const first = await lease(a, 'a', T0, { slots: 64, seats: 16 }, 4);
    expect(first).toMatchObject({ slots: 10, seats: 1, refusal: null, others: 0 });
    expect(first.windows).toMatchObject({ minuteUsed: 10, seated: 1 });
    // Machine b sees a's places as taken: 30 free over 4.
    const second = await lease(a, 'b', T0 + 1, { slots: 64, seats: 16 }, 4);
    expect(second).toMatchObject({ slots: 7, seats: 1, others: 11 });
    // b takes the rest one batch at a time; at 40 the store refuses, saying a holds places.
    let got = 17;
    for (let i = 0; i < 40 && got < 40; i += 1) got += (await lease(a, 'b', T0 + 2, { slots: 64, seats: 0 }, 1)).slots;
    expect(got).toBe(40);
    const refused = await lease(a, 'b', T0 + 3, { slots: 1, seats: 0 });
    expect(refused).toMatchObject({ slots: 0, refusal: 'minute', others: 11 });
    // a gives back what it did not use (used 3 at T0): b gets exactly those 7 places.
    await store.settle({ account: a, holder: 'a', now: T0 + 4, used: [T0, T0, T0], unused: 7, seats: 1, unserved: [] });
    const after = await lease(a, 'b', T0 + 5, { slots: 64, seats: 0 }, 1);
    expect(after).toMatchObject({ slots: 7, refusal: null, others: 0 });
    // A minute after T0 the three places a used leave the window.
    const later = await store.settle({ account: a, holder: 'b', now: T0 + 60_001, used: [], unused: 37, seats: 1, unserved: [] });
    expect(later.minuteUsed).toBe(0);
  });

  it('counts in-flight seats across holders and frees them when given back', async () => {
    const a = account();
    expect((await lease(a, 'a', T0, { slots: 1, seats: 3 })).seats).toBe(3);
    expect((await lease(a, 'b', T0, { slots: 1, seats: 3 })).seats).toBe(1);
    expect(await lease(a, 'b', T0, { slots: 1, seats: 1 })).toMatchObject({ refusal: 'in_flight', others: 4 });
    await store.settle({ account: a, holder: 'a', now: T0, used: [T0], unused: 0, seats: 2, unserved: [] });
    expect((await lease(a, 'b', T0, { slots: 1, seats: 4 })).seats).toBe(2);
  });

  it('takes the places of requests not served out of the windows', async () => {
    const a = account();
    await lease(a, 'a', T0, { slots: 2, seats: 1 });
    await store.settle({ account: a, holder: 'a', now: T0, used: [T0 - 5, T0 - 4], unused: 0, seats: 1, unserved: [] });
    const w = await store.settle({ account: a, holder: 'a', now: T0, used: [], unused: 0, seats: 0, unserved: [T0 - 5] });
    expect(w.minuteUsed).toBe(1);
    expect(w.minuteNext).toBe(T0 - 4);
  });

  it('counts the times of one report that straddles a window edge one by one', async () => {
    const a = account();
    await lease(a, 'a', T0, { slots: 3, seats: 1 });
    await store.settle({ account: a, holder: 'a', now: T0, used: [T0 - 500, T0 - 59_500, T0 - 30_000], unused: 0, seats: 1, unserved: [] });
    const w = await store.settle({ account: a, holder: 'a', now: T0 + 600, used: [], unused: 0, seats: 0, unserved: [] });
    expect(w).toMatchObject({ minuteUsed: 2, secondUsed: 0, minuteNext: T0 - 30_000, secondNext: null });
    const at = await store.settle({ account: a, holder: 'a', now: T0 + 400, used: [], unused: 0, seats: 0, unserved: [] });
    expect(at).toMatchObject({ minuteUsed: 3, secondUsed: 1, minuteNext: T0 - 59_500, secondNext: T0 - 500 });
  });

  it('starts a cooldown at the configured count of refusals within a minute', async () => {
    const a = account();
    expect(await store.refuse(a, T0, 3, 30_000)).toBe(0);
    expect(await store.refuse(a, T0 + 1, 3, 30_000)).toBe(0);
    expect(await store.refuse(a, T0 + 2, 3, 30_000)).toBe(T0 + 2 + 30_000);
    expect(await lease(a, 'a', T0 + 3, { slots: 1, seats: 1 })).toMatchObject({ refusal: 'cooldown' });
    // A request that spends nothing (GET /v1/account/limits) is admitted during a cooldown.
    expect(await lease(a, 'a', T0 + 3, { slots: 0, seats: 1 }, 1, false)).toMatchObject({ refusal: null, seats: 1 });
  });

  it("reaps a dead holder's places by the database's clock: seats freed, window places counted as used at its last beat", async () => {
    const a = account();
    await store.beat('dying', T0, 200);
    expect(await lease(a, 'dying', T0, { slots: 5, seats: 4 })).toMatchObject({ slots: 5, seats: 4 });
    expect(await lease(a, 'a', T0, { slots: 1, seats: 1 })).toMatchObject({ refusal: 'in_flight', others: 9 });
    // Time passing is what is waited for: the holder beat for 200 ms.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await lease(a, 'a', T0 + 10, { slots: 1, seats: 1 });
    expect(after).toMatchObject({ refusal: null, slots: 1, seats: 1, others: 0 });
    expect(after.windows.minuteUsed).toBe(6);
    expect(after.windows.minuteNext).toBe(T0);
    // The holder, beating again, is told its lease had expired.
    expect((await store.beat('dying', T0 + 20, 200)).alive).toBe(false);
  });
});
