/**
 * The basis of an equity-index future against its cash index, and the cost-of-carry fair value
 * (issue 38 §2, GET /v1/futures/basis). Pure arithmetic; the route states the conventions:
 *
 * - Time to expiry T: from the instant to the contract's final settlement (the index's Special
 *   Opening Quotation, 09:30 ET of the last trade date), in years of 365 days of 86 400 000 ms
 *   (ACT/365, the clock option time uses here). Fractional days; 0 at and after settlement.
 * - Carry: continuous compounding, F = S·exp((r − q)·T). The carry implied by a price is
 *   ln(F/S)/T (annualised r − q); undefined (null) when T is 0.
 * - Fair value: S·exp((r − q)·T) from the given rate r and dividend yield q (both continuous,
 *   annual decimals).
 * - Basis: F − S in index points, and (F − S)/S × 100 in percent of the index; mispricing F − fair.
 */

export const MS_PER_DAY = 86_400_000;
export const DAYS_PER_YEAR = 365;

/** Days from `at` to `settlement` (Unix ms), fractional; 0 when `at` is at or after it. */
export function daysToExpiry(at: number, settlement: number): number {
  return Math.max(0, settlement - at) / MS_PER_DAY;
}

/** Years (ACT/365) of `days`. */
export function yearsOf(days: number): number {
  return days / DAYS_PER_YEAR;
}

/** The cost-of-carry fair value S·exp((r − q)·T). */
export function fairValue(index: number, rate: number, dividendYield: number, years: number): number {
  return index * Math.exp((rate - dividendYield) * years);
}

/** The annualised carry r − q implied by F and S over T years: ln(F/S)/T; null when T or a price is not positive. */
export function impliedCarry(future: number, index: number, years: number): number | null {
  if (!(years > 0) || !(future > 0) || !(index > 0)) return null;
  return Math.log(future / index) / years;
}

export interface BasisInputs {
  /** Future price (index points). */
  future: number;
  /** Index value of the same minute. */
  index: number;
  /** Instant of the prices, Unix ms. */
  at: number;
  /** Final settlement instant of the contract, Unix ms. */
  settlement: number;
  /** Risk-free rate, continuous, annual decimal. */
  rate: number;
  /** Index dividend yield, continuous, annual decimal. */
  dividendYield: number;
}

export interface Basis {
  basis: number;
  basisPercent: number;
  daysToExpiry: number;
  yearsToExpiry: number;
  /** ln(F/S)/T; null at settlement. */
  impliedCarry: number | null;
  /** impliedCarry + q: the financing rate the price implies; null at settlement. */
  impliedRate: number | null;
  /** r − q of the inputs. */
  modelCarry: number;
  fairValue: number;
  fairBasis: number;
  /** F − fair. */
  mispricing: number;
}

export function basisOf(i: BasisInputs): Basis {
  const days = daysToExpiry(i.at, i.settlement);
  const years = yearsOf(days);
  const fair = fairValue(i.index, i.rate, i.dividendYield, years);
  const carry = impliedCarry(i.future, i.index, years);
  return {
    basis: i.future - i.index,
    basisPercent: ((i.future - i.index) / i.index) * 100,
    daysToExpiry: days,
    yearsToExpiry: years,
    impliedCarry: carry,
    impliedRate: carry === null ? null : carry + i.dividendYield,
    modelCarry: i.rate - i.dividendYield,
    fairValue: fair,
    fairBasis: fair - i.index,
    mispricing: i.future - fair,
  };
}
