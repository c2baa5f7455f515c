/**
 * The trading-variance clock: time measured in expected variance rather than calendar time.
 *
 * Definition. Every NYSE trading day (calendar.ts) carries one day of variance, 1/252 of a year.
 * A share s of it (the regular-session share, realized.ts) accrues uniformly over the day's regular
 * session (09:30 to 16:00 ET, 13:00 on early-close days); the rest, 1 − s, accrues uniformly over the
 * time since the previous trading day's close, so an overnight, a weekend and a holiday closure each
 * count as one overnight. Instants outside the span the clock was built for read as its ends.
 *
 * An implied volatility carries a total variance w = σ²T over the calendar years T to settlement; on
 * this clock the same variance is spread over τ trading-variance years, σ_trading = √(w/τ). Unlike
 * σ, σ_trading does not drift as the calendar clock runs through nights and weekends in which little
 * variance is expected (the weekend effect of calendar-time volatility; see e.g. K. R. French and
 * R. Roll, "Stock return variances: the arrival of information and the reaction of traders", Journal
 * of Financial Economics 17 (1986) 5-26, on variance per trading versus non-trading hour).
 */
import { calendarDay, previousTradingDay, tradingDaysBetween } from '../calendar.js';

export const TRADING_DAYS_PER_YEAR = 252;

export interface TradingVarianceClock {
  /** The regular-session share the clock was built with. */
  regularSessionShare: number;
  /** Trading-variance years from the start of the clock's span to the instant (clamped to the span). */
  at(ms: number): number;
  /** Trading-variance years from one instant to a later one (negative when `toMs` is earlier). */
  years(fromMs: number, toMs: number): number;
}

/**
 * The clock over the trading days firstDate..lastDate (YYYY-MM-DD, inclusive), starting at the close
 * of the trading day before firstDate. Throws RangeError for a share outside [0, 1] or dates outside
 * the calendar.
 */
export function tradingVarianceClock(regularSessionShare: number, firstDate: string, lastDate: string): TradingVarianceClock {
  const share = regularSessionShare;
  if (!(share >= 0 && share <= 1)) throw new RangeError('regular-session share must be within [0, 1]');
  const days = tradingDaysBetween(firstDate, lastDate);
  const times: number[] = [];
  const values: number[] = [];
  const first = days[0];
  if (first !== undefined) {
    times.push(calendarDay(previousTradingDay(first)).close_timestamp as number);
    values.push(0);
  }
  let total = 0;
  for (const date of days) {
    const day = calendarDay(date);
    total += 1 - share;
    times.push(day.open_timestamp as number);
    values.push(total);
    total += share;
    times.push(day.close_timestamp as number);
    values.push(total);
  }
  const at = (ms: number): number => {
    const n = times.length;
    if (n === 0 || ms <= (times[0] as number)) return 0;
    if (ms >= (times[n - 1] as number)) return (values[n - 1] as number) / TRADING_DAYS_PER_YEAR;
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if ((times[mid] as number) <= ms) lo = mid;
      else hi = mid;
    }
    const t0 = times[lo] as number;
    const t1 = times[hi] as number;
    const v0 = values[lo] as number;
    const v1 = values[hi] as number;
    return (v0 + ((v1 - v0) * (ms - t0)) / (t1 - t0)) / TRADING_DAYS_PER_YEAR;
  };
  return { regularSessionShare: share, at, years: (fromMs, toMs) => at(toMs) - at(fromMs) };
}

/** σ on the trading clock for the same total variance: √(σ²·T/τ); null when τ ≤ 0 or the inputs are not finite. */
export function tradingClockVolatility(calendarVolatility: number, calendarYears: number, tradingYears: number): number | null {
  if (![calendarVolatility, calendarYears, tradingYears].every(Number.isFinite) || !(tradingYears > 0) || calendarYears < 0) return null;
  return Math.sqrt((calendarVolatility * calendarVolatility * calendarYears) / tradingYears);
}
