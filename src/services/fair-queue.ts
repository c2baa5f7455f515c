/**
 * The order in which the valuation pool (valuation-pool.ts) starts queued tasks: a per-account
 * share. The next task is the oldest queued task of the account served least recently (an account
 * never served, or not since its last task finished, first; ties in the order the accounts began
 * to wait), so an account that keeps four heavy requests in flight gets one turn in every round,
 * not the whole pool ahead of another account's one request. An account is remembered while it has
 * a task queued or running, and forgotten once it has none.
 */
export class FairQueue<T> {
  /** Queued tasks of each account with at least one, in the order the accounts began to wait. */
  private readonly queued = new Map<string, T[]>();
  /** When each account with a task queued or running was last served (a count of tasks started). */
  private readonly lastServed = new Map<string, number>();
  /** Tasks started and not yet finished, by account. */
  private readonly running = new Map<string, number>();
  private started = 0;
  private count = 0;

  /** Tasks queued, not started. */
  get size(): number {
    return this.count;
  }

  push(account: string, task: T): void {
    const own = this.queued.get(account);
    if (own === undefined) this.queued.set(account, [task]);
    else own.push(task);
    this.count += 1;
  }

  /** The next task to start (module comment) and its account; it counts as running until `finished`. */
  shift(): { account: string; task: T } | undefined {
    let next: string | undefined;
    let nextServed = Infinity;
    for (const account of this.queued.keys()) {
      const served = this.lastServed.get(account) ?? -1;
      if (served < nextServed) {
        next = account;
        nextServed = served;
      }
    }
    if (next === undefined) return undefined;
    const own = this.queued.get(next) as T[];
    const task = own.shift() as T;
    if (own.length === 0) this.queued.delete(next);
    this.count -= 1;
    this.started += 1;
    this.lastServed.set(next, this.started);
    this.running.set(next, (this.running.get(next) ?? 0) + 1);
    return { account: next, task };
  }

  /** A started task of the account has finished. */
  finished(account: string): void {
    const left = (this.running.get(account) ?? 1) - 1;
    if (left > 0) {
      this.running.set(account, left);
      return;
    }
    this.running.delete(account);
    if (!this.queued.has(account)) this.lastServed.delete(account);
  }

  /** Removes and returns every queued task (the pool stopping). */
  drain(): T[] {
    const all = [...this.queued.values()].flat();
    this.queued.clear();
    this.count = 0;
    return all;
  }
}
