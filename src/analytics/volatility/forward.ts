/**
 * The forward of one expiration implied by put-call parity, and the dividend yield it implies.
 *
 * For European options C − P = e^{−rT}(F − K), so every strike quoted on both legs gives
 * F = K + e^{rT}(C − P) from the mids. Cboe's VIX method (Cboe, "VIX Index Methodology",
 * determination of the forward index level) uses the single strike where |C − P| is smallest, which
 * one bad quote at that strike moves. Here the forward is a median: first over every strike with
 * both mids (a seed no single quote can move far), then over the `nearStrikes` strikes closest to
 * that seed in log-moneyness, where both legs carry time value and parity is tightest.
 *
 * Quotes without a mid (a side missing, a zero bid, or crossed) are ignored (quotes.ts midPrice).
 * American-style ETF options obey parity only approximately (early exercise); the median limits what
 * that does to F.
 */
import { midPrice, type ChainQuote } from './quotes.js';

export interface ForwardEstimate {
  /** The median parity forward over the near-the-money strikes. */
  forward: number;
  /** Strikes the final median was taken over. */
  strikesUsed: number;
  /** Continuous dividend yield implied by the forward, q = r − ln(F/S)/T; null without a spot. */
  dividendYield: number | null;
}

export interface ForwardInput {
  quotes: readonly ChainQuote[];
  /** Years to settlement (ACT/365). */
  time: number;
  /** Continuously compounded rate. */
  rate: number;
  /** Underlying price at the valuation instant, for the implied dividend yield; null when unknown. */
  spot: number | null;
  /** How many strikes nearest the seed the median is taken over (default 8). */
  nearStrikes?: number;
}

export const DEFAULT_NEAR_STRIKES = 8;

/** Median of a non-empty list (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : 0.5 * ((sorted[mid - 1] as number) + (sorted[mid] as number));
}

/** q = r − ln(F/S)/T, from F = S·e^{(r−q)T}. */
export function impliedDividendYield(spot: number, forward: number, rate: number, time: number): number {
  return rate - Math.log(forward / spot) / time;
}

/** The parity forward of each strike with both mids, keyed by strike. */
function parityForwards(quotes: readonly ChainQuote[], growth: number): { strike: number; forward: number }[] {
  const legs = new Map<number, { call: number | null; put: number | null }>();
  for (const q of quotes) {
    const mid = midPrice(q.bid, q.ask);
    if (mid === null || !(q.strike > 0)) continue;
    const leg = legs.get(q.strike) ?? { call: null, put: null };
    if (q.type === 'call') leg.call = mid;
    else leg.put = mid;
    legs.set(q.strike, leg);
  }
  const out: { strike: number; forward: number }[] = [];
  for (const [strike, { call, put }] of legs) {
    if (call === null || put === null) continue;
    const forward = strike + growth * (call - put);
    if (forward > 0) out.push({ strike, forward });
  }
  return out;
}

/** The robust parity forward (see the module comment); null when no strike has both mids or time is not positive. */
export function impliedForward(input: ForwardInput): ForwardEstimate | null {
  const { time, rate, spot } = input;
  if (!(time > 0) || !Number.isFinite(rate)) return null;
  const candidates = parityForwards(input.quotes, Math.exp(rate * time));
  if (candidates.length === 0) return null;
  const count = Math.max(1, input.nearStrikes ?? DEFAULT_NEAR_STRIKES);
  let forward = median(candidates.map((c) => c.forward));
  let used = candidates.length;
  // Two passes: the second re-centres the window on the first near-the-money median.
  for (let pass = 0; pass < 2; pass++) {
    // Distances taken once per strike, not once per comparison (the sort is stable, as before).
    const centre = forward;
    const near = candidates
      .map((c) => ({ forward: c.forward, distance: Math.abs(Math.log(c.strike / centre)) }))
      .sort((x, y) => x.distance - y.distance)
      .slice(0, count);
    forward = median(near.map((c) => c.forward));
    used = near.length;
  }
  const dividendYield = spot !== null && spot > 0 ? impliedDividendYield(spot, forward, rate, time) : null;
  return { forward, strikesUsed: used, dividendYield };
}
