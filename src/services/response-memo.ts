/**
 * Answers kept per process by the exact identity of their inputs, least recently used dropped
 * first, with concurrent misses of one key sharing one computation (single flight): eight callers
 * asking for the same thing at once compute it once, and each later caller is served the stored
 * text. What a key must name to be exact is the caller's business (services/positioning-memo.ts).
 *
 * Values are JSON text, so that no reader can change what another is served, and their size is
 * known: the memo holds at most `maxEntries` entries and `maxBytes` UTF-16 code units of text (an
 * entry larger than that is served but not kept). A computation that fails is not kept; the callers
 * waiting on it get its error.
 */
export interface ResponseMemoLimits {
  maxEntries: number;
  /** Total length of the kept texts, in UTF-16 code units (about bytes for JSON's ASCII). */
  maxBytes: number;
}

export class ResponseMemo {
  private readonly kept = new Map<string, string>();
  private readonly pending = new Map<string, Promise<string>>();
  private bytes = 0;

  constructor(private readonly limits: ResponseMemoLimits) {}

  /** The text kept for the key, else the one a computation under way for it yields, else `compute`'s (then kept). */
  async get(key: string, compute: () => Promise<string>): Promise<string> {
    const held = this.kept.get(key);
    if (held !== undefined) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, held);
      return held;
    }
    const under = this.pending.get(key);
    if (under !== undefined) return await under;
    const run = (async () => {
      try {
        const text = await compute();
        this.keep(key, text);
        return text;
      } finally {
        this.pending.delete(key);
      }
    })();
    this.pending.set(key, run);
    return await run;
  }

  /** Entries kept. */
  get size(): number {
    return this.kept.size;
  }

  /** Total length of the kept texts. */
  get keptBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.kept.clear();
    this.bytes = 0;
  }

  private keep(key: string, text: string): void {
    if (text.length > this.limits.maxBytes) return;
    const before = this.kept.get(key);
    if (before !== undefined) {
      this.kept.delete(key);
      this.bytes -= before.length;
    }
    this.kept.set(key, text);
    this.bytes += text.length;
    for (const [oldest, value] of this.kept) {
      if (this.kept.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= value.length;
    }
  }
}
