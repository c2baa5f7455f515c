import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/connection.js';
import { readOnReplica } from './repositories.js';

// Two handles told apart by identity only: the read below answers by which one it is given.
const replica = { name: 'replica' } as unknown as Queryable;
const primary = { name: 'primary' } as unknown as Queryable;
const nameOf = (on: Queryable): string => (on as unknown as { name: string }).name;

describe('readOnReplica (a row never changed once written: replica first, then the primary)', () => {
  it('answers from the replica without asking the primary when the replica has the row', async () => {
    const asked: string[] = [];
    const row = await readOnReplica(replica, primary, async (on) => (asked.push(nameOf(on)), { from: nameOf(on) }));
    expect(row).toEqual({ from: 'replica' });
    expect(asked).toEqual(['replica']);
  });

  it('asks the primary when the replica has not replayed the row', async () => {
    const asked: string[] = [];
    const row = await readOnReplica(replica, primary, async (on) => (asked.push(nameOf(on)), on === primary ? { from: 'primary' } : null));
    expect(row).toEqual({ from: 'primary' });
    expect(asked).toEqual(['replica', 'primary']);
  });

  it('reads once when there is no replica (reads is the primary), and answers nothing when neither has it', async () => {
    const asked: string[] = [];
    expect(await readOnReplica(primary, primary, async (on) => (asked.push(nameOf(on)), null))).toBeNull();
    expect(asked).toEqual(['primary']);
    expect(await readOnReplica(replica, primary, async () => null)).toBeNull();
  });
});
