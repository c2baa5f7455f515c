/**
 * Databento GLBX.MDP3 and Massive futures files, written here as the vendors write them (a few
 * lines of each schema, prices and times in both of Databento's encodings), read through the
 * record reader and the adapters to the canonical records and rows they must give.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  parseFuturesBarFields,
  parseFuturesDefinitionFields,
  parseFuturesStatisticFields,
  parseFuturesTradeFields,
} from './futures-canonical.js';
import { canonicalRecords, emptyResult, type CanonicalRecord, type MarketLoadResult } from './source.js';
import { VENDOR_ADAPTERS, type VendorKind } from './vendors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'futures-vendors-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function read(kind: VendorKind, lines: string[]): Promise<{ records: CanonicalRecord[]; result: MarketLoadResult }> {
  const file = path.join(dir, `${kind}-${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const result = emptyResult(file, kind);
  const records: CanonicalRecord[] = [];
  for await (const r of canonicalRecords(file, VENDOR_ADAPTERS[kind], result, {})) records.push(r);
  return { records, result };
}

const ESZ6_EXPIRATION_NS = '1797604200000000000'; // 2026-12-18 09:30 ET
const ESH7_EXPIRATION_NS = '1805463000000000000'; // 2027-03-19 09:30 ET

describe('Databento GLBX.MDP3 definition', () => {
  const header =
    'ts_recv,ts_event,rtype,publisher_id,instrument_id,raw_symbol,security_update_action,instrument_class,min_price_increment,display_factor,expiration,activation,unit_of_measure_qty,min_price_increment_amount,contract_multiplier,maturity_year,maturity_month,currency,group,exchange,asset,cfi,security_type,unit_of_measure,symbol';

  it('maps outright futures in both encodings, skips spreads and deletions, rejects a missing multiplier', async () => {
    const { records, result } = await read('databento-glbx-definition', [
      header,
      // Fixed-point prices and nanosecond times.
      `1795132800000000000,1795132800000000000,19,1,42140864,ESZ6,A,F,250000000,1000000000,${ESZ6_EXPIRATION_NS},1789400000000000000,50000000000,12500000000,2147483647,2026,12,USD,ES,XCME,ES,FFIXSX,FUT,IPNT,ESZ6`,
      // pretty_px and pretty_ts.
      '2026-11-20T00:00:00.000000000Z,2026-11-20T00:00:00.000000000Z,19,1,42005804,NQH7,A,F,0.250000000,1.000000000,2027-03-19T13:30:00.000000000Z,2025-03-21T13:30:00.000000000Z,20.000000000,5.000000000,2147483647,2027,3,USD,NQ,XCME,NQ,FFIXSX,FUT,IPNT,NQH7',
      // A calendar spread: skipped.
      `1795132800000000000,1795132800000000000,19,1,42000001,ESZ6-ESH7,A,S,50000000,1000000000,${ESZ6_EXPIRATION_NS},1789400000000000000,50000000000,2500000000,2147483647,2026,12,USD,ES,XCME,ES,FMIXSX,FUT,IPNT,ESZ6-ESH7`,
      // A deleted definition: skipped.
      `1795132800000000000,1795132800000000000,19,1,42140865,RTYH7,D,F,100000000,1000000000,${ESH7_EXPIRATION_NS},1789400000000000000,50000000000,5000000000,2147483647,2027,3,USD,RT,XCME,RTY,FFIXSX,FUT,IPNT,RTYH7`,
      // No multiplier anywhere: rejected.
      `1795132800000000000,1795132800000000000,19,1,42140866,RTYZ6,A,F,100000000,1000000000,${ESZ6_EXPIRATION_NS},1789400000000000000,9223372036854775807,5000000000,2147483647,2026,12,USD,RT,XCME,RTY,FFIXSX,FUT,IPNT,RTYZ6`,
    ]);
    expect(result).toMatchObject({ read: 5, skipped: 2 });
    expect(result.rejected).toEqual([{ line: 6, reason: 'neither unit_of_measure_qty nor contract_multiplier gives the multiplier' }]);
    expect(records.map((r) => parseFuturesDefinitionFields(r.fields))).toEqual([
      {
        symbol: 'ESZ6',
        root: 'ES',
        contractMonth: '2026-12',
        expiration: 1797604200000,
        tickSize: 0.25,
        multiplier: 50,
        currency: 'USD',
        instrumentId: 42140864,
      },
      {
        symbol: 'NQH7',
        root: 'NQ',
        contractMonth: '2027-03',
        expiration: 1805463000000,
        tickSize: 0.25,
        multiplier: 20,
        currency: 'USD',
        instrumentId: 42005804,
      },
    ]);
  });

  it('takes the contract month from the expiration when maturity is undefined, and contract_multiplier when it is given', async () => {
    const { records } = await read('databento-glbx-definition', [
      'instrument_id,raw_symbol,instrument_class,min_price_increment,expiration,unit_of_measure_qty,contract_multiplier,maturity_year,maturity_month,currency,asset',
      `42140867,MESZ6,F,250000000,${ESZ6_EXPIRATION_NS},9223372036854775807,5,65535,255,USD,MES`,
    ]);
    expect(parseFuturesDefinitionFields(records[0]!.fields)).toMatchObject({
      symbol: 'MESZ6',
      root: 'MES',
      contractMonth: '2026-12',
      multiplier: 5,
    });
  });
});

describe('Databento GLBX.MDP3 trades', () => {
  const header = 'ts_recv,ts_event,rtype,publisher_id,instrument_id,action,side,depth,price,size,flags,ts_in_delta,sequence,symbol';

  it('maps the aggressor side from side (B buy, A sell, N none), both encodings, to canonical trades', async () => {
    const { records, result } = await read('databento-glbx-trades', [
      header,
      '1795186800000215633,1795186800000123456,0,1,42140864,T,B,0,5912750000000,3,0,18231,90710211,ESZ6',
      '1795186800000215633,1795186800000123456,0,1,42140864,T,B,0,5913000000000,2,0,18231,90710211,ESZ6',
      '2026-11-20T15:00:00.250100000Z,2026-11-20T15:00:00.250000000Z,0,1,42140864,T,A,0,5912.500000000,1,0,17002,90710240,ESZ6',
      '2026-11-22T23:05:00.001000000Z,2026-11-22T23:05:00.000900000Z,0,1,42140864,T,N,0,5920.250000000,4,0,17002,90800001,ESZ6',
      '1795186800000215633,1795186800000123456,0,1,42140864,T,X,0,5912750000000,3,0,18231,90710212,ESZ6',
      '1795186800000215633,1795186800000123456,0,1,42140864,T,B,0,9223372036854775807,3,0,18231,90710213,ESZ6',
    ]);
    expect(result.rejected).toEqual([
      { line: 6, reason: 'side "X" is not A, B or N' },
      { line: 7, reason: 'price is undefined' },
    ]);
    expect(records.map((r) => parseFuturesTradeFields(r.fields))).toEqual([
      { symbol: 'ESZ6', ts: 1795186800000, sequence: 90710211, price: 5912.75, size: 3, aggressorSide: 'buy', tradeDate: '2026-11-20' },
      { symbol: 'ESZ6', ts: 1795186800000, sequence: 90710211, price: 5913, size: 2, aggressorSide: 'buy', tradeDate: '2026-11-20' },
      { symbol: 'ESZ6', ts: 1795186800250, sequence: 90710240, price: 5912.5, size: 1, aggressorSide: 'sell', tradeDate: '2026-11-20' },
      // Sunday evening's trading belongs to Monday.
      { symbol: 'ESZ6', ts: 1795388700000, sequence: 90800001, price: 5920.25, size: 4, aggressorSide: null, tradeDate: '2026-11-23' },
    ]);
  });
});

describe('Databento GLBX.MDP3 ohlcv-1m', () => {
  it('maps bars in both encodings', async () => {
    const { records, result } = await read('databento-glbx-ohlcv-1m', [
      'ts_event,rtype,publisher_id,instrument_id,open,high,low,close,volume,symbol',
      '1795186800000000000,33,1,42140864,5912750000000,5914000000000,5911500000000,5913250000000,1843,ESZ6',
      '2026-11-20T15:01:00.000000000Z,33,1,42140864,5913.250000000,5913.750000000,5912.000000000,5912.250000000,977,ESZ6',
      '1795186920000000000,33,1,42140864,abc,5914000000000,5911500000000,5913250000000,1843,ESZ6',
    ]);
    expect(result.rejected).toEqual([{ line: 4, reason: 'open "abc" is not a Databento price' }]);
    expect(records.map((r) => parseFuturesBarFields(r.fields))).toEqual([
      { symbol: 'ESZ6', ts: 1795186800000, open: 5912.75, high: 5914, low: 5911.5, close: 5913.25, volume: 1843 },
      { symbol: 'ESZ6', ts: 1795186860000, open: 5913.25, high: 5913.75, low: 5912, close: 5912.25, volume: 977 },
    ]);
  });
});

describe('Databento GLBX.MDP3 statistics', () => {
  const header =
    'ts_recv,ts_event,rtype,publisher_id,instrument_id,ts_ref,price,quantity,sequence,ts_in_delta,stat_type,channel_id,update_action,stat_flags,symbol';

  it('maps settlement (final by stat_flags bit 0), cleared volume and open interest; skips other types and deletions', async () => {
    const { records, result } = await read('databento-glbx-statistics', [
      header,
      // Preliminary settlement at 15:00 CT (stat_flags 2: actual, preliminary), trade date from ts_ref.
      '1795208400100000000,1795208400000000000,24,1,42140864,1795132800000000000,5915250000000,9223372036854775807,90900001,12000,3,310,1,2,ESZ6',
      // Final settlement in the evening (stat_flags 3: actual, final), pretty form.
      '2026-11-21T00:30:00.100000000Z,2026-11-21T00:30:00.000000000Z,24,1,42140864,2026-11-20T00:00:00.000000000Z,5915.500000000,9223372036854775807,90950002,12000,3,310,1,3,ESZ6',
      // Cleared volume and open interest of the trade date, published the next morning.
      '1795348800100000000,1795348800000000000,24,1,42140864,1795132800000000000,9223372036854775807,1504211,91000001,12000,6,310,1,0,ESZ6',
      '1795348800100000000,1795348800000000000,24,1,42140864,1795132800000000000,9223372036854775807,2101334,91000002,12000,9,310,1,0,ESZ6',
      // Session high (type 5): skipped. A deletion: skipped.
      '1795208400100000000,1795208400000000000,24,1,42140864,1795132800000000000,5921000000000,9223372036854775807,90900003,12000,5,310,1,0,ESZ6',
      '1795208400100000000,1795208400000000000,24,1,42140864,1795132800000000000,5915250000000,9223372036854775807,90900004,12000,3,310,2,2,ESZ6',
      // Open interest with no quantity: rejected. ts_ref undefined: the Globex day of ts_event.
      '1795348800100000000,1795348800000000000,24,1,42140864,1795132800000000000,9223372036854775807,2147483647,91000003,12000,9,310,1,0,ESZ6',
      '1795208400100000000,1795208400000000000,24,1,42140864,18446744073709551615,9223372036854775807,1450000,91000004,12000,6,310,1,0,ESZ6',
    ]);
    expect(result).toMatchObject({ read: 8, skipped: 2 });
    expect(result.rejected).toEqual([{ line: 8, reason: 'quantity is undefined for stat_type 9' }]);
    expect(records.map((r) => parseFuturesStatisticFields(r.fields))).toEqual([
      {
        symbol: 'ESZ6',
        tradeDate: '2026-11-20',
        settlement: { price: 5915.25, final: false },
        openInterest: null,
        clearedVolume: null,
        ts: 1795208400000,
      },
      {
        symbol: 'ESZ6',
        tradeDate: '2026-11-20',
        settlement: { price: 5915.5, final: true },
        openInterest: null,
        clearedVolume: null,
        ts: 1795221000000,
      },
      { symbol: 'ESZ6', tradeDate: '2026-11-20', settlement: null, openInterest: null, clearedVolume: 1504211, ts: 1795348800000 },
      { symbol: 'ESZ6', tradeDate: '2026-11-20', settlement: null, openInterest: 2101334, clearedVolume: null, ts: 1795348800000 },
      // 2026-11-20 15:00 CT is Friday's Globex day.
      { symbol: 'ESZ6', tradeDate: '2026-11-20', settlement: null, openInterest: null, clearedVolume: 1450000, ts: 1795208400000 },
    ]);
  });
});

describe('Massive futures minute aggregates', () => {
  it('maps a minute aggregate to a bar, nanosecond window start to ms', async () => {
    const { records } = await read('massive-futures-minute-aggs', [
      'ticker,volume,open,close,high,low,window_start,transactions,dollar_volume,exchange,session_end_date',
      'ESZ6,1843,5912.75,5913.25,5914,5911.5,1795186800000000000,611,544931512.5,4,2026-11-20',
      'NQZ6,212.0,20811.5,20809,20815.25,20805,1795186800000000000,98,88219003,4,2026-11-20',
    ]);
    expect(records.map((r) => parseFuturesBarFields(r.fields))).toEqual([
      { symbol: 'ESZ6', ts: 1795186800000, open: 5912.75, high: 5914, low: 5911.5, close: 5913.25, volume: 1843 },
      { symbol: 'NQZ6', ts: 1795186800000, open: 20811.5, high: 20815.25, low: 20805, close: 20809, volume: 212 },
    ]);
  });
});
