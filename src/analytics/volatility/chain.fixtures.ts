/**
 * Test chains: quotes priced by Black-Scholes-Merton (pricing.ts) from a known raw SVI smile, so
 * that what the surface recovers can be compared with what built it.
 */
import { bsmPrice, type OptionType } from '../pricing.js';
import type { ChainQuote } from './quotes.js';
import { sviTotalVariance, type SviParameters } from './svi.js';

export interface ChainSpec {
  spot: number;
  rate: number;
  dividendYield: number;
  time: number;
  smile: SviParameters;
  strikes: readonly number[];
  /** Half the bid-ask spread of a contract of this price (default 0.005 + 1% of the price). */
  halfSpread?: (price: number) => number;
  /** Added to each contract's mid, in price units (default none): noise inside or outside the spread. */
  noise?: (index: number, price: number) => number;
}

/**
 * The market and smile most tests price: a three-month expiration of a 100 underlying with a
 * negative skew; a test adds the strikes it quotes.
 */
export const QUARTER_SMILE_CHAIN: Omit<ChainSpec, 'strikes'> = {
  spot: 100,
  rate: 0.04,
  dividendYield: 0.015,
  time: 0.25,
  smile: { a: 0.004, b: 0.05, rho: -0.5, m: 0.02, sigma: 0.1 },
};

/** F = S·e^{(r−q)T}. */
export function forwardOf(spec: Pick<ChainSpec, 'spot' | 'rate' | 'dividendYield' | 'time'>): number {
  return spec.spot * Math.exp((spec.rate - spec.dividendYield) * spec.time);
}

/** The volatility the smile gives at a strike. */
export function smileVolatilityAt(spec: ChainSpec, strike: number): number {
  return Math.sqrt(sviTotalVariance(spec.smile, Math.log(strike / forwardOf(spec))) / spec.time);
}

/** The model price of a contract of the chain. */
export function modelPrice(spec: ChainSpec, type: OptionType, strike: number): number {
  const volatility = smileVolatilityAt(spec, strike);
  return bsmPrice({ type, spot: spec.spot, strike, time: spec.time, rate: spec.rate, dividendYield: spec.dividendYield, volatility });
}

/** Calls and puts at every strike; a bid that would be at or below zero is no bid (null). */
export function sviChain(spec: ChainSpec): ChainQuote[] {
  const halfSpread = spec.halfSpread ?? ((p: number) => 0.005 + 0.01 * p);
  const quotes: ChainQuote[] = [];
  let index = 0;
  for (const strike of spec.strikes) {
    for (const type of ['call', 'put'] as const) {
      const price = modelPrice(spec, type, strike);
      const mid = price + (spec.noise?.(index, price) ?? 0);
      const h = halfSpread(price);
      quotes.push({ strike, type, bid: mid - h > 0 ? mid - h : null, ask: mid + h });
      index++;
    }
  }
  return quotes;
}

/** Strikes from `from` to `to` by `step`. */
export function strikeRange(from: number, to: number, step: number): number[] {
  const out: number[] = [];
  for (let k = from; k <= to + 1e-9; k += step) out.push(Math.round(k * 1000) / 1000);
  return out;
}

/** A reproducible uniform generator on [−1, 1) (Park–Miller minimal standard, seed fixed). */
export function uniformNoise(seed: number): () => number {
  let state = seed % 2147483647;
  if (state <= 0) state += 2147483646;
  return () => {
    state = (state * 16807) % 2147483647;
    return (2 * (state - 1)) / 2147483646 - 1;
  };
}
