/**
 * The per-process memos of the services, in one object the deps own (ServiceDeps.memos), so that two
 * services in one process (tests) do not share them and a unit test starts from empty ones. What
 * each keeps, and why nothing kept is stale, is written where it is used: positioning-memo.ts (levels,
 * heat map and skew answers, and the valued books), surface-memo.ts (surfaces), volatility-drift.ts.
 */
import { ResponseMemo } from './response-memo.js';
import { SurfaceMemo } from './surface-memo.js';

/** Per process: a levels answer is a few KB, a heat map's some tens to hundreds of KB. */
export const POSITIONING_MEMO_LIMITS = { maxEntries: 256, maxBytes: 32 * 2 ** 20 };

/**
 * Valued books per process (positioning.ts positioningBook): the book of an SPX family's every
 * expiration (every listed contract of both roots) holds tens of MB of heap besides its surfaces
 * (surface-memo.ts), so only the last three are kept; they are counted, not measured.
 */
export const BOOK_MEMO_LIMITS = { maxEntries: 3 };

/** Stored books read per process (books.ts): an SPX family's book is tens of MB of heap. */
export const STORED_BOOK_LIMITS = { maxEntries: 4 };

/** Drifts of completed sessions (volatility-drift.ts), each some hundreds of KB at full scale. */
export const DRIFT_MEMO_LIMITS = { maxEntries: 64, maxBytes: 32 * 2 ** 20 };

export class ServiceMemos {
  /** Levels, heat map and skew answers as JSON text (positioning-memo.ts). */
  readonly positioning = new ResponseMemo(POSITIONING_MEMO_LIMITS);
  /**
   * Valued books (positioning-memo.ts memoizedBook, for positioning.ts). Held as objects: their type
   * is the positioning service's, which this module, below the services, does not import.
   */
  readonly books = new ResponseMemo<object>(BOOK_MEMO_LIMITS);
  /** Fitted surfaces by their whole input (chain-valuation.ts). */
  readonly surfaces = new SurfaceMemo();
  /** Stored books read, by id (books.ts storedBook): a stored book never changes. */
  readonly storedBooks = new ResponseMemo<object>(STORED_BOOK_LIMITS);
  /** Books being valued by a request, by minute (books.ts bookFor): one valuation per process and minute, nothing kept. */
  readonly ensured = new ResponseMemo<object>({ maxEntries: 0 });
  /** Background valuations of the newest minute under way in this process, by minute (books.ts). */
  readonly valuing = new Map<string, Promise<unknown>>();
  /** Volatility drift answers as JSON text (volatility-drift.ts). */
  readonly drift = new ResponseMemo(DRIFT_MEMO_LIMITS);

  /** Empties every memo (benchmarks that measure the computation itself). */
  clear(): void {
    this.positioning.clear();
    this.books.clear();
    this.storedBooks.clear();
    this.surfaces.clear();
    this.drift.clear();
  }
}
