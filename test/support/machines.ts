/**
 * Service "machines" for the deployment tier: each is src/main.ts as `make run` starts it, a cluster
 * (a primary and WEB_WORKERS=2 HTTP workers) with its own PORT and DATA_DIR, and all of them on one
 * PostgreSQL given by DATABASE_URL (a database of the test cluster: createDatabase). Extra settings
 * go through `env` (DATABASE_REPLICA_URLS, limits, the clock). A machine dies with kill() (SIGKILL
 * to its primary and every process under it, as a machine that loses power) or stops with stop()
 * (SIGTERM: its duties given up). Waits are on the children's output and exit, never on the clock.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db-server/embedded.js';
import { childPids, nodeArgsOf } from './service-process.js';

export interface Machine {
  /** A name for messages: machine-1, machine-2, … */
  name: string;
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  base: string;
  dataDir: string;
  /** The primary's pid: the one that keeps the deployment's duties (its holder name starts `<host>:<pid>:`). */
  pid: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Whether the primary is still running. */
  alive(): boolean;
}

export interface MachineOptions {
  /** The shared PostgreSQL (the primary). */
  databaseUrl: string;
  /** Settings of every machine (added to the defaults below, over them). */
  env?: Record<string, string>;
  /** HTTP workers per machine (default 2). */
  webWorkers?: number;
}

let started = 0;

function newDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-machine-'));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** Spawns one machine; resolves once it says it listens (rejects if it exits first). */
export async function startMachine(options: MachineOptions): Promise<Machine> {
  started += 1;
  const name = `machine-${started}`;
  const dataDir = newDataDir();
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, nodeArgsOf('src/main.ts'), {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      WEB_WORKERS: String(options.webWorkers ?? 2),
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
      if (/listening on/.test(output)) resolve();
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(({ code, signal }) => reject(new Error(`${name} exited (${signal ?? code}) before it listened:\n${output}`)));
  });
  return {
    name,
    child,
    base: `http://127.0.0.1:${port}`,
    dataDir,
    pid: child.pid ?? 0,
    output: () => output,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
}

/**
 * `count` machines started at the same instant on one database. When one does not start, those
 * that did are stopped before the error is thrown (the caller never saw them: nothing else would).
 */
export async function startMachines(count: number, options: MachineOptions): Promise<Machine[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startMachine(options)));
  const machines = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(machines.map((m) => stopMachine(m)));
    throw failed.reason;
  }
  return machines;
}

/** Every process under `pid`, deepest first. */
function descendants(pid: number): number[] {
  return childPids(pid).flatMap((child) => [...descendants(child), child]);
}

/**
 * The machine dies: SIGKILL to its primary and to every process under it at once (the HTTP
 * workers, tsx's helpers), none of them given a chance to give anything up. Resolves once the
 * primary has exited.
 */
export async function killMachine(machine: Machine): Promise<void> {
  if (!machine.alive()) return;
  const all = [...descendants(machine.pid), machine.pid];
  for (const pid of all) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await machine.exited;
}

/** SIGTERM (a clean stop: its duties given up), SIGKILL after 30 s; resolves once it has exited. The data folder is removed. */
export async function stopMachine(machine: Machine): Promise<void> {
  if (machine.alive()) {
    machine.child.kill('SIGTERM');
    const timer = setTimeout(() => void killMachine(machine), 30_000);
    await machine.exited;
    clearTimeout(timer);
  }
  fs.rmSync(machine.dataDir, { recursive: true, force: true });
}

/** Pauses a machine's primary (SIGSTOP): its jobs, duties and sweeps stop taking work; resume() sends SIGCONT. */
export function pausePrimary(machine: Machine): () => void {
  process.kill(machine.pid, 'SIGSTOP');
  let resumed = false;
  return () => {
    if (resumed) return;
    resumed = true;
    process.kill(machine.pid, 'SIGCONT');
  };
}
