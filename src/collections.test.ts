import { describe, expect, it } from 'vitest';
import { groupBy } from './collections.js';

describe('groupBy', () => {
  it('keeps each group in the items order and the keys in the order first met', () => {
    const groups = groupBy(['b1', 'a1', 'b2', 'c1', 'a2'], (s) => s[0]);
    expect([...groups.entries()]).toEqual([
      ['b', ['b1', 'b2']],
      ['a', ['a1', 'a2']],
      ['c', ['c1']],
    ]);
    expect(groupBy([], (s: string) => s).size).toBe(0);
  });
});
