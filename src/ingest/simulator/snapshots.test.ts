import { describe, expect, it } from 'vitest';
import { buildChain, type Expiration } from './chain.js';
import { ROOTS } from './model.js';
import { SCALES } from './activity.js';
import { segmentsOf } from './paths.js';
import { bracketing30Days, quotedMinutesOf, snapshotMinutes, strikesAcross, THIRTY_DAYS_MS } from './snapshots.js';

const WEEK = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
const root = (name: string) => ROOTS.find((r) => r.root === name)!;

describe('snapshotMinutes', () => {
  it('is the start, every 15 minutes, and the last minute of the session', () => {
    // Regular index and ETF session: 09:30 to 16:15, 405 minutes.
    const regular = snapshotMinutes(405, 405);
    expect(regular.slice(0, 3)).toEqual([0, 15, 30]);
    expect(regular.slice(-3)).toEqual([375, 390, 404]);
    expect(regular).toHaveLength(28);
    // Equity options close at 16:00: the 390th minute is the last.
    expect(snapshotMinutes(390, 405).slice(-2)).toEqual([375, 389]);
    // A session whose last minute falls on the cadence has it once.
    expect(snapshotMinutes(46, 46)).toEqual([0, 15, 30, 45]);
    // The curb, 45 minutes.
    expect(snapshotMinutes(45, 45)).toEqual([0, 15, 30, 44]);
    for (const [a, b] of regular.slice(0, -1).map((m, i) => [m, regular[i + 1]!])) expect(b! - a!).toBeLessThanOrEqual(15);
  });

  it('keeps only the minutes written in a session in progress (no close yet)', () => {
    expect(snapshotMinutes(405, 151)).toEqual([0, 15, 30, 45, 60, 75, 90, 105, 120, 135, 150]);
    expect(snapshotMinutes(405, 0)).toEqual([]);
  });
});

describe('quotedMinutesOf', () => {
  it('ends equity options at the equity close and index and ETF options at the session end', () => {
    const [gth, rth, curb] = segmentsOf('2026-11-18');
    expect(rth!.minutes).toBe(405);
    expect(quotedMinutesOf(root('AAPL'), rth!)).toBe(390);
    expect(quotedMinutesOf(root('SPY'), rth!)).toBe(405);
    expect(quotedMinutesOf(root('SPXW'), gth!)).toBe(gth!.minutes);
    expect(quotedMinutesOf(root('SPXW'), curb!)).toBe(45);
    // The day after Thanksgiving: options close at 13:15, equity options at 13:00.
    const early = segmentsOf('2026-11-27').find((s) => s.kind === 'rth')!;
    expect(quotedMinutesOf(root('SPY'), early)).toBe(225);
    expect(quotedMinutesOf(root('AAPL'), early)).toBe(210);
  });
});

describe('bracketing30Days', () => {
  const chain = buildChain(WEEK, SCALES.default);
  const t = Date.parse('2026-11-18T15:00:00Z');

  it('takes the last expiration settling within 30 days and the first at or after', () => {
    for (const name of ['SPXW', 'SPX', 'SPY', 'QQQ', 'IWM', 'AAPL']) {
      const expirations = chain.byRoot[ROOTS.indexOf(root(name))]!;
      const [near, next] = bracketing30Days(expirations, t);
      expect(near!.settleMs - t, name).toBeLessThan(THIRTY_DAYS_MS);
      expect(next!.settleMs - t, name).toBeGreaterThanOrEqual(THIRTY_DAYS_MS);
      // Nothing listed settles between them.
      expect(
        expirations.filter((e) => e.settleMs > near!.settleMs && e.settleMs < next!.settleMs),
        name,
      ).toEqual([]);
    }
  });

  it('brackets the SPX family across both roots: an AM monthly between two PM weeklies counts', () => {
    const family: Expiration[] = [...chain.byRoot[ROOTS.indexOf(root('SPXW'))]!, ...chain.byRoot[ROOTS.indexOf(root('SPX'))]!];
    const pair = bracketing30Days(family, t);
    expect(pair).toHaveLength(2);
    const [near, next] = pair;
    expect(family.filter((e) => e.lastTradeMs > t && e.settleMs > near!.settleMs && e.settleMs < next!.settleMs)).toEqual([]);
  });

  it('leaves out expirations no longer trading', () => {
    const spx = chain.byRoot[ROOTS.indexOf(root('SPX'))]!;
    // Monday of the December expiration week: the November monthly (Nov 20) has settled.
    const later = Date.parse('2026-12-14T15:00:00Z');
    expect(bracketing30Days(spx, later).every((e) => e.lastTradeMs > later)).toBe(true);
  });
});

describe('strikesAcross', () => {
  const strikes = [90, 95, 100, 105, 110, 115, 120];

  it('covers the range from the strike below to the strike above, with padding', () => {
    expect(strikesAcross(strikes, 101, 104, 0)).toEqual([2, 3]);
    expect(strikesAcross(strikes, 101, 104, 1)).toEqual([1, 2, 3, 4]);
    expect(strikesAcross(strikes, 100, 100, 0)).toEqual([2]);
    expect(strikesAcross(strikes, 99, 111, 1)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('stops at the ends of the grid', () => {
    expect(strikesAcross(strikes, 50, 60, 2)).toEqual([0, 1, 2]);
    expect(strikesAcross(strikes, 150, 160, 1)).toEqual([5, 6]);
    expect(strikesAcross([], 1, 2, 1)).toEqual([]);
  });
});
