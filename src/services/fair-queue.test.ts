import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue.js';

/** Starts and finishes tasks one at a time (a pool of one thread), returning the order they ran in. */
function runOneAtATime(queue: FairQueue<string>): string[] {
  const order: string[] = [];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    order.push(next.task);
    queue.finished(next.account);
  }
  return order;
}

describe('FairQueue: the valuation pool deals queued tasks round-robin across accounts', () => {
  it("starts another account's one request next, however many the first keeps queued", () => {
    const queue = new FairQueue<string>();
    // A's first request starts at once (the thread was idle), its other three queue behind it.
    queue.push('A', 'A1');
    const first = queue.shift();
    expect(first?.task).toBe('A1');
    queue.push('A', 'A2');
    queue.push('A', 'A3');
    queue.push('A', 'A4');
    // B's one request arrives while A1 runs, behind A's three.
    queue.push('B', 'B1');
    queue.finished('A');
    expect(runOneAtATime(queue)).toEqual(['B1', 'A2', 'A3', 'A4']);
  });

  it('takes one task of each waiting account per round, in the order the accounts began to wait', () => {
    const queue = new FairQueue<string>();
    for (const task of ['A1', 'A2', 'A3', 'B1', 'B2', 'B3', 'C1']) queue.push(task[0] as string, task);
    expect(queue.size).toBe(7);
    expect(runOneAtATime(queue)).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'A3', 'B3']);
    expect(queue.size).toBe(0);
  });

  it('with two threads, an account with tasks running does not take the free thread ahead of one without', () => {
    const queue = new FairQueue<string>();
    for (const task of ['A1', 'A2', 'A3', 'A4']) queue.push('A', task);
    expect(queue.shift()?.task).toBe('A1');
    expect(queue.shift()?.task).toBe('A2');
    queue.push('B', 'B1');
    queue.finished('A');
    expect(queue.shift()?.task).toBe('B1');
    queue.finished('A');
    expect(queue.shift()?.task).toBe('A3');
  });

  it('forgets an account with nothing queued or running: its next task waits like a new one', () => {
    const queue = new FairQueue<string>();
    queue.push('A', 'A1');
    queue.shift();
    queue.finished('A');
    queue.push('B', 'B1');
    queue.push('A', 'A2');
    expect(runOneAtATime(queue)).toEqual(['B1', 'A2']);
  });

  it('drain empties the queue and returns what was waiting', () => {
    const queue = new FairQueue<string>();
    queue.push('A', 'A1');
    queue.push('B', 'B1');
    expect(queue.drain().sort()).toEqual(['A1', 'B1']);
    expect(queue.shift()).toBeUndefined();
  });
});
