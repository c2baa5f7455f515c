/**
 * The print feeds' fast path: with response validation off (as in production), rows are written
 * into the envelope as their stored JSON text. The body must be the same valid envelope, row for
 * row, as the stored prints.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOptionTrades } from '../../generated/client/index.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { readBounds } from '../../src/analytics/print-filters.js';
import { printsPageStatement, printsPageText, type PrintFilter, type PrintPosition } from '../../src/db/trades.js';
import { startTestService, type TestService } from '../support/service.js';

describe('trades without response validation', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ market: { dates: ['2026-11-20'] }, env: { VALIDATE_RESPONSES: 'false', LIMIT_PER_SECOND: '1000' } });
  });
  afterAll(async () => service.stop());

  it('serves the stored print bodies in the envelope, newest first', async () => {
    const { client } = await service.newAccount();
    const r = await listOptionTrades({ client, query: { underlying_symbol: 'SPY', date: '2026-11-20', limit: 40 } });
    expect(r.response.status).toBe(200);
    expect(r.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.data?.meta).toMatchObject({
      source: 'opra',
      request_id: r.response.headers.get('x-request-id'),
      coverage: { complete: true },
    });
    expect(r.data?.pagination).toMatchObject({ count: 40, limit: 40, has_more: true });
    const stored = (await printBodies(service.database.admin, '2026-11-20'))
      .map((b) => JSON.parse(b) as { underlying_symbol: string; session: string; timestamp: number; id: string })
      .filter((p) => p.underlying_symbol === 'SPY' && p.session !== 'gth')
      .reverse();
    expect(r.data?.data.map((p) => p.id)).toEqual(stored.slice(0, 40).map((p) => p.id));
    expect(r.data?.data[0]).toEqual(stored[0]);
  });

  /** SPXW's regular-session prints of 2026-11-20, unbounded in time. */
  const SPXW_RTH: PrintFilter = {
    tradingDate: '2026-11-20',
    roots: ['SPXW'],
    sessions: ['rth'],
    from: null,
    to: null,
    includeComplex: false,
  };

  /** The plan of a first page of 100 as a page runs it, its values written in (EXPLAIN takes no bound values). */
  const pagePlan = async (filter: PrintFilter): Promise<string[]> => {
    const statement = printsPageStatement(service.database.admin, filter, 100);
    const literal = (v: unknown): string => (Array.isArray(v) ? `'{${v.join(',')}}'` : `'${String(v)}'`);
    const text = statement!.sql.replace(/\$(\d+)/g, (_m, i: string) => literal(statement!.parameters[Number(i) - 1]));
    const plan = await sql
      .raw<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off, summary off) ${text}`)
      .execute(service.database.admin);
    return plan.rows.map((row) => row['QUERY PLAN']);
  };

  it('reads a regular-session page past the curb prints on the index entries, not by fetching their rows', async () => {
    const db = service.database.admin;
    const curb = await sql<{ n: number }>`
      select count(*)::int4 as n from prints where trading_date = '2026-11-20' and root = 'SPXW' and session = 'curb'`.execute(db);
    expect(curb.rows[0]!.n).toBeGreaterThan(20);
    const lines = await pagePlan(SPXW_RTH);
    const scan = lines.findIndex((line) => /Index Scan using \S+ on prints_20261120/.test(line));
    expect(scan, lines.join('\n')).toBeGreaterThanOrEqual(0);
    // Session is checked in the index condition; what the filter still removes is fewer than the curb prints.
    expect(lines[scan + 1], lines.join('\n')).toMatch(/Index Cond: .*session = ANY/);
    const removed = lines.slice(scan + 1, scan + 4).find((line) => line.includes('Rows Removed by Filter'));
    expect(Number(/Rows Removed by Filter: (\d+)/.exec(removed ?? '')?.[1] ?? 0)).toBeLessThan(curb.rows[0]!.n);
    expect(lines.some((line) => /^\s*(->\s*)?Sort\b/.test(line))).toBe(false);
  });

  it('checks side, size, premium and contract type on the index entries of a filtered page, on both newest-first indexes', async () => {
    const filtered: PrintFilter = {
      ...SPXW_RTH,
      sides: ['at_ask', 'near_ask'],
      minSize: 2,
      minPremium: 100,
      contractType: 'call',
    };
    const conditions = ['side = ANY', 'size >= ', 'premium >= ', "contract_type = 'call'"];
    for (const filter of [filtered, { ...filtered, roots: null }]) {
      const lines = await pagePlan(filter);
      const scan = lines.findIndex((line) => /Index Scan using \S+ on prints_20261120/.test(line));
      expect(scan, lines.join('\n')).toBeGreaterThanOrEqual(0);
      const cond = lines.slice(scan + 1, scan + 4).find((line) => line.includes('Index Cond:')) ?? '';
      for (const condition of conditions) expect(cond, lines.join('\n')).toContain(condition);
      // Only what the keys cannot hold (the trading date, complex trades) is left to check on the fetched row.
      const filterLine = lines.slice(scan + 1, scan + 4).find((line) => /^\s*Filter:/.test(line)) ?? '';
      for (const condition of conditions) expect(filterLine).not.toContain(condition);
    }
  });

  it("starts a regular-session page at the options close (the session's span bounds the index scan), with the same pages", async () => {
    const db = service.database.admin;
    const base = SPXW_RTH;
    const scanOf = async (filter: PrintFilter) => {
      const lines = await pagePlan(filter);
      const at = lines.findIndex((line) => /Index Scan using \S+ on prints_20261120/.test(line));
      expect(at, lines.join('\n')).toBeGreaterThanOrEqual(0);
      const block = lines.slice(at + 1, at + 5);
      return { cond: block.find((l) => l.includes('Index Cond:')) ?? '' };
    };
    // What the feeds read (services/print-feeds.ts printFilterOf): the date's regular-session span.
    const bounded = await scanOf({ ...base, ...readBounds('2026-11-20', 'rth', { from: null, to: null }) });
    const unbounded = await scanOf(base);
    expect(bounded.cond).toMatch(/ts < /);
    expect(bounded.cond).toMatch(/ts >= /);
    expect(unbounded.cond).not.toMatch(/ts < /);
    // The same prints, page after page, to the session's first.
    const walk = async (filter: PrintFilter) => {
      const ids: string[] = [];
      let after: PrintPosition | null = null;
      for (;;) {
        const page = await printsPageText(db, filter, after, 500);
        if (page.bodies !== '') ids.push(...(JSON.parse(`[${page.bodies}]`) as { id: string }[]).map((p) => p.id));
        if (!page.hasMore) return ids;
        after = page.last;
      }
    };
    const pages = await walk({ ...base, ...readBounds('2026-11-20', 'rth', { from: null, to: null }) });
    expect(pages.length).toBeGreaterThan(500);
    expect(pages).toEqual(await walk(base));
  });
});
