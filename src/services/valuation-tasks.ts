/**
 * What a valuation thread (valuation-worker.ts, valuation-pool.ts) runs: pure computations on what
 * the event loop read, the same functions the event loop runs without threads.
 *
 * - `fit`: the surface of a book's expirations fitted and written as the book keeps it
 *   (books.ts surfaceTexts).
 * - `answer`: a levels, heat map or skew answer to a query on a stored book, as JSON text (the
 *   routes' own functions, book-answers.ts answerFunction). The thread keeps the last
 *   THREAD_BOOK_LIMIT books it was sent and its own views of them (services/memos.ts), so a book
 *   crosses to the thread once, not per request; a book it does not hold is answered `missing` and
 *   sent again with its columns.
 *
 * The functions are given a context whose deps hold only the thread's memos: any other dependency
 * (a repository read, which only an error's explanation makes) answers `onEventLoop`, and the
 * request computes the answer on the event loop instead.
 */
import type { SurfaceInput } from '../analytics/volatility/surface.js';
import { ApiError } from '../errors.js';
import { answerFunction } from './book-answers.js';
import { bookFromColumns, surfaceTexts, type FamilyBook } from './book-columns.js';
import type { AnswerReply, AnswerTask } from './books.js';
import { ServiceMemos, STORED_BOOK_LIMITS } from './memos.js';
import type { ServiceContext } from './types.js';

/**
 * Books a thread keeps: as many as a process keeps of the stored books it reads (memos.ts
 * STORED_BOOK_LIMITS), which with threads it reads only for the answers the event loop computes.
 */
export const THREAD_BOOK_LIMIT = STORED_BOOK_LIMITS.maxEntries;

/** Thrown by the thread's context when a computation reaches for a dependency it does not have. */
class NeedsEventLoop extends Error {}

/** The tasks of one thread, by name, with the state they keep (module comment). */
export function threadTasks(): Record<string, (input: unknown) => Promise<unknown>> {
  const books = new Map<number, FamilyBook>();
  const memos = new ServiceMemos();
  const deps = new Proxy(
    { memos },
    {
      get: (target, name) => {
        if (name === 'memos') return target.memos;
        throw new NeedsEventLoop(`a valuation thread has no ${String(name)}`);
      },
    },
  );
  const ctx = { deps, account: null, requestId: 'valuation-thread', now: 0 } as unknown as ServiceContext;

  function bookOf(task: AnswerTask): FamilyBook | null {
    const held = books.get(task.bookId);
    if (held !== undefined) {
      // Most recently used last.
      books.delete(task.bookId);
      books.set(task.bookId, held);
      return held;
    }
    if (task.columns === null) return null;
    const book = bookFromColumns(task.bookId, task.columns);
    books.set(task.bookId, book);
    for (const id of books.keys()) {
      if (books.size <= THREAD_BOOK_LIMIT) break;
      books.delete(id);
    }
    return book;
  }

  async function answer(task: AnswerTask): Promise<AnswerReply> {
    const book = bookOf(task);
    if (book === null) return { missing: true };
    try {
      const data = await answerFunction(task.operation)(ctx, task.query as never, {
        book,
        window: task.window,
        pendingInstant: task.pendingInstant,
      });
      return { text: JSON.stringify(data) };
    } catch (error) {
      if (error instanceof ApiError)
        return {
          apiError: {
            status: error.status,
            code: error.code,
            message: error.message,
            details: error.details,
            retryAfterMs: error.retryAfterMs,
          },
        };
      if (error instanceof NeedsEventLoop) return { onEventLoop: true };
      throw error;
    }
  }

  return {
    fit: async (input) => surfaceTexts(input as SurfaceInput),
    answer: async (input) => await answer(input as AnswerTask),
  };
}
