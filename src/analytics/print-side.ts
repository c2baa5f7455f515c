/**
 * Where a print's price lies against the consolidated NBBO in force: its side band and the base of
 * its side_confidence. placeAgainstQuote writes into an object its caller reuses, because the ingest
 * classifier places every print of a day and must not allocate for it; sideOf is the same rule for
 * everyone else. Prices are compared with a tolerance so that binary floating point never splits
 * equal prices. The classifier's own adjustments (complex prints, vendor hints) are in
 * classification.ts.
 */
import type { Side } from './sides.js';

/** Price tolerance in USD: half of OPRA's finest price increment of 0.0001. */
export const PRICE_EPSILON = 0.00005;
/** The mid zone is ±10% of the spread around the mid: its middle 20%. */
export const MID_ZONE_FRACTION = 0.1;
/**
 * A quote stays in force until replaced, so age alone does not prove it wrong, but options market
 * makers requote on every move of the underlying, so a quote more than a second old usually means
 * quote updates were missed: from FRESH_QUOTE_MS to STALE_QUOTE_MS the confidence falls linearly
 * from 1 to STALE_CONFIDENCE_FLOOR; an older quote is invalid.
 */
export const FRESH_QUOTE_MS = 1_000;
export const STALE_QUOTE_MS = 30_000;
export const STALE_CONFIDENCE_FLOOR = 0.5;

const AT_QUOTE_CONFIDENCE = 1;
const NEAR_CONFIDENCE_MIN = 0.6;
const NEAR_CONFIDENCE_MAX = 0.9;
const MID_CONFIDENCE = 0.5;

/** Consolidated NBBO in force at the print. */
export interface QuoteInForce {
  bid: number | null;
  ask: number | null;
  /** Unix ms of the quote update. */
  timestamp: number;
}

/** Output of placeAgainstQuote, reused from print to print by its caller. */
export interface SidePlacement {
  side: Side;
  confidence: number;
  quoteValid: boolean;
}

/**
 * Writes the band and base confidence of a price against the quote into `out`.
 *
 * The quote is invalid (side unknown, confidence 0, quoteValid false) when it is missing or
 * one-sided; zero, negative or not finite on either side (OPRA disseminates a zero bid for "no
 * bid"); crossed (bid above ask by more than PRICE_EPSILON); timestamped after the print; or older
 * than STALE_QUOTE_MS. A locked quote (bid equal to ask) is valid.
 *
 * Bands, with bid B, ask A, spread s = A - B, mid M = (A + B) / 2 and price P, each comparison
 * within PRICE_EPSILON: above_ask P > A; below_bid P < B; a locked quote with P = A = B is mid
 * (neither side can be told); at_ask P = A; at_bid P = B; mid |P - M| <= MID_ZONE_FRACTION x s;
 * near_ask / near_bid inside the spread, above / below the mid zone. Base confidence: 1 at or beyond
 * the quote; near_* rising linearly from 0.6 at the edge of the mid zone to 0.9 next to the quote;
 * mid 0.5; times the quote-age factor.
 */
export function placeAgainstQuote(price: number, quote: QuoteInForce | null, printTimestamp: number, out: SidePlacement): void {
  out.side = 'unknown';
  out.confidence = 0;
  out.quoteValid = false;
  if (quote === null) return;
  const bid = quote.bid;
  const ask = quote.ask;
  if (bid === null || ask === null) return;
  // `!(x > 0)` also rejects NaN.
  if (!(bid > 0) || !(ask > 0) || bid === Infinity || ask === Infinity) return;
  if (bid > ask + PRICE_EPSILON) return;
  const age = printTimestamp - quote.timestamp;
  if (!(age >= 0) || age > STALE_QUOTE_MS) return;
  out.quoteValid = true;

  const ageFactor =
    age <= FRESH_QUOTE_MS ? 1 : 1 - ((1 - STALE_CONFIDENCE_FLOOR) * (age - FRESH_QUOTE_MS)) / (STALE_QUOTE_MS - FRESH_QUOTE_MS);
  const spread = ask - bid;
  let side: Side;
  let confidence: number;
  if (price > ask + PRICE_EPSILON) {
    side = 'above_ask';
    confidence = AT_QUOTE_CONFIDENCE;
  } else if (price < bid - PRICE_EPSILON) {
    side = 'below_bid';
    confidence = AT_QUOTE_CONFIDENCE;
  } else if (spread <= PRICE_EPSILON) {
    side = 'mid';
    confidence = MID_CONFIDENCE;
  } else if (price >= ask - PRICE_EPSILON) {
    side = 'at_ask';
    confidence = AT_QUOTE_CONFIDENCE;
  } else if (price <= bid + PRICE_EPSILON) {
    side = 'at_bid';
    confidence = AT_QUOTE_CONFIDENCE;
  } else {
    const halfZone = MID_ZONE_FRACTION * spread;
    const offset = price - (bid + ask) / 2;
    const distance = offset < 0 ? -offset : offset;
    if (distance <= halfZone + PRICE_EPSILON) {
      side = 'mid';
      confidence = MID_CONFIDENCE;
    } else {
      side = offset > 0 ? 'near_ask' : 'near_bid';
      let reach = (distance - halfZone) / (spread / 2 - halfZone);
      if (reach > 1) reach = 1;
      confidence = NEAR_CONFIDENCE_MIN + (NEAR_CONFIDENCE_MAX - NEAR_CONFIDENCE_MIN) * reach;
    }
  }
  out.side = side;
  out.confidence = confidence * ageFactor;
}

/**
 * Side of a price against the quote in force, with its confidence rounded to 3 decimals.
 * Complex-order and vendor-hint adjustments are the classifier's.
 */
export function sideOf(price: number, quote: QuoteInForce | null, printTimestamp: number): { side: Side; confidence: number } {
  const out: SidePlacement = { side: 'unknown', confidence: 0, quoteValid: false };
  placeAgainstQuote(price, quote, printTimestamp, out);
  return { side: out.side, confidence: Math.round(out.confidence * 1000) / 1000 };
}
