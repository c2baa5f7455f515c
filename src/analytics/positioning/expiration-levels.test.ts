import { describe, expect, it } from 'vitest';
import { atmStraddle, expectedMove, expirationShare, maxPain, nearestExpiration } from './expiration-levels.js';

describe('nearestExpiration', () => {
  it('is the earliest date with time left', () => {
    expect(
      nearestExpiration([
        { dateOfExpiry: '2026-11-27', time: 0.02 },
        { dateOfExpiry: '2026-11-20', time: -0.0001 },
        { dateOfExpiry: '2026-11-25', time: 0.01 },
      ]),
    ).toBe('2026-11-25');
    expect(nearestExpiration([])).toBeNull();
  });
});

describe('maxPain', () => {
  const oi = (
    type: 'call' | 'put',
    strike: number,
    openInterest: number,
  ): { type: 'call' | 'put'; strike: number; openInterest: number; multiplier: number } => ({
    type,
    strike,
    openInterest,
    multiplier: 100,
  });

  it('minimises what holders are paid (by hand)', () => {
    // Calls 10 at 90, 10 at 110; puts 30 at 100. Paid: at 90, puts 30×10 = 300; at 100, calls
    // 10×10 = 100; at 110, calls 10×20 = 200 + 0 = 200. Max pain 100.
    expect(maxPain([oi('call', 90, 10), oi('call', 110, 10), oi('put', 100, 30)], '2026-11-20', 104)).toEqual({
      date_of_expiry: '2026-11-20',
      strike: 100,
    });
  });

  it('breaks a tie toward the strike nearest S', () => {
    // One call at 100 and one put at 110: at 100 the put is paid 10, at 110 the call 10; a tie.
    const contracts = [oi('call', 100, 1), oi('put', 110, 1)];
    expect(maxPain(contracts, 'd', 108)?.strike).toBe(110);
    expect(maxPain(contracts, 'd', 101)?.strike).toBe(100);
    expect(maxPain([], 'd', 100)).toBeNull();
  });
});

describe('atmStraddle', () => {
  it('takes the strike nearest S where both legs have a mid', () => {
    const quotes = [
      { strike: 100, type: 'call' as const, bid: 2, ask: 2.2 },
      { strike: 100, type: 'put' as const, bid: null, ask: 1.9 }, // no mid: 100 is skipped
      { strike: 95, type: 'call' as const, bid: 5, ask: 5.4 },
      { strike: 95, type: 'put' as const, bid: 0.6, ask: 0.8 },
      { strike: 105, type: 'call' as const, bid: 0.5, ask: 0.7 },
      { strike: 105, type: 'put' as const, bid: 5.1, ask: 5.3 },
    ];
    // S = 100: 95 and 105 are 5 away; the tie goes to the lower, 95: 5.2 + 0.7 = 5.9.
    expect(atmStraddle(quotes, 100)).toBeCloseTo(5.9, 12);
    expect(atmStraddle(quotes, 101)).toBeCloseTo(0.6 + 5.2, 12);
    expect(atmStraddle([], 100)).toBeNull();
  });
});

describe('expectedMove', () => {
  it('S·σ·√T with bands, by hand: 400 × 0.25 × √0.04 = 20', () => {
    const em = expectedMove({ dateOfExpiry: 'd', time: 0.04, atmVolatility: 0.25, straddle: 20 }, 400);
    expect(em?.date_of_expiry).toBe('d');
    expect(em?.implied_volatility).toBe(0.25);
    expect(em?.straddle).toBe(20);
    const approx: [number | null | undefined, number][] = [
      [em?.expected_move, 20],
      [em?.straddle_expected_move, 17],
      [em?.one_sigma_band[0], 380],
      [em?.one_sigma_band[1], 420],
      [em?.two_sigma_band[0], 360],
      [em?.two_sigma_band[1], 440],
    ];
    for (const [got, want] of approx) expect(got).toBeCloseTo(want, 10);
  });

  it('no volatility: bands from 0.85 × the straddle; neither: null', () => {
    const em = expectedMove({ dateOfExpiry: 'd', time: 0.04, atmVolatility: null, straddle: 20 }, 400);
    expect(em?.expected_move).toBeNull();
    expect(em?.implied_volatility).toBeNull();
    expect(em?.one_sigma_band[0]).toBeCloseTo(383, 10);
    expect(expectedMove({ dateOfExpiry: 'd', time: 0.04, atmVolatility: null, straddle: null }, 400)).toBeNull();
  });
});

describe('expirationShare', () => {
  it('counts absolute values so calls and puts do not offset', () => {
    const values = [
      { dateOfExpiry: 'a', value: 3 },
      { dateOfExpiry: 'a', value: -3 },
      { dateOfExpiry: 'b', value: 4 },
    ];
    expect(expirationShare(values, 'a')).toBe(0.6);
    expect(expirationShare([], 'a')).toBeNull();
  });
});
