import { describe, expect, it } from 'vitest';
import { basisOf, daysToExpiry, fairValue, impliedCarry, yearsOf } from './basis.js';

/** Friday 2026-11-20 15:00 UTC (10:00 ET) and ESZ6's settlement, 2026-12-18 14:30 UTC (09:30 ET): 27 days 23.5 hours. */
const AT = Date.parse('2026-11-20T15:00:00Z');
const SETTLEMENT = Date.parse('2026-12-18T14:30:00Z');

describe('futures basis', () => {
  it('counts days to settlement in fractional days, none after it', () => {
    expect(daysToExpiry(AT, SETTLEMENT)).toBeCloseTo(27 + 23.5 / 24, 12);
    expect(daysToExpiry(SETTLEMENT + 1, SETTLEMENT)).toBe(0);
    expect(yearsOf(73)).toBe(0.2);
  });

  it('prices the fair value by continuous carry (hand-worked)', () => {
    // S = 6000, r = 4%, q = 1.5%, T = 73/365 = 0.2: F = 6000·e^(0.025·0.2) = 6000·e^0.005 = 6030.0751252 (e^0.005 = 1.0050125209)
    expect(fairValue(6000, 0.04, 0.015, 0.2)).toBeCloseTo(6030.075125, 5);
    // At settlement the fair value is the index.
    expect(fairValue(6000, 0.04, 0.015, 0)).toBe(6000);
  });

  it('implies the carry back from the prices', () => {
    // ln(6030/6000)/0.2 = ln(1.005)/0.2 = 0.0049875415/0.2 = 0.0249377...
    expect(impliedCarry(6030, 6000, 0.2)).toBeCloseTo(0.024937708, 8);
    expect(impliedCarry(6030, 6000, 0)).toBeNull();
    expect(impliedCarry(6030, 0, 0.2)).toBeNull();
  });

  it('gives basis, percent, carry, fair value and mispricing together', () => {
    const settlement = AT + 73 * 86_400_000;
    const b = basisOf({ future: 6030, index: 6000, at: AT, settlement, rate: 0.04, dividendYield: 0.015 });
    expect(b.basis).toBe(30);
    expect(b.basisPercent).toBeCloseTo(0.5, 12);
    expect(b.daysToExpiry).toBe(73);
    expect(b.yearsToExpiry).toBe(0.2);
    expect(b.impliedCarry).toBeCloseTo(0.024937708, 8);
    expect(b.impliedRate).toBeCloseTo(0.039937708, 8);
    expect(b.modelCarry).toBeCloseTo(0.025, 15);
    expect(b.fairValue).toBeCloseTo(6030.075125, 5);
    expect(b.fairBasis).toBeCloseTo(30.075125, 5);
    expect(b.mispricing).toBeCloseTo(-0.075125, 5);
  });

  it('leaves the carry undefined at settlement, where fair value is the index', () => {
    const b = basisOf({ future: 6001, index: 6000, at: SETTLEMENT, settlement: SETTLEMENT, rate: 0.04, dividendYield: 0.015 });
    expect(b.daysToExpiry).toBe(0);
    expect(b.impliedCarry).toBeNull();
    expect(b.impliedRate).toBeNull();
    expect(b.fairValue).toBe(6000);
    expect(b.mispricing).toBe(1);
  });
});
