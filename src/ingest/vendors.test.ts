import { describe, expect, it } from 'vitest';
import { databentoPrice, databentoTime, exchangeCodeFromDatabentoPublisher, VENDOR_ADAPTERS } from './vendors.js';

describe('Massive flat files', () => {
  it('maps an options trade: nanosecond SIP time to ms, first condition as the code, the rest extended, line as sequence', () => {
    const mapped = VENDOR_ADAPTERS['massive-trades'].map(
      {
        ticker: 'O:SPY261120C00660000',
        conditions: '219,209',
        correction: '0',
        exchange: '308',
        participant_timestamp: '1795185200009995000',
        price: '3.2',
        sip_timestamp: '1795185200010999999',
        size: '10',
      },
      14,
    );
    expect(mapped).toEqual({
      option_symbol: 'O:SPY261120C00660000',
      timestamp: '1795185200010',
      sequence: '14',
      price: '3.2',
      size: '10',
      exchange_code: '308',
      condition_code: '219',
      extended_conditions: '209',
    });
    expect(VENDOR_ADAPTERS['massive-trades'].map({ sip_timestamp: 'x' }, 1)).toMatch(/sip_timestamp/);
  });
  it('maps quotes with a zero side as missing, and minute aggregates without the index prefix', () => {
    expect(
      VENDOR_ADAPTERS['massive-quotes'].map(
        {
          ticker: 'O:SPY261120C00660000',
          ask_price: '3.25',
          ask_size: '15',
          bid_price: '0',
          bid_size: '0',
          sip_timestamp: '1795185225000000042',
        },
        2,
      ),
    ).toMatchObject({ bid: '', ask: '3.25', timestamp: '1795185225000' });
    expect(
      VENDOR_ADAPTERS['massive-minute-aggs'].map(
        { ticker: 'I:NDX', volume: '0', open: '1', close: '1', high: '1', low: '1', window_start: '1795185600000000000' },
        2,
      ),
    ).toMatchObject({ symbol: 'NDX', timestamp: '1795185600000' });
  });
});

describe('Databento OPRA', () => {
  it('reads prices in both encodings and treats UNDEF_PRICE as missing', () => {
    expect(databentoPrice('2.150000000')).toBe('2.150000000');
    expect(databentoPrice('2150000000')).toBe('2.15');
    expect(databentoPrice('9223372036854775807')).toBe('');
    expect(databentoPrice('abc')).toBeNull();
  });
  it('reads times as nanoseconds or ISO-8601', () => {
    expect(databentoTime('1795185660150000000')).toBe('1795185660150');
    expect(databentoTime('2026-11-20T14:41:00.000100000Z')).toBe('1795185660000');
  });
  it('names venues by publisher id', () => {
    expect(exchangeCodeFromDatabentoPublisher(22)).toBe(302); // XCBO Cboe
    expect(exchangeCodeFromDatabentoPublisher(26)).toBe(308); // XISX ISE
    expect(exchangeCodeFromDatabentoPublisher(37)).toBe(320); // MXOP MEMX
    expect(exchangeCodeFromDatabentoPublisher(99)).toBeNull();
  });
  it('maps a tbbo trade with the aggressor side and the BBO in force; skips non-trades', () => {
    const row = {
      ts_event: '2026-11-20T14:41:00.000100000Z',
      publisher_id: '22',
      action: 'T',
      side: 'B',
      price: '2.150000000',
      size: '7',
      sequence: '5001',
      bid_px_00: '2.100000000',
      ask_px_00: '2.150000000',
      symbol: 'QQQ   261120C00600000',
    };
    expect(VENDOR_ADAPTERS['databento-tbbo'].map(row, 2)).toMatchObject({
      timestamp: '1795185660000',
      exchange_code: '302',
      aggressor_side: 'buy',
      bid: '2.100000000',
      ask: '2.150000000',
      quote_timestamp: '1795185660000',
      condition_code: '',
    });
    expect(VENDOR_ADAPTERS['databento-tbbo'].map({ ...row, action: 'A' }, 2)).toBeNull();
    expect(VENDOR_ADAPTERS['databento-tbbo'].map({ ...row, publisher_id: '99' }, 2)).toMatch(/publisher_id/);
  });
  it('keeps only open interest from statistics, dated by the trading date of publication', () => {
    const row = { ts_event: '1795170600000000000', stat_type: '9', quantity: '4321', symbol: 'QQQ   261120C00600000' };
    expect(VENDOR_ADAPTERS['databento-statistics'].map(row, 2)).toEqual({
      option_symbol: 'QQQ   261120C00600000',
      date: '2026-11-20',
      open_interest: '4321',
    });
    expect(VENDOR_ADAPTERS['databento-statistics'].map({ ...row, stat_type: '6' }, 2)).toBeNull();
    // Published on Saturday 2026-11-21: applies to Monday 2026-11-23.
    expect(
      VENDOR_ADAPTERS['databento-statistics'].map({ ...row, ts_event: String(Date.parse('2026-11-21T15:00:00Z')) + '000000' }, 2),
    ).toMatchObject({ date: '2026-11-23' });
  });
  it('maps option definitions and skips other instrument classes', () => {
    expect(
      VENDOR_ADAPTERS['databento-definition'].map(
        { raw_symbol: 'QQQ   261120C00600000', underlying: 'QQQ', instrument_class: 'C', contract_multiplier: '100' },
        2,
      ),
    ).toEqual({ option_symbol: 'QQQ   261120C00600000', underlying: 'QQQ', multiplier: '100' });
    expect(VENDOR_ADAPTERS['databento-definition'].map({ raw_symbol: 'X', underlying: 'QQQ', instrument_class: 'F' }, 2)).toBeNull();
  });
  it('maps a cbbo-1m record as the BBO in force at the end of its interval, a zero side as none', () => {
    const row = {
      ts_recv: '1795185660000000000',
      ts_event: '1795185631000000000',
      rtype: '194',
      publisher_id: '30',
      instrument_id: '1',
      side: 'N',
      price: '2.150000000',
      size: '3',
      flags: '0',
      bid_px_00: '2.100000000',
      ask_px_00: '2.200000000',
      bid_sz_00: '12',
      ask_sz_00: '40',
      bid_pb_00: '22',
      ask_pb_00: '26',
      symbol: 'QQQ   261120C00600000',
    };
    expect(VENDOR_ADAPTERS['databento-cbbo'].map(row, 2)).toEqual({
      option_symbol: 'QQQ   261120C00600000',
      timestamp: '1795185660000',
      bid: '2.100000000',
      ask: '2.200000000',
      bid_size: '12',
      ask_size: '40',
    });
    expect(VENDOR_ADAPTERS['databento-cbbo'].map({ ...row, bid_px_00: '0', bid_sz_00: '0' }, 2)).toMatchObject({ bid: '', bid_size: '' });
    expect(VENDOR_ADAPTERS['databento-cbbo'].map({ ...row, bid_px_00: '9223372036854775807' }, 2)).toMatchObject({ bid: '', bid_size: '' });
    expect(VENDOR_ADAPTERS['databento-cbbo'].map({ ...row, ts_recv: 'x' }, 2)).toMatch(/ts_recv/);
  });
});
