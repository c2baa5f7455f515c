import { describe, expect, it } from 'vitest';
import { bucketOf, INTERVAL_MS, ivSample, lastQuotePerBucket, MAX_RANGE_MS, regularWindows, resolveIvRange } from './iv-samples.js';
import { bsmPrice } from './pricing.js';
import { yearsToSettlement } from './settlement.js';

const at = (iso: string): number => Date.parse(iso);
const OPEN = at('2026-11-20T14:30:00Z');

describe('buckets and windows', () => {
  it('aligns buckets to 09:30 ET of the date', () => {
    expect(bucketOf(OPEN + 4 * 60_000, INTERVAL_MS['5m'])).toBe(OPEN);
    expect(bucketOf(OPEN + 5 * 60_000, INTERVAL_MS['5m'])).toBe(OPEN + 300_000);
    expect(bucketOf(OPEN + 89 * 60_000, INTERVAL_MS['1h'])).toBe(OPEN + 3_600_000);
  });

  it('lists the regular sessions of a range: 16:15 ET for index and ETF roots, 16:00 for equities, none on holidays', () => {
    expect(regularWindows(at('2026-11-25T00:00:00Z'), at('2026-11-28T00:00:00Z'), 'SPY')).toEqual([
      { start: at('2026-11-25T14:30:00Z'), end: at('2026-11-25T21:15:00Z') },
      { start: at('2026-11-27T14:30:00Z'), end: at('2026-11-27T18:15:00Z') },
    ]);
    expect(regularWindows(at('2026-11-20T15:00:00Z'), at('2026-11-20T23:00:00Z'), 'AAPL')).toEqual([{ start: at('2026-11-20T15:00:00Z'), end: at('2026-11-20T21:00:00Z') }]);
    expect(regularWindows(946684800000, 946684800000 + 86_400_000, 'SPY')).toEqual([]);
    expect(regularWindows(4102444800000 - 86_400_000, 4102444800000, 'SPY')).toEqual([]);
  });

  it('keeps the last quote of each bucket', () => {
    const q = (m: number, bid: number) => ({ minute: OPEN + m * 60_000, quoteTs: OPEN + m * 60_000 + 5, bid, ask: bid + 0.1 });
    expect(lastQuotePerBucket([q(0, 1), q(3, 2), q(5, 3), q(11, 4)], INTERVAL_MS['5m']).map((b) => [b.bucket, b.quote.bid])).toEqual([
      [OPEN, 2],
      [OPEN + 300_000, 3],
      [OPEN + 600_000, 4],
    ]);
  });
});

describe('resolveIvRange', () => {
  const base = { root: 'SPY', defaultDate: '2026-11-20' };
  it('takes one date, a range, one bound or the latest session', () => {
    expect(resolveIvRange(base)).toEqual({ ok: true, from: OPEN, to: at('2026-11-20T21:15:00Z') });
    expect(resolveIvRange({ ...base, date: '2026-11-21' })).toEqual({ ok: true, from: 0, to: 0 });
    expect(resolveIvRange({ ...base, startTime: OPEN })).toEqual({ ok: true, from: OPEN, to: OPEN + MAX_RANGE_MS });
    expect(resolveIvRange({ ...base, endTime: OPEN })).toEqual({ ok: true, from: OPEN - MAX_RANGE_MS, to: OPEN });
  });
  it('names the parameters of a bad range', () => {
    const names = (r: ReturnType<typeof resolveIvRange>) => (r.ok ? [] : r.problems.map((p) => p.parameter));
    expect(names(resolveIvRange({ ...base, date: '2026-11-20', endTime: OPEN }))).toEqual(['date', 'end_time']);
    expect(names(resolveIvRange({ ...base, startTime: OPEN, endTime: OPEN - 1 }))).toEqual(['start_time', 'end_time']);
    expect(names(resolveIvRange({ ...base, startTime: OPEN, endTime: OPEN + MAX_RANGE_MS + 1 }))).toEqual(['start_time', 'end_time']);
  });
});

describe('ivSample', () => {
  const contract = { optionSymbol: 'SPY   261218C00590000', root: 'SPY', underlying: 'SPY', type: 'call' as const, strike: 590, dateOfExpiry: '2026-12-18' };
  const minute = OPEN + 60 * 60_000;
  const quoteTs = minute + 30_000;
  const time = yearsToSettlement(quoteTs, 'SPY', '2026-12-18');
  const price = (vol: number) => bsmPrice({ type: 'call', spot: 588.5, strike: 590, time, rate: 0.04, dividendYield: 0.013, volatility: vol });

  it('solves bid, ask and midpoint at the bar of the minute, else of the minute before', () => {
    const bid = Math.round(price(0.15) * 100) / 100;
    const ask = Math.round(price(0.17) * 100) / 100;
    const bars = new Map([[minute - 60_000, { ts: minute - 60_000, close: 588.5 }]]);
    const s = ivSample(contract, OPEN + 3_600_000, { minute, quoteTs, bid, ask }, bars);
    expect(s).toMatchObject({ bid, ask, midpoint: (bid + ask) / 2, underlying_price: 588.5, underlying_timestamp: minute - 60_000, timestamp: OPEN + 3_600_000, option_symbol: contract.optionSymbol });
    expect(s.bid_implied_volatility!).toBeGreaterThan(0.13);
    expect(s.bid_implied_volatility!).toBeLessThan(s.implied_volatility!);
    expect(s.implied_volatility!).toBeLessThan(s.ask_implied_volatility!);
    expect(s.ask_implied_volatility!).toBeLessThan(0.19);
  });

  it('leaves volatilities null without an underlying price or a valid quote', () => {
    expect(ivSample(contract, OPEN, { minute, quoteTs, bid: 1, ask: 1.1 }, new Map())).toMatchObject({ underlying_price: null, implied_volatility: null, bid_implied_volatility: null, underlying_timestamp: null });
    const bars = new Map([[minute, { ts: minute, close: 588.5 }]]);
    expect(ivSample(contract, OPEN, { minute, quoteTs, bid: null, ask: 0 }, bars)).toMatchObject({ bid: null, ask: null, midpoint: null, implied_volatility: null, ask_implied_volatility: null });
    expect(ivSample(contract, OPEN, { minute, quoteTs, bid: 0, ask: 0.05 }, bars)).toMatchObject({ bid: 0, bid_implied_volatility: null, midpoint: 0.025 });
  });
});
