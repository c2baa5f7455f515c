/**
 * Black-Scholes-Merton pricing, greeks and implied volatility for European options on an
 * underlying paying a continuous dividend yield q, with a continuously compounded rate r.
 *
 * Sources:
 * - Generalised BSM formula and greek definitions: E. G. Haug, "The Complete Guide to Option
 *   Pricing Formulas", 2nd ed., McGraw-Hill 2007, ch. 1 and 2.
 * - Error function: W. J. Cody, "Rational Chebyshev approximations for the error function",
 *   Mathematics of Computation 23 (1969) 631-637; coefficients as in Cody's CALERF (Netlib specfun).
 * - Normalised Black price, its inflection point and the branch-wise objective functions of the
 *   implied-volatility solver: P. Jäckel, "Let's Be Rational", Wilmott (2015) 40-53.
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
const LN_SQRT_2PI = 0.9189385332046727418; // ln(sqrt(2 pi))
const DBL_EPSILON = 2 ** -52;

// ---------------------------------------------------------------------------------------------
// Normal distribution (Cody 1969)

// Cody's |x| <= 0.46875 erf approximation.
const ERF_A = [3.1611237438705656, 113.86415415105016, 377.48523768530202, 3209.3775891384695, 0.18577770618460315];
const ERF_B = [23.601290952344122, 244.02463793444417, 1282.6165260773723, 2844.2368334391706];
// Cody's 0.46875 <= x <= 4 erfc approximation (scaled by exp(x²)).
const ERFC_C = [
  0.56418849698867009, 8.8831497943883759, 66.119190637141630, 298.63513819740013, 881.95222124176909,
  1712.0476126340706, 2051.0783778260715, 1230.3393547979972, 2.1531153547440385e-8,
];
const ERFC_D = [
  15.744926110709835, 117.69395089131250, 537.18110186200986, 1621.3895745666902, 3290.7992357334596,
  4362.6190901432472, 3439.3676741437216, 1230.3393548037494,
];
// Cody's x > 4 erfc approximation (asymptotic in 1/x²).
const ERFC_P = [
  0.30532663496123234, 0.36034489994980444, 0.12578172611122925, 0.016083785148742277, 6.5874916152983780e-4,
  0.016315387137302098,
];
const ERFC_Q = [2.5685201922898224, 1.8729528499234673, 0.52790510295142841, 0.060518341312441319, 2.3352049762686918e-3];

/** Indexed coefficient read (the tables are constant, so the index is always in range). */
function coef(a: readonly number[], i: number): number {
  return a[i] as number;
}

/** erf(y) for |y| <= 0.46875. */
function erfSmall(y: number): number {
  const z = y * y;
  let num = coef(ERF_A, 4) * z;
  let den = z;
  for (let i = 0; i < 3; i++) {
    num = (num + coef(ERF_A, i)) * z;
    den = (den + coef(ERF_B, i)) * z;
  }
  return (y * (num + coef(ERF_A, 3))) / (den + coef(ERF_B, 3));
}

/** exp(y²)·erfc(y) for y >= 0.46875: Cody's rational part without the Gaussian factor. */
function erfcxLarge(y: number): number {
  if (y <= 4) {
    let num = coef(ERFC_C, 8) * y;
    let den = y;
    for (let i = 0; i < 7; i++) {
      num = (num + coef(ERFC_C, i)) * y;
      den = (den + coef(ERFC_D, i)) * y;
    }
    return (num + coef(ERFC_C, 7)) / (den + coef(ERFC_D, 7));
  }
  if (!Number.isFinite(y)) return 0;
  const z = 1 / (y * y);
  let num = coef(ERFC_P, 5) * z;
  let den = z;
  for (let i = 0; i < 4; i++) {
    num = (num + coef(ERFC_P, i)) * z;
    den = (den + coef(ERFC_Q, i)) * z;
  }
  const r = (z * (num + coef(ERFC_P, 4))) / (den + coef(ERFC_Q, 4));
  return (INV_SQRT_PI - r) / y;
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
const ICDF_A = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
const ICDF_B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
const ICDF_C = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
const ICDF_D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];

function tailInverse(p: number): number {
  const q = Math.sqrt(-2 * Math.log(p));
  return (
    (((((coef(ICDF_C, 0) * q + coef(ICDF_C, 1)) * q + coef(ICDF_C, 2)) * q + coef(ICDF_C, 3)) * q + coef(ICDF_C, 4)) * q + coef(ICDF_C, 5)) /
    ((((coef(ICDF_D, 0) * q + coef(ICDF_D, 1)) * q + coef(ICDF_D, 2)) * q + coef(ICDF_D, 3)) * q + 1)
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
    ((((((coef(ICDF_A, 0) * r + coef(ICDF_A, 1)) * r + coef(ICDF_A, 2)) * r + coef(ICDF_A, 3)) * r + coef(ICDF_A, 4)) * r + coef(ICDF_A, 5)) * q) /
    (((((coef(ICDF_B, 0) * r + coef(ICDF_B, 1)) * r + coef(ICDF_B, 2)) * r + coef(ICDF_B, 3)) * r + coef(ICDF_B, 4)) * r + 1)
  );
}

// ---------------------------------------------------------------------------------------------
// Normalised Black call (Jäckel 2015): b(x, s) = B/sqrt(FK) with x = ln(F/K) <= 0 (out of the money)
// and s = σ√T. With h = x/s and t = s/2:  b = e^{x/2}Φ(h+t) − e^{−x/2}Φ(h−t),
// db/ds = φ(h+t)e^{x/2} = exp(−(h²+t²)/2)/√(2π),  d²b/ds² = db/ds · (h²−t²)/s,
// so the inflection point (the "critical" s) is s_c = √(2|x|), where h + t = 0.

/** ln(db/ds) at (h, t). */
function lnNormalisedVega(h: number, t: number): number {
  return -0.5 * (h * h + t * t) - LN_SQRT_2PI;
}

/**
 * For s <= s_c (h + t <= 0): b written with Cody's scaled erfc,
 * b = ½·exp(−(h²+t²)/2)·[erfcx(−(h+t)/√2) − erfcx(−(h−t)/√2)] (as in Jäckel 2015),
 * which never underflows: returns ln b.
 */
function lnOtmCallBelowCritical(h: number, t: number): number {
  const bracket = 0.5 * (erfcx(-(h + t) / SQRT2) - erfcx(-(h - t) / SQRT2));
  return Math.log(bracket) - 0.5 * (h * h + t * t);
}

/**
 * For s >= s_c (h + t >= 0): the distance to the upper bound,
 * g = e^{x/2} − b = e^{x/2}Φ(−h−t) + e^{−x/2}Φ(h−t)
 *   = ½·exp(−(h²+t²)/2)·[erfcx((h+t)/√2) + erfcx((t−h)/√2)], a sum of positive terms: returns ln g.
 */
function lnUpperGapAboveCritical(h: number, t: number): number {
  const bracket = 0.5 * (erfcx((h + t) / SQRT2) + erfcx((t - h) / SQRT2));
  return Math.log(bracket) - 0.5 * (h * h + t * t);
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

type Objective = (s: number) => { f: number; f1: number; f2: number };

/**
 * Safeguarded Halley iteration on a monotone objective, keeping a bracket [lo, hi] around the root
 * and bisecting (geometrically when the bracket spans decades) whenever a step leaves it. Stops when
 * the step is below 1e-14 relative, or when steps stop shrinking at a small size: Halley converges
 * cubically, so a step that is not much smaller than the previous one is rounding noise in f.
 */
function solveBracketed(objective: Objective, increasing: boolean, lo0: number, hi0: number, s0: number): number {
  let lo = lo0;
  let hi = hi0;
  let s = s0 > lo && s0 < hi ? s0 : Number.isFinite(hi) ? 0.5 * (lo + hi) : 2 * lo + 1;
  let previousStep = Infinity;
  for (let iter = 0; iter < 100; iter++) {
    const { f, f1, f2 } = objective(s);
    if (f === 0) return s;
    if (f < 0 === increasing) lo = Math.max(lo, s);
    else hi = Math.min(hi, s);
    let next = NaN;
    if (Number.isFinite(f) && Number.isFinite(f1) && f1 !== 0) {
      const newton = -f / f1;
      const halley = 1 + (0.5 * newton * f2) / f1;
      const step = Number.isFinite(halley) && halley > 0.5 ? newton / halley : newton;
      const size = Math.abs(step);
      const stalled = size <= 1e-9 * s && size >= 0.5 * previousStep;
      next = s + step;
      const inside = next > lo && next < hi;
      // A converged step may land on (or, by rounding, just past) the bracket end that s itself set.
      if (size <= 1e-14 * s || stalled) return inside ? next : s;
      previousStep = size;
    }
    if (!(next > lo && next < hi)) {
      if (!Number.isFinite(hi)) next = 2 * Math.max(s, lo);
      else if (lo > 0 && hi > 4 * lo) next = Math.sqrt(lo * hi);
      else next = 0.5 * (lo + hi);
      previousStep = Infinity;
    }
    if (hi - lo <= 4 * DBL_EPSILON * hi) return next;
    s = next;
  }
  return s;
}

/**
 * Solves b(x, s) = β for s, with x <= 0 (out-of-the-money call form). β is passed as ln β (deep
 * out-of-the-money prices may be below the smallest double once normalised) and as the gap to the
 * upper bound gap = e^{x/2} − β (accurate when β is near the bound).
 * Follows the branch structure of Jäckel (2015): the tangent at the inflection point s_c = √(2|x|)
 * splits (0, ∞) into four intervals; on the outer ones the objective is transformed so that it is
 * nearly linear (1/ln b on the low side, ln(e^{x/2} − b) on the high side), on the inner ones it is
 * b − β itself. Unlike Jäckel's rational-cubic initial guesses, starting points here are asymptotic
 * maps or the tangent, and convergence is guarded by a bracket instead of being proved.
 */
function normalisedVolatility(x: number, lnBeta: number, gap: number): number {
  const bMax = Math.exp(0.5 * x);
  const sc = Math.sqrt(-2 * x);
  let lnBc: number;
  let lnVegaC: number;
  if (sc > 0) {
    const hc = x / sc;
    const tc = 0.5 * sc;
    lnBc = lnOtmCallBelowCritical(hc, tc);
    lnVegaC = lnNormalisedVega(hc, tc);
  } else {
    lnBc = -Infinity;
    lnVegaC = -LN_SQRT_2PI;
  }
  const bc = Math.exp(lnBc);
  const vegaC = Math.exp(lnVegaC);

  if (lnBeta < lnBc) {
    // Low side, s < s_c: every evaluation uses the underflow-free erfcx form.
    const sl = sc - bc / vegaC;
    const lnBl = sl > 0 ? lnOtmCallBelowCritical(x / sl, 0.5 * sl) : -Infinity;
    if (lnBeta < lnBl) {
      // b ≈ (2π|x|/(3√3))·Φ(−|x|/(√3 s))³ for small s (Jäckel's lower-branch map); ln b ~ −x²/(2s²),
      // so 1/ln b is close to linear in s².
      const z = Math.exp((lnBeta + Math.log((3 * Math.sqrt(3)) / (2 * Math.PI * -x))) / 3);
      const guess = z < 0.5 ? -x / (Math.sqrt(3) * -approximateInverseNormCdf(z)) : 0.5 * sl;
      const invLnBeta = 1 / lnBeta;
      return solveBracketed(
        (s) => {
          const h = x / s;
          const t = 0.5 * s;
          const L = lnOtmCallBelowCritical(h, t);
          const v = Math.exp(lnNormalisedVega(h, t) - L); // (ln b)'
          const L2 = (v * (h * h - t * t)) / s - v * v; // (ln b)''
          return { f: 1 / L - invLnBeta, f1: -v / (L * L), f2: -L2 / (L * L) + (2 * v * v) / (L * L * L) };
        },
        false,
        0,
        sl,
        guess,
      );
    }
    const beta = Math.exp(lnBeta);
    return solveBracketed(
      (s) => {
        const h = x / s;
        const t = 0.5 * s;
        const b = Math.exp(lnOtmCallBelowCritical(h, t));
        const vega = Math.exp(lnNormalisedVega(h, t));
        return { f: b - beta, f1: vega, f2: (vega * (h * h - t * t)) / s };
      },
      true,
      Math.max(sl, 0),
      sc,
      sc + (beta - bc) / vegaC,
    );
  }

  // High side, s >= s_c.
  const su = sc + (bMax - bc) / vegaC;
  const lnGapU = lnUpperGapAboveCritical(x / su, 0.5 * su);
  if (Math.log(gap) > lnGapU) {
    const beta = Math.exp(lnBeta);
    return solveBracketed(
      (s) => {
        const h = x / s;
        const t = 0.5 * s;
        const b = otmCallAboveCritical(x, h, t);
        const vega = Math.exp(lnNormalisedVega(h, t));
        return { f: b - beta, f1: vega, f2: (vega * (h * h - t * t)) / s };
      },
      true,
      sc,
      su,
      sc + (beta - bc) / vegaC,
    );
  }
  // e^{x/2} − b ≈ (e^{x/2} + e^{−x/2})·Φ(−s/2) for large s; exact at x = 0.
  const lnGap = Math.log(gap);
  const guess = -2 * approximateInverseNormCdf(gap / (bMax + 1 / bMax));
  return solveBracketed(
    (s) => {
      const h = x / s;
      const t = 0.5 * s;
      const lnG = lnUpperGapAboveCritical(h, t);
      const w = Math.exp(lnNormalisedVega(h, t) - lnG); // vega / g
      return { f: lnG - lnGap, f1: -w, f2: (-w * (h * h - t * t)) / s - w * w };
    },
    false,
    su,
    Infinity,
    guess,
  );
}

/**
 * Black-Scholes-Merton implied volatility: the σ for which {@link bsmPrice} equals `price`.
 *
 * The price is moved to the forward measure and normalised (Jäckel 2015): x = ln(F/K),
 * β = price·e^{rT}/√(FK); an in-the-money option is replaced by the out-of-the-money option of the
 * other type via put-call parity, and puts by calls through b(x, s, put) = b(−x, s, call), so only
 * out-of-the-money calls are solved. The solver's own relative error in σ is about 2e-16/(σ√T)
 * (cancellation inside the normalised price: 2e-11 at σ√T = 1e-5, below 1e-14 from σ√T = 0.02),
 * on top of what the price itself pins down: an in-the-money price moves σ by ~ε·price/vega.
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
  if (!(price > 0) || !(time > 0) || !(spot > 0) || !(strike > 0)) return null;
  if (i.type !== 'call' && i.type !== 'put') return null;
  const sign = i.type === 'call' ? 1 : -1;
  const spotPv = spot * Math.exp(-q * time);
  const strikePv = strike * Math.exp(-rate * time);
  const upper = i.type === 'call' ? spotPv : strikePv;
  if (!(price < upper) || upper - price <= BOUND_TOLERANCE * upper) return null;
  const x = logForwardMoneyness(spot, strike, (rate - q) * time);
  let otmPrice = price;
  if (sign * x > 0) {
    const intrinsic = sign * (spotPv - strikePv);
    otmPrice = price - intrinsic;
    if (!(otmPrice > BOUND_TOLERANCE * intrinsic)) return null;
  }
  // β = otmPrice / (DF·√(FK)) with DF·√(FK) = √(S e^{−qT}·K e^{−rT}); kept in logs against underflow.
  const lnScale = 0.5 * (Math.log(spotPv) + Math.log(strikePv));
  const lnBeta = Math.log(otmPrice) - lnScale;
  const gap = (upper - price) / Math.exp(lnScale); // distance to the bound, normalised (parity-invariant)
  const xOtm = -Math.abs(x);
  if (!(lnBeta < 0.5 * xOtm) || !(gap > 0)) return null;
  const s = normalisedVolatility(xOtm, lnBeta, gap);
  const sigma = s / Math.sqrt(time);
  return Number.isFinite(sigma) && sigma > 0 ? sigma : null;
}
