/**
 * Valued books: what the levels, heat map and skew routes answer from. A book is one underlying's
 * family (every listed expiration of its roots in the session) valued at one minute of data:
 *
 * - its chain at the minute (chain-valuation.ts chainAt: one chain minute for the whole family) and
 *   the surface fitted over every expiration settling after the minute (one forward and one smile
 *   per expiration, the calendar checks across all of them);
 * - the underlying's price and the rate at the chain minute's end (the valuation time);
 * - every listed contract with its open interest, its customer flow up to the valuation time (the
 *   flow_adjusted model's input, from the family's open interest date) and its activity in the
 *   session (the heat map's observed metrics).
 *
 * A route's answer is a view of the book: the expirations and contracts its query selects, their
 * greeks at the book's price (arithmetic, contracts.ts), the measures of the selected smiles.
 *
 * Books are kept in PostgreSQL (db/position-books.ts), one per distinct set of inputs: each minute of
 * data maps to the book valued on its inputs, so that minutes on the same chain minute, price, flow
 * and activity share one. Every process and machine reads the same books. Who values:
 * - while a session runs, the book valuer (jobs/book-valuer.ts), one process for the deployment,
 *   values each family's newest minute as soon as it is loaded;
 * - a request for a minute without a book (a completed session, `at`, a family the valuer does not
 *   cover) values it on demand, answers from it, and stores it after the answer (storeAfterAnswer);
 * - a request for the newest minute of a running session whose book is not stored yet answers from
 *   the family's previous minute, says so (valuation.pending_instant), and starts its valuation in
 *   the background unless another process of the deployment values it (an advisory lock).
 *
 * Nothing stale is served: a minute's mapping holds while no write committed after it changed a date
 * the book reads at or before the minute's end (the market data change log's `earliest`), so loading
 * later minutes keeps the earlier minutes' books, and any other change values them again.
 */
import { bookFromColumns, type BookColumns, type BookSummary, type FamilyBook } from './book-columns.js';
import { fitSurfaces, inThreads, readChain, readInputs, readRest } from './book-valuation.js';
import type { VolatilitySession } from '../analytics/volatility/valuation.js';
import type { BookFamily, BookToStore, StoredBook } from '../db/position-books.js';
import { UNDERLYING_LOOKBACK_MS, valuationAt, type InstantQuery, type ValuationWindow } from './chain-valuation.js';
import { addDays } from '../analytics/new-york-time.js';
import { utcDate } from '../db/market-data-changes.js';
import { OPEN_INTEREST_LOOKBACK_DAYS } from '../db/positioning.js';
import { canonicalQuery } from './response-memo.js';
import { nowAnswer } from './now-answers.js';
import { textResult } from './text-result.js';
import type { DataOf, Result, ServiceContext } from './types.js';
import type { OperationId } from '../api-contract/openapi.js';
import { ApiError, type ErrorCode, type ErrorDetail } from '../errors.js';

/**
 * The dates a book of the trading date valued at the instant reads: open interest up to
 * OPEN_INTEREST_LOOKBACK_DAYS before the trading date, prints from there on (flow_adjusted), the
 * date's quotes and prints, and the underlying's bars from UNDERLYING_LOOKBACK_MS before the instant
 * (bars are dated by the UTC date of their start). A change of one of them (or of the listed
 * contracts, which every date reads) can change the book.
 */
export function datesRead(tradingDate: string, instant: number): { from: string; to: string } {
  const openInterestFrom = addDays(tradingDate, -OPEN_INTEREST_LOOKBACK_DAYS);
  const barsFrom = utcDate(instant - UNDERLYING_LOOKBACK_MS);
  const barsTo = utcDate(instant);
  return { from: openInterestFrom < barsFrom ? openInterestFrom : barsFrom, to: barsTo > tradingDate ? barsTo : tradingDate };
}

/** The key of a family's minute: its claim while valued (whileValuing) and its single flight in a process. */
export function valuationKey(window: ValuationWindow, session: VolatilitySession): string {
  return JSON.stringify([window.symbol, session, window.tradingDate, window.instant]);
}

/** The family of a window. */
export function familyOf(window: ValuationWindow, session: VolatilitySession): BookFamily {
  return { symbol: window.symbol, session, tradingDate: window.tradingDate };
}

/**
 * A family's book at the window's instant valued afresh from the store and not kept: the reference
 * the stored books are tested against, the same code with the store left out.
 */
export async function freshBook(ctx: ServiceContext, window: ValuationWindow, session: VolatilitySession): Promise<FamilyBook> {
  const inputs = await readInputs(ctx, window, session);
  await fitSurfaces(ctx, inputs, window.instant);
  return bookFromColumns(null, inputs.columns);
}

/**
 * The book of the window's minute: the one mapped to it if still valid, else valued (or found among
 * the stored books by its inputs' digest) and mapped; `beforeMapping` runs on the book before the
 * minute is mapped (the valuer stores its default answers there, book-answers.ts). A request's own
 * valuation is returned at once under a reserved id, and stored and mapped after (storeAfterAnswer). A family without a listed contract or a chain
 * is valued and not stored (there is nothing costly to keep, and a request naming an unknown symbol
 * leaves nothing behind).
 */
export async function ensureBook(
  ctx: ServiceContext,
  window: ValuationWindow,
  session: VolatilitySession,
  by: 'valuer' | 'request' | 'background' = 'request',
  beforeMapping?: (id: number, book: FamilyBook) => Promise<void>,
): Promise<{ id: number | null; book?: FamilyBook; columns?: BookColumns }> {
  const store = ctx.deps.repositories.books;
  const family = familyOf(window, session);
  const dates = datesRead(window.tradingDate, window.instant);
  // The log's position before anything is read: a change committed after it is checked against the mapping.
  const position = await store.changeLogPosition();
  const mapped = await store.bookOfMinute(family, window.instant, dates);
  ctx.stamp?.('book-mapped');
  if (mapped !== null) return { id: mapped.bookId };
  const started = performance.now();
  const chain = await readChain(ctx, window);
  // The minutes after a chain snapshot share its book (the chain is the snapshot's, the valuation
  // time its minute's end): a book stored on this chain at this valuation time that no change since
  // has made stale was read from this minute's inputs, so the minute maps to it without the rest of
  // them being read (the prints, the costliest read; db/position-books.ts bookOfChain).
  let id = chain.chainRows.length === 0 ? null : await store.bookOfChain(family, chain.valuedAt, chain.chainDigest, dates);
  ctx.stamp?.('book-of-chain');
  let book: FamilyBook | undefined;
  if (id === null) {
    const inputs = await readRest(ctx, window, session, chain);
    if (inputs.columns.expirations.every((e) => e.chain.contractIds.length === 0)) {
      await fitSurfaces(ctx, inputs, window.instant);
      return { id: null, book: bookFromColumns(null, inputs.columns) };
    }
    id = await store.bookOfDigest(family, inputs.digest);
    ctx.stamp?.('book-digest');
    if (id === null) {
      await fitSurfaces(ctx, inputs, window.instant);
      const stored = {
        valuedAt: inputs.columns.summary.valuedAt,
        digest: inputs.digest,
        chainDigest: inputs.chainDigest,
        summary: inputs.columns.summary,
        expirations: inputs.columns.expirations,
      };
      // A request answers from the book it valued at once, under an id reserved for it, and stores the
      // book and maps the minute after (storeAfterAnswer). With valuation threads its answer is
      // computed there: the columns go to the thread, which reads them into the book.
      if (by === 'request' && beforeMapping === undefined) {
        const reserved = await store.reserveBookId();
        const valued: ValuedBook & { id: number } =
          (ctx.deps.valuation ?? null) !== null
            ? { id: reserved, columns: inputs.columns }
            : { id: reserved, book: bookFromColumns(reserved, inputs.columns) };
        // Observed once valued: the store follows the answer.
        ctx.deps.metrics.bookValuation.observe({ by }, (performance.now() - started) / 1000);
        storeAfterAnswer(ctx, { family, window, session, position }, stored, valued);
        return valued;
      }
      id = await store.storeBook(family, stored);
      ctx.stamp?.('book-store');
      ctx.deps.metrics.bookValuation.observe({ by }, (performance.now() - started) / 1000);
      // The valuer stores answers of the book it valued; a background valuation only stores it.
      if (beforeMapping !== undefined) book = bookFromColumns(id, inputs.columns);
    }
  }
  if (beforeMapping !== undefined) {
    const valued = book ?? (await storedBook(ctx, id));
    if (valued !== null) await beforeMapping(id, valued);
  }
  await store.mapBookMinute(family, window.instant, id, position);
  ctx.deps.memos.now.bump();
  return book === undefined ? { id } : { id, book };
}

/** A book a request valued and answers from while it is stored (storeAfterAnswer), with the change log's position read before its inputs. */
interface PendingStore {
  position: number;
  valued: ValuedBook;
}

/**
 * Stores a book a request valued, and maps its minute, after the request has its answer: the
 * store (tens of MB of columns and surfaces for an SPX family at full scale, about a third of a
 * cold book's time) is not on the request's path. Until the minute is mapped, the process's
 * requests of the minute answer from the same valued book (valuedNow), while no change logged
 * since its inputs were read can have changed it; another process finds no mapping yet and values
 * the minute itself, and the store keeps one book of those inputs (by their digest). A failed store
 * is logged and leaves the minute unmapped: its next request values it again.
 */
function storeAfterAnswer(
  ctx: ServiceContext,
  at: { family: BookFamily; window: ValuationWindow; session: VolatilitySession; position: number },
  book: BookToStore,
  valued: ValuedBook & { id: number },
): void {
  const key = valuationKey(at.window, at.session);
  const pending = ctx.deps.memos.storing;
  const store = ctx.deps.repositories.books;
  const entry: PendingStore = { position: at.position, valued };
  pending.set(key, entry);
  void (async () => {
    const id = await store.storeBook(at.family, book, valued.id);
    await store.mapBookMinute(at.family, at.window.instant, id, at.position);
    ctx.deps.memos.now.bump();
  })()
    .catch((error: unknown) =>
      ctx.deps.logger.error('book store failed', { key, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => {
      if (pending.get(key) === entry) pending.delete(key);
    });
}

/** A stored book, read once per process (kept by id: a stored book never changes). */
export async function storedBook(ctx: ServiceContext, id: number): Promise<FamilyBook | null> {
  const kept = (await ctx.deps.memos.storedBooks.get(String(id), async () => {
    const stored: StoredBook | null = await ctx.deps.repositories.books.readBook(id);
    return stored === null
      ? { gone: true }
      : bookFromColumns(id, { summary: stored.summary as BookSummary, expirations: stored.expirations });
  })) as FamilyBook | { gone: true };
  return 'gone' in kept ? null : kept;
}

/**
 * How far back the previous minute's book may be for a request of the newest minute to answer from
 * it while the newest is valued: the minute before, with a minute's slack for the valuation of the
 * one before that still finishing. An older book (the valuer stopped, or none ran) is not served:
 * the newest minute is valued on demand instead.
 */
export const PREVIOUS_MINUTE_REACH_MS = 2 * 60_000;

/**
 * How long after a minute ends a request answering from the previous minute leaves its valuation to
 * the book valuer before starting it in the background itself: the valuer claims a minute as soon
 * as its load has committed (a second or two after its end), values it once for the deployment and
 * stores its default answers with it; a request that claimed it first would value it in an HTTP
 * worker, beside the requests it serves. Past the grace (no valuer running, or one far behind) a
 * request starts it, unless claimed.
 */
export const BACKGROUND_VALUATION_GRACE_MS = 15_000;

/** A request's book: the window it values (its instant the book's minute) and, when it answers from the previous minute, the newest one's end. */
export interface BookAnswer {
  book: FamilyBook;
  window: ValuationWindow;
  /** The newest minute of data (its end) whose book is still being valued; null when the book is the newest minute's. */
  pendingInstant: number | null;
}

/** Values the newest minute in the background unless a process of the deployment is valuing it (one per process and key). */
function valueInBackground(ctx: ServiceContext, window: ValuationWindow, session: VolatilitySession): void {
  const key = valuationKey(window, session);
  const pending = ctx.deps.memos.valuing;
  if (pending.has(key)) return;
  const run = ctx.deps.repositories.books
    .whileValuing(key, async () => {
      await ensureBook(ctx, window, session, 'background');
    })
    .catch((error: unknown) =>
      ctx.deps.logger.error('book valuation failed', { key, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => pending.delete(key));
  pending.set(key, run);
}

/** Where a request's answer comes from before anything of the book is read (locateBook). */
interface LocatedBook {
  /** The request's window (its instant the newest minute of data ended by the requested instant). */
  requested: ValuationWindow;
  /** The stored book that answers, null when none is stored for the minute yet (it is valued now). */
  id: number | null;
  /** The window of the answer: the requested one, or the previous minute's while the newest is valued. */
  window: ValuationWindow;
  pendingInstant: number | null;
}

/** The stored book of the request's minute, else, for the newest minute of a running session, the previous minute's (module comment). */
async function locateBook(ctx: ServiceContext, q: InstantQuery, session: VolatilitySession): Promise<LocatedBook> {
  const window = await valuationAt(ctx, q);
  const store = ctx.deps.repositories.books;
  const family = familyOf(window, session);
  const dates = datesRead(window.tradingDate, window.instant);
  const mapped = await store.bookOfMinute(family, window.instant, dates);
  if (mapped !== null) return { requested: window, id: mapped.bookId, window, pendingInstant: null };
  const live = q.at === undefined && window.instant < window.span.end;
  if (live) {
    const found = await store.newestBookBefore(family, window.instant, dates);
    if (found !== null && found.instant >= window.instant - PREVIOUS_MINUTE_REACH_MS) {
      if (ctx.now - window.instant >= BACKGROUND_VALUATION_GRACE_MS) valueInBackground(ctx, window, session);
      return { requested: window, id: found.bookId, window: { ...window, instant: found.instant }, pendingInstant: window.instant };
    }
  }
  return { requested: window, id: null, window, pendingInstant: null };
}

/** A book a request valued: read into its maps, or, for the valuation threads to read, its columns as stored (ensureBook). */
type ValuedBook = { id: number | null; book: FamilyBook } | { id: number; columns: BookColumns };

/** The book of a minute valued by this request (or by another of this process for the same minute), stored unless there is nothing to value. */
async function valuedNow(ctx: ServiceContext, window: ValuationWindow, session: VolatilitySession): Promise<ValuedBook> {
  const key = valuationKey(window, session);
  // Valued by this process and still being stored (storeAfterAnswer): the same book, unless a change since can have changed it.
  const pending = ctx.deps.memos.storing.get(key) as PendingStore | undefined;
  if (
    pending !== undefined &&
    (await ctx.deps.repositories.books.minuteUnchangedSince(
      pending.position,
      window.instant,
      datesRead(window.tradingDate, window.instant),
    ))
  )
    return pending.valued;
  const ensured = (await ctx.deps.memos.ensured.get(key, async () => {
    const result = await ensureBook(ctx, window, session);
    if (result.book !== undefined) return { id: result.id, book: result.book };
    if (result.columns !== undefined && result.id !== null) return { id: result.id, columns: result.columns };
    const stored = result.id === null ? null : await storedBook(ctx, result.id);
    return stored === null ? { gone: true } : { id: result.id, book: stored };
  })) as ValuedBook | { gone: true };
  if ('gone' in ensured) throw new Error('The valued book was removed while it was read.');
  return ensured;
}

/** The book of a ValuedBook, read from its columns here when the threads were to read it. */
function bookOfValued(valued: ValuedBook): FamilyBook {
  return 'book' in valued ? valued.book : bookFromColumns(valued.id, valued.columns);
}

/**
 * The book a valuing request answers from (module comment): its minute's, else, for the newest minute
 * of a running session, the previous minute's while the newest is valued, else valued now.
 */
export async function bookFor(ctx: ServiceContext, q: InstantQuery, session: VolatilitySession): Promise<BookAnswer> {
  const located = await locateBook(ctx, q, session);
  if (located.id !== null) {
    const book = await storedBook(ctx, located.id);
    if (book !== null) return { book, window: located.window, pendingInstant: located.pendingInstant };
  }
  return { book: bookOfValued(await valuedNow(ctx, located.requested, session)), window: located.requested, pendingInstant: null };
}

/** A stored answer of the previous minute served while the newest is valued: its valuation names the newest minute. */
function withPendingInstant(body: string, pendingInstant: number): string {
  const data = JSON.parse(body) as { valuation?: { pending_instant?: number | null } };
  if (data.valuation !== undefined) data.valuation.pending_instant = pendingInstant;
  return JSON.stringify(data);
}

/** Thrown inside a memo's computation when the located book was removed meanwhile (its session archived): the request values afresh. */
class BookGone extends Error {}

/** The routes whose answers the valuation threads compute (valuation-tasks.ts). */
export const THREAD_ANSWERED = ['getExposureLevels', 'getExposureHeatmap', 'getVolatilitySkew'] as const;
export type ThreadAnswered = (typeof THREAD_ANSWERED)[number];

/** The input of a valuation thread's `answer` task: a route's answer to a query on a stored book. */
export interface AnswerTask {
  operation: ThreadAnswered;
  query: unknown;
  bookId: number;
  /** The book's columns as stored; null while the thread may still hold the book (it answers `missing` if it does not). */
  columns: BookColumns | null;
  window: ValuationWindow;
  pendingInstant: number | null;
}

/**
 * A thread's reply to an `answer` task: the answer's JSON text; `missing`, the book is not held
 * (send its columns); the route's ApiError (422: nothing selected); or `onEventLoop` when the
 * answer needs a read (explaining missing data of an archived session), which only the event loop
 * does.
 */
export type AnswerReply =
  | { text: string }
  | { missing: true }
  | { apiError: { status: number; code: ErrorCode; message: string; details: ErrorDetail[]; retryAfterMs: number | null } }
  | { onEventLoop: true };

/**
 * A route's answer on a stored book computed in the process's valuation threads (valuation-pool.ts)
 * on the request account's turn, the book's columns sent when the thread does not hold it (read
 * again from the store, unless `columns` are given: a book this request just valued); null
 * when it is computed here instead: no threads, a route they do not answer, a book removed
 * meanwhile, or an answer that needs a read.
 */
async function threadAnswer(
  ctx: ServiceContext,
  operation: OperationId,
  q: InstantQuery,
  at: { id: number; window: ValuationWindow; pendingInstant: number | null },
  columns: BookColumns | null,
): Promise<string | null> {
  if (!(THREAD_ANSWERED as readonly string[]).includes(operation)) return null;
  const task: AnswerTask = {
    operation: operation as ThreadAnswered,
    query: q,
    bookId: at.id,
    columns,
    window: at.window,
    pendingInstant: at.pendingInstant,
  };
  let reply = (await inThreads(ctx, 'answer', task)) as AnswerReply | undefined;
  if (reply === undefined) return null;
  if ('missing' in reply) {
    const stored = await ctx.deps.repositories.books.readBook(at.id);
    if (stored === null) return null;
    const columns: BookColumns = { summary: stored.summary as BookSummary, expirations: stored.expirations };
    reply = (await inThreads(ctx, 'answer', { ...task, columns })) as AnswerReply | undefined;
    if (reply === undefined) return null;
  }
  if ('text' in reply) return reply.text;
  if ('apiError' in reply) {
    const e = reply.apiError;
    throw new ApiError(e.status, e.code, e.message, e.details, e.retryAfterMs);
  }
  return null;
}

/**
 * The JSON text of a route's answer on a stored book: in the valuation threads (threadAnswer), else
 * `compute` here on the book (`valued`, the one this request just valued, or the stored one read;
 * the columns of a book just valued go to the thread with the task).
 * The threads run the same functions, so the text is the same.
 */
async function answerText<Op extends OperationId>(
  ctx: ServiceContext,
  operation: Op,
  q: InstantQuery,
  at: { id: number; window: ValuationWindow; pendingInstant: number | null },
  compute: (at: BookAnswer) => Promise<DataOf<Op>>,
  valued: ValuedBook | null = null,
): Promise<string> {
  const text = await threadAnswer(ctx, operation, q, at, valued !== null && 'columns' in valued ? valued.columns : null);
  if (text !== null) return text;
  const book = valued !== null ? bookOfValued(valued) : await storedBook(ctx, at.id);
  if (book === null) throw new BookGone();
  return JSON.stringify(await compute({ book, window: at.window, pendingInstant: at.pendingInstant }));
}

/**
 * A valuing route's answer: `compute`'s view of the request's book, kept per process as JSON text by
 * the book, the minute, whether it is a previous minute's answer, and the query (`at` read through
 * the minute): a stored book never changes, so a kept view of it is never stale. For a stored book,
 * the answer the valuer stored with it (the route's default query, migration 20261128T070000) is
 * read instead of the book when there is one; otherwise the view is computed (answerText: in the
 * process's valuation threads when it has them). A book not stored (nothing to value) is not kept
 * either.
 */
export async function bookAnswer<Op extends OperationId>(
  ctx: ServiceContext,
  operation: Op,
  q: InstantQuery,
  compute: (at: BookAnswer) => Promise<DataOf<Op>>,
  source: Result<Op>['source'] = 'derived',
): Promise<Result<Op>> {
  // At "now", the process's answer until a write that can change it (now-answers.ts).
  if (q.at === undefined) return await nowAnswer(ctx, operation, q, async () => await storedBookAnswer(ctx, operation, q, compute, source));
  return await storedBookAnswer(ctx, operation, q, compute, source);
}

/** bookAnswer's answer read from, or computed on, the stored book of the query's minute. */
async function storedBookAnswer<Op extends OperationId>(
  ctx: ServiceContext,
  operation: Op,
  q: InstantQuery,
  compute: (at: BookAnswer) => Promise<DataOf<Op>>,
  source: Result<Op>['source'],
): Promise<Result<Op>> {
  const session = q.session ?? 'rth';
  const located = await locateBook(ctx, q, session);
  ctx.stamp?.('book-locate');
  const queryKey = answerQueryKey(q);
  const { id, window, pendingInstant } = located;
  if (id !== null) {
    const key = JSON.stringify([operation, id, window.instant, pendingInstant, queryKey]);
    try {
      const text = await ctx.deps.memos.positioning.get(key, async () => {
        const stored = await ctx.deps.repositories.books.readBookAnswer(id, window.instant, operation, queryKey);
        if (stored !== null) return pendingInstant === null ? stored : withPendingInstant(stored, pendingInstant);
        return await answerText(ctx, operation, q, { id, window, pendingInstant }, compute);
      });
      return textResult<Op>(text, source);
    } catch (error) {
      if (!(error instanceof BookGone)) throw error;
    }
  }
  const valued = await valuedNow(ctx, located.requested, session);
  const valuedWindow = located.requested;
  if (valued.id === null)
    return { data: await compute({ book: bookOfValued(valued), window: valuedWindow, pendingInstant: null }), source };
  const valuedId = valued.id;
  const key = JSON.stringify([operation, valuedId, valuedWindow.instant, null, queryKey]);
  const text = await ctx.deps.memos.positioning.get(
    key,
    async () => await answerText(ctx, operation, q, { id: valuedId, window: valuedWindow, pendingInstant: null }, compute, valued),
  );
  return textResult<Op>(text, source);
}

/** The canonical key of a route's query as a book's answer is stored under (`at` read through the minute). */
export function answerQueryKey(q: InstantQuery): string {
  return canonicalQuery({ ...q, at: undefined });
}
