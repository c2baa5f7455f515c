import { describe, expect, it } from 'vitest';
import { newYorkTimeToMs } from '../new-york-time.js';
import { bsmPrice } from '../pricing.js';
import { MS_PER_YEAR } from '../settlement.js';
import { QUARTER_SMILE_CHAIN, strikeRange, sviChain, uniformNoise } from './chain.fixtures.js';
import { constantMaturityVolatility } from './constant-maturity.js';
import type { ChainQuote } from './quotes.js';
import { chainAtmVolatility } from './surface.js';
import {
  bucketAtmVolatility,
  driftBuckets,
  driftPoints,
  firstOpenBucket,
  historyWindows,
  realizedWindow,
  thirtyDayExpirations,
  thirtyDayPair,
  type DriftInput,
  type DriftQuote,
} from './drift.js';
import type { MinuteBar } from './realized.js';
import type { ChosenExpiration } from './valuation.js';
import { tradingVarianceClock } from './variance-clock.js';

const MINUTE = 60_000;
const DAY_MS = 86_400_000;
const at = (date: string, time: string): number => newYorkTimeToMs(date, time);
// Tuesday 2025-03-11: a plain trading day.
const DATE = '2025-03-11';
const OPEN = at(DATE, '09:30');
const SPAN = { start: OPEN, end: at(DATE, '16:15') };
const expiration = (dateOfExpiry: string, time = '16:00'): ChosenExpiration => ({
  root: 'SPXW',
  dateOfExpiry,
  settlement: at(dateOfExpiry, time),
});

describe('driftBuckets', () => {
  it('lays buckets from the open, lists those started by the instant, and values each at its end or the instant', () => {
    const done = driftBuckets(SPAN, 5 * MINUTE, SPAN.end);
    expect(done).toHaveLength(81);
    expect(done[0]).toEqual({ start: OPEN, at: OPEN + 5 * MINUTE });
    expect(done.at(-1)).toEqual({ start: SPAN.end - 5 * MINUTE, at: SPAN.end });
    const running = driftBuckets(SPAN, 5 * MINUTE, OPEN + 12 * MINUTE);
    expect(running.map((b) => (b.start - OPEN) / MINUTE)).toEqual([0, 5, 10]);
    expect(running.at(-1)!.at).toBe(OPEN + 12 * MINUTE);
    expect(driftBuckets(SPAN, MINUTE, OPEN)).toEqual([]);
  });
});

describe('thirtyDayPair', () => {
  const listed = ['2025-03-14', '2025-04-04', '2025-04-10', '2025-04-11', '2025-04-17'].map((d) => expiration(d));

  it('takes the last expiration under 30 days and the first at or over, as Cboe does', () => {
    const t = at('2025-03-11', '16:00');
    expect(thirtyDayPair(listed, t)!.map((e) => e.dateOfExpiry)).toEqual(['2025-04-04', '2025-04-10']);
    // Exactly 30 days to settlement is the next term.
    expect(thirtyDayPair(listed, at('2025-03-12', '16:00'))!.map((e) => e.dateOfExpiry)).toEqual(['2025-04-10', '2025-04-11']);
    expect(thirtyDayPair(listed.slice(0, 2), t)).toBeNull();
  });

  it('collects every pair a session uses when the bracket moves within it', () => {
    // On 2025-03-11 the 2025-04-10 16:00 expiration reaches 30 days at 16:00 ET (DST began 03-09: 30 × 24 h).
    const buckets = driftBuckets(SPAN, 5 * MINUTE, SPAN.end);
    const switchAt = at('2025-04-10', '16:00') - 30 * DAY_MS;
    expect(switchAt).toBeGreaterThan(OPEN);
    expect(switchAt).toBeLessThan(SPAN.end);
    expect(thirtyDayExpirations(listed, buckets).map((e) => e.dateOfExpiry)).toEqual(['2025-04-04', '2025-04-10', '2025-04-11']);
  });
});

describe('historyWindows and realizedWindow', () => {
  it('gives the calendar regular sessions of the 31 trading days before the date, oldest first', () => {
    // 2025-11-28 (the day after Thanksgiving) closes at 13:00; Thanksgiving is closed.
    const windows = historyWindows('2025-12-02');
    expect(windows).toHaveLength(31);
    expect(windows.at(-1)).toEqual({ date: '2025-12-01', start: at('2025-12-01', '09:30'), end: at('2025-12-01', '16:00') });
    expect(windows.at(-2)).toEqual({ date: '2025-11-28', start: at('2025-11-28', '09:30'), end: at('2025-11-28', '13:00') });
    expect(windows.map((w) => w.date)).not.toContain('2025-11-27');
    // The calendar starts on 2000-01-03.
    expect(historyWindows('2000-01-05').map((w) => w.date)).toEqual(['2000-01-03', '2000-01-04']);
    expect(historyWindows('2000-01-03')).toEqual([]);
  });

  it('measures the regular session over the calendar hours with s, the overnight one over its window with 1 − s', () => {
    expect(realizedWindow(DATE, 'rth', SPAN, 0.8)).toEqual({ window: { start: OPEN, end: at(DATE, '16:00') }, share: 0.8 });
    const night = { start: at('2025-03-10', '20:15'), end: at(DATE, '09:25') };
    const gth = realizedWindow(DATE, 'gth', night, 0.8);
    expect(gth.window).toEqual(night);
    expect(gth.share).toBeCloseTo(0.2, 15);
  });
});

describe('bucketAtmVolatility', () => {
  const spec = { ...QUARTER_SMILE_CHAIN, strikes: strikeRange(70, 130, 2.5) };
  const slow = (quotes: readonly ChainQuote[], time: number, spot: number | null = 100): number | null =>
    chainAtmVolatility({ time, quotes }, spot, spec.rate)?.volatility ?? null;
  const fast = (quotes: readonly ChainQuote[], time: number, spot: number | null = 100): number | null =>
    bucketAtmVolatility({ time, quotes }, spot, spec.rate);

  it('equals chainAtmVolatility on chains with gaps, missing, zero and crossed sides, noise and one-sided wings', () => {
    const random = uniformNoise(20261126);
    let compared = 0;
    let nulls = 0;
    for (let trial = 0; trial < 400; trial++) {
      const time = [0.25, 0.02, 0.001, 2][trial % 4]!;
      const base = sviChain({ ...spec, time, noise: (_, price) => 0.05 * price * random() });
      const quotes = base
        .filter(() => random() > -0.4)
        .map((q) => {
          const u = random();
          if (u > 0.9) return { ...q, bid: null };
          if (u > 0.8) return { ...q, bid: 0 };
          if (u > 0.75) return { ...q, bid: (q.ask ?? 0) + 0.05 };
          if (u < -0.95) return { ...q, ask: null };
          return q;
        });
      // Some chains lose every call at or above 100, or every put below it, or every bid.
      const cut =
        trial % 13 === 0
          ? quotes.map((q) => ({ ...q, bid: null }))
          : trial % 7 === 0
            ? quotes.filter((q) => !(q.type === 'call' && q.strike >= 100))
            : trial % 11 === 0
              ? quotes.filter((q) => !(q.type === 'put' && q.strike < 100))
              : quotes;
      // Shuffled order: the fast path must not depend on it.
      const shuffled = [...cut].sort(() => random());
      const want = slow(shuffled, time, trial % 5 === 0 ? null : 100);
      expect(fast(shuffled, time, trial % 5 === 0 ? null : 100)).toBe(want);
      compared += 1;
      if (want === null) nulls += 1;
    }
    expect(compared).toBe(400);
    expect(nulls).toBeGreaterThanOrEqual(31);
    expect(nulls).toBeLessThan(100);
  });

  it('equals it where a call sits on the forward, without a forward, and with a contract quoted twice', () => {
    const quotes = sviChain({ ...spec, strikes: [90, 95, 100, 105, 110], rate: 0.03, dividendYield: 0.03 });
    // r = q: the forward is the spot, 100, a listed strike (k = 0 on the call).
    expect(fast(quotes, spec.time)).toBe(slow(quotes, spec.time));
    expect(
      fast(
        quotes.filter((q) => q.type === 'call'),
        spec.time,
      ),
    ).toBeNull();
    const twice = [...quotes, { ...quotes[4]!, bid: quotes[4]!.bid! * 0.98 }];
    expect(fast(twice, spec.time)).toBe(slow(twice, spec.time));
  });
});

describe('driftPoints', () => {
  const rate = 0.04;
  const dividendYield = 0.013;
  const strikes = Array.from({ length: 21 }, (_, i) => 90 + i);
  /** Quotes of a flat-volatility expiration priced at the instant `t` (mid = model price, spread ±0.01). */
  const chain = (e: ChosenExpiration, volatility: number, spot: number, minute: number, t: number): DriftQuote[] =>
    strikes.flatMap((strike, i) =>
      (['call', 'put'] as const).map((type, j) => {
        const price = bsmPrice({ type, spot, strike, time: (e.settlement - t) / MS_PER_YEAR, rate, dividendYield, volatility });
        return {
          dateOfExpiry: e.dateOfExpiry,
          contractId: 2 * i + j,
          strike,
          type,
          bid: price - 0.01,
          ask: price + 0.01,
          minute,
          quoteTs: minute + 1_000,
        };
      }),
    );
  const bars = (from: number, minutes: number, price: (m: number) => number): MinuteBar[] =>
    Array.from({ length: minutes }, (_, m) => ({ timestamp: from + m * MINUTE, open: price(m), close: price(m + 1) }));

  const near = expiration('2025-04-04');
  const next = expiration('2025-04-17');
  const tracked = expiration('2025-03-14');
  const listed = [tracked, near, next];
  const base = (quotes: DriftQuote[], extra: Partial<DriftInput> = {}): DriftInput => ({
    span: SPAN,
    intervalMs: 5 * MINUTE,
    instant: SPAN.end,
    rate,
    tracked,
    listed,
    quotes,
    bars: [],
    realized: { window: { start: OPEN, end: at(DATE, '16:00') }, share: 0.8 },
    clock: null,
    ...extra,
  });

  it("solves each bucket's at-the-money volatility from its contracts' last quotes, valued at the bucket's end", () => {
    const bucketEnd = OPEN + 5 * MINUTE;
    // Minute 1 quotes a volatility of 30%; the bucket's last quotes (minute 3) 20%.
    const quotes = [...chain(tracked, 0.3, 100, OPEN + MINUTE, bucketEnd), ...chain(tracked, 0.2, 100, OPEN + 3 * MINUTE, bucketEnd)];
    const points = driftPoints(base(quotes));
    expect(points).toHaveLength(1);
    expect(points[0]!.timestamp).toBe(OPEN);
    expect(points[0]!.implied_volatility).toBeCloseTo(0.2, 9);
    expect(points[0]!.underlying_price).toBeNull();
    expect(points[0]!.implied_volatility_30d).toBeNull();
    expect(points[0]!.implied_volatility_trading_clock).toBeNull();
  });

  it('leaves out quotes after the instant and buckets not started, and values the bucket in progress at the instant', () => {
    const instant = OPEN + 7 * MINUTE;
    const quotes = [
      ...chain(tracked, 0.25, 100, OPEN + 6 * MINUTE, instant),
      ...chain(tracked, 0.5, 100, OPEN + 7 * MINUTE, instant),
      ...chain(tracked, 0.5, 100, OPEN + 20 * MINUTE, instant),
    ];
    const points = driftPoints(base(quotes, { instant }));
    expect(points.map((p) => p.timestamp)).toEqual([OPEN + 5 * MINUTE]);
    expect(points[0]!.implied_volatility).toBeCloseTo(0.25, 9);
  });

  it('gives the trading-clock volatility the same total variance over the trading years, σ√(T/τ)', () => {
    const clock = tradingVarianceClock(0.8, DATE, tracked.dateOfExpiry);
    const bucketEnd = OPEN + 5 * MINUTE;
    const [point] = driftPoints(base(chain(tracked, 0.2, 100, OPEN, bucketEnd), { clock }));
    const T = (tracked.settlement - bucketEnd) / MS_PER_YEAR;
    const tau = clock.years(bucketEnd, tracked.settlement);
    // Three trading days and most of a session: (3 + 0.8 × 385/390)/252 years.
    expect(tau).toBeCloseTo((3 + (0.8 * 385) / 390) / 252, 12);
    expect(point!.implied_volatility_trading_clock).toBeCloseTo(0.2 * Math.sqrt(T / tau), 9);
  });

  it('weights the two expirations bracketing 30 days as the VIX method does', () => {
    const bucketEnd = OPEN + 5 * MINUTE;
    const quotes = [...chain(near, 0.18, 100, OPEN + 2 * MINUTE, bucketEnd), ...chain(next, 0.22, 100, OPEN + 4 * MINUTE, bucketEnd)];
    const [point] = driftPoints(base(quotes));
    const t1 = (near.settlement - bucketEnd) / MS_PER_YEAR;
    const t2 = (next.settlement - bucketEnd) / MS_PER_YEAR;
    const want = constantMaturityVolatility({ time: t1, volatility: 0.18 }, { time: t2, volatility: 0.22 });
    expect(point!.implied_volatility).toBeNull();
    expect(point!.implied_volatility_30d).toBeCloseTo(want!, 9);
    expect(point!.implied_volatility_30d).toBeGreaterThan(0.18);
    expect(point!.implied_volatility_30d).toBeLessThan(0.22);
    // Without the next term's quotes there is no 30-day figure (and no point).
    expect(driftPoints(base(chain(near, 0.18, 100, OPEN + 2 * MINUTE, bucketEnd)))).toEqual([]);
  });

  it('lists a bucket with only a realized value, priced at the last bar ended by its end', () => {
    const series = bars(OPEN, 30, (m) => 100 * Math.exp(0.001 * (m % 2)));
    const points = driftPoints(base([], { bars: series, instant: OPEN + 30 * MINUTE }));
    // Five returns are needed: the first bucket (bars closed by 09:35) has them.
    expect(points.map((p) => p.timestamp)).toEqual([0, 1, 2, 3, 4, 5].map((i) => OPEN + i * 5 * MINUTE));
    expect(points[0]!.underlying_price).toBe(series[4]!.close);
    expect(points.every((p) => p.implied_volatility === null && p.adjusted_realized_volatility! > 0)).toBe(true);
    // Every return is ±0.001 (the first bar's open to its close, then close to close): RV over n
    // bars = n·1e-6, over n/390 of the session.
    const n = 5;
    expect(points[0]!.adjusted_realized_volatility).toBeCloseTo(Math.sqrt((252 * n * 1e-6) / (0.8 * (n / 390))), 12);
  });
  it('values from a later bucket exactly the points the whole session gives from there (an earlier drift extended)', () => {
    const clock = tradingVarianceClock(0.8, DATE, tracked.dateOfExpiry);
    const instant = OPEN + 33 * MINUTE + 20_000;
    // Every expiration quoted in every minute, at volatilities that move minute by minute.
    const quotes = Array.from({ length: 34 }, (_, m) =>
      [tracked, near, next].flatMap((e, j) =>
        chain(e, 0.15 + 0.01 * j + 0.002 * (m % 7), 100 + 0.1 * m, OPEN + m * MINUTE, OPEN + (m + 1) * MINUTE),
      ),
    ).flat();
    const series = bars(OPEN, 33, (m) => 100 * Math.exp(0.001 * Math.sin(m)));
    const whole = driftPoints(base(quotes, { instant, bars: series, clock }));
    expect(whole).toHaveLength(7);
    for (const earlier of [OPEN + 10 * MINUTE, OPEN + 12 * MINUTE + 1, OPEN + 33 * MINUTE]) {
      const from = firstOpenBucket(SPAN, 5 * MINUTE, earlier);
      const later = quotes.filter((q) => q.minute >= from);
      const extended = driftPoints(base(later, { instant, bars: series, clock, from }));
      expect(extended).toStrictEqual(whole.filter((p) => p.timestamp >= from));
      expect(extended.length).toBeGreaterThan(0);
    }
  });
});

describe('firstOpenBucket', () => {
  it('names the bucket in progress at an earlier instant: the buckets before it had ended then', () => {
    const five = 5 * MINUTE;
    expect(firstOpenBucket(SPAN, five, OPEN - MINUTE)).toBe(OPEN);
    expect(firstOpenBucket(SPAN, five, OPEN)).toBe(OPEN);
    expect(firstOpenBucket(SPAN, five, OPEN + 4 * MINUTE)).toBe(OPEN);
    // At a bucket's end it has ended (valued at its end either way): the next one is open.
    expect(firstOpenBucket(SPAN, five, OPEN + five)).toBe(OPEN + five);
    expect(firstOpenBucket(SPAN, five, OPEN + five + 1)).toBe(OPEN + five);
    expect(firstOpenBucket(SPAN, 60 * MINUTE, SPAN.end - 1)).toBe(OPEN + 6 * 60 * MINUTE);
  });
});
