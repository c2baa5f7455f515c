/**
 * Futures ingest on real PostgreSQL (migration 20261128T150000, src/ingest/futures.ts): each
 * canonical futures layout loads and reads back exactly, bad records are rejected with their line
 * and reason, a file loads whole or not at all, reloads are idempotent, a final settlement
 * supersedes a preliminary one and never the reverse, and Databento GLBX.MDP3 files load end to end.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/db/connection.js';
import { futuresBarsBetween } from '../../src/db/futures-bars.js';
import { futuresContractsOfRoot } from '../../src/db/futures-contracts.js';
import { sessionState } from '../../src/db/archive.js';
import { futuresStatisticsOfRoot } from '../../src/db/futures-statistics.js';
import { futuresTradeDates, futuresTradesOfDate, futuresTradesPage } from '../../src/db/futures-trades.js';
import { marketDataStamp } from '../../src/db/market-data-changes.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { enforceRetention, reloadSession } from '../../src/ingest/archive.js';
import { loadMarketFile, type LoadKind } from '../../src/ingest/market.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { nodeArgsOf } from '../support/service-process.js';
import { createDatabase } from '../support/service.js';

const ESZ6_EXPIRATION = Date.parse('2026-12-18T14:30:00Z');
const ESH7_EXPIRATION = Date.parse('2027-03-19T13:30:00Z');
const NQZ6_EXPIRATION = ESZ6_EXPIRATION;
/** Friday 2026-11-20 10:00 ET. */
const T = Date.parse('2026-11-20T15:00:00Z');
/** Sunday 2026-11-22 18:05 ET: Monday's trade date. */
const SUNDAY_EVENING = Date.parse('2026-11-22T23:05:00Z');

let handle: DatabaseHandle;
let db: Database;
let databaseUrl: string;
let dir: string;
let n = 0;

function write(name: string, lines: readonly string[]): string {
  n += 1;
  const file = path.join(dir, `${n}-${name}`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const load = (kind: LoadKind, file: string, force = false) => loadMarketFile(db, kind, file, { force });

beforeAll(async () => {
  const url = await createDatabase(inject('postgresUrl'));
  databaseUrl = url;
  handle = await openDatabase({ databaseUrl: url, embeddedDir: '', embeddedPort: 0, poolSize: 4, statementTimeoutMs: 30_000 });
  db = handle.admin;
  await migrateToLatest(db);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'futures-ingest-'));
});
afterAll(async () => {
  await handle?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('futures definitions', () => {
  it('load and read back exactly, with line-numbered rejects and a repeated key counted once', async () => {
    const file = write('definitions.csv', [
      'symbol,root,contract_month,expiration,tick_size,multiplier,currency,instrument_id',
      `ESZ6,ES,2026-12,${ESZ6_EXPIRATION},0.25,50,USD,42140864`,
      `ESH7,,2027-03,${ESH7_EXPIRATION},0.25,50,,42005347`,
      `NQZ6,NQ,2026-12,${NQZ6_EXPIRATION},0.25,20,USD,`,
      `ESM7,ES,2027-09,${ESH7_EXPIRATION},0.25,50,USD,1`,
      `RTYZ6,RTY,2026-12,${ESZ6_EXPIRATION},0,50,USD,2`,
      // The same contract again, its later line kept.
      `ESZ6,ES,2026-12,${ESZ6_EXPIRATION},0.25,50,USD,42140864`,
    ]);
    const result = await load('futures_definitions', file);
    expect(result).toMatchObject({ read: 6, loaded: 3, duplicates: 1 });
    expect(result.rejected).toEqual([
      { line: 5, reason: 'contract_month 2027-09 is not the month symbol ESM7 names' },
      { line: 6, reason: 'tick_size "0" must be a positive number' },
    ]);
    const es = await futuresContractsOfRoot(db, 'ES');
    expect(es.map(({ id: _id, ...c }) => c)).toEqual([
      {
        symbol: 'ESZ6',
        root: 'ES',
        contractMonth: '2026-12',
        expiration: ESZ6_EXPIRATION,
        tickSize: 0.25,
        multiplier: 50,
        currency: 'USD',
        instrumentId: 42140864,
      },
      {
        symbol: 'ESH7',
        root: 'ES',
        contractMonth: '2027-03',
        expiration: ESH7_EXPIRATION,
        tickSize: 0.25,
        multiplier: 50,
        currency: 'USD',
        instrumentId: 42005347,
      },
    ]);
    expect((await futuresContractsOfRoot(db, 'NQ')).map((c) => [c.symbol, c.multiplier, c.instrumentId])).toEqual([['NQZ6', 20, null]]);
    // The same file again: the ledger has it.
    expect(await load('futures_definitions', file)).toMatchObject({ alreadyLoaded: true, loaded: 0, duplicates: 6 });
  });
});

describe('futures trades', () => {
  let esz6: number;
  const lines = [
    'symbol,timestamp,sequence,price,size,aggressor_side,trade_date',
    // Two price levels of one match event share a sequence.
    `ESZ6,${T},90710211,5912.75,3,buy,`,
    `ESZ6,${T},90710211,5913,2,buy,`,
    `ESZ6,${T + 250},90710240,5912.5,1,sell,`,
    `ESZ6,${T + 250},90710241,5912.5,4,,`,
    `ESZ6,${SUNDAY_EVENING},90800001,5920.25,6,buy,`,
    `ESH7,${T + 1000},90710300,5961,1,sell,`,
    // Bad records, and a symbol with no definition.
    `ESZ6,${T + 2000},90710301,5912.5,0,buy,`,
    `ESZ6,${T + 2000},90710302,5912.5,1,up,`,
    `ESU6,${T + 2000},90710303,5912.5,1,buy,`,
  ];

  beforeAll(async () => {
    esz6 = (await futuresContractsOfRoot(db, 'ES')).find((c) => c.symbol === 'ESZ6')!.id;
  });

  it('load by trade date into their partitions, read back exactly, the bad ones rejected with line and reason', async () => {
    const stamp = await marketDataStamp(db, '2026-11-20', '2026-11-23');
    const result = await load('futures_trades', write('trades.csv', lines));
    expect(result).toMatchObject({ read: 9, loaded: 6, duplicates: 0 });
    expect(result.rejected).toEqual([
      { line: 8, reason: 'size "0" must be a positive integer' },
      { line: 9, reason: 'aggressor_side "up" must be buy, sell or empty' },
      {
        line: 10,
        reason: `symbol ESU6 has no stored definition listed at ${new Date(T + 2000).toISOString()}: load its definitions first`,
      },
    ]);
    expect(await futuresTradeDates(db)).toEqual(['2026-11-20', '2026-11-23']);
    // The write is in the change log, for both trade dates.
    expect(await marketDataStamp(db, '2026-11-20', '2026-11-20')).toBeGreaterThan(0);
    expect(await marketDataStamp(db, '2026-11-20', '2026-11-23')).toBeGreaterThan(stamp);

    const all = await futuresTradesPage(db, esz6, { from: T, to: SUNDAY_EVENING + 1 }, { limit: 100 });
    expect(all).toEqual([
      {
        tradeDate: '2026-11-20',
        contractId: esz6,
        sequence: 90710211,
        match: 0,
        root: 'ES',
        ts: T,
        price: 5912.75,
        size: 3,
        aggressorSide: 'buy',
      },
      {
        tradeDate: '2026-11-20',
        contractId: esz6,
        sequence: 90710211,
        match: 1,
        root: 'ES',
        ts: T,
        price: 5913,
        size: 2,
        aggressorSide: 'buy',
      },
      {
        tradeDate: '2026-11-20',
        contractId: esz6,
        sequence: 90710240,
        match: 0,
        root: 'ES',
        ts: T + 250,
        price: 5912.5,
        size: 1,
        aggressorSide: 'sell',
      },
      {
        tradeDate: '2026-11-20',
        contractId: esz6,
        sequence: 90710241,
        match: 0,
        root: 'ES',
        ts: T + 250,
        price: 5912.5,
        size: 4,
        aggressorSide: null,
      },
      {
        tradeDate: '2026-11-23',
        contractId: esz6,
        sequence: 90800001,
        match: 0,
        root: 'ES',
        ts: SUNDAY_EVENING,
        price: 5920.25,
        size: 6,
        aggressorSide: 'buy',
      },
    ]);
    // Paged by (ts, sequence, match): each page starts after the last of the one before, either way.
    const first = await futuresTradesPage(db, esz6, { from: T, to: SUNDAY_EVENING + 1 }, { limit: 2 });
    const second = await futuresTradesPage(db, esz6, { from: T, to: SUNDAY_EVENING + 1 }, { limit: 2, after: first[1]! });
    expect([...first, ...second]).toEqual(all.slice(0, 4));
    const newest = await futuresTradesPage(db, esz6, { from: T, to: SUNDAY_EVENING + 1 }, { limit: 2, newestFirst: true });
    const older = await futuresTradesPage(
      db,
      esz6,
      { from: T, to: SUNDAY_EVENING + 1 },
      { limit: 10, newestFirst: true, after: newest[1]! },
    );
    expect([...newest, ...older]).toEqual([...all].reverse());
  });

  it('reload idempotently: the same file is a no-op, forced it writes nothing new', async () => {
    const before = await futuresTradesOfDate(db, '2026-11-20', null, 100);
    expect(before).toHaveLength(5);
    expect(await load('futures_trades', write('trades.csv', lines))).toMatchObject({ alreadyLoaded: true, loaded: 0 });
    const again = await load('futures_trades', write('trades.csv', lines), true);
    expect(again).toMatchObject({ read: 9, loaded: 0, duplicates: 6 });
    expect(again.rejected).toHaveLength(3);
    expect(await futuresTradesOfDate(db, '2026-11-20', null, 100)).toEqual(before);
    expect(await futuresTradesOfDate(db, '2026-11-23', null, 100)).toHaveLength(1);
  });
});

describe('futures bars', () => {
  it('load and read back exactly; a reload leaves the same rows', async () => {
    const lines = [
      'symbol,timestamp,open,high,low,close,volume',
      `ESZ6,${T},5912.75,5914,5911.5,5913.25,1843`,
      `ESZ6,${T + 60_000},5913.25,5913.75,5912,5912.25,977`,
      `ESH7,${T},5961,5961.5,5960.75,5961.25,41`,
      `ESZ6,${T + 90_000},5913.25,5913.75,5912,5912.25,977`,
      `ESZ6,${T + 120_000},5913.25,5913,5912,5912.25,977`,
      `XXZ6,${T},1,1,1,1,1`,
    ];
    const result = await load('futures_bars', write('bars.csv', lines));
    expect(result).toMatchObject({ read: 6, loaded: 3 });
    expect(result.rejected).toEqual([
      { line: 5, reason: `timestamp ${T + 90_000} is not the start of a minute` },
      { line: 6, reason: 'high and low do not bound open and close' },
      { line: 7, reason: `symbol XXZ6 has no stored definition listed at ${new Date(T).toISOString()}: load its definitions first` },
    ]);
    const es = await futuresContractsOfRoot(db, 'ES');
    const esz6 = es.find((c) => c.symbol === 'ESZ6')!.id;
    const expected = [
      { contractId: esz6, ts: T, open: 5912.75, high: 5914, low: 5911.5, close: 5913.25, volume: 1843 },
      { contractId: esz6, ts: T + 60_000, open: 5913.25, high: 5913.75, low: 5912, close: 5912.25, volume: 977 },
    ];
    expect(await futuresBarsBetween(db, esz6, T, T + 3_600_000)).toEqual(expected);
    // From is inclusive, to exclusive.
    expect(await futuresBarsBetween(db, esz6, T + 60_000, T + 60_001)).toEqual([expected[1]]);
    expect(await load('futures_bars', write('bars.csv', lines), true)).toMatchObject({ loaded: 3 });
    expect(await futuresBarsBetween(db, esz6, T, T + 3_600_000)).toEqual(expected);
  });
});

describe('futures statistics', () => {
  const header = 'symbol,trade_date,settlement_price,settlement_status,open_interest,cleared_volume,timestamp';
  const at = (hhmm: string) => Date.parse(`2026-11-20T${hhmm}:00Z`);
  const statsOf = async (date: string) => (await futuresStatisticsOfRoot(db, 'ES', date)).map(({ contractId: _c, ...s }) => s);

  it('store a preliminary settlement, then let a final one replace it, and never the reverse', async () => {
    const preliminary = await load(
      'futures_statistics',
      write('stats-preliminary.csv', [
        header,
        `ESZ6,2026-11-20,5915.25,preliminary,,,${at('21:00')}`,
        `ESH7,2026-11-20,5964,preliminary,,,${at('21:00')}`,
        `ESZ6,2026-11-20,,,,,${at('21:00')}`,
        `ESZ6,2026-11-21,5915.25,preliminary,,,${at('21:00')}`,
      ]),
    );
    expect(preliminary).toMatchObject({ read: 4, loaded: 2, superseded: 0 });
    expect(preliminary.rejected).toEqual([
      { line: 4, reason: 'none of settlement_price, open_interest and cleared_volume is given' },
      { line: 5, reason: 'trade_date 2026-11-21 is a weekend day, never a trade date' },
    ]);
    expect(await statsOf('2026-11-20')).toEqual([
      {
        symbol: 'ESZ6',
        tradeDate: '2026-11-20',
        root: 'ES',
        settlementPrice: 5915.25,
        settlementFinal: false,
        settlementTs: at('21:00'),
        openInterest: null,
        clearedVolume: null,
      },
      {
        symbol: 'ESH7',
        tradeDate: '2026-11-20',
        root: 'ES',
        settlementPrice: 5964,
        settlementFinal: false,
        settlementTs: at('21:00'),
        openInterest: null,
        clearedVolume: null,
      },
    ]);

    // The final settlement, with open interest and cleared volume the next morning.
    const final = await load(
      'futures_statistics',
      write('stats-final.csv', [header, `ESZ6,2026-11-20,5915.5,final,2101334,1504211,${at('23:30')}`]),
    );
    expect(final).toMatchObject({ read: 1, loaded: 1, superseded: 0 });
    // A preliminary one published later (a replay, a late file) gives way to the final one: its
    // settlement is superseded; the open interest it carries is written.
    const late = await load(
      'futures_statistics',
      write('stats-late.csv', [
        header,
        `ESZ6,2026-11-20,5999,preliminary,,,${Date.parse('2026-11-21T02:00:00Z')}`,
        `ESZ6,2026-11-20,5999,preliminary,2101400,,${Date.parse('2026-11-21T02:00:00Z')}`,
      ]),
    );
    expect(late).toMatchObject({ read: 2, loaded: 1, superseded: 1 });
    // A final one published earlier than the stored final gives way too, writing nothing (no change logged).
    const stamp = await marketDataStamp(db, '2026-11-20', '2026-11-20');
    const earlier = await load('futures_statistics', write('stats-earlier.csv', [header, `ESZ6,2026-11-20,5990,final,,,${at('22:00')}`]));
    expect(earlier).toMatchObject({ read: 1, loaded: 0, superseded: 1 });
    expect(await marketDataStamp(db, '2026-11-20', '2026-11-20')).toBe(stamp);
    expect((await statsOf('2026-11-20'))[0]).toEqual({
      symbol: 'ESZ6',
      tradeDate: '2026-11-20',
      root: 'ES',
      settlementPrice: 5915.5,
      settlementFinal: true,
      settlementTs: at('23:30'),
      openInterest: 2101400,
      clearedVolume: 1504211,
    });
  });

  it('merge one file’s records: its final settlement wins over its preliminary one, in either order', async () => {
    const result = await load(
      'futures_statistics',
      write('stats-both.csv', [
        header,
        `ESH7,2026-11-23,5970,final,,,${Date.parse('2026-11-23T23:30:00Z')}`,
        `ESH7,2026-11-23,5969.75,preliminary,,,${Date.parse('2026-11-23T21:00:00Z')}`,
        `ESH7,2026-11-23,,,377,12,${Date.parse('2026-11-24T12:00:00Z')}`,
      ]),
    );
    expect(result).toMatchObject({ read: 3, loaded: 2, superseded: 1 });
    expect(await statsOf('2026-11-23')).toEqual([
      {
        symbol: 'ESH7',
        tradeDate: '2026-11-23',
        root: 'ES',
        settlementPrice: 5970,
        settlementFinal: true,
        settlementTs: Date.parse('2026-11-23T23:30:00Z'),
        openInterest: 377,
        clearedVolume: 12,
      },
    ]);
  });
});

describe('a failed load', () => {
  it('leaves nothing of the file: rows, change log and ledger are one transaction', async () => {
    // The ledger refuses the file's record, the load's last write, after its rows were written.
    await sql`create function futures_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'test: ledger refused'; end $$`.execute(db);
    await sql`create trigger futures_test_refuse before insert on ingest_files for each row
      when (new.kind like 'futures_%') execute function futures_test_refuse()`.execute(db);
    const file = write('trades-fail.csv', ['symbol,timestamp,sequence,price,size', `ESZ6,${T + 5000},90720000,5914,2`]);
    const changes = await marketDataStamp(db, '2026-11-20', '2026-11-20');
    try {
      await expect(load('futures_trades', file)).rejects.toThrow(/test: ledger refused/);
      await expect(
        load('futures_statistics', write('stats-fail.csv', ['symbol,trade_date,open_interest', 'ESZ6,2026-11-20,1'])),
      ).rejects.toThrow(/test: ledger refused/);
    } finally {
      await sql`drop trigger futures_test_refuse on ingest_files`.execute(db);
      await sql`drop function futures_test_refuse()`.execute(db);
    }
    expect(await futuresTradesOfDate(db, '2026-11-20', null, 100)).toHaveLength(5);
    expect((await statsOf()).openInterest).toBe(2101400);
    expect(await marketDataStamp(db, '2026-11-20', '2026-11-20')).toBe(changes);
    // Not recorded as loaded: the next attempt loads it.
    expect(await load('futures_trades', file)).toMatchObject({ loaded: 1, alreadyLoaded: false });
    expect(await futuresTradesOfDate(db, '2026-11-20', null, 100)).toHaveLength(6);
  });

  async function statsOf() {
    return (await futuresStatisticsOfRoot(db, 'ES', '2026-11-20'))[0]!;
  }
});

describe('Databento GLBX.MDP3 files', () => {
  it('load end to end: definitions, trades, one-minute bars and statistics', async () => {
    const definitions = await load(
      'databento-glbx-definition',
      write('glbx-definition.csv', [
        'ts_recv,ts_event,rtype,publisher_id,instrument_id,raw_symbol,security_update_action,instrument_class,min_price_increment,display_factor,expiration,activation,unit_of_measure_qty,contract_multiplier,maturity_year,maturity_month,currency,asset,symbol',
        `1795132800000000000,1795132800000000000,19,1,42140870,RTYZ6,A,F,100000000,1000000000,${ESZ6_EXPIRATION}000000,1789400000000000000,50000000000,2147483647,2026,12,USD,RTY,RTYZ6`,
        `1795132800000000000,1795132800000000000,19,1,42140871,RTYZ6-RTYH7,A,S,50000000,1000000000,${ESZ6_EXPIRATION}000000,1789400000000000000,50000000000,2147483647,2026,12,USD,RTY,RTYZ6-RTYH7`,
      ]),
    );
    expect(definitions).toMatchObject({ read: 2, loaded: 1, skipped: 1, rejected: [] });
    const [rty] = await futuresContractsOfRoot(db, 'RTY');
    expect(rty).toMatchObject({ symbol: 'RTYZ6', contractMonth: '2026-12', tickSize: 0.1, multiplier: 50, instrumentId: 42140870 });

    const trades = await load(
      'databento-glbx-trades',
      write('glbx-trades.csv', [
        'ts_recv,ts_event,rtype,publisher_id,instrument_id,action,side,depth,price,size,flags,ts_in_delta,sequence,symbol',
        `${T}000500,${T}000100,0,1,42140870,T,A,0,2401300000000,2,0,18000,5001,RTYZ6`,
        '2026-11-20T15:00:00.001500000Z,2026-11-20T15:00:00.001000000Z,0,1,42140870,T,B,0,2401.400000000,1,0,18000,5002,RTYZ6',
      ]),
    );
    expect(trades).toMatchObject({ read: 2, loaded: 2, rejected: [] });
    expect(
      (await futuresTradesPage(db, rty!.id, { from: T, to: T + 60_000 }, { limit: 10 })).map((t) => [t.ts, t.price, t.aggressorSide]),
    ).toEqual([
      [T, 2401.3, 'sell'],
      [T + 1, 2401.4, 'buy'],
    ]);

    const bars = await load(
      'databento-glbx-ohlcv-1m',
      write('glbx-ohlcv.csv', [
        'ts_event,rtype,publisher_id,instrument_id,open,high,low,close,volume,symbol',
        `${T}000000,33,1,42140870,2401300000000,2401500000000,2401200000000,2401400000000,3,RTYZ6`,
      ]),
    );
    expect(bars).toMatchObject({ read: 1, loaded: 1 });
    expect(await futuresBarsBetween(db, rty!.id, T, T + 60_000)).toEqual([
      { contractId: rty!.id, ts: T, open: 2401.3, high: 2401.5, low: 2401.2, close: 2401.4, volume: 3 },
    ]);

    const stats = await load(
      'databento-glbx-statistics',
      write('glbx-statistics.csv', [
        'ts_recv,ts_event,rtype,publisher_id,instrument_id,ts_ref,price,quantity,sequence,ts_in_delta,stat_type,channel_id,update_action,stat_flags,symbol',
        `1795221000100000000,1795221000000000000,24,1,42140870,1795132800000000000,2402100000000,9223372036854775807,9001,0,3,310,1,3,RTYZ6`,
        `1795208400100000000,1795208400000000000,24,1,42140870,1795132800000000000,2402000000000,9223372036854775807,9000,0,3,310,1,2,RTYZ6`,
        `1795348800100000000,1795348800000000000,24,1,42140870,1795132800000000000,9223372036854775807,512311,9002,0,9,310,1,0,RTYZ6`,
        `1795348800100000000,1795348800000000000,24,1,42140870,1795132800000000000,9223372036854775807,98114,9003,0,6,310,1,0,RTYZ6`,
        `1795348800100000000,1795348800000000000,24,1,42140870,1795132800000000000,2410000000000,9223372036854775807,9004,0,5,310,1,0,RTYZ6`,
      ]),
    );
    expect(stats).toMatchObject({ read: 5, loaded: 3, superseded: 1, skipped: 1, rejected: [] });
    expect((await futuresStatisticsOfRoot(db, 'RTY', '2026-11-20')).map(({ contractId: _c, ...s }) => s)).toEqual([
      {
        symbol: 'RTYZ6',
        tradeDate: '2026-11-20',
        root: 'RTY',
        settlementPrice: 2402.1,
        settlementFinal: true,
        settlementTs: 1795221000000,
        openInterest: 512311,
        clearedVolume: 98114,
      },
    ]);
  });
});

describe('retention', () => {
  it('archives a session’s futures trades with it, drops their partition, and loads them back with the session', async () => {
    const friday = await futuresTradesOfDate(db, '2026-11-20', null, 1000);
    const monday = await futuresTradesOfDate(db, '2026-11-23', null, 1000);
    expect(friday.length).toBeGreaterThan(0);
    const archiveRoot = path.join(dir, 'archive');
    const now = Date.parse('2026-12-10T15:00:00Z');
    expect(await enforceRetention(db, { archiveRoot, now })).toEqual(['2026-11-20', '2026-11-23']);
    expect(await futuresTradeDates(db)).toEqual([]);
    expect(fs.existsSync(path.join(archiveRoot, '2026-11-20', 'futures_trades.csv.gz'))).toBe(true);
    expect(await sessionState(db, '2026-11-20')).toBe('archived');
    // The session-load job's reload.
    expect(await reloadSession(db, '2026-11-20', { now })).toBe('loaded');
    expect(await futuresTradeDates(db)).toEqual(['2026-11-20']);
    expect(await futuresTradesOfDate(db, '2026-11-20', null, 1000)).toEqual(friday);
    expect(await reloadSession(db, '2026-11-23', { now })).toBe('loaded');
    expect(await futuresTradesOfDate(db, '2026-11-23', null, 1000)).toEqual(monday);
  });
});

describe('the ingest command', () => {
  it('loads a futures kind and a GLBX vendor kind, writing rejects with their lines', async () => {
    const run = promisify(execFile);
    const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' };
    const ingest = async (...args: string[]) =>
      await run(process.execPath, [...nodeArgsOf('src/cli/ingest.ts'), ...args], { env, encoding: 'utf8' });
    const definitions = write('cli-definitions.csv', [
      'symbol,contract_month,expiration,tick_size,multiplier',
      `NQH7,2027-03,${ESH7_EXPIRATION},0.25,20`,
      `NQH7,2027-04,${ESH7_EXPIRATION},0.25,20`,
    ]);
    const out = await ingest('futures_definitions', definitions);
    expect(out.stdout).toContain('read 2, loaded 1, rejected 1, duplicates 0');
    expect(fs.readFileSync(`${definitions}.rejects.csv`, 'utf8')).toBe(
      'line,reason\n3,"contract_month 2027-04 is not the month symbol NQH7 names"\n',
    );
    const stats = write('cli-glbx-statistics.csv', [
      'ts_recv,ts_event,rtype,publisher_id,instrument_id,ts_ref,price,quantity,sequence,ts_in_delta,stat_type,channel_id,update_action,stat_flags,symbol',
      `1795208400100000000,1795208400000000000,24,1,42005804,1795132800000000000,20950250000000,9223372036854775807,9000,0,3,310,1,2,NQH7`,
      `1795208400100000000,1795208400000000000,24,1,42005804,1795132800000000000,21000000000000,9223372036854775807,9001,0,4,310,1,0,NQH7`,
    ]);
    const json = JSON.parse((await ingest('databento-glbx-statistics', '--json', stats)).stdout) as { files: Record<string, unknown>[] };
    expect(json.files[0]).toMatchObject({ read: 2, loaded: 1, skipped: 1, rejected: 0, superseded: 0 });
    const [nq] = await futuresStatisticsOfRoot(db, 'NQ', '2026-11-20');
    expect(nq).toMatchObject({ symbol: 'NQH7', settlementPrice: 20950.25, settlementFinal: false });
  });
});

describe('loading a set of files', () => {
  it('loads futures definitions before the trades, bars and statistics that name them', async () => {
    const ymz6 = Date.parse('2026-12-18T14:30:00Z');
    const files = {
      futures_trades: [write('ym-trades.csv', ['symbol,timestamp,sequence,price,size', `YMZ6,${T},1,44210,1`])],
      futures_statistics: [write('ym-stats.csv', ['symbol,trade_date,open_interest', 'YMZ6,2026-11-20,91234'])],
      futures_bars: [write('ym-bars.csv', ['symbol,timestamp,open,high,low,close,volume', `YMZ6,${T},44210,44210,44210,44210,1`])],
      futures_definitions: [
        write('ym-definitions.csv', ['symbol,contract_month,expiration,tick_size,multiplier', `YMZ6,2026-12,${ymz6},1,5`]),
      ],
    };
    expect(await loadFilesInOrder(db, files)).toEqual({ files: 4, prints: 0 });
    const [ym] = await futuresContractsOfRoot(db, 'YM');
    expect((await futuresTradesPage(db, ym!.id, { from: T, to: T + 1 }, { limit: 10 })).map((t) => t.price)).toEqual([44210]);
    expect((await futuresBarsBetween(db, ym!.id, T, T + 1)).map((b) => b.close)).toEqual([44210]);
    expect((await futuresStatisticsOfRoot(db, 'YM', '2026-11-20')).map((s) => s.openInterest)).toEqual([91234]);
  });
});
