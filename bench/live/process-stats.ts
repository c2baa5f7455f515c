/**
 * CPU time and resident memory of a process and its children (the service as `make run` starts it:
 * the cluster's primary and its HTTP workers), read from /proc (Linux). CPU is user + system time,
 * in seconds; RSS is VmRSS, in bytes. A process that has exited is left out.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command's name (field 3 on), or null when gone. */
function statFields(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** The command name of a process (field 2 of /proc/<pid>/stat), or null when gone. */
function commandName(pid: number): string | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
  } catch {
    return null;
  }
}

/**
 * The node processes whose parent is `pid`: a cluster's HTTP workers (not a helper such as
 * esbuild's service, which the TypeScript loader may start).
 */
export function nodeChildrenOf(pid: number): number[] {
  return childrenOf(pid).filter((child) => commandName(child) === 'node');
}

/**
 * User + system CPU seconds of a process and of the children it has waited for (cutime, cstime), or
 * 0 when it is gone: a PostgreSQL postmaster's reaped backends.
 */
export function cpuSecondsWithReapedChildren(pid: number): number {
  const fields = statFields(pid);
  // utime, stime, cutime, cstime: fields 14 to 17, indexes 11 to 14 here.
  return fields === null ? 0 : [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS_PER_SECOND;
}

/** The pids whose parent is `pid`, whatever their command. */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields !== null && Number(fields[1]) === pid) out.push(Number(entry));
  }
  return out;
}

/** User + system CPU seconds of one process, or 0 when it is gone. */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  // utime and stime: fields 14 and 15, indexes 11 and 12 here.
  return fields === null ? 0 : (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size of one process in bytes, or 0 when it is gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export interface TreeSample {
  /** Wall time of the sample, performance.now() ms. */
  at: number;
  primaryCpu: number;
  workersCpu: number;
  rss: number;
}

/** The CPU of the primary and of its children, and the RSS of them all, now. */
export function sampleTree(primary: number, workers: readonly number[]): TreeSample {
  return {
    at: performance.now(),
    primaryCpu: cpuSeconds(primary),
    workersCpu: workers.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    rss: rssBytes(primary) + workers.reduce((sum, pid) => sum + rssBytes(pid), 0),
  };
}

/**
 * Samples the tree every `everyMs` until stop(); the workers are looked up again at each sample (a
 * worker that restarts is counted from its start). The samples are kept (one a second over ten
 * minutes is 600).
 */
export function watchTree(primary: number, everyMs = 1000): { samples: TreeSample[]; stop(): void; now(): TreeSample } {
  const samples: TreeSample[] = [];
  const take = (): TreeSample => {
    const sample = sampleTree(primary, nodeChildrenOf(primary));
    samples.push(sample);
    return sample;
  };
  take();
  const timer = setInterval(take, everyMs);
  return { samples, stop: () => clearInterval(timer), now: take };
}
