/**
 * The per-minute series of the volatility indices computed here (GET /v1/indices/volatility/bars):
 * each family's (or root's) index at each minute of data of its regular session, for the tenors 1d,
 * 9d and 30d, kept in PostgreSQL (db/volatility-index-series.ts, migration 20261128T185000) with a
 * summary of its inputs. A minute's value is the route's own answer at that minute
 * (index-volatility.ts indexInputs and indexAtTenor on the window of `at` = the minute's end), so a
 * stored minute equals `GET /v1/indices/volatility?at=<its end>`.
 *
 * Who computes a minute:
 * - while a session runs, the book valuer (jobs/book-valuer.ts), beside each family's book, computes
 *   the newest minute of data of every family it values (the whole family, every tenor) as it loads;
 * - a bars request computes, and stores, every minute of its range that has no stored value still
 *   valid (a completed session's minutes the first time the day is asked for, a root's series, minutes
 *   loaded while no valuer ran), so a finished day's series is complete once asked for: up to
 *   INLINE_MINUTES of a date itself, more in the background while it answers 503 data_pending.
 *
 * Nothing stale is served: a stored minute holds while no write committed after the change log's
 * position it was computed at concerns its trading date (or every date) with an `earliest` before
 * the minute's end, the rule of the valued books (books.ts); otherwise the request computes it again.
 */
import { seriesBars, seriesWindows, seriesWindowsAfter, type SeriesMinute } from '../analytics/volatility/index-series.js';
import { currentOrLastSessionDate } from '../analytics/calendar.js';
import { rootsOf } from '../analytics/print-filters.js';
import { volatilitySession } from '../analytics/volatility/valuation.js';
import type { IndexTenorName } from '../analytics/volatility/index-expirations.js';
import type { IndexMinuteRow, IndexSeriesKey } from '../db/volatility-index-series.js';
import { ApiError, invalidParameters, noData } from '../errors.js';
import { valuationAt } from './chain-valuation.js';
import { indexAtTenor, indexInputs } from './index-volatility.js';
import { openPaging, takePage } from './paging.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type SeriesBar = DataOf<'listIndexVolatilityBars'>[number];
type MinuteInputs = SeriesBar['close_inputs'];

/** The tenors kept per minute: every tenor of the route. */
export const SERIES_TENORS: readonly IndexTenorName[] = ['1d', '9d', '30d'];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The longest range of a request, in days of 24 hours: the hot sessions (the current one and the five before). */
export const SERIES_RANGE_DAYS = 7;

const PUBLISHED: Record<IndexTenorName, string> = { '30d': 'VIX', '9d': 'VIX9D', '1d': 'VIX1D' };

/** The series of a family (root null) or of one of its roots on a trading date. */
function seriesKey(symbol: string, root: string | null, tradingDate: string): IndexSeriesKey {
  return { symbol, root: root ?? '', tradingDate };
}

/**
 * Computes the index at the minute of data ending at `instant` for every tenor (the route's answer
 * at `at` = instant), as rows to store; a minute the method refuses (or with no chain) has a row with
 * a null value saying why.
 */
export async function computeIndexMinute(
  ctx: ServiceContext,
  symbol: string,
  root: string | null,
  tradingDate: string,
  instant: number,
): Promise<IndexMinuteRow[]> {
  let inputs;
  try {
    const window = await valuationAt(ctx, { underlying_symbol: symbol, date: tradingDate, at: instant, session: 'rth' });
    if (window.instant !== instant) return refusedAll(instant, `No minute of data ends at ${new Date(instant).toISOString()}.`, null);
    inputs = await indexInputs(ctx, window, root ?? undefined);
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) return refusedAll(instant, error.message, null);
    throw error;
  }
  return SERIES_TENORS.map((tenor): IndexMinuteRow => {
    const index = indexAtTenor(inputs, tenor, false);
    if ('refused' in index) return refused(tenor, instant, index.refused, inputs.valuedAt);
    const term = (t: typeof index.near_term): MinuteInputs['near_term'] =>
      t === null
        ? null
        : {
            root: t.root,
            date_of_expiry: t.date_of_expiry,
            minutes: t.minutes,
            years: t.years,
            forward: t.forward,
            k0: t.k0,
            strikes_used: t.strikes.length,
          };
    const summary: MinuteInputs = {
      valuation_timestamp: index.valuation.timestamp,
      chain_timestamp: index.valuation.chain_timestamp,
      risk_free_rate: index.valuation.risk_free_rate,
      method: index.method,
      near_term: term(index.near_term),
      next_term: term(index.next_term),
      refusal: null,
    };
    return { tenor, instant, value: index.value, variance: index.variance, inputs: JSON.stringify(summary) };
  });
}

function refused(tenor: string, instant: number, why: string, valuedAt: number | null): IndexMinuteRow {
  const summary: MinuteInputs = {
    valuation_timestamp: valuedAt ?? instant,
    chain_timestamp: null,
    risk_free_rate: null,
    method: null,
    near_term: null,
    next_term: null,
    refusal: why,
  };
  return { tenor, instant, value: null, variance: null, inputs: JSON.stringify(summary) };
}

function refusedAll(instant: number, why: string, valuedAt: number | null): IndexMinuteRow[] {
  return SERIES_TENORS.map((tenor) => refused(tenor, instant, why, valuedAt));
}

/** Computes and stores the minutes ending at `instants` (the change log's position read first: a later change makes them stale). */
export async function storeIndexMinutes(
  ctx: ServiceContext,
  symbol: string,
  root: string | null,
  tradingDate: string,
  instants: readonly number[],
): Promise<IndexMinuteRow[]> {
  const repo = ctx.deps.repositories.volatilityIndex;
  const position = await repo.changeLogPosition();
  const rows: IndexMinuteRow[] = [];
  for (const instant of instants) rows.push(...(await computeIndexMinute(ctx, symbol, root, tradingDate, instant)));
  await repo.storeIndexMinutes(seriesKey(symbol, root, tradingDate), position, rows);
  return rows;
}

/**
 * The book valuer's part (jobs/book-valuer.ts): the family's newest minute of data (ending at the
 * instant) computed and stored for every tenor, unless it is stored and still valid; whether it was
 * computed here.
 */
export async function storeNewestIndexMinute(ctx: ServiceContext, symbol: string, tradingDate: string, instant: number): Promise<boolean> {
  const stored = await ctx.deps.repositories.volatilityIndex.indexMinutes(seriesKey(symbol, null, tradingDate), '30d', instant, instant);
  if (stored.length > 0) return false;
  await storeIndexMinutes(ctx, symbol, null, tradingDate, [instant]);
  return true;
}

/**
 * Minutes of one trading date a request computes itself before answering; a date missing more
 * (a completed session never asked for, minutes loaded while no valuer ran) is filled in the
 * background, the request answering 503 data_pending meanwhile: a minute costs a chain read and the
 * method (some 0.1 s for SPY, 0.3 s for SPX on the 2-core test machine), a whole session minutes.
 */
export const INLINE_MINUTES = 30;

/** Minutes a background fill computes between two writes, so that its progress is kept as it goes. */
export const FILL_CHUNK_MINUTES = 15;

/** How long a client is told to wait before asking again while a date is filled. */
const FILL_RETRY_MS = 5_000;

/**
 * Computes and stores the minutes ending at the instants in the background, in chunks, once per
 * process (and once for the deployment while its claim holds: books' whileValuing).
 */
function fillInBackground(
  ctx: ServiceContext,
  symbol: string,
  root: string | null,
  tradingDate: string,
  instants: readonly number[],
): void {
  const key = JSON.stringify(['volatility-index-series', symbol, root ?? '', tradingDate]);
  const pending = ctx.deps.memos.valuing;
  if (pending.has(key)) return;
  const run = ctx.deps.repositories.books
    .whileValuing(key, async () => {
      for (let i = 0; i < instants.length; i += FILL_CHUNK_MINUTES)
        await storeIndexMinutes(ctx, symbol, root, tradingDate, instants.slice(i, i + FILL_CHUNK_MINUTES));
    })
    .catch((error: unknown) =>
      ctx.deps.logger.error('volatility index series fill failed', { key, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => pending.delete(key));
  pending.set(key, run);
}

/**
 * A trading date's minutes of a tenor whose starts are in [startMinute, endMinute) and that have
 * ended by the request's instant, oldest first: those not stored (or stale) computed and stored
 * first, here when at most INLINE_MINUTES are missing, else in the background (503 data_pending).
 */
async function minutesOf(
  ctx: ServiceContext,
  symbol: string,
  root: string | null,
  tenor: IndexTenorName,
  tradingDate: string,
  startMinute: number,
  endMinute: number,
): Promise<IndexMinuteRow[]> {
  const repo = ctx.deps.repositories.volatilityIndex;
  const last = Math.min(endMinute, ctx.now - MINUTE_MS + 1) - 1;
  if (last < startMinute) return [];
  const minutes = await repo.quoteMinutesIn(tradingDate, startMinute, last);
  if (minutes.length === 0) return [];
  const key = seriesKey(symbol, root, tradingDate);
  const stored = await repo.indexMinutes(key, tenor, (minutes[0] as number) + MINUTE_MS, (minutes.at(-1) as number) + MINUTE_MS);
  const have = new Map(stored.map((r) => [r.instant, r]));
  const missing = minutes.map((m) => m + MINUTE_MS).filter((instant) => !have.has(instant));
  if (missing.length > INLINE_MINUTES) {
    fillInBackground(ctx, symbol, root, tradingDate, missing);
    throw new ApiError(
      503,
      'data_pending',
      `The ${symbol}${root === null ? '' : ` (${root})`} volatility index series of ${tradingDate} is being computed (${missing.length} of its ${minutes.length} minutes in the range); retry shortly.`,
      [],
      FILL_RETRY_MS,
    );
  }
  if (missing.length > 0)
    for (const r of await storeIndexMinutes(ctx, symbol, root, tradingDate, missing)) if (r.tenor === tenor) have.set(r.instant, r);
  return minutes.flatMap((m) => {
    const row = have.get(m + MINUTE_MS);
    return row === undefined ? [] : [row];
  });
}

/** GET /v1/indices/volatility/bars (module comment; the contract states the rules). */
export async function listIndexVolatilityBars(
  ctx: ServiceContext,
  q: QueryOf<'listIndexVolatilityBars'>,
): Promise<Result<'listIndexVolatilityBars'>> {
  const symbol = q.underlying_symbol.toUpperCase();
  const tenor: IndexTenorName = withDefault(q.tenor, 'tenor');
  const interval = withDefault(q.interval, 'interval');
  const familyRoots = rootsOf([symbol]);
  if (familyRoots.length === 0) throw noData(`${symbol} has no listed options here: no volatility index is computed of it.`);
  const root = q.root === undefined ? null : q.root.toUpperCase();
  if (root !== null && !familyRoots.includes(root))
    throw noData(`${root} is not a root of ${symbol} (its roots: ${familyRoots.join(', ')}): root names no chain of it.`);
  const sessionRoot = (root ?? familyRoots[0]) as string;
  const sessionOf = (date: string) => volatilitySession(date, sessionRoot, 'rth');
  let range: { start: number; end: number };
  if (q.start_time !== undefined || q.end_time !== undefined) {
    const longest = SERIES_RANGE_DAYS * DAY_MS;
    const start = q.start_time ?? (q.end_time as number) - longest;
    range = { start, end: q.end_time ?? start + longest };
  } else {
    const date = q.date ?? currentOrLastSessionDate(ctx.now);
    const span = sessionOf(date);
    if (span === null) throw noData(`${date} is not a trading date: no session of ${symbol}'s options.`);
    range = span;
  }
  if (!(range.start < range.end)) {
    throw invalidParameters(
      (['start_time', 'end_time'] as const)
        .filter((p) => q[p] !== undefined)
        .map((parameter) => ({ parameter, message: 'start_time must be before end_time' })),
    );
  }
  const paging = openPaging<number>(ctx, q);
  const windows = seriesWindowsAfter(seriesWindows(range, sessionOf), interval, paging.after);
  const label = `${symbol}${root === null ? '' : ` (${root})`} ${tenor} volatility index: a model computed by this service from its stored option chains by the method of Cboe's VIX white paper; not Cboe's published ${PUBLISHED[tenor]}.`;
  const bars: SeriesBar[] = [];
  for (const w of windows) {
    if (bars.length > paging.limit) break;
    const rows = await minutesOf(ctx, symbol, root, tenor, w.tradingDate, w.start, w.end);
    const valued = rows.filter((r): r is IndexMinuteRow & { value: number } => r.value !== null);
    const inputsOf = new Map(valued.map((r) => [r.instant - MINUTE_MS, r.inputs]));
    const minutes: SeriesMinute[] = valued.map((r) => ({ minute: r.instant - MINUTE_MS, value: r.value }));
    for (const b of seriesBars(minutes, interval, w.open)) {
      bars.push({
        timestamp: b.bucket,
        trading_date: w.tradingDate,
        underlying_symbol: symbol,
        root,
        tenor,
        label,
        published_index: false,
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
        minutes: b.minutes,
        close_timestamp: b.closeMinute,
        close_inputs: JSON.parse(inputsOf.get(b.closeMinute) as string) as MinuteInputs,
      });
    }
  }
  if (bars.length === 0 && paging.after === null)
    throw noData(
      `No ${tenor} index of ${symbol} is computed in the requested range (no minute of its chain is stored, or the method refused every one).`,
    );
  const { page, next } = takePage(bars, paging.limit, (b) => b.timestamp);
  return { data: page, source: 'derived', pagination: paging.pagination(page.length, next) };
}
