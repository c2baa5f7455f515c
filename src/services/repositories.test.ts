import { describe, expect, it } from 'vitest';
import { readOnReplica } from './repositories.js';

describe('readOnReplica (a row never changed once written: replica first, then the primary)', () => {
  it('answers from the replica without asking the primary when the replica has the row', async () => {
    const asked: string[] = [];
    const row = await readOnReplica(
      async () => (asked.push('replica'), { id: 7 }),
      async () => (asked.push('primary'), { id: 8 }),
    );
    expect(row).toEqual({ id: 7 });
    expect(asked).toEqual(['replica']);
  });

  it('asks the primary when the replica has not replayed the row', async () => {
    const asked: string[] = [];
    const row = await readOnReplica(
      async () => (asked.push('replica'), null),
      async () => (asked.push('primary'), { id: 8 }),
    );
    expect(row).toEqual({ id: 8 });
    expect(asked).toEqual(['replica', 'primary']);
  });

  it('answers nothing when neither has it', async () => {
    expect(
      await readOnReplica(
        async () => null,
        async () => null,
      ),
    ).toBeNull();
  });
});
