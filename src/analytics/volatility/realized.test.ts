import { describe, expect, it } from 'vitest';
import { addDays } from '../new-york-time.js';
import {
  adjustedRealizedPath,
  adjustedRealizedVolatility,
  closeToCloseVolatility,
  DEFAULT_REGULAR_SESSION_SHARE,
  MIN_HISTORY_DAYS,
  realizedVolatilityBasis,
  type DailyBar,
  type MinuteBar,
} from './realized.js';

/** Daily bars whose overnight gaps are ±g and sessions ±i, alternating signs. */
function history(days: number, g: number, i: number): DailyBar[] {
  const bars: DailyBar[] = [{ date: '2025-01-01', open: 100, close: 100 }];
  for (let d = 1; d <= days; d++) {
    const previous = bars[bars.length - 1]!;
    const sign = d % 2 === 0 ? 1 : -1;
    const open = previous.close * Math.exp(sign * g);
    bars.push({ date: addDays('2025-01-01', d), open, close: open * Math.exp(-sign * i) });
  }
  return bars;
}

describe('realizedVolatilityBasis', () => {
  it('estimates the regular-session share as Σi² / Σ(g² + i²)', () => {
    const basis = realizedVolatilityBasis(history(30, 0.005, 0.01));
    expect(basis.days).toBe(30);
    expect(basis.default_used).toBe(false);
    expect(basis.regular_session_share).toBeCloseTo(1e-4 / (0.25e-4 + 1e-4), 12);
  });

  it(`falls back to the default share with fewer than ${MIN_HISTORY_DAYS} days, and says so`, () => {
    const basis = realizedVolatilityBasis(history(MIN_HISTORY_DAYS - 1, 0.005, 0.01));
    expect(basis).toEqual({ days: MIN_HISTORY_DAYS - 1, regular_session_share: DEFAULT_REGULAR_SESSION_SHARE, default_used: true });
    expect(realizedVolatilityBasis([]).default_used).toBe(true);
  });

  it('sorts bars by date and ignores bars without prices', () => {
    const bars = history(20, 0.004, 0.008);
    const shuffled = [...bars].reverse().concat([{ date: '2024-12-31', open: 0, close: 0 }]);
    expect(realizedVolatilityBasis(shuffled)).toEqual(realizedVolatilityBasis(bars));
  });
});

describe('closeToCloseVolatility', () => {
  it('annualises the mean squared close-to-close return with 252 days', () => {
    // Close-to-close returns are ±(g − i) = ±0.005.
    expect(closeToCloseVolatility(history(30, 0.005, 0.01))).toBeCloseTo(Math.sqrt(252) * 0.005, 12);
    expect(closeToCloseVolatility([{ date: '2025-01-01', open: 1, close: 1 }])).toBeNull();
  });
});

describe('adjusted realized volatility', () => {
  const start = Date.UTC(2025, 5, 2, 13, 30);
  const end = start + 390 * 60_000;
  /** One-minute bars with log returns alternating ±x, the first from the bar's open. */
  const x = 0.0005;
  const bars: MinuteBar[] = [];
  let price = 500;
  for (let j = 0; j < 390; j++) {
    const close = price * Math.exp((j % 2 === 0 ? 1 : -1) * x);
    bars.push({ timestamp: start + j * 60_000, open: price, close });
    price = close;
  }

  it('scales the intraday variance to a whole day by the window share and the elapsed fraction', () => {
    // After n minutes: RV = n·x², elapsed n/390, so the figure is √(252·390·x²/s) at every n ≥ 5.
    const s = 0.8;
    const want = Math.sqrt((252 * 390 * x * x) / s);
    const instants = [start + 4 * 60_000, start + 5 * 60_000, start + 60 * 60_000 + 30_000, end, end + 3_600_000];
    const path = adjustedRealizedPath(bars, { start, end }, s, instants);
    expect(path[0]).toBeNull(); // four returns
    for (const v of path.slice(1)) expect(v).toBeCloseTo(want, 12);
  });

  it('skips bars outside the window and ignores missing minutes in the elapsed fraction only up to the last close', () => {
    const gappy = bars.filter((_, j) => j < 100 || j >= 200);
    const [v] = adjustedRealizedPath([...gappy, { timestamp: start - 60_000, open: 1, close: 2 }], { start, end }, 0.8, [
      start + 150 * 60_000,
    ]);
    // 100 returns over the first 100 minutes.
    expect(v).toBeCloseTo(Math.sqrt((252 * 100 * x * x) / (0.8 * (100 / 390))), 12);
  });

  it('is null without enough returns, share or elapsed time', () => {
    expect(adjustedRealizedVolatility(1e-4, 4, 0.8, 0.5)).toBeNull();
    expect(adjustedRealizedVolatility(1e-4, 10, 0, 0.5)).toBeNull();
    expect(adjustedRealizedVolatility(1e-4, 10, 0.8, 0)).toBeNull();
    expect(adjustedRealizedVolatility(1e-4, 10, 0.8, 0.5)).toBeCloseTo(Math.sqrt((252 * 1e-4) / 0.4), 14);
  });
});
