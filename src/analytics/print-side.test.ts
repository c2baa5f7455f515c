import { describe, expect, it } from 'vitest';
import { placeAgainstQuote, sideOf, type QuoteInForce, type SidePlacement } from './print-side.js';
import type { Side } from './sides.js';

const T0 = Date.UTC(2024, 11, 19, 15, 0, 0);

function quote(bid: number | null, ask: number | null, timestamp = T0 - 100): QuoteInForce {
  return { bid, ask, timestamp };
}

describe('sideOf bands (bid 1.00, ask 1.20: mid 1.10, mid zone 1.08 to 1.12)', () => {
  const q = quote(1.0, 1.2);
  const at = (price: number): { side: Side; confidence: number } => sideOf(price, q, T0);

  it('classifies prices beyond the quote', () => {
    expect(at(1.25)).toEqual({ side: 'above_ask', confidence: 1 });
    expect(at(1.2001)).toEqual({ side: 'above_ask', confidence: 1 });
    expect(at(0.95)).toEqual({ side: 'below_bid', confidence: 1 });
    expect(at(0.9999)).toEqual({ side: 'below_bid', confidence: 1 });
  });

  it('classifies prices at the quote within the float tolerance', () => {
    expect(at(1.2)).toEqual({ side: 'at_ask', confidence: 1 });
    expect(at(1.20004)).toEqual({ side: 'at_ask', confidence: 1 });
    expect(at(1.19996)).toEqual({ side: 'at_ask', confidence: 1 });
    expect(at(0.1 + 0.2 + 0.9)).toEqual({ side: 'at_ask', confidence: 1 }); // 1.2000000000000002
    expect(at(1.0)).toEqual({ side: 'at_bid', confidence: 1 });
    expect(at(1.00004)).toEqual({ side: 'at_bid', confidence: 1 });
    expect(at(0.99996)).toEqual({ side: 'at_bid', confidence: 1 });
  });

  it('classifies prices inside the spread', () => {
    expect(at(1.1999).side).toBe('near_ask');
    expect(at(1.15).side).toBe('near_ask');
    expect(at(1.05).side).toBe('near_bid');
    expect(at(1.0001).side).toBe('near_bid');
  });

  it('puts the mid zone at ±10% of the spread around the mid, edges included', () => {
    expect(at(1.1)).toEqual({ side: 'mid', confidence: 0.5 });
    expect(at(1.12).side).toBe('mid');
    expect(at(1.08).side).toBe('mid');
    expect(at(1.1201).side).toBe('near_ask');
    expect(at(1.0799).side).toBe('near_bid');
  });

  it('scales near confidence from 0.6 at the mid zone to 0.9 at the quote', () => {
    expect(at(1.1201).confidence).toBeCloseTo(0.6, 3);
    expect(at(1.16).confidence).toBeCloseTo(0.75, 3);
    expect(at(1.04).confidence).toBeCloseTo(0.75, 3);
    expect(at(1.1999).confidence).toBeCloseTo(0.9, 3);
  });

  it('treats a locked quote as valid: at the price it is mid, beyond it above/below', () => {
    const locked = quote(1.0, 1.0);
    expect(sideOf(1.0, locked, T0)).toEqual({ side: 'mid', confidence: 0.5 });
    expect(sideOf(1.01, locked, T0).side).toBe('above_ask');
    expect(sideOf(0.99, locked, T0).side).toBe('below_bid');
    // Crossed by less than the tolerance is float noise on a locked quote.
    expect(sideOf(1.0, quote(1.00004, 1.0), T0).side).toBe('mid');
  });
});

describe('sideOf invalid quotes', () => {
  const unknown = { side: 'unknown', confidence: 0 };
  it.each<[string, QuoteInForce | null]>([
    ['missing', null],
    ['bid missing (one-sided)', quote(null, 1.2)],
    ['ask missing (one-sided)', quote(1.0, null)],
    ['zero bid', quote(0, 1.2)],
    ['zero ask', quote(1.0, 0)],
    ['negative bid', quote(-0.05, 1.2)],
    ['NaN bid', quote(NaN, 1.2)],
    ['infinite ask', quote(1.0, Infinity)],
    ['crossed', quote(1.2, 1.0)],
    ['timestamped after the print', quote(1.0, 1.2, T0 + 1)],
    ['stale (30,001 ms old)', quote(1.0, 1.2, T0 - 30_001)],
  ])('%s → unknown', (_label, q) => {
    expect(sideOf(1.2, q, T0)).toEqual(unknown);
  });

  it('keeps a fresh quote at full confidence and lowers it linearly to 0.5 at 30 s', () => {
    expect(sideOf(1.2, quote(1.0, 1.2, T0), T0).confidence).toBe(1);
    expect(sideOf(1.2, quote(1.0, 1.2, T0 - 1_000), T0).confidence).toBe(1);
    expect(sideOf(1.2, quote(1.0, 1.2, T0 - 15_500), T0).confidence).toBe(0.75);
    expect(sideOf(1.2, quote(1.0, 1.2, T0 - 30_000), T0)).toEqual({ side: 'at_ask', confidence: 0.5 });
  });
});

describe('placeAgainstQuote', () => {
  it('overwrites every field of the reused output, telling a valid quote from an invalid one', () => {
    const out: SidePlacement = { side: 'unknown', confidence: 0, quoteValid: false };
    placeAgainstQuote(1.15, quote(1.0, 1.2), T0, out);
    expect(out.side).toBe('near_ask');
    expect(out.quoteValid).toBe(true);
    expect(out.confidence).toBeCloseTo(0.7125, 12);
    placeAgainstQuote(1.15, quote(1.0, 1.2, T0 - 30_001), T0, out);
    expect(out).toEqual({ side: 'unknown', confidence: 0, quoteValid: false });
    placeAgainstQuote(1.1, quote(1.0, 1.2, T0 - 15_500), T0, out);
    expect(out).toEqual({ side: 'mid', confidence: 0.375, quoteValid: true });
  });
});
