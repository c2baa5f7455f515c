/**
 * Implied volatility of European options: the price of a call or put inverted for σ on the
 * normalised Black price of pricing.ts.
 *
 * Sources:
 * - The solver's four branches around the normalised price's inflection point, their
 *   rational-cubic initial guesses, objective functions and order-3 Householder steps:
 *   P. Jäckel, "Let's Be Rational", Wilmott (2015) 40-53. The code is this module's own.
 * - Rational cubic interpolation and its shape-preserving control parameter: R. Delbourgo and
 *   J. A. Gregory, "Shape preserving piecewise rational interpolation", SIAM J. Sci. Stat. Comput. 6
 *   (1985) 967-976.
 *
 * All functions are pure: no I/O, no clock.
 */
import {
  approximateInverseNormCdf,
  DBL_EPSILON,
  erfcx,
  INV_SQRT_2PI,
  LN_SQRT_2PI,
  logForwardMoneyness,
  normCdf,
  normPdf,
  otmCallAboveCritical,
  otmCallBracket,
  SQRT2,
  SQRT_2PI,
  upperGapBracket,
  type OptionType,
} from './pricing.js';

export interface ImpliedVolatilityInput {
  type: OptionType;
  price: number;
  spot: number;
  strike: number;
  time: number;
  rate: number;
  dividendYield: number;
}

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
  return (
    (yr * t2 * t + (control * yr - w * dr) * t2 * omt + (control * yl + w * dl) * t * omt2 + yl * omt2 * omt) /
    (1 + (control - 3) * t * omt)
  );
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
function fittedControl(
  w: number,
  yl: number,
  yr: number,
  dl: number,
  dr: number,
  second: number,
  atLeft: boolean,
  preserveShape: boolean,
): number {
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
  return lnBeta < lnBc ? belowInflection(x, lnBeta, sc, halfGapC, bc, vc) : aboveInflection(x, lnBeta, gap, bMax, sc, halfGapC, bc, vc);
}

/**
 * normalisedVolatility's branches 1 and 2 (β < b_c): s_l and b_l, the branch's guess, then its
 * Householder steps. `sc`, `halfGapC`, `bc` and `vc` are s_c, b_c/e^{x/2}, b_c and b'(s_c).
 */
function belowInflection(x: number, lnBeta: number, sc: number, halfGapC: number, bc: number, vc: number): number {
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
    const zGuess =
      f > 1e-280 ? approximateInverseNormCdf(Math.cbrt(f / scale)) : inverseNormCdfOfLog((lnBeta + LN_LOWER_MAP - Math.log(-x)) / 3);
    return householder(1, x, lnBeta, NaN, (INV_SQRT3 * x) / zGuess, 0, sl);
  }
  const beta = Math.exp(lnBeta);
  const w = bc - bl;
  const control = fittedControl(w, sl, sc, 1 / vl, 1 / vc, 0, false, false);
  const t = (beta - bl) / w;
  return householder(2, x, lnBeta, NaN, rationalCubic(t, 1 - t, w, sl, sc, 1 / vl, 1 / vc, control), Math.max(sl, 0), sc);
}

/**
 * normalisedVolatility's branches 3 and 4 (β ≥ b_c), in terms of the gap to the upper bound:
 * s_u and b_u, the branch's guess, then its Householder steps. `bMax` is e^{x/2}; the others as
 * in belowInflection.
 */
function aboveInflection(
  x: number,
  lnBeta: number,
  gap: number,
  bMax: number,
  sc: number,
  halfGapC: number,
  bc: number,
  vc: number,
): number {
  const lnGap = Math.log(gap);
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
    const w = bMax - gapU - bc; // b_u − b_c
    const control = fittedControl(w, sc, su, 1 / vc, 1 / vu, 0, true, false);
    const omt = (gap - gapU) / w; // (b_u − β)/(b_u − b_c)
    return householder(3, x, lnBeta, lnGap, rationalCubic(1 - omt, omt, w, sc, su, 1 / vc, 1 / vu, control), sc, su);
  }
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
  return householder(4, x, lnBeta, lnGap, -2 * approximateInverseNormCdf(f), su, Infinity);
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
  if (!(
    Number.isFinite(price) &&
    Number.isFinite(spot) &&
    Number.isFinite(strike) &&
    Number.isFinite(time) &&
    Number.isFinite(rate) &&
    Number.isFinite(q)
  ))
    return null;
  if (!(spot > 0) || !(strike > 0) || !(time > 0)) return null;
  if (i.type !== 'call' && i.type !== 'put') return null;
  return solveDiscounted(
    i.type === 'call',
    price,
    spot * Math.exp(-q * time),
    strike * Math.exp(-rate * time),
    logForwardMoneyness(spot, strike, (rate - q) * time),
    time,
  );
}

/**
 * Black-76 implied volatility of an option on a forward F settling in `time` years, both legs
 * discounted by `discount` = e^{−rT}: the same σ, to the last bit, as {@link impliedVolatility} with
 * spot = F and dividendYield = r (when discount is that call's e^{−rT}), without its argument object
 * or exponentials, for callers solving a whole chain of one expiration. Null in the same cases.
 */
export function blackImpliedVolatility(
  type: OptionType,
  price: number,
  forward: number,
  strike: number,
  time: number,
  discount: number,
): number | null {
  if (!(
    Number.isFinite(price) &&
    Number.isFinite(forward) &&
    Number.isFinite(strike) &&
    Number.isFinite(time) &&
    Number.isFinite(discount)
  ))
    return null;
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
