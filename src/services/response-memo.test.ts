import { describe, expect, it } from 'vitest';
import { ResponseMemo } from './response-memo.js';

/** A computation that counts its runs and resolves when told to. */
function deferred(text: string): { compute: () => Promise<string>; runs: () => number; resolve: () => void; reject: (e: Error) => void } {
  let runs = 0;
  let settle: { resolve: (t: string) => void; reject: (e: Error) => void } | null = null;
  return {
    compute: () => {
      runs += 1;
      return new Promise<string>((resolve, reject) => {
        settle = { resolve, reject };
      });
    },
    runs: () => runs,
    resolve: () => settle?.resolve(text),
    reject: (e) => settle?.reject(e),
  };
}

describe('ResponseMemo', () => {
  it('computes a key once and serves the kept text after', async () => {
    const memo = new ResponseMemo({ maxEntries: 4, maxBytes: 1000 });
    let runs = 0;
    const compute = async (): Promise<string> => {
      runs += 1;
      return '{"a":1}';
    };
    expect(await memo.get('k', compute)).toBe('{"a":1}');
    expect(await memo.get('k', compute)).toBe('{"a":1}');
    expect(runs).toBe(1);
    expect(memo.size).toBe(1);
    expect(memo.keptBytes).toBe(7);
  });

  it('shares one computation among concurrent misses of a key (single flight), not among keys', async () => {
    const memo = new ResponseMemo({ maxEntries: 4, maxBytes: 1000 });
    const a = deferred('A');
    const waiting = Array.from({ length: 8 }, async () => await memo.get('a', a.compute));
    const b = deferred('B');
    const other = memo.get('b', b.compute);
    a.resolve();
    b.resolve();
    expect(await Promise.all(waiting)).toEqual(Array(8).fill('A'));
    expect(await other).toBe('B');
    expect(a.runs()).toBe(1);
    expect(b.runs()).toBe(1);
  });

  it('keeps no failure: every waiter gets the error, and the next call computes again', async () => {
    const memo = new ResponseMemo({ maxEntries: 4, maxBytes: 1000 });
    const failing = deferred('never');
    const first = memo.get('k', failing.compute);
    const second = memo.get('k', failing.compute);
    failing.reject(new Error('database lost'));
    await expect(first).rejects.toThrow('database lost');
    await expect(second).rejects.toThrow('database lost');
    expect(failing.runs()).toBe(1);
    expect(memo.size).toBe(0);
    expect(await memo.get('k', async () => 'ok')).toBe('ok');
  });

  it('drops the least recently used entry beyond maxEntries', async () => {
    const memo = new ResponseMemo({ maxEntries: 2, maxBytes: 1000 });
    await memo.get('a', async () => 'A');
    await memo.get('b', async () => 'B');
    await memo.get('a', async () => 'A again'); // a is now the most recent
    await memo.get('c', async () => 'C');
    expect(memo.size).toBe(2);
    expect(await memo.get('a', async () => 'A recomputed')).toBe('A');
    expect(await memo.get('b', async () => 'B recomputed')).toBe('B recomputed');
  });

  it('keeps the texts within maxBytes, oldest dropped first; a text larger than the bound is served, not kept', async () => {
    const memo = new ResponseMemo({ maxEntries: 10, maxBytes: 10 });
    await memo.get('a', async () => 'aaaa');
    await memo.get('b', async () => 'bbbb');
    await memo.get('c', async () => 'cccc');
    expect(memo.keptBytes).toBe(8);
    expect(await memo.get('a', async () => 'new a')).toBe('new a');
    expect(await memo.get('huge', async () => 'x'.repeat(11))).toBe('x'.repeat(11));
    expect(await memo.get('huge', async () => 'recomputed')).toBe('recomputed');
    expect(memo.keptBytes).toBeLessThanOrEqual(10);
  });

  it('without maxBytes counts entries only, whatever their size', async () => {
    const memo = new ResponseMemo<string>({ maxEntries: 2 });
    await memo.get('a', async () => 'x'.repeat(100_000));
    await memo.get('b', async () => 'y'.repeat(100_000));
    expect(memo.size).toBe(2);
    await memo.get('c', async () => 'C');
    expect(memo.size).toBe(2);
    expect(await memo.get('b', async () => 'B recomputed')).toBe('y'.repeat(100_000));
    expect(await memo.get('a', async () => 'A recomputed')).toBe('A recomputed');
  });
});
