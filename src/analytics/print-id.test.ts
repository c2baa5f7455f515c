import { describe, expect, it } from 'vitest';
import { contractKey, parsePrintId, printId, printIdOf } from './print-id.js';

describe('print ids', () => {
  const print = {
    root: 'SPXW',
    dateOfExpiry: '2024-12-20',
    strike: 5900,
    type: 'call' as const,
    tradingDate: '2024-12-19',
    sequence: 8812,
  };

  it('builds the documented forms', () => {
    expect(contractKey(print)).toBe('SPXW:2024-12-20:5900000:C');
    expect(printId(print)).toBe('SPXW:2024-12-20:5900000:C:2024-12-19:8812');
    expect(contractKey({ ...print, strike: 12.345, type: 'put' })).toBe('SPXW:2024-12-20:12345:P');
  });

  it('parses what it builds', () => {
    expect(parsePrintId(printId(print))).toEqual({ contractKey: 'SPXW:2024-12-20:5900000:C', tradingDate: '2024-12-19', sequence: 8812 });
    expect(parsePrintId(printId({ ...print, root: 'BRKB1', strike: 0.5, type: 'put', sequence: 0 }))).toEqual({
      contractKey: 'BRKB1:2024-12-20:500:P',
      tradingDate: '2024-12-19',
      sequence: 0,
    });
  });

  it('refuses text that is not a print id', () => {
    for (const text of [
      '',
      'SPXW:2024-12-20:5900000:C',
      'SPXW:2024-12-20:5900000:X:2024-12-19:1',
      'SPXW:2024-12-20:5900000:C:2024-12-19:1:2',
      ':2024-12-20:5900000:C:2024-12-19:1',
      'SPXW:2024-12-20:59.5:C:2024-12-19:1',
      'SPXW:2024-12-20:5900000:C:2024-12-19:-1',
    ]) {
      expect(parsePrintId(text)).toBeNull();
    }
  });
});

describe('printIdOf', () => {
  it('is printId from a contract key built before', () => {
    const print = { root: 'SPY', dateOfExpiry: '2026-12-18', strike: 600.5, type: 'put' as const, tradingDate: '2026-11-20', sequence: 42 };
    expect(printIdOf(contractKey(print), print.tradingDate, print.sequence)).toBe(printId(print));
  });
});
