import { describe, expect, it } from 'vitest';
import { contractRef, isoToMs, nanosToMs, parseBarFields, parseCodes, parseContractFields, parseOpenInterestFields, parsePrintFields, parseQuoteFields, parseTimestampMs } from './canonical.js';

const T = 1795185000000; // 2026-11-20 09:30 ET

describe('contract symbols', () => {
  it('reads padded, unpadded and O:-prefixed OCC symbols into one padded key with exact strikes', () => {
    for (const s of ['SPXW  261120C06600000', 'SPXW261120C06600000', 'O:SPXW261120C06600000', 'o:spxw261120c06600000']) {
      expect(contractRef(s)).toMatchObject({ symbol: 'SPXW  261120C06600000', root: 'SPXW', dateOfExpiry: '2026-11-20', type: 'call', strike: 6600, strikeThousandths: 6600000 });
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
    expect(parsePrintFields(print, 3)).toMatchObject({ line: 3, sequence: 7, price: 5.1, size: 10, exchangeCode: 302, conditionCode: 209, extendedConditions: [219], aggressorSide: 'buy', quote: { bid: 5, ask: 5.1, timestamp: T - 500 } });
  });
  it('treats an empty condition as a regular sale and missing quote columns as no quote', () => {
    expect(parsePrintFields({ ...print, condition_code: '', extended_conditions: '', aggressor_side: '', bid: '', ask: '', quote_timestamp: '' }, 1)).toMatchObject({ conditionCode: 0, extendedConditions: [], aggressorSide: null, quote: null });
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
  it('reads quotes, bars, open interest and contracts', () => {
    expect(parseQuoteFields({ option_symbol: 'SPY   261120P00650000', timestamp: String(T), bid: '', ask: '2.1', bid_size: '', ask_size: '5' })).toMatchObject({ bid: null, ask: 2.1, bidSize: null, askSize: 5 });
    expect(parseQuoteFields({ option_symbol: 'SPY   261120P00650000', timestamp: String(T) })).toBe('bid and ask columns are required');
    expect(parseBarFields({ symbol: 'spx', timestamp: String(T), open: '1', high: '2', low: '1', close: '2', volume: '' })).toMatchObject({ symbol: 'SPX', volume: null });
    expect(parseBarFields({ symbol: 'SPX', timestamp: String(T + 1), open: '1', high: '2', low: '1', close: '2' })).toMatch(/not the start of a minute/);
    expect(parseBarFields({ symbol: 'SPX', timestamp: String(T), open: '1', high: '2', low: '1.5', close: '2' })).toBe('high and low do not bound open and close');
    expect(parseOpenInterestFields({ option_symbol: 'SPY   261120P00650000', date: '2026-11-21', open_interest: '5' })).toBe('date 2026-11-21 is not a trading day');
    expect(parseOpenInterestFields({ option_symbol: 'SPY   261120P00650000', date: '2026-11-20', open_interest: '5' })).toMatchObject({ date: '2026-11-20', openInterest: 5 });
    expect(parseContractFields({ option_symbol: 'SPXW261120C06600000', underlying: 'spx', multiplier: '' })).toMatchObject({ underlying: 'SPX', multiplier: null });
    expect(parseContractFields({ option_symbol: 'SPXW261120C06600000', multiplier: '0' })).toMatch(/^multiplier/);
  });
});
