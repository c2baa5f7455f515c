/**
 * 30-day constant-maturity implied volatility by variance-time interpolation between the two
 * expirations that bracket 30 calendar days, as the VIX Index does (Cboe, "VIX Index Methodology",
 * step "calculate the 30-day weighted average"):
 *
 *   σ30² = [T1σ1²·(N_T2 − N_30)/(N_T2 − N_T1) + T2σ2²·(N_30 − N_T1)/(N_T2 − N_T1)] × N_365/N_30,
 *
 * N the minutes to settlement (N_30 = 43,200, N_365 = 525,600) and T = N/N_365 years. Cboe feeds it
 * the model-free variance of each term; here σ1, σ2 are the at-the-money volatilities of the two
 * smiles (the drift route's 30-day figure), any volatility on the same ACT/365 clock works.
 */

export const MINUTES_PER_YEAR = 525_600;
export const MINUTES_PER_30_DAYS = 43_200;

export interface TermVolatility {
  /** Years to settlement (ACT/365, = minutes / 525,600). */
  time: number;
  /** Annualised volatility of the term. */
  volatility: number;
}

/**
 * The interpolated volatility at `targetTime` years (default 30 days). Requires T1 < target ≤ T2
 * (the bracket Cboe uses: near term under 30 days, next term at or over); null otherwise, or for
 * non-finite or negative inputs. No extrapolation.
 */
export function constantMaturityVolatility(
  near: TermVolatility,
  next: TermVolatility,
  targetTime: number = MINUTES_PER_30_DAYS / MINUTES_PER_YEAR,
): number | null {
  const { time: t1, volatility: s1 } = near;
  const { time: t2, volatility: s2 } = next;
  if (![t1, t2, s1, s2, targetTime].every(Number.isFinite) || s1 < 0 || s2 < 0) return null;
  if (!(t1 > 0 && t1 < targetTime && targetTime <= t2)) return null;
  const weightNear = (t2 - targetTime) / (t2 - t1);
  const weightNext = (targetTime - t1) / (t2 - t1);
  // × N_365/N_30 is ÷ T_30 in years.
  const variance = (t1 * s1 * s1 * weightNear + t2 * s2 * s2 * weightNext) / targetTime;
  return Math.sqrt(variance);
}

/**
 * The pair of terms that brackets the target as the formula needs (the latest expiration before it
 * and the first at or after it), from terms in any order; null when the target is not bracketed.
 */
export function bracketingTerms<T extends { time: number }>(
  terms: readonly T[],
  targetTime: number = MINUTES_PER_30_DAYS / MINUTES_PER_YEAR,
): [T, T] | null {
  let near: T | null = null;
  let next: T | null = null;
  for (const t of terms) {
    if (t.time > 0 && t.time < targetTime && (near === null || t.time > near.time)) near = t;
    if (t.time >= targetTime && (next === null || t.time < next.time)) next = t;
  }
  return near !== null && next !== null ? [near, next] : null;
}
