import { describe, expect, it } from 'vitest';
import { QUARTER_SMILE_CHAIN, sviChain, strikeRange } from '../analytics/volatility/chain.fixtures.js';
import { buildSurface, type SurfaceInput } from '../analytics/volatility/surface.js';
import { clearSurfaceMemo, memoizedSurface, SURFACE_MEMO_ENTRIES } from './surface-memo.js';

const input = (spot: number): SurfaceInput => {
  const spec = { ...QUARTER_SMILE_CHAIN, spot, strikes: strikeRange(80, 120, 2.5) };
  return { spot, rate: spec.rate, expirations: [{ time: spec.time, quotes: sviChain(spec) }] };
};

describe('the surface memo', () => {
  it('answers the same input with the same surface, built once, equal to a fresh build', () => {
    clearSurfaceMemo();
    const first = memoizedSurface(input(100));
    expect(memoizedSurface(input(100))).toBe(first);
    expect(first).toEqual(buildSurface(input(100)));
  });

  it('builds again for any change of the input', () => {
    clearSurfaceMemo();
    const a = memoizedSurface(input(100));
    const base = input(100);
    const quotes = base.expirations[0]!.quotes.map((q, i) => (i === 3 ? { ...q, bid: (q.bid ?? 0) + 0.01 } : q));
    const changed: SurfaceInput = { ...base, expirations: [{ ...base.expirations[0]!, quotes }] };
    const b = memoizedSurface(changed);
    expect(b).not.toBe(a);
    expect(b).toEqual(buildSurface(changed));
    expect(memoizedSurface({ ...input(100), rate: 0.05 })).not.toBe(a);
  });

  it('keeps only the most recently used entries', () => {
    clearSurfaceMemo();
    const kept = memoizedSurface(input(100));
    for (let i = 1; i < SURFACE_MEMO_ENTRIES; i++) memoizedSurface(input(100 + i / 100));
    // Using the oldest entry makes it the newest: the next insertion drops another.
    expect(memoizedSurface(input(100))).toBe(kept);
    memoizedSurface(input(99));
    expect(memoizedSurface(input(100))).toBe(kept);
    expect(memoizedSurface(input(100 + 1 / 100))).not.toBe(memoizedSurface(input(100 + 2 / 100)));
  });
});
