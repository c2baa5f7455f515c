/**
 * The embedded server's lock file and its owner, to find a PostgreSQL left running on the data
 * folder by a service that was killed (kill -9, a crash of the machine's OOM killer): that server
 * keeps the folder and the port, and the next start could not start its own. PostgreSQL writes
 * `postmaster.pid` in its data folder (pid, data folder, start time, port, socket folder, listen
 * address, shared memory key, status); the service writes `<folder>.owner` beside it (its own pid and
 * the server's) once the server is up. A live server of the folder is stale when its parent is no
 * longer the service that started it (a killed parent's children are handed to init or a
 * subreaper), and is then stopped as PostgreSQL documents: SIGINT (fast shutdown), SIGQUIT
 * (immediate) if that is not done in time, SIGKILL last. A server whose owner still runs is not
 * touched: the start fails with one line saying what to do.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logging.js';

export interface PostmasterLock {
  pid: number;
  dataDir: string;
  port: number | null;
}

export interface Owner {
  /** The service process that started the server. */
  service: number;
  postmaster: number;
}

/** The first lines of `postmaster.pid` (null when it is not one). */
export function parsePostmasterPid(text: string): PostmasterLock | null {
  const [pidLine, dataDir, , portLine] = text.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !dataDir) return null;
  const port = Number(portLine);
  return { pid, dataDir, port: Number.isInteger(port) && port > 0 ? port : null };
}

/** The parent pid in a line of /proc/<pid>/stat (`pid (command) state ppid ...`; the command may hold spaces and parentheses). */
export function parseProcStat(text: string): { state: string; ppid: number } | null {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return fields[0] && Number.isInteger(ppid) ? { state: fields[0], ppid } : null;
}

export const ownerFile = (dir: string): string => `${path.resolve(dir)}.owner`;

export function writeOwner(dir: string, owner: Owner): void {
  fs.writeFileSync(ownerFile(dir), `${JSON.stringify(owner)}\n`);
}

export function removeOwner(dir: string): void {
  fs.rmSync(ownerFile(dir), { force: true });
}

function readOwner(dir: string): Owner | null {
  try {
    const owner = JSON.parse(fs.readFileSync(ownerFile(dir), 'utf8')) as Partial<Owner>;
    return typeof owner.service === 'number' && typeof owner.postmaster === 'number'
      ? { service: owner.service, postmaster: owner.postmaster }
      : null;
  } catch {
    return null;
  }
}

function readLock(dir: string): PostmasterLock | null {
  try {
    return parsePostmasterPid(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8'));
  } catch {
    return null;
  }
}

/** State and parent of a process: /proc where there is one, `ps` elsewhere; null when it is gone. */
function processInfo(pid: number): { state: string; ppid: number } | null {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    if (fs.existsSync('/proc/self/stat')) return null;
  }
  try {
    const [state, ppid] = execFileSync('ps', ['-o', 'state=,ppid=', '-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .split(/\s+/);
    return state && ppid ? { state, ppid: Number(ppid) } : null;
  } catch {
    return null;
  }
}

/** Running, not a zombie waiting to be reaped. */
export function processRunning(pid: number): boolean {
  const info = processInfo(pid);
  return info !== null && !info.state.startsWith('Z');
}

async function exited(pid: number, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  // Not a child of this process: nothing signals its end, so its state is read every 50 ms.
  while (processRunning(pid)) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Fast shutdown first; immediate, then a kill, for a server that does not finish in time. */
const STOP_STEPS: readonly [NodeJS.Signals, number][] = [
  ['SIGINT', 30_000],
  ['SIGQUIT', 5_000],
  ['SIGKILL', 5_000],
];

/**
 * Stops a server left running on `dir` by a service that is gone; does nothing when none runs.
 * Throws, in one line, when the folder's server still belongs to a running service.
 */
export async function stopStaleServer(dir: string, logger?: Logger): Promise<void> {
  const lock = readLock(dir);
  if (lock === null || lock.pid === process.pid) return;
  const info = processInfo(lock.pid);
  // A lock file naming a process that is gone, or another program's (its pid reused), is
  // PostgreSQL's own to deal with: it replaces a lock file whose server is not running.
  if (info === null || info.state.startsWith('Z') || path.resolve(lock.dataDir) !== path.resolve(dir)) return;
  const owner = readOwner(dir);
  const ownerRuns = owner !== null && owner.postmaster === lock.pid && owner.service === info.ppid && owner.service !== process.pid;
  // Without an owner file (a server started by hand, or by an older service) only an orphan is stale.
  const unowned = owner === null && info.ppid !== 1;
  if (ownerRuns || unowned) {
    throw new Error(
      `PostgreSQL of ${dir} (pid ${lock.pid}, port ${lock.port ?? '?'}) belongs to process ${info.ppid}, which is still running: ` +
        'stop that service first, or start this one with another DATA_DIR (or with DATABASE_URL set to that server).',
    );
  }
  logger?.info('stopping the PostgreSQL server left running on this data folder by a service that is gone', {
    pid: lock.pid,
    dir,
    port: lock.port,
  });
  for (const [signal, waitMs] of STOP_STEPS) {
    try {
      process.kill(lock.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') break;
      throw new Error(
        `PostgreSQL left running on ${dir} (pid ${lock.pid}) could not be stopped (${(error as Error).message}): stop it (kill -INT ${lock.pid}), then start again.`,
      );
    }
    if (await exited(lock.pid, waitMs)) {
      removeOwner(dir);
      return;
    }
  }
  throw new Error(`PostgreSQL left running on ${dir} (pid ${lock.pid}) did not stop: stop it (kill -9 ${lock.pid}), then start again.`);
}
