/**
 * Ingest on real PostgreSQL: every canonical kind and vendor layout from test/fixtures/ingest,
 * idempotent reloads, line-numbered rejects, atomic failure, classification facts that need the
 * store (cancels, running day volume, open interest at the start of the date, sessions including
 * an overnight print of the next trading date), a trading date loaded in two files (day volume
 * continued, a cancel reaching back into the earlier file, the second file loaded again), and the
 * archive round trip with the load job.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findArchivedSession } from '../../src/db/archive.js';
import { forgetIngestedFiles } from '../../src/db/ingest-files.js';
import { countContracts, seedOptionRoots } from '../../src/db/option-contracts.js';
import { dropPartition, ensurePartition } from '../../src/db/partitions.js';
import { countPrints, printBodies } from '../../src/db/stored-prints.js';
import { datasetFreshness } from '../../src/db/status.js';
import { sessionState } from '../../src/db/archive.js';
import { enforceRetention, exportSession } from '../../src/ingest/archive.js';
import { loadMarketFile, type LoadKind } from '../../src/ingest/market.js';
import { loadPrintsFile } from '../../src/ingest/prints.js';
import { bsmPrice } from '../../src/analytics/pricing.js';
import { dividendYield, riskFreeRate } from '../../src/analytics/rates.js';
import { MS_PER_YEAR } from '../../src/analytics/settlement.js';
import { jobQueue } from '../../src/jobs/queue.js';
import { sessionLoad } from '../../src/jobs/session-load.js';
import { createLogger } from '../../src/logging.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const OCC_REJECT: unknown = expect.stringMatching(/^option_symbol: malformed OCC symbol/);
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/ingest');
const fixture = (name: string): string => path.join(FIXTURES, name);
const T = 1795185000000; // 2026-11-20 09:30 ET
const DATE = '2026-11-20';

type Body = { id: string; flags: string[]; [field: string]: unknown };

async function bodies(service: TestService, date = DATE, includeCancelled = false): Promise<Map<string, Body>> {
  const rows = (await printBodies(service.database.admin, date, { includeCancelled })).map((b) => JSON.parse(b) as Body);
  return new Map(rows.map((r) => [r.id, r]));
}

async function loadCanonicalMarket(service: TestService): Promise<void> {
  await seedOptionRoots(service.database.admin);
  for (const [kind, file] of [
    ['contracts', 'contracts.csv'],
    ['underlying_bars', 'underlying_bars.csv'],
    ['open_interest', 'open_interest.csv'],
    ['quotes', 'quotes.ndjson'],
  ] as const) {
    await loadMarketFile(service.database.admin, kind, fixture(file));
  }
}

const id = (contract: string, sequence: number): string => `${contract}:${DATE}:${sequence}`;
const A = 'SPXW:2026-11-20:6600000:C';
const B = 'SPY:2026-11-20:650000:P';
const C = 'SPXW:2026-11-20:6500000:P';

describe('canonical layouts', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => service.stop());

  it('loads contracts, bars, open interest and quotes with line-numbered rejects', async () => {
    await seedOptionRoots(service.database.admin);
    const db = service.database.admin;
    const contracts = await loadMarketFile(db, 'contracts', fixture('contracts.csv'));
    expect(contracts).toMatchObject({ read: 4, loaded: 3, duplicates: 0 });
    expect(contracts.rejected).toEqual([{ line: 6, reason: OCC_REJECT }]);
    const bars = await loadMarketFile(db, 'underlying_bars', fixture('underlying_bars.csv'));
    expect(bars).toMatchObject({ read: 7, loaded: 6 });
    expect(bars.rejected).toEqual([{ line: 8, reason: `timestamp ${T + 30000} is not the start of a minute` }]);
    const oi = await loadMarketFile(db, 'open_interest', fixture('open_interest.csv'));
    expect(oi).toMatchObject({ read: 4, loaded: 3 });
    expect(oi.rejected).toEqual([{ line: 5, reason: 'date 2026-11-21 is not a trading day' }]);
    const quotes = await loadMarketFile(db, 'quotes', fixture('quotes.ndjson'));
    // Lines 2 and 3 are updates of one minute: line 3, the later, is kept.
    expect(quotes).toMatchObject({ read: 5, loaded: 2, duplicates: 1, superseded: 1 });
    expect(quotes.rejected).toEqual([{ line: 5, reason: 'not a JSON object' }]);
  });

  it('classifies prints: sweeps, cancels, running day volume, open interest, quotes, underlying and sessions', async () => {
    const result = await loadMarketFile(service.database.admin, 'prints', fixture('prints.csv'));
    expect(result).toMatchObject({
      read: 10,
      loaded: 9,
      rejected: [],
      duplicates: 0,
      cancels: 1,
      cancelsOfStored: 0,
      cancelsUnmatched: 0,
      alreadyLoaded: false,
    });
    const all = await bodies(service, DATE, true);
    const p = (contract: string, sequence: number): Body => all.get(id(contract, sequence)) as Body;

    // A sweep across three exchanges at the ask.
    for (const s of [1, 2, 3])
      expect(p(A, s)).toMatchObject({
        trade_type: 'sweep',
        group_id: `g:${id(A, 1)}`,
        side: 'at_ask',
        sentiment: 'bullish',
        underlying_price: 6590,
        open_interest: 5000,
        session: 'rth',
      });
    expect(p(A, 2).flags).toEqual(['iso']);
    // Running volume: the overnight print (2) comes first on the trading date.
    expect([8, 1, 2, 3, 7].map((s) => p(A, s).day_volume)).toEqual([2, 12, 32, 37, 38]);
    // Overnight print of Thursday evening belongs to Friday, the next trading date.
    expect(p(A, 8)).toMatchObject({ session: 'gth', timestamp: 1795140000000, flags: ['ext_hours'] });
    expect(p(A, 7)).toMatchObject({ session: 'curb', flags: ['post_cash_close'], underlying_price: null, implied_volatility: null });
    // The cancel record marks the print it cancels, which leaves the day volume.
    expect(p(B, 4)).toMatchObject({ side: 'at_bid', flags: ['cancelled', 'aggressor_hint'] });
    expect(all.has(id(B, 5))).toBe(false);
    expect(p(B, 10)).toMatchObject({
      day_volume: 3000,
      open_interest: 1000,
      flags: ['auction', 'aggressor_hint', 'vol_gt_oi', 'size_gt_oi'],
      underlying_price: 659.5,
    });
    expect(p(B, 9)).toMatchObject({ session: 'other', side: 'unknown', day_volume: 3001 });
    // No quote on the print: the one-minute sample in force (09:31:25) is used.
    expect(p(C, 6)).toMatchObject({ bid: 1.5, ask: 1.6, side: 'mid', underlying_price: 6592, open_interest: 200 });
    expect(p(C, 6).implied_volatility).toBeGreaterThan(0);
    // Cancelled prints are stored, marked, and never among the served bodies.
    const served = await bodies(service);
    expect(served.has(id(B, 4))).toBe(false);
    expect(served.size).toBe(8);
    expect(Object.keys(p(A, 1))).toHaveLength(31);
  });

  it('loads the same file twice to the same rows', async () => {
    const before = [...(await bodies(service, DATE, true)).values()];
    const again = await loadMarketFile(service.database.admin, 'prints', fixture('prints.csv'));
    expect(again).toMatchObject({ alreadyLoaded: true, read: 10, loaded: 0, duplicates: 10 });
    const forced = await loadMarketFile(service.database.admin, 'prints', fixture('prints.csv'), { force: true });
    expect(forced).toMatchObject({ read: 10, loaded: 0, duplicates: 9, cancels: 1 });
    expect([...(await bodies(service, DATE, true)).values()]).toEqual(before);
    const quotes = await loadMarketFile(service.database.admin, 'quotes', fixture('quotes.ndjson'), { force: true });
    expect(quotes.rejected).toHaveLength(1);
  });

  it('rejects bad rows with line and reason and loads the good ones', async () => {
    const result = await loadMarketFile(service.database.admin, 'prints', fixture('prints-bad.csv'));
    expect(result).toMatchObject({ read: 7, loaded: 2, duplicates: 1, cancels: 0, cancelsUnmatched: 0 });
    expect(result.rejected).toEqual([
      { line: 3, reason: 'price "-1" must be a positive number' },
      { line: 4, reason: OCC_REJECT },
      { line: 5, reason: 'expected 12 columns, found 4' },
      { line: 6, reason: 'size "0" must be a positive integer' },
    ]);
    const served = await bodies(service);
    expect(served.get(id(B, 20))).toMatchObject({ side: 'at_ask', size: 4 });
    expect(served.get(id(B, 25))).toMatchObject({ side: 'at_ask', size: 6 });
  });

  it("writes the same rows into a new date's table as into an existing partition, and reloads idempotently", async () => {
    const db = service.database.admin;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-copy-'));
    const file = path.join(dir, 'prints.csv');
    // The fixture two trading days earlier (Wednesday 2026-11-18).
    const [header, ...rows] = fs.readFileSync(fixture('prints.csv'), 'utf8').trim().split('\n');
    fs.writeFileSync(
      file,
      [
        header,
        ...rows.map((r) =>
          r
            .split(',')
            .map((v, i) => ((i === 1 || i === 11) && v !== '' ? String(Number(v) - 2 * 86_400_000) : v))
            .join(','),
        ),
      ].join('\n'),
    );
    // A new date: COPY straight into its standalone table.
    const copied = await loadMarketFile(db, 'prints', file);
    expect(copied).toMatchObject({ read: 10, loaded: 9, duplicates: 0 });
    const fresh = [...(await bodies(service, '2026-11-18', true)).values()];
    expect(fresh).toHaveLength(9);
    expect((await loadMarketFile(db, 'prints', file, { force: true })).duplicates).toBe(9);
    // An existing (empty) partition: through the staging table.
    await dropPartition(db, 'prints', '2026-11-18');
    await ensurePartition(db, 'prints', '2026-11-18');
    await forgetIngestedFiles(db, [file]);
    expect((await loadMarketFile(db, 'prints', file)).loaded).toBe(9);
    expect([...(await bodies(service, '2026-11-18', true)).values()]).toEqual(fresh);
  });

  it('leaves nothing half-written when a load fails', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-fail-'));
    const file = path.join(dir, 'prints.csv');
    // Two prints of the same size, and a unique index on (trading_date, size) of their date added to
    // the prints table for this test: the load fails at its last step, when the new date's partition is
    // attached and its indexes built, after every row was copied and its contracts created.
    fs.writeFileSync(
      file,
      [
        'option_symbol,timestamp,sequence,price,size,exchange_code',
        `IWM   261218C00250000,${T - 86_400_000},1,1.5,3,302`,
        `IWM   261218C00250000,${T - 86_400_000 + 5},2,1.5,3,302`,
      ].join('\n'),
    );
    const admin = service.database.admin;
    await sql`create unique index prints_test_one_size_idx on prints (trading_date, size) where trading_date = '2026-11-19'`.execute(admin);
    try {
      const contracts = await countContracts(admin);
      await expect(loadPrintsFile(admin, file)).rejects.toThrow(/could not create unique index/);
      expect(await countPrints(admin, '2026-11-19')).toBe(0);
      expect(await countContracts(admin)).toBe(contracts);
      // Not recorded as loaded: the next attempt loads it again (and fails the same way).
      await expect(loadPrintsFile(admin, file)).rejects.toThrow(/could not create unique index/);
    } finally {
      await sql`drop index prints_test_one_size_idx`.execute(admin);
    }
    expect((await loadMarketFile(service.database.admin, 'prints', file)).loaded).toBe(2);
    expect(await countPrints(service.database.admin, '2026-11-19')).toBe(2);
  });

  it('gives a partition loaded standalone every index of the prints table', async () => {
    const result = await sql<{
      indexdef: string;
    }>`select indexdef from pg_indexes where tablename = 'prints_20261120' order by indexname`.execute(service.database.admin);
    const definitions = result.rows.map((r) => r.indexdef.replace(/ ON public\.prints_20261120 USING btree/, ''));
    expect(definitions).toHaveLength(5);
    expect(definitions.join('\n')).toMatch(
      /\(root, ts DESC, sequence DESC, contract_id DESC, session, side, size, premium, contract_type\) WHERE \(NOT cancelled\)/,
    );
    expect(definitions.join('\n')).toMatch(
      /\(root, ts\) INCLUDE \(trading_date, contract_id, side, size, premium, session, trade_type, flags\) WHERE \(NOT cancelled\)/,
    );
    expect(definitions.join('\n')).toMatch(
      /\(ts DESC, sequence DESC, contract_id DESC, session, side, size, premium, contract_type\) WHERE \(NOT cancelled\)/,
    );
    expect(definitions.join('\n')).toMatch(/\(contract_id, ts DESC\)/);
  });

  it('reports freshness per dataset', async () => {
    const datasets = new Map((await datasetFreshness(service.database.admin)).map((d) => [d.dataset, d]));
    expect(datasets.get('options.prints')).toMatchObject({ newest_date: DATE, newest_timestamp: 1795213800000 });
    expect(datasets.get('options.quotes')).toMatchObject({ newest_date: DATE });
    expect(datasets.get('indices.bars')).toMatchObject({ newest_timestamp: T + 120000, newest_date: DATE });
    expect(datasets.get('equities.bars')).toMatchObject({ newest_timestamp: T + 120000 });
    expect(datasets.get('options.open_interest')).toMatchObject({ newest_date: DATE });
  });
});

describe('a same-day expiration on an early-close day (2026-11-27, close 13:00 ET, options to 13:15 ET)', () => {
  let service: TestService;
  let dir: string;
  beforeAll(async () => {
    service = await startTestService();
    await seedOptionRoots(service.database.admin);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-early-close-'));
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("solves the print's volatility on the time to the day's 13:00 ET close and its chain's parity forward, where its price reprices", async () => {
    const db = service.database.admin;
    const write = (name: string, lines: string[]): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, lines.join('\n'));
      return file;
    };
    const SYMBOL = 'SPY   261127P00600000';
    const symbol = (type: 'call' | 'put', strike: number): string =>
      `SPY   261127${type === 'call' ? 'C' : 'P'}${String(strike * 1000).padStart(8, '0')}`;
    const strikes = [598, 599, 600, 601, 602];
    const bar = Date.parse('2026-11-27T17:29:00Z'); // 12:29 ET
    const ts = Date.parse('2026-11-27T17:30:00Z'); // 12:30 ET: half an hour to the 13:00 settlement
    const settlement = Date.parse('2026-11-27T18:00:00Z');
    const rate = riskFreeRate('2026-11-27');
    // The expiration's chain of 12:29 ET, quoted on a parity forward whose carry is 6%, not SPY's fixed 1.3%.
    const carry = 0.06;
    await loadMarketFile(
      db,
      'contracts',
      write('contracts.csv', [
        'option_symbol,underlying,multiplier',
        ...strikes.flatMap((k) => [`${symbol('call', k)},SPY,100`, `${symbol('put', k)},SPY,100`]),
      ]),
    );
    await loadMarketFile(
      db,
      'underlying_bars',
      write('bars.csv', ['symbol,timestamp,open,high,low,close,volume', `SPY,${bar},601,601.2,600.9,601.1,1000`]),
    );
    await loadMarketFile(
      db,
      'quotes',
      write('quotes.csv', [
        'option_symbol,timestamp,bid,ask,bid_size,ask_size',
        ...strikes.flatMap((strike) =>
          (['call', 'put'] as const).map((type) => {
            const v = bsmPrice({
              type,
              spot: 601.1,
              strike,
              time: (settlement - bar) / MS_PER_YEAR,
              rate,
              dividendYield: carry,
              volatility: 0.12,
            });
            return `${symbol(type, strike)},${bar + 20_000},${v - 0.01},${v + 0.01},10,10`;
          }),
        ),
      ]),
    );
    const prints = write('prints.csv', [
      'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp',
      `${SYMBOL},${ts},1,0.42,10,302,209,,,0.41,0.43,${ts - 500}`,
    ]);
    expect(await loadMarketFile(db, 'prints', prints)).toMatchObject({ loaded: 1 });
    const [body] = [...(await bodies(service, '2026-11-27')).values()];
    expect(body).toMatchObject({ underlying_price: 601.1, days_to_expiry: 0 });
    const volatility = body!.implied_volatility as number;
    const price = (settlementMs: number, dividendYield: number): number =>
      bsmPrice({ type: 'put', spot: 601.1, strike: 600, time: (settlementMs - ts) / MS_PER_YEAR, rate, dividendYield, volatility });
    // On the parity forward of 12:29 ET (the carry it implies), to the 13:00 settlement.
    expect(price(settlement, carry)).toBeCloseTo(0.42, 4);
    // Not on the fixed yield, and with three more hours to a 16:00 settlement the same volatility is worth far more.
    expect(Math.abs(price(settlement, dividendYield('SPY')) - 0.42)).toBeGreaterThan(1e-4);
    expect(price(Date.parse('2026-11-27T21:00:00Z'), carry)).toBeGreaterThan(0.8);
  });
});

describe('a trading date in two files', () => {
  let service: TestService;
  let dir: string;
  beforeAll(async () => {
    service = await startTestService();
    await loadCanonicalMarket(service);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-parts-'));
  });
  afterAll(async () => service.stop());

  const HEADER =
    'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp';
  const SPY = 'SPY   261120P00650000';
  const part = (name: string, lines: string[]): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, [HEADER, ...lines].join('\n'));
    return file;
  };
  const stored = async (): Promise<{ sequence: number; cancelled: boolean; flags: string[] }[]> =>
    (
      await sql<{
        sequence: number;
        cancelled: boolean;
        flags: string[];
      }>`select sequence, cancelled, flags from prints where trading_date = ${DATE} order by sequence`.execute(service.database.admin)
    ).rows;

  it('continues day volume and cancels a print of the earlier file, and the second file loads again to the same rows', async () => {
    const db = service.database.admin;
    // 09:30:55 and 09:31:00: two prints alike (exchange, price, size); the cancel record in the second file takes the later one.
    const morning = part('part-1.csv', [
      `${SPY},${T + 55_000},1,2,100,302,209,,,2,2.1,${T + 54_000}`,
      `${SPY},${T + 60_000},2,2,100,302,209,,,2,2.1,${T + 59_000}`,
      `${SPY},${T + 61_000},3,2.05,40,313,209,,,2,2.1,${T + 60_500}`,
    ]);
    const later = part('part-2.csv', [
      `${SPY},${T + 120_000},4,2.1,3,302,209,,,2,2.1,${T + 119_500}`,
      `${SPY},${T + 125_000},5,2,100,302,201,,,,,`,
      `${SPY},${T + 130_000},6,2.1,7,302,209,,,2,2.1,${T + 129_500}`,
    ]);
    expect(await loadMarketFile(db, 'prints', morning)).toMatchObject({ read: 3, loaded: 3, duplicates: 0 });
    const logged = Number(
      (await sql<{ id: string | null }>`select max(id)::text as id from market_data_changes`.execute(db)).rows[0]?.id ?? 0,
    );
    expect(await loadMarketFile(db, 'prints', later)).toMatchObject({
      read: 3,
      loaded: 2,
      duplicates: 0,
      cancels: 0,
      cancelsOfStored: 1,
      cancelsUnmatched: 0,
    });

    // The market data change log: the new prints from their first, the cancel from the print it
    // cancelled (09:31:00), not from an unknown minute, so what was valued before then still holds.
    const changes = await sql<{ trading_date: string; earliest: string | null }>`
      select trading_date::text, earliest::text from market_data_changes where id > ${logged}::int8 order by id`.execute(db);
    expect(changes.rows.map((r) => [r.trading_date, r.earliest === null ? null : Number(r.earliest)])).toEqual([
      [DATE, T + 120_000],
      [DATE, T + 60_000],
    ]);

    const all = await bodies(service, DATE, true);
    const volume = (sequence: number): unknown => all.get(id(B, sequence))?.day_volume;
    expect([1, 2, 3, 4, 6].map(volume)).toEqual([100, 200, 240, 243, 150]);
    expect(await stored()).toEqual([
      { sequence: 1, cancelled: false, flags: [] },
      { sequence: 2, cancelled: true, flags: ['cancelled'] },
      { sequence: 3, cancelled: false, flags: [] },
      { sequence: 4, cancelled: false, flags: [] },
      { sequence: 6, cancelled: false, flags: [] },
    ]);
    const served = await bodies(service);
    expect([...served.keys()].sort()).toEqual([1, 3, 4, 6].map((s) => id(B, s)).sort());

    // The same second file again: already loaded; forced, it finds its prints stored and its cancel applied.
    const before = [...(await bodies(service, DATE, true)).values()];
    expect((await loadMarketFile(db, 'prints', later)).alreadyLoaded).toBe(true);
    expect(await loadMarketFile(db, 'prints', later, { force: true })).toMatchObject({
      read: 3,
      loaded: 0,
      duplicates: 2,
      cancelsOfStored: 0,
      cancelsAlreadyApplied: 1,
    });
    expect([...(await bodies(service, DATE, true)).values()]).toEqual(before);
    expect((await stored()).filter((r) => r.cancelled).map((r) => r.sequence)).toEqual([2]);
  });

  it("archives the date's prints as the stored rows, written out here field by field: lists, sides, quotes and cancel records", async () => {
    const db = service.database.admin;
    // A print with extended conditions and an aggressor side, one with neither and no quote.
    const third = part('part-3.csv', [
      `${SPY},${T + 140_000},7,2.15,5,302,209,12|37,buy,2,2.1,${T + 139_500}`,
      `${SPY},${T + 150_000},8,2.2,1,313,209,,sell,,,`,
    ]);
    expect(await loadMarketFile(db, 'prints', third)).toMatchObject({ read: 2, loaded: 2 });
    const rows = await db
      .selectFrom('prints as p')
      .innerJoin('contracts as c', 'c.id', 'p.contract_id')
      .select([
        'c.option_symbol',
        'p.ts',
        'p.sequence',
        'p.price',
        'p.size',
        'p.exchange_code',
        'p.condition_code',
        'p.extended_conditions',
        'p.aggressor_side',
        'p.quote_bid',
        'p.quote_ask',
        'p.quote_ts',
        'p.cancelled',
      ])
      .where('p.trading_date', '=', DATE)
      .orderBy('p.ts')
      .orderBy('p.sequence')
      .orderBy('p.contract_id')
      .execute();
    expect(rows.map((r) => [r.sequence, r.extended_conditions, r.aggressor_side, r.cancelled])).toContainEqual([7, [12, 37], 'buy', false]);
    expect(rows.some((r) => r.cancelled)).toBe(true);
    const field = (v: number | string | null): string => (v === null ? '' : String(v));
    const expected = [HEADER];
    for (const r of rows) {
      const head = `${r.option_symbol},${r.ts},${r.sequence},${r.price},${r.size},${r.exchange_code}`;
      expected.push(
        `${head},${r.condition_code},${r.extended_conditions.join('|')},${field(r.aggressor_side)},${field(r.quote_bid)},${field(r.quote_ask)},${field(r.quote_ts)}`,
      );
      if (r.cancelled) expected.push(`${head},201,,,,,`);
    }
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-archive-'));
    expect(await exportSession(db, DATE, out)).toMatchObject({ prints: rows.length });
    expect(gunzipSync(fs.readFileSync(path.join(out, 'prints.csv.gz'))).toString('utf8')).toBe(`${expected.join('\n')}\n`);
  });
});

describe('vendor layouts', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
    await seedOptionRoots(service.database.admin);
  });
  afterAll(async () => service.stop());

  const load = async (kind: LoadKind, file: string) => await loadMarketFile(service.database.admin, kind, fixture(file));

  it('loads Databento definitions, statistics and tbbo with Massive index and stock minute aggregates', async () => {
    const aggs = await load('massive-minute-aggs', 'massive-minute-aggs.csv');
    expect(aggs).toMatchObject({ read: 4, loaded: 3 });
    expect(aggs.rejected).toEqual([{ line: 5, reason: `timestamp ${T + 661000} is not the start of a minute` }]);
    expect(await load('databento-definition', 'databento-definition.csv')).toMatchObject({ read: 2, loaded: 1, skipped: 1, rejected: [] });
    expect(await load('databento-statistics', 'databento-statistics.csv')).toMatchObject({ read: 2, loaded: 1, skipped: 1, rejected: [] });
    const tbbo = await load('databento-tbbo', 'databento-tbbo.csv');
    expect(tbbo).toMatchObject({ read: 3, loaded: 2 });
    expect(tbbo.rejected).toEqual([{ line: 4, reason: 'publisher_id "99" is not an OPRA.PILLAR venue' }]);
    const served = await bodies(service);
    const q = 'QQQ:2026-11-20:600000:C';
    expect(served.get(id(q, 5001))).toMatchObject({
      exchange: 'cboe',
      side: 'at_ask',
      bid: 2.1,
      ask: 2.15,
      flags: ['aggressor_hint'],
      open_interest: 4321,
      underlying_price: 600.2,
      timestamp: T + 660000,
    });
    expect(served.get(id(q, 5002))).toMatchObject({
      exchange: 'ise',
      side: 'at_bid',
      sentiment: 'bearish',
      day_volume: 10,
      timestamp: T + 660150,
    });
  });

  it('loads Massive options quotes and trades: nanoseconds, condition lists, line sequences', async () => {
    const quotes = await load('massive-quotes', 'massive-quotes.csv');
    expect(quotes).toMatchObject({ read: 2, loaded: 2, rejected: [] });
    const trades = await load('massive-trades', 'massive-trades.csv');
    expect(trades).toMatchObject({ read: 4, loaded: 3 });
    expect(trades.rejected).toEqual([{ line: 5, reason: 'price "abc" must be a positive number' }]);
    const served = await bodies(service);
    const s = 'SPY:2026-11-20:660000:C';
    expect(served.get(id(s, 2))).toMatchObject({
      timestamp: T + 200000,
      side: 'mid',
      bid: 3.1,
      ask: 3.2,
      condition_code: 209,
      trade_type: 'sweep',
    });
    expect(served.get(id(s, 3))).toMatchObject({
      timestamp: T + 200010,
      side: 'at_ask',
      condition_code: 219,
      flags: ['iso'],
      trade_type: 'sweep',
      exchange: 'ise',
    });
    // 35 s after the last quote update: stale, so no side.
    expect(served.get(id(s, 4))).toMatchObject({ side: 'unknown', bid: null, flags: ['no_side'], condition_code: 0 });
  });
});

describe('retention: archive and reload', () => {
  let service: TestService;
  let dataDir: string;
  beforeAll(async () => {
    service = await startTestService();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-archive-'));
    await loadCanonicalMarket(service);
    await loadMarketFile(service.database.admin, 'prints', fixture('prints.csv'));
  });
  afterAll(async () => service.stop());

  it('archives sessions older than the hot window and loads one back through the job, exactly', async () => {
    const db = service.database.admin;
    const before = [...(await bodies(service, DATE, true)).values()];
    expect(await sessionState(db, DATE)).toBe('hot');
    // 2026-12-01 evening: the hot window is Nov 24, 25, 27, 30 and Dec 1.
    const archived = await enforceRetention(db, { archiveRoot: path.join(dataDir, 'archive'), now: Date.parse('2026-12-01T22:00:00Z') });
    expect(archived).toEqual([DATE]);
    expect(await sessionState(db, DATE)).toBe('archived');
    expect(await countPrints(db, DATE)).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'archive', DATE, 'prints.csv.gz'))).toBe(true);
    expect(await findArchivedSession(db, DATE)).toMatchObject({ prints: 9, quotes: 2, restoredAt: null });

    const boss = new PgBoss({ connectionString: service.database.connectionString, max: 2 });
    boss.on('error', () => undefined);
    await boss.start();
    try {
      await boss.createQueue(sessionLoad.name, { name: sessionLoad.name, ...sessionLoad.options });
      expect(await jobQueue(boss).requestSessionLoad(DATE)).toBe('started');
      expect(await jobQueue(boss).requestSessionLoad(DATE)).toBe('running');
      const logger = createLogger('silent');
      await boss.work<{ date: string }>(sessionLoad.name, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
        await sessionLoad.handler({ admin: db, logger, clock: () => Date.parse('2026-12-01T22:05:00Z') }, job!.data);
      });
      expect((await settledJob(db, sessionLoad.name, DATE, { timeoutMs: 50_000 })).state).toBe('completed');
    } finally {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    }
    expect(await sessionState(db, DATE)).toBe('hot');
    expect([...(await bodies(service, DATE, true)).values()]).toEqual(before);
    expect((await findArchivedSession(db, DATE))?.restoredAt).not.toBeNull();
    // Restored on request: kept through the grace period, archived again after it.
    expect(await enforceRetention(db, { archiveRoot: path.join(dataDir, 'archive'), now: Date.parse('2026-12-01T23:00:00Z') })).toEqual([]);
  });
});
