/**
 * Realized volatility of the underlying, adjusted to the close-to-close day that implied volatility
 * prices.
 *
 * A day's close-to-close log return splits into the overnight gap g = ln(O_d/C_{d−1}) and the
 * regular session i = ln(C_d/O_d). The regular-session share of the day's variance is estimated from
 * history as s = Σi² / Σ(g² + i²) (the cross term g·i averages out, so the denominator is the
 * close-to-close variance without its noise). Intraday realized variance from one-minute returns
 * covers only part of the day; scaled by the share (the idea of P. R. Hansen and A. Lunde, "A
 * realized variance for the whole day based on intermittent high-frequency data", Journal of
 * Financial Econometrics 3(4) (2005) 525-554) and by the part of the window elapsed, it estimates the
 * whole day's variance:
 *
 *   adjusted σ(t) = √(252 · RV(window open → t) / (window share · elapsed fraction of the window)),
 *
 * the window share being s for the regular session (1 − s for the overnight window). The elapsed
 * fraction is measured in calendar time within the window, the trading-variance clock's uniform
 * accrual within a session (variance-clock.ts). With fewer than MIN_HISTORY_DAYS days of history the
 * share is DEFAULT_REGULAR_SESSION_SHARE, and the basis says so.
 */
import { TRADING_DAYS_PER_YEAR } from './variance-clock.js';

export interface DailyBar {
  /** Trading date, YYYY-MM-DD. */
  date: string;
  /** Regular-session open and close of the underlying. */
  open: number;
  close: number;
}

export interface MinuteBar {
  /** Start of the minute, unix ms; the bar's close is the price at timestamp + 60 s. */
  timestamp: number;
  open: number;
  close: number;
}

/** Field names as the drift response's realized_volatility_basis. */
export interface RealizedVolatilityBasis {
  /** Days of history read (pairs of consecutive trading days with an open and both closes). */
  days: number;
  /** Share of the day's variance in the regular session. */
  regular_session_share: number;
  /** True when history was too short and DEFAULT_REGULAR_SESSION_SHARE was used. */
  default_used: boolean;
}

/**
 * A modelling default, not an estimate: three quarters of a day's variance in the regular session,
 * a round figure for US index underlyings, whose overnight gaps carry the smaller part.
 */
export const DEFAULT_REGULAR_SESSION_SHARE = 0.75;
export const MIN_HISTORY_DAYS = 10;
/** Fewest one-minute returns an adjusted figure is computed from. */
export const MIN_INTRADAY_RETURNS = 5;

const MINUTE_MS = 60_000;

/** Overnight and intraday log returns of consecutive bars (sorted by date; bars with non-positive prices skipped). */
function dailyReturns(history: readonly DailyBar[]): { overnight: number; intraday: number }[] {
  const bars = history.filter((b) => b.open > 0 && b.close > 0).sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
  const out: { overnight: number; intraday: number }[] = [];
  for (let i = 1; i < bars.length; i++) {
    const previous = bars[i - 1] as DailyBar;
    const bar = bars[i] as DailyBar;
    out.push({ overnight: Math.log(bar.open / previous.close), intraday: Math.log(bar.close / bar.open) });
  }
  return out;
}

/** The regular-session share from daily bars (module comment), with its basis. */
export function realizedVolatilityBasis(history: readonly DailyBar[]): RealizedVolatilityBasis {
  const returns = dailyReturns(history);
  let intraday = 0;
  let total = 0;
  for (const r of returns) {
    intraday += r.intraday * r.intraday;
    total += r.overnight * r.overnight + r.intraday * r.intraday;
  }
  const days = returns.length;
  if (days < MIN_HISTORY_DAYS || !(total > 0)) return { days, regular_session_share: DEFAULT_REGULAR_SESSION_SHARE, default_used: true };
  return { days, regular_session_share: intraday / total, default_used: false };
}

/** Annualised close-to-close volatility of daily bars, √(252·mean r²) (zero-mean estimator); null under two bars. */
export function closeToCloseVolatility(history: readonly DailyBar[]): number | null {
  const returns = dailyReturns(history);
  if (returns.length === 0) return null;
  const meanSquare = returns.reduce((s, r) => s + (r.overnight + r.intraday) ** 2, 0) / returns.length;
  return Math.sqrt(TRADING_DAYS_PER_YEAR * meanSquare);
}

/**
 * Adjusted realized volatility (module comment) from a realized variance observed over part of a
 * window; null when fewer than MIN_INTRADAY_RETURNS returns or a non-positive share or fraction.
 */
export function adjustedRealizedVolatility(
  realizedVariance: number,
  returns: number,
  windowShare: number,
  elapsedFraction: number,
): number | null {
  if (returns < MIN_INTRADAY_RETURNS || !(windowShare > 0) || !(elapsedFraction > 0) || !(realizedVariance >= 0)) return null;
  return Math.sqrt((TRADING_DAYS_PER_YEAR * realizedVariance) / (windowShare * Math.min(elapsedFraction, 1)));
}

/**
 * The adjusted realized volatility at each instant of `instants`, from the window's one-minute bars:
 * the returns are the first bar's open to its close, then close to close; an instant counts the bars
 * closed by it (timestamp + 60 s ≤ instant), and the elapsed fraction runs to the last such close.
 */
export function adjustedRealizedPath(
  bars: readonly MinuteBar[],
  window: { start: number; end: number },
  windowShare: number,
  instants: readonly number[],
): (number | null)[] {
  const inWindow = bars
    .filter((b) => b.timestamp >= window.start && b.timestamp + MINUTE_MS <= window.end && b.open > 0 && b.close > 0)
    .sort((x, y) => x.timestamp - y.timestamp);
  // cumulative[j]: realized variance through bar j's close.
  const closes: number[] = [];
  const cumulative: number[] = [];
  let sum = 0;
  let previous = inWindow[0]?.open ?? NaN;
  for (const bar of inWindow) {
    const r = Math.log(bar.close / previous);
    sum += r * r;
    previous = bar.close;
    closes.push(bar.timestamp + MINUTE_MS);
    cumulative.push(sum);
  }
  const length = window.end - window.start;
  return instants.map((t) => {
    // Bars closed by t: binary search for the first close after it.
    let lo = 0;
    let hi = closes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((closes[mid] as number) <= t) lo = mid + 1;
      else hi = mid;
    }
    const count = lo;
    if (count === 0 || !(length > 0)) return null;
    const elapsed = ((closes[count - 1] as number) - window.start) / length;
    return adjustedRealizedVolatility(cumulative[count - 1] as number, count, windowShare, elapsed);
  });
}
