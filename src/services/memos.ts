/**
 * The per-process memos of the services, in one object the deps own (ServiceDeps.memos), so that two
 * services in one process (tests) do not share them and a unit test starts from empty ones.
 *
 * They are optimisations over what the store holds, never its only copy. The valued books of the
 * levels, heat map and skew routes are kept in PostgreSQL for the whole deployment (books.ts); what
 * a process keeps of them is keyed by the stored book's id, and a stored book never changes, so
 * nothing here can be stale:
 * - the stored books read (storedBooks), the last STORED_BOOK_LIMITS;
 * - the views of a book a request selects (books: its expirations and contracts valued at the
 *   book's price), the last BOOK_VIEW_LIMITS;
 * - the answers as JSON text (positioning), by book, minute and query, within POSITIONING_MEMO_LIMITS.
 * Which book answers a request with `at` is asked of the store on every request (one indexed read),
 * so a load that changes a minute's inputs is seen by the next request in every process; a request
 * at "now" is answered from `now` until a write that can change it is noticed (now-answers.ts).
 *
 * Volatility drift answers are kept apart (drift), by the market data stamp of what they read
 * (volatility-drift.ts): drift is not a view of one book but of every minute of its session. Under
 * the same keys, the book valuer stores each family's default drift for the deployment
 * (drift_answers), read before a drift is computed.
 */
import { NowAnswers } from './now-answers.js';
import { ResponseMemo } from './response-memo.js';

/** Per process: a levels answer is a few KB, a heat map's some tens to hundreds of KB. */
export const POSITIONING_MEMO_LIMITS = { maxEntries: 256, maxBytes: 32 * 2 ** 20 };

/**
 * Views of books per process (positioning.ts positioningBook): the view of an SPX family's every
 * expiration holds tens of MB of heap, so only the last few are kept; they are counted, not measured.
 */
export const BOOK_VIEW_LIMITS = { maxEntries: 3 };

/** Stored books read per process (books.ts storedBook): an SPX family's book is tens of MB of heap. */
export const STORED_BOOK_LIMITS = { maxEntries: 4 };

/** Families' listed contracts per process (books.ts listedOf): an SPX family's are some MB of heap. */
export const LISTED_MEMO_LIMITS = { maxEntries: 16 };

/** Drifts of completed sessions (volatility-drift.ts), each some hundreds of KB at full scale. */
export const DRIFT_MEMO_LIMITS = { maxEntries: 64, maxBytes: 32 * 2 ** 20 };

export class ServiceMemos {
  /** Levels, heat map and skew answers as JSON text (books.ts bookAnswer). */
  readonly positioning = new ResponseMemo(POSITIONING_MEMO_LIMITS);
  /**
   * Views of stored books (positioning.ts positioningBook). Held as objects: their type is the
   * positioning service's, which this module, below the services, does not import.
   */
  readonly books = new ResponseMemo<object>(BOOK_VIEW_LIMITS);
  /** Stored books read, by id (books.ts storedBook). */
  readonly storedBooks = new ResponseMemo<object>(STORED_BOOK_LIMITS);
  /** Books being valued by a request, by minute (books.ts bookFor): one valuation per process and minute, nothing kept. */
  readonly ensured = new ResponseMemo<object>({ maxEntries: 0 });
  /** Background valuations of the newest minute under way in this process, by minute (books.ts). */
  readonly valuing = new Map<string, Promise<unknown>>();
  /**
   * Books a request of this process valued and answered from, by minute, while they are stored
   * (books.ts storeAfterAnswer): the process's next requests of the minute answer from them until
   * the minute is mapped, unless a change since can have changed them.
   */
  readonly storing = new Map<string, object>();
  /**
   * A family's listed expirations and contracts with their open interest by trading date, with the
   * change log's position read before them (books.ts listedOf): used again while no write after it
   * can have changed them (contracts and open interest are logged without `earliest`).
   */
  readonly listed = new ResponseMemo<object>(LISTED_MEMO_LIMITS);
  /** Volatility drift answers as JSON text (volatility-drift.ts). */
  readonly drift = new ResponseMemo(DRIFT_MEMO_LIMITS);
  /**
   * The answers at "now" of the levels, heat map, skew and drift routes, until a write that can
   * change them is noticed (now-answers.ts): kept only while the process listens for the notices.
   */
  readonly now = new NowAnswers();

  /** Empties every memo (benchmarks that measure the computation itself). */
  clear(): void {
    this.positioning.clear();
    this.books.clear();
    this.storedBooks.clear();
    this.listed.clear();
    this.drift.clear();
    this.now.clear();
  }
}
