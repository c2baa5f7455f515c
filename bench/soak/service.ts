/**
 * The service of the soak bench, started as `make run` starts it: dist/src/main.js
 * (bench/support.ts serviceEntry) in a process of its own with the default limits and HTTP
 * workers, seeding the simulated market on first start
 * (SEED_ON_START=true), over the bench's own embedded PostgreSQL or DATABASE_URL. Unlike
 * bench/support.ts's startServerProcess it keeps the deployment's limits (the bench measures them)
 * and lets the service seed. The resident memory of its processes is read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { freePort, startEmbeddedPostgres } from '../../src/db-server/embedded.js';
import { serviceEntry } from '../support.js';

export interface SoakService {
  url: string;
  /** The primary's process id (the HTTP workers are its children). */
  pid: number;
  workers: number;
  limitScope: string;
  /** Seconds from the spawn until it listened (seeding included on a first start). */
  startSeconds: number;
  stop(): Promise<void>;
}

/** The throwaway embedded server in `dir`, or DATABASE_URL's server. */
export async function startDatabase(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => undefined };
  const embedded = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort());
  return { url: embedded.url, stop: embedded.stop };
}

/** Resolves once the service answers /v1/status (seeding a fresh store first takes a minute or more). */
export async function startSoakService(databaseUrl: string, dataDir: string): Promise<SoakService> {
  const port = await freePort();
  // The caller's environment passes through (WEB_WORKERS, LIMIT_SCOPE, LIMIT_*: what is measured).
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    PORT: String(port),
    SEED_ON_START: 'true',
    LOG_LEVEL: 'info',
  };
  const started = performance.now();
  const log = fs.openSync(path.join(dataDir, 'service.log'), 'w');
  const child: ChildProcess = spawn(process.execPath, serviceEntry(), { env, stdio: ['ignore', log, 'inherit'] });
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 15 * 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`the service exited with ${child.exitCode} before it listened (log: ${dataDir}/service.log)`);
    if (performance.now() > deadline) throw new Error('the service did not listen within 15 minutes');
    const up = await fetch(`${url}/v1/status`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    pid: child.pid ?? 0,
    workers: loadConfig(env).webWorkers,
    limitScope: loadConfig(env).limitScope,
    startSeconds: (performance.now() - started) / 1000,
    stop: async () => {
      if (child.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/** The primary and its child processes (the HTTP workers; the embedded PostgreSQL when it started one). */
export function serviceProcesses(primary: number): number[] {
  try {
    const children = fs.readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8').trim();
    return [primary, ...children.split(/\s+/).filter(Boolean).map(Number)];
  } catch {
    return [primary];
  }
}

/** A process's command line, to tell node workers from anything else it started. */
export function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** Resident memory in MB (VmRSS of /proc/<pid>/status), or null once the process is gone. */
export function residentMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}
