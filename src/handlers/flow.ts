/**
 * Option flow. The print feeds /v1/options/trades (one underlying or a list), /v1/options/flow (the
 * whole market, optionally narrowed) and /v1/options/flow/overnight (the gth session) share one
 * implementation; /v1/options/flow/premium-drift and /v1/options/flow/leaders aggregate the same
 * prints. Session rth is the trading date's day (regular, curb and late prints), gth its overnight
 * session, all both (analytics/print-filters.ts).
 *
 * Exchange filters and an at/near side split apply to the prints read, within a bounded scan per
 * page (`scanBudget` prints); when it ends before the page fills, scan_complete is false and the
 * cursor continues from the last print scanned. The cursor position is the last print served or
 * scanned, (timestamp, sequence, contract id): the order of the store's indexes.
 */
import { boundProblems, defaultTradingDate, readBounds, resolveWindow, rootsOf, selectSides, SESSIONS_OF, type Problem, type SessionChoice, type SideParameter, type SideSelection } from '../analytics/print-filters.js';
import { ASK_SIDES, BID_SIDES, DRIFT_INTERVAL_MS, driftGrid, driftSeries } from '../analytics/premium-drift.js';
import { optionRoot } from '../analytics/roots.js';
import { previousTradingDay } from '../analytics/calendar.js';
import { DEFAULT_SORT, rankContracts, rankRoots, SORTS_OF, type LeaderSort } from '../analytics/flow-leaders.js';
import { underlyingBarsBetween } from '../db/market-data.js';
import { flowByContract, flowByUnderlying, premiumNetByBucket, printsPageText, scannedPrints, type PrintFilter, type PrintPosition, type ScanFilter } from '../db/trades.js';
import { requestSessionLoad, sessionState } from '../jobs/session-load.js';
import { CursorCodec } from '../middleware/cursor.js';
import { ApiError, invalidParameters, noData } from '../errors.js';
import { nextPageUrl } from './pagination.js';
import type { DataOf, Handler, HandlerContext, HandlerResult } from './types.js';

type FeedOperation = 'listOptionTrades' | 'listOptionFlow' | 'listOvernightOptionFlow';

/** The query fields the three feeds share (trades adds underlying_symbol and the at/near sides). */
interface FeedQuery {
  underlying_symbol?: string;
  underlying_symbols?: string[];
  date?: string;
  session?: SessionChoice;
  start_time?: number;
  end_time?: number;
  contract_type?: 'call' | 'put';
  date_of_expiry?: string;
  min_dte?: number;
  max_dte?: number;
  min_premium?: number;
  max_premium?: number;
  min_size?: number;
  max_size?: number;
  trade_type?: string[];
  side?: SideParameter[];
  sentiment?: string[];
  otm_only?: boolean;
  include_complex?: boolean;
  unusual_only?: boolean;
  min_strike?: number;
  max_strike?: number;
  exchange?: string[];
  limit?: number;
  cursor_id?: string;
}

export interface PrintFeedOptions {
  /** Prints examined per page when a filter runs after the read. */
  scanBudget: number;
  /** Suggested wait while an archived session loads. */
  loadRetryAfterMs: number;
}

export const DEFAULT_PRINT_FEED_OPTIONS: PrintFeedOptions = { scanBudget: 20_000, loadRetryAfterMs: 5_000 };

const PATHS: Record<FeedOperation, string> = {
  listOptionTrades: '/v1/options/trades',
  listOptionFlow: '/v1/options/flow',
  listOvernightOptionFlow: '/v1/options/flow/overnight',
};

/** Cursor position: the last print read, (timestamp, sequence, contract). */
interface Position {
  t: number;
  s: number;
  c: number;
}

function crossParameterProblems(op: FeedOperation | 'getPremiumDrift', q: FeedQuery): Problem[] {
  const problems: Problem[] = [];
  if (op === 'listOptionTrades' && (q.underlying_symbol === undefined) === (q.underlying_symbols === undefined)) {
    const message = 'give exactly one of underlying_symbol and underlying_symbols';
    problems.push({ parameter: 'underlying_symbol', message }, { parameter: 'underlying_symbols', message });
  }
  problems.push(
    ...boundProblems([
      ['min_dte', q.min_dte, 'max_dte', q.max_dte],
      ['min_premium', q.min_premium, 'max_premium', q.max_premium],
      ['min_size', q.min_size, 'max_size', q.max_size],
      ['min_strike', q.min_strike, 'max_strike', q.max_strike],
    ]),
  );
  return problems;
}

/** The window of a feed query, or 400 naming every parameter that breaks a cross-parameter rule. */
function checkedWindow(op: FeedOperation | 'getPremiumDrift', q: FeedQuery, session: SessionChoice, now: number): { tradingDate: string; from: number | null; to: number | null } {
  const problems = crossParameterProblems(op, q);
  const window = resolveWindow({ session, date: q.date, startTime: q.start_time, endTime: q.end_time, now });
  if (!window.ok) problems.push(...window.problems);
  if (problems.length > 0 || !window.ok) throw invalidParameters(problems);
  return window;
}

/**
 * The cross-parameter rules of the feeds and premium drift, for a query given as data (exports
 * check them before accepting a job). Empty when the query is acceptable.
 */
export function feedQueryProblems(op: FeedOperation | 'getPremiumDrift', query: Record<string, unknown>, now: number): Problem[] {
  const q = query as FeedQuery;
  const session: SessionChoice = op === 'listOvernightOptionFlow' ? 'gth' : (q.session ?? 'rth');
  const problems = crossParameterProblems(op, q);
  const window = resolveWindow({ session, date: q.date, startTime: q.start_time, endTime: q.end_time, now });
  return window.ok ? problems : [...problems, ...window.problems];
}

/** The cross-parameter rules of flow leaders: sort valid for the grain, underlying_symbols with contract grain only. */
export function leadersQueryProblems(query: { grain?: 'root' | 'contract'; sort?: LeaderSort; underlying_symbols?: string[] }): Problem[] {
  const grain = query.grain ?? 'root';
  const sort = query.sort ?? DEFAULT_SORT[grain];
  const problems: Problem[] = [];
  if (!SORTS_OF[grain].includes(sort)) problems.push({ parameter: 'sort', message: `grain ${grain} accepts sort ${SORTS_OF[grain].join(', ')}` });
  if (grain === 'root' && query.underlying_symbols !== undefined) problems.push({ parameter: 'underlying_symbols', message: 'accepted with grain contract only' });
  return problems;
}

interface Page {
  /** The page's stored bodies joined by commas. */
  bodies: string;
  count: number;
  hasMore: boolean;
  /** Where the next page starts: after this position. */
  next: PrintPosition | null;
  scanComplete: boolean;
}

/** One page without post-read filters, read as the text of its bodies (limit + 1 tell whether more exist). */
async function plainPage(ctx: HandlerContext<FeedOperation>, filter: PrintFilter, after: PrintPosition | null, limit: number): Promise<Page> {
  const page = await printsPageText(ctx.deps.db, filter, after, limit);
  const hasMore = page.hasMore && page.last !== null;
  return { bodies: page.bodies, count: page.count, hasMore, next: hasMore ? page.last : null, scanComplete: true };
}

/**
 * One page with exchange or at/near side filters applied to the prints read, within the scan
 * budget: limit + 1 matches tell whether more exist; a scan that ends at its budget continues, on
 * the next page, after the last print it read.
 */
async function scannedPage(ctx: HandlerContext<FeedOperation>, filter: PrintFilter, after: PrintPosition | null, limit: number, scan: ScanFilter, budget: number): Promise<Page> {
  const { page, budgetEndedAt } = await scannedPrints(ctx.deps.db, filter, after, scan, limit, budget);
  const { bodies, count } = page;
  if (page.hasMore) return { bodies, count, hasMore: true, next: page.last, scanComplete: true };
  if (budgetEndedAt === null) return { bodies, count, hasMore: false, next: null, scanComplete: true };
  return { bodies, count, hasMore: true, next: budgetEndedAt, scanComplete: count >= limit };
}

/** An empty answer: an archived session starts its load (503); the caller answers no data (422) otherwise. */
async function explainEmpty(ctx: Pick<HandlerContext<FeedOperation>, 'deps' | 'requestId'>, tradingDate: string, options: PrintFeedOptions): Promise<void> {
  if ((await sessionState(ctx.deps.db, tradingDate)) === 'archived') {
    if (ctx.deps.boss === null) {
      throw new ApiError(503, 'upstream_busy', `The session of ${tradingDate} is archived and no loader is running; retry later.`, [], options.loadRetryAfterMs);
    }
    const state = await requestSessionLoad(ctx.deps.boss, tradingDate);
    ctx.deps.logger.info('session load requested', { request_id: ctx.requestId, date: tradingDate, state });
    throw new ApiError(503, 'data_pending', `The session of ${tradingDate} is being loaded; retry shortly.`, [], options.loadRetryAfterMs);
  }
}

/** The store filter of a feed query. */
function printFilterOf(
  q: FeedQuery,
  window: { tradingDate: string; from: number | null; to: number | null },
  session: SessionChoice,
  roots: readonly string[] | null,
  sides: SideSelection | null,
  includeComplexByDefault: boolean,
): PrintFilter {
  const bounds = readBounds(window.tradingDate, session, window);
  return {
    tradingDate: window.tradingDate,
    roots,
    sessions: SESSIONS_OF[session],
    from: bounds.from,
    to: bounds.to,
    contractType: q.contract_type,
    dateOfExpiry: q.date_of_expiry,
    minDte: q.min_dte,
    maxDte: q.max_dte,
    minPremium: q.min_premium,
    maxPremium: q.max_premium,
    minSize: q.min_size,
    maxSize: q.max_size,
    tradeTypes: q.trade_type,
    sides: sides?.stored,
    sentiments: q.sentiment,
    otmOnly: q.otm_only,
    includeComplex: q.include_complex ?? includeComplexByDefault,
    unusualOnly: q.unusual_only,
    minStrike: q.min_strike,
    maxStrike: q.max_strike,
  };
}

async function servePrints(ctx: HandlerContext<FeedOperation>, op: FeedOperation, options: PrintFeedOptions): Promise<HandlerResult<FeedOperation>> {
  const q = ctx.query as FeedQuery;
  const session: SessionChoice = op === 'listOvernightOptionFlow' ? 'gth' : (q.session ?? 'rth');
  const window = checkedWindow(op, q, session, ctx.now);

  const symbols = q.underlying_symbol !== undefined ? [q.underlying_symbol] : q.underlying_symbols;
  const sides = q.side ? selectSides(q.side) : null;
  const filter = printFilterOf(q, { tradingDate: window.tradingDate, from: window.from, to: window.to }, session, symbols ? rootsOf(symbols) : null, sides, true);

  const limit = q.limit ?? 100;
  const fingerprint = CursorCodec.queryFingerprint(PATHS[op], ctx.query);
  const cursor = q.cursor_id ? ctx.deps.cursors.decode<Position>(q.cursor_id, fingerprint, ctx.now) : null;
  const after: PrintPosition | null = cursor ? { ts: cursor.t, sequence: cursor.s, contractId: cursor.c } : null;

  const scan: ScanFilter = { exchanges: q.exchange ?? null, sides: sides?.exact ?? null };
  const page =
    scan.exchanges === null && scan.sides === null ? await plainPage(ctx, filter, after, limit) : await scannedPage(ctx, filter, after, limit, scan, options.scanBudget);

  if (page.count === 0 && page.scanComplete) {
    await explainEmpty(ctx, window.tradingDate, options);
    if (after === null) throw noData(`No print matches the request on ${window.tradingDate}.`);
  }
  const next = page.next ? ctx.deps.cursors.encode({ t: page.next.ts, s: page.next.sequence, c: page.next.contractId } satisfies Position, fingerprint, ctx.now) : null;
  // The stored bodies are the served objects: the envelope can carry their text as it is; `data`
  // is parsed only when something reads it (response validation, exports).
  const dataJson = `[${page.bodies}]`;
  let parsed: DataOf<FeedOperation> | undefined;
  return {
    get data(): DataOf<FeedOperation> {
      parsed ??= JSON.parse(dataJson) as DataOf<FeedOperation>;
      return parsed;
    },
    dataJson,
    source: 'opra',
    coverage: { scan_complete: page.scanComplete },
    pagination: { count: page.count, has_more: page.hasMore, limit, next_cursor_id: next, next_url: nextPageUrl(ctx.link, next) },
  };
}

/** The three feed handlers; options are replaceable in tests (a small scan budget). */
export function printFeedHandlers(options: PrintFeedOptions = DEFAULT_PRINT_FEED_OPTIONS): {
  listOptionTrades: Handler<'listOptionTrades'>;
  listOptionFlow: Handler<'listOptionFlow'>;
  listOvernightOptionFlow: Handler<'listOvernightOptionFlow'>;
} {
  return {
    listOptionTrades: async (ctx) => await servePrints(ctx, 'listOptionTrades', options),
    listOptionFlow: async (ctx) => await servePrints(ctx, 'listOptionFlow', options),
    listOvernightOptionFlow: async (ctx) => await servePrints(ctx, 'listOvernightOptionFlow', options),
  };
}

export const { listOptionTrades, listOptionFlow, listOvernightOptionFlow } = printFeedHandlers();

/** Cumulative signed premium of one underlying through a session, by bucket. */
export const getPremiumDrift: Handler<'getPremiumDrift'> = async (ctx) => {
  const q = ctx.query;
  const session: SessionChoice = q.session ?? 'rth';
  const window = checkedWindow('getPremiumDrift', q, session, ctx.now);

  const roots = rootsOf([q.underlying_symbol]);
  const grid = driftGrid(window.tradingDate, session, roots);
  if (!grid) throw noData(`${window.tradingDate} is not a trading date.`);
  const intervalMs = DRIFT_INTERVAL_MS[q.interval ?? '5m'];
  const filter = { ...printFilterOf(q, window, session, roots, q.side ? selectSides(q.side) : null, false), roots };
  const nets = await premiumNetByBucket(ctx.deps.db, filter, grid.start, intervalMs, { ask: ASK_SIDES, bid: BID_SIDES });
  if (nets.length === 0) {
    await explainEmpty(ctx, window.tradingDate, DEFAULT_PRINT_FEED_OPTIONS);
    throw noData(`No print of ${q.underlying_symbol.toUpperCase()} matches the request on ${window.tradingDate}.`);
  }
  const underlying = optionRoot(roots[0] ?? '')?.underlying ?? q.underlying_symbol.toUpperCase();
  const bars = await underlyingBarsBetween(ctx.deps.db, [underlying], grid.start, grid.end);
  return {
    data: driftSeries(grid, intervalMs, window, nets, bars, ctx.now),
    source: 'opra',
  };
};

/** The previous trading date, or null before the calendar's start. */
function previousDate(date: string): string | null {
  try {
    return previousTradingDay(date);
  } catch {
    return null;
  }
}

/** Underlyings or contracts ranked by the session's flow. */
export const listFlowLeaders: Handler<'listFlowLeaders'> = async (ctx) => {
  const q = ctx.query;
  const grain = q.grain ?? 'root';
  const sort = q.sort ?? DEFAULT_SORT[grain];
  const problems = leadersQueryProblems(q);
  if (problems.length > 0) throw invalidParameters(problems);

  const session: SessionChoice = q.session ?? 'rth';
  const tradingDate = q.date ?? defaultTradingDate(ctx.now, session);
  const filter = {
    tradingDate,
    sessions: SESSIONS_OF[session],
    includeComplex: q.include_complex ?? false,
    minPremium: q.min_premium,
    roots: q.underlying_symbols ? rootsOf(q.underlying_symbols) : null,
  };
  const order = q.order ?? 'desc';
  const limit = q.limit ?? 50;
  const empty = async (): Promise<never> => {
    await explainEmpty(ctx, tradingDate, DEFAULT_PRINT_FEED_OPTIONS);
    throw noData(`No print matches the request on ${tradingDate}.`);
  };
  if (grain === 'root') {
    const flows = await flowByUnderlying(ctx.deps.db, filter);
    if (flows.length === 0) return await empty();
    const rows = flows.map((f) => ({ ...f, callVolume: f.call_volume, putVolume: f.put_volume }));
    return { data: rankRoots(rows, sort, order, limit), source: 'opra' };
  }
  const previous = previousDate(tradingDate);
  const flows = previous === null ? [] : await flowByContract(ctx.deps.db, filter, previous);
  if (flows.length === 0) return await empty();
  const ranked = rankContracts(
    flows.flatMap((f) =>
      f.previous_close === null || f.open_interest === null
        ? []
        : [
            {
              root: f.root,
              contractType: f.contract_type,
              dateOfExpiry: f.date_of_expiry,
              strike: f.strike,
              premium: f.premium,
              volume: f.volume,
              lastPrice: f.last_price,
              impliedVolatility: f.implied_volatility,
              openInterest: f.open_interest,
              previousClose: f.previous_close,
            },
          ],
    ),
    sort,
    order,
    limit,
  );
  if (ranked.length === 0) throw noData(`No contract traded on ${tradingDate} has a previous close on ${previous ?? 'a retained session'}.`);
  return { data: ranked, source: 'opra' };
};
