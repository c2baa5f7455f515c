/**
 * One expiration's smile: a raw SVI fit (svi.ts, svi-calibration.ts) checked for butterfly arbitrage,
 * or, when there are too few quotes, the fit fails or the check does, interpolation in total variance
 * between the quoted out-of-the-money points (linear in k, flat beyond the outermost quotes). The
 * `fit` member says which, how well the curve meets the quotes, and which checks passed; the calendar
 * check across expirations is surface.ts's, which may turn an SVI smile into an interpolated one.
 *
 * Fit weights: the SVI is fitted to total variance w = σ²T; an error δw is a volatility error
 * δσ ≈ δw/(2σT), and a quote pins σ down to its spread in volatility s (price spread over vega,
 * quotes.ts), so each point's weight is 1/(2σT·max(s, 0.1 vol point))²: a least-squares fit in
 * volatility measured in spreads (in price terms: price errors over vega, measured in price spreads).
 */
import { normCdf } from '../pricing.js';
import type { SmilePoint } from './quotes.js';
import { calibrateSvi } from './svi-calibration.js';
import { moneynessGrid, sviButterflyCheck, sviDerivatives, sviTotalVariance, type SviParameters } from './svi.js';

export type SmileMethod = 'svi' | 'interpolated';
export type FallbackReason = 'too_few_quotes' | 'fit_failed' | 'butterfly_arbitrage' | 'calendar_arbitrage';

/** How a smile was built and how it meets its quotes (field names as the response's `fit` member). */
export interface SmileFit {
  method: SmileMethod;
  /** Out-of-the-money quotes (one per strike) the smile was built from. */
  quotes_used: number;
  /** Root-mean-square of fitted minus quoted mid volatility, in volatility points (1 = 0.01). */
  rmse_vol_points: number;
  /** Largest absolute fitted minus quoted mid volatility, in volatility points. */
  max_abs_error_vol_points: number;
  /** Quotes whose fitted volatility lies within their bid and ask volatilities (so the repriced option within the spread). */
  quotes_within_spread: number;
  /** SVI: Gatheral–Jacquier g(k) ≥ 0 on the check grid; interpolated: call prices convex and decreasing in strike at the quoted strikes. */
  butterfly_ok: boolean;
  /** Total variance not below the previous expiration's, nor above the next's, at the log-moneyness both quote (surface.ts). */
  calendar_ok: boolean;
  /** Why an interpolated smile is not SVI; null for SVI. */
  fallback_reason: FallbackReason | null;
}

export type SmileCurve =
  { method: 'svi'; parameters: SviParameters } | { method: 'interpolated'; knots: readonly { k: number; w: number }[] };

export interface Smile {
  /** Years to settlement (ACT/365) the total variance is over. */
  time: number;
  curve: SmileCurve;
  points: readonly SmilePoint[];
  fit: SmileFit;
}

export const MIN_SVI_QUOTES = 5;
/** Smallest spread in volatility a quote is weighted by: 0.1 volatility point. */
const MIN_VOLATILITY_SPREAD = 0.001;

/** Total variance of a curve at log-forward moneyness k. */
export function curveTotalVariance(curve: SmileCurve, k: number): number {
  if (curve.method === 'svi') return sviTotalVariance(curve.parameters, k);
  const knots = curve.knots;
  const first = knots[0];
  const last = knots[knots.length - 1];
  if (first === undefined || last === undefined) return NaN;
  if (k <= first.k) return first.w;
  if (k >= last.k) return last.w;
  let lo = 0;
  let hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((knots[mid] as { k: number }).k <= k) lo = mid;
    else hi = mid;
  }
  const a = knots[lo] as { k: number; w: number };
  const b = knots[hi] as { k: number; w: number };
  return a.w + ((b.w - a.w) * (k - a.k)) / (b.k - a.k);
}

/** dw/dk of a curve at k: the segment's slope for an interpolated curve (the mean of both at a knot, 0 beyond the ends). */
export function curveSlope(curve: SmileCurve, k: number): number {
  if (curve.method === 'svi') return sviDerivatives(curve.parameters, k).w1;
  const knots = curve.knots;
  let left = 0;
  let right = 0;
  for (let i = 0; i + 1 < knots.length; i++) {
    const a = knots[i] as { k: number; w: number };
    const b = knots[i + 1] as { k: number; w: number };
    const slope = (b.w - a.w) / (b.k - a.k);
    if (k > a.k && k <= b.k) left = slope;
    if (k >= a.k && k < b.k) right = slope;
  }
  return 0.5 * (left + right);
}

/** Implied volatility of a smile at k: √(w/T); null where w is not positive. */
export function smileVolatility(smile: Smile, k: number): number | null {
  const w = curveTotalVariance(smile.curve, k);
  return w > 0 && smile.time > 0 ? Math.sqrt(w / smile.time) : null;
}

/**
 * At-the-money (k = 0) volatility of the interpolated curve through the points, without a fit: for
 * the drift route's per-bucket figure, where a fit per minute would cost more than it tells and the
 * quotes are the strikes around the money. Equals smileVolatility(smile, 0) of an interpolated smile.
 */
export function interpolatedAtmVolatility(points: readonly SmilePoint[], time: number): number | null {
  const usable = points.filter((p) => Number.isFinite(p.moneyness) && p.totalVariance > 0);
  if (usable.length === 0 || !(time > 0)) return null;
  const w = curveTotalVariance(interpolatedCurve(usable), 0);
  return w > 0 ? Math.sqrt(w / time) : null;
}

/** The interpolated curve through the points' total variances (ascending k). */
export function interpolatedCurve(points: readonly SmilePoint[]): SmileCurve {
  const knots = points.map((p) => ({ k: p.moneyness, w: p.totalVariance })).sort((x, y) => x.k - y.k);
  return { method: 'interpolated', knots };
}

/** Undiscounted Black call price per unit forward at moneyness k with total variance w: Φ(d1) − e^k Φ(d2). */
function normalisedCall(k: number, w: number): number {
  const s = Math.sqrt(w);
  const d1 = -k / s + 0.5 * s;
  return normCdf(d1) - Math.exp(k) * normCdf(d1 - s);
}

/**
 * Discrete butterfly check of a curve at the quoted strikes: undiscounted call prices (per unit
 * forward, strikes e^k) decreasing with slopes in [−1, 0] and non-decreasing (convex in strike).
 */
export function discreteButterflyOk(curve: SmileCurve, ks: readonly number[]): boolean {
  const sorted = [...ks].sort((a, b) => a - b);
  const strikes = sorted.map((k) => Math.exp(k));
  const prices = sorted.map((k) => normalisedCall(k, curveTotalVariance(curve, k)));
  let previous = -1;
  for (let i = 0; i + 1 < sorted.length; i++) {
    const dK = (strikes[i + 1] as number) - (strikes[i] as number);
    if (!(dK > 0)) continue;
    const slope = ((prices[i + 1] as number) - (prices[i] as number)) / dK;
    const tol = 1e-10;
    if (slope > tol || slope < -1 - tol || slope < previous - tol) return false;
    previous = slope;
  }
  return true;
}

/** The grid the SVI butterfly check runs on: the quoted range and one span beyond each side, 161 points. */
export function butterflyGrid(points: readonly SmilePoint[]): number[] {
  const ks = points.map((p) => p.moneyness);
  const lo = Math.min(...ks);
  const hi = Math.max(...ks);
  const span = Math.max(hi - lo, 0.01);
  return moneynessGrid(lo - span, hi + span, 161);
}

/** Errors of a curve against the points' mid volatilities, in volatility points, and the count within the spread. */
export function fitErrors(
  curve: SmileCurve,
  time: number,
  points: readonly SmilePoint[],
): Pick<SmileFit, 'rmse_vol_points' | 'max_abs_error_vol_points' | 'quotes_within_spread'> {
  let sumSquares = 0;
  let maxAbs = 0;
  let within = 0;
  for (const p of points) {
    const w = curveTotalVariance(curve, p.moneyness);
    const sigma = w > 0 ? Math.sqrt(w / time) : 0;
    const error = sigma - p.volatility;
    sumSquares += error * error;
    maxAbs = Math.max(maxAbs, Math.abs(error));
    const tol = 1e-12;
    if (sigma >= (p.bidVolatility ?? 0) - tol && sigma <= (p.askVolatility ?? Infinity) + tol) within++;
  }
  const n = points.length;
  return {
    rmse_vol_points: n > 0 ? 100 * Math.sqrt(sumSquares / n) : 0,
    max_abs_error_vol_points: 100 * maxAbs,
    quotes_within_spread: within,
  };
}

/** An interpolated smile, saying why it is not SVI. */
export function interpolatedSmile(points: readonly SmilePoint[], time: number, reason: FallbackReason): Smile {
  const curve = interpolatedCurve(points);
  return {
    time,
    curve,
    points,
    fit: {
      method: 'interpolated',
      quotes_used: points.length,
      ...fitErrors(curve, time, points),
      butterfly_ok: discreteButterflyOk(
        curve,
        points.map((p) => p.moneyness),
      ),
      calendar_ok: true,
      fallback_reason: reason,
    },
  };
}

/** Least-squares weight of a point (module comment). */
export function pointWeight(p: SmilePoint, time: number): number {
  const spread = Math.max(Number.isFinite(p.volatilitySpread) ? p.volatilitySpread : Infinity, MIN_VOLATILITY_SPREAD);
  const scale = 2 * p.volatility * time * spread;
  return scale > 0 && Number.isFinite(scale) ? 1 / (scale * scale) : 0;
}

/**
 * The smile of one expiration from its out-of-the-money points (quotes.ts outOfTheMoneyPoints): SVI
 * when at least MIN_SVI_QUOTES points are quoted, the fit succeeds and passes the butterfly check,
 * else interpolated. Null when there is no point or time is not positive. calendar_ok starts true:
 * surface.ts checks it across expirations.
 */
export function fitSmile(points: readonly SmilePoint[], time: number): Smile | null {
  const usable = points.filter((p) => Number.isFinite(p.moneyness) && p.totalVariance > 0 && p.volatility > 0);
  if (usable.length === 0 || !(time > 0)) return null;
  if (usable.length < MIN_SVI_QUOTES) return interpolatedSmile(usable, time, 'too_few_quotes');
  const calibration = calibrateSvi(usable.map((p) => ({ k: p.moneyness, w: p.totalVariance, weight: pointWeight(p, time) })));
  if (calibration === null) return interpolatedSmile(usable, time, 'fit_failed');
  const check = sviButterflyCheck(calibration.parameters, butterflyGrid(usable));
  if (!check.ok) return interpolatedSmile(usable, time, 'butterfly_arbitrage');
  const curve: SmileCurve = { method: 'svi', parameters: calibration.parameters };
  return {
    time,
    curve,
    points: usable,
    fit: {
      method: 'svi',
      quotes_used: usable.length,
      ...fitErrors(curve, time, usable),
      butterfly_ok: true,
      calendar_ok: true,
      fallback_reason: null,
    },
  };
}
