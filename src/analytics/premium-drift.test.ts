import { describe, expect, it } from 'vitest';
import { driftGrid, driftSeries, gridCovering } from './premium-drift.js';

const at = (iso: string): number => Date.parse(iso);
const OPEN = at('2026-11-20T14:30:00Z');

describe('driftGrid', () => {
  it('runs from the open to the latest close among the roots; the overnight window for gth', () => {
    expect(driftGrid('2026-11-20', 'rth', ['AAPL'])).toEqual({ start: OPEN, end: at('2026-11-20T21:00:00Z') });
    expect(driftGrid('2026-11-20', 'rth', ['SPY'])).toEqual({ start: OPEN, end: at('2026-11-20T21:15:00Z') });
    // The curb session is not rth (issue 33 §5): SPX's rth grid ends at 16:15 ET, its all grid at 17:00.
    expect(driftGrid('2026-11-20', 'rth', ['SPX', 'SPXW'])).toEqual({ start: OPEN, end: at('2026-11-20T21:15:00Z') });
    expect(driftGrid('2026-11-20', 'all', ['SPY'])).toEqual({ start: at('2026-11-20T01:15:00Z'), end: at('2026-11-20T21:15:00Z') });
    expect(driftGrid('2026-11-20', 'gth', ['SPX'])).toEqual({ start: at('2026-11-20T01:15:00Z'), end: at('2026-11-20T14:25:00Z') });
    expect(driftGrid('2026-11-20', 'all', ['SPX'])).toEqual({ start: at('2026-11-20T01:15:00Z'), end: at('2026-11-20T22:00:00Z') });
    // Early close: no curb; index options close 13:15 ET.
    expect(driftGrid('2026-11-27', 'rth', ['SPX'])).toEqual({ start: at('2026-11-27T14:30:00Z'), end: at('2026-11-27T18:15:00Z') });
    expect(driftGrid('2026-11-26', 'rth', ['SPX'])).toBeNull();
  });
});

describe('gridCovering', () => {
  it('extends the grid to the last bucket holding a net, never shortens it', () => {
    const grid = { start: OPEN, end: OPEN + 3_600_000 };
    expect(gridCovering(grid, 900_000, [{ index: 1, call: 1, put: 0 }])).toEqual(grid);
    expect(gridCovering(grid, 900_000, [])).toEqual(grid);
    // A print at the end itself (index 4 of four 15-minute buckets) gets the bucket starting there.
    expect(gridCovering(grid, 900_000, [{ index: 4, call: 1, put: 0 }])).toEqual({ start: OPEN, end: OPEN + 5 * 900_000 });
  });
});

describe('driftSeries', () => {
  const grid = { start: OPEN, end: OPEN + 3_600_000 };
  const step = 900_000;
  const nets = [
    { index: 0, call: 100, put: -50 },
    { index: 2, call: -30, put: 20 },
    { index: 9, call: 1e9, put: 0 },
  ];
  const bars = [
    { ts: OPEN, close: 10 },
    { ts: OPEN + 60_000, close: 11 },
    { ts: OPEN + 1_800_000, close: 12 },
  ];

  it('accumulates calls and puts, sentiment as their difference, with the last bar close of each bucket', () => {
    expect(driftSeries(grid, step, { from: null, to: null }, nets, bars, OPEN + 86_400_000)).toEqual([
      { timestamp: OPEN, call_drift: 100, put_drift: -50, sentiment_drift: 150, underlying_price: 11 },
      { timestamp: OPEN + step, call_drift: 100, put_drift: -50, sentiment_drift: 150, underlying_price: null },
      { timestamp: OPEN + 2 * step, call_drift: 70, put_drift: -30, sentiment_drift: 100, underlying_price: 12 },
      { timestamp: OPEN + 3 * step, call_drift: 70, put_drift: -30, sentiment_drift: 100, underlying_price: null },
    ]);
  });

  it('clips to the window and leaves out buckets that have not started', () => {
    expect(
      driftSeries(grid, step, { from: OPEN + step + 1, to: OPEN + 2 * step + 1 }, nets, bars, OPEN + 86_400_000).map((b) => b.timestamp),
    ).toEqual([OPEN + step, OPEN + 2 * step]);
    expect(driftSeries(grid, step, { from: null, to: null }, nets, bars, OPEN + step).map((b) => b.timestamp)).toEqual([OPEN, OPEN + step]);
    expect(driftSeries(grid, step, { from: null, to: null }, nets, bars, OPEN - 1)).toEqual([]);
  });
});
