import { describe, expect, it } from 'vitest';
import { regularSession } from '../iv-samples.js';
import { seriesBars, seriesWindows, seriesWindowsAfter } from './index-series.js';

const T0 = Date.parse('2026-11-19T14:30:00Z'); // 09:30 ET
const M = 60_000;

describe('seriesBars', () => {
  const minutes = [
    { minute: T0, value: 20 },
    { minute: T0 + M, value: 22 },
    { minute: T0 + 3 * M, value: 19 },
    { minute: T0 + 4 * M, value: 21 },
    { minute: T0 + 5 * M, value: 18 },
    { minute: T0 + 9 * M, value: 25 },
  ];

  it('makes 5m bars on the grid: first, greatest, least and last of their minutes', () => {
    expect(seriesBars(minutes, '5m', T0)).toEqual([
      { bucket: T0, open: 20, high: 22, low: 19, close: 21, minutes: 4, closeMinute: T0 + 4 * M },
      { bucket: T0 + 5 * M, open: 18, high: 25, low: 18, close: 25, minutes: 2, closeMinute: T0 + 9 * M },
    ]);
  });

  it('puts 09:30 to 09:59 in the 09:00 hour, and one 1d bar stamped with the session start', () => {
    expect(seriesBars(minutes, '1h', T0).map((b) => [b.bucket, b.minutes])).toEqual([[T0 - 30 * M, 6]]);
    expect(seriesBars(minutes, '1d', T0)).toEqual([
      { bucket: T0, open: 20, high: 25, low: 18, close: 25, minutes: 6, closeMinute: T0 + 9 * M },
    ]);
  });
});

describe('seriesWindows', () => {
  it('cuts each trading date’s session to the range, skipping the weekend, and pages after a bucket', () => {
    const sessionOf = (date: string) => regularSession(date, 'SPX');
    const windows = seriesWindows({ start: Date.parse('2026-11-20T20:00:00Z'), end: Date.parse('2026-11-23T15:00:00Z') }, sessionOf);
    expect(windows.map((w) => w.tradingDate)).toEqual(['2026-11-20', '2026-11-23']);
    expect(windows[0]!.start).toBe(Date.parse('2026-11-20T20:00:00Z'));
    expect(windows[0]!.end).toBe(sessionOf('2026-11-20')!.end);
    expect(windows[1]!.start).toBe(sessionOf('2026-11-23')!.start);
    expect(windows[1]!.end).toBe(Date.parse('2026-11-23T15:00:00Z'));
    expect(seriesWindowsAfter(windows, '1d', windows[0]!.open).map((w) => w.tradingDate)).toEqual(['2026-11-23']);
    const after = seriesWindowsAfter(windows, '5m', Date.parse('2026-11-23T14:50:00Z'));
    expect(after.map((w) => [w.tradingDate, w.start])).toEqual([['2026-11-23', Date.parse('2026-11-23T14:55:00Z')]]);
  });
});
