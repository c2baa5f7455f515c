/**
 * Delta-space measures of a smile: at-the-money volatility, 25- and 10-delta risk reversals and
 * butterflies, normalized skew and slope.
 *
 * Conventions (the skew route's contract repeats them):
 * - Delta is the Black-Scholes-Merton spot delta with the dividend yield the forward implies,
 *   Δc = e^{−qT}Φ(d1), Δp = −e^{−qT}Φ(−d1), d1 = (−k + w/2)/√w, k = ln(K/F), w = σ(k)²T on the
 *   smile, e^{−qT} = F·e^{−rT}/S (Haug 2007, ch. 2): the delta bsmGreeks gives, and the one the skew
 *   points report. The 25-delta call is the strike where Δc = 0.25 on the smile, the 25-delta put the
 *   one where Δp = −0.25 (solved in k by bracketing and bisection, outward from the forward).
 * - At the money is the forward: k = 0, K = F.
 * - Risk reversal RR_x = σ(Δc = x) − σ(Δp = −x); butterfly BF_x = (σ(Δc = x) + σ(Δp = −x))/2 − σ_ATM
 *   (the market's "smile strangle" butterfly).
 * - Normalized skew = RR_25 / σ_ATM (the spec's definition).
 * - Slope = dσ/dk at k = 0: the slope of implied volatility against log-forward moneyness at the
 *   money, w′(0)/(2√(w(0)·T)) (for an interpolated smile, the mean of the two segments' slopes at 0).
 */
import { normCdf } from '../pricing.js';
import type { ExpirationMarket } from './quotes.js';
import { curveSlope, curveTotalVariance, type Smile } from './smile.js';

export interface DeltaStrike {
  /** Log-forward moneyness of the strike. */
  moneyness: number;
  strike: number;
  volatility: number;
}

/** Field names as the skew response's expiration element. */
export interface SmileMeasures {
  atm_implied_volatility: number | null;
  risk_reversal_25d: number | null;
  butterfly_25d: number | null;
  risk_reversal_10d: number | null;
  butterfly_10d: number | null;
  normalized_skew: number | null;
  slope: number | null;
}

/** Spot delta on the smile at moneyness k (module comment); NaN where w is not positive. */
export function smileDelta(smile: Smile, market: ExpirationMarket, type: 'call' | 'put', k: number): number {
  const w = curveTotalVariance(smile.curve, k);
  if (!(w > 0) || market.spot === null || !(market.spot > 0)) return NaN;
  const s = Math.sqrt(w);
  const d1 = -k / s + 0.5 * s;
  const dividendDiscount = (market.forward * Math.exp(-market.rate * market.time)) / market.spot;
  return type === 'call' ? dividendDiscount * normCdf(d1) : -dividendDiscount * normCdf(-d1);
}

/**
 * The strike whose delta on the smile is `delta` (0 < delta < e^{−qT} for a call, −e^{−qT} < delta < 0
 * for a put). Walks outward from the forward (upward for calls, downward for puts) in steps of a
 * quarter of the at-the-money standard deviation until the delta crosses the target, then bisects.
 * Null when no crossing is found within 12 standard deviations, or without a spot.
 */
export function strikeForDelta(smile: Smile, market: ExpirationMarket, delta: number): DeltaStrike | null {
  const type = delta > 0 ? 'call' : 'put';
  const direction = type === 'call' ? 1 : -1;
  const f = (k: number): number => smileDelta(smile, market, type, k) - delta;
  const atmW = curveTotalVariance(smile.curve, 0);
  if (!(atmW > 0) || !(market.time > 0)) return null;
  const step = 0.25 * Math.sqrt(atmW);
  // Δ falls in absolute value moving away from the forward on the out-of-the-money side.
  let inner = 0;
  if (!(f(inner) * direction > 0)) return null;
  let outer = NaN;
  for (let i = 1; i <= 48; i++) {
    const k = direction * i * step;
    const value = f(k);
    if (Number.isNaN(value)) return null;
    if (value * direction <= 0) {
      outer = k;
      break;
    }
    inner = k;
  }
  if (Number.isNaN(outer)) return null;
  for (let i = 0; i < 100 && Math.abs(outer - inner) > 1e-14 * Math.max(1, Math.abs(inner)); i++) {
    const mid = 0.5 * (inner + outer);
    if (f(mid) * direction > 0) inner = mid;
    else outer = mid;
  }
  const moneyness = 0.5 * (inner + outer);
  const w = curveTotalVariance(smile.curve, moneyness);
  return { moneyness, strike: market.forward * Math.exp(moneyness), volatility: Math.sqrt(w / market.time) };
}

/** σ at k = 0. */
export function atmVolatility(smile: Smile): number | null {
  const w = curveTotalVariance(smile.curve, 0);
  return w > 0 && smile.time > 0 ? Math.sqrt(w / smile.time) : null;
}

/** dσ/dk at k = 0 (module comment). */
export function atmSlope(smile: Smile): number | null {
  const w = curveTotalVariance(smile.curve, 0);
  if (!(w > 0) || !(smile.time > 0)) return null;
  return curveSlope(smile.curve, 0) / (2 * Math.sqrt(w * smile.time));
}

function riskReversalAndButterfly(
  smile: Smile,
  market: ExpirationMarket,
  delta: number,
  atm: number | null,
): [number | null, number | null] {
  const call = strikeForDelta(smile, market, delta);
  const put = strikeForDelta(smile, market, -delta);
  if (call === null || put === null) return [null, null];
  const rr = call.volatility - put.volatility;
  return [rr, atm === null ? null : 0.5 * (call.volatility + put.volatility) - atm];
}

/**
 * Every measure of the module comment; null where a strike or the at-the-money volatility cannot be
 * found (without a spot, the delta-based ones are null and the at-the-money volatility and slope remain).
 */
export function smileMeasures(smile: Smile, market: ExpirationMarket): SmileMeasures {
  const atm = atmVolatility(smile);
  const [rr25, bf25] = riskReversalAndButterfly(smile, market, 0.25, atm);
  const [rr10, bf10] = riskReversalAndButterfly(smile, market, 0.1, atm);
  return {
    atm_implied_volatility: atm,
    risk_reversal_25d: rr25,
    butterfly_25d: bf25,
    risk_reversal_10d: rr10,
    butterfly_10d: bf10,
    normalized_skew: rr25 !== null && atm !== null && atm > 0 ? rr25 / atm : null,
    slope: atmSlope(smile),
  };
}
