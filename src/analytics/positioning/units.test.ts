import { describe, expect, it } from 'vitest';
import type { Greeks } from '../pricing.js';
import type { ValuedContract } from './contracts.js';
import { contractExposure } from './exposure.js';
import { EXPOSURE_GREEKS, EXPOSURE_UNITS, exposureScale, unitLabel } from './units.js';

// A contract with round greeks: 10 long, multiplier 100, S = 200.
const greeks: Greeks = { price: 3, delta: 0.5, gamma: 0.02, vega: 40, vanna: 0.3, charm: -0.73 };
const contract: ValuedContract = {
  dateOfExpiry: '2026-12-18',
  daysToExpiry: 28,
  strike: 200,
  type: 'call',
  multiplier: 100,
  openInterest: 10,
  time: 0.1,
  volatility: 0.2,
  dividendYield: 0,
  position: 10,
  greeks,
};
const S = 200;

describe('exposure units (hand arithmetic, position 10 × multiplier 100 = 1,000)', () => {
  const cases: [keyof Greeks & ('delta' | 'gamma' | 'vanna' | 'charm'), 'per_percent' | 'per_dollar' | 'raw', number][] = [
    ['delta', 'per_percent', 0.5 * 1000 * 200 * 0.01], // 1,000
    ['delta', 'per_dollar', 0.5 * 1000], // 500
    ['delta', 'raw', 500],
    ['gamma', 'per_percent', 0.02 * 1000 * 200 * 200 * 0.01], // 8,000
    ['gamma', 'per_dollar', 0.02 * 1000 * 200], // 4,000
    ['gamma', 'raw', 20],
    ['vanna', 'per_percent', 0.3 * 1000 * 200 * 0.01], // 600
    ['vanna', 'per_dollar', 0.3 * 1000 * 200], // 60,000
    ['vanna', 'raw', 300],
    ['charm', 'per_percent', (-0.73 * 1000 * 200) / 365], // −400
    ['charm', 'per_dollar', -0.73 * 1000 * 200], // −146,000
    ['charm', 'raw', -730],
  ];
  for (const [greek, unit, want] of cases) {
    it(`${greek} ${unit} = ${want}`, () => {
      expect(contractExposure(contract, { greek, unit, perspective: 'dealer', spot: S })).toBeCloseTo(want, 9);
      expect(contractExposure(contract, { greek, unit, perspective: 'customer', spot: S })).toBeCloseTo(-want, 9);
    });
  }

  it('an unvalued contract adds nothing', () => {
    expect(contractExposure({ ...contract, greeks: null }, { greek: 'gamma', unit: 'per_percent', perspective: 'dealer', spot: S })).toBe(
      0,
    );
  });

  it('the scale is positive in every greek and unit, so no unit changes a sign or a level', () => {
    for (const g of EXPOSURE_GREEKS) for (const u of EXPOSURE_UNITS) expect(exposureScale(g, u, S)).toBeGreaterThan(0);
  });
});

describe('unitLabel', () => {
  it('says the step, the formula and whose position', () => {
    expect(unitLabel('gamma', 'per_percent', 'dealer')).toBe(
      'USD of modeled dealer delta change per 1% rise of the underlying (gamma x position x multiplier x price^2 x 0.01)',
    );
    expect(unitLabel('charm', 'per_percent', 'customer')).toContain('modeled customer delta change per calendar day');
    const labels = new Set(EXPOSURE_GREEKS.flatMap((g) => EXPOSURE_UNITS.map((u) => unitLabel(g, u, 'dealer'))));
    expect(labels.size).toBe(12);
  });
});
