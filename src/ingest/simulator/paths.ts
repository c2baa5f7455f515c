/**
 * Underlying price paths: a Heston stochastic-volatility process per underlying (Heston, "A
 * closed-form solution for options with stochastic volatility", RFS 6(2), 1993), stepped with the
 * full-truncation Euler scheme (Lord, Koekkoek and van Dijk, "A comparison of biased simulation
 * schemes for stochastic volatility models", Quantitative Finance 10(2), 2010):
 *   S ← S·exp(−½v⁺·dt + √(v⁺·dt)·Z₁),   v ← v + κ(θ − v⁺)dt + ξ√(v⁺·dt)·(ρZ₁ + √(1−ρ²)Z₂),
 * with v⁺ = max(v, 0) and no drift. Price shocks are correlated with the market (SPX) shock:
 * Z₁ = β·Z_market + √(1−β²)·Z_own. The indexes are the processes and their ETFs track them at a
 * fixed ratio with a tiny tracking noise (model.ts `tracks`): SPY follows SPX, QQQ NDX, IWM RUT.
 *
 * The clock is trading time: one regular-session minute is 1/(252·390) of a year, scaled by an
 * intraday activity profile (U-shaped in the regular session, quiet overnight with bumps at the
 * European open and the 08:30 ET data releases, calm in the curb). Time between segments (the
 * evening, weekends, the 09:25–09:30 pause) counts GAP_WEIGHT of a regular minute per minute.
 * Each minute is four 15-second sub-steps, which give the bar's open, high, low and close and the
 * price at any instant (linear between sub-steps).
 */
import { calendarDay } from '../../analytics/calendar.js';
import { marketSessions } from '../../analytics/sessions.js';
import { type Prng } from './prng.js';
import { UNDERLYINGS, type UnderlyingSpec } from './model.js';

export type SegmentKind = 'gth' | 'rth' | 'curb';

export interface Segment {
  kind: SegmentKind;
  tradingDate: string;
  /** Unix ms of the first minute. */
  start: number;
  /** Whole minutes in the window. */
  minutes: number;
  /** New York minute of day of the first minute. */
  nyMinute: number;
  /** Regular segments: minutes until the equity close (390, or 210 on an early-close day). */
  equityMinutes: number;
}

export const MINUTE_MS = 60_000;
export const SUB_STEPS = 4;
const SUB_MS = MINUTE_MS / SUB_STEPS;
/** Years of trading time in one regular-session minute. */
const DT_MINUTE = 1 / (252 * 390);
/** Variance clock weight of one wall-clock minute between segments, relative to a regular minute. */
const GAP_WEIGHT = 0.03;
/** Per-minute weights outside the regular session. */
const GTH_WEIGHT = 0.08;
const GTH_EUROPE_WEIGHT = 0.16; // 02:30–04:30 ET
const GTH_DATA_WEIGHT = 0.25; // 08:00–09:25 ET
const CURB_WEIGHT = 0.2;
const AFTER_EQUITY_CLOSE_WEIGHT = 0.25; // 16:00–16:15 ET, index and ETF options only
/**
 * Tracking noise of an ETF against its index (SPY/SPX, QQQ/NDX, IWM/RUT), relative, drawn afresh at
 * every sub-step (not accumulated): the ratio stays within a few TRACKING_NOISE of its constant.
 */
const TRACKING_NOISE = 0.00003;

/** Windows of one trading date as minute segments (sessions.ts: overnight, regular, curb). */
export function segmentsOf(tradingDate: string): Segment[] {
  const day = calendarDay(tradingDate);
  if (day.open_timestamp === null || day.close_timestamp === null) return [];
  const equityMinutes = Math.round((day.close_timestamp - day.open_timestamp) / MINUTE_MS);
  const out: Segment[] = [];
  for (const s of marketSessions(tradingDate, ['options'])) {
    const minutes = Math.round((s.end_time - s.start_time) / MINUTE_MS);
    if (s.session === 'overnight')
      out.push({ kind: 'gth', tradingDate, start: s.start_time, minutes, nyMinute: 20 * 60 + 15, equityMinutes: 0 });
    else if (s.session === 'regular')
      out.push({ kind: 'rth', tradingDate, start: s.start_time, minutes, nyMinute: 9 * 60 + 30, equityMinutes });
    else if (s.session === 'curb')
      out.push({ kind: 'curb', tradingDate, start: s.start_time, minutes, nyMinute: 16 * 60 + 15, equityMinutes: 0 });
  }
  return out.sort((a, b) => a.start - b.start);
}

const profileMemo = new Map<number, Float64Array>();

/**
 * Regular-session activity by minute, mean 1 over the equity session: heavy at the open, a midday
 * lull, a rise into the close (the intraday U shape of volume and volatility; e.g. Andersen and
 * Bollerslev, "Intraday periodicity and volatility persistence", J. Empirical Finance 4, 1997).
 */
export function regularProfile(equityMinutes: number, minutes: number): Float64Array {
  const key = equityMinutes * 10_000 + minutes;
  let p = profileMemo.get(key);
  if (p) return p;
  p = new Float64Array(minutes);
  let sum = 0;
  for (let i = 0; i < minutes; i += 1) {
    const raw =
      i < equityMinutes ? 0.75 + 1.5 * Math.exp(-i / 15) + 0.6 * Math.exp(-(equityMinutes - 1 - i) / 20) : AFTER_EQUITY_CLOSE_WEIGHT;
    p[i] = raw;
    if (i < equityMinutes) sum += raw;
  }
  const mean = sum / equityMinutes;
  for (let i = 0; i < equityMinutes; i += 1) p[i] = p[i]! / mean;
  profileMemo.set(key, p);
  return p;
}

/** Variance-clock weight of minute i of a segment (1 = an average regular minute). */
export function minuteWeight(segment: Segment, i: number): number {
  if (segment.kind === 'rth') return regularProfile(segment.equityMinutes, segment.minutes)[i]!;
  if (segment.kind === 'curb') return CURB_WEIGHT;
  const ny = (segment.nyMinute + i) % 1440;
  if (ny >= 8 * 60 && ny < 9 * 60 + 30) return GTH_DATA_WEIGHT;
  if (ny >= 2 * 60 + 30 && ny < 4 * 60 + 30) return GTH_EUROPE_WEIGHT;
  return GTH_WEIGHT;
}

/** One segment's simulated paths, per underlying (index into UNDERLYINGS). */
export interface SegmentPath {
  segment: Segment;
  /** Prices at every sub-step boundary: minutes·SUB_STEPS + 1 points. */
  points: Float64Array[];
  /** Instantaneous variance at the start of each minute. */
  variance: Float64Array[];
}

/** Price of underlying u at an instant inside the segment (linear between sub-steps). */
export function priceAt(path: SegmentPath, u: number, t: number): number {
  const pts = path.points[u]!;
  const x = Math.min(Math.max((t - path.segment.start) / SUB_MS, 0), pts.length - 1);
  const i = Math.min(Math.floor(x), pts.length - 2);
  const f = x - i;
  return pts[i]! * (1 - f) + pts[i + 1]! * f;
}

export function varianceAt(path: SegmentPath, u: number, t: number): number {
  const v = path.variance[u]!;
  const i = Math.min(Math.max(Math.floor((t - path.segment.start) / MINUTE_MS), 0), v.length - 1);
  return v[i]!;
}

/** Minute bar of underlying u: open, high, low, close. */
export function barOf(path: SegmentPath, u: number, minute: number): [number, number, number, number] {
  const pts = path.points[u]!;
  const first = minute * SUB_STEPS;
  let high = pts[first]!;
  let low = high;
  for (let k = 1; k <= SUB_STEPS; k += 1) {
    const p = pts[first + k]!;
    if (p > high) high = p;
    if (p < low) low = p;
  }
  return [pts[first]!, high, low, pts[first + SUB_STEPS]!];
}

interface State {
  price: number;
  variance: number;
}

/** Simulates every segment in order, carrying prices and variances across the gaps between them. */
export function simulatePaths(segments: readonly Segment[], rng: Prng): SegmentPath[] {
  const specs = UNDERLYINGS;
  const state: State[] = specs.map((s) => ({ price: s.start, variance: s.v0 }));
  const indexOf = new Map(specs.map((s, i) => [s.symbol, i]));
  const own = specs.map(() => 0);
  const step = (dt: number): void => {
    const market = rng.normal();
    specs.forEach((spec, u) => {
      if (spec.tracks) return;
      own[u] = spec.beta >= 1 ? market : spec.beta * market + Math.sqrt(1 - spec.beta * spec.beta) * rng.normal();
    });
    specs.forEach((spec, u) => {
      const st = state[u]!;
      if (spec.tracks) {
        const leader = state[indexOf.get(spec.tracks.symbol)!]!;
        st.price = leader.price * spec.tracks.ratio * (1 + TRACKING_NOISE * rng.normal());
        st.variance = leader.variance;
        return;
      }
      hestonStep(st, spec, dt, own[u]!, rng.normal());
    });
  };
  const out: SegmentPath[] = [];
  let previousEnd: number | null = null;
  for (const segment of segments) {
    if (previousEnd !== null && segment.start > previousEnd) {
      const gapMinutes = (segment.start - previousEnd) / MINUTE_MS;
      step(gapMinutes * GAP_WEIGHT * DT_MINUTE);
    }
    const n = segment.minutes * SUB_STEPS + 1;
    const points = specs.map(() => new Float64Array(n));
    const variance = specs.map(() => new Float64Array(segment.minutes));
    specs.forEach((_, u) => {
      points[u]![0] = state[u]!.price;
    });
    for (let m = 0; m < segment.minutes; m += 1) {
      specs.forEach((_, u) => {
        variance[u]![m] = Math.max(state[u]!.variance, 1e-6);
      });
      const dt = (minuteWeight(segment, m) * DT_MINUTE) / SUB_STEPS;
      for (let k = 1; k <= SUB_STEPS; k += 1) {
        step(dt);
        specs.forEach((_, u) => {
          points[u]![m * SUB_STEPS + k] = state[u]!.price;
        });
      }
    }
    out.push({ segment, points, variance });
    previousEnd = segment.start + segment.minutes * MINUTE_MS;
  }
  return out;
}

function hestonStep(st: State, spec: UnderlyingSpec, dt: number, z1: number, z2: number): void {
  const v = Math.max(st.variance, 0);
  const sd = Math.sqrt(v * dt);
  st.price *= Math.exp(-0.5 * v * dt + sd * z1);
  const zv = spec.rho * z1 + Math.sqrt(1 - spec.rho * spec.rho) * z2;
  st.variance = st.variance + spec.kappa * (spec.theta - v) * dt + spec.xi * sd * zv;
}
