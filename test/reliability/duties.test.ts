/**
 * A duty run once for the deployment (src/live/duty.ts, db/duties.ts: the live market's runner), as
 * several machines' primaries keep it: processes holding the same duty on one database. One runs it
 * at a time; a holder killed with SIGKILL hands it on once its lease expires (within lease + renew);
 * a holder that stops gives the lease up and another takes it at its next look; a holder cut off from
 * the database stops running the duty before its lease can expire. A lock of the deployment (the
 * first start's market seeding, db/duties.ts holdDeploymentLock) is held by one process at a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { dutyLeases, holdDeploymentLock } from '../../src/db/duties.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { Duty } from '../../src/live/duty.js';
import { createDatabase } from '../support/service.js';

const LEASE_MS = 3_000;
const RENEW_MS = 500;

/** Polls `check` every 50 ms until it holds; fails after `deadlineMs`. */
async function until(check: () => boolean | Promise<boolean>, deadlineMs: number, what: string): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > deadlineMs) throw new Error(`not within ${deadlineMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

interface Holder {
  child: ChildProcess;
  name: Promise<string>;
  lines: string[];
}

describe('a duty run once for the deployment', () => {
  let databaseUrl: string;
  let database: DatabaseHandle;
  const children: ChildProcess[] = [];
  const duties: Duty[] = [];

  /** A holder process (test/support/duty-holder.ts) of `duty`. */
  function holderProcess(duty: string): Holder {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/duty-holder.ts'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, DUTY_NAME: duty, DUTY_LEASE_MS: String(LEASE_MS), DUTY_RENEW_MS: String(RENEW_MS) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    const lines: string[] = [];
    const name = new Promise<string>((resolve) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        lines.push(line);
        if (line.startsWith('holder ')) resolve(line.slice('holder '.length));
      });
    });
    return { child, name, lines };
  }

  /** A holder in this process, counting the runs it began and stopped. */
  function holderHere(duty: string, db = database.admin): { duty: Duty; begun: number; ended: number } {
    const counts = { duty: null as unknown as Duty, begun: 0, ended: 0 };
    counts.duty = new Duty(
      db,
      duty,
      () => {
        counts.begun += 1;
        return { stop: async () => void (counts.ended += 1) };
      },
      { leaseMs: LEASE_MS, renewMs: RENEW_MS },
    );
    duties.push(counts.duty);
    return counts;
  }

  beforeAll(async () => {
    databaseUrl = await createDatabase(inject('postgresUrl'));
    database = await openDatabase({ databaseUrl, embeddedDir: '', embeddedPort: 0, poolSize: 2, statementTimeoutMs: 10_000 });
    await migrateToLatest(database.admin);
  });
  afterEach(async () => {
    for (const d of duties.splice(0)) await d.stop();
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  afterAll(async () => database.close());

  it('runs in one holder of two; a holder killed hands it on once its lease expired, within lease + renew', async () => {
    const a = holderProcess('killed');
    const aName = await a.name;
    await until(() => a.lines.includes('begin'), 20_000, 'the first holder takes the duty');
    const b = holderHere('killed');
    b.duty.start();
    // While the first renews, the second never runs the duty.
    await new Promise((resolve) => setTimeout(resolve, 4 * RENEW_MS));
    expect([b.duty.holding, b.begun]).toEqual([false, 0]);
    expect((await dutyLeases(database.admin)).map((l) => [l.name, l.holder])).toEqual([['killed', aName]]);

    a.child.kill('SIGKILL');
    await new Promise<void>((resolve) => a.child.once('exit', () => resolve()));
    const [dead] = await dutyLeases(database.admin);
    const took = await until(() => b.duty.holding, LEASE_MS + RENEW_MS + 1_000, 'the second holder takes the duty');
    expect(took).toBeLessThanOrEqual(LEASE_MS + RENEW_MS + 1_000);
    expect(b.begun).toBe(1);
    const [lease] = await dutyLeases(database.admin);
    expect(lease!.holder).toBe(b.duty.holder);
    // Taken only once the dead holder's lease had expired.
    expect(lease!.takenAt).toBeGreaterThanOrEqual(dead!.expiresAt);
  });

  it('is taken at the next look when its holder stops (the lease given up), never by two at once', async () => {
    const a = holderHere('stopped');
    a.duty.start();
    await until(() => a.duty.holding, 5_000, 'the first holder takes the duty');
    const b = holderProcess('stopped');
    await b.name;
    await new Promise((resolve) => setTimeout(resolve, 4 * RENEW_MS));
    expect(b.lines).not.toContain('begin');
    await a.duty.stop();
    expect([a.begun, a.ended]).toEqual([1, 1]);
    const took = await until(() => b.lines.includes('begin'), RENEW_MS + 1_500, 'the second holder takes the given-up duty');
    expect(took).toBeLessThan(LEASE_MS);
    // A clean stop of the process gives it up in turn.
    b.child.stdin!.write('stop\n');
    await new Promise<void>((resolve) => b.child.once('exit', () => resolve()));
    expect(b.lines.slice(-1)).toEqual(['end']);
    expect(await dutyLeases(database.admin)).toEqual([]);
  });

  it('stops running the duty, before its lease can expire, when its holder cannot reach the database', async () => {
    // The holder's own database handle, cut off below (connections refused, its own ended) while a
    // connection kept here reads the lease.
    const cut = await openDatabase({
      databaseUrl,
      embeddedDir: '',
      embeddedPort: 0,
      poolSize: 1,
      statementTimeoutMs: 1_000,
      hangMs: 1_000,
    });
    const server = new URL(databaseUrl);
    const dbName = server.pathname.slice(1);
    server.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: server.toString() });
    const watcher = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await watcher.connect();
    const watcherPid = (await watcher.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    try {
      const h = holderHere('cut', cut.admin);
      h.duty.start();
      await until(() => h.duty.holding, 5_000, 'the holder takes the duty');
      await admin.query(`alter database ${dbName} with allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> $2', [dbName, watcherPid]);
      const { rows } = await watcher.query<{ expires_at: Date }>("select expires_at from duties where name = 'cut'");
      const expiresAt = rows[0]!.expires_at.getTime();
      await until(() => !h.duty.holding, LEASE_MS + 2_000, 'the holder gives the duty up');
      expect(h.ended).toBe(1);
      // It stopped running it while its lease still held: nobody else could have taken it yet.
      expect(Date.now()).toBeLessThan(expiresAt);
    } finally {
      await admin.query(`alter database ${dbName} with allow_connections true`).catch(() => undefined);
      await admin.end();
      await watcher.end();
      for (const d of duties.splice(0)) await d.stop();
      await cut.close().catch(() => undefined);
    }
  });

  it("holds a lock of the deployment (the first start's seeding) for one process at a time, handed on when its holder releases it", async () => {
    let firstWaited = false;
    let secondWaited = false;
    const releaseFirst = await holdDeploymentLock(databaseUrl, 'seed-market', () => (firstWaited = true));
    let secondHolds = false;
    const second = holdDeploymentLock(databaseUrl, 'seed-market', () => (secondWaited = true)).then((release) => {
      secondHolds = true;
      return release;
    });
    await until(() => secondWaited, 5_000, 'the second to wait');
    // Another name is not held by either.
    const other = await holdDeploymentLock(databaseUrl, 'another-step', () => {
      throw new Error('another name waited');
    });
    await other();
    expect([firstWaited, secondHolds]).toEqual([false, false]);
    await releaseFirst();
    const releaseSecond = await second;
    expect(secondHolds).toBe(true);
    await releaseSecond();
  });
});
