import { describe, expect, it } from 'vitest';
import { SESSIONS_OF } from '../analytics/print-filters.js';
import type { PrintFilter, PrintPosition, PrintsPageText, ScanFilter } from '../db/trades.js';
import { ApiError } from '../errors.js';
import { listPrints, type FeedOperation, type FeedQuery } from './print-feeds.js';
import type { PrintFeedRepository } from './repositories.js';
import { unitContext, withContractDefaults } from './service-context.fixtures.js';

const DATE = '2026-11-20';
/** After the day's close: the whole session is in the past. */
const NOW = Date.parse('2026-11-21T01:00:00Z');
const OPEN = Date.parse('2026-11-20T14:30:00Z');

interface StoredPrint {
  id: string;
  root: string;
  session: string;
  ts: number;
  sequence: number;
  contractId: number;
  exchange: string;
  premium: number;
}

/** Newest first by (ts, sequence, contract id), the store's order. */
const newestFirst = (a: PrintPosition, b: PrintPosition): number => b.ts - a.ts || b.sequence - a.sequence || b.contractId - a.contractId;
const positionOf = (p: StoredPrint): PrintPosition => ({ ts: p.ts, sequence: p.sequence, contractId: p.contractId });
const bodyOf = (p: StoredPrint): string => JSON.stringify({ id: p.id, root: p.root, premium: p.premium });

/**
 * The store's reads done in memory over the prints (the conditions the fake knows: date, roots,
 * sessions, window, min_premium, position); every filter the service passes is recorded.
 */
function printStore(prints: StoredPrint[]): { repository: PrintFeedRepository; filters: PrintFilter[]; scans: ScanFilter[] } {
  const filters: PrintFilter[] = [];
  const scans: ScanFilter[] = [];
  const matching = (f: PrintFilter, after: PrintPosition | null): StoredPrint[] =>
    prints
      .filter(
        (p) =>
          (f.roots === null || f.roots.includes(p.root)) &&
          f.sessions.includes(p.session) &&
          (f.from === null || p.ts >= f.from) &&
          (f.to === null || p.ts < f.to) &&
          (f.minPremium === undefined || p.premium >= f.minPremium) &&
          (after === null || newestFirst(positionOf(p), after) > 0),
      )
      .sort((a, b) => newestFirst(positionOf(a), positionOf(b)));
  const page = (rows: StoredPrint[], limit: number): PrintsPageText => {
    const served = rows.slice(0, limit);
    const last = served.at(-1);
    return {
      bodies: served.map(bodyOf).join(','),
      count: served.length,
      hasMore: rows.length > limit,
      last: last ? positionOf(last) : null,
    };
  };
  return {
    filters,
    scans,
    repository: {
      printsPage: async (f, after, limit) => {
        filters.push(f);
        return page(matching(f, after), limit);
      },
      scannedPrints: async (f, after, scan, limit, budget) => {
        filters.push(f);
        scans.push(scan);
        const window = matching(f, after).slice(0, budget);
        const passed = window.filter((p) => scan.exchanges === null || scan.exchanges.includes(p.exchange));
        const result = page(passed, limit);
        const end = window.at(-1);
        return { page: result, budgetEndedAt: !result.hasMore && window.length === budget && end ? positionOf(end) : null };
      },
    },
  };
}

/** Twelve prints of the day, a minute apart: AAPL and MSFT alternating, on two exchanges, premiums 100..1200. */
function day(): StoredPrint[] {
  return Array.from({ length: 12 }, (_, i) => ({
    id: `p${i}`,
    root: i % 2 === 0 ? 'AAPL' : 'MSFT',
    session: i === 11 ? 'curb' : 'rth',
    ts: OPEN + i * 60_000,
    sequence: 100 + i,
    contractId: 1 + (i % 3),
    exchange: i % 3 === 0 ? 'cboe' : 'ise',
    premium: 100 * (i + 1),
  }));
}

type Feed = {
  data: unknown;
  pagination?: { count: number; has_more: boolean; next_cursor_id: string | null };
  coverage?: { complete?: boolean; scan_complete?: boolean };
};

async function readPage(
  store: ReturnType<typeof printStore>,
  op: FeedOperation,
  query: FeedQuery,
  scanBudget = 20_000,
): Promise<Feed & { ids: string[] }> {
  const ctx = unitContext(op, { now: NOW, repositories: { printFeeds: store.repository, sessions: { sessionState: async () => 'hot' } } });
  const result = (await listPrints(ctx, op, withContractDefaults(op, query), { scanBudget, loadRetryAfterMs: 1_000 })) as Feed;
  return { ...result, ids: (result.data as { id: string }[]).map((p) => p.id) };
}

/** Every page of the query, following the cursors. */
async function allPages(
  store: ReturnType<typeof printStore>,
  op: FeedOperation,
  query: FeedQuery,
  scanBudget?: number,
): Promise<(Feed & { ids: string[] })[]> {
  const pages = [await readPage(store, op, query, scanBudget)];
  for (let cursor = pages[0]!.pagination!.next_cursor_id; cursor !== null; cursor = pages.at(-1)!.pagination!.next_cursor_id) {
    pages.push(await readPage(store, op, { ...query, cursor_id: cursor }, scanBudget));
    if (pages.length > 20) throw new Error('the cursors do not end');
  }
  return pages;
}

describe('the trades page (listPrints on a fake store)', () => {
  it("serves the underlying's prints newest first, a page at a time, each cursor continuing where the last page ended", async () => {
    const store = printStore(day());
    const pages = await allPages(store, 'listOptionTrades', { underlying_symbol: 'AAPL', date: DATE, limit: 2 });
    expect(pages.map((p) => p.ids)).toEqual([
      ['p10', 'p8'],
      ['p6', 'p4'],
      ['p2', 'p0'],
    ]);
    expect(pages.map((p) => p.pagination!.has_more)).toEqual([true, true, false]);
    expect(pages.map((p) => p.pagination!.count)).toEqual([2, 2, 2]);
    expect(pages.every((p) => p.coverage!.complete === true && p.coverage!.scan_complete === true)).toBe(true);
    // The data is the stored bodies as they are.
    expect(pages[0]!.data).toEqual([bodyOf(day()[10]!), bodyOf(day()[8]!)].map((b) => JSON.parse(b) as unknown));
  });

  it("asks the store for the query's roots, sessions, window and filters", async () => {
    const store = printStore(day());
    const query = {
      underlying_symbol: 'AAPL',
      date: DATE,
      min_premium: 500,
      contract_type: 'call',
      start_time: OPEN + 60_000,
      end_time: OPEN + 9 * 60_000,
      limit: 50,
    } as const;
    const page = await readPage(store, 'listOptionTrades', query);
    // p4 (premium 500) through p8 (at 8 minutes), AAPL only; p10 is past end_time, p0 and p2 under min_premium.
    expect(page.ids).toEqual(['p8', 'p6', 'p4']);
    expect(store.filters[0]).toMatchObject({
      tradingDate: DATE,
      roots: ['AAPL'],
      sessions: SESSIONS_OF.rth,
      from: OPEN + 60_000,
      to: OPEN + 9 * 60_000,
      minPremium: 500,
      contractType: 'call',
      includeComplex: true,
    });
  });

  it('reads the overnight session on the overnight feed, whatever is asked, and the whole market on the flow feed', async () => {
    const store = printStore(day());
    await expect(readPage(store, 'listOvernightOptionFlow', { date: DATE, limit: 5 })).rejects.toMatchObject({
      status: 422,
      code: 'no_data',
    });
    expect(store.filters[0]!.sessions).toEqual(SESSIONS_OF.gth);
    const flow = await readPage(store, 'listOptionFlow', { date: DATE, limit: 3 });
    expect(store.filters[1]!.roots).toBeNull();
    // p11 is a curb print: rth holds the regular session's only, all every print of the date.
    expect(flow.ids).toEqual(['p10', 'p9', 'p8']);
    expect((await readPage(store, 'listOptionFlow', { date: DATE, session: 'all', limit: 3 })).ids).toEqual(['p11', 'p10', 'p9']);
  });

  it('applies an exchange filter within the scan budget: a page the budget cut is incomplete and its cursor continues after the last print scanned', async () => {
    const store = printStore(day());
    // cboe: p0, p3, p6, p9. A budget of 4 prints per page, pages of 3.
    const pages = await allPages(store, 'listOptionFlow', { date: DATE, session: 'all', exchange: ['cboe'], limit: 3 }, 4);
    expect(store.scans[0]).toEqual({ exchanges: ['cboe'], sides: null });
    // p11..p8 scanned: p9 found; p7..p4 scanned: p6; p3..p0: p3 and p0, the budget ends with the prints.
    expect(pages.map((p) => p.ids)).toEqual([['p9'], ['p6'], ['p3', 'p0'], []]);
    expect(pages.map((p) => p.coverage!.scan_complete)).toEqual([false, false, false, true]);
    expect(pages.map((p) => p.pagination!.has_more)).toEqual([true, true, true, false]);
  });

  it('answers 422 when no print matches the first page, and 503 when the session is archived and no loader runs', async () => {
    const empty = printStore([]);
    await expect(readPage(empty, 'listOptionTrades', { underlying_symbol: 'AAPL', date: DATE })).rejects.toMatchObject({
      status: 422,
      code: 'no_data',
    });
    const ctx = unitContext('listOptionTrades', {
      now: NOW,
      repositories: { printFeeds: empty.repository, sessions: { sessionState: async () => 'archived' } },
    });
    const archived = listPrints(
      ctx,
      'listOptionTrades',
      withContractDefaults('listOptionTrades', { underlying_symbol: 'AAPL', date: DATE }),
    );
    await expect(archived).rejects.toBeInstanceOf(ApiError);
    await expect(archived).rejects.toMatchObject({ status: 503, code: 'upstream_busy' });
  });
});
