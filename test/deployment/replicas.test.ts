/**
 * Read replicas (issue 37 §1, §4): the service as `make run` starts it, with DATABASE_URL a real
 * primary and DATABASE_REPLICA_URLS its streaming replica (test/support/replica-set.ts). Reads go
 * to the replica (its reads in /v1/status grow); a print loaded on the primary is in the very next
 * answer even while the replica's replay is paused; a cursor started on the primary continues on
 * the lagging replica with no duplicate or gap; a stored book is read from the replica, and from
 * the primary while the replica has not replayed it; the replica stopped, the reads go on from the
 * primary with no 5xx, and it is taken back when it returns; a read under way on the replica when it
 * goes away (held there by a lock replayed from the primary) is answered from the primary.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { readBook } from '../../src/db/position-books.js';
import { databaseRepositories } from '../../src/services/repositories.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { formatOccSymbol } from '../../src/analytics/occ.js';
import { loadSimulatedMarket } from '../support/market.js';
import { startReplicaSet, type ReplicaSet } from '../support/replica-set.js';
import { newKeys, request, startServiceProcess, stopServiceProcess, type Answer, type ServiceProcess } from '../support/service-process.js';

const DAY = '2026-11-20';

interface Print {
  id: string;
  timestamp: number;
  underlying_symbol: string;
  contract_type: 'call' | 'put';
  strike: number;
  date_of_expiry: string;
  price: number;
  exchange_code: number;
}

interface Replica {
  name: string;
  status: 'up' | 'down';
  lag_bytes: number | null;
  lag_seconds: number | null;
  replay_paused: boolean | null;
  reads: number;
}

describe('a service with a streaming read replica', () => {
  let set: ReplicaSet;
  let primary: DatabaseHandle;
  let service: ServiceProcess;
  let key: string;

  beforeAll(async () => {
    set = await startReplicaSet();
    primary = await openDatabase({
      databaseUrl: set.primary.url,
      embeddedDir: '',
      embeddedPort: 0,
      poolSize: 2,
      statementTimeoutMs: 120_000,
    });
    await migrateToLatest(primary.admin);
    await loadSimulatedMarket(primary.admin, { dates: [DAY] });
    service = await startServiceProcess({
      env: {
        DATABASE_URL: set.primary.url,
        DATABASE_REPLICA_URLS: set.replica.url,
        LIVE_MODE: 'off',
        // The walks and the status polls below are many requests of one key.
        LIMIT_PER_MINUTE: '1000000',
        LIMIT_PER_SECOND: '100000',
      },
    });
    [key] = (await newKeys(set.primary.url, 1)) as [string];
    await set.caughtUp();
  });

  afterAll(async () => {
    if (service) await stopServiceProcess(service);
    await primary?.close();
    await set?.close();
  });

  const get = (pathAndQuery: string): Promise<Answer> => request(`${service.base}${pathAndQuery}`, { key });
  const replica = async (): Promise<Replica> => {
    const status = await get('/v1/status');
    expect(status.status).toBe(200);
    const replicas = (status.body.data as { replicas: Replica[] }).replicas;
    expect(replicas).toHaveLength(1);
    return replicas[0] as Replica;
  };
  /** Polls the status until `done` holds of the replica (the deadline fails the test). */
  const until = async (done: (r: Replica) => boolean, withinMs = 10_000): Promise<Replica> => {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const r = await replica();
      if (done(r)) return r;
      if (Date.now() > deadline) throw new Error(`the replica never got there: ${JSON.stringify(r)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const page = async (query: string): Promise<{ rows: Print[]; next: string | null }> => {
    const answer = await get(`/v1/options/trades?${query}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const pagination = answer.body.pagination as { next_cursor_id: string | null };
    return { rows: answer.body.data as Print[], next: pagination.next_cursor_id };
  };
  /** Writes on the primary (the replica, paused, falls behind). */
  const writeOnPrimary = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: set.primary.url });
    await client.connect();
    try {
      await client.query('create table if not exists replica_filler (n int)');
      await client.query('insert into replica_filler select generate_series(1, 100)');
    } finally {
      await client.end();
    }
  };

  it('serves reads from the replica and shows its lag in /v1/status', async () => {
    onTestFailed(() => console.log(service.output()));
    const before = await until((r) => r.status === 'up');
    expect(before.name).toBe(`127.0.0.1:${set.replica.port}/postgres`);
    expect(before.lag_bytes).not.toBeNull();
    const { rows } = await page(`underlying_symbol=SPY&date=${DAY}&limit=50`);
    expect(rows).toHaveLength(50);
    const after = await replica();
    expect(after.reads).toBeGreaterThan(before.reads);
    // The replica's own view: the service's read connections are there, and its statements ran there.
    const onReplica = new pg.Client({ connectionString: set.replica.url });
    await onReplica.connect();
    try {
      const seen = await onReplica.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where application_name = 'oads-api-replica'",
      );
      expect(seen.rows[0]?.n).toBeGreaterThan(0);
    } finally {
      await onReplica.end();
    }

    // Lag on demand: the replay paused, the primary writes on; the status shows the bytes behind.
    await set.pauseReplay();
    await writeOnPrimary();
    const lagging = await until((r) => r.replay_paused === true && (r.lag_bytes ?? 0) > 0);
    expect(lagging.status).toBe('up');
    await set.resumeReplay();
    await set.caughtUp();
    await until((r) => r.replay_paused === false && r.lag_bytes === 0 && r.lag_seconds === 0);
  });

  it('answers with a print loaded on the primary right after its load, the replica paused', async () => {
    const [newest] = (await page(`underlying_symbol=SPY&date=${DAY}&limit=1`)).rows as [Print];
    await set.pauseReplay();
    try {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-replica-print-'));
      const file = path.join(dir, 'prints.csv');
      const occ = formatOccSymbol({
        root: newest.underlying_symbol,
        dateOfExpiry: newest.date_of_expiry,
        type: newest.contract_type,
        strike: newest.strike,
      });
      const timestamp = newest.timestamp + 1;
      fs.writeFileSync(
        file,
        [
          'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp',
          `${occ},${timestamp},900000101,${newest.price},1,${newest.exchange_code},209,,,,,`,
        ].join('\n'),
      );
      const loaded = await loadMarketFile(primary.admin, 'prints', file);
      expect(loaded).toMatchObject({ loaded: 1 });
      const before = await replica();
      const [first] = (await page(`underlying_symbol=SPY&date=${DAY}&limit=1`)).rows as [Print];
      expect(first.timestamp).toBe(timestamp);
      expect(first.id).not.toBe(newest.id);
      // The paused replica had not replayed the load: the primary answered.
      expect((await replica()).reads).toBe(before.reads);
    } finally {
      await set.resumeReplay();
    }
    await set.caughtUp();
  });

  it('continues a cursor started on the primary on the lagging replica, with no duplicate or gap', async () => {
    const query = `underlying_symbol=SPY&date=${DAY}&limit=100`;
    // Everything at once (the replica caught up): what the walk must give.
    const expected: string[] = [];
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const p = await page(
        cursor === null ? `underlying_symbol=SPY&date=${DAY}&limit=500` : `underlying_symbol=SPY&date=${DAY}&limit=500&cursor_id=${cursor}`,
      );
      expected.push(...p.rows.map((r) => r.id));
      cursor = p.next;
    }
    expect(expected.length).toBeGreaterThan(400);

    // The first page on the primary: the replica, paused behind the primary's newest write, cannot serve it.
    await set.pauseReplay();
    await writeOnPrimary();
    const beforeFirst = await replica();
    const first = await page(query);
    expect((await replica()).reads).toBe(beforeFirst.reads);
    // The replica then replays to the first page's floor and is paused again behind newer writes.
    await set.resumeReplay();
    await set.caughtUp();
    await set.pauseReplay();
    await writeOnPrimary();
    const lagging = await until((r) => (r.lag_bytes ?? 0) > 0 && r.replay_paused === true);
    const ids = first.rows.map((r) => r.id);
    let cursor = first.next;
    while (cursor !== null) {
      const next = await page(`${query}&cursor_id=${cursor}`);
      ids.push(...next.rows.map((r) => r.id));
      cursor = next.next;
    }
    const after = await replica();
    await set.resumeReplay();
    // The following pages were read on the replica, still behind the primary.
    expect(after.reads).toBeGreaterThan(lagging.reads);
    expect(after.lag_bytes).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expected);
  });

  it('reads a stored book from the replica, and from the primary when the replica has not replayed it', async () => {
    await until((r) => r.status === 'up');
    const levels = `/v1/options/levels?underlying_symbol=QQQ&date=${DAY}`;
    const heatmap = `/v1/options/exposure/heatmap?underlying_symbol=QQQ&date=${DAY}&metric=gamma`;
    // The replay paused: the book this request values and stores is on the primary only, and the
    // request reads it back by its id (services/books.ts): the replica has no such row, the primary does.
    await set.pauseReplay();
    let first: Answer;
    let firstHeat: Answer;
    const onReplica = await openDatabase({
      databaseUrl: set.replica.url,
      embeddedDir: '',
      embeddedPort: 0,
      poolSize: 1,
      statementTimeoutMs: 60_000,
    });
    try {
      const newestBefore = await sql<{ id: string }>`select coalesce(max(id), 0) as id from position_books`.execute(primary.admin);
      first = await get(levels);
      firstHeat = await get(heatmap);
      // The repositories as the service builds them: the book, not yet on the replica, comes from the primary.
      // The request stores the book it valued after answering (services/books.ts storeAfterAnswer): wait for its minute's mapping.
      let id = Number.NaN;
      for (const deadline = Date.now() + 30_000; Number.isNaN(id) && Date.now() < deadline;) {
        const stored = await sql<{
          id: string;
        }>`select b.id from position_books b join position_book_minutes m on m.book_id = b.id
           where b.underlying_symbol = 'QQQ' and b.id > ${newestBefore.rows[0]!.id}::int8 order by b.id desc limit 1`.execute(
          primary.admin,
        );
        id = Number(stored.rows[0]?.id ?? Number.NaN);
        if (Number.isNaN(id)) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(id).not.toBeNaN();
      expect(await readBook(onReplica.admin, id)).toBeNull();
      const fromPrimary = await readBook(primary.admin, id);
      expect(fromPrimary).not.toBeNull();
      expect(await databaseRepositories(primary.admin, onReplica.admin).books.readBook(id)).toEqual(fromPrimary);
    } finally {
      await set.resumeReplay();
      await onReplica.close();
    }
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(firstHeat.status, JSON.stringify(firstHeat.body)).toBe(200);
    await set.caughtUp();
    // Replayed, the stored book and its answers are read from the replica: the same figures.
    const before = (await replica()).reads;
    const again = await get(`${heatmap}&leg=call`);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await replica()).reads).toBeGreaterThan(before);
    expect((await get(levels)).body.data).toEqual(first.body.data);
    expect((await get(heatmap)).body.data).toEqual(firstHeat.body.data);
  });

  it('reads on from the primary with no 5xx while the replica is stopped, and takes it back when it returns', async () => {
    await until((r) => r.status === 'up');
    await set.stopReplica();
    const statuses: number[] = [];
    const started = Date.now();
    // Requests while the service finds it gone and after: none fails.
    while (Date.now() - started < 3_000) {
      const answer = await get(`/v1/options/trades?underlying_symbol=SPY&date=${DAY}&limit=20`);
      statuses.push(answer.status);
    }
    expect(new Set(statuses)).toEqual(new Set([200]));
    const down = await until((r) => r.status === 'down', 5_000);
    expect(down.lag_bytes).toBeNull();
    await set.startReplica();
    const back = await until((r) => r.status === 'up', 15_000);
    await page(`underlying_symbol=SPY&date=${DAY}&limit=20`);
    expect((await replica()).reads).toBeGreaterThan(back.reads);
  });

  it('runs a read again on the primary when its replica goes away while the read runs', async () => {
    await until((r) => r.status === 'up');
    // A lock on the prints taken on the primary is replayed on the replica: a page read there waits on it.
    const locker = new pg.Client({ connectionString: set.primary.url });
    await locker.connect();
    let pending: Promise<Answer> | null = null;
    try {
      await locker.query('begin');
      await locker.query('lock table prints in access exclusive mode');
      // A commit elsewhere flushes the WAL, the lock's record with it, for the replica to replay.
      await writeOnPrimary();
      await set.caughtUp();
      pending = get(`/v1/options/trades?underlying_symbol=SPY&date=${DAY}&limit=20`);
      const deadline = Date.now() + 15_000;
      const watcher = new pg.Client({ connectionString: set.replica.url });
      await watcher.connect();
      try {
        for (;;) {
          const waiting = await watcher.query<{ n: number }>(
            "select count(*)::int as n from pg_stat_activity where application_name = 'oads-api-replica' and wait_event_type = 'Lock'",
          );
          if ((waiting.rows[0]?.n ?? 0) > 0) break;
          if (Date.now() > deadline) throw new Error('no read of the service waits on the replica');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await watcher.end();
      }
      // The replica goes away under the waiting read; the primary's lock is released after.
      await set.stopReplica();
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    const answer = await pending;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data).toHaveLength(20);
    await until((r) => r.status === 'down', 5_000);
    await set.startReplica();
    await until((r) => r.status === 'up', 15_000);
  });
});
