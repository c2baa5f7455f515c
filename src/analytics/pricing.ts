/**
 * Black-Scholes-Merton pricing, greeks and implied volatility for European options on an
 * underlying paying a continuous dividend yield q, with a continuously compounded rate r.
 *
 * Sources:
 * - Generalised BSM formula and greek definitions: E. G. Haug, "The Complete Guide to Option
 *   Pricing Formulas", 2nd ed., McGraw-Hill 2007, ch. 1 and 2.
 * - Error function: W. J. Cody, "Rational Chebyshev approximations for the error function",
 *   Mathematics of Computation 23 (1969) 631-637; coefficients as in Cody's CALERF (Netlib specfun).
 * - Normalised Black price, its inflection point, and the implied-volatility solver's four branches,
 *   their rational-cubic initial guesses, objective functions and order-3 Householder steps:
 *   P. Jäckel, "Let's Be Rational", Wilmott (2015) 40-53. The code is this module's own.
 * - Rational cubic interpolation and its shape-preserving control parameter: R. Delbourgo and
 *   J. A. Gregory, "Shape preserving piecewise rational interpolation", SIAM J. Sci. Stat. Comput. 6
 *   (1985) 967-976.
 * - Rough inverse normal used only for starting guesses: P. J. Acklam, "An algorithm for computing
 *   the inverse normal cumulative distribution function" (2003).
 *
 * All functions are pure: no I/O, no clock.
 */
import type { components } from '../../generated/openapi.js';

/** A contract's right (the contract's ContractType). */
export type OptionType = components['schemas']['ContractType'];

export interface BsmInput {
  type: OptionType;
  spot: number;
  strike: number;
  /** Years to the settlement instant (ACT/365 calendar time). At or below 0 the option is expired. */
  time: number;
  /** Continuously compounded risk-free rate. */
  rate: number;
  /** Continuous dividend yield. */
  dividendYield: number;
  /** Annualised volatility (0.2 = 20 vol points). */
  volatility: number;
}

/**
 * Price and sensitivities. Units:
 * - delta: dPrice/dSpot, per 1 unit of spot.
 * - gamma: d²Price/dSpot², per unit spot per unit spot.
 * - vega: dPrice/dSigma per 1.00 of volatility (100 vol points); divide by 100 for one vol point.
 * - vanna: dDelta/dSigma, per 1.00 of volatility.
 * - charm: dDelta/dt per year, t being calendar time passing, i.e. -dDelta/dT where T is the time to
 *   expiry (Haug's sign); divide by 365 for one calendar day.
 */
export interface Greeks {
  price: number;
  delta: number;
  gamma: number;
  vega: number;
  vanna: number;
  charm: number;
}

export interface ImpliedVolatilityInput {
  type: OptionType;
  price: number;
  spot: number;
  strike: number;
  time: number;
  rate: number;
  dividendYield: number;
}

const SQRT2 = Math.SQRT2;
const INV_SQRT_PI = 0.5641895835477562869; // 1/sqrt(pi)
const INV_SQRT_2PI = 0.3989422804014326779; // 1/sqrt(2 pi)
const SQRT_2PI = 2.5066282746310005024; // sqrt(2 pi)
const LN_SQRT_2PI = 0.9189385332046727418; // ln(sqrt(2 pi))
const DBL_EPSILON = 2 ** -52;

// ---------------------------------------------------------------------------------------------
// Normal distribution (Cody 1969)

// Cody's coefficients, written out in Horner form (the solver evaluates these a few times per
// quote of a chain: no table reads).

/** erf(y) for |y| <= 0.46875 (Cody's first rational approximation). */
function erfSmall(y: number): number {
  const z = y * y;
  const num = ((((0.18577770618460315 * z + 3.1611237438705656) * z + 113.86415415105016) * z + 377.48523768530202) * z + 3209.3775891384695) * y;
  const den = (((z + 23.601290952344122) * z + 244.02463793444417) * z + 1282.6165260773723) * z + 2844.2368334391706;
  return num / den;
}

/** exp(y²)·erfc(y) for y >= 0.46875: Cody's rational parts (0.46875 to 4, and asymptotic in 1/y² beyond) without the Gaussian factor. */
function erfcxLarge(y: number): number {
  if (y <= 4) {
    const num =
      (((((((2.1531153547440385e-8 * y + 0.56418849698867009) * y + 8.8831497943883759) * y + 66.11919063714163) * y + 298.63513819740013) * y + 881.95222124176909) * y +
        1712.0476126340706) *
        y +
        2051.0783778260715) *
        y +
      1230.3393547979972;
    const den =
      (((((((y + 15.744926110709835) * y + 117.6939508913125) * y + 537.18110186200986) * y + 1621.3895745666902) * y + 3290.7992357334596) * y + 4362.6190901432472) * y +
        3439.3676741437216) *
        y +
      1230.3393548037494;
    return num / den;
  }
  if (!Number.isFinite(y)) return 0;
  const z = 1 / (y * y);
  const num = (((((0.016315387137302098 * z + 0.30532663496123234) * z + 0.36034489994980444) * z + 0.12578172611122925) * z + 0.016083785148742277) * z + 6.587491615298378e-4) * z;
  const den = ((((z + 2.5685201922898224) * z + 1.8729528499234673) * z + 0.52790510295142841) * z + 0.060518341312441319) * z + 2.3352049762686918e-3;
  return (INV_SQRT_PI - num / den) / y;
}

/**
 * exp(-v²) with the square split so that the rounding of v² is not amplified by large v
 * (the same device Cody uses): v = vHi + vLo with vHi on a 1/16 grid, so vHi² is exact.
 */
function expNegSquare(v: number): number {
  const a = Math.abs(v);
  if (a > 27.3) return 0; // exp(-745.3) underflows anyway
  const hi = Math.trunc(a * 16) / 16;
  return Math.exp(-hi * hi) * Math.exp(-(a - hi) * (a + hi));
}

/** exp(-x²/2), accurate to a few ulps relative even in the far tails. */
function expNegHalfSquare(x: number): number {
  const a = Math.abs(x);
  if (a > 38.6) return 0;
  const hi = Math.trunc(a * 16) / 16;
  return Math.exp(-0.5 * hi * hi) * Math.exp(-0.5 * (a - hi) * (a + hi));
}

/** Scaled complementary error function exp(y²)·erfc(y) for y > -0.46875 (the solver needs y >= 0). */
function erfcx(y: number): number {
  if (y >= 0.46875) return erfcxLarge(y);
  return Math.exp(y * y) * (1 - erfSmall(y));
}

/** Error function, absolute accuracy ~1e-16. */
function erf(y: number): number {
  const a = Math.abs(y);
  if (a <= 0.46875) return erfSmall(y);
  const tail = erfcxLarge(a) * expNegSquare(a);
  return y > 0 ? 1 - tail : tail - 1;
}

/**
 * Standard normal cumulative distribution Φ(x). Cody's erf/erfc approximations (1969), with the
 * Gaussian factor exp(-x²/2) evaluated on the split argument so the tails keep ~1e-15 relative
 * accuracy all the way down to the underflow at x ≈ -38.5.
 */
export function normCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const y = Math.abs(x) / SQRT2;
  if (y < 0.46875) return 0.5 + 0.5 * erfSmall(x / SQRT2);
  if (Math.abs(x) > 40) return x < 0 ? 0 : 1;
  const tail = 0.5 * erfcxLarge(y) * expNegHalfSquare(x); // Φ(-|x|)
  return x < 0 ? tail : 1 - tail;
}

/** Standard normal density φ(x). */
export function normPdf(x: number): number {
  return INV_SQRT_2PI * expNegHalfSquare(x);
}

// Acklam (2003), relative accuracy ~1.2e-9: only used to start the implied-volatility iteration.

/** Acklam's lower-tail rational function of q = √(−2 ln p). */
function tailInverse(p: number): number {
  const q = Math.sqrt(-2 * Math.log(p));
  return (
    (((((-0.007784894002430293 * q - 0.3223964580411365) * q - 2.400758277161838) * q - 2.549732539343734) * q + 4.374664141464968) * q + 2.938163982698783) /
    ((((0.007784695709041462 * q + 0.3224671290700398) * q + 2.445134137142996) * q + 3.754408661907416) * q + 1)
  );
}

/** Approximate Φ⁻¹(p) for 0 < p < 1 (Acklam). */
export function approximateInverseNormCdf(p: number): number {
  if (!(p > 0)) return -Infinity;
  if (!(p < 1)) return Infinity;
  if (p < 0.02425) return tailInverse(p);
  if (p > 1 - 0.02425) return -tailInverse(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    (((((-39.69683028665376 * r + 220.9460984245205) * r - 275.9285104469687) * r + 138.357751867269) * r - 30.66479806614716) * r + 2.506628277459239) * q /
    (((((-54.47609879822406 * r + 161.5858368580409) * r - 155.6989798598866) * r + 66.80131188771972) * r - 13.28068155288572) * r + 1)
  );
}

// ---------------------------------------------------------------------------------------------
// Normalised Black call (Jäckel 2015): b(x, s) = B/sqrt(FK) with x = ln(F/K) <= 0 (out of the money)
// and s = σ√T. With h = x/s and t = s/2:  b = e^{x/2}Φ(h+t) − e^{−x/2}Φ(h−t),
// db/ds = φ(h+t)e^{x/2} = exp(−(h²+t²)/2)/√(2π),  d²b/ds² = db/ds · (h²−t²)/s,
// so the inflection point (the "critical" s) is s_c = √(2|x|), where h + t = 0.

/**
 * For s <= s_c (h + t <= 0): b written with Cody's scaled erfc,
 * b = exp(−(h²+t²)/2)·β̃ with β̃ = ½[erfcx(−(h+t)/√2) − erfcx(−(h−t)/√2)] (as in Jäckel 2015),
 * which never underflows. Returns β̃; b'/b = 1/(√(2π)·β̃) then needs no exponential.
 */
function otmCallBracket(h: number, t: number): number {
  return 0.5 * (erfcx(-(h + t) / SQRT2) - erfcx(-(h - t) / SQRT2));
}

/** ln b for s <= s_c (otmCallBracket). */
function lnOtmCallBelowCritical(h: number, t: number): number {
  return Math.log(otmCallBracket(h, t)) - 0.5 * (h * h + t * t);
}

/**
 * For s >= s_c (h + t >= 0): the distance to the upper bound,
 * g = e^{x/2} − b = e^{x/2}Φ(−h−t) + e^{−x/2}Φ(h−t) = exp(−(h²+t²)/2)·γ̃ with
 * γ̃ = ½[erfcx((h+t)/√2) + erfcx((t−h)/√2)], a sum of positive terms. Returns γ̃.
 */
function upperGapBracket(h: number, t: number): number {
  return 0.5 * (erfcx((h + t) / SQRT2) + erfcx((t - h) / SQRT2));
}

/**
 * b for s >= s_c without cancellation. Near the money (|x| < 0.5) the two Φ terms nearly cancel
 * for small s, so the difference Φ(h+t) − Φ(h−t) is taken from erf of arguments of opposite sign
 * (a sum) and the exponentials enter through expm1.
 */
function otmCallAboveCritical(x: number, h: number, t: number): number {
  if (Math.abs(x) < 0.5) {
    const up = h + t;
    const down = h - t; // < 0 because h <= 0 < t
    const dPhi = 0.5 * (erf(up / SQRT2) + erf(-down / SQRT2));
    return dPhi + Math.expm1(0.5 * x) * normCdf(up) - Math.expm1(-0.5 * x) * normCdf(down);
  }
  return Math.exp(0.5 * x) * normCdf(h + t) - Math.exp(-0.5 * x) * normCdf(h - t);
}

/** Normalised out-of-the-money call price b(x, s) for x <= 0, s > 0. */
function otmCallNormalised(x: number, s: number): number {
  if (!(s > 0)) return 0;
  const h = x / s;
  const t = 0.5 * s;
  if (!Number.isFinite(h)) return 0;
  if (h + t <= 0) return Math.exp(lnOtmCallBelowCritical(h, t));
  return otmCallAboveCritical(x, h, t);
}

// ---------------------------------------------------------------------------------------------
// Pricing and greeks

/**
 * ln(F/K) = ln(S/K) + (r − q)T. Near the money S − K is exact (Sterbenz), so log1p keeps ln(S/K)
 * accurate to a few ulps relative; Math.log(S/K) would carry an absolute error of ~1e-16, which
 * becomes a large relative error in d1 when σ√T is tiny.
 */
function logForwardMoneyness(spot: number, strike: number, carry: number): number {
  const lnSK = spot >= 0.5 * strike && spot <= 2 * strike ? Math.log1p((spot - strike) / strike) : Math.log(spot / strike);
  return lnSK + carry;
}

function checkInput(i: BsmInput): void {
  const finite = [i.spot, i.strike, i.time, i.rate, i.dividendYield, i.volatility].every(Number.isFinite);
  if (!finite) throw new RangeError('BSM inputs must be finite numbers');
  if (!(i.spot > 0) || !(i.strike > 0)) throw new RangeError('spot and strike must be positive');
  if (i.volatility < 0) throw new RangeError('volatility must not be negative');
  if (i.type !== 'call' && i.type !== 'put') throw new RangeError(`unknown option type ${String(i.type)}`);
}

/**
 * Generalised Black-Scholes-Merton price (Haug 2007, ch. 1) with cost of carry b = r − q:
 * call = S e^{−qT} Φ(d1) − K e^{−rT} Φ(d2), put = K e^{−rT} Φ(−d2) − S e^{−qT} Φ(−d1).
 * Evaluated as discounted intrinsic plus the out-of-the-money normalised Black price (put-call parity),
 * which keeps full relative accuracy for deep out-of-the-money and tiny-σ√T options.
 * Limits: time <= 0 gives the payoff on the spot; zero volatility gives the discounted forward intrinsic.
 * Throws RangeError on non-finite inputs, non-positive spot or strike, or negative volatility.
 */
export function bsmPrice(i: BsmInput): number {
  checkInput(i);
  const sign = i.type === 'call' ? 1 : -1;
  if (i.time <= 0) return Math.max(sign * (i.spot - i.strike), 0);
  const spotPv = i.spot * Math.exp(-i.dividendYield * i.time); // S e^{-qT} = F·DF
  const strikePv = i.strike * Math.exp(-i.rate * i.time); // K e^{-rT} = K·DF
  const x = logForwardMoneyness(i.spot, i.strike, (i.rate - i.dividendYield) * i.time); // ln(F/K)
  const intrinsic = Math.max(sign * (spotPv - strikePv), 0);
  const s = i.volatility * Math.sqrt(i.time);
  // An in-the-money option is worth its intrinsic value plus the out-of-the-money option of the
  // other type at the same strike; both normalise to b(−|x|, s).
  const otm = Math.sqrt(spotPv * strikePv) * otmCallNormalised(-Math.abs(x), s);
  return sign * x > 0 ? intrinsic + otm : otm;
}

/**
 * Price and greeks in closed form (Haug 2007, ch. 2), units as documented on {@link Greeks}:
 * delta = ±e^{−qT}Φ(±d1), gamma = e^{−qT}φ(d1)/(Sσ√T), vega = S e^{−qT}φ(d1)√T,
 * vanna = −e^{−qT}φ(d1)d2/σ,
 * charm (call) = q e^{−qT}Φ(d1) − e^{−qT}φ(d1)·(2(r−q)T − d2σ√T)/(2Tσ√T),
 * charm (put) = −q e^{−qT}Φ(−d1) − e^{−qT}φ(d1)·(2(r−q)T − d2σ√T)/(2Tσ√T).
 * When σ√T is 0 (or so small that d1 is infinite) or time <= 0, the limits are returned: delta is
 * the step e^{−qT}·1{F>K} (½ at the money), gamma, vega and vanna are 0 (at the money gamma is
 * singular and reported as 0), charm keeps only its dividend term (and is 0 once expired).
 */
export function bsmGreeks(i: BsmInput): Greeks {
  const price = bsmPrice(i);
  const T = Math.max(i.time, 0);
  const q = i.dividendYield;
  const dq = Math.exp(-q * T);
  const x = logForwardMoneyness(i.spot, i.strike, (i.rate - q) * T);
  const s = i.volatility * Math.sqrt(T);
  const d1 = x / s + 0.5 * s;
  const isCall = i.type === 'call';
  if (!(s > 0) || !Number.isFinite(d1)) {
    const nd1 = x > 0 ? 1 : x < 0 ? 0 : 0.5; // Φ(d1) in the limit
    const callDelta = dq * nd1;
    return {
      price,
      delta: isCall ? callDelta : callDelta - dq,
      gamma: 0,
      vega: 0,
      vanna: 0,
      charm: T > 0 ? (isCall ? q * dq * nd1 : -q * dq * (1 - nd1)) : 0,
    };
  }
  const d2 = d1 - s;
  const pdf = normPdf(d1);
  const sqrtT = Math.sqrt(T);
  const gamma = (dq * pdf) / (i.spot * s);
  const vega = i.spot * dq * pdf * sqrtT;
  const vanna = (-dq * pdf * d2) / i.volatility;
  // (2(r−q)T − d2σ√T)/(2Tσ√T) = (r−q)/(σ√T) − d2/(2T); skipped when φ(d1) underflows, where the
  // factor may be infinite for T near 0.
  const drift = pdf === 0 ? 0 : dq * pdf * ((i.rate - q) / s - d2 / (2 * T));
  let delta: number;
  let charm: number;
  if (isCall) {
    delta = dq * normCdf(d1);
    charm = q * dq * normCdf(d1) - drift;
  } else {
    delta = -dq * normCdf(-d1);
    charm = -q * dq * normCdf(-d1) - drift;
  }
  return { price, delta, gamma, vega, vanna, charm };
}

// ---------------------------------------------------------------------------------------------
// Implied volatility

/** Prices this close to a no-arbitrage bound (relative) are treated as carrying no volatility information. */
const BOUND_TOLERANCE = 1e-12;

// Rational cubic interpolation (R. Delbourgo, J. A. Gregory, "Shape preserving piecewise rational
// interpolation", SIAM J. Sci. Stat. Comput. 6 (1985) 967-976), which Jäckel (2015) uses for the
// initial guesses: on [xl, xr] with values yl, yr and slopes dl, dr, at the fraction t = (x − xl)/w,
//   r(t) = [yr t³ + (ρ yr − w dr) t²(1−t) + (ρ yl + w dl) t(1−t)² + yl (1−t)³] / [1 + (ρ − 3) t(1−t)],
// a cubic Hermite interpolant at ρ = 3 and the straight line as ρ → ∞; ρ > −1 keeps it pole-free.

const MIN_CONTROL = -(1 - Math.sqrt(DBL_EPSILON));
const MAX_CONTROL = 2 / (DBL_EPSILON * DBL_EPSILON);

/** The interpolant above at t, with 1 − t passed apart so that either end keeps its relative accuracy. */
function rationalCubic(t: number, omt: number, w: number, yl: number, yr: number, dl: number, dr: number, control: number): number {
  if (!(control < MAX_CONTROL)) return yr * t + yl * omt;
  const t2 = t * t;
  const omt2 = omt * omt;
  return (yr * t2 * t + (control * yr - w * dr) * t2 * omt + (control * yl + w * dl) * t * omt2 + yl * omt2 * omt) / (1 + (control - 3) * t * omt);
}

/**
 * The least control parameter for which the interpolant keeps the data's monotonicity and
 * convexity (Delbourgo and Gregory's sufficient conditions), given the end slopes and the chord's slope.
 */
function shapePreservingControl(dl: number, dr: number, slope: number): number {
  const monotone = dl * slope >= 0 && dr * slope >= 0;
  const convex = dl <= slope && slope <= dr;
  const concave = dl >= slope && slope >= dr;
  if (!monotone && !convex && !concave) return MIN_CONTROL;
  let forMonotone = -MAX_CONTROL;
  let forConvexity = -MAX_CONTROL;
  if (monotone) forMonotone = slope !== 0 ? (dr + dl) / slope : MAX_CONTROL;
  if (convex || concave) {
    const spread = dr - dl;
    forConvexity = slope !== dl && dr !== slope ? Math.max(Math.abs(spread / (dr - slope)), Math.abs(spread / (slope - dl))) : MAX_CONTROL;
  } else if (monotone) {
    forConvexity = MAX_CONTROL;
  }
  return Math.max(MIN_CONTROL, forMonotone, forConvexity);
}

/**
 * The control parameter for which the interpolant's second derivative at one end is `second`
 * (at the left end when `atLeft`), raised to the shape-preserving minimum when `preserveShape`.
 * From r''(xl) = 2(ρ(s − dl) − (dr − dl))/w and r''(xr) = 2(ρ(dr − s) − (dr − dl))/w, s the chord's slope.
 */
function fittedControl(w: number, yl: number, yr: number, dl: number, dr: number, second: number, atLeft: boolean, preserveShape: boolean): number {
  const slope = (yr - yl) / w;
  const numerator = 0.5 * w * second + (dr - dl);
  const denominator = atLeft ? slope - dl : dr - slope;
  let control: number;
  if (numerator === 0) control = 0;
  else if (denominator === 0) control = numerator > 0 ? MAX_CONTROL : MIN_CONTROL;
  else control = numerator / denominator;
  if (preserveShape) control = Math.max(control, shapePreservingControl(dl, dr, slope));
  return Math.max(control, MIN_CONTROL);
}

/**
 * Φ⁻¹(e^{lnP}) for lnP < ln ½: Acklam's approximation while e^{lnP} is a normal double, below that
 * the tail asymptote ln Φ(z) ≈ −z²/2 − ln(−z) − ln√(2π) solved by fixed point (guesses only).
 */
function inverseNormCdfOfLog(lnP: number): number {
  if (lnP > -700) return approximateInverseNormCdf(Math.exp(lnP));
  let z = -Math.sqrt(-2 * lnP);
  for (let k = 0; k < 4; k++) z = -Math.sqrt(-2 * (lnP + Math.log(-z) + LN_SQRT_2PI));
  return z;
}

/** ln(3√3/(2π)): the lower map's constant (below). */
const LN_LOWER_MAP = Math.log((3 * Math.sqrt(3)) / (2 * Math.PI));
const INV_SQRT3 = 1 / Math.sqrt(3);
/** A Householder step this small (relative) leaves an error of order its fourth power: the iteration stops. */
const CONVERGED_STEP = 3e-5;
const MAX_ITERATIONS = 60;

/**
 * Solves b(x, s) = β for s, with x <= 0 (out-of-the-money call form), after P. Jäckel, "Let's Be
 * Rational" (2015). β is passed as ln β (deep out-of-the-money prices may be below the smallest
 * double once normalised) and as the gap to the upper bound gap = e^{x/2} − β (accurate when β is
 * near the bound).
 *
 * The tangent to b at its inflection point s_c = √(2|x|) meets 0 at s_l and the upper bound e^{x/2}
 * at s_u; with b_l = b(s_l), b_c = b(s_c), b_u = b(s_u) the price falls in one of four branches:
 * 1. β < b_l: b is nearly the lower map f_l(s) = (2π|x|/(3√3))·Φ(x/(√3 s))³; f_l as a function of β
 *    is interpolated by a shape-preserving rational cubic through (0, 0) with slope 1 and through b_l
 *    with its slope and curvature, and inverted; the objective is 1/ln b(s) − 1/ln β.
 * 2. b_l ≤ β < b_c and 3. b_c ≤ β ≤ b_u: s(β) is interpolated by a rational cubic through the
 *    branch's ends with slopes 1/b'(s) and no curvature at s_c; the objective is b(s) − β.
 * 4. β > b_u: the upper map f_u(s) = Φ(−s/2) as a function of β, through b_u and (e^{x/2}, 0) with
 *    slope −½, interpolated the same way and inverted; the objective is ln(e^{x/2} − b(s)) − ln gap.
 * From the guess, Householder steps of order 3 (quartic convergence) on the branch's objective,
 * kept within the branch's interval by a bracket that bisects a step leaving it; one or two steps
 * reach machine precision from these guesses. The curvature fits and objectives are the paper's;
 * the code, the bracket and the logarithmic forms for underflowing prices are this module's own.
 */
function normalisedVolatility(x: number, lnBeta: number, gap: number): number {
  const bMax = Math.exp(0.5 * x);
  const sc = Math.sqrt(-2 * x);
  // At s_c (h = −t, h² + t² = |x|): b_c = ½e^{x/2}(1 − erfcx(√|x|)) and b'(s_c) = e^{x/2}/√(2π).
  const halfGapC = 0.5 * (1 - erfcx(Math.sqrt(-x)));
  const lnBc = halfGapC > 0 ? Math.log(halfGapC) + 0.5 * x : -Infinity;
  const bc = halfGapC * bMax;
  const vc = INV_SQRT_2PI * bMax;
  let branch: 1 | 2 | 3 | 4;
  let lo: number;
  let hi: number;
  let s: number;
  let lnGap = NaN;
  if (lnBeta < lnBc) {
    const sl = sc - SQRT_2PI * halfGapC; // s_c − b_c/b'(s_c)
    const hl = x / sl;
    const tl = 0.5 * sl;
    // b_l = e^{−q}·β̃ and b'(s_l) = e^{−q}/√(2π), q = (h² + t²)/2: one exponential for both.
    const ql = 0.5 * (hl * hl + tl * tl);
    const bracketL = sl > 0 ? otmCallBracket(hl, tl) : 0;
    const lnBl = Math.log(bracketL) - ql;
    const gaussL = Math.exp(-ql);
    const vl = INV_SQRT_2PI * gaussL;
    const bl = bracketL * gaussL;
    if (lnBeta < lnBl) {
      branch = 1;
      lo = 0;
      hi = sl;
      // The lower map and its first two derivatives in s at s_l, z = x/(√3 s).
      // Φ(z) = ½·erfcx(−z/√2)·e^{−z²/2} (z < 0): one exponential for φ and Φ.
      const z = (INV_SQRT3 * x) / sl;
      const gauss = Math.exp(-0.5 * z * z);
      const phi = INV_SQRT_2PI * gauss;
      const cdf = 0.5 * erfcx(-z / SQRT2) * gauss;
      const scale = (2 * Math.PI * -x) / (3 * Math.sqrt(3));
      const dz = -z / sl;
      const fl = scale * cdf * cdf * cdf;
      const fl1 = 3 * scale * cdf * cdf * phi * dz;
      const fl2 = 3 * scale * cdf * phi * dz * dz * (2 * phi - z * cdf) + 3 * scale * cdf * cdf * phi * ((2 * z) / (sl * sl));
      // As functions of β: dF/dβ = f'/b', d²F/dβ² = (f'' − f'·b''/b')/b'².
      const b2l = (hl * hl - tl * tl) / sl;
      const d1 = fl1 / vl;
      const d2 = (fl2 - fl1 * b2l) / (vl * vl);
      // Φ(z)³ = F/scale at the guess; F(β) = β(1 + O(β/b_l)) near 0, taken in logs there (β may underflow).
      const t = Math.exp(lnBeta - lnBl);
      const f = t > 1e-12 ? rationalCubic(t, 1 - t, bl, 0, fl, 1, d1, fittedControl(bl, 0, fl, 1, d1, d2, false, true)) : 0;
      const zGuess = f > 1e-280 ? approximateInverseNormCdf(Math.cbrt(f / scale)) : inverseNormCdfOfLog((lnBeta + LN_LOWER_MAP - Math.log(-x)) / 3);
      s = (INV_SQRT3 * x) / zGuess;
    } else {
      branch = 2;
      lo = Math.max(sl, 0);
      hi = sc;
      const beta = Math.exp(lnBeta);
      const w = bc - bl;
      const control = fittedControl(w, sl, sc, 1 / vl, 1 / vc, 0, false, false);
      const t = (beta - bl) / w;
      s = rationalCubic(t, 1 - t, w, sl, sc, 1 / vl, 1 / vc, control);
    }
  } else {
    lnGap = Math.log(gap);
    const su = sc + SQRT_2PI * (1 - halfGapC); // s_c + (e^{x/2} − b_c)/b'(s_c)
    const hu = x / su;
    const tu = 0.5 * su;
    const qu = 0.5 * (hu * hu + tu * tu);
    const bracketU = upperGapBracket(hu, tu);
    const lnGapU = Math.log(bracketU) - qu;
    const gaussU = Math.exp(-qu);
    const vu = INV_SQRT_2PI * gaussU;
    const gapU = bracketU * gaussU;
    if (lnGap > lnGapU) {
      branch = 3;
      lo = sc;
      hi = su;
      const w = bMax - gapU - bc; // b_u − b_c
      const control = fittedControl(w, sc, su, 1 / vc, 1 / vu, 0, true, false);
      const omt = (gap - gapU) / w; // (b_u − β)/(b_u − b_c)
      s = rationalCubic(1 - omt, omt, w, sc, su, 1 / vc, 1 / vu, control);
    } else {
      branch = 4;
      lo = su;
      hi = Infinity;
      // The upper map and its derivatives in s at s_u; as functions of β as in branch 1.
      const phi = normPdf(tu);
      const fu = normCdf(-tu);
      const fu1 = -0.5 * phi;
      const fu2 = 0.125 * su * phi;
      const b2u = (hu * hu - tu * tu) / su;
      const d1 = fu1 / vu;
      const d2 = (fu2 - fu1 * b2u) / (vu * vu);
      const omt = gap / gapU; // (e^{x/2} − β)/(e^{x/2} − b_u)
      const control = fittedControl(gapU, fu, 0, d1, -0.5, d2, true, true);
      let f = rationalCubic(1 - omt, omt, gapU, fu, 0, d1, -0.5, control);
      if (!(f > 0 && f < 0.5)) f = 0.5 * gap;
      s = -2 * approximateInverseNormCdf(f);
    }
  }
  return householder(branch, x, lnBeta, lnGap, s, lo, hi);
}

/**
 * Householder iteration of order 3 on branch `branch`'s objective g (normalisedVolatility), from s
 * within [lo, hi]: s += ν(1 + ½ν·g''/g')/(1 + ν(g''/g' + ν·g'''/(6g'))) with ν = −g/g'. The ratios
 * come from b'''/b' = (b''/b')² − 3h²/s² − ¼ and b''/b' = (h² − t²)/s, h = x/s, t = s/2 (Jäckel 2015).
 * Each objective increases towards the root from below (ν > 0 below it), which keeps the bracket.
 */
function householder(branch: 1 | 2 | 3 | 4, x: number, lnBeta: number, lnGap: number, s0: number, lo0: number, hi0: number): number {
  let lo = lo0;
  let hi = hi0;
  let s = s0 > lo && s0 < hi ? s0 : Number.isFinite(hi) ? 0.5 * (lo + hi) : 2 * lo + 1;
  const beta = branch === 2 || branch === 3 ? Math.exp(lnBeta) : 0;
  for (let iter = 0; iter < MAX_ITERATIONS; iter++) {
    const h = x / s;
    const t = 0.5 * s;
    const q = 0.5 * (h * h + t * t); // b' = e^{−q}/√(2π)
    const b2 = (h * h - t * t) / s; // b''/b'
    const b3 = b2 * b2 - (3 * h * h) / (s * s) - 0.25; // b'''/b'
    let newton: number;
    let h2: number;
    let h3: number;
    if (branch === 1) {
      // g = 1/ln b − 1/ln β; with L = ln b, p = b'/b: g''/g' = b''/b' − p − 2p/L,
      // g'''/g' = b'''/b' − 3p·b''/b' + 2p² − 6(p·b''/b' − p²)/L + 6p²/L².
      const bracket = otmCallBracket(h, t);
      const L = Math.log(bracket) - q;
      const p = INV_SQRT_2PI / bracket;
      const invL = 1 / L;
      newton = ((lnBeta - L) * L) / (lnBeta * p);
      h2 = b2 - p - 2 * p * invL;
      h3 = b3 - 3 * p * b2 + 2 * p * p - 6 * (p * b2 - p * p) * invL + 6 * p * p * invL * invL;
    } else if (branch === 4) {
      // g = ln(e^{x/2} − b) − ln gap; with w = b'/(e^{x/2} − b): g''/g' = b''/b' + w, g'''/g' = b'''/b' + 3w·b''/b' + 2w².
      const bracket = upperGapBracket(h, t);
      const w = INV_SQRT_2PI / bracket; // b'/(e^{x/2} − b)
      newton = (Math.log(bracket) - q - lnGap) / w;
      h2 = b2 + w;
      h3 = b3 + 3 * w * b2 + 2 * w * w;
    } else {
      const gauss = Math.exp(-q);
      const b = h + t <= 0 ? otmCallBracket(h, t) * gauss : otmCallAboveCritical(x, h, t);
      newton = (beta - b) / (INV_SQRT_2PI * gauss);
      h2 = b2;
      h3 = b3;
    }
    if (newton === 0) return s;
    if (newton > 0) lo = s;
    else if (newton < 0) hi = s; // (a NaN step, from an unrepresentable price, bisects below)
    let step = (newton * (1 + 0.5 * h2 * newton)) / (1 + newton * (h2 + (h3 * newton) / 6));
    if (!Number.isFinite(step) || !(step * newton > 0)) step = newton;
    let next = s + step;
    const inside = next > lo && next < hi;
    if (Math.abs(step) <= CONVERGED_STEP * s && inside) return next;
    if (!inside) {
      if (!Number.isFinite(hi)) next = 2 * s;
      else if (lo > 0 && hi > 4 * lo) next = Math.sqrt(lo * hi);
      else next = 0.5 * (lo + hi);
      if (hi - lo <= 4 * DBL_EPSILON * hi) return next;
    }
    s = next;
  }
  return s;
}

/**
 * Black-Scholes-Merton implied volatility: the σ for which {@link bsmPrice} equals `price`.
 *
 * The price is moved to the forward measure and normalised (Jäckel 2015): x = ln(F/K),
 * β = price·e^{rT}/√(FK); an in-the-money option is replaced by the out-of-the-money option of the
 * other type via put-call parity, and puts by calls through b(x, s, put) = b(−x, s, call), so only
 * out-of-the-money calls are solved (normalisedVolatility: one or two Householder steps from Jäckel's
 * guesses, no bracketing search). The solver's own relative error in σ is about
 * 2e-16·(1 + |z|)/(σ√T) with z = ln(K/F)/(σ√T) (cancellation inside the normalised price: 2e-11 at
 * σ√T = 1e-5 near the money, below 1e-14 from σ√T = 0.02), on top of what the price itself pins
 * down: an in-the-money price moves σ by ~ε·price/vega.
 *
 * Returns null when no volatility fits: non-finite inputs, price <= 0, time <= 0, spot or strike
 * <= 0, price at or below the discounted intrinsic value (or within 1e-12 relative of it), price at
 * or above the upper bound (call: S e^{−qT}; put: K e^{−rT}) or within 1e-12 relative of it, where
 * the vega is too small for the price to carry information.
 */
export function impliedVolatility(i: ImpliedVolatilityInput): number | null {
  const { price, spot, strike, time, rate, dividendYield: q } = i;
  // Written out rather than as a list: this runs once per quote of a chain (no array per call).
  if (!(Number.isFinite(price) && Number.isFinite(spot) && Number.isFinite(strike) && Number.isFinite(time) && Number.isFinite(rate) && Number.isFinite(q))) return null;
  if (!(spot > 0) || !(strike > 0) || !(time > 0)) return null;
  if (i.type !== 'call' && i.type !== 'put') return null;
  return solveDiscounted(i.type === 'call', price, spot * Math.exp(-q * time), strike * Math.exp(-rate * time), logForwardMoneyness(spot, strike, (rate - q) * time), time);
}

/**
 * Black-76 implied volatility of an option on a forward F settling in `time` years, both legs
 * discounted by `discount` = e^{−rT}: the same σ, to the last bit, as {@link impliedVolatility} with
 * spot = F and dividendYield = r (when discount is that call's e^{−rT}), without its argument object
 * or exponentials, for callers solving a whole chain of one expiration. Null in the same cases.
 */
export function blackImpliedVolatility(type: OptionType, price: number, forward: number, strike: number, time: number, discount: number): number | null {
  if (!(Number.isFinite(price) && Number.isFinite(forward) && Number.isFinite(strike) && Number.isFinite(time) && Number.isFinite(discount))) return null;
  if (!(forward > 0) || !(strike > 0) || !(time > 0) || !(discount > 0)) return null;
  if (type !== 'call' && type !== 'put') return null;
  return solveDiscounted(type === 'call', price, forward * discount, strike * discount, logForwardMoneyness(forward, strike, 0), time);
}

/**
 * The σ at which the option is worth `price`, from the present values of its legs (S e^{−qT} and
 * K e^{−rT}) and x = ln(F/K): impliedVolatility's method (its comment), after its input checks.
 */
function solveDiscounted(isCall: boolean, price: number, spotPv: number, strikePv: number, x: number, time: number): number | null {
  if (!(price > 0)) return null;
  const sign = isCall ? 1 : -1;
  const upper = isCall ? spotPv : strikePv;
  if (!(price < upper) || upper - price <= BOUND_TOLERANCE * upper) return null;
  let otmPrice = price;
  if (sign * x > 0) {
    const intrinsic = sign * (spotPv - strikePv);
    otmPrice = price - intrinsic;
    if (!(otmPrice > BOUND_TOLERANCE * intrinsic)) return null;
  }
  // β = otmPrice / (DF·√(FK)) with DF·√(FK) = √(S e^{−qT}·K e^{−rT}) (as a product of roots: no
  // overflow), β kept in logs against underflow.
  const scale = Math.sqrt(spotPv) * Math.sqrt(strikePv);
  const lnBeta = Math.log(otmPrice) - Math.log(scale);
  const gap = (upper - price) / scale; // distance to the bound, normalised (parity-invariant)
  const xOtm = -Math.abs(x);
  if (!(lnBeta < 0.5 * xOtm) || !(gap > 0)) return null;
  const s = normalisedVolatility(xOtm, lnBeta, gap);
  const sigma = s / Math.sqrt(time);
  return Number.isFinite(sigma) && sigma > 0 ? sigma : null;
}
