import { describe, expect, it } from 'vitest';
import { bsmPrice, type OptionType } from '../pricing.js';
import { carryNear, chainMinuteCarry, FORWARD_MAX_AGE_MS, MinuteCarries } from './minute-forward.js';
import type { ChainQuote } from './quotes.js';

const MINUTE = 60_000;
const T0 = Date.parse('2026-11-25T15:00:00Z');
const RATE = 0.036;

/** Both legs of strikes 95 to 105, priced at S = 100 with the carry q, quoted a cent either side of value. */
function chain(q: number, types: readonly OptionType[] = ['call', 'put']): ChainQuote[] {
  const out: ChainQuote[] = [];
  for (let strike = 95; strike <= 105; strike += 1)
    for (const type of types) {
      const value = bsmPrice({ type, spot: 100, strike, time: 0.05, rate: RATE, dividendYield: q, volatility: 0.2 });
      out.push({ strike, type, bid: value - 0.01, ask: value + 0.01 });
    }
  return out;
}

describe('chainMinuteCarry', () => {
  it('gives the carry the parity forward of the minute implies at the spot it is valued at', () => {
    expect(chainMinuteCarry(chain(0.052), { spot: 100, time: 0.05, rate: RATE })).toBeCloseTo(0.052, 9);
  });

  it('gives null without a spot, a positive time or a strike quoted on both legs', () => {
    expect(chainMinuteCarry(chain(0.02), { spot: null, time: 0.05, rate: RATE })).toBeNull();
    expect(chainMinuteCarry(chain(0.02), { spot: 100, time: 0, rate: RATE })).toBeNull();
    expect(chainMinuteCarry(chain(0.02, ['call']), { spot: 100, time: 0.05, rate: RATE })).toBeNull();
  });
});

describe('carryNear', () => {
  it('takes the nearest minute within the age, the earlier of two as near', () => {
    const carries = [
      { minute: T0, carry: 0.01 },
      { minute: T0 + 10 * MINUTE, carry: 0.02 },
    ];
    expect(carryNear(carries, T0 + 5 * MINUTE)).toBe(0.01);
    expect(carryNear(carries, T0 + 6 * MINUTE)).toBe(0.02);
    expect(carryNear(carries, T0 - FORWARD_MAX_AGE_MS)).toBe(0.01);
    expect(carryNear(carries, T0 - FORWARD_MAX_AGE_MS - MINUTE)).toBeNull();
  });
});

describe('MinuteCarries.carryInForce', () => {
  const quotes = new Map<number, ChainQuote[]>([
    [T0, chain(0.03)],
    [T0 + 10 * MINUTE, chain(0.04, ['call'])],
    [T0 + 20 * MINUTE, chain(0.05)],
  ]);
  const asked: number[] = [];
  const carries = new MinuteCarries(quotes, (minute) => {
    asked.push(minute);
    return { spot: 100, time: 0.05, rate: RATE };
  });

  it("takes its own minute's forward, else the latest earlier minute's with one, never a later one", () => {
    expect(carries.carryInForce(T0 + 20 * MINUTE + 59_999)).toBeCloseTo(0.05, 9);
    // 10 minutes in: that minute quotes only calls, so the forward of T0 is in force.
    expect(carries.carryInForce(T0 + 10 * MINUTE + 30_000)).toBeCloseTo(0.03, 9);
    expect(carries.carryInForce(T0 + 19 * MINUTE)).toBeCloseTo(0.03, 9);
    expect(carries.carryInForce(T0 - 1)).toBeNull();
  });

  it('takes none older than FORWARD_MAX_AGE_MS', () => {
    expect(carries.carryInForce(T0 + FORWARD_MAX_AGE_MS + 20 * MINUTE)).toBeCloseTo(0.05, 9);
    expect(carries.carryInForce(T0 + FORWARD_MAX_AGE_MS + 21 * MINUTE)).toBeNull();
  });

  it('solves each minute once', () => {
    carries.carryInForce(T0 + 5 * MINUTE);
    expect(asked.filter((m) => m === T0)).toHaveLength(1);
  });
});
