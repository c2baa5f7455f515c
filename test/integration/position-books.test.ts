/**
 * Valued books (issue 32 §2): levels, heat map and skew answer from one book per family, session
 * and minute of data, stored in PostgreSQL for the whole deployment. The session is loaded minute by
 * minute by the live market on a fake clock, as a deployment in live mode loads it.
 *
 * - An answer read back from a stored book equals, to the last digit, the answer computed afresh
 *   from the store for the same minute and query (services/books.ts freshBook): every route, both
 *   positioning models, several selections, the newest minute and earlier ones.
 * - The requests of one minute value it once; another process (fresh memos) reads the stored book.
 * - While the newest minute's book is valued, a request answers from the previous minute and names
 *   the newest in pending_instant; the valuer (jobs/book-valuer.ts) values the newest minute as it
 *   loads; loading later minutes keeps the earlier books, a change of their data does not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getExposureHeatmap, getExposureLevels, getVolatilityDrift, getVolatilitySkew } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { OperationId } from '../../src/api-contract/openapi.js';
import { BookValuer } from '../../src/jobs/book-valuer.js';
import { LiveMarket } from '../../src/live/runner.js';
import { SimulatedLiveSource } from '../../src/live/simulated-source.js';
import { loadUnitUnderWay, whileLoadingUnit } from '../../src/db/market-data-changes.js';
import { whileClaimed } from '../../src/db/position-books.js';
import { freshBook, type BookAnswer } from '../../src/services/books.js';
import { valuationAt } from '../../src/services/chain-valuation.js';
import { exposureHeatmap } from '../../src/services/exposure-heatmap.js';
import { exposureLevels } from '../../src/services/positioning.js';
import { withContractDefaults } from '../../src/services/service-context.fixtures.js';
import type { ServiceContext } from '../../src/services/types.js';
import { freshDrift } from '../../src/services/volatility-drift.js';
import { volatilitySkew } from '../../src/services/volatility-skew.js';
import { SMALL_MARKET } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const MINUTE = 60_000;
/** 11:20 ET on Thursday 2026-11-19: the regular session has run 110 minutes (chain snapshots at 11:00 and 11:15). */
const CLOCK_START = Date.parse('2026-11-19T16:20:00Z');
const SYMBOL = 'SPY';

type Route = 'skew' | 'levels' | 'heatmap';
const OPERATIONS: Record<Route, OperationId> = { skew: 'getVolatilitySkew', levels: 'getExposureLevels', heatmap: 'getExposureHeatmap' };

/** Every route, both models, several selections and views. */
const CASES: { route: Route; query: Record<string, unknown> }[] = [
  { route: 'skew', query: {} },
  ...(['classic_oi', 'flow_adjusted'] as const).flatMap((model) => [
    { route: 'levels' as const, query: { model } },
    { route: 'levels' as const, query: { model, greek: 'delta', unit: 'per_dollar', perspective: 'customer' } },
    { route: 'levels' as const, query: { model, greek: 'vanna', expiry_mode: '0dte' } },
    { route: 'levels' as const, query: { model, contract_type: 'put', max_dte: 30, include: ['vanna', 'charm'] } },
    { route: 'heatmap' as const, query: { model } },
    { route: 'heatmap' as const, query: { model, metric: 'charm', strikes_around: 10 } },
    { route: 'heatmap' as const, query: { model, metric: 'net_premium', leg: 'put' } },
    { route: 'heatmap' as const, query: { model, metric: 'volume', min_dte: 1 } },
  ]),
];

interface Answer {
  status: number;
  data: Record<string, unknown> | undefined;
  error: unknown;
}

describe('valued books', () => {
  let service: TestService;
  let client: Client;
  let now = CLOCK_START + 30_000;
  let market: LiveMarket;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService({ clock: () => now, limits: { requestsPerSecond: 1_000, requestsPerMinute: 10_000 } });
    client = (await service.newAccount({ plan: 'pro', overnight: true })).client;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-books-'));
    const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL_MARKET });
    market = new LiveMarket({ db: service.database.admin, source, clock: () => now, dir, catchUpMinutes: 2_000, batchMinutes: 2_000 });
    expect((await market.tick()).minutes).toBeGreaterThan(100);
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const ask = async (route: Route, query: Record<string, unknown> = {}, by = client): Promise<Answer> => {
    const q = { underlying_symbol: SYMBOL, ...query } as never;
    const r =
      route === 'skew'
        ? await getVolatilitySkew({ client: by, query: q })
        : route === 'levels'
          ? await getExposureLevels({ client: by, query: q })
          : await getExposureHeatmap({ client: by, query: q });
    return { status: r.response.status, data: (r.data as { data?: Record<string, unknown> } | undefined)?.data, error: r.error };
  };

  const ok = async (route: Route, query: Record<string, unknown> = {}, by = client): Promise<Record<string, unknown>> => {
    const answer = await ask(route, query, by);
    expect(answer.status, `${route} ${JSON.stringify(query)}: ${JSON.stringify(answer.error)}`).toBe(200);
    return answer.data!;
  };

  const valuation = (data: Record<string, unknown>): { timestamp: number; pending_instant: number | null } =>
    data.valuation as { timestamp: number; pending_instant: number | null };

  const context = (route: Route): ServiceContext => {
    const operation = service.deps.apiContract.byId.get(OPERATIONS[route])!;
    return { deps: service.deps, operation, account: null, requestId: 'req_test', now, link: { path: operation.path, search: '' } };
  };

  /** The route's answer on a book valued afresh from the store (nothing stored or kept read). */
  const fresh = async (route: Route, query: Record<string, unknown>): Promise<unknown> => {
    const ctx = context(route);
    // The heat map's conditional default (the contract's x- rules): 40 strikes around without strike bounds.
    const conditional =
      route === 'heatmap' && query.min_strike === undefined && query.max_strike === undefined ? { strikes_around: 40 } : {};
    const q = withContractDefaults(OPERATIONS[route], { underlying_symbol: SYMBOL, ...conditional, ...query } as never) as never as {
      underlying_symbol: string;
      session?: 'rth' | 'gth';
      at?: number;
    };
    const window = await valuationAt(ctx, q);
    const at: BookAnswer = { book: await freshBook(ctx, window, q.session ?? 'rth'), window, pendingInstant: null };
    const data =
      route === 'skew'
        ? await volatilitySkew(ctx, q, at)
        : route === 'levels'
          ? await exposureLevels(ctx, q, at)
          : await exposureHeatmap(ctx, q, at);
    return JSON.parse(JSON.stringify(data)) as unknown;
  };

  const bookCount = async (): Promise<number> =>
    Number((await sql<{ n: number }>`select count(*)::int as n from position_books`.execute(service.database.admin)).rows[0]!.n);

  const valuations = async (): Promise<number> => {
    const metric = await service.deps.metrics.registry.getSingleMetric('oads_book_valuation_seconds')!.get();
    return metric.values
      .filter((v) => (v as { metricName?: string }).metricName === 'oads_book_valuation_seconds_count')
      .reduce((n, v) => n + v.value, 0);
  };

  it('answers every route and both models from a stored book exactly as from a book valued afresh, now and at an earlier minute', async () => {
    const skew = await ok('skew');
    const named = (skew.expirations as { date_of_expiry: string }[]).slice(1, 3).map((e) => e.date_of_expiry);
    const cases = [...CASES, { route: 'skew' as const, query: { expirations: named } }];
    for (const at of [undefined, CLOCK_START - 37 * MINUTE + 5_000]) {
      for (const { route, query } of cases) {
        const q = at === undefined ? query : { ...query, at };
        await ok(route, q);
        // Another process: nothing kept in memory, the book read back from PostgreSQL.
        service.deps.memos.clear();
        const stored = await ok(route, q);
        expect(valuation(stored).pending_instant, `${route} ${JSON.stringify(q)}`).toBeNull();
        expect(stored, `${route} ${JSON.stringify(q)}`).toStrictEqual(await fresh(route, q));
      }
    }
    // One book per family and minute of data: two minutes (now, and `at`) read on distinct inputs.
    expect(await bookCount()).toBe(2);
  });

  it('values a minute once for all its requests, however many ask at once; minutes on the same inputs share a book', async () => {
    // 11:30 ET: the chain is still the 11:15 snapshot's, so the price, flows and activity at its
    // minute's end are too: the minute maps to the book already stored, nothing is valued.
    const books = await bookCount();
    const before10 = await valuations();
    const at1120 = await ok('levels');
    now = CLOCK_START + 10 * MINUTE + 30_000;
    await market.tick();
    service.deps.memos.clear();
    expect(await ok('levels')).toStrictEqual(at1120);
    expect(await valuations()).toBe(before10);
    expect(await bookCount()).toBe(books);
    // 11:36 ET: the 11:30 snapshot is the chain; every request of the minute at once.
    now = CLOCK_START + 16 * MINUTE + 30_000;
    await market.tick();
    service.deps.memos.clear();
    const before = await valuations();
    // Four accounts, four requests in flight each (the plan's limit).
    const clients = await Promise.all([0, 1, 2, 3].map(async () => (await service.newAccount({ plan: 'pro' })).client));
    const answers = await Promise.all(CASES.slice(0, 16).map(({ route, query }, i) => ok(route, query, clients[i % 4])));
    expect(await valuations()).toBe(before + 1);
    for (const a of answers) expect(valuation(a).pending_instant).toBeNull();
  });

  it('answers the newest minute from the previous one while it is valued, then from its own; the valuer values it as it loads', async () => {
    const previous = await ok('levels');
    now += MINUTE;
    expect((await market.tick()).minutes).toBe(1);
    const newest = Math.floor(now / MINUTE) * MINUTE;
    const first = await ok('levels');
    expect(valuation(first).pending_instant).toBe(newest);
    expect(first).toStrictEqual({ ...previous, valuation: { ...valuation(previous), pending_instant: newest } });
    // The background valuation the request started: the next requests get the newest minute's book.
    const deadline = Date.now() + 60_000;
    let answer = first;
    while (valuation(answer).pending_instant !== null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await ok('levels');
    }
    expect(valuation(answer).pending_instant).toBeNull();
    expect(answer).toStrictEqual(await fresh('levels', {}));

    // The valuer: the next minute loads, one pass values it before any request; the request reads it.
    now += MINUTE;
    expect((await market.tick()).minutes).toBe(1);
    const valuer = new BookValuer(service.deps, service.deps.logger);
    // Its first pass sees the change log move (the load): it waits for a still log, one pass later.
    expect((await valuer.pass()).valued).toBe(0);
    expect((await valuer.pass()).valued).toBeGreaterThanOrEqual(1);
    const before = await valuations();
    const served = await ok('levels');
    expect(valuation(served).pending_instant).toBeNull();
    expect(await valuations()).toBe(before);
    expect(served).toStrictEqual(await fresh('levels', {}));
    // With the book it stored each route's default answer, before mapping the minute: each equals the
    // answer computed afresh, and a default request reads it (a figure changed in the stored levels
    // answer comes back), where a request of another query computes its view of the book.
    const instant = Math.floor(now / MINUTE) * MINUTE;
    const admin = service.database.admin;
    const stored = await sql<{ operation: string; body: string }>`
      select a.operation, a.body from position_book_answers a join position_books b on b.id = a.book_id
      where a.instant = ${instant}::int8 and b.underlying_symbol = ${SYMBOL} and b.session = 'rth' order by a.operation`.execute(admin);
    expect(stored.rows.map((r) => r.operation)).toEqual(['getExposureHeatmap', 'getExposureLevels', 'getVolatilitySkew']);
    expect(await ok('heatmap')).toStrictEqual(await fresh('heatmap', {}));
    expect(await ok('skew')).toStrictEqual(await fresh('skew', {}));
    const levelsBody = stored.rows.find((r) => r.operation === 'getExposureLevels')!.body;
    expect(JSON.parse(levelsBody)).toStrictEqual(served);
    const marked = JSON.stringify({ ...JSON.parse(levelsBody), underlying_price: 12_345.5 });
    await sql`update position_book_answers set body = ${marked} where instant = ${instant}::int8 and operation = 'getExposureLevels'`.execute(
      admin,
    );
    service.deps.memos.clear();
    expect((await ok('levels')).underlying_price).toBe(12_345.5);
    expect((await ok('levels', { greek: 'delta' })).underlying_price).toBe(served.underlying_price);
    await sql`update position_book_answers set body = ${levelsBody} where instant = ${instant}::int8 and operation = 'getExposureLevels'`.execute(
      admin,
    );
    service.deps.memos.clear();
    expect(await ok('levels')).toStrictEqual(served);
    expect(await valuations()).toBe(before);
    // And the family's drift at its default query, under the key a request computes: a default drift
    // request reads it (a changed figure comes back), and it equals the drift computed afresh.
    const driftRows = await sql<{ key: string; body: string }>`
      select key, body from drift_answers where strpos(key, ${JSON.stringify(`"underlying_symbol":"${SYMBOL}"`).slice(1, -1)}) > 0 order by stored_at desc limit 1`.execute(
      admin,
    );
    expect(driftRows.rows).toHaveLength(1);
    const driftRow = driftRows.rows[0]!;
    const drift = async (): Promise<Record<string, unknown>> => {
      const r = await getVolatilityDrift({ client, query: { underlying_symbol: SYMBOL } });
      expect(r.response.status).toBe(200);
      return (r.data as { data: Record<string, unknown> }).data;
    };
    const driftMarked = JSON.parse(driftRow.body) as { realized_volatility_basis: { days: number } };
    driftMarked.realized_volatility_basis.days = 999;
    await sql`update drift_answers set body = ${JSON.stringify(driftMarked)} where key = ${driftRow.key}`.execute(admin);
    service.deps.memos.clear();
    expect(((await drift()).realized_volatility_basis as { days: number }).days).toBe(999);
    await sql`delete from drift_answers`.execute(admin);
    service.deps.memos.clear();
    expect(await drift()).toStrictEqual(JSON.parse(driftRow.body));
    // The next minute loads. 5 s after its end, before the valuer has its drift, a default drift
    // request answers the previous minute's stored drift, naming the newest minute; once the valuer
    // has stored the newest, it answers that.
    const fresher = new BookValuer(service.deps, service.deps.logger);
    await fresher.pass();
    await fresher.pass();
    const atMinute = await drift();
    expect(atMinute.pending_instant).toBeNull();
    now = Math.floor(now / MINUTE) * MINUTE + MINUTE + 5_000;
    expect((await market.tick()).minutes).toBe(1);
    const newestInstant = Math.floor(now / MINUTE) * MINUTE;
    expect(await drift()).toStrictEqual({ ...atMinute, pending_instant: newestInstant });
    await fresher.pass();
    await fresher.pass();
    const newestDrift = await drift();
    expect(newestDrift.pending_instant).toBeNull();
    expect(newestDrift).not.toStrictEqual(atMinute);
    // The valuer extended the previous minute's stored drift by the buckets since (volatility-drift.ts
    // extendedDrift): the same answer as one computed afresh from the whole session.
    const driftOperation = service.deps.apiContract.byId.get('getVolatilityDrift')!;
    const driftContext: ServiceContext = {
      ...context('levels'),
      operation: driftOperation,
      link: { path: driftOperation.path, search: '' },
    };
    expect(newestDrift).toStrictEqual(
      await freshDrift(driftContext, withContractDefaults('getVolatilityDrift', { underlying_symbol: SYMBOL })),
    );
    // A second pass finds nothing new to value.
    expect((await valuer.pass()).valued).toBe(0);
  });

  it("marks a live minute's files as one unit of loads; the valuer leaves a minute alone until its unit has ended, then values it at once", async () => {
    const admin = service.database.admin;
    const under = async (): Promise<boolean> => await loadUnitUnderWay(service.database.db);
    expect(await under()).toBe(false);
    expect(await whileLoadingUnit(admin, async () => await under())).toBe(true);
    expect(await under()).toBe(false);
    await expect(whileLoadingUnit(admin, () => Promise.reject(new Error('load failed')))).rejects.toThrow('load failed');
    expect(await under()).toBe(false);
    // Shared: two units under way at once do not wait for one another (each waits for the other to be in).
    let entered = 0;
    let release: () => void = () => undefined;
    const both = new Promise<void>((resolve) => (release = resolve));
    const unit = (): Promise<void> =>
      whileLoadingUnit(admin, async () => {
        entered += 1;
        if (entered === 2) release();
        await both;
      });
    await Promise.all([unit(), unit()]);
    expect(await under()).toBe(false);

    // The runner's load inside a unit held around it: however still the change log, no pass values
    // while the unit is under way; the first pass after it values the minute, though the log moved
    // since the last pass (the unit's last files).
    const valuer = new BookValuer(service.deps, service.deps.logger);
    await valuer.pass();
    await valuer.pass();
    await whileLoadingUnit(admin, async () => {
      now += MINUTE;
      expect((await market.tick()).minutes).toBe(1);
      expect((await valuer.pass()).valued).toBe(0);
      expect((await valuer.pass()).valued).toBe(0);
      now += MINUTE;
      expect((await market.tick()).minutes).toBe(1);
    });
    expect((await valuer.pass()).valued).toBeGreaterThanOrEqual(1);
    expect((await valuer.pass()).valued).toBe(0);
    const before = await valuations();
    const served = await ok('levels');
    expect(valuation(served).pending_instant).toBeNull();
    expect(await valuations()).toBe(before);
    expect(served).toStrictEqual(await fresh('levels', {}));
  });

  it('keeps an earlier minute through later loads, and values it again when its own data change', async () => {
    const at = CLOCK_START - 20 * MINUTE + 10_000;
    const first = await ok('heatmap', { at, metric: 'volume' });
    now += 3 * MINUTE;
    await market.tick();
    const before = await valuations();
    expect(await ok('heatmap', { at, metric: 'volume' })).toStrictEqual(first);
    expect(await valuations()).toBe(before);
    // The underlying's bar the minute is valued on is corrected: its price changes, and the book with it.
    const bar = (valuation(first) as unknown as { underlying_timestamp: number }).underlying_timestamp;
    await sql`update underlying_bars set close = close + 1 where symbol = ${SYMBOL} and ts = ${bar}::int8`.execute(service.database.admin);
    await sql`insert into market_data_changes (trading_date, earliest) values (${new Date(bar).toISOString().slice(0, 10)}::date, ${bar}::int8)`.execute(
      service.database.admin,
    );
    const again = await ok('heatmap', { at, metric: 'volume' });
    expect(await valuations()).toBe(before + 1);
    expect(again).not.toStrictEqual(first);
    expect(again).toStrictEqual(await fresh('heatmap', { at, metric: 'volume' }));
  });

  it("maps a minute on a stored book's chain snapshot to that book without reading the prints, unless a change reaches before its valuation time", async () => {
    const admin = service.database.admin;
    const positioning = service.deps.repositories.positioning;
    const bookPrints = positioning.bookPrints.bind(positioning);
    let printReads = 0;
    positioning.bookPrints = async (...args) => {
      printReads += 1;
      return await bookPrints(...args);
    };
    try {
      // 11:05, 11:08 and 11:11 ET: minutes after the 11:00 snapshot, none asked before.
      const after = (m: number): number => Date.parse('2026-11-19T16:00:30Z') + m * MINUTE;
      const [a, b, c] = [after(5), after(8), after(11)];
      const mapped = async (at: number): Promise<number[]> =>
        (
          await sql<{ book_id: number }>`select book_id::int as book_id from position_book_minutes
            where underlying_symbol = ${SYMBOL} and session = 'rth' and instant = ${Math.floor(at / MINUTE) * MINUTE}::int8`.execute(admin)
        ).rows.map((r) => r.book_id);
      expect([...(await mapped(a)), ...(await mapped(b)), ...(await mapped(c))]).toEqual([]);
      const first = await ok('levels', { at: a });
      // The request stores its book after its answer: wait for the minute's mapping.
      for (let i = 0; i < 100 && (await mapped(a)).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      const [bookA] = await mapped(a);
      expect(bookA).toBeDefined();
      const digest = await sql<{ chain_digest: string | null; valued_at: string }>`
        select chain_digest, valued_at::text from position_books where id = ${bookA!}::int8`.execute(admin);
      expect(digest.rows[0]!.chain_digest).toMatch(/^[\w-]{43}$/);
      const valuedAt = Number(digest.rows[0]!.valued_at);
      expect(valuedAt).toBeLessThan(Math.floor(a / MINUTE) * MINUTE);
      expect(valuation(first).timestamp).toBe(valuedAt);

      // A later minute on the same snapshot: the same book, the prints not read, the answer the fresh one.
      printReads = 0;
      const second = await ok('levels', { at: b });
      expect(printReads).toBe(0);
      expect(await mapped(b)).toEqual([bookA]);
      expect(valuation(second).timestamp).toBe(valuedAt);
      expect(second).toStrictEqual(await fresh('levels', { at: b }));

      // A change of the date reaching before the valuation time: the next minute reads every input again.
      await sql`insert into market_data_changes (trading_date, earliest) values ('2026-11-19'::date, ${valuedAt - 1}::int8)`.execute(admin);
      printReads = 0;
      const third = await ok('levels', { at: c });
      expect(printReads).toBe(1);
      expect(third).toStrictEqual(await fresh('levels', { at: c }));
    } finally {
      positioning.bookPrints = bookPrints;
    }
  });

  it("answers a cold minute before its book is stored; the process's next requests answer from that book until it is stored", async () => {
    const at = CLOCK_START - 50 * MINUTE + 20_000;
    const minute = Math.floor(at / MINUTE) * MINUTE;
    const admin = service.database.admin;
    const books = service.deps.repositories.books;
    const storeBook = books.storeBook.bind(books);
    // The store held back until released: the requests below answer while the book is not stored.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    books.storeBook = async (...args) => {
      await released;
      return await storeBook(...args);
    };
    const mapped = async (): Promise<number> =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*) as n from position_book_minutes where underlying_symbol = ${SYMBOL} and instant = ${minute}::int8`.execute(
            admin,
          )
        ).rows[0]!.n,
      );
    try {
      const before = await valuations();
      const levels = await ok('levels', { at });
      expect(await valuations()).toBe(before + 1);
      expect(await mapped()).toBe(0);
      // Another query of the same minute: the same book, not valued again, while it is being stored.
      const heatmap = await ok('heatmap', { at, metric: 'volume' });
      expect(await valuations()).toBe(before + 1);
      expect(levels).toStrictEqual(await fresh('levels', { at }));
      expect(heatmap).toStrictEqual(await fresh('heatmap', { at, metric: 'volume' }));
      // A change reaching before the minute: that book may be stale, the next request values the minute again.
      await sql`insert into market_data_changes (trading_date, earliest) values (${new Date(minute).toISOString().slice(0, 10)}::date, ${minute - MINUTE}::int8)`.execute(
        admin,
      );
      await ok('skew', { at });
      expect(await valuations()).toBe(before + 2);
    } finally {
      books.storeBook = storeBook;
      release();
    }
    // Released, the books are stored and the minute mapped; a request then reads the stored book.
    const deadline = Date.now() + 30_000;
    while ((await mapped()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await mapped()).toBeGreaterThan(0);
    const settled = await valuations();
    service.deps.memos.clear();
    expect(await ok('levels', { at, greek: 'delta' })).toStrictEqual(await fresh('levels', { at, greek: 'delta' }));
    expect(await valuations()).toBe(settled);
  });

  it('holds a claim to value for as long as the valuation runs, past the claim time, and lets it lapse once its holder stops', async () => {
    const db = service.database.admin;
    const key = `claim-test-${Date.now()}`;
    const claimMs = 600;
    let secondRan = false;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = whileClaimed(db, key, () => released, claimMs);
    // Two and a half claim times in, the first still values: another process is refused the key.
    await new Promise((resolve) => setTimeout(resolve, 2.5 * claimMs));
    expect(await whileClaimed(db, key, async () => void (secondRan = true), claimMs)).toBe(false);
    expect(secondRan).toBe(false);
    release();
    expect(await first).toBe(true);
    // Ended, the claim is gone: the next asks and runs.
    expect(await whileClaimed(db, key, async () => void (secondRan = true), claimMs)).toBe(true);
    expect(secondRan).toBe(true);
    // A holder that died (a claim row nobody renews) is passed once its time is over.
    await sql`insert into position_book_claims (key, until) values (${`${key}-dead`}, now() + interval '300 milliseconds')`.execute(db);
    expect(await whileClaimed(db, `${key}-dead`, async () => undefined, claimMs)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await whileClaimed(db, `${key}-dead`, async () => undefined, claimMs)).toBe(true);
  });

  it('keeps an answer at "now" until a write that can change it is noticed, or a second by the clock; while not listening, reads the store for each', async () => {
    const admin = service.database.admin;
    const kept = service.deps.memos.now;
    const until = async (done: () => boolean, what: string): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(done(), what).toBe(true);
    };
    await until(() => kept.state.listening, 'listening');
    service.deps.memos.clear();
    // A first request may value the minute and store its book after answering (a write noticed):
    // once that is done and noticed, the second request of the same query at "now" is the first's
    // answer, not read again.
    await ok('levels');
    await until(() => service.deps.memos.storing.size === 0, 'the book stored');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const first = await ok('levels');
    let state = kept.state;
    expect(await ok('levels')).toStrictEqual(first);
    expect(kept.state.hits).toBe(state.hits + 1);
    // Another query is its own answer.
    await ok('levels', { greek: 'delta' });
    expect(kept.state.misses).toBe(state.misses + 1);
    // A write of another connection on a table an answer at "now" reads (a statement that changes
    // no row is enough for the trigger): its notice drops the answers, and the next is read again.
    const columnOf = {
      market_data_changes: 'trading_date',
      position_book_minutes: 'instant',
      position_book_answers: 'instant',
      drift_answers: 'instant',
    };
    for (const [table, column] of Object.entries(columnOf)) {
      state = kept.state;
      await sql`update ${sql.raw(table)} set ${sql.raw(column)} = ${sql.raw(column)} where false`.execute(admin);
      await until(() => kept.state.notices > state.notices, `a notice of ${table}`);
      expect(await ok('levels')).toStrictEqual(first);
      expect(kept.state.misses, table).toBe(state.misses + 1);
    }
    // A second later by the service clock, the answer is read again, though nothing changed.
    state = kept.state;
    now += 1_000;
    expect(await ok('levels')).toStrictEqual(first);
    expect(kept.state.misses).toBe(state.misses + 1);
    // The same answer asked four times at once, once the kept one is a second old: one request reads
    // the store, the others wait for it or answer from it.
    state = kept.state;
    now += 1_000;
    const together = await Promise.all([0, 1, 2, 3].map(async () => await ok('levels')));
    for (const answer of together) expect(answer).toStrictEqual(together[0]);
    expect(kept.state.misses).toBe(state.misses + 1);
    expect(kept.state.hits + kept.state.joined).toBe(state.hits + state.joined + 3);
    // A minute loaded by this process (the live runner): the next request answers it, not the kept answer.
    now = Math.floor(now / MINUTE) * MINUTE + MINUTE + 1_000;
    expect((await market.tick()).minutes).toBe(1);
    const newest = Math.floor(now / MINUTE) * MINUTE;
    const afterLoad = await ok('levels');
    expect(valuation(afterLoad).pending_instant).toBe(newest);
    // The notices' connection lost: nothing is kept, each request reads the store, until it listens again.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'oads-answers' and datname = current_database()`.execute(
      admin,
    );
    await until(() => !kept.state.listening, 'the notices lost');
    state = kept.state;
    await ok('levels');
    await ok('levels');
    expect(kept.state.hits).toBe(state.hits);
    await until(() => kept.state.listening, 'listening again');
    await ok('levels');
    state = kept.state;
    await ok('levels');
    expect(kept.state.hits).toBe(state.hits + 1);
  });
});
