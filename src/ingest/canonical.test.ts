import { describe, expect, it } from 'vitest';
import {
  contractRef,
  isoToMs,
  nanosToMs,
  parseBarFields,
  parseCodes,
  parseContractFields,
  parseOpenInterestFields,
  parsePrintFields,
  parseQuoteFields,
  parseTimestampMs,
  printColumns,
  PrintLineValues,
  readPrintLine,
} from './canonical.js';
import { csvRecord } from './records.js';

const T = 1795185000000; // 2026-11-20 09:30 ET

describe('contract symbols', () => {
  it('reads padded, unpadded and O:-prefixed OCC symbols into one padded key with exact strikes', () => {
    for (const s of ['SPXW  261120C06600000', 'SPXW261120C06600000', 'O:SPXW261120C06600000', 'o:spxw261120c06600000']) {
      expect(contractRef(s)).toMatchObject({
        symbol: 'SPXW  261120C06600000',
        root: 'SPXW',
        dateOfExpiry: '2026-11-20',
        type: 'call',
        strike: 6600,
        strikeThousandths: 6600000,
      });
    }
    expect(contractRef('SPY   261120P00004500')).toMatchObject({ strike: 4.5, strikeThousandths: 4500 });
    expect(contractRef('XYZ   261120P01234500')).toMatchObject({ strike: 1234.5, strikeThousandths: 1234500 });
    expect(contractRef('XYZ   261120P00000500')).toMatchObject({ strike: 0.5, strikeThousandths: 500 });
  });
  it('explains what is wrong with a bad symbol', () => {
    expect(contractRef('')).toBe('option_symbol is missing');
    expect(contractRef('SPY  X')).toMatch(/^option_symbol: malformed OCC symbol/);
    expect(contractRef('SPY   261131C00100000')).toMatch(/invalid expiry date/);
  });
});

describe('times and codes', () => {
  it('converts nanoseconds to milliseconds exactly, beyond 2^53', () => {
    expect(nanosToMs('1795185200000123456')).toBe(1795185200000);
    expect(nanosToMs('1795185200010999999')).toBe(1795185200010);
    expect(nanosToMs('12.5')).toBeNull();
  });
  it('reads Unix ms and ISO-8601 with nanosecond fractions, refusing anything else', () => {
    expect(parseTimestampMs(String(T))).toBe(T);
    expect(parseTimestampMs('2026-11-20T14:30:00.000999999Z')).toBe(T);
    expect(isoToMs('2026-11-20T09:30:00.5-05:00')).toBe(T + 500);
    expect(parseTimestampMs('yesterday')).toBeNull();
    expect(parseTimestampMs('12')).toBeNull();
  });
  it('splits condition lists on |, commas and spaces', () => {
    expect(parseCodes('219|227')).toEqual([219, 227]);
    expect(parseCodes('219,209')).toEqual([219, 209]);
    expect(parseCodes('')).toEqual([]);
    expect(parseCodes('21x')).toMatch(/not a non-negative integer/);
  });
});

describe('canonical records', () => {
  const print = {
    option_symbol: 'SPXW  261120C06600000',
    timestamp: String(T),
    sequence: '7',
    price: '5.1',
    size: '10',
    exchange_code: '302',
    condition_code: '209',
    extended_conditions: '219',
    aggressor_side: 'buy',
    bid: '5',
    ask: '5.1',
    quote_timestamp: String(T - 500),
  };
  it('reads a print with its own quote', () => {
    expect(parsePrintFields(print, 3)).toMatchObject({
      line: 3,
      sequence: 7,
      price: 5.1,
      size: 10,
      exchangeCode: 302,
      conditionCode: 209,
      extendedConditions: [219],
      aggressorSide: 'buy',
      quote: { bid: 5, ask: 5.1, timestamp: T - 500 },
    });
  });
  it('treats an empty condition as a regular sale and missing quote columns as no quote', () => {
    expect(
      parsePrintFields(
        { ...print, condition_code: '', extended_conditions: '', aggressor_side: '', bid: '', ask: '', quote_timestamp: '' },
        1,
      ),
    ).toMatchObject({ conditionCode: 0, extendedConditions: [], aggressorSide: null, quote: null });
  });
  it('rejects each bad field with a reason', () => {
    expect(parsePrintFields({ ...print, price: '-1' }, 1)).toBe('price "-1" must be a positive number');
    expect(parsePrintFields({ ...print, size: '0' }, 1)).toBe('size "0" must be a positive integer');
    expect(parsePrintFields({ ...print, size: '1.5' }, 1)).toBe('size "1.5" must be a positive integer');
    expect(parsePrintFields({ ...print, sequence: 'x' }, 1)).toMatch(/^sequence/);
    expect(parsePrintFields({ ...print, aggressor_side: 'up' }, 1)).toMatch(/^aggressor_side/);
    expect(parsePrintFields({ ...print, timestamp: '' }, 1)).toMatch(/^timestamp/);
    expect(parsePrintFields({ ...print, bid: 'x' }, 1)).toBe('bid "x" is not a number');
  });
  it('rejects a code its 32-bit column cannot hold, and reads the largest one', () => {
    expect(parsePrintFields({ ...print, exchange_code: '2147483648' }, 1)).toBe('exchange_code "2147483648" is above 2147483647');
    expect(parsePrintFields({ ...print, condition_code: '3000000000' }, 1)).toBe('condition_code "3000000000" is above 2147483647');
    expect(parsePrintFields({ ...print, extended_conditions: '219|2147483648' }, 1)).toBe(
      'extended_conditions: condition code "2147483648" is above 2147483647',
    );
    expect(parsePrintFields({ ...print, exchange_code: '2147483647', condition_code: '2147483647' }, 1)).toMatchObject({
      exchangeCode: 2147483647,
      conditionCode: 2147483647,
    });
    const header = Object.keys(print);
    const values = new PrintLineValues(printColumns(header)!);
    const line = (fields: Record<string, string>): string => header.map((h) => fields[h]).join(',');
    // The line reader declines such a line, so that its record rejects it.
    expect(readPrintLine(line({ ...print, exchange_code: '2147483648' }), values)).toBe(false);
    expect(readPrintLine(line({ ...print, condition_code: '2147483648' }), values)).toBe(false);
    expect(readPrintLine(line({ ...print, exchange_code: '2147483647' }), values)).toBe(true);
  });
  it('reads quotes, bars, open interest and contracts', () => {
    expect(
      parseQuoteFields({ option_symbol: 'SPY   261120P00650000', timestamp: String(T), bid: '', ask: '2.1', bid_size: '', ask_size: '5' }),
    ).toMatchObject({ bid: null, ask: 2.1, bidSize: null, askSize: 5 });
    expect(parseQuoteFields({ option_symbol: 'SPY   261120P00650000', timestamp: String(T) })).toBe('bid and ask columns are required');
    expect(parseBarFields({ symbol: 'spx', timestamp: String(T), open: '1', high: '2', low: '1', close: '2', volume: '' })).toMatchObject({
      symbol: 'SPX',
      volume: null,
    });
    expect(parseBarFields({ symbol: 'SPX', timestamp: String(T + 1), open: '1', high: '2', low: '1', close: '2' })).toMatch(
      /not the start of a minute/,
    );
    expect(parseBarFields({ symbol: 'SPX', timestamp: String(T), open: '1', high: '2', low: '1.5', close: '2' })).toBe(
      'high and low do not bound open and close',
    );
    expect(parseOpenInterestFields({ option_symbol: 'SPY   261120P00650000', date: '2026-11-21', open_interest: '5' })).toBe(
      'date 2026-11-21 is not a trading day',
    );
    expect(parseOpenInterestFields({ option_symbol: 'SPY   261120P00650000', date: '2026-11-20', open_interest: '5' })).toMatchObject({
      date: '2026-11-20',
      openInterest: 5,
    });
    expect(parseContractFields({ option_symbol: 'SPXW261120C06600000', underlying: 'spx', multiplier: '' })).toMatchObject({
      underlying: 'SPX',
      multiplier: null,
    });
    expect(parseContractFields({ option_symbol: 'SPXW261120C06600000', multiplier: '0' })).toMatch(/^multiplier/);
  });
});

describe('reading a canonical print line without its record', () => {
  const HEADER = [
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

  /** What the line's record gives, in readPrintLine()'s terms; null when it is rejected. */
  function byRecord(header: readonly string[], line: string): unknown {
    const record = csvRecord(header, line, 1);
    if (!('fields' in record)) return null;
    const p = parsePrintFields(record.fields, 1);
    if (typeof p === 'string') return null;
    return [
      p.contract,
      p.timestamp,
      p.sequence,
      p.price,
      p.size,
      p.exchangeCode,
      p.conditionCode,
      p.extendedConditions,
      p.aggressorSide === 'buy' ? 1 : p.aggressorSide === 'sell' ? 2 : 0,
      p.quote !== null,
      p.quote?.bid ?? NaN,
      p.quote?.ask ?? NaN,
      p.quote?.timestamp ?? NaN,
    ];
  }

  /**
   * What readPrintLine() gives, with the texts it leaves to the caller parsed; false when it
   * declines the line or the caller would (a symbol or extended list in error: print-table.ts).
   */
  function byLine(header: readonly string[], line: string): unknown {
    const columns = printColumns(header);
    if (columns === null) return false;
    const v = new PrintLineValues(columns);
    if (!readPrintLine(line, v)) return false;
    const contract = contractRef(v.symbol);
    const extended = parseCodes(v.extended);
    if (typeof contract === 'string' || typeof extended === 'string') return false;
    return [
      contract,
      v.timestamp,
      v.sequence,
      v.price,
      v.size,
      v.exchangeCode,
      v.conditionCode,
      extended,
      v.aggressor,
      v.hasQuote,
      v.bid,
      v.ask,
      v.quoteTs,
    ];
  }

  /** A line read without its record gives what its record gives (-0 and 0 told apart). */
  function expectSame(header: readonly string[], line: string): boolean {
    const fast = byLine(header, line);
    if (fast === false) return false;
    expect(fast, line).toStrictEqual(byRecord(header, line));
    return true;
  }

  const good = ['SPXW  261120C06705000', String(T), '1', '5.36', '3', '313', '209', '', '', '5.3', '5.4', String(T - 300)];

  it('reads plain lines as their records do', () => {
    expect(expectSame(HEADER, good.join(','))).toBe(true);
    const variants: [number, string][] = [
      [3, '007.10'],
      [3, '0.00000000000001'],
      [3, '12345678901234.5'],
      [3, '123456789012345'],
      [2, '007'],
      [2, '123456789012345'],
      [4, '2000000000'],
      [6, ''],
      [6, '0'],
      [7, '219'],
      [7, '232|236'],
      [7, '232||236|'],
      [8, 'buy'],
      [8, 'sell'],
      [9, '0'],
      [9, ''],
      [10, ''],
      [11, ''],
      [1, '946684800000'],
      [1, '4102444799999'],
      [0, 'SPXW261120C06705000'],
      [0, 'O:SPY261120C00660000'],
      [0, 'spxw  261120c06705000'],
    ];
    for (const [k, value] of variants) {
      const cells = [...good];
      cells[k] = value;
      expect(expectSame(HEADER, cells.join(',')), cells.join(',')).toBe(true);
    }
    // No quote at all: quote_timestamp is not looked at.
    const noQuote = [...good];
    noQuote[9] = '';
    noQuote[10] = '';
    noQuote[11] = 'not a time';
    expect(expectSame(HEADER, noQuote.join(','))).toBe(true);
  });

  it('declines every other form, to be read by its record', () => {
    const variants: [number, string][] = [
      [3, '1e3'],
      [3, '.5'],
      [3, '5.'],
      [3, '+5'],
      [3, ' 5'],
      [3, '0'],
      [3, '1234567890123456'],
      [3, '1.234567890123456'],
      [3, '0.000000000000001'],
      [3, 'Infinity'],
      [3, '0x10'],
      [2, '-0'],
      [2, '1234567890123456'],
      [2, ''],
      [4, '2000000001'],
      [4, '0'],
      [1, '946684799999'],
      [1, '4102444800000'],
      [1, '2026-11-20T14:30:00Z'],
      [7, '232 236'],
      [8, 'BUY'],
      [9, '-0.5'],
      [11, '2026-11-20T14:30:00Z'],
      [0, ' SPY   261120C00660000'],
      [0, 'SPY   261120C00660000\u00a0'],
      [0, ''],
      [0, '"SPY   261120C00660000"'],
    ];
    for (const [k, value] of variants) {
      const cells = [...good];
      cells[k] = value;
      expect(byLine(HEADER, cells.join(',')), cells.join(',')).toBe(false);
    }
    expect(byLine(HEADER, good.slice(1).join(','))).toBe(false);
    expect(byLine(HEADER, `${good.join(',')},x`)).toBe(false);
    expect(byLine(HEADER.slice(1), good.slice(1).join(','))).toBe(false);
  });

  it('takes each field from the column its record keeps: reordered, repeated and extra columns', () => {
    const header = [...HEADER].reverse();
    expect(expectSame(header, [...good].reverse().join(','))).toBe(true);
    expect(expectSame([...HEADER, 'note', 'price'], [...good, 'x', '7.25'].join(','))).toBe(true);
    expect(byLine([...HEADER, 'note', 'price'], [...good, 'x', '7.25'].join(','))).toMatchObject({ 3: 7.25 });
  });

  it('agrees with the record on seeded random lines, good and bad', () => {
    let seed = 20261125;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    const digits = (n: number): string => Array.from({ length: n }, () => String(Math.floor(random() * 10))).join('');
    const number = (): string =>
      pick([
        () => digits(1 + Math.floor(random() * 17)),
        () => `${digits(1 + Math.floor(random() * 9))}.${digits(1 + Math.floor(random() * 9))}`,
        () => `${digits(Math.floor(random() * 3))}.${digits(Math.floor(random() * 3))}`,
        () => pick(['-', '+', ' ', '']) + digits(1 + Math.floor(random() * 4)) + pick(['', 'e2', ' ', '.', '|', 'x']),
        () => pick(['', '0', '-0', '00', '0.0', 'NaN', '1_0']),
      ])();
    const symbols = [
      'SPXW  261120C06705000',
      'SPX   261120P06600000',
      'SPY261120C00660000',
      'ZZZQ  261120C00010000',
      'SPXW  261131C06705000',
      'BAD',
      'SPY   2611',
    ];
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      const cells = [...good];
      cells[1] = String(T + Math.floor(random() * 3e7));
      for (let k = Math.floor(random() * 4); k > 0; k--) {
        const at = Math.floor(random() * cells.length);
        cells[at] =
          at === 0
            ? pick(symbols)
            : at === 1 || at === 11
              ? pick([String(T + Math.floor(random() * 1e6)), digits(13), digits(12), '', number()])
              : at === 7
                ? pick(['', '219', '232|236', '|', `${digits(2)}|${digits(3)}`, digits(20), number()])
                : at === 8
                  ? pick(['', 'buy', 'sell', 'Buy', 'x'])
                  : number();
      }
      if (random() < 0.02) cells.push('x');
      if (random() < 0.02) cells.pop();
      const line = cells.join(',');
      if (expectSame(HEADER, line)) taken += 1;
    }
    // Most lines are read without a record, and some are declined.
    expect(taken).toBeGreaterThan(6_000);
    expect(taken).toBeLessThan(19_000);
  });
});
