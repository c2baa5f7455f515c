import { describe, expect, it } from 'vitest';
import { type ApiError } from '../errors.js';
import { futuresSymbols, futuresTradeOf, futuresTradeWindow } from './futures-trades.js';

describe('futures trades: window, symbols', () => {
  it('reads the whole session of the trade date, 422 on a date that is not a trade date', () => {
    expect(futuresTradeWindow({ date: '2026-11-20' }, 0)).toEqual({
      tradeDate: '2026-11-20',
      from: Date.parse('2026-11-19T23:00:00Z'),
      to: Date.parse('2026-11-20T22:00:00Z'),
    });
    expect(() => futuresTradeWindow({ date: '2026-11-21' }, 0)).toThrow(expect.objectContaining({ status: 422 }) as ApiError);
    expect(() => futuresTradeWindow({ date: '2026-11-20', start_time: 1 }, 0)).toThrow(
      expect.objectContaining({ status: 400 }) as ApiError,
    );
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
