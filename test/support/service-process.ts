/**
 * The service as `make run` starts it (src/main.ts), in a child process of its own, over its own
 * embedded PostgreSQL in a temporary data folder: what the reliability tests kill, stop and start
 * again. Waits are on events (the child's output, its exit), never on the wall clock.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createAccount, createKey } from '../../src/accounts.js';
import { freePort } from '../../src/db-server/embedded.js';
import { openDatabase } from '../../src/db/connection.js';
import { inject } from 'vitest';

/**
 * The node arguments that run a source file of the service (`src/main.ts`, `src/cli/ingest.ts`)
 * compiled: the run's build when the global set-up made one, else the source through tsx.
 */
export function nodeArgsOf(source: string): string[] {
  let dir: string | undefined;
  try {
    dir = inject('serviceBuild');
  } catch {
    dir = undefined;
  }
  if (!dir) return ['--import', 'tsx', source];
  return [path.join(dir, source.replace(/\.ts$/, '.js'))];
}

export interface ServiceProcess {
  child: ChildProcess;
  dataDir: string;
  pgPort: number;
  /** http://127.0.0.1:<port> */
  base: string;
  /** The embedded server's URL. */
  pgUrl: string;
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The pid in the embedded server's postmaster.pid. */
  postmasterPid(): number;
}

export interface StartOptions {
  /** Reuse a data folder (default: a new temporary one). */
  dataDir?: string;
  pgPort?: number;
  env?: Record<string, string>;
  /** Resolve once the process has exited instead of once it listens (a start expected to fail). */
  expectFailure?: boolean;
}

export function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-reliability-'));
  // As root the embedded server runs as `postgres`, which must reach its folder inside.
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** Starts src/main.ts (compiled: service-build.ts); resolves once it prints that it listens (or, expecting failure, once it has exited). */
export async function startServiceProcess(options: StartOptions = {}): Promise<ServiceProcess> {
  const dataDir = options.dataDir ?? newDataDir();
  const pgPort = options.pgPort ?? (await freePort());
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, nodeArgsOf('src/main.ts'), {
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      WEB_WORKERS: '1',
      SEED_ON_START: 'false',
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (!options.expectFailure && /listening on/.test(output)) resolve();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(({ code, signal }) =>
      options.expectFailure ? resolve() : reject(new Error(`the service exited (${signal ?? code}) before it listened:\n${output}`)),
    );
  });
  if (options.expectFailure) await exited;
  return {
    child,
    dataDir,
    pgPort,
    base: `http://127.0.0.1:${port}`,
    pgUrl: `postgresql://postgres:postgres@127.0.0.1:${pgPort}/postgres`,
    output: () => output,
    exited,
    postmasterPid: () => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]),
  };
}

/** SIGTERM, then SIGKILL if it has not exited within 30 s; resolves once it has exited. */
export async function stopServiceProcess(service: ServiceProcess): Promise<void> {
  const { child } = service;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await service.exited;
    clearTimeout(timer);
  }
}

/** An account and `count` keys of it, written straight into the service's database. */
export async function newKeys(pgUrl: string, count: number): Promise<string[]> {
  const database = await openDatabase({ databaseUrl: pgUrl, embeddedDir: '', embeddedPort: 0, poolSize: 1, statementTimeoutMs: 10_000 });
  try {
    const account = await createAccount(database.admin, { name: 'reliability', plan: 'pro' });
    const keys: string[] = [];
    for (let i = 0; i < count; i += 1) keys.push((await createKey(database.admin, account, `key ${i}`)).key);
    return keys;
  } finally {
    await database.close();
  }
}

/** A client of the service's database that survives the database going away (its error is kept, not thrown). */
export async function connect(pgUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: pgUrl, application_name: 'reliability-test' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/**
 * Holds an ACCESS EXCLUSIVE lock on `table` in an open transaction: every statement that reads it
 * waits until release().
 */
export async function lockTable(pgUrl: string, table: string): Promise<{ release(): Promise<void> }> {
  const client = await connect(pgUrl);
  await client.query('begin');
  await client.query(`lock table ${table} in access exclusive mode`);
  return {
    release: async () => {
      await client.query('commit').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/** Statements waiting on a lock, by application name. */
export async function waitingOnLocks(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ application_name: string }>(
    // Of the observer's database only: the run's other files share the server, and their services may wait on locks of their own.
    `select application_name from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`,
  );
  return rows.map((row) => row.application_name).sort();
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error?: { code: string; message: string } } & Record<string, unknown>;
  /** From the request's start to its last byte. */
  ms: number;
}

/** One request on a connection of its own (no keep-alive); with timeoutMs, one not answered by then fails with code ETIMEDOUT. */
export function request(url: string, options: { key?: string; method?: string; body?: unknown; timeoutMs?: number } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(text) as Answer['body'],
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () =>
        req.destroy(Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' })),
      );
    }
    req.end(body);
  });
}

/** The children of a process (`pgrep -P`), none when it has none. */
export function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
  } catch {
    // pgrep exits 1 when nothing matches.
    return [];
  }
}

/**
 * Hangs the service's embedded PostgreSQL: SIGSTOP to its postmaster and every child of it, so
 * that connections stay open and nothing answers (a server that hangs, not one that died).
 * Returns resume(), which sends them SIGCONT: call it in a `finally`.
 */
export function hangDatabase(service: ServiceProcess): () => void {
  const postmaster = service.postmasterPid();
  process.kill(postmaster, 'SIGSTOP');
  const stopped = [postmaster];
  for (const pid of childPids(postmaster)) {
    try {
      process.kill(pid, 'SIGSTOP');
      stopped.push(pid);
    } catch {
      // A backend that ended in the meantime.
    }
  }
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    for (const pid of stopped) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Gone.
      }
    }
  };
}

/** The pids of a cluster's HTTP workers: the primary's children that run node (not its PostgreSQL). */
export function workerPids(service: ServiceProcess): number[] {
  const pid = service.child.pid;
  if (pid === undefined) return [];
  return childPids(pid).filter((child) => {
    try {
      return path.basename(fs.readlinkSync(`/proc/${child}/exe`)) === path.basename(process.execPath);
    } catch {
      return false;
    }
  });
}
