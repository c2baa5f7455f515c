/**
 * The print feeds: /v1/options/trades (one underlying or a list), /v1/options/flow (the whole
 * market, optionally narrowed) and /v1/options/flow/overnight (the gth session) are one use case
 * with three faces. Session rth is the trading date's day (regular, curb and late prints), gth its
 * overnight session, all both (analytics/print-filters.ts).
 *
 * Exchange filters and an at/near side split apply to the prints read, within a bounded scan per
 * page (`scanBudget` prints); when it ends before the page fills, scan_complete and complete are
 * false and the cursor continues from the last print scanned. The cursor position is the last
 * print served or scanned, (timestamp, sequence, contract id): the order of the store's indexes.
 * The stored bodies are the served objects, so a page travels as their text.
 */
import {
  readBounds,
  resolveWindow,
  rootsOf,
  selectSides,
  SESSIONS_OF,
  type Problem,
  type SessionChoice,
  type SideSelection,
} from '../analytics/print-filters.js';
import type { PrintFilter, PrintPosition, ScanFilter } from '../db/trades.js';
import { invalidParameters, noData } from '../errors.js';
import { openPaging } from './paging.js';
import { explainMissingPrints, LOAD_RETRY_AFTER_MS } from './session-data.js';
import { textResult } from './text-result.js';
import { withDefault, type QueryOf, type Result, type ServiceContext } from './types.js';

export type FeedOperation = 'listOptionTrades' | 'listOptionFlow' | 'listOvernightOptionFlow';

/** The trades query holds every parameter of the three feeds (flow and overnight take a subset). */
export type FeedQuery = Partial<QueryOf<'listOptionTrades'>>;

export interface PrintFeedOptions {
  /** Prints examined per page when a filter runs after the read. */
  scanBudget: number;
  /** Suggested wait while an archived session loads. */
  loadRetryAfterMs: number;
}

export const DEFAULT_PRINT_FEED_OPTIONS: PrintFeedOptions = { scanBudget: 20_000, loadRetryAfterMs: LOAD_RETRY_AFTER_MS };

/** Cursor position: the last print read, (timestamp, sequence, contract). */
interface Position {
  t: number;
  s: number;
  c: number;
}

export interface FeedWindow {
  tradingDate: string;
  from: number | null;
  to: number | null;
}

/** The session a feed reads: the overnight feed is gth whatever is asked. */
export function feedSession(op: FeedOperation | 'getPremiumDrift', query: { session?: SessionChoice }): SessionChoice {
  return op === 'listOvernightOptionFlow' ? 'gth' : withDefault(query.session, 'session');
}

/** The trading date and window a feed query names, or the problems of its time parameters. */
export function feedWindow(
  query: { date?: string; start_time?: number; end_time?: number },
  session: SessionChoice,
  now: number,
): { ok: true; window: FeedWindow } | { ok: false; problems: Problem[] } {
  const window = resolveWindow({ session, date: query.date, startTime: query.start_time, endTime: query.end_time, now });
  return window.ok
    ? { ok: true, window: { tradingDate: window.tradingDate, from: window.from, to: window.to } }
    : { ok: false, problems: window.problems };
}

/**
 * The window of a feed query. Its rule (the contract's within_one_session, src/parameters) refuses
 * a query whose window does not resolve before the service runs; the 400 here only guards a caller
 * that skipped it.
 */
export function checkedFeedWindow(
  query: { date?: string; start_time?: number; end_time?: number },
  session: SessionChoice,
  now: number,
): FeedWindow {
  const resolved = feedWindow(query, session, now);
  if (!resolved.ok) throw invalidParameters(resolved.problems);
  return resolved.window;
}

/** The store filter of a feed query. */
export function printFilterOf(
  q: FeedQuery,
  window: FeedWindow,
  session: SessionChoice,
  roots: readonly string[] | null,
  sides: SideSelection | null,
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
    includeComplex: withDefault(q.include_complex, 'include_complex'),
    unusualOnly: q.unusual_only,
    minStrike: q.min_strike,
    maxStrike: q.max_strike,
  };
}

interface Page {
  /** The page's stored bodies joined by commas. */
  bodies: string;
  count: number;
  /** Where the next page starts (after this position); null at the end. */
  next: PrintPosition | null;
  scanComplete: boolean;
}

/** One page without post-read filters, read as the text of its bodies (limit + 1 tell whether more exist). */
async function plainPage(ctx: ServiceContext, filter: PrintFilter, after: PrintPosition | null, limit: number): Promise<Page> {
  const page = await ctx.deps.repositories.printFeeds.printsPage(filter, after, limit);
  return { bodies: page.bodies, count: page.count, next: page.hasMore ? page.last : null, scanComplete: true };
}

/**
 * One page with exchange or at/near side filters applied to the prints read, within the scan
 * budget: limit + 1 matches tell whether more exist; a scan that ends at its budget continues, on
 * the next page, after the last print it read.
 */
async function scannedPage(
  ctx: ServiceContext,
  filter: PrintFilter,
  after: PrintPosition | null,
  limit: number,
  scan: ScanFilter,
  budget: number,
): Promise<Page> {
  const { page, budgetEndedAt } = await ctx.deps.repositories.printFeeds.scannedPrints(filter, after, scan, limit, budget);
  const { bodies, count } = page;
  if (page.hasMore) return { bodies, count, next: page.last, scanComplete: true };
  if (budgetEndedAt === null) return { bodies, count, next: null, scanComplete: true };
  return { bodies, count, next: budgetEndedAt, scanComplete: count >= limit };
}

/** A page of one of the three feeds. */
export async function listPrints<Op extends FeedOperation>(
  ctx: ServiceContext,
  op: Op,
  q: FeedQuery,
  options: PrintFeedOptions = DEFAULT_PRINT_FEED_OPTIONS,
): Promise<Result<Op>> {
  const session = feedSession(op, q);
  const window = checkedFeedWindow(q, session, ctx.now);
  const symbols = q.underlying_symbol !== undefined ? [q.underlying_symbol] : q.underlying_symbols;
  const sides = q.side ? selectSides(q.side) : null;
  const filter = printFilterOf(q, window, session, symbols ? rootsOf(symbols) : null, sides);

  const paging = openPaging<Position>(ctx, q);
  const after: PrintPosition | null = paging.after ? { ts: paging.after.t, sequence: paging.after.s, contractId: paging.after.c } : null;
  const scan: ScanFilter = { exchanges: q.exchange ?? null, sides: sides?.exact ?? null };
  ctx.stamp?.('service');
  const page =
    scan.exchanges === null && scan.sides === null
      ? await plainPage(ctx, filter, after, paging.limit)
      : await scannedPage(ctx, filter, after, paging.limit, scan, options.scanBudget);
  ctx.stamp?.('statement');

  if (page.count === 0 && page.scanComplete) {
    await explainMissingPrints(ctx, window.tradingDate, options.loadRetryAfterMs);
    if (after === null) throw noData(`No print matches the request on ${window.tradingDate}.`);
  }
  const next: Position | null = page.next ? { t: page.next.ts, s: page.next.sequence, c: page.next.contractId } : null;
  // `data` is parsed only when something reads it (response validation, exports).
  return Object.assign(textResult<Op>(`[${page.bodies}]`, 'opra'), {
    // A page the scan budget cut before it filled is not complete.
    coverage: { complete: page.scanComplete, scan_complete: page.scanComplete },
    pagination: paging.pagination(page.count, next),
  });
}
