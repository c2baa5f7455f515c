/**
 * The surface of a root (or family) at an instant: per expiration the parity forward (forward.ts),
 * the quotes' volatilities (quotes.ts) and a smile (smile.ts), and across expirations the calendar
 * check of Gatheral & Jacquier (2014, §2: no calendar spread arbitrage iff total variance
 * w(k, T) is non-decreasing in T at every fixed log-forward moneyness k).
 *
 * The calendar check compares each pair of neighbouring expirations on 41 points spanning the
 * moneyness both quote (extrapolated wings are not evidence). An SVI smile in a failing pair falls
 * back to interpolation (fallback_reason 'calendar_arbitrage') and the pair is checked again; a pair
 * that still fails (the quotes themselves cross) leaves calendar_ok false on both.
 */
import { impliedForward, type ForwardEstimate } from './forward.js';
import {
  outOfTheMoneyPoints,
  quoteVolatilities,
  type ChainQuote,
  type ExpirationMarket,
  type QuoteVolatility,
  type SmilePoint,
} from './quotes.js';
import { curveTotalVariance, fitSmile, interpolatedAtmVolatility, interpolatedSmile, type Smile } from './smile.js';
import { moneynessGrid } from './svi.js';

export interface ExpirationChain {
  /** Years to settlement on the calendar clock (settlement.ts yearsToSettlement). */
  time: number;
  quotes: readonly ChainQuote[];
}

export interface SurfaceInput {
  /** Underlying price at the valuation instant; null when unknown (volatilities still solve on the parity forward; deltas are null). */
  spot: number | null;
  /** Continuously compounded risk-free rate (rates.ts riskFreeRate). */
  rate: number;
  /** Expirations, any order. */
  expirations: readonly ExpirationChain[];
}

/** One expiration of the surface; forward, market and smile null when the chain does not determine them. */
export interface ExpirationSurface {
  time: number;
  forward: ForwardEstimate | null;
  market: ExpirationMarket | null;
  quotes: QuoteVolatility[];
  points: SmilePoint[];
  smile: Smile | null;
}

/** Absolute tolerance on total variance for the calendar check. */
const CALENDAR_TOLERANCE = 1e-9;

export interface CalendarCheck {
  ok: boolean;
  /** Smallest w(k, later) − w(k, earlier) on the grid (Infinity when the two quote no common moneyness). */
  minDifference: number;
  atMoneyness: number;
}

/** Calendar check of two smiles, `earlier` expiring first, on the moneyness both quote. */
export function calendarCheck(earlier: Smile, later: Smile): CalendarCheck {
  const range = (s: Smile): [number, number] => {
    const ks = s.points.map((p) => p.moneyness);
    return [Math.min(...ks), Math.max(...ks)];
  };
  const [lo1, hi1] = range(earlier);
  const [lo2, hi2] = range(later);
  const lo = Math.max(lo1, lo2);
  const hi = Math.min(hi1, hi2);
  if (!(lo <= hi)) return { ok: true, minDifference: Infinity, atMoneyness: NaN };
  let minDifference = Infinity;
  let atMoneyness = NaN;
  for (const k of lo === hi ? [lo] : moneynessGrid(lo, hi, 41)) {
    const difference = curveTotalVariance(later.curve, k) - curveTotalVariance(earlier.curve, k);
    if (difference < minDifference) {
      minDifference = difference;
      atMoneyness = k;
    }
  }
  return { ok: minDifference >= -CALENDAR_TOLERANCE, minDifference, atMoneyness };
}

/**
 * Applies the calendar check to smiles ordered by time (nulls skipped), falling back as the module
 * comment says. Returns new smiles; the input is not changed.
 */
export function applyCalendarChecks(smiles: readonly (Smile | null)[]): (Smile | null)[] {
  const out = [...smiles];
  const present = out.map((s, i) => (s === null ? -1 : i)).filter((i) => i >= 0);
  const failed = new Set<number>();
  for (let pass = 0; pass <= present.length; pass++) {
    let changed = false;
    failed.clear();
    for (let j = 0; j + 1 < present.length; j++) {
      const i1 = present[j] as number;
      const i2 = present[j + 1] as number;
      const s1 = out[i1] as Smile;
      const s2 = out[i2] as Smile;
      if (calendarCheck(s1, s2).ok) continue;
      failed.add(i1).add(i2);
      for (const [i, s] of [
        [i1, s1],
        [i2, s2],
      ] as const) {
        if (s.curve.method === 'svi') {
          out[i] = interpolatedSmile(s.points, s.time, 'calendar_arbitrage');
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return out.map((s, i) => (s === null ? null : { ...s, fit: { ...s.fit, calendar_ok: !failed.has(i) } }));
}

/** One expiration: forward, quote volatilities, out-of-the-money points and smile (before the calendar check). */
export function expirationSurface(chain: ExpirationChain, spot: number | null, rate: number): ExpirationSurface {
  const forward = impliedForward({ quotes: chain.quotes, time: chain.time, rate, spot });
  if (forward === null) return { time: chain.time, forward, market: null, quotes: [], points: [], smile: null };
  const market: ExpirationMarket = { spot, forward: forward.forward, time: chain.time, rate };
  const quotes = quoteVolatilities(chain.quotes, market);
  const points = outOfTheMoneyPoints(quotes, market);
  return { time: chain.time, forward, market, quotes, points, smile: fitSmile(points, chain.time) };
}

/** Every expiration of the input, in the input order, smiles calendar-checked across expirations by time. */
export function buildSurface(input: SurfaceInput): ExpirationSurface[] {
  const surfaces = input.expirations.map((e) => expirationSurface(e, input.spot, input.rate));
  const order = surfaces.map((_, i) => i).sort((a, b) => (surfaces[a] as ExpirationSurface).time - (surfaces[b] as ExpirationSurface).time);
  const checked = applyCalendarChecks(order.map((i) => (surfaces[i] as ExpirationSurface).smile));
  order.forEach((i, j) => {
    (surfaces[i] as ExpirationSurface).smile = checked[j] ?? null;
  });
  return surfaces;
}

/**
 * At-the-money volatility of one expiration's quotes without a fit (smile.ts interpolatedAtmVolatility):
 * parity forward, out-of-the-money mid volatilities, total variance interpolated to k = 0. For the
 * drift route's buckets; null when the forward or every volatility is missing.
 */
export function chainAtmVolatility(
  chain: ExpirationChain,
  spot: number | null,
  rate: number,
): { forward: number; volatility: number } | null {
  const forward = impliedForward({ quotes: chain.quotes, time: chain.time, rate, spot });
  if (forward === null) return null;
  const market: ExpirationMarket = { spot, forward: forward.forward, time: chain.time, rate };
  const outOfTheMoney = chain.quotes.filter((q) => q.type === (q.strike < forward.forward ? 'put' : 'call'));
  const volatility = interpolatedAtmVolatility(outOfTheMoneyPoints(quoteVolatilities(outOfTheMoney, market, 'mid'), market), chain.time);
  return volatility === null ? null : { forward: forward.forward, volatility };
}
