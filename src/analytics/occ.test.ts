import { describe, expect, it } from 'vitest';
import { formatOccSymbol, parseOccSymbol, strikeToThousandths, thousandthsToStrike, type OccContract } from './occ.js';

describe('strikeToThousandths / thousandthsToStrike', () => {
  it('converts strikes to exact integer thousandths', () => {
    expect(strikeToThousandths(4.5)).toBe(4500);
    expect(strikeToThousandths(1234.5)).toBe(1234500);
    expect(strikeToThousandths(0.5)).toBe(500);
    expect(strikeToThousandths(0.001)).toBe(1);
    expect(strikeToThousandths(5900)).toBe(5900000);
    expect(strikeToThousandths(99999.999)).toBe(99999999);
    expect(strikeToThousandths(0.1 + 0.2)).toBe(300); // 0.30000000000000004: float noise tolerated
    expect(strikeToThousandths(2.675)).toBe(2675); // 2.67499999999999982236431605997495353221893310546875
  });

  it('throws RangeError beyond 3 decimals or outside 0.001..99999.999', () => {
    for (const bad of [12.3456, 0.0005, 1.0001, 0, -1, 100000, 99999.9995, NaN, Infinity]) {
      expect(() => strikeToThousandths(bad), String(bad)).toThrow(RangeError);
    }
  });

  it('converts thousandths back to the nearest double of the decimal strike', () => {
    expect(thousandthsToStrike(4500)).toBe(4.5);
    expect(thousandthsToStrike(1234500)).toBe(1234.5);
    expect(thousandthsToStrike(1)).toBe(0.001);
    expect(thousandthsToStrike(99999999)).toBe(99999.999);
    for (const bad of [0, -5, 1.5, 100000000, NaN]) expect(() => thousandthsToStrike(bad), String(bad)).toThrow(RangeError);
  });

  it('round-trips every thousandth in 1..200000 and a spread of large ones', () => {
    for (let t = 1; t <= 200_000; t++) {
      if (strikeToThousandths(thousandthsToStrike(t)) !== t) throw new Error(`round trip failed at ${t}`);
    }
    for (let t = 99_999_999; t > 1; t = Math.floor(t / 1.37)) {
      expect(strikeToThousandths(thousandthsToStrike(t))).toBe(t);
    }
  });
});

describe('formatOccSymbol', () => {
  it('pads the root to 6, then YYMMDD, C/P and the 8-digit strike in thousandths', () => {
    expect(formatOccSymbol({ root: 'SPXW', dateOfExpiry: '2024-12-20', type: 'call', strike: 5900 })).toBe('SPXW  241220C05900000');
    expect(formatOccSymbol({ root: 'AAPL', dateOfExpiry: '2025-01-17', type: 'put', strike: 150 })).toBe('AAPL  250117P00150000');
    expect(formatOccSymbol({ root: 'SPY', dateOfExpiry: '2026-03-20', type: 'put', strike: 4.5 })).toBe('SPY   260320P00004500');
    expect(formatOccSymbol({ root: 'BRKB', dateOfExpiry: '2025-06-20', type: 'call', strike: 1234.5 })).toBe('BRKB  250620C01234500');
    expect(formatOccSymbol({ root: 'F', dateOfExpiry: '2025-06-20', type: 'call', strike: 0.5 })).toBe('F     250620C00000500');
    expect(formatOccSymbol({ root: 'NDXP', dateOfExpiry: '2099-12-31', type: 'call', strike: 99999.999 })).toBe('NDXP  991231C99999999');
    expect(formatOccSymbol({ root: 'ABCDEF', dateOfExpiry: '2000-01-03', type: 'put', strike: 0.001 })).toBe('ABCDEF000103P00000001');
  });

  it('rejects invalid roots, dates outside 2000-2099, impossible dates and bad strikes', () => {
    const ok: OccContract = { root: 'SPX', dateOfExpiry: '2024-12-20', type: 'call', strike: 5900 };
    const bad: Partial<OccContract>[] = [
      { root: '' },
      { root: 'TOOLONG' },
      { root: 'spx' },
      { root: 'SP X' },
      { dateOfExpiry: '1999-12-17' },
      { dateOfExpiry: '2100-01-15' },
      { dateOfExpiry: '2024-02-30' },
      { dateOfExpiry: '2024-12-20T16:00' },
      { strike: 1.2345 },
      { strike: 0 },
      { strike: 100000 },
    ];
    for (const b of bad) expect(() => formatOccSymbol({ ...ok, ...b }), JSON.stringify(b)).toThrow(RangeError);
  });
});

describe('parseOccSymbol', () => {
  const spxw: OccContract = { root: 'SPXW', dateOfExpiry: '2024-12-20', type: 'call', strike: 5900 };

  it('parses the padded OCC form, the unpadded form and the O: prefix', () => {
    expect(parseOccSymbol('SPXW  241220C05900000')).toEqual(spxw);
    expect(parseOccSymbol('SPXW241220C05900000')).toEqual(spxw);
    expect(parseOccSymbol('O:SPXW241220C05900000')).toEqual(spxw);
    expect(parseOccSymbol('O:SPXW  241220C05900000')).toEqual(spxw);
    expect(parseOccSymbol('AAPL  250117P00150000')).toEqual({ root: 'AAPL', dateOfExpiry: '2025-01-17', type: 'put', strike: 150 });
  });

  it('keeps roots that end in digits apart from the date (adjusted contracts)', () => {
    expect(parseOccSymbol('AAPL1 250117C00150000')).toEqual({ root: 'AAPL1', dateOfExpiry: '2025-01-17', type: 'call', strike: 150 });
    expect(parseOccSymbol('O:AAPL1250117C00150000')).toEqual({ root: 'AAPL1', dateOfExpiry: '2025-01-17', type: 'call', strike: 150 });
  });

  it('reads fractional strikes exactly and years as 20YY', () => {
    expect(parseOccSymbol('SPY   260320P00004500').strike).toBe(4.5);
    expect(parseOccSymbol('BRKB  250620C01234500').strike).toBe(1234.5);
    expect(parseOccSymbol('F     250620C00000500').strike).toBe(0.5);
    expect(parseOccSymbol('NDXP  991231C99999999')).toEqual({ root: 'NDXP', dateOfExpiry: '2099-12-31', type: 'call', strike: 99999.999 });
    expect(parseOccSymbol('ABCDEF000103P00000001')).toEqual({ root: 'ABCDEF', dateOfExpiry: '2000-01-03', type: 'put', strike: 0.001 });
  });

  it('round-trips format → parse → format', () => {
    const contracts: OccContract[] = [
      spxw,
      { root: 'SPX', dateOfExpiry: '2013-01-19', type: 'put', strike: 1475 },
      { root: 'VIX', dateOfExpiry: '2024-12-18', type: 'call', strike: 17.5 },
      { root: 'QQQ', dateOfExpiry: '2025-02-28', type: 'put', strike: 512.5 },
      { root: 'X', dateOfExpiry: '2030-06-21', type: 'call', strike: 4.5 },
      { root: 'BRKB', dateOfExpiry: '2025-06-20', type: 'put', strike: 1234.5 },
      { root: 'ABCDEF', dateOfExpiry: '2031-01-17', type: 'call', strike: 0.5 },
      { root: 'NDXP', dateOfExpiry: '2027-12-17', type: 'put', strike: 99999.999 },
    ];
    for (const c of contracts) {
      const symbol = formatOccSymbol(c);
      expect(symbol).toHaveLength(21);
      expect(parseOccSymbol(symbol)).toEqual(c);
      expect(parseOccSymbol(`O:${symbol.replace(/ +/, '')}`)).toEqual(c);
    }
  });

  it('throws RangeError on malformed input', () => {
    const bad = [
      '',
      'O:',
      'SPXW 241220C05900000', // padding that does not reach 6 characters
      'SPXW   241220C05900000', // padding beyond 6 characters
      'SPXW  241320C05900000', // month 13
      'SPXW  240230C05900000', // 30 February
      'SPXW  241220X05900000', // neither C nor P
      'SPXW  241220C5900000', // 7 strike digits
      'SPXW  241220C005900000', // 9 strike digits
      'TOOLONG241220C05900000', // 7-character root
      'spxw241220c05900000', // lower case
      'SPXW  241220C00000000', // zero strike
      'SPXW  241220C05900000 ', // trailing blank
      ' SPXW 241220C05900000',
      'O:O:SPXW241220C05900000',
      '241220C05900000', // no root
    ];
    for (const s of bad) expect(() => parseOccSymbol(s), JSON.stringify(s)).toThrow(RangeError);
  });
});
