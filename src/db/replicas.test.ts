import { describe, expect, it } from 'vitest';
import { chooseReplica, formatLsn, inReadScope, isReplicaFailure, parseLsn, raiseReadFloor, readFloor, replicaName } from './replicas.js';

describe('read routing rule', () => {
  it('reads and writes WAL positions', () => {
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(formatLsn(parseLsn('0/14F1320'))).toBe('0/14F1320');
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('nonsense')).toThrow();
  });

  it('sends a read only to a replica that is up and has replayed the floor', () => {
    const behind = { name: 'a', up: true, replay: parseLsn('0/100') };
    const down = { name: 'b', up: false, replay: parseLsn('0/900') };
    const ahead = { name: 'c', up: true, replay: parseLsn('0/500') };
    expect(chooseReplica([behind, down, ahead], parseLsn('0/200'))?.name).toBe('c');
    expect(chooseReplica([behind, down, ahead], parseLsn('0/500'))?.name).toBe('c');
    // None has reached it: the caller waits, then reads from the primary.
    expect(chooseReplica([behind, down, ahead], parseLsn('0/501'))).toBeNull();
    expect(chooseReplica([{ up: true, replay: null }], 0n)).toBeNull();
    // Turns among those that qualify.
    const other = { name: 'd', up: true, replay: parseLsn('0/600') };
    expect(chooseReplica([ahead, other], 0n, 0)?.name).toBe('c');
    expect(chooseReplica([ahead, other], 0n, 1)?.name).toBe('d');
  });

  it('runs again on the primary what failed with the replica, not what failed with the statement', () => {
    expect(isReplicaFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isReplicaFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
    const server = (code: string) => Object.assign(new Error(code), { code, severity: 'FATAL' });
    expect(isReplicaFailure(server('57P01'))).toBe(true);
    expect(isReplicaFailure(server('08006'))).toBe(true);
    expect(isReplicaFailure(server('40001'))).toBe(true);
    expect(isReplicaFailure(server('57014'))).toBe(false);
    expect(isReplicaFailure(server('42P01'))).toBe(false);
  });

  it('keeps the floor of a request, raised by its cursor, never lowered', () => {
    expect(readFloor()).toBeNull();
    inReadScope(() => {
      expect(readFloor()).toBeNull();
      raiseReadFloor('0/300');
      raiseReadFloor('0/200');
      raiseReadFloor(42);
      raiseReadFloor('garbage');
      expect(readFloor()).toBe('0/300');
    });
  });

  it('names a replica without its credentials', () => {
    expect(replicaName('postgresql://u:secret@db-2:6543/oads')).toBe('db-2:6543/oads');
    expect(replicaName('postgres://u@db-3/oads')).toBe('db-3:5432/oads');
  });
});
