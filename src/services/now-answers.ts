/**
 * Answers at "now" (no `at`) of the levels, heat map, skew and drift routes, kept per process
 * between two writes that can change them, so that the requests of a minute of data answer
 * without a read of the store. The store still decides every answer: a kept answer is the one a
 * request of this process computed (from the stored book or drift), and it is dropped
 *
 * - at each notice of a write that can change an answer at "now" (db/answer-notices.ts: a market
 *   data load, a minute mapped to its book, a book's stored answers, a stored drift), which
 *   PostgreSQL sends to every process of every machine at the write's commit, and at this
 *   process's own such writes (bump), before their callers go on;
 * - when the service clock leaves the minute it was computed in, or NOW_ANSWER_TTL_MS after it was
 *   computed, or if the clock is set back: for what moves with the clock alone (the newest minute
 *   of data at or before the clock, where more is stored; a session opening or closing without a
 *   load; the grace a pending minute is left to the book valuer);
 * - while the process is not listening (not yet, or its notices connection was lost and is
 *   opened again): then nothing is kept, and every request reads the store.
 *
 * A notice arrives a few milliseconds after its commit: a request in those milliseconds answers
 * as if it had come just before the commit. Where reads go to a streaming replica, an answer
 * computed right after a notice may read the replica before it has replayed the write, and is kept
 * for at most NOW_ANSWER_TTL_MS.
 */
import type { OperationId } from '../api-contract/openapi.js';
import { listenForAnswerChanges, type AnswersListener } from '../db/answer-notices.js';
import type { Logger } from '../logging.js';
import { canonicalQuery } from './response-memo.js';
import { textResult } from './text-result.js';
import type { Result, ServiceContext } from './types.js';

/** How long an answer at "now" is kept at most, by the service clock (module comment). */
export const NOW_ANSWER_TTL_MS = 1_000;

/** Answers kept at most (each route, family, session and query asked at "now" within a second), and their JSON text's length in all. */
export const NOW_ANSWER_LIMITS = { maxEntries: 512, maxChars: 32 * 2 ** 20 };

/** An answer as kept: its data as JSON text (each request gets its own result of it: text-result.ts) and its source. */
export interface NowAnswer {
  text: string;
  source: string | undefined;
}

/** The start of the minute after the instant's (the clock's next minute of data). */
function nextMinute(instant: number): number {
  return (Math.floor(instant / 60_000) + 1) * 60_000;
}

/** Whether an answer kept or being computed stands for the generation and the clock's instant (module comment). */
function current(entry: { generation: number; from: number; until: number }, generation: number, now: number): boolean {
  return entry.generation === generation && entry.from <= now && now < entry.until;
}

/** How long after its notices connection is lost a process listens again. */
const LISTEN_AGAIN_MS = 1_000;

export class NowAnswers {
  /** Changed by each notice, own write and loss of the notices: never the same twice. */
  private changes = 0;
  /** `changes` while listening; null while not (nothing is kept then). */
  private generation: number | null = null;
  private readonly kept = new Map<string, { generation: number; from: number; until: number; value: NowAnswer }>();
  /** Answers being computed, by key: the requests of the key that miss meanwhile wait for it (one read of the store a key and generation). */
  private readonly computing = new Map<string, { generation: number; from: number; until: number; answer: Promise<NowAnswer> }>();
  private chars = 0;
  private listener: AnswersListener | null = null;
  private stopped = false;
  private again: NodeJS.Timeout | null = null;
  private counts = { hits: 0, joined: 0, misses: 0, notices: 0 };

  /**
   * Whether answers are kept (listening); the requests answered from them, those that waited for
   * another's computation of the same answer, and those that computed it; the notices received
   * (tests, metrics).
   */
  get state(): { listening: boolean; hits: number; joined: number; misses: number; notices: number } {
    return { listening: this.generation !== null, ...this.counts };
  }

  /**
   * The answer kept for the key (module comment), else the one being computed for it under the
   * same generation and clock minute, else `compute`'s, kept unless a write was noticed while it
   * was computed.
   */
  async get(key: string, now: number, compute: () => Promise<NowAnswer>): Promise<NowAnswer> {
    const generation = this.generation;
    if (generation === null) return await compute();
    const held = this.kept.get(key);
    if (held !== undefined && current(held, generation, now)) {
      this.counts.hits += 1;
      return held.value;
    }
    const under = this.computing.get(key);
    if (under !== undefined && current(under, generation, now)) {
      this.counts.joined += 1;
      return await under.answer;
    }
    this.counts.misses += 1;
    const until = Math.min(now + NOW_ANSWER_TTL_MS, nextMinute(now));
    const answer = compute();
    const entry = { generation, from: now, until, answer };
    this.computing.set(key, entry);
    let value: NowAnswer;
    try {
      value = await answer;
    } finally {
      if (this.computing.get(key) === entry) this.computing.delete(key);
    }
    if (this.generation === generation && value.text.length <= NOW_ANSWER_LIMITS.maxChars) {
      this.drop(key);
      this.kept.set(key, { generation, from: now, until, value });
      this.chars += value.text.length;
      for (const oldest of this.kept.keys()) {
        if (this.kept.size <= NOW_ANSWER_LIMITS.maxEntries && this.chars <= NOW_ANSWER_LIMITS.maxChars) break;
        this.drop(oldest);
      }
    }
    return value;
  }

  private drop(key: string): void {
    const held = this.kept.get(key);
    if (held === undefined) return;
    this.kept.delete(key);
    this.chars -= held.value.text.length;
  }

  /** A write that can change an answer at "now": what is kept goes, and what is being computed is not kept. */
  bump(): void {
    this.changes += 1;
    if (this.generation !== null) this.generation = this.changes;
    this.clear();
  }

  /** Drops what is kept (benchmarks and tests that measure the computation). */
  clear(): void {
    this.kept.clear();
    this.chars = 0;
  }

  /** Listens for the notices on a connection of its own, and again a second after it is lost, until stop. */
  listen(connectionString: string, logger: Logger): void {
    if (this.stopped || this.listener !== null || this.again !== null) return;
    const lost = (error: Error): void => {
      if (this.generation !== null)
        logger.error('answer notices lost: answers at "now" are read from the store until they are back', { error: error.message });
      this.changes += 1;
      this.generation = null;
      this.clear();
      this.listener = null;
      if (!this.stopped && this.again === null)
        this.again = setTimeout(() => {
          this.again = null;
          this.listen(connectionString, logger);
        }, LISTEN_AGAIN_MS).unref();
    };
    let opened: AnswersListener | null = null;
    listenForAnswerChanges(connectionString, {
      onListening: () => {
        this.clear();
        this.changes += 1;
        this.generation = this.changes;
      },
      onChange: () => {
        this.counts.notices += 1;
        this.bump();
      },
      onLost: (error) => {
        if (opened !== null && this.listener !== opened) return;
        lost(error);
      },
    })
      .then((listener) => {
        opened = listener;
        if (this.stopped) void listener.end().catch(() => undefined);
        else this.listener = listener;
      })
      .catch((error: unknown) => lost(error instanceof Error ? error : new Error(String(error))));
  }

  /** Stops listening; nothing is kept after. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.again !== null) clearTimeout(this.again);
    this.again = null;
    this.generation = null;
    this.clear();
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }
}

/**
 * A route's answer at "now" (no `at`): the one the process keeps for the route and query
 * (ServiceMemos.now), else `answer`'s, kept as JSON text; each request gets a result of its own.
 */
export async function nowAnswer<Op extends OperationId>(
  ctx: ServiceContext,
  operation: Op,
  q: object,
  answer: () => Promise<Result<Op>>,
): Promise<Result<Op>> {
  const kept = await ctx.deps.memos.now.get(JSON.stringify([operation, canonicalQuery(q)]), ctx.now, async () => {
    const result = await answer();
    return { text: 'dataJson' in result ? (result.dataJson as string) : JSON.stringify(result.data), source: result.source };
  });
  return textResult<Op>(kept.text, kept.source as Result<Op>['source']);
}
