/**
 * Quasi-explicit calibration of a raw SVI smile to total implied variances.
 *
 * Source: S. De Marco and C. Martini (Zeliade Systems), "Quasi-explicit calibration of Gatheral's SVI
 * model", Zeliade white paper (2009). With y = (k − m)/σ the raw SVI smile is linear in
 * (a, d, c) = (a, ρbσ, bσ): w = a + d·y + c·√(y² + 1). For fixed (m, σ) the weighted least-squares
 * problem in (a, d, c) is a small convex quadratic programme; the outer problem in (m, σ) is
 * two-dimensional, searched from a coarse grid by Nelder–Mead (J. A. Nelder and R. Mead, "A simplex
 * method for function minimization", The Computer Journal 7 (1965) 308-313) in (m, ln σ).
 *
 * Inner constraints: |d| ≤ c (|ρ| ≤ 1, with a 1e-6 margin so that |ρ| < 1), c + |d| ≤ 2σ
 * (Lee's moment bound b(1 + |ρ|) ≤ 2, svi.ts), and a + √(c² − d²) ≥ 0 (minimum total variance
 * a + bσ√(1 − ρ²) not negative). The linear ones are handled exactly by enumerating active sets
 * (the optimum of a convex QP is the best feasible stationary point of some face); when that optimum
 * breaks the minimum-variance constraint, the constrained optimum lies on its boundary, where
 * a = −bσ√(1 − ρ²) leaves a one-dimensional problem in ρ (b then closed-form), solved by a grid and
 * golden-section refinement.
 */
import type { SviParameters } from './svi.js';

/** A total variance w at log-forward moneyness k, with its least-squares weight. */
export interface VariancePoint {
  k: number;
  w: number;
  weight: number;
}

export interface SviCalibration {
  parameters: SviParameters;
  /** Weighted sum of squared total-variance errors at the optimum, the weights scaled to sum to one. */
  objective: number;
}

const RHO_MARGIN = 1e-6;
/** Lee's bound on the wing slopes of total variance. */
const MAX_WING_SLOPE = 2;

/** Weighted sums of the regressors (1, y, z) and the target w for one (m, σ). */
interface Moments {
  s11: number;
  s1y: number;
  s1z: number;
  syy: number;
  syz: number;
  szz: number;
  s1w: number;
  syw: number;
  szw: number;
  sww: number;
}

/** The points as columns, read by every evaluation of the objective (moments). */
interface PointColumns {
  k: Float64Array;
  w: Float64Array;
  weight: Float64Array;
}

function columnsOf(points: readonly VariancePoint[]): PointColumns {
  return {
    k: Float64Array.from(points, (p) => p.k),
    w: Float64Array.from(points, (p) => p.w),
    weight: Float64Array.from(points, (p) => p.weight),
  };
}

function moments(points: PointColumns, m: number, sigma: number): Moments {
  // Local sums in the same order as the fields they become: the same arithmetic as a loop over
  // the points adding into an object, without its property writes.
  let s11 = 0;
  let s1y = 0;
  let s1z = 0;
  let syy = 0;
  let syz = 0;
  let szz = 0;
  let s1w = 0;
  let syw = 0;
  let szw = 0;
  let sww = 0;
  const { k, w, weight } = points;
  for (let i = 0; i < k.length; i++) {
    const y = ((k[i] as number) - m) / sigma;
    const z = Math.sqrt(y * y + 1);
    const W = weight[i] as number;
    const pw = w[i] as number;
    s11 += W;
    s1y += W * y;
    s1z += W * z;
    syy += W * y * y;
    syz += W * y * z;
    szz += W * z * z;
    s1w += W * pw;
    syw += W * y * pw;
    szw += W * z * pw;
    sww += W * pw * pw;
  }
  return { s11, s1y, s1z, syy, syz, szz, s1w, syw, szw, sww };
}

/** Solves A x = b in place by Gaussian elimination with partial pivoting; null when (nearly) singular. */
function solveLinear(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  let scale = -Infinity;
  for (const row of A) for (const v of row) scale = Math.max(scale, Math.abs(v));
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(A[r]![col]!) > Math.abs(A[pivot]![col]!)) pivot = r;
    if (!(Math.abs(A[pivot]![col]!) > 1e-13 * scale)) return null;
    [A[col], A[pivot]] = [A[pivot]!, A[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = A[r]![col]! / A[col]![col]!;
      if (f === 0) continue;
      for (let c = col; c < n; c++) A[r]![c]! -= f * A[col]![c]!;
      b[r]! -= f * b[col]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let c = r + 1; c < n; c++) s -= A[r]![c]! * x[c]!;
    x[r] = s / A[r]![r]!;
  }
  return x;
}

interface Inner {
  a: number;
  d: number;
  c: number;
  objective: number;
}

/** Active-set subsets of the four linear constraints with at most three members. */
const SUBSETS: readonly (readonly number[])[] = (() => {
  const out: number[][] = [];
  for (let mask = 0; mask < 16; mask++) {
    const s = [0, 1, 2, 3].filter((i) => (mask >> i) & 1);
    if (s.length <= 3) out.push(s);
  }
  return out;
})();

function objectiveOf(t: Moments, a: number, d: number, c: number): number {
  // Σ W (a + d y + c z − w)², expanded on the moments.
  return (
    a * a * t.s11 +
    d * d * t.syy +
    c * c * t.szz +
    2 * a * d * t.s1y +
    2 * a * c * t.s1z +
    2 * d * c * t.syz -
    2 * (a * t.s1w + d * t.syw + c * t.szw) +
    t.sww
  );
}

/** Rows of G x ≤ h over x = (a, d, c): |d| ≤ c with the margin, c ± d ≤ 2σ (h, per σ). */
const CONSTRAINT_ROWS: readonly (readonly number[])[] = [
  [0, 1, -(1 - RHO_MARGIN)],
  [0, -1, -(1 - RHO_MARGIN)],
  [0, 1, 1],
  [0, -1, 1],
];

/** The (a, d, c) problem for fixed (m, σ) under all constraints (module comment). */
function solveInner(t: Moments, sigma: number): Inner | null {
  const H = [
    [t.s11, t.s1y, t.s1z],
    [t.s1y, t.syy, t.syz],
    [t.s1z, t.syz, t.szz],
  ];
  const g = [t.s1w, t.syw, t.szw];
  const G = CONSTRAINT_ROWS;
  const h = [0, 0, MAX_WING_SLOPE * sigma, MAX_WING_SLOPE * sigma];
  const feasible = (d: number, c: number): boolean => {
    const tol = 1e-12 * Math.max(sigma, Math.abs(c), Math.abs(d));
    return G.every((row, i) => row[1]! * d + row[2]! * c <= h[i]! + tol);
  };
  const minimumVarianceOk = (r: Inner): boolean => r.a + Math.sqrt(Math.max(r.c * r.c - r.d * r.d, 0)) >= 0;
  // Most (m, σ) have an interior optimum: the unconstrained normal equations, without enumeration.
  const free = solveLinear(
    [
      [t.s11, t.s1y, t.s1z],
      [t.s1y, t.syy, t.syz],
      [t.s1z, t.syz, t.szz],
    ],
    [t.s1w, t.syw, t.szw],
  );
  if (free !== null && feasible(free[1]!, free[2]!)) {
    const [a, d, c] = free as [number, number, number];
    const r = { a, d, c, objective: objectiveOf(t, a, d, c) };
    return minimumVarianceOk(r) ? r : solveOnMinimumVarianceBoundary(t, sigma);
  }
  let best: Inner | null = null;
  for (const active of SUBSETS) {
    const n = 3 + active.length;
    const A: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    const rhs = new Array<number>(n).fill(0);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) A[i]![j] = H[i]![j]!;
      rhs[i] = g[i]!;
    }
    active.forEach((row, r) => {
      for (let j = 0; j < 3; j++) {
        A[3 + r]![j] = G[row]![j]!;
        A[j]![3 + r] = G[row]![j]!;
      }
      rhs[3 + r] = h[row]!;
    });
    const x = solveLinear(A, rhs);
    if (x === null) continue;
    const [a, d, c] = x as [number, number, number];
    if (!feasible(d, c)) continue;
    const objective = objectiveOf(t, a, d, c);
    if (best === null || objective < best.objective) best = { a, d, c, objective };
  }
  if (best === null) return null;
  return minimumVarianceOk(best) ? best : solveOnMinimumVarianceBoundary(t, sigma);
}

/**
 * The inner problem on a = −bσ√(1 − ρ²): w_i = β·u_i(ρ) with β = bσ and
 * u_i = ρy_i + z_i − √(1 − ρ²); for each ρ the best β ∈ [0, 2σ/(1 + |ρ|)] is closed-form.
 */
function solveOnMinimumVarianceBoundary(t: Moments, sigma: number): Inner {
  const at = (rho: number): Inner => {
    const q = Math.sqrt(1 - rho * rho);
    const uw = rho * t.syw + t.szw - q * t.s1w;
    const uu = rho * rho * t.syy + t.szz + q * q * t.s11 + 2 * rho * t.syz - 2 * rho * q * t.s1y - 2 * q * t.s1z;
    const beta = uu > 0 ? Math.min(Math.max(uw / uu, 0), (MAX_WING_SLOPE * sigma) / (1 + Math.abs(rho))) : 0;
    return { a: -beta * q, d: rho * beta, c: beta, objective: t.sww - 2 * beta * uw + beta * beta * uu };
  };
  const lim = 1 - RHO_MARGIN;
  const steps = 40;
  let bestI = 0;
  let best = at(-lim);
  for (let i = 1; i <= steps; i++) {
    const r = at(-lim + (2 * lim * i) / steps);
    if (r.objective < best.objective) {
      best = r;
      bestI = i;
    }
  }
  // Golden-section search on the grid cell pair around the best grid point.
  let lo = -lim + (2 * lim * Math.max(bestI - 1, 0)) / steps;
  let hi = -lim + (2 * lim * Math.min(bestI + 1, steps)) / steps;
  const phi = (Math.sqrt(5) - 1) / 2;
  let x1 = hi - phi * (hi - lo);
  let x2 = lo + phi * (hi - lo);
  let f1 = at(x1);
  let f2 = at(x2);
  for (let i = 0; i < 60; i++) {
    if (f1.objective < f2.objective) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - phi * (hi - lo);
      f1 = at(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + phi * (hi - lo);
      f2 = at(x2);
    }
  }
  for (const r of [f1, f2]) if (r.objective < best.objective) best = r;
  return best;
}

type Objective2 = (x: readonly [number, number]) => number;

/** Nelder–Mead (1965) on two variables with the standard coefficients (1, 2, ½, ½). */
function nelderMead(
  f: Objective2,
  start: readonly [number, number],
  step: readonly [number, number],
  scale: number,
): { x: [number, number]; value: number } {
  let simplex: { x: [number, number]; value: number }[] = [
    [start[0], start[1]],
    [start[0] + step[0], start[1]],
    [start[0], start[1] + step[1]],
  ].map((x) => ({ x: x as [number, number], value: f(x as [number, number]) }));
  for (let iter = 0; iter < 600; iter++) {
    simplex.sort((p, q) => p.value - q.value);
    const [best, mid, worst] = simplex as [(typeof simplex)[0], (typeof simplex)[0], (typeof simplex)[0]];
    const size = Math.max(
      Math.abs(worst.x[0] - best.x[0]),
      Math.abs(worst.x[1] - best.x[1]),
      Math.abs(mid.x[0] - best.x[0]),
      Math.abs(mid.x[1] - best.x[1]),
    );
    // Converged when the values agree to 1e-10 of the best (1e-15 of the data's scale near a perfect
    // fit), or the simplex is below 1e-8 across.
    if (worst.value - best.value <= 1e-10 * best.value + 1e-15 * scale || size < 1e-8) break;
    const c: [number, number] = [(best.x[0] + mid.x[0]) / 2, (best.x[1] + mid.x[1]) / 2];
    const along = (t: number): [number, number] => [c[0] + t * (worst.x[0] - c[0]), c[1] + t * (worst.x[1] - c[1])];
    const rx = along(-1);
    const rv = f(rx);
    if (rv < best.value) {
      const ex = along(-2);
      const ev = f(ex);
      simplex = [best, mid, ev < rv ? { x: ex, value: ev } : { x: rx, value: rv }];
    } else if (rv < mid.value) {
      simplex = [best, mid, { x: rx, value: rv }];
    } else {
      const cx = rv < worst.value ? along(-0.5) : along(0.5);
      const cv = f(cx);
      if (cv < Math.min(rv, worst.value)) simplex = [best, mid, { x: cx, value: cv }];
      else {
        simplex = [
          best,
          ...[mid, worst].map((p) => {
            const x: [number, number] = [(best.x[0] + p.x[0]) / 2, (best.x[1] + p.x[1]) / 2];
            return { x, value: f(x) };
          }),
        ];
      }
    }
  }
  simplex.sort((p, q) => p.value - q.value);
  return simplex[0]!;
}

/**
 * Weighted least-squares raw SVI fit to total variances (module comment). Null with fewer than three
 * points with finite, positive w and weight, or when no admissible fit is found.
 */
export function calibrateSvi(input: readonly VariancePoint[]): SviCalibration | null {
  const usable = input.filter((p) => Number.isFinite(p.k) && p.w > 0 && Number.isFinite(p.w) && p.weight > 0 && Number.isFinite(p.weight));
  if (usable.length < 3) return null;
  // Weights summing to one keep the normal equations and the constraint rows of the KKT systems on
  // one scale (spread weights of short expirations reach 1e11), which the pivot test relies on.
  const totalWeight = usable.reduce((s, p) => s + p.weight, 0);
  const points = usable.map((p) => ({ ...p, weight: p.weight / totalWeight }));
  const ks = points.map((p) => p.k);
  const kMin = Math.min(...ks);
  const kMax = Math.max(...ks);
  const span = Math.max(kMax - kMin, 1e-4);
  const mLo = kMin - span;
  const mHi = kMax + span;
  const lnSigmaLo = Math.log(span / 1000);
  const lnSigmaHi = Math.log(10 * span);
  const scale = points.reduce((s, p) => s + p.weight * p.w * p.w, 0);
  const columns = columnsOf(points);
  const inner = (x: readonly [number, number]): Inner | null => {
    if (!(x[0] >= mLo && x[0] <= mHi && x[1] >= lnSigmaLo && x[1] <= lnSigmaHi)) return null;
    const sigma = Math.exp(x[1]);
    return solveInner(moments(columns, x[0], sigma), sigma);
  };
  const f = (x: readonly [number, number]): number => inner(x)?.objective ?? Infinity;

  // Coarse grid, 9 × 9: m over the quoted range, σ log-spaced from span/200 to 5·span.
  const grid: { x: [number, number]; value: number }[] = [];
  const lnGridLo = Math.log(span / 200);
  const lnGridHi = Math.log(5 * span);
  for (let i = 0; i <= 8; i++) {
    for (let j = 0; j <= 8; j++) {
      const x: [number, number] = [kMin + ((kMax - kMin) * i) / 8, lnGridLo + ((lnGridHi - lnGridLo) * j) / 8];
      grid.push({ x, value: f(x) });
    }
  }
  grid.sort((p, q) => p.value - q.value);
  const step: [number, number] = [span / 8, (lnGridHi - lnGridLo) / 8];
  let best: { x: [number, number]; value: number } | null = null;
  for (const start of grid.slice(0, 2)) {
    if (!Number.isFinite(start.value)) continue;
    const found = nelderMead(f, start.x, step, scale);
    if (best === null || found.value < best.value) best = found;
  }
  if (best === null) return null;
  // A restart from the optimum shakes off a simplex that collapsed early.
  const again = nelderMead(f, best.x, [step[0] / 10, step[1] / 10], scale);
  if (again.value <= best.value) best = again;
  const solution = inner(best.x);
  if (solution === null) return null;
  const sigma = Math.exp(best.x[1]);
  // Constraints hold to rounding: b ≥ 0 and a + bσ√(1 − ρ²) ≥ 0 are made exact, not left at −1e-20.
  const c = Math.max(solution.c, 0);
  const rho = c > 0 ? Math.min(Math.max(solution.d / c, -(1 - RHO_MARGIN)), 1 - RHO_MARGIN) : 0;
  const a = Math.max(solution.a, -c * Math.sqrt(1 - rho * rho));
  const parameters: SviParameters = { a, b: c / sigma, rho, m: best.x[0], sigma };
  return { parameters, objective: solution.objective };
}
