/**
 * Which contracts a positioning request covers, and open interest summed by strike or expiration.
 * The selectors of the open-interest, levels and heat map routes all apply together (their
 * intersection):
 *
 * - expirations: date_of_expiry (that date), expirations (those dates; unlisted ones ignored),
 *   expiry_mode (0dte: the trading date; 1dte: the first listed expiration after it; weekly,
 *   lte30, lte90: at most 7, 30 or 90 calendar days after it; monthly: standard monthly dates,
 *   the third Friday or the trading day before it when that Friday is a holiday, calendar.ts), and
 *   min_dte / max_dte on the calendar days from the trading date (0 is the trading date);
 * - strikes (open interest): min_strike / max_strike, strikes_around (that many listed strikes
 *   either side of the listed strike nearest the underlying price, the lower on a tie, counted
 *   among the strikes of the selected expirations) and strike_percent_window (|K − S| at most that
 *   percent of S, inclusive).
 */
import { isMonthlyExpiration } from '../calendar.js';
import type { OptionType } from '../pricing.js';
import { daysBetween } from '../volatility/valuation.js';

export type ExpiryMode = '0dte' | '1dte' | 'weekly' | 'monthly' | 'lte30' | 'lte90';

export interface ExpirationSelectors {
  date_of_expiry?: string;
  expirations?: readonly string[];
  expiry_mode?: ExpiryMode;
  min_dte?: number;
  max_dte?: number;
}

/** The listed dates (on or after the trading date) the selectors keep, ascending. */
export function selectExpirationDates(listed: readonly string[], tradingDate: string, s: ExpirationSelectors): string[] {
  const dates = [...new Set(listed)].filter((d) => d >= tradingDate).sort();
  const named = s.expirations === undefined ? null : new Set(s.expirations);
  const nextAfter = dates.find((d) => d > tradingDate) ?? null;
  return dates.filter((d) => {
    const dte = daysBetween(tradingDate, d);
    if (s.date_of_expiry !== undefined && d !== s.date_of_expiry) return false;
    if (named !== null && !named.has(d)) return false;
    if (s.min_dte !== undefined && dte < s.min_dte) return false;
    if (s.max_dte !== undefined && dte > s.max_dte) return false;
    switch (s.expiry_mode) {
      case undefined:
        return true;
      case '0dte':
        return dte === 0;
      case '1dte':
        return d === nextAfter;
      case 'weekly':
        return dte <= 7;
      case 'monthly':
        return isMonthlyExpiration(d);
      case 'lte30':
        return dte <= 30;
      case 'lte90':
        return dte <= 90;
    }
  });
}

export interface StrikeSelectors {
  min_strike?: number;
  max_strike?: number;
  strikes_around?: number;
  strike_percent_window?: number;
}

/** Whether the selectors need the underlying price (strikes around it or within a percent of it). */
export function strikesNeedPrice(s: StrikeSelectors): boolean {
  return s.strikes_around !== undefined || s.strike_percent_window !== undefined;
}

/** The listed strikes the selectors keep (module comment); `spot` is needed only when strikesNeedPrice. */
export function selectStrikes(listed: readonly number[], spot: number | null, s: StrikeSelectors): Set<number> {
  const strikes = [...new Set(listed)].sort((a, b) => a - b);
  let around: [number, number] | null = null;
  if (s.strikes_around !== undefined && spot !== null && strikes.length > 0) {
    let centre = 0;
    strikes.forEach((k, i) => {
      if (Math.abs(k - spot) < Math.abs((strikes[centre] as number) - spot)) centre = i;
    });
    around = [
      strikes[Math.max(0, centre - s.strikes_around)] as number,
      strikes[Math.min(strikes.length - 1, centre + s.strikes_around)] as number,
    ];
  }
  return new Set(
    strikes.filter((k) => {
      if (s.min_strike !== undefined && k < s.min_strike) return false;
      if (s.max_strike !== undefined && k > s.max_strike) return false;
      if (around !== null && (k < around[0] || k > around[1])) return false;
      if (s.strike_percent_window !== undefined && spot !== null && Math.abs(k - spot) > (s.strike_percent_window / 100) * spot)
        return false;
      return true;
    }),
  );
}

export interface OpenInterestContract {
  dateOfExpiry: string;
  strike: number;
  type: OptionType;
  openInterest: number;
}

export interface OpenInterestRow {
  key: number | string;
  call: number;
  put: number;
}

/** Open interest summed by strike or by expiration, ascending, with call and put totals. */
export function openInterestRows(
  contracts: readonly OpenInterestContract[],
  groupBy: 'strike' | 'expiration',
): { rows: OpenInterestRow[]; call: number; put: number } {
  const byKey = new Map<number | string, OpenInterestRow>();
  let call = 0;
  let put = 0;
  for (const c of contracts) {
    const key = groupBy === 'strike' ? c.strike : c.dateOfExpiry;
    let row = byKey.get(key);
    if (row === undefined) {
      row = { key, call: 0, put: 0 };
      byKey.set(key, row);
    }
    if (c.type === 'call') {
      row.call += c.openInterest;
      call += c.openInterest;
    } else {
      row.put += c.openInterest;
      put += c.openInterest;
    }
  }
  const rows = [...byKey.values()].sort((a, b) => (typeof a.key === 'number' ? a.key - (b.key as number) : a.key < b.key ? -1 : 1));
  return { rows, call, put };
}

/** Put over call open interest; null without call open interest. */
export function putCallRatio(call: number, put: number): number | null {
  return call > 0 ? put / call : null;
}
