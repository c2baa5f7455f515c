import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getMarketCalendarDay, listMarketSessions, listOptionOvernightSessions, listStockSplits } from '../../generated/client/index.js';
import { countSplits } from '../../src/db/splits.js';
import { loadSplitsFile } from '../../src/ingest/splits.js';
import { startTestService, type TestService } from '../support/service.js';

const ET = (iso: string) => Date.parse(iso);

describe('market calendar and sessions', () => {
  let service: TestService;
  let client: Awaited<ReturnType<TestService['newAccount']>>['client'];
  beforeAll(async () => {
    service = await startTestService({ env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' } });
    ({ client } = await service.newAccount());
  });
  afterAll(async () => service.stop());

  it('tells open, early-close and closed days with their times', async () => {
    const open = await getMarketCalendarDay({ client, query: { date: '2024-03-11' } });
    expect(open.data?.data).toEqual({
      date: '2024-03-11',
      status: 'open',
      open_timestamp: ET('2024-03-11T13:30:00Z'),
      close_timestamp: ET('2024-03-11T20:00:00Z'),
      options_close_timestamp: ET('2024-03-11T20:15:00Z'),
      reason: null,
    });
    const early = await getMarketCalendarDay({ client, query: { date: '2024-11-29' } });
    expect(early.data?.data).toMatchObject({
      status: 'early_close',
      close_timestamp: ET('2024-11-29T18:00:00Z'),
      options_close_timestamp: ET('2024-11-29T18:15:00Z'),
    });
    const holiday = await getMarketCalendarDay({ client, query: { date: '2022-06-20' } });
    expect(holiday.data?.data).toMatchObject({ status: 'closed', open_timestamp: null, close_timestamp: null });
    expect(holiday.data?.data.reason).toMatch(/Juneteenth/);
    const outOfRange = await getMarketCalendarDay({ client, query: { date: '1999-12-31' } });
    expect(outOfRange.response.status).toBe(400);
    // The calendar's span, 2000-01-01 through 2035-12-31, bounds the date parameter.
    expect((await getMarketCalendarDay({ client, query: { date: '2035-12-31' } })).data?.data).toMatchObject({ date: '2035-12-31' });
    expect((await getMarketCalendarDay({ client, query: { date: '2036-01-01' } })).response.status).toBe(400);
    expect((await listMarketSessions({ client, query: { date: '2036-01-02' } })).response.status).toBe(400);
  });

  it('defaults to today in New York', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
    const r = await getMarketCalendarDay({ client });
    expect(r.data?.data.date).toBe(today);
  });

  it('gives the session windows of a trading date, filtered by asset', async () => {
    const all = await listMarketSessions({ client, query: { date: '2024-07-03' } });
    const rows = all.data?.data ?? [];
    expect(rows.map((s) => `${s.asset}.${s.session}`)).toEqual([
      'stocks.pre_market',
      'stocks.regular',
      'stocks.after_hours',
      'options.overnight',
      'options.regular',
      'futures.globex',
    ]);
    expect(rows.every((s) => s.status === 'early_close' && s.trading_date === '2024-07-03')).toBe(true);
    const regular = rows.find((s) => s.asset === 'stocks' && s.session === 'regular');
    expect(regular).toMatchObject({ start_time: ET('2024-07-03T13:30:00Z'), end_time: ET('2024-07-03T17:00:00Z') });
    const options = await listMarketSessions({ client, query: { date: '2024-07-08', asset: 'options' } });
    expect(options.data?.data.map((s) => [s.session, s.start_time, s.end_time])).toEqual([
      ['overnight', ET('2024-07-08T00:15:00Z'), ET('2024-07-08T13:25:00Z')],
      ['regular', ET('2024-07-08T13:30:00Z'), ET('2024-07-08T20:15:00Z')],
      ['curb', ET('2024-07-08T20:15:00Z'), ET('2024-07-08T21:00:00Z')],
    ]);
    const weekend = await listMarketSessions({ client, query: { date: '2024-07-06' } });
    expect(weekend.data?.data).toEqual([]);
  });

  it('lists the roots with an overnight session and their windows', async () => {
    const r = await listOptionOvernightSessions({ client, query: { date: '2024-07-08' } });
    const roots = r.data?.data ?? [];
    expect(roots.map((x) => x.root)).toEqual(['SPX', 'SPXW', 'XSP', 'VIX', 'VIXW']);
    expect(roots[1]).toMatchObject({ family: 'SPX', underlying_symbol: 'SPX', trading_date: '2024-07-08' });
    expect(roots[0]?.sessions.map((s) => s.session)).toEqual(['overnight', 'regular', 'curb']);
  });
});

describe('stock splits', () => {
  let service: TestService;
  let client: Awaited<ReturnType<TestService['newAccount']>>['client'];
  beforeAll(async () => {
    service = await startTestService({ env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' } });
    ({ client } = await service.newAccount());
  });
  afterAll(async () => service.stop());

  it('is seeded with real splits, newest first, typed by ratio', async () => {
    const r = await listStockSplits({ client, query: { symbol: 'aapl' } });
    expect(r.data?.data.map((s) => [s.execution_date, s.split_from, s.split_to, s.type])).toEqual([
      ['2020-08-31', 1, 4, 'forward'],
      ['2014-06-09', 1, 7, 'forward'],
      ['2005-02-28', 1, 2, 'forward'],
      ['2000-06-21', 1, 2, 'forward'],
    ]);
    expect(r.data?.data[0]?.id).toBe('AAPL:2020-08-31');
    const reverse = await listStockSplits({ client, query: { symbol: 'C' } });
    expect(reverse.data?.data[0]).toMatchObject({ execution_date: '2011-05-09', split_from: 10, split_to: 1, type: 'reverse' });
  });

  it('applies inclusive execution-date bounds', async () => {
    const r = await listStockSplits({ client, query: { start_execution_date: '2020-08-31', end_execution_date: '2020-08-31' } });
    expect(r.data?.data.map((s) => s.symbol).sort()).toEqual(['AAPL', 'TSLA']);
  });

  it('takes execution dates older than the exchange calendar, from 1970-01-01', async () => {
    const all = await listStockSplits({ client, query: { symbol: 'AAPL' } });
    const since1970 = await listStockSplits({
      client,
      query: { symbol: 'AAPL', start_execution_date: '1970-01-01', end_execution_date: '2099-12-31' },
    });
    expect(since1970.response.status).toBe(200);
    expect(since1970.data?.data).toEqual(all.data?.data);
    const before2000 = await listStockSplits({ client, query: { symbol: 'AAPL', end_execution_date: '1999-12-31' } });
    expect(before2000.response.status).toBe(422);
    expect((await listStockSplits({ client, query: { start_execution_date: '1969-12-31' } })).response.status).toBe(400);
  });

  it('walks every split exactly once with any page size, then ends', async () => {
    const total = await countSplits(service.database.admin);
    for (const limit of [1, 7, 50, 999]) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 200; page += 1) {
        const r = await listStockSplits({ client, query: { limit, ...(cursor ? { cursor_id: cursor } : {}) } });
        expect(r.response.status).toBe(200);
        const p = r.data?.pagination;
        seen.push(...(r.data?.data ?? []).map((s) => s.id));
        expect(p?.count).toBe(r.data?.data.length);
        expect(p?.limit).toBe(limit);
        if (!p?.has_more) {
          expect(p?.next_cursor_id).toBeNull();
          expect(p?.next_url).toBeNull();
          break;
        }
        expect(p.next_url).toContain(`cursor_id=${encodeURIComponent(p.next_cursor_id ?? '')}`);
        cursor = p.next_cursor_id ?? undefined;
      }
      expect(seen.length).toBe(total);
      expect(new Set(seen).size).toBe(total);
      const dates = seen.map((id) => id.split(':')[1] ?? '');
      expect([...dates].sort().reverse()).toEqual(dates);
    }
  });

  it('refuses altered cursors and cursors of another query', async () => {
    const first = await listStockSplits({ client, query: { limit: 2 } });
    const cursor = first.data?.pagination.next_cursor_id ?? '';
    const altered = `${cursor.slice(0, -2)}${cursor.endsWith('A') ? 'B' : 'A'}A`;
    const bad = await listStockSplits({ client, query: { limit: 2, cursor_id: altered } });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error.code).toBe('invalid_cursor');
    const otherQuery = await listStockSplits({ client, query: { limit: 3, cursor_id: cursor } });
    expect(otherQuery.response.status).toBe(400);
  });

  it('answers 422 for a symbol without splits and 400 for a malformed one', async () => {
    const none = await listStockSplits({ client, query: { symbol: 'ZZZZ' } });
    expect(none.response.status).toBe(422);
    expect(none.error?.error.code).toBe('no_data');
    for (const symbol of ['TOOLONGX', 'A.TOOLONG', '1ABC', 'AB-C']) {
      expect((await listStockSplits({ client, query: { symbol } })).response.status, symbol).toBe(400);
    }
    expect((await listStockSplits({ client, query: { symbol: 'BRK.B' } })).response.status).not.toBe(400);
  });

  it('loads a splits file idempotently and rejects bad rows with line and reason', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'splits-'));
    const file = path.join(dir, 'splits.csv');
    fs.writeFileSync(
      file,
      [
        '# test file',
        'symbol,execution_date,split_from,split_to',
        'ZZZQ,2024-06-10,1,3',
        'ZZZQ,2024-06-08,1,2',
        'ZZZQ,2024-06-11,0,2',
        'ZZZR,2024-06-11,3,2',
      ].join('\n'),
    );
    const before = await countSplits(service.database.admin);
    const first = await loadSplitsFile(service.database.admin, file);
    expect(first).toMatchObject({ read: 4, loaded: 2, duplicates: 0 });
    expect(first.rejected).toEqual([
      { line: 4, reason: 'execution_date 2024-06-08 is not a trading day' },
      { line: 5, reason: 'split_from "0" must be a positive number' },
    ]);
    await loadSplitsFile(service.database.admin, file);
    expect(await countSplits(service.database.admin)).toBe(before + 2);
    const r = await listStockSplits({ client, query: { symbol: 'ZZZR' } });
    expect(r.data?.data[0]).toMatchObject({ split_from: 3, split_to: 2, type: 'reverse' });
  });
});
