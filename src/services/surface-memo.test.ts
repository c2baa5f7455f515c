import { describe, expect, it } from 'vitest';
import { QUARTER_SMILE_CHAIN, sviChain, strikeRange } from '../analytics/volatility/chain.fixtures.js';
import { buildSurface, type SurfaceInput } from '../analytics/volatility/surface.js';
import { SurfaceMemo, SURFACE_MEMO_ENTRIES } from './surface-memo.js';

const input = (spot: number): SurfaceInput => {
  const spec = { ...QUARTER_SMILE_CHAIN, spot, strikes: strikeRange(80, 120, 2.5) };
  return { spot, rate: spec.rate, expirations: [{ time: spec.time, quotes: sviChain(spec) }] };
};

describe('the surface memo', () => {
  it('answers the same input with the same surface, built once, equal to a fresh build', () => {
    const memo = new SurfaceMemo();
    const first = memo.surfaceOf(input(100));
    expect(memo.surfaceOf(input(100))).toBe(first);
    expect(first).toEqual(buildSurface(input(100)));
  });

  it('builds again for any change of the input', () => {
    const memo = new SurfaceMemo();
    const a = memo.surfaceOf(input(100));
    const base = input(100);
    const quotes = base.expirations[0]!.quotes.map((q, i) => (i === 3 ? { ...q, bid: (q.bid ?? 0) + 0.01 } : q));
    const changed: SurfaceInput = { ...base, expirations: [{ ...base.expirations[0]!, quotes }] };
    const b = memo.surfaceOf(changed);
    expect(b).not.toBe(a);
    expect(b).toEqual(buildSurface(changed));
    expect(memo.surfaceOf({ ...input(100), rate: 0.05 })).not.toBe(a);
  });

  it('keeps only the most recently used entries', () => {
    const memo = new SurfaceMemo();
    const kept = memo.surfaceOf(input(100));
    for (let i = 1; i < SURFACE_MEMO_ENTRIES; i++) memo.surfaceOf(input(100 + i / 100));
    // Using the oldest entry makes it the newest: the next insertion drops another.
    expect(memo.surfaceOf(input(100))).toBe(kept);
    memo.surfaceOf(input(99));
    expect(memo.surfaceOf(input(100))).toBe(kept);
    expect(memo.surfaceOf(input(100 + 1 / 100))).not.toBe(memo.surfaceOf(input(100 + 2 / 100)));
  });

  it('is one per memo: another memo builds the same input again', () => {
    const a = new SurfaceMemo();
    const b = new SurfaceMemo();
    expect(b.surfaceOf(input(100))).not.toBe(a.surfaceOf(input(100)));
  });
});
