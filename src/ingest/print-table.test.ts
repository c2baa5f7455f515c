import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CalendarRangeError } from '../analytics/calendar.js';
import { conditionTraitMask, TraitBit } from '../analytics/opra.js';
import { parsePrintFields } from './canonical.js';
import { PrintSessionResolver } from './print-session.js';
import { readPrintTable, type ReadPrints } from './print-reader.js';
import { SESSIONS } from './print-table.js';
import { CANCEL_CONDITION, printTable, storeContracts } from './prints.fixtures.js';
import { lineNumberAt, readRecords, RecordError, splitForTwoReaders } from './records.js';
import { emptyResult, rootInfo, type MarketLoadResult } from './source.js';
import { VENDOR_ADAPTERS, type VendorAdapter } from './vendors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'print-table-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const OPEN = 1795185000000; // 2026-11-20 09:30 ET
const GTH = Date.parse('2026-11-21T01:00:00Z'); // Thursday 20:00 ET: overnight, next trading date

/** A canonical prints file of `n` prints (about 100 bytes each) with bad rows and two trading dates. */
function canonicalFile(name: string, n: number, eol: string): string {
  const lines = [
    '# simulated',
    'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp',
  ];
  for (let i = 0; i < n; i++) {
    const strike = String((6500 + (i % 40) * 5) * 1000).padStart(8, '0');
    const symbol = `${(i % 3 === 0 ? 'SPX' : 'SPXW').padEnd(6)}261120${i % 2 === 0 ? 'C' : 'P'}${strike}`;
    const ts = i % 97 === 0 ? GTH - 86_400_000 + i : OPEN + i * 10;
    if (i % 211 === 5) lines.push(`BAD SYMBOL,${ts},${i},1.5,1,302,209,,,1.4,1.6,${ts}`);
    else if (i % 307 === 9) lines.push(`${symbol},${ts},${i},1.5`);
    else if (i % 401 === 13) lines.push('');
    else
      lines.push(
        `${symbol},${ts},${i},${(1 + (i % 50) / 10).toFixed(2)},${1 + (i % 7)},${302 + (i % 5)},${i % 13 === 0 ? 219 : 209},${i % 17 === 0 ? '232|236' : ''},${i % 5 === 0 ? 'buy' : ''},1.4,1.6,${ts - 5}`,
      );
    if (i % 503 === 0) lines.push(lines[lines.length - 1] as string); // a repeat
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join(eol) + eol);
  return file;
}

/** The file in the Massive trades layout, whose adapter takes a print's line number as its sequence. */
function massiveFile(name: string, n: number): string {
  const lines = ['ticker,conditions,correction,exchange,participant_timestamp,price,sip_timestamp,size'];
  for (let i = 0; i < n; i++) {
    const ns = `${OPEN + i * 10}000123`;
    lines.push(
      i % 333 === 7
        ? `O:SPY261120C00660000,209,0,302,${ns},3.15,not-a-time,5`
        : `O:SPY261120${i % 2 ? 'C' : 'P'}00${660 + (i % 9)}000,"219,209",0,${302 + (i % 4)},${ns},3.15,${ns},${1 + (i % 11)}`,
    );
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function read(
  file: string,
  adapter: VendorAdapter | null,
  twoReadersMinBytes: number,
): Promise<{ prints: ReadPrints; result: MarketLoadResult }> {
  const result = emptyResult(file, adapter?.kind ?? 'prints');
  const prints = await readPrintTable(file, adapter, result, { twoReadersMinBytes }, new PrintSessionResolver());
  return { prints, result };
}

/** Each print as a plain row: its fields, its contract's symbol and its trading date by name. */
function rows({ table, dateIndex }: ReadPrints): unknown[][] {
  const dates = new Map([...dateIndex].map(([date, index]) => [index, date]));
  const out: unknown[][] = [];
  for (let i = 0; i < table.length; i++) {
    out.push([
      table.line[i],
      table.slots[table.slot[i] as number]?.ref.symbol,
      table.timestamp[i],
      table.sequence[i],
      table.price[i],
      table.size[i],
      table.exchangeCode[i],
      table.conditionCode[i],
      table.extendedLists[table.extended[i] as number],
      table.quoteBid[i],
      table.quoteAsk[i],
      table.quoteTs[i],
      dates.get(table.dateIndex[i] as number),
      table.bits[i],
      table.session[i],
      table.aggressor[i],
    ]);
  }
  return out;
}

describe('reading a large file with two readers', () => {
  for (const [name, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ] as const) {
    it(`gives the prints, line numbers, rejects and counts of one pass (${name} line ends)`, async () => {
      const file = canonicalFile(`prints-${name}.csv`, 6000, eol);
      expect(await splitForTwoReaders(file, 0)).not.toBeNull();
      const one = await read(file, null, Infinity);
      const two = await read(file, null, 0);
      expect(one.prints.table.length).toBeGreaterThan(5000);
      expect(new Set(one.prints.dateIndex.keys())).toEqual(new Set(['2026-11-20', '2026-11-19']));
      expect(rows(two.prints)).toEqual(rows(one.prints));
      expect(two.result.rejected).toEqual(one.result.rejected);
      expect(one.result.rejected.length).toBeGreaterThan(40);
      // Rejects from both halves, numbered as lines of the whole file.
      const text = fs.readFileSync(file, 'utf8').split(eol);
      for (const reject of one.result.rejected)
        expect(`${text[reject.line - 1]} ${reject.reason}`).toMatch(/^BAD SYMBOL|,1\.5 expected 12 columns, found 4$/);
      expect(two.result.read).toBe(one.result.read);
      expect(two.result.skipped).toBe(one.result.skipped);
    });
  }

  it('numbers the second half as lines of the whole file, which a vendor layout may use as the sequence', async () => {
    const file = massiveFile('massive-trades.csv', 4000);
    const adapter = VENDOR_ADAPTERS['massive-trades'];
    const one = await read(file, adapter, Infinity);
    const two = await read(file, adapter, 0);
    expect(rows(two.prints)).toEqual(rows(one.prints));
    expect(two.result.rejected).toEqual(one.result.rejected);
    const last = two.prints.table.length - 1;
    expect(two.prints.table.sequence[last]).toBe(4001);
    expect(two.prints.table.line[last]).toBe(4001);
  });

  it('splits only files it can: large enough, uncompressed, with a head and \\n line breaks', async () => {
    const small = path.join(dir, 'small.csv');
    fs.writeFileSync(small, 'option_symbol,timestamp\n');
    expect(await splitForTwoReaders(small, 0)).toBeNull();
    const crOnly = path.join(dir, 'cr.csv');
    fs.writeFileSync(crOnly, `a,b\r${'1,2\r'.repeat(50_000)}`);
    expect(await splitForTwoReaders(crOnly, 0)).toBeNull();
    const gzip = path.join(dir, 'gz.csv');
    fs.writeFileSync(gzip, Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(200_000)]));
    expect(await splitForTwoReaders(gzip, 0)).toBeNull();
    const big = canonicalFile('big.csv', 3000, '\n');
    const split = await splitForTwoReaders(big, 0);
    expect(split?.head).toEqual({ format: 'csv', header: expect.arrayContaining(['option_symbol', 'quote_timestamp']) as unknown });
    const bytes = fs.readFileSync(big);
    expect(bytes[(split?.at as number) - 1]).toBe(0x0a);
    expect(await lineNumberAt(big, split?.at as number)).toBe(bytes.subarray(0, split?.at).toString().split('\n').length);
    expect(await splitForTwoReaders(big, bytes.length + 1)).toBeNull();
  });
});

/**
 * A seeded canonical prints file of every kind of line: plain ones, and ones with quoted fields,
 * spaces, signs, exponents, leading zeros, -0, huge or out of range values, uppercase sides,
 * unknown roots, bad symbols, dates beyond the calendar, wrong column counts, blank and comment
 * lines; its header's columns reordered, repeated or padded with spaces.
 */
function mixedFile(name: string, seed: number, n: number, eol: string): string {
  let state = seed;
  const random = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const names = [
    'option_symbol',
    'timestamp',
    'sequence',
    'price',
    'size',
    'exchange_code',
    'condition_code',
    'extended_conditions',
    'aggressor_side',
    'bid',
    'ask',
    'quote_timestamp',
  ];
  const header = [...names];
  if (seed % 3 === 1) header.reverse();
  if (seed % 3 === 2) header.push('price', 'note');
  const odd = {
    option_symbol: [
      'SPXW261120C06705000',
      'O:SPY261120C00660000',
      'ZZZQ  261120C00010000',
      'SPXW  261131C06705000',
      'BAD',
      ' SPY   261120C00660000',
      '',
    ],
    timestamp: [
      '2026-11-20T14:30:00.123456Z',
      String(Date.parse('2040-01-02T15:00:00Z')),
      '946684799999',
      '01795185000000',
      '-1',
      '',
      String(GTH),
    ],
    number: [
      '0',
      '007',
      '-0',
      '-1',
      '+1',
      '1e3',
      '.5',
      '5.',
      ' 5',
      '',
      'x',
      '0x10',
      'Infinity',
      '1234567890123456',
      '99999999999999999999',
      '2000000001',
      '0.00000000000001',
      '12345678901234.5',
    ],
    extended_conditions: ['219', '232|236', '232||236', '232 236', '007', 'x', '99999999999999999999'],
    aggressor_side: ['buy', 'sell', 'BUY', 'up'],
  };
  const lines = ['# simulated', '', header.map((h) => (seed % 4 === 3 ? ` ${h} ` : h)).join(',')];
  for (let i = 0; i < n; i++) {
    const ts = OPEN + i * 7;
    const cells: Record<string, string> = {
      option_symbol: `${pick(['SPX', 'SPXW', 'SPY', 'AAPL'])}261120${pick(['C', 'P'])}0${6500 + (i % 9) * 5}000`,
      timestamp: String(ts),
      sequence: String(i),
      price: (1 + (i % 50) / 10).toFixed(2),
      size: String(1 + (i % 7)),
      exchange_code: String(302 + (i % 5)),
      condition_code: pick(['209', '219', '', '227']),
      extended_conditions: pick(['', '', '219', '232|236']),
      aggressor_side: pick(['', 'buy', 'sell']),
      bid: pick(['1.4', '', '0']),
      ask: pick(['1.6', '', '2.05']),
      quote_timestamp: pick([String(ts - 5), '']),
    };
    for (let k = random() < 0.4 ? 1 + Math.floor(random() * 2) : 0; k > 0; k--) {
      const field = pick(names);
      cells[field] =
        field === 'option_symbol' || field === 'extended_conditions' || field === 'aggressor_side'
          ? pick(odd[field])
          : field.endsWith('timestamp')
            ? pick(odd.timestamp)
            : pick(odd.number);
    }
    let values = header.map((h) => (h === 'note' ? 'x' : (cells[h] as string)));
    const form = random();
    if (form < 0.02) values = values.map((v) => `"${v}"`);
    else if (form < 0.03) values[0] = '"a,""b"';
    else if (form < 0.04) values.pop();
    else if (form < 0.05) values.push('x');
    let line = values.join(',');
    if (form > 0.98) line = `  ${line}\t`;
    else if (form > 0.975) line = '';
    else if (form > 0.97) line = '# not a comment after the header';
    lines.push(line);
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join(eol) + eol);
  return file;
}

/**
 * The prints of a file by the record path alone (records, parsePrintFields(), the resolver), as
 * rows() gives them, with the contracts, extended lists and dates in the order the prints kept
 * first name them, and the result.
 */
async function byRecords(
  file: string,
): Promise<{ rows: unknown[][]; symbols: string[]; lists: number[][]; dates: string[]; result: MarketLoadResult }> {
  const result = emptyResult(file, 'prints');
  const resolver = new PrintSessionResolver();
  const out: unknown[][] = [];
  const symbols = new Set<string>();
  const lists = new Map<string, number[]>([['', []]]);
  const dates = new Set<string>();
  for await (const record of readRecords(file)) {
    result.read += 1;
    if (record instanceof RecordError) {
      result.rejected.push({ line: record.line, reason: record.message });
      continue;
    }
    const p = parsePrintFields(record.fields, record.line);
    if (typeof p === 'string') {
      result.rejected.push({ line: record.line, reason: p });
      continue;
    }
    let place;
    try {
      place = resolver.place(p.timestamp, rootInfo(p.contract.root));
    } catch (error) {
      if (!(error instanceof CalendarRangeError)) throw error;
      result.rejected.push({ line: record.line, reason: `timestamp ${p.timestamp} is outside the market calendar` });
      continue;
    }
    symbols.add(p.contract.symbol);
    if (p.extendedConditions.length > 0 && !lists.has(p.extendedConditions.join(',')))
      lists.set(p.extendedConditions.join(','), [...p.extendedConditions]);
    dates.add(place.tradingDate);
    const traits = [p.conditionCode, ...p.extendedConditions].reduce((t, c) => t | conditionTraitMask(c), 0);
    out.push([
      p.line,
      p.contract.symbol,
      p.timestamp,
      p.sequence,
      p.price,
      p.size,
      p.exchangeCode | 0,
      p.conditionCode | 0,
      p.extendedConditions,
      p.quote?.bid ?? NaN,
      p.quote?.ask ?? NaN,
      p.quote?.timestamp ?? NaN,
      place.tradingDate,
      (p.quote !== null ? 1 : 0) | ((traits & TraitBit.cancel) !== 0 ? 2 : 0),
      SESSIONS.indexOf(place.session),
      p.aggressorSide === 'buy' ? 1 : p.aggressorSide === 'sell' ? 2 : 0,
    ]);
  }
  return { rows: out, symbols: [...symbols], lists: [...lists.values()], dates: [...dates], result };
}

describe('reading canonical CSV lines without records', () => {
  for (const [seed, eol] of [
    [1, '\n'],
    [2, '\r\n'],
    [3, '\r'],
    [4, '\n'],
    [5, '\n'],
    [6, '\r\n'],
  ] as const) {
    it(`gives what the records give: prints, contracts, lists, dates, rejects and counts (seed ${seed}, ${JSON.stringify(eol)})`, async () => {
      const file = mixedFile(`mixed-${seed}.csv`, seed, 5000, eol);
      const expected = await byRecords(file);
      for (const twoReadersMinBytes of [Infinity, 0]) {
        const { prints, result } = await read(file, null, twoReadersMinBytes);
        expect(rows(prints)).toEqual(expected.rows);
        expect(prints.table.slots.map((s) => s.ref.symbol)).toEqual(expected.symbols);
        expect(prints.table.extendedLists).toEqual(expected.lists);
        expect([...prints.dateIndex.keys()]).toEqual(expected.dates);
        expect(result).toEqual({ ...expected.result, rejected: expected.result.rejected.sort((a, b) => a.line - b.line) });
      }
      expect(expected.rows.length).toBeGreaterThan(2500);
      expect(expected.result.rejected.length).toBeGreaterThan(500);
    });
  }
});

describe("a PrintTable's accessors", () => {
  it("give each print's values as the classifier takes them: nulls for NaN, names for codes", () => {
    const table = printTable([
      {
        price: 5.1,
        size: 3,
        exchangeCode: 302,
        conditionCode: 209,
        extendedConditions: [232, 236],
        aggressorSide: 'sell',
        quote: { bid: null, ask: 5.2, timestamp: OPEN - 5 },
      },
      { symbol: 'SPY   261120P00660000', session: 'gth', date: 1, conditionCode: CANCEL_CONDITION },
    ]);
    const at = (i: number): unknown[] => [
      table.slotAt(i),
      table.timestampAt(i),
      table.sequenceAt(i),
      table.priceAt(i),
      table.sizeAt(i),
      table.exchangeCodeAt(i),
      table.conditionCodeAt(i),
      table.extendedConditionsAt(i),
      table.dateAt(i),
      table.sessionAt(i),
      table.aggressorSideAt(i),
      table.hasQuote(i),
      [table.quoteBidAt(i), table.quoteAskAt(i), table.quoteTsAt(i)],
      table.isCancel(i),
    ];
    expect(at(0)).toEqual([0, OPEN, 1, 5.1, 3, 302, 209, [232, 236], 0, 'rth', 'sell', true, [null, 5.2, OPEN - 5], false]);
    expect(at(1)).toEqual([1, OPEN + 1, 2, 5.1, 1, 308, CANCEL_CONDITION, [], 1, 'gth', null, false, [null, null, null], true]);
    table.setQuote(1, { bid: 1, ask: null, timestamp: OPEN });
    expect([table.quoteBidAt(1), table.quoteAskAt(1), table.quoteTsAt(1), table.hasQuote(1)]).toEqual([1, null, OPEN, false]);
    table.setQuote(1, null);
    expect([table.quoteBidAt(1), table.quoteAskAt(1), table.quoteTsAt(1)]).toEqual([null, null, null]);
    table.renumberDates(Int32Array.from([1, 0]));
    expect([table.dateAt(0), table.dateAt(1)]).toEqual([1, 0]);
  });

  it('give a print its stored contract once the contracts are stored, and refuse slots that are not the table’s', () => {
    const table = printTable([{}, { symbol: 'SPY   261120P00660000' }, {}]);
    expect(() => table.storedSlotAt(0)).toThrow(/no stored contract/);
    expect(() => table.storeContracts([])).toThrow(/not the table's/);
    storeContracts(table, 5);
    expect([0, 1, 2].map((i) => table.storedSlotAt(i).contract.id)).toEqual([5, 6, 5]);
    expect(table.storedSlotAt(1)).toMatchObject({ key: 'SPY:2026-11-20:660000:P', contract: { underlying: 'SPY', multiplier: 100 } });
    expect(() => table.storedSlotAt(-1)).toThrow(/print -1 has no stored contract/);
  });
});
