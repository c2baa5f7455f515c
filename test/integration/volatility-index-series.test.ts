/**
 * The per-minute series of the computed volatility indices (GET /v1/indices/volatility/bars;
 * services/volatility-index-series.ts), on a session loaded minute by minute by the live market on a
 * fake clock, as a deployment in live mode loads it:
 *
 * - the book valuer (jobs/book-valuer.ts) stores the newest minute of every tenor as it loads, and a
 *   stored minute equals `GET /v1/indices/volatility?at=<its end>` exactly, inputs included;
 * - a 5m bar's open, high, low and close are the first, greatest, least and last of the minute values
 *   stored, recomputed here, and every minute of the range is stored by the request;
 * - a later write that changes an earlier minute's data has that minute computed again (not served
 *   stale), and leaves the minutes before the change as they were.
 */
import { sql } from 'kysely';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIndexVolatility, listIndexVolatilityBars } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ListIndexVolatilityBarsResponse } from '../../generated/client/types.gen.js';
import { BookValuer } from '../../src/jobs/book-valuer.js';
import { LiveMarket } from '../../src/live/runner.js';
import { SimulatedLiveSource } from '../../src/live/simulated-source.js';
import { SMALL_MARKET } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const MINUTE = 60_000;
/** 11:20 ET on Thursday 2026-11-19: the regular session has run 110 minutes. */
const CLOCK_START = Date.parse('2026-11-19T16:20:00Z');
const DAY = '2026-11-19';
const SYMBOL = 'SPY';
/** 10:00 to 10:30 ET of DAY. */
const RANGE = { start_time: Date.parse('2026-11-19T15:00:00Z'), end_time: Date.parse('2026-11-19T15:30:00Z') };

type Bar = ListIndexVolatilityBarsResponse['data'][number];

interface StoredMinute {
  tenor: string;
  instant: number;
  change_id: number;
  value: number | null;
  inputs: Record<string, unknown>;
}

describe('volatility index series', () => {
  let service: TestService;
  let client: Client;
  let now = CLOCK_START + 30_000;
  let market: LiveMarket;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService({ clock: () => now, limits: { requestsPerSecond: 1_000, requestsPerMinute: 10_000 } });
    client = (await service.newAccount({ plan: 'pro' })).client;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-volseries-'));
    const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL_MARKET });
    market = new LiveMarket({ db: service.database.admin, source, clock: () => now, dir, catchUpMinutes: 2_000, batchMinutes: 2_000 });
    expect((await market.tick()).minutes).toBeGreaterThan(100);
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const stored = async (where: { instant?: number; from?: number; to?: number; tenor?: string }): Promise<StoredMinute[]> => {
    const result = await sql<{ tenor: string; instant: string; change_id: string; value: number | null; inputs: Record<string, unknown> }>`
      select tenor, instant, change_id, value, inputs from volatility_index_minutes
      where underlying_symbol = ${SYMBOL} and root = '' and trading_date = ${DAY}::date
        and (${where.instant ?? null}::int8 is null or instant = ${where.instant ?? null}::int8)
        and (${where.from ?? null}::int8 is null or instant >= ${where.from ?? null}::int8)
        and (${where.to ?? null}::int8 is null or instant <= ${where.to ?? null}::int8)
        and (${where.tenor ?? null}::text is null or tenor = ${where.tenor ?? null}::text)
      order by instant, tenor`.execute(service.database.admin);
    return result.rows.map((r) => ({ ...r, instant: Number(r.instant), change_id: Number(r.change_id) }));
  };

  const index = async (at: number, tenor: '1d' | '9d' | '30d') => {
    const r = await getIndexVolatility({ client, query: { underlying_symbol: SYMBOL, tenor, at } });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };

  const bars = async (query: Record<string, unknown>): Promise<Bar[]> => {
    const r = await listIndexVolatilityBars({ client, query: { underlying_symbol: SYMBOL, ...query } });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };

  /** A stored minute against the route's answer at its end: the value and the inputs' summary. */
  const expectRouteEquals = async (minute: StoredMinute): Promise<void> => {
    const answer = await index(minute.instant, minute.tenor as '1d' | '9d' | '30d');
    expect(minute.value).toBe(answer.value);
    const term = (t: typeof answer.near_term) =>
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
    expect(minute.inputs).toStrictEqual({
      valuation_timestamp: answer.valuation.timestamp,
      chain_timestamp: answer.valuation.chain_timestamp,
      risk_free_rate: answer.valuation.risk_free_rate,
      method: answer.method,
      near_term: term(answer.near_term),
      next_term: term(answer.next_term),
      refusal: null,
    });
  };

  it('the valuer stores the newest minute of every tenor as it loads, each equal to the route at that minute', async () => {
    now += MINUTE;
    expect((await market.tick()).minutes).toBe(1);
    const newest = Math.floor(now / MINUTE) * MINUTE;
    expect(await stored({ instant: newest })).toEqual([]);
    const valuer = new BookValuer(service.deps, service.deps.logger);
    // Its first pass sees the change log move (the load): it waits for a still log, one pass later.
    await valuer.pass();
    await valuer.pass();
    const minutes = await stored({ instant: newest });
    expect(minutes.map((m) => m.tenor)).toEqual(['1d', '30d', '9d']);
    for (const m of minutes) {
      expect(m.value, m.tenor).not.toBeNull();
      await expectRouteEquals(m);
    }
    // The bars of the newest minute read it: its 1m bar's close is that value.
    const newestBars = await bars({ tenor: '30d', interval: '1m', start_time: newest - MINUTE, end_time: newest });
    expect(newestBars.map((b) => [b.timestamp, b.close])).toEqual([[newest - MINUTE, minutes.find((m) => m.tenor === '30d')!.value]]);
  });

  it("the valuer maps every family's book of a minute and stores every family's drift before it computes any family's index minute", async () => {
    now += MINUTE;
    expect((await market.tick()).minutes).toBe(1);
    const newest = Math.floor(now / MINUTE) * MINUTE;
    const drifts = async (): Promise<string[]> =>
      (
        await sql<{ symbol: string }>`
          select underlying_symbol as symbol from drift_answers where instant = ${newest}::int8 order by 1`.execute(service.database.admin)
      ).rows.map((r) => r.symbol);
    /** The families whose drift of the minute was stored when the first index minute was. */
    let driftsAtFirstIndex: string[] | null = null;
    const events: string[] = [];
    const { books, volatilityIndex } = service.deps.repositories;
    const repositories = {
      ...service.deps.repositories,
      books: {
        ...books,
        whileValuing: async (key: string, value: () => Promise<void>) =>
          await books.whileValuing(key, async () => {
            await value();
            events.push('book');
          }),
      },
      volatilityIndex: {
        ...volatilityIndex,
        storeIndexMinutes: async (...args: Parameters<typeof volatilityIndex.storeIndexMinutes>) => {
          driftsAtFirstIndex ??= await drifts();
          events.push('index');
          await volatilityIndex.storeIndexMinutes(...args);
        },
      },
    };
    const valuer = new BookValuer({ ...service.deps, repositories }, service.deps.logger);
    await valuer.pass();
    await valuer.pass();
    expect(events.filter((e) => e === 'book').length, events.join(' ')).toBeGreaterThanOrEqual(2);
    expect(events.filter((e) => e === 'index').length, events.join(' ')).toBeGreaterThanOrEqual(2);
    expect(events.lastIndexOf('book'), events.join(' ')).toBeLessThan(events.indexOf('index'));
    const stored = await drifts();
    expect(stored).toContain(SYMBOL);
    expect(driftsAtFirstIndex).toEqual(stored);
  });

  it('builds 5m bars from every minute of the range (computed on demand), their OHLC the minute values', async () => {
    expect(await stored({ from: RANGE.start_time, to: RANGE.end_time })).toEqual([]);
    const started = performance.now();
    const five = await bars({ tenor: '30d', interval: '5m', ...RANGE });
    const elapsed = performance.now() - started;
    console.log(`30 minutes of ${SYMBOL} computed on demand in ${elapsed.toFixed(0)} ms`);
    const quoteMinutes = await sql<{ minute: string }>`
      select minute from quote_minutes where trading_date = ${DAY}::date and minute >= ${RANGE.start_time}::int8 and minute < ${RANGE.end_time}::int8
      order by minute`.execute(service.database.admin);
    expect(quoteMinutes.rows.length).toBeGreaterThan(20);
    const minutes = await stored({ from: RANGE.start_time + MINUTE, to: RANGE.end_time, tenor: '30d' });
    // Every minute of data of the range is stored (every tenor), each at its end.
    expect(minutes.map((m) => m.instant - MINUTE)).toEqual(quoteMinutes.rows.map((r) => Number(r.minute)));
    expect((await stored({ from: RANGE.start_time + MINUTE, to: RANGE.end_time })).length).toBe(3 * minutes.length);
    const valued = minutes.filter((m) => m.value !== null);
    expect(valued.length).toBeGreaterThan(20);
    // The bars recomputed here from the stored values.
    const expected = new Map<
      number,
      { open: number; high: number; low: number; close: number; minutes: number; close_timestamp: number }
    >();
    for (const m of valued) {
      const start = m.instant - MINUTE;
      const bucket = Math.floor(start / (5 * MINUTE)) * 5 * MINUTE;
      const v = m.value as number;
      const bar = expected.get(bucket);
      if (bar === undefined) expected.set(bucket, { open: v, high: v, low: v, close: v, minutes: 1, close_timestamp: start });
      else
        expected.set(bucket, {
          open: bar.open,
          high: Math.max(bar.high, v),
          low: Math.min(bar.low, v),
          close: v,
          minutes: bar.minutes + 1,
          close_timestamp: start,
        });
    }
    expect(
      five.map((b) => ({
        timestamp: b.timestamp,
        open: b.open,
        high: b.high,
        low: b.low,
        close: b.close,
        minutes: b.minutes,
        close_timestamp: b.close_timestamp,
      })),
    ).toEqual([...expected].map(([timestamp, b]) => ({ timestamp, ...b })));
    expect(five).toHaveLength(6);
    for (const b of five) {
      expect(b.published_index).toBe(false);
      expect(b.label).toMatch(/a model computed by this service .* not Cboe's published VIX\./);
    }
    // Several minutes differ in value (the chain moves within the range), so the OHLC check has teeth.
    expect(new Set(valued.map((m) => m.value)).size).toBeGreaterThan(1);
    // A minute on demand equals the route at its end, as the valuer's do.
    await expectRouteEquals(valued[7]!);
    // Asked again: read, not computed (the rows are unchanged).
    expect(await bars({ tenor: '30d', interval: '5m', ...RANGE })).toEqual(five);
    // Paged two bars at a time, the same bars.
    const paged: Bar[] = [];
    let cursor: string | undefined;
    do {
      const r = await listIndexVolatilityBars({
        client,
        query: { underlying_symbol: SYMBOL, tenor: '30d', interval: '5m', ...RANGE, limit: 2, ...(cursor ? { cursor_id: cursor } : {}) },
      });
      expect(r.response.status).toBe(200);
      paged.push(...r.data!.data);
      cursor = r.data!.pagination.next_cursor_id ?? undefined;
    } while (cursor !== undefined);
    expect(paged).toEqual(five);
  });

  it('computes a minute again when a later write changes its data; the minutes before the change are kept', async () => {
    const before = await stored({ from: RANGE.start_time + MINUTE, to: RANGE.end_time, tenor: '30d' });
    // The quotes of 10:15 ET on (the chain snapshot of 10:15 among them) are corrected, every ask 5%
    // wider: the minutes ending after 10:15 read them.
    const changedFrom = Date.parse('2026-11-19T15:15:00Z');
    const admin = service.database.admin;
    await sql`update quote_samples set ask = ask * 1.05 where trading_date = ${DAY}::date and minute >= ${changedFrom}::int8`.execute(
      admin,
    );
    await sql`insert into market_data_changes (trading_date, earliest) values (${DAY}::date, ${changedFrom}::int8)`.execute(admin);
    const five = await bars({ tenor: '30d', interval: '5m', ...RANGE });
    const after = await stored({ from: RANGE.start_time + MINUTE, to: RANGE.end_time, tenor: '30d' });
    expect(after.map((m) => m.instant)).toEqual(before.map((m) => m.instant));
    const kept = after.filter((m) => m.instant <= changedFrom);
    const again = after.filter((m) => m.instant > changedFrom);
    expect(kept.length).toBeGreaterThan(10);
    expect(again.length).toBeGreaterThan(5);
    for (const m of kept) expect(m, String(m.instant)).toStrictEqual(before.find((b) => b.instant === m.instant));
    for (const m of again) expect(m.change_id, String(m.instant)).toBeGreaterThan(before.find((b) => b.instant === m.instant)!.change_id);
    // The corrected quotes changed the values, and the recomputed ones are the route's on the corrected data.
    const changed = again.filter((m) => m.value !== before.find((b) => b.instant === m.instant)!.value);
    expect(changed.length).toBeGreaterThan(0);
    await expectRouteEquals(changed[0]!);
    await expectRouteEquals(again.at(-1)!);
    // The bars after the change are made of the recomputed values.
    const last = five.at(-1)!;
    expect(last.close).toBe(again.filter((m) => m.value !== null).at(-1)!.value);
  });

  it('fills a range missing more minutes than a request computes in the background, answering data_pending meanwhile', async () => {
    // 10:30 to 11:15 ET: 45 minutes never asked for.
    const range = { start_time: RANGE.end_time, end_time: RANGE.end_time + 45 * MINUTE };
    const query = { underlying_symbol: SYMBOL, tenor: '9d' as const, interval: '1h' as const, ...range };
    const first = await listIndexVolatilityBars({ client, query });
    expect(first.response.status).toBe(503);
    expect((first.error as { error: { code: string } }).error.code).toBe('data_pending');
    expect(first.response.headers.get('retry-after')).not.toBeNull();
    const deadline = Date.now() + 120_000;
    let answer = first;
    while (answer.response.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await listIndexVolatilityBars({ client, query });
    }
    expect(answer.response.status, JSON.stringify(answer.error)).toBe(200);
    const minutes = await stored({ from: range.start_time + MINUTE, to: range.end_time, tenor: '9d' });
    const quoted = await sql<{ n: number }>`
      select count(*)::int as n from quote_minutes
      where trading_date = ${DAY}::date and minute >= ${range.start_time}::int8 and minute < ${range.end_time}::int8`.execute(
      service.database.admin,
    );
    expect(quoted.rows[0]!.n).toBeGreaterThan(30);
    expect(minutes).toHaveLength(quoted.rows[0]!.n);
    const valued = minutes.filter((m) => m.value !== null);
    expect(answer.data!.data.reduce((n, b) => n + b.minutes, 0)).toBe(valued.length);
    expect(answer.data!.data.at(-1)!.close).toBe(valued.at(-1)!.value);
    await expectRouteEquals(valued[30]!);
  });
});
