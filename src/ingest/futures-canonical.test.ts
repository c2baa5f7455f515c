import { describe, expect, it } from 'vitest';
import {
  globexTradeDate,
  parseFuturesBarFields,
  parseFuturesDefinitionFields,
  parseFuturesStatisticFields,
  parseFuturesSymbol,
  parseFuturesTradeFields,
  settlementReplaces,
} from './futures-canonical.js';

const ESZ6_EXPIRATION = Date.parse('2026-12-18T14:30:00Z');

describe('futures symbols and trade dates', () => {
  it('reads root, month and year digits, the root as short as the rest allows', () => {
    expect(parseFuturesSymbol('ESZ6')).toEqual({ symbol: 'ESZ6', root: 'ES', month: 12, yearDigits: '6' });
    expect(parseFuturesSymbol('rtyh27')).toEqual({ symbol: 'RTYH27', root: 'RTY', month: 3, yearDigits: '27' });
    expect(parseFuturesSymbol('6EM7')).toEqual({ symbol: '6EM7', root: '6E', month: 6, yearDigits: '7' });
    expect(parseFuturesSymbol('MESU6')).toMatchObject({ root: 'MES', month: 9 });
    expect(parseFuturesSymbol('ESA6')).toMatch(/^symbol "ESA6" is not a futures symbol/);
    expect(parseFuturesSymbol('Z6')).toMatch(/is not a futures symbol/);
    expect(parseFuturesSymbol('ES-Z6')).toMatch(/is not a futures symbol/);
  });

  it('dates a Globex instant by the day that opened at 18:00 ET the evening before, weekends to Monday', () => {
    // Thursday 16:59 ET (before the 17:00 halt) is Thursday; an instant in the halt and 18:00 ET are Friday's.
    expect(globexTradeDate(Date.parse('2026-11-19T21:59:00Z'))).toBe('2026-11-19');
    expect(globexTradeDate(Date.parse('2026-11-19T22:30:00Z'))).toBe('2026-11-20');
    expect(globexTradeDate(Date.parse('2026-11-19T23:00:00Z'))).toBe('2026-11-20');
    // Sunday 18:05 ET opens Monday's trade date.
    expect(globexTradeDate(Date.parse('2026-11-22T23:05:00Z'))).toBe('2026-11-23');
    // Friday 16:59 ET is still Friday.
    expect(globexTradeDate(Date.parse('2026-11-20T21:59:00Z'))).toBe('2026-11-20');
    // Summer time: Sunday 18:00 EDT is 22:00 UTC.
    expect(globexTradeDate(Date.parse('2026-06-14T22:00:00Z'))).toBe('2026-06-15');
  });

  it('follows CME holidays and early halts: an instant after an early halt belongs to the next trade date', () => {
    // Thanksgiving 2026 (Thursday 11-26): Wednesday evening's session belongs to Friday 11-27's trade
    // date, as does Thursday until its 13:00 ET halt; after it, still Friday (the next to open).
    expect(globexTradeDate(Date.parse('2026-11-25T23:30:00Z'))).toBe('2026-11-27');
    expect(globexTradeDate(Date.parse('2026-11-26T17:59:00Z'))).toBe('2026-11-27');
    // Friday 11-27 halts at 13:15 ET (18:15 UTC): a trade at 13:20 ET would queue for Monday 11-30.
    expect(globexTradeDate(Date.parse('2026-11-27T18:14:00Z'))).toBe('2026-11-27');
    expect(globexTradeDate(Date.parse('2026-11-27T18:20:00Z'))).toBe('2026-11-30');
    // Christmas 2026 (Friday) is closed: Thursday 12-24 after its 13:15 ET halt belongs to Monday 12-28.
    expect(globexTradeDate(Date.parse('2026-12-24T19:00:00Z'))).toBe('2026-12-28');
    // Past the calendar's years, the weekly rule alone.
    expect(globexTradeDate(Date.parse('2040-03-06T23:30:00Z'))).toBe('2040-03-07');
  });
});

describe('canonical futures records', () => {
  const definition = {
    symbol: 'ESZ6',
    contract_month: '2026-12',
    expiration: String(ESZ6_EXPIRATION),
    tick_size: '0.25',
    multiplier: '50',
    currency: 'USD',
    instrument_id: '42140864',
  };

  it('reads a definition, its root defaulting to the symbol less month and year', () => {
    expect(parseFuturesDefinitionFields(definition)).toEqual({
      symbol: 'ESZ6',
      root: 'ES',
      contractMonth: '2026-12',
      expiration: ESZ6_EXPIRATION,
      tickSize: 0.25,
      multiplier: 50,
      currency: 'USD',
      instrumentId: 42140864,
    });
    expect(
      parseFuturesDefinitionFields({ ...definition, currency: '', instrument_id: '', expiration: '2026-12-18T14:30:00Z' }),
    ).toMatchObject({
      currency: 'USD',
      instrumentId: null,
      expiration: ESZ6_EXPIRATION,
    });
  });

  it('rejects a definition whose month is not the symbol’s, or whose tick or multiplier is not positive', () => {
    expect(parseFuturesDefinitionFields({ ...definition, contract_month: '2026-09' })).toBe(
      'contract_month 2026-09 is not the month symbol ESZ6 names',
    );
    expect(parseFuturesDefinitionFields({ ...definition, contract_month: '2027-12' })).toBe(
      'contract_month 2027-12 is not the month symbol ESZ6 names',
    );
    expect(parseFuturesDefinitionFields({ ...definition, contract_month: '2026-13' })).toBe('contract_month "2026-13" is not YYYY-MM');
    expect(parseFuturesDefinitionFields({ ...definition, tick_size: '0' })).toBe('tick_size "0" must be a positive number');
    expect(parseFuturesDefinitionFields({ ...definition, multiplier: '' })).toBe('multiplier "" must be a positive number');
    expect(parseFuturesDefinitionFields({ ...definition, root: 'NQ' })).toBe('root NQ is not the start of symbol ESZ6');
    expect(parseFuturesDefinitionFields({ ...definition, currency: 'dollars' })).toBe(
      'currency "dollars" is not a three-letter ISO 4217 code',
    );
  });

  it('reads a trade, its trade date from the Globex day unless given, and rejects bad fields', () => {
    const trade = {
      symbol: 'ESZ6',
      timestamp: String(Date.parse('2026-11-19T23:00:00.125Z')),
      sequence: '9071',
      price: '5912.75',
      size: '3',
    };
    expect(parseFuturesTradeFields({ ...trade, aggressor_side: 'BUY' })).toEqual({
      symbol: 'ESZ6',
      ts: Date.parse('2026-11-19T23:00:00.125Z'),
      sequence: 9071,
      price: 5912.75,
      size: 3,
      aggressorSide: 'buy',
      tradeDate: '2026-11-20',
    });
    expect(parseFuturesTradeFields({ ...trade, trade_date: '2026-11-23' })).toMatchObject({ tradeDate: '2026-11-23', aggressorSide: null });
    expect(parseFuturesTradeFields({ ...trade, price: '-1.5' })).toMatchObject({ price: -1.5 });
    expect(parseFuturesTradeFields({ ...trade, trade_date: '2026-11-21' })).toBe(
      'trade_date 2026-11-21 is a weekend day, never a trade date',
    );
    expect(parseFuturesTradeFields({ ...trade, trade_date: '2026-02-30' })).toBe('trade_date "2026-02-30" is not a date (YYYY-MM-DD)');
    expect(parseFuturesTradeFields({ ...trade, size: '0' })).toBe('size "0" must be a positive integer');
    expect(parseFuturesTradeFields({ ...trade, sequence: '-1' })).toBe('sequence "-1" is not a non-negative integer');
    expect(parseFuturesTradeFields({ ...trade, price: 'x' })).toBe('price "x" is not a number');
    expect(parseFuturesTradeFields({ ...trade, aggressor_side: 'N' })).toBe('aggressor_side "N" must be buy, sell or empty');
    expect(parseFuturesTradeFields({ ...trade, timestamp: '12' })).toBe('timestamp "12" is not Unix ms or ISO-8601 within 2000..2099');
  });

  it('reads a bar and rejects one off the minute, unbounded, or without an integer volume', () => {
    const bar = {
      symbol: 'ESZ6',
      timestamp: '1795186800000',
      open: '5912.75',
      high: '5914',
      low: '5911.5',
      close: '5913.25',
      volume: '1843',
    };
    expect(parseFuturesBarFields(bar)).toEqual({
      symbol: 'ESZ6',
      ts: 1795186800000,
      open: 5912.75,
      high: 5914,
      low: 5911.5,
      close: 5913.25,
      volume: 1843,
    });
    expect(parseFuturesBarFields({ ...bar, timestamp: '1795186800500' })).toBe('timestamp 1795186800500 is not the start of a minute');
    expect(parseFuturesBarFields({ ...bar, high: '5913' })).toBe('high and low do not bound open and close');
    expect(parseFuturesBarFields({ ...bar, volume: '1.5' })).toBe('volume "1.5" must be a non-negative integer');
  });

  it('reads statistics: a settlement needs its status, and a record needs at least one figure', () => {
    const base = { symbol: 'ESZ6', trade_date: '2026-11-20' };
    expect(
      parseFuturesStatisticFields({ ...base, settlement_price: '5915.25', settlement_status: 'Final', timestamp: '1795215000000' }),
    ).toEqual({
      symbol: 'ESZ6',
      tradeDate: '2026-11-20',
      settlement: { price: 5915.25, final: true },
      openInterest: null,
      clearedVolume: null,
      ts: 1795215000000,
    });
    expect(parseFuturesStatisticFields({ ...base, open_interest: '2101334', cleared_volume: '1504211' })).toMatchObject({
      settlement: null,
      openInterest: 2101334,
      clearedVolume: 1504211,
      ts: null,
    });
    expect(parseFuturesStatisticFields({ ...base, settlement_price: '5915.25' })).toBe(
      'settlement_status "" must be final or preliminary with a settlement_price',
    );
    expect(parseFuturesStatisticFields({ ...base, settlement_status: 'final' })).toBe(
      'settlement_status "final" is given without a settlement_price',
    );
    expect(parseFuturesStatisticFields(base)).toBe('none of settlement_price, open_interest and cleared_volume is given');
    expect(parseFuturesStatisticFields({ ...base, open_interest: '-3' })).toBe('open_interest "-3" must be a non-negative integer');
    expect(parseFuturesStatisticFields({ ...base, trade_date: '', open_interest: '3' })).toBe('trade_date "" is not a date (YYYY-MM-DD)');
  });
});

describe('settlement supersession', () => {
  it('lets a final replace a preliminary, never the reverse, and a later one of the same status replace an earlier', () => {
    const prelim = (ts: number | null) => ({ final: false, ts });
    const final = (ts: number | null) => ({ final: true, ts });
    expect(settlementReplaces(prelim(1), null)).toBe(true);
    expect(settlementReplaces(final(1), prelim(5))).toBe(true);
    expect(settlementReplaces(prelim(9), final(5))).toBe(false);
    expect(settlementReplaces(prelim(null), final(5))).toBe(false);
    expect(settlementReplaces(final(6), final(5))).toBe(true);
    expect(settlementReplaces(final(4), final(5))).toBe(false);
    expect(settlementReplaces(prelim(5), prelim(5))).toBe(true);
    expect(settlementReplaces(prelim(null), prelim(5))).toBe(true);
  });
});
