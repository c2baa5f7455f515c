/**
 * Static inputs for pricing: the risk-free rate by month and dividend yields by underlying.
 * No network access at run time; the tables are updated by hand.
 */

/**
 * FRED series TB3MS, "3-Month Treasury Bill Secondary Market Rate, Discount Basis", monthly averages
 * of business days, percent (Board of Governors of the Federal Reserve System, H.15 release), as
 * published; one row per year from January. The table ends at the last month whose value was checked
 * against a FRED download (2026-05); later dates use that month.
 */
const TB3MS_FIRST_YEAR = 2000;
const TB3MS_PERCENT: readonly (readonly number[])[] = [
  /* 2000 */ [5.32, 5.55, 5.69, 5.66, 5.79, 5.69, 5.96, 6.09, 6.0, 6.11, 6.17, 5.77],
  /* 2001 */ [5.15, 4.88, 4.42, 3.87, 3.62, 3.49, 3.51, 3.36, 2.64, 2.16, 1.87, 1.69],
  /* 2002 */ [1.65, 1.72, 1.79, 1.71, 1.73, 1.7, 1.68, 1.62, 1.63, 1.58, 1.23, 1.19],
  /* 2003 */ [1.17, 1.17, 1.13, 1.13, 1.07, 0.92, 0.9, 0.95, 0.94, 0.92, 0.93, 0.9],
  /* 2004 */ [0.88, 0.93, 0.94, 0.94, 1.02, 1.27, 1.33, 1.48, 1.65, 1.76, 2.07, 2.19],
  /* 2005 */ [2.33, 2.54, 2.74, 2.78, 2.84, 2.97, 3.22, 3.44, 3.42, 3.71, 3.88, 3.89],
  /* 2006 */ [4.24, 4.43, 4.51, 4.6, 4.72, 4.79, 4.95, 4.96, 4.81, 4.92, 4.94, 4.85],
  /* 2007 */ [4.98, 5.03, 4.94, 4.87, 4.73, 4.61, 4.82, 4.2, 3.89, 3.9, 3.27, 3.0],
  /* 2008 */ [2.75, 2.12, 1.26, 1.29, 1.73, 1.86, 1.63, 1.72, 1.13, 0.67, 0.19, 0.03],
  /* 2009 */ [0.13, 0.3, 0.21, 0.16, 0.18, 0.18, 0.18, 0.17, 0.12, 0.07, 0.05, 0.05],
  /* 2010 */ [0.06, 0.11, 0.15, 0.16, 0.16, 0.12, 0.16, 0.16, 0.15, 0.13, 0.14, 0.14],
  /* 2011 */ [0.15, 0.13, 0.1, 0.06, 0.04, 0.04, 0.04, 0.02, 0.01, 0.02, 0.01, 0.01],
  /* 2012 */ [0.03, 0.09, 0.08, 0.08, 0.09, 0.09, 0.1, 0.1, 0.11, 0.1, 0.09, 0.07],
  /* 2013 */ [0.07, 0.1, 0.09, 0.06, 0.04, 0.05, 0.04, 0.04, 0.02, 0.05, 0.07, 0.07],
  /* 2014 */ [0.04, 0.05, 0.05, 0.03, 0.03, 0.04, 0.03, 0.03, 0.02, 0.02, 0.02, 0.03],
  /* 2015 */ [0.03, 0.02, 0.03, 0.02, 0.02, 0.02, 0.03, 0.07, 0.02, 0.02, 0.12, 0.23],
  /* 2016 */ [0.26, 0.31, 0.29, 0.23, 0.27, 0.27, 0.3, 0.3, 0.29, 0.33, 0.45, 0.51],
  /* 2017 */ [0.51, 0.52, 0.74, 0.8, 0.89, 0.98, 1.07, 1.01, 1.03, 1.07, 1.23, 1.32],
  /* 2018 */ [1.41, 1.57, 1.7, 1.76, 1.86, 1.9, 1.96, 2.03, 2.13, 2.25, 2.33, 2.37],
  /* 2019 */ [2.37, 2.39, 2.4, 2.38, 2.35, 2.17, 2.1, 1.95, 1.89, 1.65, 1.54, 1.54],
  /* 2020 */ [1.52, 1.52, 0.29, 0.14, 0.13, 0.16, 0.13, 0.1, 0.11, 0.1, 0.09, 0.09],
  /* 2021 */ [0.08, 0.04, 0.03, 0.02, 0.02, 0.04, 0.05, 0.05, 0.04, 0.05, 0.05, 0.06],
  /* 2022 */ [0.15, 0.33, 0.44, 0.76, 0.98, 1.49, 2.23, 2.63, 3.13, 3.72, 4.15, 4.25],
  /* 2023 */ [4.54, 4.65, 4.69, 4.92, 5.14, 5.16, 5.25, 5.3, 5.32, 5.34, 5.27, 5.24],
  /* 2024 */ [5.22, 5.24, 5.24, 5.24, 5.25, 5.24, 5.2, 5.05, 4.72, 4.51, 4.42, 4.27],
  /* 2025 */ [4.21, 4.22, 4.2, 4.21, 4.25, 4.23, 4.25, 4.12, 3.92, 3.82, 3.78, 3.59],
  /* 2026 */ [3.57, 3.6, 3.61, 3.61, 3.6],
];

/** Maturity assumed for the quoted bill: 13 weeks. */
const BILL_DAYS = 91;

/**
 * Continuously compounded rate equivalent to a Treasury-bill bank-discount rate (decimal, e.g. 0.0525).
 * A bill quoted at discount d with n days to maturity costs P = 1 − d·n/360 per unit face (ACT/360
 * discount basis, the Treasury's quoting convention); the continuous rate over the same days on the
 * ACT/365 clock used for option time is r = −ln(P)·365/n.
 */
export function discountToContinuousRate(discountRate: number, days: number = BILL_DAYS): number {
  return (-Math.log1p((-discountRate * days) / 360) * 365) / days;
}

/** TB3MS percent by month index (0 = January 2000). */
const TB3MS_BY_MONTH: readonly number[] = TB3MS_PERCENT.flat();

const MONTH = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;

/**
 * Risk-free rate (continuously compounded, ACT/365) for a date 'YYYY-MM-DD' (or a month 'YYYY-MM'):
 * the TB3MS value of that month, converted with {@link discountToContinuousRate}. Months after the
 * table's last row use the last row (latest known month carries forward); months before 2000-01 use
 * 2000-01. Throws RangeError on a malformed date.
 */
export function riskFreeRate(date: string): number {
  const m = MONTH.exec(date);
  const month = Number(m?.[2]);
  const day = m?.[3] === undefined ? 1 : Number(m[3]);
  if (m === null || month < 1 || month > 12 || day < 1 || day > 31)
    throw new RangeError(`invalid date ${JSON.stringify(date)}, expected YYYY-MM-DD`);
  const index = (Number(m[1]) - TB3MS_FIRST_YEAR) * 12 + (month - 1);
  const clamped = Math.min(Math.max(index, 0), TB3MS_BY_MONTH.length - 1);
  return discountToContinuousRate((TB3MS_BY_MONTH[clamped] as number) / 100);
}

/**
 * Annualised trailing dividend yields (dividends paid over the last twelve months over the price),
 * rounded, as of 2025, from S&P Dow Jones Indices (S&P 500), the ETF issuers (State Street for SPY,
 * Invesco for QQQ, iShares for IWM) and the companies' declared dividends. They drift with prices and
 * payouts; they are a modelling default, not data. Index roots use the yield of the ETF that tracks
 * the same index (XSP is one tenth of SPX). VIX and unknown underlyings default to 0.
 */
const DIVIDEND_YIELDS: Readonly<Record<string, number>> = {
  SPX: 0.013,
  XSP: 0.013,
  SPY: 0.013,
  NDX: 0.006,
  QQQ: 0.006,
  RUT: 0.012,
  IWM: 0.012,
  AAPL: 0.005,
  NVDA: 0.0003,
  TSLA: 0,
  AMZN: 0,
};

/** Continuous dividend yield assumed for an underlying symbol (case-insensitive); 0 when unknown. */
export function dividendYield(underlying: string): number {
  return DIVIDEND_YIELDS[underlying.trim().toUpperCase()] ?? 0;
}
