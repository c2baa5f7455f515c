/**
 * The print feeds on a small simulated market (two sessions loaded through ingest): every parameter
 * rule and status of /v1/options/trades, /v1/options/flow and /v1/options/flow/overnight, full
 * cursor walks against the store, tampered and expired cursors, the scan budget, and an archived
 * session answering 503 data_pending until its load job has run, then 200.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExport,
  downloadExport,
  getExport,
  getPremiumDrift,
  listFlowLeaders,
  listOptionFlow,
  listOptionTrades,
  listOvernightOptionFlow,
} from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ContractLeaderRow, OptionPrint as Print, RootLeaderRow } from '../../generated/client/types.gen.js';
import { optionRoot } from '../../src/analytics/roots.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { printFeedHandlers } from '../../src/handlers/flow.js';
import { sessionState } from '../../src/db/archive.js';
import { enforceRetention } from '../../src/ingest/archive.js';
import { exportJob } from '../../src/jobs/export.js';
import { sessionLoad } from '../../src/jobs/session-load.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';
const SCAN_BUDGET = 300;

type Row = Print;
type Page = {
  data?: {
    data: Row[];
    meta: { source: string; coverage: Record<string, boolean> };
    pagination: { next_cursor_id: string | null; has_more: boolean; count: number; limit: number; next_url: string | null };
  };
  response: Response;
  error?: unknown;
};

const sequenceOf = (r: Row): number => Number(r.id.split(':').at(-1));
const newestFirst = (a: Row, b: Row): number => b.timestamp - a.timestamp || sequenceOf(b) - sequenceOf(a);

/** Follows next_cursor_id to the end; returns every row and the pages' coverage. */
async function walk(call: (cursor: string | undefined) => Promise<Page>): Promise<{ rows: Row[]; pages: Page[] }> {
  const rows: Row[] = [];
  const pages: Page[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i += 1) {
    const page = await call(cursor);
    expect(page.response.status).toBe(200);
    pages.push(page);
    rows.push(...(page.data?.data ?? []));
    const next = page.data?.pagination.next_cursor_id ?? null;
    if (next === null) return { rows, pages };
    cursor = next;
  }
  throw new Error('walk did not end');
}

describe('option print feeds', () => {
  let service: TestService;
  let pro: Client;
  let basic: Client;
  let nowMs = MARKET_NOW;
  let all: Row[];
  let dataDir: string;
  const ids = (rows: Row[]): string[] => rows.map((r) => r.id);
  const expected = (pred: (r: Row) => boolean, date = DAY): Row[] => (date === DAY ? all : []).filter(pred).sort(newestFirst);
  /** The prints session rth holds: the regular session's only (curb prints are all's; issue 33 §5). */
  const day = (r: Row): boolean => r.session === 'rth';
  const roots =
    (...list: string[]) =>
    (r: Row) =>
      list.includes(r.underlying_symbol);

  beforeAll(async () => {
    const { listOptionFlow: smallBudgetFlow } = printFeedHandlers({ scanBudget: SCAN_BUDGET, loadRetryAfterMs: 500 });
    service = await startTestService({
      market: { dates: [PREVIOUS, DAY] },
      jobs: true,
      clock: () => nowMs,
      handlers: { listOptionFlow: smallBudgetFlow },
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
    all = (await printBodies(service.database.admin, DAY)).map((b) => JSON.parse(b) as Row);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trades-archive-'));
  });
  afterAll(async () => service.stop());

  it('serves the 31-field prints of a root newest first, from opra, on the default date and session', async () => {
    const r = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', limit: 50 } })) as Page;
    expect(r.response.status).toBe(200);
    const rows = r.data!.data;
    expect(rows).toHaveLength(50);
    expect(Object.keys(rows[0]!)).toHaveLength(31);
    expect(ids(rows)).toEqual(ids(expected((x) => day(x) && x.underlying_symbol === 'SPY').slice(0, 50)));
    expect(r.data!.meta.source).toBe('opra');
    expect(r.data!.meta.coverage).toEqual({ complete: true, scan_complete: true });
    expect(r.data!.pagination).toMatchObject({ count: 50, limit: 50, has_more: true });
    expect(r.data!.pagination.next_url).toMatch(/^\/v1\/options\/trades\?underlying_symbol=SPY&limit=50&cursor_id=/);
    // Default limit 100.
    const d = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'qqq' } })) as Page;
    expect(d.data!.pagination.limit).toBe(100);
    expect(d.data!.data.every((x) => x.underlying_symbol === 'QQQ')).toBe(true);
  });

  it('expands a family to its roots; a weekly root covers only itself; a list merges its roots', async () => {
    const family = await walk(
      async (cursor) =>
        (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPX', limit: 500, cursor_id: cursor } })) as Page,
    );
    const expectedFamily = expected((x) => day(x) && ['SPX', 'SPXW'].includes(x.underlying_symbol));
    expect(new Set(expectedFamily.map((x) => x.underlying_symbol))).toEqual(new Set(['SPX', 'SPXW']));
    expect(ids(family.rows)).toEqual(ids(expectedFamily));
    const weekly = await walk(
      async (cursor) =>
        (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPXW', limit: 500, cursor_id: cursor } })) as Page,
    );
    expect(ids(weekly.rows)).toEqual(ids(expected((x) => day(x) && x.underlying_symbol === 'SPXW')));
    const list = await walk(
      async (cursor) =>
        (await listOptionTrades({ client: pro, query: { underlying_symbols: ['SPX', 'QQQ'], limit: 500, cursor_id: cursor } })) as Page,
    );
    expect(ids(list.rows)).toEqual(ids(expected((x) => day(x) && ['SPX', 'SPXW', 'QQQ'].includes(x.underlying_symbol))));
  });

  it('walks a whole session exactly once, in order, with any page size', async () => {
    const want = ids(expected(day));
    expect(want.length).toBeGreaterThan(1000);
    for (const limit of [500, 97, 1]) {
      if (limit === 1) {
        // A short walk with one-row pages over one root.
        const iwm = expected((x) => day(x) && x.underlying_symbol === 'IWM');
        expect(iwm.length).toBeLessThan(900);
        const walked = await walk(
          async (cursor) =>
            (await listOptionTrades({ client: pro, query: { underlying_symbol: 'IWM', limit: 1, cursor_id: cursor } })) as Page,
        );
        expect(ids(walked.rows)).toEqual(ids(iwm));
        continue;
      }
      const walked = await walk(async (cursor) => (await listOptionFlow({ client: pro, query: { limit, cursor_id: cursor } })) as Page);
      expect(ids(walked.rows)).toEqual(want);
      expect(walked.pages.at(-1)!.data!.pagination.has_more).toBe(false);
    }
  });

  it('never serves cancelled prints', async () => {
    const cancelled = await service.database.admin
      .selectFrom('prints')
      .select('id')
      .where('trading_date', '=', DAY)
      .where('cancelled', '=', true)
      .execute();
    expect(cancelled.length).toBeGreaterThan(0);
    const walked = await walk(
      async (cursor) => (await listOptionFlow({ client: pro, query: { session: 'all', limit: 500, cursor_id: cursor } })) as Page,
    );
    const served = new Set(ids(walked.rows));
    expect(cancelled.some((c) => served.has(c.id))).toBe(false);
    expect(walked.rows.length).toBe(all.length);
  });

  it('applies every filter in the store', async () => {
    const cases: [Record<string, unknown>, (r: Row) => boolean][] = [
      [{ contract_type: 'put' }, (r) => r.contract_type === 'put'],
      [{ date_of_expiry: DAY }, (r) => r.date_of_expiry === DAY],
      [{ min_dte: 1, max_dte: 10 }, (r) => r.days_to_expiry >= 1 && r.days_to_expiry <= 10],
      [{ min_premium: 5000, max_premium: 200000 }, (r) => r.premium >= 5000 && r.premium <= 200000],
      [{ min_size: 10, max_size: 50 }, (r) => r.size >= 10 && r.size <= 50],
      [{ min_strike: 580, max_strike: 600 }, (r) => r.strike >= 580 && r.strike <= 600],
      [{ trade_type: ['sweep', 'block'] }, (r) => r.trade_type === 'sweep' || r.is_block],
      [{ trade_type: ['golden', 'auction', 'iso'] }, (r) => r.is_golden || r.flags.includes('auction') || r.flags.includes('iso')],
      [
        { trade_type: ['multileg', 'cross', 'floor', 'split', 'single'] },
        (r) => ['multileg', 'cross', 'floor', 'split', 'single'].includes(r.trade_type),
      ],
      [{ side: ['ask'] }, (r) => r.side === 'at_ask' || r.side === 'near_ask'],
      [{ side: ['bid', 'mid', 'unknown'] }, (r) => ['near_bid', 'at_bid', 'mid', 'unknown'].includes(r.side)],
      [{ side: ['above_ask', 'below_bid'] }, (r) => r.side === 'above_ask' || r.side === 'below_bid'],
      [{ sentiment: ['bearish', 'neutral'] }, (r) => r.sentiment === 'bearish' || r.sentiment === 'neutral'],
      [{ otm_only: true }, (r) => r.underlying_price !== null && r.otm_percent !== null && r.otm_percent > 0],
      [{ include_complex: false }, (r) => r.trade_type !== 'multileg' && !r.flags.includes('complex')],
      [{ unusual_only: true }, (r) => r.is_unusual],
    ];
    for (const [filter, pred] of cases) {
      const walked = await walk(
        async (cursor) => (await listOptionFlow({ client: pro, query: { ...filter, limit: 500, cursor_id: cursor } })) as Page,
      );
      const want = expected((x) => day(x) && pred(x));
      expect(want.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(ids(walked.rows), JSON.stringify(filter)).toEqual(ids(want));
    }
    // include_complex defaults to true: multi-leg prints are served.
    expect(all.some((r) => r.trade_type === 'multileg')).toBe(true);
  });

  it('filters exchanges and the at/near split after the read (trades and flow/overnight)', async () => {
    const exchange = await walk(
      async (cursor) =>
        (await listOptionTrades({
          client: pro,
          query: { underlying_symbols: ['SPY', 'QQQ', 'IWM'], exchange: ['ise', 'phlx'], limit: 100, cursor_id: cursor },
        })) as Page,
    );
    expect(ids(exchange.rows)).toEqual(
      ids(expected((x) => day(x) && roots('SPY', 'QQQ', 'IWM')(x) && ['ise', 'phlx'].includes(x.exchange))),
    );
    expect(exchange.pages.every((p) => p.data!.meta.coverage.scan_complete)).toBe(true);
    const atAsk = await walk(
      async (cursor) =>
        (await listOptionTrades({
          client: pro,
          query: { underlying_symbol: 'SPY', side: ['at_ask', 'mid'], limit: 100, cursor_id: cursor },
        })) as Page,
    );
    expect(ids(atAsk.rows)).toEqual(
      ids(expected((x) => day(x) && x.underlying_symbol === 'SPY' && (x.side === 'at_ask' || x.side === 'mid'))),
    );
    const nearBid = await walk(
      async (cursor) =>
        (await listOvernightOptionFlow({ client: pro, query: { side: ['near_bid', 'at_ask'], limit: 10, cursor_id: cursor } })) as Page,
    );
    expect(ids(nearBid.rows)).toEqual(ids(expected((x) => x.session === 'gth' && (x.side === 'near_bid' || x.side === 'at_ask'))));
  });

  it('ends the scan at its budget with scan_complete false and continues from where it stopped', async () => {
    const want = expected((x) => day(x) && x.exchange === 'bx');
    const walked = await walk(
      async (cursor) => (await listOptionFlow({ client: pro, query: { exchange: ['bx'], limit: 50, cursor_id: cursor } })) as Page,
    );
    expect(ids(walked.rows)).toEqual(ids(want));
    const first = walked.pages[0]!.data!;
    // A page the budget cut is not complete (meta.coverage.complete), on every page the walk meets.
    expect(first.meta.coverage).toEqual({ complete: false, scan_complete: false });
    for (const page of walked.pages) expect(page.data!.meta.coverage.complete).toBe(page.data!.meta.coverage.scan_complete);
    expect(walked.pages.some((p) => p.data!.meta.coverage.complete)).toBe(true);
    expect(first.pagination.has_more).toBe(true);
    expect(first.data.length).toBeLessThan(50);
    // Every print of the day is scanned once: pages = ceil(prints / budget).
    expect(walked.pages.length).toBe(Math.ceil(expected(day).length / SCAN_BUDGET));
    // A page that fills within the budget is complete.
    const filled = (await listOptionFlow({ client: pro, query: { exchange: ['cboe'], limit: 20 } })) as Page;
    expect(filled.data!.meta.coverage).toEqual({ complete: true, scan_complete: true });
    expect(filled.data!.data).toHaveLength(20);
  });

  it('limits to a window within one session, with or without date', async () => {
    const start = Date.parse('2026-11-20T15:00:00Z'); // 10:00 ET
    const end = Date.parse('2026-11-20T16:00:00Z');
    const inWindow = (x: Row) => day(x) && x.timestamp >= start && x.timestamp < end;
    const withDate = await walk(
      async (cursor) =>
        (await listOptionFlow({
          client: pro,
          query: { date: DAY, start_time: start, end_time: end, limit: 500, cursor_id: cursor },
        })) as Page,
    );
    expect(ids(withDate.rows)).toEqual(ids(expected(inWindow)));
    const fromStart = await walk(
      async (cursor) => (await listOptionFlow({ client: pro, query: { start_time: start, limit: 500, cursor_id: cursor } })) as Page,
    );
    expect(ids(fromStart.rows)).toEqual(ids(expected((x) => day(x) && x.timestamp >= start)));
    const untilEnd = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', end_time: end, limit: 5 } })) as Page;
    expect(ids(untilEnd.data!.data)).toEqual(
      ids(expected((x) => day(x) && x.underlying_symbol === 'SPY' && x.timestamp < end).slice(0, 5)),
    );
    // Overnight window of the date (20:15 ET Thursday to 09:25 ET Friday).
    const gthStart = Date.parse('2026-11-20T01:15:00Z');
    const gth = await walk(
      async (cursor) =>
        (await listOvernightOptionFlow({ client: pro, query: { start_time: gthStart, limit: 500, cursor_id: cursor } })) as Page,
    );
    expect(ids(gth.rows)).toEqual(ids(expected((x) => x.session === 'gth')));
  });

  it('answers 400 naming the parameters for every cross-parameter rule', async () => {
    type Call = (o: { client: Client; query: never }) => Promise<unknown>;
    const details = async (query: Record<string, unknown>, call: Call = listOptionTrades): Promise<string[]> => {
      const r = (await call({ client: pro, query: query as never })) as {
        response: Response;
        error?: { error: { code: string; details: { parameter: string }[] } };
      };
      expect(r.response.status, JSON.stringify(query)).toBe(400);
      expect(r.error?.error.code).toBe('invalid_parameter');
      return [...new Set(r.error!.error.details.map((d) => d.parameter))].sort();
    };
    expect(await details({})).toEqual(['underlying_symbol', 'underlying_symbols']);
    expect(await details({ underlying_symbol: 'SPY', underlying_symbols: ['QQQ'] })).toEqual(['underlying_symbol', 'underlying_symbols']);
    expect(await details({ underlying_symbol: 'SPY', min_dte: 5, max_dte: 1 })).toEqual(['max_dte', 'min_dte']);
    expect(
      await details({ underlying_symbol: 'SPY', min_premium: 5, max_premium: 1, min_size: 9, max_size: 2, min_strike: 9, max_strike: 2 }),
    ).toEqual(['max_premium', 'max_size', 'max_strike', 'min_premium', 'min_size', 'min_strike']);
    const t = Date.parse('2026-11-20T15:00:00Z');
    expect(await details({ underlying_symbol: 'SPY', start_time: t, end_time: t })).toEqual(['end_time', 'start_time']);
    // A window across sessions, outside the named date, or on a closed day.
    expect(await details({ underlying_symbol: 'SPY', date: DAY, start_time: t, end_time: t + 3 * 86_400_000 })).toEqual([
      'end_time',
      'start_time',
    ]);
    expect(await details({ underlying_symbol: 'SPY', date: PREVIOUS, start_time: t })).toEqual(['start_time']);
    expect(await details({ underlying_symbol: 'SPY', date: '2026-11-21', end_time: t })).toEqual(['end_time']);
    expect(await details({ start_time: Date.parse('2026-11-20T18:00:00Z') }, listOvernightOptionFlow as Call)).toEqual(['start_time']);
    // The regular session is 09:30 to 16:15 ET (issue 33 §6): a window from 08:00 to 12:00 ET, one over
    // two dates, and one after SPY's close leave it (400, not 200 or 422).
    const et = (time: string): number => Date.parse(`${DAY}T${time}:00-05:00`);
    expect(await details({ underlying_symbol: 'SPY', start_time: et('08:00'), end_time: et('12:00') })).toEqual(['end_time', 'start_time']);
    expect(await details({ underlying_symbol: 'SPY', start_time: et('10:00') - 86_400_000, end_time: et('10:00') })).toEqual([
      'end_time',
      'start_time',
    ]);
    expect(await details({ underlying_symbol: 'SPY', date: DAY, start_time: et('16:30'), end_time: et('17:00') })).toEqual([
      'end_time',
      'start_time',
    ]);
    // Instants at the edges of the schema's bounds lie outside the exchange calendar: 400, not 500.
    expect(await details({ underlying_symbol: 'SPY', start_time: 946684800000 })).toEqual(['start_time']);
    expect(await details({ end_time: 4102444800000, session: 'all' }, listOptionFlow as Call)).toEqual(['end_time']);
    expect(await details({ date: '2035-12-31', start_time: 2082988800000 }, listOvernightOptionFlow as Call)).toEqual(['start_time']);
    // The schema's own rules arrive first, from the validator.
    expect(await details({ underlying_symbol: 'SPY', limit: 501, side: ['sideways'] })).toEqual(['limit', 'side']);
    expect(await details({ side: ['at_ask'] }, listOptionFlow as Call)).toEqual(['side']);
  });

  it('rejects tampered, foreign and expired cursors with 400 invalid_cursor', async () => {
    const first = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', limit: 5 } })) as Page;
    const cursor = first.data!.pagination.next_cursor_id!;
    const code = async (query: Record<string, unknown>): Promise<[number, string | undefined]> => {
      const r = (await listOptionTrades({ client: pro, query: query })) as { response: Response; error?: { error: { code: string } } };
      return [r.response.status, r.error?.error.code];
    };
    const [body, signature] = cursor.split('.') as [string, string];
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { p: { t: number } };
    decoded.p.t += 1;
    const altered = `${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${signature}`;
    expect(await code({ underlying_symbol: 'SPY', limit: 5, cursor_id: altered })).toEqual([400, 'invalid_cursor']);
    expect(await code({ underlying_symbol: 'SPY', limit: 5, cursor_id: 'garbage' })).toEqual([400, 'invalid_cursor']);
    expect(await code({ underlying_symbol: 'QQQ', limit: 5, cursor_id: cursor })).toEqual([400, 'invalid_cursor']);
    expect(await code({ underlying_symbol: 'SPY', limit: 5, cursor_id: cursor })).toEqual([200, undefined]);
    nowMs = MARKET_NOW + 23 * 3_600_000;
    expect(await code({ underlying_symbol: 'SPY', limit: 5, cursor_id: cursor })).toEqual([200, undefined]);
    nowMs = MARKET_NOW + 24 * 3_600_000 + 1000;
    try {
      expect(await code({ underlying_symbol: 'SPY', limit: 5, cursor_id: cursor })).toEqual([400, 'invalid_cursor']);
    } finally {
      nowMs = MARKET_NOW;
    }
  });

  it('serves overnight prints only with the entitlement: session gth and all, and flow/overnight', async () => {
    const gth = await walk(
      async (cursor) =>
        (await listOptionTrades({
          client: pro,
          query: { underlying_symbol: 'SPX', session: 'gth', limit: 500, cursor_id: cursor },
        })) as Page,
    );
    const wantGth = expected((x) => x.session === 'gth' && roots('SPX', 'SPXW')(x));
    expect(wantGth.length).toBeGreaterThan(0);
    expect(ids(gth.rows)).toEqual(ids(wantGth));
    const both = await walk(
      async (cursor) =>
        (await listOptionTrades({
          client: pro,
          query: { underlying_symbol: 'SPX', session: 'all', limit: 500, cursor_id: cursor },
        })) as Page,
    );
    expect(ids(both.rows)).toEqual(ids(expected(roots('SPX', 'SPXW'))));
    const overnight = await walk(
      async (cursor) => (await listOvernightOptionFlow({ client: pro, query: { limit: 500, cursor_id: cursor } })) as Page,
    );
    expect(ids(overnight.rows)).toEqual(ids(expected((x) => x.session === 'gth')));
    const narrowed = await walk(
      async (cursor) =>
        (await listOvernightOptionFlow({ client: pro, query: { underlying_symbols: ['SPXW'], limit: 500, cursor_id: cursor } })) as Page,
    );
    expect(ids(narrowed.rows)).toEqual(ids(expected((x) => x.session === 'gth' && x.underlying_symbol === 'SPXW')));
    for (const r of [
      await listOptionTrades({ client: basic, query: { underlying_symbol: 'SPX', session: 'gth' } }),
      await listOptionFlow({ client: basic, query: { session: 'all' } }),
      await listOvernightOptionFlow({ client: basic }),
    ]) {
      expect(r.response.status).toBe(403);
    }
    expect((await listOptionTrades({ client: basic, query: { underlying_symbol: 'SPX' } })).response.status).toBe(200);
    // A root without an overnight session has no gth prints.
    expect((await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', session: 'gth' } })).response.status).toBe(422);
  });

  it('defaults the overnight session to the one in progress (it belongs to the next trading date)', async () => {
    // Sunday 2026-11-22 21:00 ET: Monday's overnight session is running; none of its prints are loaded.
    nowMs = Date.parse('2026-11-23T02:00:00Z');
    try {
      const r = await listOvernightOptionFlow({ client: pro });
      expect(r.response.status).toBe(422);
      expect((r.error as { error: { message: string } }).error.message).toContain('2026-11-23');
      // The regular session defaults to the last completed one (Friday).
      const rth = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', limit: 1 } })) as Page;
      expect(rth.data!.data[0]!.id).toContain(`:${DAY}:`);
    } finally {
      nowMs = MARKET_NOW;
    }
  });

  it('answers 422 no_data when nothing matches and 200 on another loaded date', async () => {
    for (const query of [
      { underlying_symbol: 'SPY', date: '2026-11-18' },
      { underlying_symbol: 'NOPE' },
      { underlying_symbol: 'SPY', min_premium: 999_999_999_999 },
      { underlying_symbol: 'SPY', date: '2026-12-01' },
    ]) {
      const r = (await listOptionTrades({ client: pro, query })) as { response: Response; error?: { error: { code: string } } };
      expect(r.response.status, JSON.stringify(query)).toBe(422);
      expect(r.error?.error.code).toBe('no_data');
    }
    const previous = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', date: PREVIOUS, limit: 3 } })) as Page;
    expect(previous.data!.data.every((r) => r.id.includes(`:${PREVIOUS}:`))).toBe(true);
  });

  describe('premium drift', () => {
    const ASK = ['above_ask', 'at_ask', 'near_ask'];
    const BID = ['near_bid', 'at_bid', 'below_bid'];
    const signed = (r: Row): number => (ASK.includes(r.side) ? r.premium : BID.includes(r.side) ? -r.premium : 0);
    const simple = (r: Row): boolean => r.trade_type !== 'multileg' && !r.flags.includes('complex');
    /** Cumulative drift expected at the end of each bucket from the stored prints. */
    const expectDrift = (pred: (r: Row) => boolean, start: number, step: number, count: number) => {
      const out: { call: number; put: number }[] = [];
      for (let i = 0; i < count; i += 1) {
        const end = start + (i + 1) * step;
        const rows = all.filter((r) => pred(r) && r.timestamp >= start && r.timestamp < end);
        out.push({
          call: rows.filter((r) => r.contract_type === 'call').reduce((a, r) => a + signed(r), 0),
          put: rows.filter((r) => r.contract_type === 'put').reduce((a, r) => a + signed(r), 0),
        });
      }
      return out;
    };
    const OPEN = Date.parse('2026-11-20T14:30:00Z');

    it('accumulates ask-side minus bid-side premium by bucket from the open to the close, without complex prints by default', async () => {
      const r = await getPremiumDrift({ client: pro, query: { underlying_symbol: 'SPY' } });
      expect(r.response.status).toBe(200);
      expect(r.data!.meta.source).toBe('opra');
      const rows = r.data!.data;
      // SPY closes at 16:15 ET: 81 five-minute buckets.
      expect(rows.map((x) => x.timestamp)).toEqual(Array.from({ length: 81 }, (_, i) => OPEN + i * 300_000));
      const want = expectDrift((x) => day(x) && x.underlying_symbol === 'SPY' && simple(x), OPEN, 300_000, 81);
      rows.forEach((row, i) => {
        expect(row.call_drift).toBeCloseTo(want[i]!.call, 4);
        expect(row.put_drift).toBeCloseTo(want[i]!.put, 4);
        expect(row.sentiment_drift).toBeCloseTo(want[i]!.call - want[i]!.put, 4);
      });
      expect(rows.filter((x) => x.underlying_price !== null).length).toBeGreaterThan(70);
      expect(want.at(-1)!.call).not.toBe(0);
      // With complex prints and the whole family: the regular session's 27 buckets to 16:15 ET, the
      // curb left to all (whose grid runs from 20:15 ET the evening before to the curb's end at 17:00 ET: 83).
      const family = await getPremiumDrift({ client: pro, query: { underlying_symbol: 'SPX', include_complex: true, interval: '15m' } });
      expect(family.data!.data).toHaveLength(27);
      const wantFamily = expectDrift((x) => day(x) && roots('SPX', 'SPXW')(x), OPEN, 900_000, 27);
      family.data!.data.forEach((row, i) => expect(row.call_drift).toBeCloseTo(wantFamily[i]!.call, 4));
      const night = Date.parse('2026-11-20T01:15:00Z');
      const whole = await getPremiumDrift({
        client: pro,
        query: { underlying_symbol: 'SPX', include_complex: true, interval: '15m', session: 'all' },
      });
      expect(whole.data!.data).toHaveLength(83);
      const wantWhole = expectDrift((x) => roots('SPX', 'SPXW')(x), night, 900_000, 83);
      whole.data!.data.forEach((row, i) => expect(row.call_drift).toBeCloseTo(wantWhole[i]!.call, 4));
      expect(all.some((x) => x.session === 'curb' && roots('SPX', 'SPXW')(x) && signed(x) !== 0)).toBe(true);
    });

    it('applies the trades filters, the window, and leaves out buckets not started', async () => {
      const asked = await getPremiumDrift({
        client: pro,
        query: { underlying_symbol: 'QQQ', side: ['ask'], contract_type: 'call', min_size: 2, interval: '1h' },
      });
      const rows = asked.data!.data;
      const want = expectDrift(
        (x) =>
          day(x) &&
          x.underlying_symbol === 'QQQ' &&
          simple(x) &&
          x.contract_type === 'call' &&
          x.size >= 2 &&
          ['at_ask', 'near_ask'].includes(x.side),
        OPEN,
        3_600_000,
        7,
      );
      expect(rows.map((x) => x.call_drift)).toEqual(want.map((w) => expect.closeTo(w.call, 4) as unknown));
      expect(rows.every((x) => x.put_drift === 0)).toBe(true);
      const start = OPEN + 3_600_000 + 120_000;
      const end = OPEN + 2 * 3_600_000;
      const windowed = await getPremiumDrift({
        client: pro,
        query: { underlying_symbol: 'SPY', start_time: start, end_time: end, interval: '30m' },
      });
      expect(windowed.data!.data.map((x) => x.timestamp)).toEqual([OPEN + 3_600_000, OPEN + 5_400_000]);
      const inWindow = all.filter(
        (x) =>
          day(x) && x.underlying_symbol === 'SPY' && simple(x) && x.timestamp >= start && x.timestamp < end && x.contract_type === 'call',
      );
      expect(windowed.data!.data[1]!.call_drift).toBeCloseTo(
        inWindow.reduce((a, r) => a + signed(r), 0),
        4,
      );
      nowMs = Date.parse('2026-11-20T17:00:00Z'); // 12:00 ET
      try {
        const partial = await getPremiumDrift({ client: pro, query: { underlying_symbol: 'SPY', interval: '30m' } });
        expect(partial.data!.data.map((x) => x.timestamp).at(-1)).toBe(OPEN + 5 * 1_800_000);
      } finally {
        nowMs = MARKET_NOW;
      }
    });

    it('covers the overnight session with the entitlement, and answers 400 and 422 by the trades rules', async () => {
      const gth = await getPremiumDrift({
        client: pro,
        query: { underlying_symbol: 'SPX', session: 'gth', interval: '1h', include_complex: true },
      });
      expect(gth.response.status).toBe(200);
      expect(gth.data!.data[0]!.timestamp).toBe(Date.parse('2026-11-20T01:15:00Z'));
      const wantGth = all.filter((x) => x.session === 'gth').reduce((a, r) => a + (r.contract_type === 'call' ? signed(r) : 0), 0);
      expect(gth.data!.data.at(-1)!.call_drift).toBeCloseTo(wantGth, 4);
      expect((await getPremiumDrift({ client: basic, query: { underlying_symbol: 'SPX', session: 'gth' } })).response.status).toBe(403);
      const bad = await getPremiumDrift({
        client: pro,
        query: { underlying_symbol: 'SPY', min_strike: 600, max_strike: 500, start_time: Date.parse('2026-11-19T15:00:00Z'), date: DAY },
      });
      expect(bad.response.status).toBe(400);
      expect((bad.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort()).toEqual([
        'max_strike',
        'min_strike',
        'start_time',
      ]);
      expect((await getPremiumDrift({ client: pro, query: { underlying_symbol: 'SPY', side: ['at_ask'] as never } })).response.status).toBe(
        400,
      );
      expect((await getPremiumDrift({ client: pro, query: {} as never })).response.status).toBe(400);
      for (const query of [
        { underlying_symbol: 'NOPE' },
        { underlying_symbol: 'SPY', date: '2026-11-18' },
        { underlying_symbol: 'SPY', date: '2026-11-21' },
      ]) {
        expect((await getPremiumDrift({ client: pro, query })).response.status, JSON.stringify(query)).toBe(422);
      }
    });
  });

  describe('flow leaders', () => {
    const simple = (r: Row): boolean => r.trade_type !== 'multileg' && !r.flags.includes('complex');
    const underlyingOf = (root: string): string => optionRoot(root)?.underlying ?? root;
    const totals = (pred: (r: Row) => boolean) => {
      const by = new Map<
        string,
        { premium: number; volume: number; bullish: number; bearish: number; neutral: number; calls: number; puts: number; trades: number }
      >();
      for (const r of all.filter(pred)) {
        const u = underlyingOf(r.underlying_symbol);
        const t = by.get(u) ?? { premium: 0, volume: 0, bullish: 0, bearish: 0, neutral: 0, calls: 0, puts: 0, trades: 0 };
        t.premium += r.premium;
        t.volume += r.size;
        t.trades += 1;
        if (r.sentiment === 'bullish') t.bullish += r.premium;
        if (r.sentiment === 'bearish') t.bearish += r.premium;
        if (r.sentiment === 'neutral') t.neutral += r.premium;
        if (r.contract_type === 'call') t.calls += r.size;
        else t.puts += r.size;
        by.set(u, t);
      }
      return by;
    };

    it('ranks underlyings by net premium with their shares of the market, and by every other key', async () => {
      const r = await listFlowLeaders({ client: pro });
      expect(r.response.status).toBe(200);
      expect(r.data!.meta.source).toBe('opra');
      const rows = r.data!.data as RootLeaderRow[];
      const want = totals((x) => day(x) && simple(x));
      expect(rows.map((x) => x.underlying_symbol).sort()).toEqual([...want.keys()].sort());
      expect(rows.map((x) => x.underlying_symbol)).toEqual(
        [...want.entries()].sort((a, b) => b[1].bullish - b[1].bearish - (a[1].bullish - a[1].bearish)).map(([u]) => u),
      );
      const totalPremium = [...want.values()].reduce((a, t) => a + t.premium, 0);
      for (const row of rows) {
        const t = want.get(row.underlying_symbol)!;
        expect(Object.keys(row)).toHaveLength(13);
        expect(row).toMatchObject({ volume: t.volume, trades: t.trades, call_volume: t.calls, put_volume: t.puts });
        expect(row.premium).toBeCloseTo(t.premium, 4);
        expect(row.bullish_premium).toBeCloseTo(t.bullish, 4);
        expect(row.bearish_premium).toBeCloseTo(t.bearish, 4);
        expect(row.neutral_premium).toBeCloseTo(t.neutral, 4);
        expect(row.bearish_to_bullish_ratio).toBeCloseTo(t.bearish / t.bullish, 8);
        expect(row.premium_share).toBeCloseTo(t.premium / totalPremium, 8);
      }
      expect(rows.reduce((a, x) => a + x.trades_share, 0)).toBeCloseTo(1, 8);
      for (const [sort, key] of [
        ['premium', 'premium'],
        ['volume', 'volume'],
        ['trades', 'trades'],
        ['bullish', 'bullish'],
        ['bearish', 'bearish'],
      ] as const) {
        const ranked = await listFlowLeaders({ client: pro, query: { sort, order: 'asc', limit: 3 } });
        expect(
          ranked.data!.data.map((x) => x.underlying_symbol),
          sort,
        ).toEqual(
          [...want.entries()]
            .sort((a, b) => a[1][key] - b[1][key])
            .slice(0, 3)
            .map(([u]) => u),
        );
      }
      const complex = await listFlowLeaders({ client: pro, query: { include_complex: true, sort: 'trades', limit: 200 } });
      const wantComplex = totals(day);
      for (const row of complex.data!.data) expect((row as { trades: number }).trades).toBe(wantComplex.get(row.underlying_symbol)!.trades);
    });

    it('keeps the rows whose own premium reaches min_premium, every print counted, shares of the whole market', async () => {
      const want = totals((x) => day(x) && simple(x));
      const premiums = [...want.values()].map((t) => t.premium).sort((a, b) => a - b);
      expect(premiums.length).toBeGreaterThan(2);
      // Halfway between two underlyings' totals: some rows kept, some left out.
      const middle = Math.floor(premiums.length / 2);
      const minimum = Math.round((premiums[middle - 1]! + premiums[middle]!) / 2);
      const r = await listFlowLeaders({ client: pro, query: { sort: 'premium', min_premium: minimum, limit: 200 } });
      expect(r.response.status).toBe(200);
      const rows = r.data!.data as RootLeaderRow[];
      const kept = [...want.entries()].filter(([, t]) => t.premium >= minimum);
      expect(rows.map((x) => x.underlying_symbol)).toEqual(kept.sort((a, b) => b[1].premium - a[1].premium).map(([u]) => u));
      const totalPremium = [...want.values()].reduce((a, t) => a + t.premium, 0);
      for (const row of rows) {
        const t = want.get(row.underlying_symbol)!;
        // Every print of the row, those below the minimum included.
        expect(row.trades).toBe(t.trades);
        expect(row.premium).toBeCloseTo(t.premium, 4);
        expect(row.premium_share).toBeCloseTo(t.premium / totalPremium, 8);
      }
      // Contract grain: a contract's session premium, all its prints counted.
      const byContract = new Map<string, number>();
      for (const x of all.filter((y) => day(y) && simple(y) && y.underlying_symbol === 'IWM')) {
        const k = `${x.date_of_expiry}|${x.contract_type}|${x.strike}`;
        byContract.set(k, (byContract.get(k) ?? 0) + x.premium);
      }
      const contractPremiums = [...byContract.values()].sort((a, b) => a - b);
      const contractMinimum = Math.round(contractPremiums[Math.floor(contractPremiums.length / 2)]!) + 0.5;
      const wantContracts = [...byContract.entries()].filter(([, p]) => p >= contractMinimum);
      expect(wantContracts.length).toBeGreaterThan(0);
      expect(wantContracts.length).toBeLessThan(byContract.size);
      expect(wantContracts.length).toBeLessThanOrEqual(200);
      const iwm = await listFlowLeaders({
        client: pro,
        query: { grain: 'contract', sort: 'premium', underlying_symbols: ['IWM'], min_premium: contractMinimum, limit: 200 },
      });
      const served = iwm.data!.data as ContractLeaderRow[];
      expect(served.map((x) => `${x.date_of_expiry}|${x.contract_type}|${x.strike}`).sort()).toEqual(wantContracts.map(([k]) => k).sort());
      for (const row of served)
        expect(row.premium).toBeCloseTo(byContract.get(`${row.date_of_expiry}|${row.contract_type}|${row.strike}`)!, 4);
    });

    it('ranks contracts by change from the previous close, premium or volume, narrowed by underlying_symbols', async () => {
      const previous = (await printBodies(service.database.admin, PREVIOUS)).map((b) => JSON.parse(b) as Row);
      const key = (r: Row) => `${r.underlying_symbol}|${r.date_of_expiry}|${r.contract_type}|${r.strike}`;
      const lastOf = (rows: Row[]) => {
        const m = new Map<string, Row>();
        for (const r of [...rows].sort((a, b) => a.timestamp - b.timestamp || sequenceOf(a) - sequenceOf(b))) m.set(key(r), r);
        return m;
      };
      const closes = lastOf(previous.filter((r) => r.session === 'rth'));
      const today = all.filter((x) => day(x) && simple(x));
      const lasts = lastOf(today);
      const r = await listFlowLeaders({ client: pro, query: { grain: 'contract', limit: 200 } });
      expect(r.response.status).toBe(200);
      const rows = r.data!.data as ContractLeaderRow[];
      expect(rows.length).toBeGreaterThan(10);
      // Descending change, contracts without a previous close (change null) after those with one.
      const changes = rows.map((x) => x.change_percent);
      const firstWithout = changes.indexOf(null);
      const withChange = (firstWithout < 0 ? changes : changes.slice(0, firstWithout)) as number[];
      for (let i = 1; i < withChange.length; i += 1) expect(withChange[i - 1]).toBeGreaterThanOrEqual(withChange[i]!);
      if (firstWithout >= 0) expect(changes.slice(firstWithout).every((x) => x === null)).toBe(true);
      const check = (row: ContractLeaderRow) => {
        expect(Object.keys(row)).toHaveLength(11);
        const k = `${row.underlying_symbol}|${row.date_of_expiry}|${row.contract_type}|${row.strike}`;
        const last = lasts.get(k)!;
        const close = closes.get(k);
        expect(row.last_price).toBe(last.price);
        expect(row.previous_close).toBe(close?.price ?? null);
        if (close) expect(row.change_percent).toBeCloseTo(((last.price - close.price) / close.price) * 100, 8);
        else expect(row.change_percent).toBeNull();
        expect(row.volume).toBe(today.filter((x) => key(x) === k).reduce((a, x) => a + x.size, 0));
        expect(row.open_interest).toBe(last.open_interest);
        expect(row.implied_volatility).toBe(last.implied_volatility);
      };
      for (const row of rows) check(row);
      const byVolume = await listFlowLeaders({
        client: pro,
        query: { grain: 'contract', sort: 'volume', underlying_symbols: ['SPX'], limit: 5 },
      });
      const vols = byVolume.data!.data.map((x) => x.volume);
      expect(vols).toEqual([...vols].sort((a, b) => b - a));
      expect(byVolume.data!.data.every((x) => ['SPX', 'SPXW'].includes(x.underlying_symbol))).toBe(true);
      // Every contract of a root that traded is ranked, those without a previous close included
      // (with those fields null): a root of at most 200 contracts, some of them not traded the day before.
      const contractsOf = (root: string) => [...lasts.keys()].filter((k) => k.startsWith(`${root}|`));
      const root = [...new Set(today.map((x) => x.underlying_symbol))].find(
        (x) => contractsOf(x).length <= 200 && contractsOf(x).some((k) => !closes.has(k)),
      );
      expect(root).toBeDefined();
      const contracts = contractsOf(root!);
      const ranked = await listFlowLeaders({ client: pro, query: { grain: 'contract', underlying_symbols: [root!], limit: 200 } });
      const served = ranked.data!.data as ContractLeaderRow[];
      expect(served.map((x) => `${x.underlying_symbol}|${x.date_of_expiry}|${x.contract_type}|${x.strike}`).sort()).toEqual(
        contracts.sort(),
      );
      for (const row of served) check(row);
      expect(served.filter((x) => x.previous_close === null)).toHaveLength(contracts.filter((k) => !closes.has(k)).length);
    });

    it('answers 400 for a sort of the other grain or underlying_symbols with root grain, 403 overnight without entitlement, 422 without data or rows', async () => {
      const names = async (query: Record<string, unknown>) => {
        const r = await listFlowLeaders({ client: pro, query: query });
        expect(r.response.status, JSON.stringify(query)).toBe(400);
        return (r.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort();
      };
      expect(await names({ grain: 'contract', sort: 'trades' })).toEqual(['sort']);
      expect(await names({ sort: 'change_percent' })).toEqual(['sort']);
      expect(await names({ underlying_symbols: ['SPY'] })).toEqual(['underlying_symbols']);
      expect(await names({ grain: 'root', sort: 'change_percent', underlying_symbols: ['SPY'] })).toEqual(['sort', 'underlying_symbols']);
      expect(await names({ limit: 201 })).toEqual(['limit']);
      expect((await listFlowLeaders({ client: basic, query: { session: 'gth' } })).response.status).toBe(403);
      expect((await listFlowLeaders({ client: pro, query: { session: 'gth' } })).data!.data.map((x) => x.underlying_symbol)).toEqual([
        'SPX',
      ]);
      expect((await listFlowLeaders({ client: pro, query: { date: '2026-11-18' } })).response.status).toBe(422);
      // The session before is not held: every contract is served without a previous close.
      const noPrevious = await listFlowLeaders({ client: pro, query: { grain: 'contract', date: PREVIOUS, limit: 200 } });
      expect(noPrevious.response.status).toBe(200);
      expect(noPrevious.data!.data.length).toBeGreaterThan(10);
      expect(
        noPrevious.data!.data.every(
          (x) => (x as ContractLeaderRow).previous_close === null && (x as ContractLeaderRow).change_percent === null,
        ),
      ).toBe(true);
      // A minimum no row reaches: 422.
      expect((await listFlowLeaders({ client: pro, query: { min_premium: 1e12 } })).response.status).toBe(422);
    });
  });

  it('exports the feeds page by page, and refuses export queries that break a cross-parameter rule', async () => {
    const refused = await createExport({
      client: pro,
      body: { path: '/v1/options/trades', query: { underlying_symbol: 'SPY', underlying_symbols: 'QQQ', min_size: 5, max_size: 2 } },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error?.error.details.map((d) => d.parameter).sort()).toEqual([
      'query.max_size',
      'query.min_size',
      'query.underlying_symbol',
      'query.underlying_symbols',
    ]);
    const leaders = await createExport({
      client: pro,
      body: { path: '/v1/options/flow/leaders', query: { grain: 'contract', sort: 'net' } },
    });
    expect(leaders.error?.error.details.map((d) => d.parameter)).toEqual(['query.sort']);
    const iv = await createExport({
      client: pro,
      body: {
        path: '/v1/options/contract/implied-volatility',
        query: { underlying_symbol: 'SPY', contract_type: 'call', strike: 600, date_of_expiry: DAY, date: DAY, end_time: MARKET_NOW },
      },
    });
    expect(iv.error?.error.details.map((d) => d.parameter)).toEqual(['query.date', 'query.end_time']);
    const created = await createExport({
      client: pro,
      body: { path: '/v1/options/trades', query: { underlying_symbol: 'IWM', side: 'ask,mid', limit: 100_000 } },
    });
    expect(created.response.status).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 20_000 });
    const job = (await getExport({ client: pro, path: { id } })).data?.data;
    const want = expected((x) => day(x) && x.underlying_symbol === 'IWM' && ['at_ask', 'near_ask', 'mid'].includes(x.side));
    expect(job).toMatchObject({ status: 'ready', rows: want.length, truncated: false });
    const file = await downloadExport({ client: pro, path: { id } });
    expect(ids((file.data as { data: Row[] }).data)).toEqual(ids(want));
  });

  it('answers 503 data_pending for an archived session, loads it once, then answers 200', async () => {
    const db = service.database.admin;
    const before = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', date: PREVIOUS, limit: 500 } })) as Page;
    // The Friday after Thanksgiving, evening: the hot window is Nov 20 to 27; Nov 19 is archived.
    expect(await enforceRetention(db, { archiveRoot: path.join(dataDir, 'archive'), now: Date.parse('2026-11-28T03:00:00Z') })).toEqual([
      PREVIOUS,
    ]);
    expect(await sessionState(db, PREVIOUS)).toBe('archived');
    const pending = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', date: PREVIOUS, limit: 500 } })) as {
      response: Response;
      error?: { error: { code: string; retry_after_ms: number } };
    };
    expect(pending.response.status).toBe(503);
    expect(pending.error?.error.code).toBe('data_pending');
    expect(pending.error?.error.retry_after_ms).toBe(5000);
    expect(pending.response.headers.get('retry-after')).toBe('5');
    // The 503 queued the load: once its job has run, the session answers as before.
    expect((await settledJob(db, sessionLoad.name, PREVIOUS, { timeoutMs: 50_000 })).state).toBe('completed');
    const after = (await listOptionTrades({ client: pro, query: { underlying_symbol: 'SPY', date: PREVIOUS, limit: 500 } })) as Page;
    expect(after.response.status).toBe(200);
    expect(ids(after.data!.data)).toEqual(ids(before.data!.data));
  });
});
