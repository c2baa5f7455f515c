import { describe, expect, it } from 'vitest';
import { discountToContinuousRate, dividendYield, riskFreeRate } from './rates.js';

describe('discountToContinuousRate', () => {
  it('converts a 91-day bank-discount quote to a continuous ACT/365 rate', () => {
    // r = −ln(1 − d·91/360)·365/91, references evaluated with mpmath at 30 digits.
    expect(discountToContinuousRate(0.0525)).toBeCloseTo(0.053585520620456314, 15);
    expect(discountToContinuousRate(0.0003)).toBeCloseTo(0.00030417820023586746, 17);
    expect(discountToContinuousRate(0)).toBe(0);
  });
});

describe('riskFreeRate', () => {
  // FRED TB3MS monthly values (percent, discount basis) as published.
  const published: [string, number][] = [
    ['2000-01-15', 5.32],
    ['2001-09-11', 2.64],
    ['2008-12-01', 0.03],
    ['2011-09-30', 0.01],
    ['2020-04-17', 0.14],
    ['2023-10-31', 5.34],
    ['2024-09-20', 4.72],
    ['2025-12-19', 3.59],
    ['2026-05-15', 3.6],
  ];
  it.each(published)('%s uses TB3MS %d%%', (date, percent) => {
    expect(riskFreeRate(date)).toBe(discountToContinuousRate(percent / 100));
  });

  it('matches an independently computed continuous rate for 2023-10 (TB3MS 5.34%)', () => {
    expect(riskFreeRate('2023-10-02')).toBeCloseTo(0.054510399746231653, 15);
  });

  it('has a plausible value for every month from 2000-01 on', () => {
    for (let year = 2000; year <= 2026; year++) {
      for (let month = 1; month <= 12; month++) {
        const r = riskFreeRate(`${year}-${String(month).padStart(2, '0')}-01`);
        expect(r, `${year}-${month}`).toBeGreaterThan(0);
        expect(r).toBeLessThan(0.07);
      }
    }
  });

  it('carries the latest known month forward and the first month backward', () => {
    const last = riskFreeRate('2026-05-01');
    expect(riskFreeRate('2026-10-30')).toBe(last);
    expect(riskFreeRate('2031-01-02')).toBe(last);
    expect(riskFreeRate('1999-12-31')).toBe(riskFreeRate('2000-01-03'));
  });

  it('accepts a bare month and rejects malformed dates', () => {
    expect(riskFreeRate('2024-09')).toBe(riskFreeRate('2024-09-20'));
    for (const bad of ['2024-13-01', '2024-00-10', '2024-1-5', '2024-01-32', 'yesterday', '']) {
      expect(() => riskFreeRate(bad), bad).toThrow(RangeError);
    }
  });
});

describe('dividendYield', () => {
  it('returns the documented trailing yields, case-insensitively', () => {
    expect(dividendYield('SPX')).toBe(0.013);
    expect(dividendYield('spy')).toBe(0.013);
    expect(dividendYield('QQQ')).toBe(0.006);
    expect(dividendYield('IWM')).toBe(0.012);
    expect(dividendYield('AAPL')).toBe(0.005);
    expect(dividendYield('NVDA')).toBe(0.0003);
    expect(dividendYield('TSLA')).toBe(0);
    expect(dividendYield('AMZN')).toBe(0);
  });

  it('maps index roots to the yield of the ETF on the same index', () => {
    expect(dividendYield('XSP')).toBe(dividendYield('SPX'));
    expect(dividendYield('NDX')).toBe(dividendYield('QQQ'));
    expect(dividendYield('RUT')).toBe(dividendYield('IWM'));
  });

  it('defaults to 0 for VIX and unknown underlyings', () => {
    expect(dividendYield('VIX')).toBe(0);
    expect(dividendYield('ZZZZ')).toBe(0);
  });
});
