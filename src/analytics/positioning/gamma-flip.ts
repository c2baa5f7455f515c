/**
 * The gamma flip: the underlying price where net modeled gamma changes sign (Perfiliev, "How to
 * calculate gamma exposure and zero gamma level").
 *
 * The net gamma profile at a hypothetical underlying price x is Σ Γ(x)·position·multiplier over the
 * valued contracts (contracts.ts), Γ(x) the Black-Scholes-Merton gamma e^{−qT}φ(d1)/(xσ√T) (Haug
 * 2007, ch. 2) with each contract's volatility held at its strike's (sticky strike: the smile does
 * not move with x), and its time, carry q and the rate held too. Any unit of units.ts multiplies
 * this sum by a positive factor of x, so the sign, and the flip, is the same in every unit.
 *
 * The profile is sampled at `points` evenly spaced prices from lowFactor·S to highFactor·S
 * (0.8 to 1.2 × S, 801 points: every 0.05% of S, by default). Between neighbouring samples of
 * opposite sign (samples exactly 0 skipped) the sign change is refined by bisection to 1e-10·S;
 * every such price is a candidate, ascending. Two sign changes within one sampling step are not
 * seen. The flip is the candidate nearest S (the lower one on a tie); far_from_underlying is true
 * when the profile has one sign over the whole sweep (any flip lies beyond it), false when there is
 * a candidate, null when the profile is 0 everywhere (no valued contract with gamma).
 *
 * The profile of all contracts is evaluated as the profile without the trading date's expiration
 * plus the profile of that expiration (gammaFlipWithout), so the two flips cost one sweep.
 *
 * Contracts of equal strike, time, volatility and carry share one gamma, so they are summed into
 * one node before the sweep (calls and puts at a strike share the smile's volatility), and each
 * node's constants are computed once: the sweep costs at most nodes × points exponentials, fewer
 * where a node's gamma is exactly 0 at a price (netGammaProfileAt).
 */
import type { ValuedContract } from './contracts.js';

export interface GammaSweep {
  lowFactor: number;
  highFactor: number;
  points: number;
}

export const DEFAULT_GAMMA_SWEEP: GammaSweep = { lowFactor: 0.8, highFactor: 1.2, points: 801 };

const REFINE_TOLERANCE = 1e-10;

/** Contracts sharing one gamma: weight is Σ position × multiplier. */
export interface GammaNode {
  strike: number;
  time: number;
  volatility: number;
  dividendYield: number;
  weight: number;
}

export interface GammaFlip {
  /** Every refined sign change of the profile in the sweep, ascending. */
  candidates: number[];
  /** The candidate nearest the underlying price; null without one. */
  flip: number | null;
  farFromUnderlying: boolean | null;
}

/** The valued contracts summed into gamma nodes (module comment). */
export function gammaNodes(contracts: readonly ValuedContract[]): GammaNode[] {
  const nodes = new Map<string, GammaNode>();
  for (const c of contracts) {
    if (c.greeks === null || c.volatility === null) continue;
    const key = `${c.strike}|${c.time}|${c.volatility}|${c.dividendYield}`;
    const node = nodes.get(key);
    const weight = c.position * c.multiplier;
    if (node === undefined)
      nodes.set(key, { strike: c.strike, time: c.time, volatility: c.volatility, dividendYield: c.dividendYield, weight });
    else node.weight += weight;
  }
  return [...nodes.values()].filter((n) => n.weight !== 0);
}

const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/**
 * A node ready for the sweep: d1 = (ln x − ln K)/s + shift with s = σ√T and shift = (r − q)T/s + s/2,
 * and weight·Γ(x) = scale·e^{−d1²/2}/x with scale = weight·e^{−qT}/(s√(2π)), so that a price costs
 * one logarithm for all nodes and one exponential per node.
 */
interface PreparedNode {
  lnStrike: number;
  s: number;
  shift: number;
  scale: number;
}

function prepare(n: GammaNode, rate: number): PreparedNode {
  const s = n.volatility * Math.sqrt(n.time);
  return {
    lnStrike: Math.log(n.strike),
    s,
    shift: ((rate - n.dividendYield) * n.time) / s + 0.5 * s,
    scale: (n.weight * Math.exp(-n.dividendYield * n.time) * INV_SQRT_2PI) / s,
  };
}

function preparedSum(prepared: readonly PreparedNode[], spot: number): number {
  const lnSpot = Math.log(spot);
  let sum = 0;
  for (const p of prepared) {
    const d1 = (lnSpot - p.lnStrike) / p.s + p.shift;
    sum += p.scale * Math.exp(-0.5 * d1 * d1);
  }
  return sum / spot;
}

/**
 * The net gamma profile of the nodes, x ↦ Σ weight·Γ(x) (shares per $1): Γ the BSM gamma
 * e^{−qT}φ(d1)/(xσ√T) of pricing.ts bsmGreeks in the prepared form above (tested equal to it).
 */
export function netGammaProfile(nodes: readonly GammaNode[], rate: number): (spot: number) => number {
  const prepared = nodes.map((n) => prepare(n, rate));
  return (spot) => preparedSum(prepared, spot);
}

/**
 * |d1| beyond which e^{−d1²/2} is exactly 0 in double precision (e^{−x} underflows to 0 past
 * x ≈ 745.13, i.e. |d1| ≈ 38.6): a node adds exactly nothing to the profile at such prices.
 */
const NEGLIGIBLE_D1 = 40;

/** The first index of the ascending values at or above x (values.length when none). */
function lowerBound(values: Float64Array, x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The profile of the prepared nodes at each of the ascending prices, equal to the last bit to
 * preparedSum at each price: the same terms are added in the same node order, node by node over
 * all prices instead of price by price. A node's terms at prices where |d1| > NEGLIGIBLE_D1 are
 * exactly 0 and are not computed (adding 0 changes no sum), so a short-dated node far from the
 * sweep's prices costs nothing.
 */
function preparedSums(prepared: readonly PreparedNode[], prices: readonly number[]): Float64Array {
  const n = prices.length;
  const lnPrices = Float64Array.from(prices, (x) => Math.log(x));
  const sums = new Float64Array(n);
  for (const p of prepared) {
    // d1 rises with ln x (s > 0): |d1| <= NEGLIGIBLE_D1 on an interval of ln x, widened by a price each side.
    // (A node whose constants are not numbers is summed over every price, NaN as before.)
    const low = p.lnStrike + (-NEGLIGIBLE_D1 - p.shift) * p.s;
    const high = p.lnStrike + (NEGLIGIBLE_D1 - p.shift) * p.s;
    const numbers = !Number.isNaN(low) && !Number.isNaN(high);
    const from = numbers ? Math.max(0, lowerBound(lnPrices, low) - 1) : 0;
    const to = numbers ? Math.min(n, lowerBound(lnPrices, high) + 1) : n;
    for (let i = from; i < to; i++) {
      const d1 = ((lnPrices[i] as number) - p.lnStrike) / p.s + p.shift;
      sums[i] = (sums[i] as number) + p.scale * Math.exp(-0.5 * d1 * d1);
    }
  }
  for (let i = 0; i < n; i++) sums[i] = (sums[i] as number) / (prices[i] as number);
  return sums;
}

/** The net gamma profile of the nodes at each of the ascending prices (netGammaProfile at each, to the last bit). */
export function netGammaProfileAt(nodes: readonly GammaNode[], rate: number, prices: readonly number[]): Float64Array {
  return preparedSums(
    nodes.map((n) => prepare(n, rate)),
    prices,
  );
}

/** One node's weight·Γ at a price (the profile of that node alone). */
export function nodeGamma(n: GammaNode, spot: number, rate: number): number {
  return preparedSum([prepare(n, rate)], spot);
}

/** The sweep's prices (module comment). */
export function sweepPrices(spot: number, sweep: GammaSweep = DEFAULT_GAMMA_SWEEP): number[] {
  const low = sweep.lowFactor * spot;
  const step = ((sweep.highFactor - sweep.lowFactor) * spot) / (sweep.points - 1);
  return Array.from({ length: sweep.points }, (_, i) => (i === sweep.points - 1 ? sweep.highFactor * spot : low + i * step));
}

/** Bisection of a sign change of f between a and b (f(a), f(b) of opposite signs). */
function refine(f: (x: number) => number, a0: number, b0: number, tolerance: number): number {
  let a = a0;
  let b = b0;
  const signA = Math.sign(f(a));
  for (let i = 0; i < 200 && b - a > tolerance; i++) {
    const m = 0.5 * (a + b);
    const value = f(m);
    if (value === 0) return m;
    if (Math.sign(value) === signA) a = m;
    else b = m;
  }
  return 0.5 * (a + b);
}

/** Candidates, flip and far_from_underlying from the profile f sampled at the prices (module comment). */
function flipOfSamples(f: (x: number) => number, prices: readonly number[], values: ArrayLike<number>, spot: number): GammaFlip {
  const candidates: number[] = [];
  let previousPrice = NaN;
  let previousSign = 0;
  for (let i = 0; i < prices.length; i++) {
    const price = prices[i] as number;
    const sign = Math.sign(values[i] as number);
    if (sign === 0) continue;
    if (previousSign !== 0 && sign !== previousSign) candidates.push(refine(f, previousPrice, price, REFINE_TOLERANCE * spot));
    previousPrice = price;
    previousSign = sign;
  }
  let flip: number | null = null;
  for (const c of candidates) if (flip === null || Math.abs(c - spot) < Math.abs(flip - spot)) flip = c;
  return { candidates, flip, farFromUnderlying: previousSign === 0 ? null : candidates.length === 0 };
}

/** The flip, its candidates and whether it lies beyond the sweep (module comment). */
export function gammaFlip(
  contracts: readonly ValuedContract[],
  spot: number,
  rate: number,
  sweep: GammaSweep = DEFAULT_GAMMA_SWEEP,
): GammaFlip {
  const nodes = gammaNodes(contracts);
  const prices = sweepPrices(spot, sweep);
  return flipOfSamples(netGammaProfile(nodes, rate), prices, netGammaProfileAt(nodes, rate, prices), spot);
}

/**
 * The flip of all the contracts and the flip without those `excluded` picks (the trading date's
 * expiration), from one sweep: the profile of all is the profile of the rest plus that of the
 * excluded, so each price is evaluated once per node, not twice.
 */
export function gammaFlipWithout(
  contracts: readonly ValuedContract[],
  excluded: (c: ValuedContract) => boolean,
  spot: number,
  rate: number,
  sweep: GammaSweep = DEFAULT_GAMMA_SWEEP,
): { all: GammaFlip; without: GammaFlip } {
  const restNodes = gammaNodes(contracts.filter((c) => !excluded(c)));
  const leftNodes = gammaNodes(contracts.filter(excluded));
  const rest = netGammaProfile(restNodes, rate);
  const left = netGammaProfile(leftNodes, rate);
  const all = (x: number): number => rest(x) + left(x);
  const prices = sweepPrices(spot, sweep);
  const restValues = netGammaProfileAt(restNodes, rate, prices);
  const leftValues = netGammaProfileAt(leftNodes, rate, prices);
  const allValues = restValues.map((v, i) => v + (leftValues[i] as number));
  return { all: flipOfSamples(all, prices, allValues, spot), without: flipOfSamples(rest, prices, restValues, spot) };
}
