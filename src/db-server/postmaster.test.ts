import { describe, expect, it } from 'vitest';
import { parsePostmasterPid, parseProcStat } from './postmaster.js';

describe('parsePostmasterPid', () => {
  it("reads the pid, data folder and port of PostgreSQL's lock file", () => {
    // As PostgreSQL 17 writes it: pid, data folder, start time, port, socket folder, listen address, shared memory key, status.
    const text = '4242\n/tmp/oads/pg\n1764072000\n54329\n/tmp\n127.0.0.1\n  5432001         1\nready   \n';
    expect(parsePostmasterPid(text)).toEqual({ pid: 4242, dataDir: '/tmp/oads/pg', port: 54329 });
  });

  it('takes a lock file cut short (a server still starting) without its port, and refuses one that is not a lock file', () => {
    expect(parsePostmasterPid('4242\n/tmp/oads/pg\n')).toEqual({ pid: 4242, dataDir: '/tmp/oads/pg', port: null });
    expect(parsePostmasterPid('')).toBeNull();
    expect(parsePostmasterPid('not a pid\n/tmp/oads/pg\n')).toBeNull();
    expect(parsePostmasterPid('-1\n/tmp/oads/pg\n')).toBeNull();
    expect(parsePostmasterPid('4242\n')).toBeNull();
  });
});

describe('parseProcStat', () => {
  it('reads the state and parent of /proc/<pid>/stat', () => {
    expect(parseProcStat('4242 (postgres) S 1 4242 4242 0 -1 4194560 1466 0 0 0')).toEqual({ state: 'S', ppid: 1 });
  });

  it('is not misled by a command holding spaces or parentheses', () => {
    expect(parseProcStat('77 (a (b) c) Z 4000 77 77 0 -1')).toEqual({ state: 'Z', ppid: 4000 });
  });

  it('refuses a line that is not one', () => {
    expect(parseProcStat('')).toBeNull();
  });
});
