/**
 * The modeled dealer position of a contract, in contracts (positive long, negative short). These
 * are assumptions, not observed positions; positioning_model names the one used and its version.
 *
 * - classic_oi/v1: dealers are long every call and short every put of the open interest (the
 *   customer writes calls and buys puts; Perfiliev, SqueezeMetrics "Gamma Exposure").
 * - flow_adjusted/v1: the classic position moved by the classified prints since the open interest
 *   date, i.e. of the trading dates after it up to the valuation instant (the open interest
 *   published for a date already counts that date's trades). A customer print on the ask side (above_ask, at_ask, near_ask: a customer buy) leaves the
 *   dealer short its size more; one on the bid side (near_bid, at_bid, below_bid: a customer sell)
 *   long its size more; mid and unknown prints change nothing (sides.ts directionOf). Complex
 *   (multi-leg) prints change nothing either: a leg is priced against the whole order's net, so its
 *   place against the leg's own quote says little about who bought that leg (print-fields.ts
 *   discounts their side confidence for the same reason), and a spread's legs would move the
 *   position in opposite directions on a guess. Opening and closing trades are not told apart.
 *
 * The customer perspective negates the values only: positions, and so the strikes every level
 * picks, stay the dealer's.
 */
import type { components } from '../../../generated/openapi.js';
import type { OptionType } from '../pricing.js';
import { directionOf, type Side } from '../sides.js';

export type PositioningModelName = components['schemas']['PositioningModelName'];
export type Perspective = components['schemas']['Perspective'];

/** positioning_model: the model's name and version (bumped whenever a figure it gives would change). */
export const POSITIONING_MODEL_VERSIONS: Readonly<Record<PositioningModelName, string>> = {
  classic_oi: 'classic_oi/v1',
  flow_adjusted: 'flow_adjusted/v1',
};

/** A classified print of a contract since the open interest date, as flow_adjusted reads it. */
export interface ClassifiedPrint {
  side: Side;
  /** Contracts. */
  size: number;
  /** The print is a leg of a complex (multi-leg) order (trade_type multileg, flag complex). */
  complex: boolean;
}

/** Customer contracts bought on the ask side and sold on the bid side (complex prints left out). */
export interface CustomerFlow {
  bought: number;
  sold: number;
}

export const NO_FLOW: CustomerFlow = { bought: 0, sold: 0 };

/** Sums a contract's prints into its customer flow (module comment). */
export function customerFlow(prints: readonly ClassifiedPrint[]): CustomerFlow {
  let bought = 0;
  let sold = 0;
  for (const p of prints) {
    if (p.complex) continue;
    const direction = directionOf(p.side);
    if (direction > 0) bought += p.size;
    else if (direction < 0) sold += p.size;
  }
  return { bought, sold };
}

/** Dealer contracts of one contract under the model: classic ±open interest, flow_adjusted moved by the flow. */
export function dealerPosition(type: OptionType, openInterest: number, model: PositioningModelName, flow: CustomerFlow = NO_FLOW): number {
  const classic = type === 'call' ? openInterest : -openInterest;
  switch (model) {
    case 'classic_oi':
      return classic;
    case 'flow_adjusted':
      return classic - flow.bought + flow.sold;
  }
}

/** +1 for the dealer, −1 for the customer (values negated, nothing else). */
export function perspectiveSign(perspective: Perspective): number {
  return perspective === 'dealer' ? 1 : -1;
}
