import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteColumnsAt, readQuoteLine, parseQuoteFields } from './canonical.js';
import { QuoteLineReader } from './quote-line-reader.js';
import { accountedRecords } from './load-counts.js';
import { csvRecord, RecordError } from './records.js';
import { Prng } from './simulator/prng.js';
import { readQuotes } from './quotes.js';
import { emptyResult } from './source.js';
import { VENDOR_ADAPTERS } from './vendors.js';

const HEADER = 'option_symbol,timestamp,bid,ask,bid_size,ask_size';
/** 2026-11-18 10:00 ET. */
const T = Date.parse('2026-11-18T15:00:00Z');
const SPXW = 'SPXW  261120C05900000';
const SPY = 'SPY   261120P00585000';

describe('readQuotes', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quotes-read-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, lines: string[], gzip = false): string => {
    const file = path.join(dir, name);
    const text = [HEADER, ...lines].join('\n') + '\n';
    fs.writeFileSync(file, gzip ? gzipSync(text) : text);
    return file;
  };
  const rowsOf = (read: Awaited<ReturnType<typeof readQuotes>>) =>
    Array.from({ length: read.rows.length }, (_, i) => ({
      symbol: read.contracts[read.rows.contract[i]!]!.symbol,
      date: read.dates[read.rows.date[i]!],
      minute: read.rows.minute[i],
      ts: read.rows.ts[i],
      bid: Number.isNaN(read.rows.bid[i]!) ? null : read.rows.bid[i],
      ask: read.rows.ask[i],
      bidSize: Number.isNaN(read.rows.bidSize[i]!) ? null : read.rows.bidSize[i],
    }));

  it('keeps the last update of each contract and minute; a repeat of the held one is a duplicate', async () => {
    const file = write('a.csv', [
      `${SPXW},${T + 10_000},5,5.2,10,12`,
      `${SPY},${T + 5_000},2,2.02,,30`,
      `${SPXW},${T + 40_000},5.1,5.3,10,12`,
      // A repeat of the update held: a duplicate.
      `${SPXW},${T + 40_000},5.1,5.3,10,12`,
      // An older update of the minute arriving late: superseded, the held one stays.
      `${SPXW},${T + 20_000},4.9,5.1,10,12`,
      // The next minute: a sample of its own.
      `${SPXW},${T + 60_000},5.2,5.4,10,12`,
      'XYZ,1,2,3,,',
    ]);
    const result = emptyResult(file, 'quotes');
    const read = await readQuotes(file, null, result, {});
    expect(rowsOf(read)).toEqual([
      { symbol: SPXW, date: '2026-11-18', minute: T, ts: T + 40_000, bid: 5.1, ask: 5.3, bidSize: 10 },
      { symbol: SPY, date: '2026-11-18', minute: T, ts: T + 5_000, bid: 2, ask: 2.02, bidSize: null },
      { symbol: SPXW, date: '2026-11-18', minute: T + 60_000, ts: T + 60_000, bid: 5.2, ask: 5.4, bidSize: 10 },
    ]);
    expect(result).toMatchObject({ read: 7, duplicates: 1, superseded: 2 });
    expect(result.rejected).toHaveLength(1);
    // The write counts the rows stored as loaded: with all three stored, the outcomes add up.
    result.loaded = read.rows.length;
    expect(accountedRecords(result)).toBe(result.read);
  });

  it('keeps one sample per contract and minute in a file out of time order', async () => {
    const file = write('late.csv', [
      `${SPXW},${T + 70_000},5.2,5.4,10,12`,
      `${SPY},${T + 65_000},2,2.02,5,6`,
      // An earlier minute after a later one: a sample of its own, then its later update kept.
      `${SPXW},${T + 10_000},5,5.2,10,12`,
      `${SPXW},${T + 30_000},5.05,5.25,10,12`,
      // Back to the later minute: an older update superseded, a repeat a duplicate.
      `${SPXW},${T + 61_000},5.1,5.3,10,12`,
      `${SPXW},${T + 70_000},5.2,5.4,10,12`,
      // A minute later than all: a new sample; then an earlier minute of SPY.
      `${SPXW},${T + 125_000},5.3,5.5,10,12`,
      `${SPY},${T + 1_000},1.99,2.01,5,6`,
    ]);
    const result = emptyResult(file, 'quotes');
    const read = await readQuotes(file, null, result, {});
    expect(rowsOf(read)).toEqual([
      { symbol: SPXW, date: '2026-11-18', minute: T + 60_000, ts: T + 70_000, bid: 5.2, ask: 5.4, bidSize: 10 },
      { symbol: SPY, date: '2026-11-18', minute: T + 60_000, ts: T + 65_000, bid: 2, ask: 2.02, bidSize: 5 },
      { symbol: SPXW, date: '2026-11-18', minute: T, ts: T + 30_000, bid: 5.05, ask: 5.25, bidSize: 10 },
      { symbol: SPXW, date: '2026-11-18', minute: T + 120_000, ts: T + 125_000, bid: 5.3, ask: 5.5, bidSize: 10 },
      { symbol: SPY, date: '2026-11-18', minute: T, ts: T + 1_000, bid: 1.99, ask: 2.01, bidSize: 5 },
    ]);
    expect(result).toMatchObject({ read: 8, duplicates: 1, superseded: 2, rejected: [] });
  });

  it('places overnight quotes of SPXW on the next trading date', async () => {
    // 2026-11-18 21:00 ET: Thursday's GTH session.
    const evening = Date.parse('2026-11-19T02:00:00Z');
    const file = write('b.csv.gz', [`${SPXW},${evening},5,5.5,1,1`], true);
    const read = await readQuotes(file, null, emptyResult(file, 'quotes'), {});
    expect(read.dates).toEqual(['2026-11-19']);
  });

  it('reads a vendor quote file into the same samples as the canonical file of the same updates', async () => {
    const canonical = write('c.csv', [`${SPY},${T + 1_000},2,2.02,5,6`, `${SPY},${T + 2_000},2.01,2.03,5,6`]);
    const vendor = path.join(dir, 'massive.csv');
    fs.writeFileSync(
      vendor,
      [
        'ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,sequence_number,sip_timestamp',
        `O:SPY261120P00585000,301,2.02,6,301,2,5,1,${(T + 1_000) * 1e6}`,
        `O:SPY261120P00585000,301,2.03,6,301,2.01,5,2,${(T + 2_000) * 1e6}`,
      ].join('\n') + '\n',
    );
    const a = await readQuotes(canonical, null, emptyResult(canonical, 'quotes'), {});
    const b = await readQuotes(vendor, VENDOR_ADAPTERS['massive-quotes'], emptyResult(vendor, 'massive-quotes'), {});
    expect(rowsOf(b)).toEqual(rowsOf(a));
    expect(rowsOf(a)).toHaveLength(1);
  });

  it('reads a Databento cbbo-1m file (the BBO at each minute boundary) into the samples of the canonical one-minute file', async () => {
    const canonical = write('e.csv', [`${SPY},${T},2,2.02,5,6`, `${SPY},${T + 60_000},2.01,,5,`, `${SPXW},${T},5.1,5.3,1,2`]);
    const cbbo = path.join(dir, 'cbbo.csv');
    const head =
      'ts_recv,ts_event,rtype,publisher_id,instrument_id,side,price,size,flags,bid_px_00,ask_px_00,bid_sz_00,ask_sz_00,bid_pb_00,ask_pb_00,symbol';
    const record = (ms: number, bid: string, ask: string, bidSize: string, askSize: string, symbol: string): string =>
      `${ms}000000,${ms - 5000}000000,194,30,7,N,9223372036854775807,0,0,${bid},${ask},${bidSize},${askSize},22,26,${symbol}`;
    fs.writeFileSync(
      cbbo,
      [
        head,
        record(T, '2000000000', '2020000000', '5', '6', SPY),
        record(T + 60_000, '2010000000', '0', '5', '0', SPY),
        record(T, '5100000000', '5300000000', '1', '2', SPXW),
      ].join('\n') + '\n',
    );
    const a = await readQuotes(canonical, null, emptyResult(canonical, 'quotes'), {});
    const b = await readQuotes(cbbo, VENDOR_ADAPTERS['databento-cbbo'], emptyResult(cbbo, 'databento-cbbo'), {});
    expect(rowsOf(b)).toEqual(rowsOf(a));
    expect(rowsOf(a)).toHaveLength(3);
  });

  it('holds many contracts and minutes in columns (the arrays grow)', async () => {
    const lines: string[] = [];
    for (let m = 0; m < 30; m += 1) {
      for (let k = 0; k < 100; k += 1) lines.push(`SPY   261120C00${500 + k}000,${T + m * 60_000},1,1.1,1,1`);
    }
    const file = write('d.csv', lines);
    const result = emptyResult(file, 'quotes');
    const read = await readQuotes(file, null, result, {});
    expect(read.rows.length).toBe(3000);
    expect(read.contracts).toHaveLength(100);
    expect(result).toMatchObject({ read: 3000, duplicates: 0, superseded: 0, rejected: [] });
  });
});

describe('readQuoteLine', () => {
  /** What the record path makes of a line: csvRecord, then parseQuoteFields. */
  const slow = (header: string[], line: string) => {
    const record = csvRecord(header, line, 1);
    return record instanceof RecordError ? record : parseQuoteFields(record.fields);
  };

  it('reads every plain line exactly as the record path does, and leaves the others to it', () => {
    const rng = new Prng(17);
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
    const symbols = [SPXW, SPY, 'O:SPY261120C00585000', 'spy261120c00585000', 'SPY  X', '', 'SPXW  261120C05900000 '];
    const times = [
      String(T),
      String(T + 59_999),
      '2026-11-18T15:00:30Z',
      '2026-11-18T15:00:30.123456Z',
      '1e12',
      '-5',
      '',
      'x',
      '99999999999999',
    ];
    const prices = ['2', '2.05', '0', '', '-1', 'abc', '1e3', ' 2.5', '0x10', 'Infinity', '.5'];
    const sizes = ['10', '0', '', '-2', '1.5', '12 ', '9007199254740993'];
    const headers = [
      ['option_symbol', 'timestamp', 'bid', 'ask', 'bid_size', 'ask_size'],
      ['timestamp', 'ask', 'bid', 'option_symbol'],
      ['option_symbol', 'timestamp', 'bid', 'ask', 'bid_size', 'ask_size', 'exchange'],
      ['option_symbol', 'timestamp', 'bid', 'bid_size'],
    ];
    let fast = 0;
    let left = 0;
    let inPlace = 0;
    const readers = new Map<string[], QuoteLineReader>();
    for (let k = 0; k < 20_000; k += 1) {
      const header = pick(headers);
      const value = (name: string): string =>
        name === 'option_symbol'
          ? pick(symbols)
          : name === 'timestamp'
            ? pick(times)
            : name === 'bid' || name === 'ask'
              ? pick(prices)
              : name === 'exchange'
                ? 'X'
                : pick(sizes);
      let line = header.map(value).join(',');
      if (rng.chance(0.03)) line = `"${line.replace(',', '",')}`;
      if (rng.chance(0.03)) line += ',';
      // The record reader hands lines trimmed.
      line = line.trim();
      const at = quoteColumnsAt(header);
      const quick = at === null ? null : readQuoteLine(line, at);
      // The in-place reader takes only lines readQuoteLine reads to a quote, and gives that quote.
      if (at !== null) {
        if (!readers.has(header)) readers.set(header, new QuoteLineReader(at));
        const reader = readers.get(header)!;
        if (reader.read(line)) {
          inPlace += 1;
          const nullable = (x: number): number | null => (Number.isNaN(x) ? null : x);
          const read = {
            contract: reader.contract,
            timestamp: reader.timestamp,
            bid: nullable(reader.bid),
            ask: nullable(reader.ask),
            bidSize: nullable(reader.bidSize),
            askSize: nullable(reader.askSize),
          };
          expect(read, `${header.join(',')} / ${line}`).toEqual(quick);
        }
      }
      if (quick === null) {
        left += 1;
        continue;
      }
      fast += 1;
      expect(quick, `${header.join(',')} / ${line}`).toEqual(slow(header, line));
    }
    expect(fast).toBeGreaterThan(8000);
    expect(left).toBeGreaterThan(500);
    expect(inPlace).toBeGreaterThan(100);
  });

  it('reads plain lines in place to the quote readQuoteLine gives', () => {
    const rng = new Prng(23);
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)]!;
    const header = ['option_symbol', 'timestamp', 'bid', 'ask', 'bid_size', 'ask_size'];
    const at = quoteColumnsAt(header)!;
    const reader = new QuoteLineReader(at);
    const symbols = [SPXW, SPY, 'O:SPY261120C00585000', 'spy261120c00585000', 'O:spy261120c00585000'];
    const prices = ['2', '2.05', '0', '', '0.10', '00.5', '123456789012.345', '999999999999999', '450359962737.497'];
    const sizes = ['10', '0', '', '007', '999999999999999'];
    for (let k = 0; k < 5000; k += 1) {
      const line = [pick(symbols), String(T + rng.int(86_400_000)), pick(prices), pick(prices), pick(sizes), pick(sizes)].join(',');
      expect(reader.read(line), line).toBe(true);
      const nullable = (x: number): number | null => (Number.isNaN(x) ? null : x);
      const read = {
        contract: reader.contract,
        timestamp: reader.timestamp,
        bid: nullable(reader.bid),
        ask: nullable(reader.ask),
        bidSize: nullable(reader.bidSize),
        askSize: nullable(reader.askSize),
      };
      expect(read, line).toEqual(readQuoteLine(line, at));
    }
  });

  it('numbers the symbols it meets once each, whatever the table holds', () => {
    const reader = new QuoteLineReader(quoteColumnsAt(HEADER.split(','))!);
    // More symbols than the table's first size, each read twice: the second read finds the first's number.
    const symbols = Array.from(
      { length: 1500 },
      (_, k) =>
        `SPY   2611${String(20 + (k % 9)).padStart(2, '0')}${k % 2 === 0 ? 'C' : 'P'}${String(100_000 + k * 1000).padStart(8, '0')}`,
    );
    const numbers = symbols.map((symbol) => (reader.read(`${symbol},${T},1.5,1.55,3,4`) ? reader.symbol : -1));
    expect(new Set(numbers).size).toBe(symbols.length);
    expect(numbers.every((n) => n >= 0)).toBe(true);
    symbols.forEach((symbol, k) => {
      expect(reader.read(`${symbol},${T + 1000},1.5,1.55,,`)).toBe(true);
      expect(reader.symbol).toBe(numbers[k]);
      expect(reader.contract!.symbol).toBe(symbol);
      expect([reader.bidSize, reader.askSize]).toEqual([NaN, NaN]);
    });
  });

  it('leaves a header without bid or ask, or with a repeated column, to the record path', () => {
    expect(quoteColumnsAt(['option_symbol', 'timestamp', 'bid'])).toBeNull();
    expect(quoteColumnsAt(['option_symbol', 'timestamp', 'bid', 'ask', 'bid'])).toBeNull();
    expect(quoteColumnsAt(['ask', 'bid'])).toEqual({ count: 2, symbol: -1, timestamp: -1, bid: 1, ask: 0, bidSize: -1, askSize: -1 });
  });
});
