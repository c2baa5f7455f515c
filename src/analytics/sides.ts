/**
 * The side vocabulary of a print, in one place: the contract's eight sides in its order, which of
 * them are the ask side (buys: above_ask, at_ask, near_ask) and which the bid side (sells: near_bid,
 * at_bid, below_bid), and the sentiment that follows. The classifier's grouping and is_unusual, the
 * side filters of the feeds and the premium drift's sums all read the groups from here. Types come
 * from the contract (generated/openapi.ts); directionOf is a switch because the ingest classifier
 * calls it several times per print.
 */
import type { components } from '../../generated/openapi.js';
import type { OptionType } from './pricing.js';

type Print = components['schemas']['OptionPrint'];
export type Side = Print['side'];
export type Sentiment = Print['sentiment'];

/** Every side, in the contract's order: from above the ask down to below the bid, then unknown. */
export const SIDES: readonly Side[] = ['above_ask', 'at_ask', 'near_ask', 'mid', 'near_bid', 'at_bid', 'below_bid', 'unknown'];

/** +1 for ask-side bands (buys), -1 for bid-side bands (sells), 0 otherwise. */
export function directionOf(side: Side): number {
  switch (side) {
    case 'above_ask':
    case 'at_ask':
    case 'near_ask':
      return 1;
    case 'near_bid':
    case 'at_bid':
    case 'below_bid':
      return -1;
    case 'mid':
    case 'unknown':
      return 0;
  }
}

/** The ask-side bands (buys), in the contract's order. */
export const ASK_SIDES: readonly Side[] = SIDES.filter((s) => directionOf(s) > 0);
/** The bid-side bands (sells), in the contract's order. */
export const BID_SIDES: readonly Side[] = SIDES.filter((s) => directionOf(s) < 0);

/** Calls bought or puts sold: bullish; puts bought or calls sold: bearish; mid neutral. */
export function sentimentOf(side: Side, type: OptionType): Sentiment {
  if (side === 'unknown') return 'unknown';
  const direction = directionOf(side);
  if (direction === 0) return 'neutral';
  return direction > 0 === (type === 'call') ? 'bullish' : 'bearish';
}
