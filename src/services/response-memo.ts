/**
 * Values kept per process by the exact identity of their inputs, least recently used dropped
 * first, with concurrent misses of one key sharing one computation (single flight): eight callers
 * asking for the same thing at once compute it once, and each later caller is served the kept
 * value. What a key must name to be exact is the caller's business (services/books.ts).
 *
 * The memo holds at most `maxEntries` entries whose sizes (`sizeOf`) add up to at most `maxBytes`, if
 * given (an entry larger than that is served but not kept). A computation that fails is not kept; the
 * callers waiting on it get its error. Kept values are shared: readers must not change them (JSON
 * text cannot be).
 */
export interface ResponseMemoLimits {
  maxEntries: number;
  /**
   * Total size of the kept values (for texts, their length in UTF-16 code units: about bytes for
   * JSON's ASCII); without it, only the entries are counted.
   */
  maxBytes?: number;
}

export class ResponseMemo<V = string> {
  private readonly kept = new Map<string, { value: V; size: number }>();
  private readonly pending = new Map<string, Promise<V>>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(
    private readonly limits: ResponseMemoLimits,
    private readonly sizeOf: (value: V) => number = (value) => (typeof value === 'string' ? value.length : 1),
  ) {
    this.maxBytes = limits.maxBytes ?? Infinity;
  }

  /** The value kept for the key, else the one a computation under way for it yields, else `compute`'s (then kept). */
  async get(key: string, compute: () => Promise<V>): Promise<V> {
    const held = this.kept.get(key);
    if (held !== undefined) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, held);
      return held.value;
    }
    const under = this.pending.get(key);
    if (under !== undefined) return await under;
    const run = (async () => {
      try {
        const value = await compute();
        this.keep(key, value);
        return value;
      } finally {
        this.pending.delete(key);
      }
    })();
    this.pending.set(key, run);
    return await run;
  }

  /** Whether a value is kept under the key, or being computed. */
  has(key: string): boolean {
    return this.kept.has(key) || this.pending.has(key);
  }

  /** Keeps `value` under the key (replacing what was kept), as a computation's result would be. */
  set(key: string, value: V): void {
    this.keep(key, value);
  }

  /** Entries kept. */
  get size(): number {
    return this.kept.size;
  }

  /** Total size of the kept values. */
  get keptBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.kept.clear();
    this.bytes = 0;
  }

  private keep(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxBytes) return;
    const before = this.kept.get(key);
    if (before !== undefined) {
      this.kept.delete(key);
      this.bytes -= before.size;
    }
    this.kept.set(key, { value, size });
    this.bytes += size;
    for (const [oldest, entry] of this.kept) {
      if (this.kept.size <= this.limits.maxEntries && this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= entry.size;
    }
  }
}

/** The query with its keys sorted, as text (arrays keep their order). */
export function canonicalQuery(q: object): string {
  return JSON.stringify(Object.fromEntries(Object.entries(q).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}
