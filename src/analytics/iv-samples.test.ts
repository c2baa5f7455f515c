import { describe, expect, it } from 'vitest';
import {
  bucketEnd,
  bucketOf,
  bucketsMeeting,
  INTERVAL_MS,
  ivSample,
  lastQuotePerBucket,
  MAX_RANGE_MS,
  parityCarries,
  resolveIvRange,
  sampleWindows,
} from './iv-samples.js';
import { bsmPrice } from './pricing.js';
import { dividendYield, riskFreeRate } from './rates.js';
import { yearsToSettlement } from './settlement.js';

const at = (iso: string): number => Date.parse(iso);
const OPEN = at('2026-11-20T14:30:00Z');

// Hand-computed instants (November 2026 is EST, UTC-5).
const H = 3_600_000;
const GTH_NOV20 = 1_795_137_300_000; // Thu 2026-11-19 20:15 ET = 2026-11-20T01:15Z: the overnight window of Fri 2026-11-20 opens
const GTH_NOV20_END = 1_795_184_700_000; // Fri 2026-11-20 09:25 ET = 14:25Z
const RTH_NOV20 = 1_795_185_000_000; // Fri 2026-11-20 09:30 ET = 14:30Z
const CLOSE_NOV20 = 1_795_209_300_000; // Fri 2026-11-20 16:15 ET = 21:15Z (index and ETF options)
const GTH_NOV23 = 1_795_396_500_000; // Sun 2026-11-22 20:15 ET = 2026-11-23T01:15Z: Monday's overnight window opens Sunday evening
const GTH_NOV23_END = 1_795_443_900_000; // Mon 2026-11-23 09:25 ET = 14:25Z
const GTH_NOV24 = 1_795_482_900_000; // Mon 2026-11-23 20:15 ET = 2026-11-24T01:15Z

describe('buckets and windows', () => {
  it('aligns regular buckets to 09:30 ET of the date', () => {
    expect(OPEN).toBe(RTH_NOV20);
    expect(bucketOf(OPEN + 4 * 60_000, INTERVAL_MS['5m'], OPEN)).toBe(OPEN);
    expect(bucketOf(OPEN + 5 * 60_000, INTERVAL_MS['5m'], OPEN)).toBe(OPEN + 300_000);
    expect(bucketOf(OPEN + 89 * 60_000, INTERVAL_MS['1h'], OPEN)).toBe(OPEN + 3_600_000);
  });

  it('aligns overnight buckets to 20:15 ET of the evening before: 20:15, 21:15, ... 09:15', () => {
    expect(bucketOf(GTH_NOV20 + 59 * 60_000, INTERVAL_MS['1h'], GTH_NOV20)).toBe(GTH_NOV20);
    expect(bucketOf(GTH_NOV20 + 60 * 60_000, INTERVAL_MS['1h'], GTH_NOV20)).toBe(1_795_140_900_000); // 21:15 ET
    expect(bucketOf(GTH_NOV20_END - 60_000, INTERVAL_MS['1h'], GTH_NOV20)).toBe(1_795_184_100_000); // 09:24 ET is in the 09:15 ET bucket
    expect(bucketOf(GTH_NOV20 + 44 * 60_000, INTERVAL_MS['30m'], GTH_NOV20)).toBe(GTH_NOV20 + 1_800_000); // 20:59 ET is in 20:45
  });

  it('lists the regular sessions of a range: 16:15 ET for index and ETF roots, 16:00 for equities, none on holidays', () => {
    expect(sampleWindows(at('2026-11-25T00:00:00Z'), at('2026-11-28T00:00:00Z'), 'SPY', 'rth')).toEqual([
      { start: at('2026-11-25T14:30:00Z'), end: at('2026-11-25T21:15:00Z'), grid: at('2026-11-25T14:30:00Z'), tradingDate: '2026-11-25' },
      { start: at('2026-11-27T14:30:00Z'), end: at('2026-11-27T18:15:00Z'), grid: at('2026-11-27T14:30:00Z'), tradingDate: '2026-11-27' },
    ]);
    expect(sampleWindows(at('2026-11-20T15:00:00Z'), at('2026-11-20T23:00:00Z'), 'AAPL', 'rth')).toEqual([
      { start: at('2026-11-20T15:00:00Z'), end: at('2026-11-20T21:00:00Z'), grid: OPEN, tradingDate: '2026-11-20' },
    ]);
    expect(sampleWindows(946684800000, 946684800000 + 86_400_000, 'SPY', 'rth')).toEqual([]);
    expect(sampleWindows(4102444800000 - 86_400_000, 4102444800000, 'SPY', 'rth')).toEqual([]);
  });

  it('lists the overnight windows of a range across dates, clipped, including the next date whose window opens inside it', () => {
    // Thu 22:00 ET to Mon 21:00 ET: Friday's window cut at the start, Monday's whole, Tuesday's cut at the end.
    const from = 1_795_143_600_000; // 2026-11-20T03:00Z
    const to = 1_795_485_600_000; // 2026-11-24T02:00Z
    expect(sampleWindows(from, to, 'SPXW', 'gth')).toEqual([
      { start: from, end: GTH_NOV20_END, grid: GTH_NOV20, tradingDate: '2026-11-20' },
      { start: GTH_NOV23, end: GTH_NOV23_END, grid: GTH_NOV23, tradingDate: '2026-11-23' },
      { start: GTH_NOV24, end: to, grid: GTH_NOV24, tradingDate: '2026-11-24' },
    ]);
    // all: each date's overnight window, then its regular session; Thanksgiving evening opens Friday's window.
    expect(
      sampleWindows(at('2026-11-25T00:00:00Z'), at('2026-11-28T00:00:00Z'), 'SPX', 'all').map((w) => [w.start, w.end, w.tradingDate]),
    ).toEqual([
      [1_795_569_300_000, 1_795_616_700_000, '2026-11-25'], // Tue 20:15 ET to Wed 09:25 ET
      [1_795_617_000_000, 1_795_641_300_000, '2026-11-25'], // Wed 09:30 to 16:15 ET
      [1_795_742_100_000, 1_795_789_500_000, '2026-11-27'], // Thu (holiday) 20:15 ET to Fri 09:25 ET
      [1_795_789_800_000, 1_795_803_300_000, '2026-11-27'], // Fri 09:30 to 13:15 ET (early close)
    ]);
    // A root without an overnight session: gth has no window, all only the regular ones.
    expect(sampleWindows(from, to, 'SPY', 'gth')).toEqual([]);
    expect(sampleWindows(from, to, 'SPY', 'all')).toEqual(sampleWindows(from, to, 'SPY', 'rth'));
    expect(sampleWindows(from, to, 'SPY', 'all').map((w) => w.tradingDate)).toEqual(['2026-11-20', '2026-11-23']);
  });

  it('keeps the last quote of each bucket', () => {
    const q = (m: number, bid: number) => ({ minute: OPEN + m * 60_000, quoteTs: OPEN + m * 60_000 + 5, bid, ask: bid + 0.1 });
    const windows = sampleWindows(OPEN, CLOSE_NOV20, 'SPY', 'rth');
    expect(
      lastQuotePerBucket([q(0, 1), q(3, 2), q(5, 3), q(11, 4)], INTERVAL_MS['5m'], windows).map((b) => [
        b.bucket,
        b.quote.bid,
        b.tradingDate,
      ]),
    ).toEqual([
      [OPEN, 2, '2026-11-20'],
      [OPEN + 300_000, 3, '2026-11-20'],
      [OPEN + 600_000, 4, '2026-11-20'],
    ]);
  });

  it('never lets a bucket span two windows, and resumes a cursor at the end of a cut bucket', () => {
    const windows = sampleWindows(GTH_NOV20, CLOSE_NOV20, 'SPX', 'all');
    const q = (minute: number, bid: number) => ({ minute, quoteTs: minute + 5, bid, ask: bid + 0.1 });
    // 09:20 ET (overnight, bucket 09:15) and 09:31 ET (regular, bucket 09:30) are 11 minutes apart in 1h buckets.
    const buckets = lastQuotePerBucket(
      [q(GTH_NOV20 + 5 * 60_000, 1), q(GTH_NOV20_END - 5 * 60_000, 2), q(RTH_NOV20 + 60_000, 3), q(CLOSE_NOV20 - 60_000, 4)],
      INTERVAL_MS['1h'],
      windows,
    );
    expect(buckets.map((b) => [b.bucket, b.quote.bid])).toEqual([
      [GTH_NOV20, 1],
      [GTH_NOV20 + 13 * H, 2],
      [RTH_NOV20, 3],
      [RTH_NOV20 + 6 * H, 4],
    ]);
    expect(bucketEnd(GTH_NOV20, INTERVAL_MS['1h'], windows)).toBe(GTH_NOV20 + H);
    expect(bucketEnd(GTH_NOV20 + 13 * H, INTERVAL_MS['1h'], windows)).toBe(GTH_NOV20_END); // 09:25 ET, not 10:15
    expect(bucketEnd(RTH_NOV20 + 6 * H, INTERVAL_MS['1h'], windows)).toBe(CLOSE_NOV20);
  });

  it('counts the buckets a complete series of a span holds: partly covered ones and cut last ones included', () => {
    const regular = sampleWindows(RTH_NOV20, CLOSE_NOV20, 'SPY', 'rth');
    // 09:30 to 16:15 ET: 405 minutes, 27 buckets of 15 minutes, 7 of an hour (the last cut at 16:15).
    expect(bucketsMeeting(regular, RTH_NOV20, CLOSE_NOV20, INTERVAL_MS['1m'])).toBe(405);
    expect(bucketsMeeting(regular, RTH_NOV20, CLOSE_NOV20, INTERVAL_MS['15m'])).toBe(27);
    expect(bucketsMeeting(regular, RTH_NOV20, CLOSE_NOV20, INTERVAL_MS['1h'])).toBe(7);
    // From inside a bucket (a page resuming mid-bucket): 10:07 to 11:30 ET meets 10:00, 10:15, ... 11:15.
    expect(bucketsMeeting(regular, RTH_NOV20 + 37 * 60_000, RTH_NOV20 + 2 * H, INTERVAL_MS['15m'])).toBe(6);
    expect(bucketsMeeting(regular, CLOSE_NOV20, CLOSE_NOV20 + H, INTERVAL_MS['1m'])).toBe(0);
    // Both windows of an all day: 20:15 to 09:25 ET is 790 minutes, 14 hour buckets (the last cut), and 7 regular.
    const all = sampleWindows(GTH_NOV20, CLOSE_NOV20, 'SPX', 'all');
    expect(bucketsMeeting(all, GTH_NOV20, CLOSE_NOV20, INTERVAL_MS['1h'])).toBe(14 + 7);
    expect(bucketsMeeting(all, GTH_NOV20, CLOSE_NOV20, INTERVAL_MS['1m'])).toBe(790 + 405);
  });
});

describe('resolveIvRange', () => {
  const base = { root: 'SPY', session: 'rth' as const, defaultDate: '2026-11-20' };
  it('takes one date, a range, one bound or the latest session', () => {
    expect(resolveIvRange(base)).toEqual({ ok: true, from: OPEN, to: at('2026-11-20T21:15:00Z') });
    expect(resolveIvRange({ ...base, date: '2026-11-21' })).toEqual({ ok: true, from: 0, to: 0 });
    expect(resolveIvRange({ ...base, startTime: OPEN })).toEqual({ ok: true, from: OPEN, to: OPEN + MAX_RANGE_MS });
    expect(resolveIvRange({ ...base, endTime: OPEN })).toEqual({ ok: true, from: OPEN - MAX_RANGE_MS, to: OPEN });
  });
  it('starts a gth date the evening before (Sunday for Monday), and an all date too, to the regular close', () => {
    const spx = { ...base, root: 'SPX' };
    expect(resolveIvRange({ ...spx, session: 'gth', date: '2026-11-20' })).toEqual({ ok: true, from: GTH_NOV20, to: GTH_NOV20_END });
    expect(resolveIvRange({ ...spx, session: 'gth', date: '2026-11-23' })).toEqual({ ok: true, from: GTH_NOV23, to: GTH_NOV23_END });
    expect(resolveIvRange({ ...spx, session: 'all', date: '2026-11-20' })).toEqual({ ok: true, from: GTH_NOV20, to: CLOSE_NOV20 });
    // The default is the overnight window of the latest regular session's date.
    expect(resolveIvRange({ ...spx, session: 'gth' })).toEqual({ ok: true, from: GTH_NOV20, to: GTH_NOV20_END });
    expect(resolveIvRange({ ...spx, session: 'gth', date: '2026-11-22' })).toEqual({ ok: true, from: 0, to: 0 });
    // A range is taken as given whatever the session; the windows inside it are sampleWindows'.
    expect(resolveIvRange({ ...spx, session: 'gth', startTime: OPEN })).toEqual({ ok: true, from: OPEN, to: OPEN + MAX_RANGE_MS });
  });
  it('gives a root without an overnight session no gth window, and its regular session for all', () => {
    expect(resolveIvRange({ ...base, session: 'gth', date: '2026-11-20' })).toEqual({ ok: true, from: 0, to: 0 });
    expect(resolveIvRange({ ...base, session: 'all', date: '2026-11-20' })).toEqual({ ok: true, from: RTH_NOV20, to: CLOSE_NOV20 });
  });
  it('names the parameters of a bad range', () => {
    const names = (r: ReturnType<typeof resolveIvRange>) => (r.ok ? [] : r.problems.map((p) => p.parameter));
    // Date and a time range together: a rule of the contract (x-parameter-rules), tested in parameter-rules.test.ts.
    expect(names(resolveIvRange({ ...base, startTime: OPEN, endTime: OPEN - 1 }))).toEqual(['start_time', 'end_time']);
    expect(names(resolveIvRange({ ...base, startTime: OPEN, endTime: OPEN + MAX_RANGE_MS + 1 }))).toEqual(['start_time', 'end_time']);
  });
});

describe('ivSample', () => {
  const contract = {
    optionSymbol: 'SPY   261218C00590000',
    root: 'SPY',
    underlying: 'SPY',
    type: 'call' as const,
    strike: 590,
    dateOfExpiry: '2026-12-18',
  };
  const minute = OPEN + 60 * 60_000;
  const quoteTs = minute + 30_000;
  const time = yearsToSettlement(quoteTs, 'SPY', '2026-12-18');
  const price = (vol: number) =>
    bsmPrice({ type: 'call', spot: 588.5, strike: 590, time, rate: 0.04, dividendYield: 0.013, volatility: vol });

  it('solves bid, ask and midpoint at the bar of the minute, else of the minute before', () => {
    const bid = Math.round(price(0.15) * 100) / 100;
    const ask = Math.round(price(0.17) * 100) / 100;
    const bars = new Map([[minute - 60_000, { ts: minute - 60_000, close: 588.5 }]]);
    const s = ivSample(contract, { bucket: OPEN + 3_600_000, quote: { minute, quoteTs, bid, ask }, tradingDate: '2026-11-20' }, bars);
    expect(s).toMatchObject({
      bid,
      ask,
      midpoint: (bid + ask) / 2,
      underlying_price: 588.5,
      underlying_timestamp: minute - 60_000,
      timestamp: OPEN + 3_600_000,
      option_symbol: contract.optionSymbol,
    });
    expect(s.bid_implied_volatility!).toBeGreaterThan(0.13);
    expect(s.bid_implied_volatility!).toBeLessThan(s.implied_volatility!);
    expect(s.implied_volatility!).toBeLessThan(s.ask_implied_volatility!);
    expect(s.ask_implied_volatility!).toBeLessThan(0.19);
  });

  it('leaves volatilities null without an underlying price or a valid quote', () => {
    expect(
      ivSample(contract, { bucket: OPEN, quote: { minute, quoteTs, bid: 1, ask: 1.1 }, tradingDate: '2026-11-20' }, new Map()),
    ).toMatchObject({ underlying_price: null, implied_volatility: null, bid_implied_volatility: null, underlying_timestamp: null });
    const bars = new Map([[minute, { ts: minute, close: 588.5 }]]);
    expect(
      ivSample(contract, { bucket: OPEN, quote: { minute, quoteTs, bid: null, ask: 0 }, tradingDate: '2026-11-20' }, bars),
    ).toMatchObject({ bid: null, ask: null, midpoint: null, implied_volatility: null, ask_implied_volatility: null });
  });

  it('serves a zero bid or ask as null (no bid, no offer), with no midpoint and no volatility for that side', () => {
    // A missing value is null, never 0: a zero bid is OPRA's "no bid"; its midpoint is not ask / 2.
    const bars = new Map([[minute, { ts: minute, close: 588.5 }]]);
    const ask = Math.round(price(0.17) * 100) / 100;
    const noBid = ivSample(contract, { bucket: OPEN, quote: { minute, quoteTs, bid: 0, ask }, tradingDate: '2026-11-20' }, bars);
    expect(noBid).toMatchObject({ bid: null, bid_implied_volatility: null, midpoint: null, implied_volatility: null, ask });
    expect(noBid.ask_implied_volatility!).toBeCloseTo(0.17, 2);
    const bid = Math.round(price(0.15) * 100) / 100;
    const noOffer = ivSample(contract, { bucket: OPEN, quote: { minute, quoteTs, bid, ask: 0 }, tradingDate: '2026-11-20' }, bars);
    expect(noOffer).toMatchObject({ bid, ask: null, ask_implied_volatility: null, midpoint: null, implied_volatility: null });
    expect(noOffer.bid_implied_volatility!).toBeCloseTo(0.15, 2);
    for (const quote of [
      { bid: null, ask },
      { bid: -0.05, ask },
      { bid: 0, ask: 0 },
      { bid: Number.NaN, ask },
    ]) {
      const s = ivSample(contract, { bucket: OPEN, quote: { minute, quoteTs, ...quote }, tradingDate: '2026-11-20' }, bars);
      expect(s, JSON.stringify(quote)).toMatchObject({ bid: null, bid_implied_volatility: null, midpoint: null, implied_volatility: null });
    }
  });

  it('solves an overnight bucket at the rate of its trading date, not of its evening', () => {
    // Tue 2020-03-31 21:00 ET (EDT) belongs to Wed 2020-04-01; the March and April 2020 rates differ.
    expect(riskFreeRate('2020-03-31')).not.toBe(riskFreeRate('2020-04-01'));
    const spx = {
      optionSymbol: 'SPXW  200417C02600000',
      root: 'SPXW',
      underlying: 'SPX',
      type: 'call' as const,
      strike: 2600,
      dateOfExpiry: '2020-04-17',
    };
    const evening = at('2020-04-01T01:00:00Z');
    const time = yearsToSettlement(evening, 'SPXW', '2020-04-17');
    const mid = bsmPrice({
      type: 'call',
      spot: 2500,
      strike: 2600,
      time,
      rate: riskFreeRate('2020-04-01'),
      dividendYield: dividendYield('SPX'),
      volatility: 0.5,
    });
    const bars = new Map([[evening, { ts: evening, close: 2500 }]]);
    const s = ivSample(
      spx,
      { bucket: at('2020-04-01T00:15:00Z'), quote: { minute: evening, quoteTs: evening, bid: mid, ask: mid }, tradingDate: '2020-04-01' },
      bars,
    );
    expect(s.implied_volatility!).toBeCloseTo(0.5, 6);
  });
});

describe('parityCarries: one forward for a call and a put of one strike', () => {
  // SPY 2026-12-18 quoted with a carry of 0.031, not the fixed 0.013 of rates.ts.
  const q = 0.031;
  const spot = 588.5;
  const minute = OPEN + 60 * 60_000;
  const quoteTs = minute + 30_000;
  const time = yearsToSettlement(quoteTs, 'SPY', '2026-12-18');
  const rate = riskFreeRate('2026-11-20');
  const vol = 0.16;
  const mid = (type: 'call' | 'put', strike: number): number =>
    bsmPrice({ type, spot, strike, time, rate, dividendYield: q, volatility: vol });
  const strikes = [580, 584, 586, 588, 589, 590, 592, 596];
  const quotes = strikes.flatMap((strike) =>
    (['call', 'put'] as const).map((type) => ({ strike, type, bid: mid(type, strike) - 0.02, ask: mid(type, strike) + 0.02 })),
  );
  const contractOf = (type: 'call' | 'put') => ({
    optionSymbol: `SPY   261218${type === 'call' ? 'C' : 'P'}00589000`,
    root: 'SPY',
    underlying: 'SPY',
    type,
    strike: 589,
    dateOfExpiry: '2026-12-18',
  });
  const bars = new Map([[minute, { ts: minute, close: spot }]]);
  const later = minute + 20 * 60_000;
  const bucketOfQuote = (type: 'call' | 'put', m: number) => ({
    bucket: m,
    quote: { minute: m, quoteTs: m + 30_000, bid: mid(type, 589) - 0.02, ask: mid(type, 589) + 0.02 },
    tradingDate: '2026-11-20',
  });

  it("solves the call and the put on the expiration's parity forward of the minute: one volatility, the forward stated", () => {
    const byMinute = new Map([[minute, quotes]]);
    const samples = (['call', 'put'] as const).map((type) => {
      const buckets = [bucketOfQuote(type, minute)];
      const carries = parityCarries(contractOf(type), buckets, byMinute, bars);
      expect(carries.get(minute)!).toBeCloseTo(q, 8);
      return ivSample(contractOf(type), buckets[0]!, bars, carries.get(minute) ?? null);
    });
    const [call, put] = samples as [ReturnType<typeof ivSample>, ReturnType<typeof ivSample>];
    expect(call.implied_volatility!).toBeCloseTo(vol, 6);
    expect(Math.abs(call.implied_volatility! - put.implied_volatility!)).toBeLessThan(0.001);
    expect(call.forward!).toBeCloseTo(spot * Math.exp((rate - q) * time), 6);
    // With the fixed 0.013 the two legs part by far more than 0.1 vol points.
    const fixed = (['call', 'put'] as const).map(
      (type) => ivSample(contractOf(type), bucketOfQuote(type, minute), bars).implied_volatility!,
    );
    expect(dividendYield('SPY')).toBe(0.013);
    expect(Math.abs(fixed[0]! - fixed[1]!)).toBeGreaterThan(0.001);
  });

  it("takes the nearest sampled minute's carry within 30 minutes, else none (the fixed yield, forward null)", () => {
    const byMinute = new Map([[minute, quotes]]);
    const near = [bucketOfQuote('call', minute), bucketOfQuote('call', later)];
    const carries = parityCarries(contractOf('call'), near, byMinute, new Map([...bars, [later, { ts: later, close: spot }]]));
    expect(carries.get(later)).toBe(carries.get(minute));
    const far = minute + 31 * 60_000;
    const none = parityCarries(contractOf('call'), [bucketOfQuote('call', far)], byMinute, new Map([[far, { ts: far, close: spot }]]));
    expect(none.size).toBe(0);
    expect(ivSample(contractOf('call'), bucketOfQuote('call', far), new Map([[far, { ts: far, close: spot }]])).forward).toBeNull();
  });
});
