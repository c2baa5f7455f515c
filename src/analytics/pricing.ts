/**
 * Black-Scholes-Merton pricing and greeks for European options on an underlying paying a
 * continuous dividend yield q, with a continuously compounded rate r; the normal distribution and
 * the normalised Black price the implied-volatility solver (implied-volatility.ts) inverts.
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

export const SQRT2 = Math.SQRT2;
const INV_SQRT_PI = 0.5641895835477562869; // 1/sqrt(pi)
export const INV_SQRT_2PI = 0.3989422804014326779; // 1/sqrt(2 pi)
export const SQRT_2PI = 2.5066282746310005024; // sqrt(2 pi)
export const LN_SQRT_2PI = 0.9189385332046727418; // ln(sqrt(2 pi))
export const DBL_EPSILON = 2 ** -52;

// ---------------------------------------------------------------------------------------------
// Normal distribution (Cody 1969)

// Cody's coefficients, written out in Horner form (the solver evaluates these a few times per
// quote of a chain: no table reads).

/** erf(y) for |y| <= 0.46875 (Cody's first rational approximation). */
function erfSmall(y: number): number {
  const z = y * y;
  const num =
    ((((0.18577770618460315 * z + 3.1611237438705656) * z + 113.86415415105016) * z + 377.48523768530202) * z + 3209.3775891384695) * y;
  const den = (((z + 23.601290952344122) * z + 244.02463793444417) * z + 1282.6165260773723) * z + 2844.2368334391706;
  return num / den;
}

/** exp(y²)·erfc(y) for y >= 0.46875: Cody's rational parts (0.46875 to 4, and asymptotic in 1/y² beyond) without the Gaussian factor. */
function erfcxLarge(y: number): number {
  if (y <= 4) {
    const num =
      (((((((2.1531153547440385e-8 * y + 0.56418849698867009) * y + 8.8831497943883759) * y + 66.11919063714163) * y + 298.63513819740013) *
        y +
        881.95222124176909) *
        y +
        1712.0476126340706) *
        y +
        2051.0783778260715) *
        y +
      1230.3393547979972;
    const den =
      (((((((y + 15.744926110709835) * y + 117.6939508913125) * y + 537.18110186200986) * y + 1621.3895745666902) * y +
        3290.7992357334596) *
        y +
        4362.6190901432472) *
        y +
        3439.3676741437216) *
        y +
      1230.3393548037494;
    return num / den;
  }
  if (!Number.isFinite(y)) return 0;
  const z = 1 / (y * y);
  const num =
    (((((0.016315387137302098 * z + 0.30532663496123234) * z + 0.36034489994980444) * z + 0.12578172611122925) * z + 0.016083785148742277) *
      z +
      6.587491615298378e-4) *
    z;
  const den =
    ((((z + 2.5685201922898224) * z + 1.8729528499234673) * z + 0.52790510295142841) * z + 0.060518341312441319) * z +
    2.3352049762686918e-3;
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
export function erfcx(y: number): number {
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
    (((((-0.007784894002430293 * q - 0.3223964580411365) * q - 2.400758277161838) * q - 2.549732539343734) * q + 4.374664141464968) * q +
      2.938163982698783) /
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
    ((((((-39.69683028665376 * r + 220.9460984245205) * r - 275.9285104469687) * r + 138.357751867269) * r - 30.66479806614716) * r +
      2.506628277459239) *
      q) /
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
export function otmCallBracket(h: number, t: number): number {
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
export function upperGapBracket(h: number, t: number): number {
  return 0.5 * (erfcx((h + t) / SQRT2) + erfcx((t - h) / SQRT2));
}

/**
 * b for s >= s_c without cancellation. Near the money (|x| < 0.5) the two Φ terms nearly cancel
 * for small s, so the difference Φ(h+t) − Φ(h−t) is taken from erf of arguments of opposite sign
 * (a sum) and the exponentials enter through expm1.
 */
export function otmCallAboveCritical(x: number, h: number, t: number): number {
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
export function logForwardMoneyness(spot: number, strike: number, carry: number): number {
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
