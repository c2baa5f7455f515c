/**
 * Raw SVI total-variance smiles and their no-arbitrage checks.
 *
 * Sources:
 * - Raw SVI: J. Gatheral, "A parsimonious arbitrage-free implied volatility parameterization with
 *   application to the valuation of volatility derivatives", Global Derivatives & Risk Management,
 *   Madrid (2004): w(k) = a + b(ρ(k − m) + √((k − m)² + σ²)), k = ln(K/F), w = σ_BS²·T.
 * - Butterfly arbitrage: J. Gatheral and A. Jacquier, "Arbitrage-free SVI volatility surfaces",
 *   Quantitative Finance 14(1) (2014) 59-71, §2: a smile is free of butterfly arbitrage iff the
 *   density g(k) = (1 − k w′/(2w))² − (w′²/4)(1/w + 1/4) + w″/2 is non-negative (and d₊ → −∞).
 *   Their example of an arbitrageable smile, with parameters due to Axel Vogt (a = −0.041,
 *   b = 0.1331, ρ = 0.306, m = 0.3586, σ = 0.4153, T = 1), has g < 0 for k between about 0.65 and
 *   1.25 (the tests use it).
 * - Calendar arbitrage: ibid. §2, total variance non-decreasing in T at fixed k (surface.ts).
 * - Wing slopes: R. W. Lee, "The moment formula for implied volatility at extreme strikes",
 *   Mathematical Finance 14(3) (2004) 469-480: w(k)/|k| ≤ 2 for large |k|, i.e. b(1 + |ρ|) ≤ 2.
 */

export interface SviParameters {
  a: number;
  b: number;
  rho: number;
  m: number;
  sigma: number;
}

/** w(k) for raw SVI. */
export function sviTotalVariance(p: SviParameters, k: number): number {
  const x = k - p.m;
  return p.a + p.b * (p.rho * x + Math.sqrt(x * x + p.sigma * p.sigma));
}

/** w, w′ = dw/dk and w″ = d²w/dk² at k. */
export function sviDerivatives(p: SviParameters, k: number): { w: number; w1: number; w2: number } {
  const x = k - p.m;
  const r = Math.sqrt(x * x + p.sigma * p.sigma);
  return {
    w: p.a + p.b * (p.rho * x + r),
    w1: p.b * (p.rho + x / r),
    w2: (p.b * p.sigma * p.sigma) / (r * r * r),
  };
}

/**
 * Gatheral–Jacquier density function g(k) of a smile given w, w′, w″ at k; negative means butterfly
 * arbitrage (a negative risk-neutral density) at that moneyness.
 */
export function densityFactor(k: number, w: number, w1: number, w2: number): number {
  const first = 1 - (k * w1) / (2 * w);
  return first * first - ((w1 * w1) / 4) * (1 / w + 0.25) + w2 / 2;
}

/** g(k) of a raw SVI smile. */
export function sviDensityFactor(p: SviParameters, k: number): number {
  const { w, w1, w2 } = sviDerivatives(p, k);
  return densityFactor(k, w, w1, w2);
}

/** Whether the raw SVI parameters are admissible: b ≥ 0, |ρ| < 1, σ > 0, a + bσ√(1 − ρ²) ≥ 0 (minimum total variance not negative). */
export function sviParametersValid(p: SviParameters): boolean {
  const finite = [p.a, p.b, p.rho, p.m, p.sigma].every(Number.isFinite);
  return finite && p.b >= 0 && Math.abs(p.rho) < 1 && p.sigma > 0 && p.a + p.b * p.sigma * Math.sqrt(1 - p.rho * p.rho) >= 0;
}

/** An evenly spaced grid of `count` points on [from, to] (count ≥ 2). */
export function moneynessGrid(from: number, to: number, count: number): number[] {
  const n = Math.max(2, Math.floor(count));
  return Array.from({ length: n }, (_, i) => from + ((to - from) * i) / (n - 1));
}

export interface ButterflyCheck {
  ok: boolean;
  /** Smallest g(k) on the grid. */
  minDensityFactor: number;
  /** Where that smallest value is. */
  atMoneyness: number;
}

/**
 * Gatheral–Jacquier butterfly check of an SVI smile on a moneyness grid: ok when the parameters are
 * admissible, w > 0 and g(k) ≥ 0 at every grid point.
 */
export function sviButterflyCheck(p: SviParameters, grid: readonly number[]): ButterflyCheck {
  let minDensityFactor = Infinity;
  let atMoneyness = NaN;
  let positive = true;
  for (const k of grid) {
    const { w, w1, w2 } = sviDerivatives(p, k);
    if (!(w > 0)) positive = false;
    const g = densityFactor(k, w, w1, w2);
    if (!Number.isFinite(g)) {
      positive = false;
      continue;
    }
    if (g < minDensityFactor) {
      minDensityFactor = g;
      atMoneyness = k;
    }
  }
  return { ok: positive && sviParametersValid(p) && minDensityFactor >= 0, minDensityFactor, atMoneyness };
}
