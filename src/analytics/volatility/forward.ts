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
  return medianInPlace(Float64Array.from(values));
}

/** Median of a non-empty typed array, sorting it in place. */
function medianInPlace(values: Float64Array): number {
  const sorted = values.sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : 0.5 * ((sorted[mid - 1] as number) + (sorted[mid] as number));
}

/** q = r − ln(F/S)/T, from F = S·e^{(r−q)T}. */
export function impliedDividendYield(spot: number, forward: number, rate: number, time: number): number {
  return rate - Math.log(forward / spot) / time;
}

/** The parity forwards of the strikes with both mids, in the order each strike first appears: strikes and forwards. */
function parityForwards(quotes: readonly ChainQuote[], growth: number): { strikes: Float64Array; forwards: Float64Array } {
  // Per strike (by first appearance) the last call and put mids seen; NaN where none.
  const slotOf = new Map<number, number>();
  const strikes: number[] = [];
  const calls: number[] = [];
  const puts: number[] = [];
  for (const q of quotes) {
    const mid = midPrice(q.bid, q.ask);
    if (mid === null || !(q.strike > 0)) continue;
    let slot = slotOf.get(q.strike);
    if (slot === undefined) {
      slot = strikes.length;
      slotOf.set(q.strike, slot);
      strikes.push(q.strike);
      calls.push(NaN);
      puts.push(NaN);
    }
    if (q.type === 'call') calls[slot] = mid;
    else puts[slot] = mid;
  }
  const outStrikes: number[] = [];
  const outForwards: number[] = [];
  for (let i = 0; i < strikes.length; i++) {
    const call = calls[i] as number;
    const put = puts[i] as number;
    if (Number.isNaN(call) || Number.isNaN(put)) continue;
    const strike = strikes[i] as number;
    const forward = strike + growth * (call - put);
    if (forward > 0) {
      outStrikes.push(strike);
      outForwards.push(forward);
    }
  }
  return { strikes: Float64Array.from(outStrikes), forwards: Float64Array.from(outForwards) };
}

/** The robust parity forward (see the module comment); null when no strike has both mids or time is not positive. */
export function impliedForward(input: ForwardInput): ForwardEstimate | null {
  const { time, rate, spot } = input;
  if (!(time > 0) || !Number.isFinite(rate)) return null;
  const { strikes, forwards } = parityForwards(input.quotes, Math.exp(rate * time));
  const n = strikes.length;
  if (n === 0) return null;
  const count = Math.min(n, Math.max(1, input.nearStrikes ?? DEFAULT_NEAR_STRIKES));
  let forward = medianInPlace(forwards.slice());
  const distance = new Float64Array(n);
  const order: number[] = new Array<number>(n);
  const near = new Float64Array(count);
  // Two passes: the second re-centres the window on the first near-the-money median. The nearest
  // `count` strikes by |ln(K/centre)|, ties in first-appearance order (a stable sort).
  for (let pass = 0; pass < 2; pass++) {
    const centre = forward;
    for (let i = 0; i < n; i++) {
      distance[i] = Math.abs(Math.log((strikes[i] as number) / centre));
      order[i] = i;
    }
    order.sort((a, b) => (distance[a] as number) - (distance[b] as number));
    for (let j = 0; j < count; j++) near[j] = forwards[order[j] as number] as number;
    forward = medianInPlace(near.slice());
  }
  const used = count;
  const dividendYield = spot !== null && spot > 0 ? impliedDividendYield(spot, forward, rate, time) : null;
  return { forward, strikesUsed: used, dividendYield };
}
