/**
 * The book valuer: while a session runs, each family's book of the newest minute of data is valued
 * as soon as the minute is loaded (services/books.ts ensureBook), once for the deployment. Every
 * process that runs a valuer (each machine's primary) looks each second; a minute's claim in the
 * database (db/position-books.ts whileClaimed) lets one of them value it, and the requests of that
 * minute then read it. A request that arrives first answers from the previous minute meanwhile.
 * With each book it stores the answers of the valuing routes' default queries
 * (services/book-answers.ts), before the minute is mapped, so that the minute's default requests
 * read one row each instead of every HTTP worker computing them.
 *
 * With each family's regular-session book it computes the family's volatility indices (1d, 9d and
 * 30d) at the same minute and stores them (services/volatility-index-series.ts), so that the
 * indices' per-minute series is written as the session loads.
 *
 * Which families: each family of the known roots (analytics/roots.ts) with contracts listed on the
 * trading date, in each of its sessions under way by the calendar (the regular session, and the
 * overnight one for the roots that have it). A completed session is not valued here: its book is
 * valued by its first request and kept.
 */
import { rootsOf } from '../analytics/print-filters.js';
import { hasOvernightSession } from '../analytics/iv-samples.js';
import { OPTION_ROOTS } from '../analytics/roots.js';
import type { VolatilitySession } from '../analytics/volatility/valuation.js';
import { ApiError } from '../errors.js';
import type { Logger } from '../logging.js';
import type { ServiceDeps } from '../service.js';
import { defaultQuery, storeDefaultAnswers } from '../services/book-answers.js';
import { storeDrift } from '../services/volatility-drift.js';
import type { FamilyBook } from '../services/book-columns.js';
import { datesRead, ensureBook, familyOf, valuationKey } from '../services/books.js';
import { valuationAt } from '../services/chain-valuation.js';
import { storeNewestIndexMinute } from '../services/volatility-index-series.js';
import type { QueryOf, ServiceContext } from '../services/types.js';
import { serverTiming, stamp, startStamps } from '../stage-timing.js';

/**
 * How often the valuer looks for a newly loaded minute. A live minute commits in several
 * transactions (bars, quotes, prints), and a book valued between them would be valued again at the
 * prints' commit. So the valuer values only when no unit of loads is under way (the live runner
 * marks each batch of minutes as one: db/market-data-changes.ts whileLoadingUnit), and then as soon
 * as the unit it saw has ended; after a load not marked as a unit (a file ingested alone), once the
 * change log has been still for one interval.
 */
export const BOOK_VALUER_INTERVAL_MS = 250;

/**
 * Families valued at once by a pass: two, so that one family's reads from the database overlap
 * another's fitting (the valuing itself is one process's CPU).
 */
export const VALUER_CONCURRENCY = 2;

/** The families the valuer covers: every family name of the known roots. */
export const VALUED_FAMILIES: readonly string[] = [...new Set(OPTION_ROOTS.map((r) => r.family))];

const SESSIONS: readonly VolatilitySession[] = ['rth', 'gth'];

export interface BookValuerPass {
  /** Books valued by this pass (not those another process valued, nor minutes already mapped). */
  valued: number;
}

export class BookValuer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<BookValuerPass> | null = null;
  private stopped = false;
  /** The change log's position at the previous pass (-1 before the first). */
  private lastPosition = -1;
  /** The change log's position at the last pass that looked at every family (-1 before the first). */
  private passedPosition = -1;
  /** Whether a pass saw a unit of loads under way since the last pass that looked at every family. */
  private sawUnit = false;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly logger: Logger,
    private readonly intervalMs = BOOK_VALUER_INTERVAL_MS,
  ) {}

  /** Values every family's newest minute that has no book yet (one pass; a pass in progress is awaited instead). */
  async pass(): Promise<BookValuerPass> {
    this.running ??= this.valueAll().finally(() => {
      this.running = null;
    });
    return await this.running;
  }

  start(): void {
    this.stopped = false;
    const run = (): void => {
      void this.pass()
        .catch((error: unknown) =>
          this.logger.error('book valuer pass failed', { error: error instanceof Error ? error.message : String(error) }),
        )
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(run, this.intervalMs);
        });
    };
    run();
  }

  /** Stops looking; waits for the pass in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private context(now: number): ServiceContext {
    const operation = this.deps.apiContract.byId.get('getExposureLevels');
    if (operation === undefined) throw new Error('getExposureLevels is not a route of the contract');
    return { deps: this.deps, operation, account: null, requestId: 'book-valuer', now, link: { path: operation.path, search: '' } };
  }

  private async valueAll(): Promise<BookValuerPass> {
    let valued = 0;
    const store = this.deps.repositories.books;
    // The mark is read before the position: a unit's last write commits before its mark ends.
    const loading = await store.loadUnitUnderWay();
    const position = await store.changeLogPosition();
    const still = position === this.lastPosition;
    this.lastPosition = position;
    if (loading) {
      this.sawUnit = true;
      return { valued };
    }
    // Nothing loaded since the last full pass: nothing new to value.
    if (position === this.passedPosition) {
      this.sawUnit = false;
      return { valued };
    }
    // Else at once when the unit seen under way has ended, or once a load not marked as one has
    // been still for an interval.
    if (!still && !this.sawUnit) return { valued };
    this.sawUnit = false;
    const now = this.deps.clock();
    const ctx = this.context(now);
    const pending = VALUED_FAMILIES.flatMap((family) =>
      SESSIONS.filter((session) => session === 'rth' || rootsOf([family]).some(hasOvernightSession)).map((session) => ({
        family,
        session,
      })),
    );
    // VALUER_CONCURRENCY families' books at a time: one's reads overlap another's fitting. Beside
    // them, one lane stores each family's drift as soon as its book is mapped (the family's default
    // query, volatility-drift.ts storeDrift): a minute's drift extends the previous minute's stored
    // one by the new bucket, a read of about a minute of quotes, so it holds back no book for long,
    // and a request of the drift at "now" (which answers the previous minute's until the valuer
    // stores the new one) waits for its own family's book only, not for every family's. The
    // volatility indices come after both: an index minute costs 0.1-0.3 s a family, and a request
    // that finds one missing computes it once, for the minute (volatility-index-series.ts).
    const drifts: { family: string; session: VolatilitySession }[] = [];
    const indices: { family: string; tradingDate: string; instant: number }[] = [];
    let booksDone = false;
    let wake: (() => void) | null = null;
    const signal = (): void => {
      wake?.();
      wake = null;
    };
    const next = async (): Promise<void> => {
      for (let task = pending.shift(); task !== undefined && !this.stopped; task = pending.shift()) {
        const outcome = await this.valueOne(ctx, task.family, task.session);
        if (outcome === 'none') continue;
        drifts.push(task);
        signal();
        if (outcome.index !== null) indices.push(outcome.index);
        if (outcome.valued) valued += 1;
      }
    };
    const drift = this.deps.apiContract.byId.get('getVolatilityDrift');
    if (drift === undefined) throw new Error('getVolatilityDrift is not a route of the contract');
    const driftLane = async (): Promise<void> => {
      for (;;) {
        const task = drifts.shift();
        if (task === undefined) {
          if (booksDone || this.stopped) return;
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        const q = defaultQuery(ctx, 'getVolatilityDrift', task.family, task.session) as QueryOf<'getVolatilityDrift'>;
        await storeDrift({ ...ctx, operation: drift }, q);
      }
    };
    const books = async (): Promise<void> => {
      try {
        await Promise.all(Array.from({ length: VALUER_CONCURRENCY }, next));
      } finally {
        booksDone = true;
        signal();
      }
    };
    // Every lane ends before the pass goes on; a failure fails the pass (its minute is looked at again).
    const lanes = await Promise.allSettled([books(), driftLane()]);
    for (const lane of lanes) if (lane.status === 'rejected') throw lane.reason;
    // The families' volatility indices at the minute, every tenor, for their per-minute series
    // (services/volatility-index-series.ts): regular session only, as the index route values.
    // A failure there leaves the books alone: a request of the series computes a missing minute.
    for (const { family, tradingDate, instant } of indices) {
      if (this.stopped) break;
      await storeNewestIndexMinute(ctx, family, tradingDate, instant).catch((error: unknown) =>
        this.logger.error('volatility index minute failed', { family, error: error instanceof Error ? error.message : String(error) }),
      );
    }
    if (!this.stopped) this.passedPosition = position;
    return { valued };
  }

  /**
   * Values the family's newest minute of the session under way, if it has none: `valued` when this
   * process valued it (else it was valued before, or by another process), with the minute whose
   * volatility indices the valuer computes next (the regular session's); `none` when no session is
   * under way or nothing is listed.
   */
  private async valueOne(
    ctx: ServiceContext,
    family: string,
    session: VolatilitySession,
  ): Promise<'none' | { valued: boolean; index: { family: string; tradingDate: string; instant: number } | null }> {
    let window;
    try {
      window = await valuationAt(ctx, { underlying_symbol: family, session });
    } catch (error) {
      // No session of the family under way or begun (422): nothing to value.
      if (error instanceof ApiError && error.status === 422) return 'none';
      throw error;
    }
    // Only a session in progress: a completed one is valued by its first request.
    if (window.instant >= window.span.end || ctx.now >= window.span.end) return 'none';
    const listed = await this.deps.repositories.chain.listedExpirations(window.roots, window.tradingDate);
    if (listed.length === 0) return 'none';
    const books = this.deps.repositories.books;
    let mapped = false;
    if ((await books.bookOfMinute(familyOf(window, session), window.instant, datesRead(window.tradingDate, window.instant))) === null) {
      // With STAGE_TIMING, each valuation's stages are logged (ms from the stage before), as a request's go to Server-Timing.
      const stamps = this.deps.config.stageTiming ? startStamps() : undefined;
      const timed: ServiceContext = stamps === undefined ? ctx : { ...ctx, stamp: (stage) => stamp(stamps, stage) };
      await books.whileValuing(valuationKey(window, session), async () => {
        const stored = async (id: number, book: FamilyBook): Promise<void> => {
          timed.stamp?.('book-valued');
          await storeDefaultAnswers(timed, window, session, id, book);
          timed.stamp?.('book-answers');
        };
        mapped = (await ensureBook(timed, window, session, 'valuer', stored)).id !== null;
      });
      if (mapped) this.deps.metrics.bookReadyDelay.observe(Math.max(0, this.deps.clock() - window.instant) / 1000);
      if (stamps !== undefined)
        this.logger.info('book valuer stages', { family, session, instant: window.instant, mapped, stages: serverTiming(stamps) });
    }
    return { valued: mapped, index: session === 'rth' ? { family, tradingDate: window.tradingDate, instant: window.instant } : null };
  }
}
