import { describe, expect, it } from 'vitest';
import { type ChainSpec, forwardOf, QUARTER_SMILE_CHAIN, strikeRange, sviChain } from './chain.fixtures.js';
import { impliedDividendYield, impliedForward, median } from './forward.js';
import { midPrice, type ChainQuote } from './quotes.js';

const spec: ChainSpec = {
  ...QUARTER_SMILE_CHAIN,
  strikes: strikeRange(80, 120, 2.5),
};

/** The Cboe single-strike rule: the strike where |C − P| is smallest. */
function singleStrikeForward(quotes: readonly ChainQuote[], rate: number, time: number): number {
  let best = { gap: Infinity, forward: NaN };
  for (const call of quotes.filter((q) => q.type === 'call')) {
    const put = quotes.find((q) => q.type === 'put' && q.strike === call.strike);
    const c = midPrice(call.bid, call.ask);
    const p = put ? midPrice(put.bid, put.ask) : null;
    if (c === null || p === null) continue;
    if (Math.abs(c - p) < best.gap) best = { gap: Math.abs(c - p), forward: call.strike + Math.exp(rate * time) * (c - p) };
  }
  return best.forward;
}

describe('impliedForward', () => {
  it('recovers the forward and the dividend yield from parity-consistent quotes', () => {
    const quotes = sviChain(spec);
    const estimate = impliedForward({ quotes, time: spec.time, rate: spec.rate, spot: spec.spot });
    expect(estimate).not.toBeNull();
    expect(Math.abs(estimate!.forward - forwardOf(spec))).toBeLessThan(1e-10);
    expect(Math.abs(estimate!.dividendYield! - spec.dividendYield)).toBeLessThan(1e-10);
    expect(estimate!.strikesUsed).toBe(8);
  });

  it('shrugs off one bad quote at the strike the single-strike rule picks', () => {
    const quotes = sviChain(spec);
    const F = forwardOf(spec);
    // Corrupt the call nearest the forward: its mid 0.60 too high, so |C − P| is still smallest there
    // and the single-strike forward moves by e^{rT}·0.60.
    const nearest = [...spec.strikes].sort((a, b) => Math.abs(a - F) - Math.abs(b - F))[0]!;
    const bad = quotes.map((q) => (q.type === 'call' && q.strike === nearest ? { ...q, bid: q.bid! + 0.6, ask: q.ask! + 0.6 } : q));
    expect(Math.abs(singleStrikeForward(bad, spec.rate, spec.time) - F)).toBeGreaterThan(0.5);
    const estimate = impliedForward({ quotes: bad, time: spec.time, rate: spec.rate, spot: spec.spot });
    expect(Math.abs(estimate!.forward - F)).toBeLessThan(1e-10);
  });

  it('ignores crossed, one-sided and zero-bid quotes', () => {
    const F = forwardOf(spec);
    const quotes = sviChain(spec).map((q) => {
      if (q.strike === 97.5 && q.type === 'call') return { ...q, bid: q.ask! + 1, ask: q.ask }; // crossed
      if (q.strike === 100 && q.type === 'put') return { ...q, bid: 0 }; // zero bid: no mid
      if (q.strike === 102.5 && q.type === 'put') return { ...q, ask: null };
      return q;
    });
    const estimate = impliedForward({ quotes, time: spec.time, rate: spec.rate, spot: null });
    expect(Math.abs(estimate!.forward - F)).toBeLessThan(1e-10);
    expect(estimate!.dividendYield).toBeNull();
  });

  it('is null without a strike quoted on both legs, or without time', () => {
    const calls = sviChain(spec).filter((q) => q.type === 'call');
    expect(impliedForward({ quotes: calls, time: spec.time, rate: spec.rate, spot: 100 })).toBeNull();
    expect(impliedForward({ quotes: sviChain(spec), time: 0, rate: spec.rate, spot: 100 })).toBeNull();
  });

  it('uses the Cboe parity formula F = K + e^{rT}(C − P): the VIX methodology near-term example', () => {
    // Cboe "VIX Index Methodology", forward of the near term: K = 1965, C = 21.05, P = 23.15,
    // R1 = 0.031664 % and T1 = 34,484/525,600; published F1 = 1962.89996 (to 5 decimals).
    const quotes: ChainQuote[] = [
      { strike: 1965, type: 'call', bid: 21.05, ask: 21.05 },
      { strike: 1965, type: 'put', bid: 23.15, ask: 23.15 },
    ];
    const estimate = impliedForward({ quotes, time: 34484 / 525600, rate: 0.00031664, spot: null });
    expect(Math.abs(estimate!.forward - 1962.89996)).toBeLessThan(5e-6);
  });
});

describe('median and impliedDividendYield', () => {
  it('take the middle value and invert F = S e^{(r−q)T}', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(impliedDividendYield(100, 100 * Math.exp((0.05 - 0.02) * 0.5), 0.05, 0.5)).toBeCloseTo(0.02, 14);
  });
});
