import { describe, expect, it } from 'vitest';
import { uniformNoise } from './chain.fixtures.js';
import { calibrateSvi, type VariancePoint } from './svi-calibration.js';
import {
  moneynessGrid,
  sviButterflyCheck,
  sviDensityFactor,
  sviDerivatives,
  sviParametersValid,
  sviTotalVariance,
  type SviParameters,
} from './svi.js';

/** Gatheral & Jacquier (2014): their arbitrageable example, parameters due to Axel Vogt, T = 1. */
const VOGT: SviParameters = { a: -0.041, b: 0.1331, rho: 0.306, m: 0.3586, sigma: 0.4153 };
/** A typical equity-index smile (negative skew), free of arbitrage. */
const INDEX: SviParameters = { a: 0.01, b: 0.1, rho: -0.6, m: 0.02, sigma: 0.15 };

describe('raw SVI', () => {
  it('evaluates w(k) = a + b(ρ(k − m) + √((k − m)² + σ²)) and its derivatives', () => {
    expect(sviTotalVariance(INDEX, 0.02)).toBeCloseTo(0.01 + 0.1 * 0.15, 15);
    const h = 1e-5;
    for (const k of [-0.5, -0.1, 0, 0.3]) {
      const { w, w1, w2 } = sviDerivatives(INDEX, k);
      expect(w).toBe(sviTotalVariance(INDEX, k));
      expect(w1).toBeCloseTo((sviTotalVariance(INDEX, k + h) - sviTotalVariance(INDEX, k - h)) / (2 * h), 8);
      expect(w2).toBeCloseTo((sviTotalVariance(INDEX, k + h) - 2 * w + sviTotalVariance(INDEX, k - h)) / (h * h), 4);
    }
  });

  it('admits b ≥ 0, |ρ| < 1, σ > 0 and a non-negative minimum variance only', () => {
    expect(sviParametersValid(INDEX)).toBe(true);
    expect(sviParametersValid(VOGT)).toBe(true); // a < 0 but a + bσ√(1 − ρ²) = 0.0116 > 0
    expect(sviParametersValid({ ...INDEX, b: -0.01 })).toBe(false);
    expect(sviParametersValid({ ...INDEX, rho: 1 })).toBe(false);
    expect(sviParametersValid({ ...INDEX, sigma: 0 })).toBe(false);
    expect(sviParametersValid({ ...INDEX, a: -0.02 })).toBe(false); // −0.02 + 0.1·0.15·0.8 < 0
  });
});

describe('Gatheral–Jacquier butterfly check', () => {
  it("fails Vogt's parameters (Gatheral & Jacquier 2014): g(k) < 0 in the right wing, lowest near k ≈ 0.9", () => {
    const check = sviButterflyCheck(VOGT, moneynessGrid(-1.5, 1.5, 301));
    expect(check.ok).toBe(false);
    expect(check.minDensityFactor).toBeLessThan(-0.03);
    expect(check.atMoneyness).toBeGreaterThan(0.7);
    expect(check.atMoneyness).toBeLessThan(1.1);
    expect(sviDensityFactor(VOGT, 0.9)).toBeLessThan(0);
    // The arbitrage lives in the wing only: the same smile passes on the near-the-money range.
    expect(sviButterflyCheck(VOGT, moneynessGrid(-1.5, 0.5, 201)).ok).toBe(true);
  });

  it('passes an index smile and a flat smile (g = 1 when w is constant)', () => {
    expect(sviButterflyCheck(INDEX, moneynessGrid(-2, 2, 401)).ok).toBe(true);
    const flat: SviParameters = { a: 0.04, b: 0, rho: 0, m: 0, sigma: 0.1 };
    expect(sviDensityFactor(flat, 0.7)).toBeCloseTo(1, 15);
  });
});

function pointsOf(p: SviParameters, ks: readonly number[], noise?: (k: number) => number): VariancePoint[] {
  return ks.map((k) => ({ k, w: sviTotalVariance(p, k) * (1 + (noise?.(k) ?? 0)), weight: 1 }));
}

function expectParameters(got: SviParameters, want: SviParameters, tolerance: number): void {
  for (const key of ['a', 'b', 'rho', 'm', 'sigma'] as const) expect(Math.abs(got[key] - want[key]), key).toBeLessThan(tolerance);
}

describe('calibrateSvi (quasi-explicit)', () => {
  const ks = moneynessGrid(-0.4, 0.3, 25);

  it('recovers the parameters of a noise-free smile', () => {
    for (const p of [
      INDEX,
      { a: -0.02, b: 0.3, rho: -0.4, m: 0.05, sigma: 0.12 },
      { a: 0.002, b: 0.02, rho: 0.2, m: -0.01, sigma: 0.03 },
    ]) {
      const fit = calibrateSvi(pointsOf(p, ks));
      expect(fit).not.toBeNull();
      expectParameters(fit!.parameters, p, 2e-5);
    }
  });

  it("recovers Vogt's parameters from their own smile (the fit does not hide arbitrage; the check catches it)", () => {
    const fit = calibrateSvi(pointsOf(VOGT, moneynessGrid(-1, 1.5, 41)));
    expectParameters(fit!.parameters, VOGT, 1e-4);
  });

  it('fits a noisy smile to within the noise and keeps the parameters near the truth', () => {
    const u = uniformNoise(17);
    const noise = ks.map(() => 0.01 * u()); // ±1 % of total variance, ±0.5 % of volatility
    const points = pointsOf(INDEX, ks, (k) => noise[ks.indexOf(k)]!);
    const fit = calibrateSvi(points)!;
    for (const k of ks) {
      const relative = Math.abs(sviTotalVariance(fit.parameters, k) / sviTotalVariance(INDEX, k) - 1);
      expect(relative, `k=${k}`).toBeLessThan(0.01);
    }
    expect(Math.abs(fit.parameters.rho - INDEX.rho)).toBeLessThan(0.1);
    expect(Math.abs(fit.parameters.m - INDEX.m)).toBeLessThan(0.05);
  });

  it("keeps the wings within Lee's bound b(1 + |ρ|) ≤ 2 when the data are steeper", () => {
    const steep = moneynessGrid(-0.5, 0.5, 21).map((k) => ({ k, w: 0.01 + 3 * Math.abs(k), weight: 1 }));
    const p = calibrateSvi(steep)!.parameters;
    expect(p.b * (1 + Math.abs(p.rho))).toBeLessThanOrEqual(2 + 1e-9);
    expect(sviParametersValid(p)).toBe(true);
  });

  it('keeps the minimum total variance non-negative when the data would pull it below zero', () => {
    // A smile whose SVI has a + bσ√(1 − ρ²) = −0.02: sampled only where w > 0, the unconstrained
    // quasi-explicit optimum would be that smile; the constrained fit sits on the boundary.
    const below: SviParameters = { a: -0.12, b: 0.5, rho: 0, m: 0, sigma: 0.2 };
    const points = moneynessGrid(-0.8, 0.8, 33)
      .map((k) => ({ k, w: sviTotalVariance(below, k), weight: 1 }))
      .filter((p) => p.w > 0.005);
    const p = calibrateSvi(points)!.parameters;
    expect(p.a + p.b * p.sigma * Math.sqrt(1 - p.rho * p.rho)).toBeGreaterThanOrEqual(-1e-12);
    expect(sviParametersValid(p)).toBe(true);
  });

  it('does not depend on the scale of the weights (spread weights of a one-day expiration reach 1e11)', () => {
    // A nearly flat one-day smile, w ≈ 1.3e-5: weights of 1e11 once made every KKT system look singular.
    const ks5 = [-0.0053, -0.0028, -0.0003, 0.0022, 0.0047];
    const ws = [1.2885e-5, 1.3367e-5, 1.269e-5, 1.3032e-5, 1.2409e-5];
    const weights = [3.1, 10.4, 9.9, 11.4, 4.4];
    const fit = (scale: number) => calibrateSvi(ks5.map((k, i) => ({ k, w: ws[i]!, weight: scale * weights[i]! })));
    const small = fit(1);
    const large = fit(1e10);
    expect(small).not.toBeNull();
    expect(large).not.toBeNull();
    for (const k of ks5) expect(sviTotalVariance(large!.parameters, k)).toBeCloseTo(sviTotalVariance(small!.parameters, k), 12);
  });

  it('is null with fewer than three usable points', () => {
    expect(
      calibrateSvi([
        { k: 0, w: 0.01, weight: 1 },
        { k: 0.1, w: 0.012, weight: 1 },
      ]),
    ).toBeNull();
    expect(calibrateSvi([...pointsOf(INDEX, [0, 0.1]), { k: 0.2, w: Number.NaN, weight: 1 }])).toBeNull();
  });
});
