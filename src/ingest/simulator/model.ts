/**
 * Every parameter of the simulated market, in one place. The model itself is described in the
 * header of index.ts; the numbers here are documented where they are set. Levels and volatilities
 * are round figures of late 2024 to 2025 markets, not data.
 */
import { exchangeCodeByName } from '../../analytics/opra.js';

export type Scale = 'default' | 'full';

/** One underlying's price and variance process (Heston, on the trading clock, see paths.ts). */
export interface UnderlyingSpec {
  symbol: string;
  /** Price at the start of the first simulated segment. */
  start: number;
  /** Initial variance v0, long-run variance theta (annualised), mean reversion kappa (per year). */
  v0: number;
  theta: number;
  kappa: number;
  /** Volatility of variance xi and the price/variance correlation rho (the leverage effect). */
  xi: number;
  rho: number;
  /** Correlation of the price shock with the market (SPX) shock. */
  beta: number;
  /** Shares a regular session (0 for an index, which has no volume). */
  dailyVolume: number;
  /**
   * Bars: an index is calculated in the regular session only (09:30 to 16:00 ET, 13:00 on an early
   * close: no bar in GTH, the curb or 16:00–16:15), ETFs to 16:15, stocks to the equity close.
   */
  bars: 'index' | 'etf' | 'equity';
  /**
   * Tracks another underlying at a fixed ratio (SPY ≈ SPX / 10.03, QQQ ≈ NDX / 40.98, IWM ≈ RUT / 10)
   * instead of its own process, within paths.ts TRACKING_NOISE a sub-step. The leader comes first
   * in UNDERLYINGS, so a tracker moves with the leader's same sub-step.
   */
  tracks?: { symbol: string; ratio: number };
  /** Smile: implied = atm × (1 + skew·z + curvature·z²), z = ln(K/F)/(atm·√T) clamped to ±Z_CLAMP. */
  skew: number;
  curvature: number;
  /** Implied over expected realised volatility (the variance risk premium). */
  vrp: number;
}

const sq = (x: number): number => x * x;

/**
 * The Nasdaq-100 and the Russell 2000 where the week starts. The index is the driving process and
 * its ETF tracks it at a fixed ratio, as SPY tracks SPX (the fund holds the index's stocks; its
 * price is the index's value over a divisor): QQQ ≈ NDX / 40.98 and IWM ≈ RUT / 10.00, the ratios
 * of 2025–2026 closes (QQQ/NDX about 0.0244, IWM/RUT about 0.0995 to 0.1). The levels keep the
 * simulated market's own time (SPX 5900, QQQ 510, IWM 225), so the four indexes stay consistent
 * with one another (NDX/SPX about 3.5, RUT/SPX about 0.38).
 */
export const NDX_START = 20_900;
export const RUT_START = 2_250;

export const UNDERLYINGS: readonly UnderlyingSpec[] = [
  {
    symbol: 'SPX',
    start: 5900,
    v0: sq(0.15),
    theta: sq(0.17),
    kappa: 4,
    xi: 0.7,
    rho: -0.75,
    beta: 1,
    dailyVolume: 0,
    bars: 'index',
    skew: -0.11,
    curvature: 0.022,
    vrp: 1.1,
  },
  {
    symbol: 'SPY',
    start: 588.5,
    v0: sq(0.15),
    theta: sq(0.17),
    kappa: 4,
    xi: 0.7,
    rho: -0.75,
    beta: 1,
    dailyVolume: 60e6,
    bars: 'etf',
    tracks: { symbol: 'SPX', ratio: 588.5 / 5900 },
    skew: -0.11,
    curvature: 0.022,
    vrp: 1.1,
  },
  {
    symbol: 'NDX',
    start: NDX_START,
    v0: sq(0.2),
    theta: sq(0.21),
    kappa: 4,
    xi: 0.75,
    rho: -0.7,
    beta: 0.92,
    dailyVolume: 0,
    bars: 'index',
    skew: -0.1,
    curvature: 0.024,
    vrp: 1.08,
  },
  {
    symbol: 'QQQ',
    start: 510,
    v0: sq(0.2),
    theta: sq(0.21),
    kappa: 4,
    xi: 0.75,
    rho: -0.7,
    beta: 0.92,
    dailyVolume: 35e6,
    bars: 'etf',
    tracks: { symbol: 'NDX', ratio: 510 / NDX_START },
    skew: -0.1,
    curvature: 0.024,
    vrp: 1.08,
  },
  {
    symbol: 'RUT',
    start: RUT_START,
    v0: sq(0.22),
    theta: sq(0.23),
    kappa: 4,
    xi: 0.7,
    rho: -0.65,
    beta: 0.82,
    dailyVolume: 0,
    bars: 'index',
    skew: -0.09,
    curvature: 0.025,
    vrp: 1.08,
  },
  {
    symbol: 'IWM',
    start: 225,
    v0: sq(0.22),
    theta: sq(0.23),
    kappa: 4,
    xi: 0.7,
    rho: -0.65,
    beta: 0.82,
    dailyVolume: 30e6,
    bars: 'etf',
    tracks: { symbol: 'RUT', ratio: 225 / RUT_START },
    skew: -0.09,
    curvature: 0.025,
    vrp: 1.08,
  },
  {
    symbol: 'AAPL',
    start: 230,
    v0: sq(0.25),
    theta: sq(0.26),
    kappa: 3,
    xi: 0.8,
    rho: -0.5,
    beta: 0.65,
    dailyVolume: 50e6,
    bars: 'equity',
    skew: -0.06,
    curvature: 0.03,
    vrp: 1.05,
  },
  {
    symbol: 'TSLA',
    start: 340,
    v0: sq(0.55),
    theta: sq(0.55),
    kappa: 3,
    xi: 1.1,
    rho: -0.25,
    beta: 0.45,
    dailyVolume: 90e6,
    bars: 'equity',
    skew: -0.025,
    curvature: 0.035,
    vrp: 1.05,
  },
  {
    symbol: 'NVDA',
    start: 140,
    v0: sq(0.48),
    theta: sq(0.48),
    kappa: 3,
    xi: 1.0,
    rho: -0.35,
    beta: 0.6,
    dailyVolume: 200e6,
    bars: 'equity',
    skew: -0.04,
    curvature: 0.032,
    vrp: 1.05,
  },
  {
    symbol: 'AMZN',
    start: 205,
    v0: sq(0.3),
    theta: sq(0.31),
    kappa: 3,
    xi: 0.85,
    rho: -0.45,
    beta: 0.62,
    dailyVolume: 40e6,
    bars: 'equity',
    skew: -0.05,
    curvature: 0.03,
    vrp: 1.05,
  },
];

/** Standardised moneyness beyond which the smile is flat. */
export const Z_CLAMP = 4;

/** Minimum quote tick rules (in cents: [below $3, at or above $3]). */
export type TickRule = 'index' | 'penny_all' | 'penny_pilot';
export const TICKS_CENTS: Record<TickRule, readonly [number, number]> = {
  /** SPX/SPXW, RUT/RUTW (Cboe Rule 5.4), NDX/NDXP (Nasdaq PHLX): $0.05 below $3, $0.10 at or above. */
  index: [5, 10],
  /** SPY, QQQ, IWM: $0.01 at every price (Penny Interval Program, all-penny classes). */
  penny_all: [1, 1],
  /** Penny Interval Program classes: $0.01 below $3, $0.05 at or above. */
  penny_pilot: [1, 5],
};

export type ExpirationRule =
  /** Standard AM-settled third-Friday monthlies only (SPX, NDX, RUT). */
  | 'monthly_only'
  /** Dailies Monday to Friday, Friday weeklies further out, monthlies (SPXW, NDXP, RUTW, SPY, QQQ, IWM). */
  | 'daily'
  /** Friday weeklies (Thursday when Friday is a holiday) and monthlies (single stocks). */
  | 'weekly';

/** Strikes every `step` dollars out to `within` (fraction of the reference price), then coarser. */
export interface StrikeBand {
  within: number;
  step: number;
}

export interface RootSpec {
  root: string;
  underlying: string;
  expirations: ExpirationRule;
  strikes: readonly StrikeBand[];
  tick: TickRule;
  /** Share of the market's order events. */
  activity: number;
  /** Share of a root's events on the trading date's own expiration (0DTE). */
  zeroDteShare: number;
  /** e-folding time of expiration weights in calendar days. */
  expiryDecayDays: number;
  callShare: number;
  /** Open interest of an at-the-money monthly call (scale of the OI model). */
  openInterestScale: number;
  /**
   * Single-listed: the one venue the root trades on (SPX, SPXW, RUT and RUTW on Cboe, NDX and NDXP
   * on Nasdaq PHLX: proprietary index products, licensed to one exchange), so it is never swept
   * across venues; null: multi-listed across the exchanges (EXCHANGE_SHARES).
   */
  venue: number | null;
  /** Quote spread: relative to the option's value, plus an absolute part in dollars. */
  spreadRelative: number;
  spreadAbsolute: number;
  /** Expirations and strikes per expiration given one-minute quotes in a regular session. */
  quotedExpirations: number;
  quotedStrikes: number;
}

export const CBOE = exchangeCodeByName.cboe;
export const PHLX = exchangeCodeByName.phlx;

/**
 * The index roots beside SPX/SPXW (Nasdaq and Cboe product specifications): NDX (AM-settled
 * third-Friday monthlies) and NDXP (PM-settled, expiring every trading day), both on Nasdaq PHLX
 * only; RUT (AM monthlies) and RUTW (PM dailies and weeklies) on Cboe only. Strikes: NDX every 50
 * points within ±3% (0.24% of the level; SPX's 5 points are 0.085%), every 250 out to ±15%; RUT
 * every 5 points within ±2%, every 25 out to ±15%: listed strikes of both (Nasdaq and Cboe list
 * finer ones near the money and wider wings), kept coarser and narrower than SPX's to hold down the first start's cost (the two families still add about 17% to its quote samples). Ticks: $0.05 below $3, $0.10 at or above, for both (Nasdaq
 * PHLX Options 3 Section 3 for NDX, Cboe Rule 5.4 for RUT, as SPX). Their share of the order
 * events is small (NDX and RUT options trade some 2–4% of SPX's contracts a day), their spreads
 * wider than SPX's and their open interest lower.
 */
export const ROOTS: readonly RootSpec[] = [
  {
    root: 'SPXW',
    underlying: 'SPX',
    expirations: 'daily',
    strikes: [
      { within: 0.05, step: 5 },
      { within: 0.2, step: 25 },
    ],
    tick: 'index',
    activity: 0.27,
    zeroDteShare: 0.55,
    expiryDecayDays: 6,
    callShare: 0.47,
    openInterestScale: 6000,
    venue: CBOE,
    spreadRelative: 0.012,
    spreadAbsolute: 0.05,
    quotedExpirations: 3,
    quotedStrikes: 9,
  },
  {
    root: 'SPX',
    underlying: 'SPX',
    expirations: 'monthly_only',
    strikes: [
      { within: 0.05, step: 5 },
      { within: 0.2, step: 25 },
    ],
    tick: 'index',
    activity: 0.04,
    zeroDteShare: 0,
    expiryDecayDays: 45,
    callShare: 0.42,
    openInterestScale: 14000,
    venue: CBOE,
    spreadRelative: 0.01,
    spreadAbsolute: 0.1,
    quotedExpirations: 1,
    quotedStrikes: 7,
  },
  {
    root: 'NDXP',
    underlying: 'NDX',
    expirations: 'daily',
    strikes: [
      { within: 0.03, step: 50 },
      { within: 0.15, step: 250 },
    ],
    tick: 'index',
    activity: 0.012,
    zeroDteShare: 0.45,
    expiryDecayDays: 7,
    callShare: 0.48,
    openInterestScale: 900,
    venue: PHLX,
    spreadRelative: 0.02,
    spreadAbsolute: 0.2,
    quotedExpirations: 1,
    quotedStrikes: 7,
  },
  {
    root: 'NDX',
    underlying: 'NDX',
    expirations: 'monthly_only',
    strikes: [
      { within: 0.03, step: 50 },
      { within: 0.15, step: 250 },
    ],
    tick: 'index',
    activity: 0.004,
    zeroDteShare: 0,
    expiryDecayDays: 45,
    callShare: 0.45,
    openInterestScale: 1800,
    venue: PHLX,
    spreadRelative: 0.018,
    spreadAbsolute: 0.3,
    quotedExpirations: 1,
    quotedStrikes: 3,
  },
  {
    root: 'RUTW',
    underlying: 'RUT',
    expirations: 'daily',
    strikes: [
      { within: 0.02, step: 5 },
      { within: 0.15, step: 25 },
    ],
    tick: 'index',
    activity: 0.008,
    zeroDteShare: 0.35,
    expiryDecayDays: 8,
    callShare: 0.44,
    openInterestScale: 1200,
    venue: CBOE,
    spreadRelative: 0.016,
    spreadAbsolute: 0.1,
    quotedExpirations: 1,
    quotedStrikes: 7,
  },
  {
    root: 'RUT',
    underlying: 'RUT',
    expirations: 'monthly_only',
    strikes: [
      { within: 0.02, step: 5 },
      { within: 0.15, step: 25 },
    ],
    tick: 'index',
    activity: 0.004,
    zeroDteShare: 0,
    expiryDecayDays: 45,
    callShare: 0.4,
    openInterestScale: 2500,
    venue: CBOE,
    spreadRelative: 0.014,
    spreadAbsolute: 0.15,
    quotedExpirations: 1,
    quotedStrikes: 3,
  },
  {
    root: 'SPY',
    underlying: 'SPY',
    expirations: 'daily',
    strikes: [
      { within: 0.08, step: 1 },
      { within: 0.2, step: 5 },
    ],
    tick: 'penny_all',
    activity: 0.2,
    zeroDteShare: 0.45,
    expiryDecayDays: 8,
    callShare: 0.5,
    openInterestScale: 22000,
    venue: null,
    spreadRelative: 0.004,
    spreadAbsolute: 0.01,
    quotedExpirations: 2,
    quotedStrikes: 9,
  },
  {
    root: 'QQQ',
    underlying: 'QQQ',
    expirations: 'daily',
    strikes: [
      { within: 0.08, step: 1 },
      { within: 0.2, step: 5 },
    ],
    tick: 'penny_all',
    activity: 0.09,
    zeroDteShare: 0.4,
    expiryDecayDays: 8,
    callShare: 0.52,
    openInterestScale: 14000,
    venue: null,
    spreadRelative: 0.005,
    spreadAbsolute: 0.01,
    quotedExpirations: 2,
    quotedStrikes: 7,
  },
  {
    root: 'IWM',
    underlying: 'IWM',
    expirations: 'daily',
    strikes: [
      { within: 0.1, step: 1 },
      { within: 0.2, step: 5 },
    ],
    tick: 'penny_all',
    activity: 0.05,
    zeroDteShare: 0.3,
    expiryDecayDays: 10,
    callShare: 0.45,
    openInterestScale: 12000,
    venue: null,
    spreadRelative: 0.006,
    spreadAbsolute: 0.01,
    quotedExpirations: 1,
    quotedStrikes: 7,
  },
  {
    root: 'AAPL',
    underlying: 'AAPL',
    expirations: 'weekly',
    strikes: [
      { within: 0.1, step: 2.5 },
      { within: 0.2, step: 5 },
    ],
    tick: 'penny_pilot',
    activity: 0.06,
    zeroDteShare: 0.2,
    expiryDecayDays: 15,
    callShare: 0.58,
    openInterestScale: 9000,
    venue: null,
    spreadRelative: 0.01,
    spreadAbsolute: 0.02,
    quotedExpirations: 2,
    quotedStrikes: 5,
  },
  {
    root: 'TSLA',
    underlying: 'TSLA',
    expirations: 'weekly',
    strikes: [
      { within: 0.1, step: 2.5 },
      { within: 0.2, step: 5 },
    ],
    tick: 'penny_pilot',
    activity: 0.11,
    zeroDteShare: 0.3,
    expiryDecayDays: 12,
    callShare: 0.57,
    openInterestScale: 11000,
    venue: null,
    spreadRelative: 0.008,
    spreadAbsolute: 0.02,
    quotedExpirations: 2,
    quotedStrikes: 5,
  },
  {
    root: 'NVDA',
    underlying: 'NVDA',
    expirations: 'weekly',
    strikes: [
      { within: 0.1, step: 1 },
      { within: 0.2, step: 5 },
    ],
    tick: 'penny_pilot',
    activity: 0.12,
    zeroDteShare: 0.3,
    expiryDecayDays: 12,
    callShare: 0.6,
    openInterestScale: 16000,
    venue: null,
    spreadRelative: 0.008,
    spreadAbsolute: 0.01,
    quotedExpirations: 2,
    quotedStrikes: 5,
  },
  {
    root: 'AMZN',
    underlying: 'AMZN',
    expirations: 'weekly',
    strikes: [
      { within: 0.1, step: 2.5 },
      { within: 0.2, step: 5 },
    ],
    tick: 'penny_pilot',
    activity: 0.06,
    zeroDteShare: 0.2,
    expiryDecayDays: 15,
    callShare: 0.56,
    openInterestScale: 8000,
    venue: null,
    spreadRelative: 0.01,
    spreadAbsolute: 0.02,
    quotedExpirations: 2,
    quotedStrikes: 5,
  },
];
