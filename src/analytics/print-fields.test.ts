import { describe, expect, it } from 'vitest';
import type { RawPrint } from './classification.js';
import { ctx, one, quote, raw, T0 } from './classification.fixtures.js';
import { conditionTraitMask } from './opra.js';
import { classifyPrint, newPrintScratch } from './print-fields.js';
import { contractKey } from './print-id.js';

function traitsOf(p: RawPrint): number {
  return p.extendedConditions.reduce((mask, code) => mask | conditionTraitMask(code), conditionTraitMask(p.conditionCode));
}

describe('classifyPrint', () => {
  it("takes day volume and days to expiry from the contract's day, and the id from the key given", () => {
    const p = raw({ sequence: 41, size: 7 });
    const r = classifyPrint(p, ctx({ openInterest: 100 }), { dayVolume: 107, daysToExpiry: 3 }, 'K', traitsOf(p), newPrintScratch());
    expect(r).toMatchObject({
      id: 'K:2024-12-19:41',
      contract_key: 'K',
      day_volume: 107,
      days_to_expiry: 3,
      flags: ['vol_gt_oi'],
      is_unusual: true,
    });
  });

  it('gives trade_type from the conditions alone, before grouping', () => {
    const tradeType = (conditionCode: number): string => {
      const p = raw({ conditionCode });
      return classifyPrint(p, ctx(), { dayVolume: 10, daysToExpiry: 1 }, 'K', traitsOf(p), newPrintScratch()).trade_type;
    };
    expect([209, 219, 234, 230, 231].map(tradeType)).toEqual(['single', 'single', 'multileg', 'cross', 'floor']);
  });

  it('leaves nothing of one print in the scratch objects for the next', () => {
    const scratch = newPrintScratch();
    const day = { dayVolume: 10, daysToExpiry: 1 };
    const p = raw({ aggressorSide: 'sell' });
    const first = classifyPrint(p, ctx(), day, 'K', traitsOf(p), scratch);
    expect(first).toMatchObject({ side: 'at_ask', side_confidence: 0.5, bid: 1.9, ask: 2.1 });
    expect(first.implied_volatility).not.toBeNull();
    const q = raw({ timestamp: T0 + 1 });
    const second = classifyPrint(q, ctx({ quote: null, underlyingPrice: null }), day, 'K', traitsOf(q), scratch);
    expect(second).toMatchObject({
      side: 'unknown',
      side_confidence: 0,
      bid: null,
      ask: null,
      implied_volatility: null,
      delta: null,
      flags: ['no_side'],
    });
  });

  it("gives a single print's output of the classifier", () => {
    for (const over of [
      {},
      { conditionCode: 232, price: 2.0 },
      { conditionCode: 227, size: 600, aggressorSide: 'buy' as const },
      { type: 'put' as const, strike: 5800 },
    ]) {
      const p = raw(over);
      const c = ctx({ quote: quote(1.9, 2.1, T0 - 5_000) });
      const expected = one(p, c);
      const key = contractKey(p);
      expect(classifyPrint(p, c, { dayVolume: p.size, daysToExpiry: 1 }, key, traitsOf(p), newPrintScratch())).toEqual(expected);
    }
  });
});
