import { describe, expect, it } from 'vitest';
import { splitCsvLine } from './records.js';
import { parseSplitRecord } from './splits.js';

const VALID = { symbol: 'AAPL', execution_date: '2020-08-31', split_from: '1', split_to: '4' };

function reason(fields: Record<string, string>): string {
  const result = parseSplitRecord(fields);
  if (typeof result !== 'string') throw new Error(`expected a rejection, got ${JSON.stringify(result)}`);
  return result;
}

describe('parseSplitRecord: accepted rows', () => {
  it('parses a valid forward split into numbers', () => {
    expect(parseSplitRecord(VALID)).toEqual({ symbol: 'AAPL', execution_date: '2020-08-31', split_from: 1, split_to: 4 });
  });

  it('parses a reverse split and fractional ratios', () => {
    expect(parseSplitRecord({ ...VALID, split_from: '10', split_to: '1' })).toMatchObject({ split_from: 10, split_to: 1 });
    expect(parseSplitRecord({ ...VALID, split_from: '2', split_to: '3.5' })).toMatchObject({ split_from: 2, split_to: 3.5 });
  });

  it('accepts a symbol with a .suffix', () => {
    expect(parseSplitRecord({ ...VALID, symbol: 'BRK.B' })).toMatchObject({ symbol: 'BRK.B' });
    expect(parseSplitRecord({ ...VALID, symbol: 'ABCDEF.1234' })).toMatchObject({ symbol: 'ABCDEF.1234' });
    expect(parseSplitRecord({ ...VALID, symbol: 'X' })).toMatchObject({ symbol: 'X' });
  });

  it('upper-cases a lower-case symbol', () => {
    expect(parseSplitRecord({ ...VALID, symbol: 'nvda' })).toMatchObject({ symbol: 'NVDA' });
    expect(parseSplitRecord({ ...VALID, symbol: 'brk.b' })).toMatchObject({ symbol: 'BRK.B' });
  });

  it('accepts an early-close trading day', () => {
    // Friday after Thanksgiving 2024: 1 p.m. close, still a trading day
    expect(parseSplitRecord({ ...VALID, execution_date: '2024-11-29' })).toMatchObject({ execution_date: '2024-11-29' });
  });

  it('ignores extra fields', () => {
    expect(parseSplitRecord({ ...VALID, note: 'hello' })).toEqual({
      symbol: 'AAPL',
      execution_date: '2020-08-31',
      split_from: 1,
      split_to: 4,
    });
  });
});

describe('parseSplitRecord: rejections', () => {
  it('rejects a bad symbol, quoting it', () => {
    for (const symbol of ['', '1ABC', 'ABCDEFG', 'BRK.', 'BRK.ABCDE', 'BRK-B', 'BR K', 'A.B.C']) {
      const r = reason({ ...VALID, symbol });
      expect(r, symbol).toMatch(/^symbol /);
      expect(r).toContain(`"${symbol}"`);
    }
    expect(reason({ execution_date: VALID.execution_date, split_from: '1', split_to: '2' })).toMatch(/^symbol ""/);
  });

  it('rejects a weekend', () => {
    // 2024-07-06 is a Saturday, 2024-07-07 a Sunday
    expect(reason({ ...VALID, execution_date: '2024-07-06' })).toBe('execution_date 2024-07-06 is not a trading day');
    expect(reason({ ...VALID, execution_date: '2024-07-07' })).toMatch(/not a trading day/);
  });

  it('rejects an exchange holiday', () => {
    expect(reason({ ...VALID, execution_date: '2024-07-04' })).toBe('execution_date 2024-07-04 is not a trading day');
    expect(reason({ ...VALID, execution_date: '2024-12-25' })).toMatch(/not a trading day/);
    // the one-off closure for President Carter's national day of mourning
    expect(reason({ ...VALID, execution_date: '2025-01-09' })).toMatch(/not a trading day/);
  });

  it('rejects dates out of the calendar range or malformed', () => {
    for (const date of [
      '1999-12-31',
      '2036-01-02',
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-7-5',
      '20240705',
      '07/05/2024',
      '2024-07-05T00:00:00Z',
      '',
    ]) {
      expect(reason({ ...VALID, execution_date: date }), date).toBe(`execution_date "${date}" is not a date from 2000-01-01 to 2035-12-31`);
    }
    expect(reason({ symbol: 'AAPL', split_from: '1', split_to: '2' })).toMatch(/^execution_date ""/);
  });

  it('accepts the first and last trading days of the calendar range', () => {
    expect(parseSplitRecord({ ...VALID, execution_date: '2000-01-03' })).toMatchObject({ execution_date: '2000-01-03' });
    expect(parseSplitRecord({ ...VALID, execution_date: '2035-12-31' })).toMatchObject({ execution_date: '2035-12-31' });
    expect(parseSplitRecord({ ...VALID, execution_date: '2024-02-29' })).toMatchObject({ execution_date: '2024-02-29' });
  });

  it('rejects a non-positive or non-numeric split_from', () => {
    for (const value of ['0', '-1', 'abc', '', ' ', 'NaN', 'Infinity', '1/2']) {
      expect(reason({ ...VALID, split_from: value }), value).toBe(`split_from "${value}" must be a positive number`);
    }
    expect(reason({ symbol: 'AAPL', execution_date: '2020-08-31', split_to: '2' })).toBe('split_from "" must be a positive number');
  });

  it('rejects a non-positive or non-numeric split_to', () => {
    for (const value of ['0', '-4', 'four', '', 'Infinity', '-0']) {
      expect(reason({ ...VALID, split_to: value }), value).toBe(`split_to "${value}" must be a positive number`);
    }
    expect(reason({ symbol: 'AAPL', execution_date: '2020-08-31', split_from: '1' })).toBe('split_to "" must be a positive number');
  });

  it('reports the first problem in field order: symbol, date, split_from, split_to', () => {
    expect(reason({ symbol: '1', execution_date: 'x', split_from: '0', split_to: '0' })).toMatch(/^symbol/);
    expect(reason({ symbol: 'A', execution_date: 'x', split_from: '0', split_to: '0' })).toMatch(/^execution_date/);
    expect(reason({ symbol: 'A', execution_date: '2020-08-31', split_from: '0', split_to: '0' })).toMatch(/^split_from/);
  });
});

describe('splitCsvLine', () => {
  it('splits a plain line on commas', () => {
    expect(splitCsvLine('AAPL,2020-08-31,1,4')).toEqual(['AAPL', '2020-08-31', '1', '4']);
    expect(splitCsvLine('single')).toEqual(['single']);
  });

  it('keeps empty fields, leading, inner and trailing', () => {
    expect(splitCsvLine('a,,b')).toEqual(['a', '', 'b']);
    expect(splitCsvLine(',a,')).toEqual(['', 'a', '']);
    expect(splitCsvLine('')).toEqual(['']);
    expect(splitCsvLine(',')).toEqual(['', '']);
    expect(splitCsvLine('"",x,""')).toEqual(['', 'x', '']);
  });

  it('keeps commas inside quoted fields', () => {
    expect(splitCsvLine('"BRK.B","a, b",3')).toEqual(['BRK.B', 'a, b', '3']);
    expect(splitCsvLine('x,"1,000,000"')).toEqual(['x', '1,000,000']);
  });

  it('unescapes doubled quotes inside quoted fields', () => {
    expect(splitCsvLine('"say ""hi""",2')).toEqual(['say "hi"', '2']);
    expect(splitCsvLine('""""')).toEqual(['"']);
    expect(splitCsvLine('a,"x""",b')).toEqual(['a', 'x"', 'b']);
  });

  it('does not trim spaces (the reader trims fields)', () => {
    expect(splitCsvLine(' a , b ')).toEqual([' a ', ' b ']);
    expect(splitCsvLine('" a ",b')).toEqual([' a ', 'b']);
  });
});
