import { describe, expect, it } from 'vitest';
import type { StrikeExposure } from './exposure.js';
import { gammaTilt, gatekeepers, peakNetExposure, rankStrikes, wallLevels } from './strike-levels.js';

const row = (strike: number, call: number, put: number): StrikeExposure => ({ strike, call, put, net: call + put });

describe('strike levels by hand', () => {
  // S = 100. Nets: 90 −50, 95 −20, 97.5 +5, 100 −8, 102.5 +30, 105 +12.
  const rows = [row(90, 10, -60), row(95, 5, -25), row(97.5, 15, -10), row(100, 2, -10), row(102.5, 40, -10), row(105, 12, 0)];

  it('walls, majors and the largest absolute strike', () => {
    expect(wallLevels(rows, 100)).toEqual({
      call_wall: 102.5, // call 40
      put_wall: 90, // put −60
      call_wall_above: 102.5, // at or above 100: +30 beats +12 (100 itself is negative)
      put_wall_below: 90, // at or below 100: −50 beats −20 and −8
      major_positive: 102.5,
      major_negative: 90,
      largest_absolute_strike: 90, // gross 70 against 50 at 102.5
    });
  });

  it('gatekeepers from S toward a peak below it, in the order met', () => {
    const peak = peakNetExposure(rows, 100);
    expect(peak).toEqual({ strike: 90, value: -50 });
    // Between 90 (excluded) and 100 (included): 95 (20), 97.5 (5), 100 (8). At 0.15 of 50 = 7.5:
    // 100 and 95, met going down from S.
    expect(gatekeepers(rows, 100, peak, 0.15)).toEqual([100, 95]);
    expect(gatekeepers(rows, 100, peak, 0.4)).toEqual([95]);
    expect(gatekeepers(rows, 100, peak, 0.9)).toEqual([]);
    expect(gatekeepers(rows, 100, null, 0.4)).toEqual([]);
  });

  it('ties go to the strike nearest S, then the lower', () => {
    const tied = [row(95, 10, 0), row(105, 10, 0), row(110, 10, 0)];
    expect(wallLevels(tied, 100).call_wall).toBe(95);
    expect(wallLevels(tied, 104).call_wall).toBe(105);
    expect(rankStrikes(tied, 104, (r) => r.call).map((r) => r.strike)).toEqual([105, 110, 95]); // 1, 6 and 9 away
    expect(rankStrikes(tied, 100, (r) => r.call).map((r) => r.strike)).toEqual([95, 105, 110]); // 5 and 5: the lower first
  });

  it('null levels when nothing qualifies', () => {
    const calls = [row(95, 3, 0), row(105, 4, 0)];
    const walls = wallLevels(calls, 100);
    expect(walls.put_wall).toBeNull();
    expect(walls.put_wall_below).toBeNull();
    expect(walls.major_negative).toBeNull();
    expect(peakNetExposure([row(100, 0, 0)], 100)).toBeNull();
  });

  it('gamma tilt: positive call gamma over absolute negative put gamma', () => {
    // Calls 10 + 5 + 15 + 2 + 40 + 12 = 84; puts 60 + 25 + 10 + 10 + 10 = 115.
    expect(gammaTilt(rows)).toBeCloseTo(84 / 115, 14);
    expect(gammaTilt([row(100, 5, 0)])).toBeNull();
  });

  it('ranked: at most five, zeros left out, distances from S', () => {
    const ranked = rankStrikes(rows, 100, (r) => r.net);
    expect(ranked.map((r) => [r.rank, r.strike, r.value])).toEqual([
      [1, 90, -50],
      [2, 102.5, 30],
      [3, 95, -20],
      [4, 105, 12],
      [5, 100, -8],
    ]);
    expect(ranked[0]).toMatchObject({ distance_points: -10, distance_percent: -10 });
    expect(rankStrikes([row(100, 0, 0)], 100, (r) => r.net)).toEqual([]);
  });
});
