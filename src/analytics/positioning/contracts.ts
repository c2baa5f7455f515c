/**
 * The contracts a positioning figure is built from, valued: each contract's modeled dealer position
 * (positions.ts) and its Black-Scholes-Merton greeks (pricing.ts bsmGreeks) at the valuation's
 * underlying price S and rate r, its own time to settlement (settlement.ts yearsToSettlement, ACT/365
 * calendar clock) and its expiration's fitted-smile volatility at its strike (surface.ts, smile.ts).
 *
 * Carry: the underlying's dividend yield is the one the expiration's parity forward implies,
 * q = r − ln(F/S)/T, so that S·e^{(r−q)T} = F and the contracts are valued on the same forward their
 * smile was fitted on (quotes.ts values deltas the same way). Call and put at one strike share one
 * volatility, the smile's.
 *
 * A contract is not valued (greeks null, so it adds nothing to any greek exposure) when its
 * expiration has no smile or forward, or its time to settlement is not positive (settled: it has no
 * greeks left, whatever its open interest).
 */
import { bsmGreeks, type Greeks, type OptionType } from '../pricing.js';
import { smileVolatility, type Smile } from '../volatility/smile.js';
import type { ExpirationSurface } from '../volatility/surface.js';
import { dealerPosition, NO_FLOW, type CustomerFlow, type PositioningModelName } from './positions.js';

/** Where the contracts are valued (the response's valuation object). */
export interface PositioningValuation {
  /** Underlying price. */
  spot: number;
  /** Continuously compounded risk-free rate. */
  rate: number;
}

/** One listed contract as the route hands it over. */
export interface PositioningContract {
  /** YYYY-MM-DD. */
  dateOfExpiry: string;
  /** Calendar days from the trading date to the expiration (0 on the expiration date). */
  daysToExpiry: number;
  strike: number;
  type: OptionType;
  /** Shares per contract. */
  multiplier: number;
  /** Open interest of the open interest date, contracts. */
  openInterest: number;
  /** Years to settlement at the valuation instant. */
  time: number;
  /** Fitted-smile volatility at the strike (contractVolatility); null when the expiration has none. */
  volatility: number | null;
  /** Continuous dividend yield the expiration's forward implies (impliedDividendYield). */
  dividendYield: number;
  /** Customer flow since the open interest date (positions.ts customerFlow); none when absent. */
  flow?: CustomerFlow;
}

/** A contract with its dealer position (contracts) and its greeks at the valuation (null: not valued). */
export interface ValuedContract extends PositioningContract {
  position: number;
  greeks: Greeks | null;
}

/** q = r − ln(F/S)/T: the yield that makes the spot's forward the expiration's parity forward. */
export function impliedDividendYield(spot: number, forward: number, rate: number, time: number): number {
  return time > 0 && spot > 0 && forward > 0 ? rate - Math.log(forward / spot) / time : 0;
}

/** The smile's volatility at the strike, k = ln(K/F); null without a smile, a forward, or a positive variance. */
export function contractVolatility(smile: Smile | null, forward: number | null, strike: number): number | null {
  if (smile === null || forward === null || !(forward > 0) || !(strike > 0)) return null;
  return smileVolatility(smile, Math.log(strike / forward));
}

/** A listed contract before the surface is read: everything but its volatility and carry. */
export type ListedContract = Omit<PositioningContract, 'volatility' | 'dividendYield'>;

/** What the positioning reads of an expiration's surface (surface.ts buildSurface). */
export type ExpirationSmile = Pick<ExpirationSurface, 'forward' | 'smile'>;

/**
 * A listed contract on its expiration's surface: the smile's volatility at its strike and the
 * carry of the expiration's forward over its own time to settlement (module comment); unvalued
 * (volatility null) when the surface has no forward or smile for it.
 */
export function onSurface(listed: ListedContract, expiration: ExpirationSmile | null, spot: number, rate: number): PositioningContract {
  const forward = expiration?.forward?.forward ?? null;
  return {
    ...listed,
    volatility: contractVolatility(expiration?.smile ?? null, forward, listed.strike),
    dividendYield: forward === null ? 0 : impliedDividendYield(spot, forward, rate, listed.time),
  };
}

/** Greeks of one contract at a spot (its own volatility, time and carry), null when it is not valued. */
export function contractGreeks(c: PositioningContract, spot: number, rate: number): Greeks | null {
  if (c.volatility === null || !(c.volatility > 0) || !(c.time > 0)) return null;
  return bsmGreeks({ type: c.type, spot, strike: c.strike, time: c.time, rate, dividendYield: c.dividendYield, volatility: c.volatility });
}

/** Every contract with its position under the model and its greeks at the valuation, in input order. */
export function valueContracts(
  contracts: readonly PositioningContract[],
  valuation: PositioningValuation,
  model: PositioningModelName,
): ValuedContract[] {
  return contracts.map((c) => ({
    ...c,
    position: dealerPosition(c.type, c.openInterest, model, c.flow ?? NO_FLOW),
    greeks: contractGreeks(c, valuation.spot, valuation.rate),
  }));
}
