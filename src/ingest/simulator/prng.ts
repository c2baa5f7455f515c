/**
 * The simulator's only source of randomness: xoshiro128** (Blackman and Vigna, "Scrambled linear
 * pseudorandom number generators", ACM TOMS 47(4), 2021), seeded through splitmix32. Every stream
 * is derived from the run's seed and a label (`fork`), so a part of the market (one session, one
 * underlying) draws the same numbers whatever else is generated, and the same seed always yields
 * byte-identical files. No Math.random, no clock.
 */

const TWO_POW_32 = 4_294_967_296;

/** FNV-1a over a label, mixed with a 32-bit seed. */
function hashLabel(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i += 1) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Folds any finite number (negative, fractional or above 2^32) into a 32-bit seed. */
function seed32(seed: number): number {
  if (!Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  const whole = Math.trunc(seed);
  const lo = ((whole % TWO_POW_32) + TWO_POW_32) % TWO_POW_32;
  const hi = Math.floor(Math.abs(whole) / TWO_POW_32) % TWO_POW_32;
  return hashLabel(lo >>> 0, `${hi}:${whole < 0 ? '-' : '+'}:${seed - whole}`);
}

const rotl = (x: number, k: number): number => ((x << k) | (x >>> (32 - k))) >>> 0;

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;
  private readonly root: number;

  constructor(seed: number) {
    this.root = seed32(seed);
    let s = this.root;
    // splitmix32 expands the seed into the four state words (never all zero).
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next() | 1;
  }

  /** An independent stream named by a label: same seed and label, same numbers. */
  fork(label: string): Prng {
    return new Prng(hashLabel(this.root, label));
  }

  /** Next 32-bit unsigned integer (xoshiro128**). */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5) >>> 0, 7), 9) >>> 0;
    const t = (this.b << 9) >>> 0;
    this.c = (this.c ^ this.a) >>> 0;
    this.d = (this.d ^ this.b) >>> 0;
    this.b = (this.b ^ this.c) >>> 0;
    this.a = (this.a ^ this.d) >>> 0;
    this.c = (this.c ^ t) >>> 0;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform on the open interval (0, 1). */
  uniform(): number {
    return (this.nextU32() + 0.5) / TWO_POW_32;
  }

  /** Uniform on [lo, hi). */
  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.uniform();
  }

  /** Integer on [0, n). */
  int(n: number): number {
    return Math.floor(this.uniform() * n);
  }

  /** Integer on [lo, hi], both inclusive. */
  intBetween(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.uniform() < p;
  }

  /** Standard normal (Marsaglia polar method). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.uniform() - 1;
      v = 2 * this.uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * m;
    return u * m;
  }

  /** Pareto(xm, alpha) draw by inversion: xm·U^(−1/alpha); heavy tail with exponent alpha. */
  pareto(xm: number, alpha: number): number {
    return xm * Math.pow(this.uniform(), -1 / alpha);
  }

  /** Poisson count (Knuth's product method below 30, a rounded normal above). */
  poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * this.normal()));
    const limit = Math.exp(-lambda);
    let k = 0;
    let p = this.uniform();
    while (p > limit) {
      k += 1;
      p *= this.uniform();
    }
    return k;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** Index drawn with probability proportional to weights[i] (cumulative sums given). */
  weightedIndex(cumulative: ArrayLike<number>): number {
    const total = cumulative[cumulative.length - 1] ?? 0;
    const x = this.uniform() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Running sums of weights, for Prng.weightedIndex. */
export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => {
    sum += Math.max(0, w);
    out[i] = sum;
  });
  return out;
}
