import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { futuresSymbols, futuresTradeDateOf, futuresTradeOf, futuresTradeWindow } from './futures-trades.js';

const parametersOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return (error.details ?? []).map((d) => d.parameter);
    throw error;
  }
  return [];
};

describe('futures trades: trade date, window, symbols', () => {
  it('defaults to the trade date trading now, else the last one closed', () => {
    // Friday 2026-11-20 10:00 ET: Friday's trade date is trading.
    expect(futuresTradeDateOf(undefined, Date.parse('2026-11-20T15:00:00Z'))).toBe('2026-11-20');
    // Thursday 18:30 ET: already Friday's trade date.
    expect(futuresTradeDateOf(undefined, Date.parse('2026-11-19T23:30:00Z'))).toBe('2026-11-20');
    // The daily halt (Thursday 17:30 ET) and the weekend: the trade date that closed last.
    expect(futuresTradeDateOf(undefined, Date.parse('2026-11-19T22:30:00Z'))).toBe('2026-11-19');
    expect(futuresTradeDateOf(undefined, Date.parse('2026-11-22T12:00:00Z'))).toBe('2026-11-20');
    // Thanksgiving (Thursday 2026-11-26) after its 13:00 ET halt: Friday's trade date has not closed, Wednesday's is the last closed.
    expect(futuresTradeDateOf(undefined, Date.parse('2026-11-26T20:00:00Z'))).toBe('2026-11-25');
    expect(futuresTradeDateOf('2026-11-18', 0)).toBe('2026-11-18');
  });

  it('reads the whole Globex session of the trade date, and refuses a window that leaves it', () => {
    const open = Date.parse('2026-11-19T23:00:00Z');
    const close = Date.parse('2026-11-20T22:00:00Z');
    expect(futuresTradeWindow('2026-11-20', undefined, undefined)).toEqual({ from: open, to: close });
    expect(futuresTradeWindow('2026-11-20', open + 1, close - 1)).toEqual({ from: open + 1, to: close - 1 });
    expect(parametersOf(() => futuresTradeWindow('2026-11-21', undefined, undefined))).toEqual(['date']);
    expect(parametersOf(() => futuresTradeWindow('2026-11-20', open - 1, close + 1))).toEqual(['start_time', 'end_time']);
    expect(parametersOf(() => futuresTradeWindow('2026-11-20', open + 10, open + 10))).toEqual(['end_time']);
    // After Thanksgiving the Friday trade date holds Thursday's abbreviated session too (from Wednesday 18:00 ET).
    expect(futuresTradeWindow('2026-11-27', undefined, undefined)).toEqual({
      from: Date.parse('2026-11-25T23:00:00Z'),
      to: Date.parse('2026-11-27T18:15:00Z'),
    });
  });

  it('names a contract month canonically and as Globex does, and serves a trade with its notional', () => {
    expect(futuresSymbols('ES', '2026-12')).toEqual({ symbol: 'ESZ26', globex_symbol: 'ESZ6' });
    expect(futuresSymbols('M2K', '2030-03')).toEqual({ symbol: 'M2KH30', globex_symbol: 'M2KH0' });
    const trade = futuresTradeOf({
      symbol: 'NQZ6',
      contractMonth: '2026-12',
      multiplier: 20,
      tradeDate: '2026-11-20',
      contractId: 3,
      sequence: 9,
      match: 1,
      root: 'NQ',
      ts: 1,
      price: 21000.25,
      size: 3,
      aggressorSide: null,
    });
    expect(trade).toMatchObject({ symbol: 'NQZ26', aggressor_side: 'none', notional: 1_260_015 });
  });
});
