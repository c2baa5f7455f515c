import { describe, expect, it } from 'vitest';
import { newYorkTimeToMs } from '../new-york-time.js';
import { TRADING_DAYS_PER_YEAR, tradingClockVolatility, tradingVarianceClock } from './variance-clock.js';

const at = (date: string, time: string): number => newYorkTimeToMs(date, time);
const share = 0.8;
const day = 1 / TRADING_DAYS_PER_YEAR;

describe('tradingVarianceClock', () => {
  // 2025-04-18 is Good Friday (NYSE closed); 2025-11-28 closes at 13:00.
  const clock = tradingVarianceClock(share, '2025-04-14', '2025-12-31');

  it('gives a regular session the share s of a trading day and an overnight the rest', () => {
    expect(clock.years(at('2025-04-15', '09:30'), at('2025-04-15', '16:00'))).toBeCloseTo(share * day, 15);
    expect(clock.years(at('2025-04-14', '16:00'), at('2025-04-15', '09:30'))).toBeCloseTo((1 - share) * day, 15);
    expect(clock.years(at('2025-04-15', '09:30'), at('2025-04-15', '12:45'))).toBeCloseTo(0.5 * share * day, 15);
    expect(clock.years(at('2025-04-14', '20:00'), at('2025-04-15', '04:00'))).toBeCloseTo(((1 - share) * day * 8) / 17.5, 15);
  });

  it('counts a holiday and a weekend as one overnight, and a week as its trading days', () => {
    expect(clock.years(at('2025-04-17', '16:00'), at('2025-04-21', '09:30'))).toBeCloseTo((1 - share) * day, 15);
    expect(clock.years(at('2025-04-14', '16:00'), at('2025-04-21', '16:00'))).toBeCloseTo(4 * day, 15);
  });

  it('spreads an early-close session over its shorter hours', () => {
    expect(clock.years(at('2025-11-28', '09:30'), at('2025-11-28', '11:15'))).toBeCloseTo(0.5 * share * day, 15);
    expect(clock.years(at('2025-11-28', '09:30'), at('2025-11-28', '13:00'))).toBeCloseTo(share * day, 15);
  });

  it('reads instants outside its span as its ends, and refuses a share outside [0, 1]', () => {
    expect(clock.at(at('2025-04-01', '12:00'))).toBe(0);
    expect(clock.at(at('2025-04-11', '16:00'))).toBe(0); // the close before the first date starts it
    expect(clock.at(at('2026-02-01', '12:00'))).toBe(clock.at(at('2025-12-31', '16:00')));
    expect(() => tradingVarianceClock(1.5, '2025-04-14', '2025-04-18')).toThrow(RangeError);
  });
});

describe('tradingClockVolatility', () => {
  it('keeps total variance: σ_trading² τ = σ² T', () => {
    // Friday 16:00 to Monday 16:00: three calendar days, one trading day.
    const v = tradingClockVolatility(0.2, 3 / 365, day)!;
    expect(v * v * day).toBeCloseTo(0.04 * (3 / 365), 16);
    expect(tradingClockVolatility(0.2, 3 / 365, 0)).toBeNull();
  });
});
