import { describe, expect, it } from 'vitest';
import { newYorkTimeToMs } from '../new-york-time.js';
import { bsmPrice } from '../pricing.js';
import type { ChainQuote } from './quotes.js';
import {
  bracketExpirations,
  interpolatedVariance,
  interpolationWeights,
  MINUTES_PER_YEAR,
  parseTenor,
  strikeIntervals,
  TENOR_MINUTES,
  termVariance,
  varianceIndex,
  varianceTermStructure,
  wallClockMinutes,
  type TermVariance,
  type VarianceExpiration,
} from './variance-index.js';
import { stripPrices, VIX_EXAMPLE, VIX_EXAMPLE_2014, VIX_EXAMPLE_WIDE_INTERVALS, vixExampleQuotes } from './vix-example.fixtures.js';

const MINUTE = 60_000;
/** A valuation instant away from any daylight-saving change, so wall-clock and elapsed minutes agree. */
const VALUED_AT = newYorkTimeToMs('2022-09-27', '10:45');

function expiration(id: string, minutes: number, rate: number, quotes: readonly ChainQuote[]): VarianceExpiration {
  return { id, settlesAt: VALUED_AT + minutes * MINUTE, rate, quotes };
}

function ok(result: ReturnType<typeof termVariance>): TermVariance {
  if (!result.ok) throw new Error(`${result.reason}: ${result.detail}`);
  return result;
}

const exampleTerm = (term: 'near' | 'next'): VarianceExpiration =>
  expiration(term, VIX_EXAMPLE[term].minutes, VIX_EXAMPLE[term].rate, vixExampleQuotes(term));

describe('the worked example of Cboe VIX methodology (vix-example.fixtures.ts)', () => {
  for (const term of ['near', 'next'] as const) {
    const printed = VIX_EXAMPLE[term];
    it(`reproduces the ${term} term: F, K0, every strike's Q and ΔK, the sum, the forward term and σ²`, () => {
      const got = ok(termVariance(exampleTerm(term), VALUED_AT));
      expect(got.minutes).toBe(printed.minutes);
      expect(got.time).toBeCloseTo(printed.time, 7);
      expect(got.forward).toBeCloseTo(printed.forward, 5);
      expect(got.k0).toBe(printed.k0);
      const strip = stripPrices(term);
      expect(got.strikes.map((s) => s.strike)).toEqual([...strip.keys()]);
      for (const s of got.strikes) {
        expect(s.price, `Q(${s.strike})`).toBeCloseTo(strip.get(s.strike)!, 12);
        expect(s.deltaK, `ΔK(${s.strike})`).toBe(VIX_EXAMPLE_WIDE_INTERVALS[term].get(s.strike) ?? 5);
        const side = s.strike < printed.k0 ? 'put' : s.strike > printed.k0 ? 'call' : 'put_call_average';
        expect(s.option).toBe(side);
      }
      // Printed to 10, 6, 8 and 9 decimals respectively.
      expect(Math.abs(got.sum - printed.sum)).toBeLessThan(5e-11);
      expect(Math.round((2 / got.time) * got.sum * 1e6) / 1e6).toBe(printed.scaledSum);
      expect(Math.abs(got.forwardTerm - printed.forwardTerm)).toBeLessThan(5e-9);
      expect(Math.abs(got.variance - printed.variance)).toBeLessThan(5e-10);
      expect(got.putWalkStoppedAt).toBe(printed.putStop);
      expect(got.callWalkStoppedAt).toBe(printed.callStop);
      expect(got.strikes[0]!.strike).toBe(printed.lowest);
      expect(got.strikes.at(-1)!.strike).toBe(printed.highest);
    });
  }

  it('skips the lone zero bids inside the near strip (1405, 1415 puts; 2120 call) without stopping', () => {
    const got = ok(termVariance(exampleTerm('near'), VALUED_AT));
    expect(got.skipped).toEqual([
      { strike: 1365, type: 'put' },
      { strike: 1405, type: 'put' },
      { strike: 1415, type: 'put' },
      { strike: 2120, type: 'call' },
      { strike: 2150, type: 'call' },
    ]);
    // The 1350 and 1355 puts and the 2225 call have bids but lie beyond the stop.
    for (const k of [1350, 1355, 2225]) expect(got.strikes.some((s) => s.strike === k)).toBe(false);
  });

  it('gives the printed 30-day index, 13.93', () => {
    const index = varianceIndex({
      valuedAt: VALUED_AT,
      tenorMinutes: TENOR_MINUTES['30d'],
      expirations: [exampleTerm('next'), exampleTerm('near')],
    });
    if (!index.ok) throw new Error(index.detail);
    expect(index.method).toBe('bracket');
    expect(index.near!.id).toBe('near');
    expect(index.next.id).toBe('next');
    expect(index.weights.near).toBeCloseTo((44_954 - 43_200) / (44_954 - 34_484), 15);
    expect(Math.round(index.value * 100) / 100).toBe(VIX_EXAMPLE.value);
    // From the printed σ² alone, the same interpolation.
    const fromPrinted = interpolatedVariance(
      { minutes: 34_484, variance: VIX_EXAMPLE.near.variance },
      { minutes: 44_954, variance: VIX_EXAMPLE.next.variance },
      43_200,
    );
    expect(Math.abs(index.variance - fromPrinted)).toBeLessThan(1e-9);
  });
});

describe('the 2014 edition of the white paper: the same quotes, AM and PM settlement instants', () => {
  // 9:46 a.m. CT is 10:46 ET; the near term settles at the 09:30 ET open 25 days later, the next
  // term at the 16:00 ET close 32 days later. The edition names no dates: these put both on a Friday,
  // and the period crosses the end of daylight saving (2 November 2014), which the white paper's
  // count of 1,440 minutes a day ignores, as wallClockMinutes does.
  const valuedAt = newYorkTimeToMs('2014-10-20', '10:46');
  const near: VarianceExpiration = {
    id: 'SPX AM',
    settlesAt: newYorkTimeToMs('2014-11-14', '09:30'),
    rate: VIX_EXAMPLE_2014.near.rate,
    quotes: vixExampleQuotes('near'),
  };
  const next: VarianceExpiration = {
    id: 'SPXW PM',
    settlesAt: newYorkTimeToMs('2014-11-21', '16:00'),
    rate: VIX_EXAMPLE_2014.next.rate,
    quotes: vixExampleQuotes('next'),
  };

  it('counts the printed minutes from the settlement instants and reproduces T, the forward term, σ² and the index', () => {
    const index = varianceIndex({ valuedAt, tenorMinutes: TENOR_MINUTES['30d'], expirations: [near, next] });
    if (!index.ok) throw new Error(index.detail);
    for (const [got, printed] of [
      [index.near!, VIX_EXAMPLE_2014.near],
      [index.next, VIX_EXAMPLE_2014.next],
    ] as const) {
      expect(got.minutes).toBe(printed.minutes);
      expect(got.time).toBeCloseTo(printed.time, 7);
      // Printed to 8 decimals.
      expect(Math.abs(got.forwardTerm - printed.forwardTerm)).toBeLessThan(5e-9);
      expect(Math.abs(got.variance - printed.variance)).toBeLessThan(5e-9);
    }
    expect(Math.abs(index.value - VIX_EXAMPLE_2014.value)).toBeLessThan(5e-7);
  });
});

/**
 * An independent direct summation: the method written out as plain loops over a small chain, sharing
 * no code with the module. Strikes unevenly spaced, a lone zero bid on each side, a stopping pair on
 * the put side, and a quote with a bid beyond that stop.
 */
const SMALL_CHAIN: readonly ChainQuote[] = [
  // strike, type, bid, ask
  ...(
    [
      [60, 0.05, 0.15, 40.1, 40.9],
      [65, 0, 0.1, 35.2, 36],
      [70, 0, 0.15, 30.3, 31.1],
      [75, 0.1, 0.3, 25.6, 26.2],
      [80, 0.3, 0.5, 20.8, 21.4],
      [85, 0, 0.6, 16.1, 16.7],
      [90, 1.1, 1.4, 11.6, 12.1],
      [97.5, 2.9, 3.3, 5.9, 6.3],
      [100, 3.9, 4.3, 4.4, 4.8],
      [102.5, 5.3, 5.7, 3.2, 3.5],
      [110, 10.6, 11.4, 0.9, 1.2],
      [120, 19.5, 20.5, 0, 0.2],
      [125, 24.4, 25.6, 0.05, 0.15],
      [140, 39.4, 40.6, 0.01, 0.05],
    ] as const
  ).flatMap(([strike, pb, pa, cb, ca]): ChainQuote[] => [
    { strike, type: 'put', bid: pb, ask: pa },
    { strike, type: 'call', bid: cb, ask: ca },
  ]),
];

function directSummation(quotes: readonly ChainQuote[], minutes: number, rate: number): { forward: number; k0: number; variance: number } {
  const T = minutes / 525_600;
  const mid = (q: ChainQuote | undefined): number | null =>
    q && q.bid !== null && q.ask !== null && q.bid > 0 && q.ask >= q.bid ? (q.bid + q.ask) / 2 : null;
  const strikes = [...new Set(quotes.map((q) => q.strike))].sort((a, b) => a - b);
  const find = (k: number, type: string) => quotes.find((q) => q.strike === k && q.type === type);
  let best = Infinity;
  let forward = NaN;
  for (const k of strikes) {
    const c = mid(find(k, 'call'));
    const p = mid(find(k, 'put'));
    if (c !== null && p !== null && Math.abs(c - p) < best) {
      best = Math.abs(c - p);
      forward = k + Math.exp(rate * T) * (c - p);
    }
  }
  let k0 = NaN;
  for (const k of strikes) if (k <= forward) k0 = k;
  const used: [number, number][] = [];
  let zeros = 0;
  for (let i = strikes.indexOf(k0) - 1; i >= 0 && zeros < 2; i--) {
    const p = mid(find(strikes[i]!, 'put'));
    if (p === null) zeros++;
    else {
      zeros = 0;
      used.unshift([strikes[i]!, p]);
    }
  }
  used.push([k0, (mid(find(k0, 'call'))! + mid(find(k0, 'put'))!) / 2]);
  zeros = 0;
  for (let i = strikes.indexOf(k0) + 1; i < strikes.length && zeros < 2; i++) {
    const c = mid(find(strikes[i]!, 'call'));
    if (c === null) zeros++;
    else {
      zeros = 0;
      used.push([strikes[i]!, c]);
    }
  }
  let total = 0;
  for (let i = 0; i < used.length; i++) {
    const [k, q] = used[i]!;
    const lower = i === 0 ? k : used[i - 1]![0];
    const upper = i === used.length - 1 ? k : used[i + 1]![0];
    const dK = i === 0 || i === used.length - 1 ? upper - lower : (upper - lower) / 2;
    total += (dK / (k * k)) * Math.exp(rate * T) * q;
  }
  return { forward, k0, variance: (2 / T) * total - (1 / T) * (forward / k0 - 1) ** 2 };
}

describe('termVariance against a direct summation written in the test', () => {
  it('agrees to 1e-12 on a small uneven chain with zero bids', () => {
    const minutes = 20_000;
    const rate = 0.045;
    const direct = directSummation(SMALL_CHAIN, minutes, rate);
    const got = ok(termVariance(expiration('small', minutes, rate, SMALL_CHAIN), VALUED_AT));
    expect(got.forward).toBeCloseTo(direct.forward, 12);
    expect(got.k0).toBe(direct.k0);
    expect(Math.abs(got.variance - direct.variance)).toBeLessThan(1e-12);
    // The chain exercises the rules: K0 = 100 below F ≈ 100.4; 85 and 120 lone zero bids skipped,
    // 70 and 65 stop the put walk so 60 (which has a bid) is not used.
    expect(got.k0).toBe(100);
    expect(got.forward).toBeGreaterThan(100);
    expect(got.strikes.map((s) => s.strike)).toEqual([75, 80, 90, 97.5, 100, 102.5, 110, 125, 140]);
    expect(got.putWalkStoppedAt).toBe(65);
    expect(got.callWalkStoppedAt).toBeNull();
  });
});

describe('the rules of the strike walk', () => {
  const base = SMALL_CHAIN;
  const withQuote = (strike: number, type: 'call' | 'put', bid: number, ask: number) =>
    base.map((q) => (q.strike === strike && q.type === type ? { ...q, bid, ask } : q));
  const strikesOf = (quotes: readonly ChainQuote[]) =>
    ok(termVariance(expiration('e', 20_000, 0.045, quotes), VALUED_AT)).strikes.map((s) => s.strike);

  it('stops after two consecutive zero bids, and only then', () => {
    expect(strikesOf(base)).not.toContain(60);
    // A bid at 65 breaks the pair: 70 is now a lone zero bid, and 65 and 60 are used.
    expect(strikesOf(withQuote(65, 'put', 0.05, 0.1))).toEqual([60, 65, 75, 80, 90, 97.5, 100, 102.5, 110, 125, 140]);
    // Two zero bids above K0 stop the calls: 110 used, 120 and 125 zero, 140 not used.
    expect(strikesOf(withQuote(125, 'call', 0, 0.15))).toEqual([75, 80, 90, 97.5, 100, 102.5, 110]);
  });

  it('skips a single zero bid and widens ΔK across it', () => {
    const got = ok(termVariance(expiration('e', 20_000, 0.045, base), VALUED_AT));
    const at = (k: number) => got.strikes.find((s) => s.strike === k)!;
    expect(got.skipped).toContainEqual({ strike: 85, type: 'put' });
    expect(at(80).deltaK).toBe((90 - 75) / 2);
    expect(at(90).deltaK).toBe((97.5 - 80) / 2);
    expect(at(110).deltaK).toBe((125 - 102.5) / 2);
  });

  it('takes K0 at the strike below F, and at F itself when F is a strike', () => {
    const got = ok(termVariance(expiration('e', 20_000, 0.045, base), VALUED_AT));
    expect(got.forward).toBeGreaterThan(100);
    expect(got.forward).toBeLessThan(102.5);
    expect(got.k0).toBe(100);
    // Zero rate and C = P at 102.5: F = 102.5 exactly, so K0 = 102.5 and the forward term vanishes.
    const atStrike = withQuote(102.5, 'call', 3.2, 3.5).map((q) =>
      q.strike === 102.5 && q.type === 'put' ? { ...q, bid: 3.2, ask: 3.5 } : q,
    );
    const exact = ok(termVariance(expiration('e', 20_000, 0, atStrike), VALUED_AT));
    expect(exact.forward).toBe(102.5);
    expect(exact.k0).toBe(102.5);
    expect(exact.forwardTerm).toBe(0);
  });

  it('prices K0 at the average of its call and put mids', () => {
    const got = ok(termVariance(expiration('e', 20_000, 0.045, base), VALUED_AT));
    const k0 = got.strikes.find((s) => s.strike === 100)!;
    expect(k0.option).toBe('put_call_average');
    expect(k0.price).toBeCloseTo(((3.9 + 4.3) / 2 + (4.4 + 4.8) / 2) / 2, 15);
    // Moving only the K0 call moves only the K0 contribution.
    const bumped = ok(termVariance(expiration('e', 20_000, 0.045, withQuote(100, 'call', 5.4, 5.8)), VALUED_AT));
    expect(bumped.strikes.find((s) => s.strike === 100)!.price - k0.price).toBeCloseTo(0.5, 12);
  });

  it('takes ΔK one-sided at the ends and half the neighbours apart inside', () => {
    expect(strikeIntervals([90, 100, 130])).toEqual([10, 20, 30]);
    expect(strikeIntervals([70, 85, 95, 100, 110, 130])).toEqual([15, 12.5, 7.5, 7.5, 15, 20]);
    const got = ok(termVariance(expiration('e', 20_000, 0.045, base), VALUED_AT));
    expect(got.strikes[0]!.deltaK).toBe(80 - 75);
    expect(got.strikes.at(-1)!.deltaK).toBe(140 - 125);
  });

  it('refuses with a reason: an empty wing, an unpriced K0, a chain without parity', () => {
    const noPuts = base.map((q) => (q.type === 'put' && q.strike < 100 ? { ...q, bid: 0 } : q));
    expect(termVariance(expiration('e', 20_000, 0.045, noPuts), VALUED_AT)).toMatchObject({ ok: false, reason: 'empty_wing' });
    const noK0Call = base.filter((q) => !(q.strike === 100 && q.type === 'call'));
    expect(termVariance(expiration('e', 20_000, 0.045, noK0Call), VALUED_AT)).toMatchObject({ ok: false, reason: 'k0_unpriced' });
    const callsOnly = base.filter((q) => q.type === 'call');
    expect(termVariance(expiration('e', 20_000, 0.045, callsOnly), VALUED_AT)).toMatchObject({ ok: false, reason: 'no_parity_strike' });
    expect(termVariance(expiration('e', 0, 0.045, base), VALUED_AT)).toMatchObject({ ok: false, reason: 'settled' });
  });
});

describe('interpolation in minutes', () => {
  it('puts the whole weight on a term the tenor equals', () => {
    expect(interpolationWeights(30_000, 50_000, 30_000)).toEqual({ near: 1, next: 0 });
    expect(interpolationWeights(30_000, 50_000, 50_000)).toEqual({ near: 0, next: 1 });
    expect(interpolationWeights(34_484, 44_954, 43_200).near + interpolationWeights(34_484, 44_954, 43_200).next).toBeCloseTo(1, 15);
    // At the tenor equal to T1 or T2, the index is that term's own σ².
    const near = { minutes: 30_000, variance: 0.04 };
    const next = { minutes: 50_000, variance: 0.09 };
    expect(interpolatedVariance(near, next, 30_000)).toBeCloseTo(0.04, 15);
    expect(interpolatedVariance(near, next, 50_000)).toBeCloseTo(0.09, 15);
    // Between them total variance is linear in minutes.
    expect(interpolatedVariance(near, next, 40_000) * 40_000).toBeCloseTo((0.04 * 30_000 + 0.09 * 50_000) / 2, 9);
  });

  it('holds the nearest term flat when nothing settles before the tenor', () => {
    expect(interpolatedVariance(null, { minutes: 4_000, variance: 0.05 }, 1_440)).toBeCloseTo(0.05, 15);
  });
});

describe('selection of the expirations and the clock', () => {
  const quotes = SMALL_CHAIN;
  const weekly = [3, 10, 17, 24, 31, 38].map((d) => expiration(`${d}d`, d * 1_440 + 330, 0.04, quotes));

  it('brackets the tenor with the latest expiration before it and the first at or after it', () => {
    const thirty = bracketExpirations(VALUED_AT, TENOR_MINUTES['30d'], weekly);
    expect([thirty.near!.id, thirty.next!.id]).toEqual(['24d', '31d']);
    const nine = bracketExpirations(VALUED_AT, TENOR_MINUTES['9d'], weekly);
    expect([nine.near!.id, nine.next!.id]).toEqual(['3d', '10d']);
    // An expiration exactly at the tenor is the next term, and takes the whole weight.
    const atTenor = [...weekly, expiration('30d', TENOR_MINUTES['30d'], 0.04, quotes)];
    const index = varianceIndex({ valuedAt: VALUED_AT, tenorMinutes: TENOR_MINUTES['30d'], expirations: atTenor });
    if (!index.ok) throw new Error(index.detail);
    expect([index.near!.id, index.next.id]).toEqual(['24d', '30d']);
    expect(index.weights).toEqual({ near: 0, next: 1 });
    expect(index.value).toBeCloseTo(index.next.value, 12);
    // A minimum time leaves out a near term too close to settlement.
    expect(bracketExpirations(VALUED_AT, TENOR_MINUTES['9d'], weekly, 5 * 1_440).near).toBeNull();
  });

  it('uses the nearest term alone below the first expiration, and refuses beyond the last', () => {
    const oneDay = varianceIndex({ valuedAt: VALUED_AT, tenorMinutes: TENOR_MINUTES['1d'], expirations: weekly });
    if (!oneDay.ok) throw new Error(oneDay.detail);
    expect(oneDay.method).toBe('nearest_term');
    expect(oneDay.near).toBeNull();
    expect(oneDay.next.id).toBe('3d');
    expect(oneDay.variance).toBeCloseTo(oneDay.next.variance, 15);
    expect(varianceIndex({ valuedAt: VALUED_AT, tenorMinutes: 60 * 1_440, expirations: weekly })).toMatchObject({
      ok: false,
      reason: 'no_expiration_beyond_tenor',
    });
  });

  it('counts minutes to the settlement instant given: AM 09:30 and PM 16:00 of one date differ by 390', () => {
    const valued = newYorkTimeToMs('2026-11-10', '10:15');
    const am = wallClockMinutes(valued, newYorkTimeToMs('2026-12-18', '09:30'));
    const pm = wallClockMinutes(valued, newYorkTimeToMs('2026-12-18', '16:00'));
    expect(pm - am).toBe(390);
    // M_current (13:45 left) + M_other (37 days) + M_settlement (9:30).
    expect(am).toBe(825 + 37 * 1_440 + 570);
  });

  it('counts wall-clock minutes across a daylight-saving change, as the white paper sums day minutes', () => {
    const valued = newYorkTimeToMs('2026-03-06', '10:00');
    const settles = newYorkTimeToMs('2026-03-13', '16:00');
    expect(wallClockMinutes(valued, settles)).toBe(7 * 1_440 + 360);
    expect((settles - valued) / MINUTE).toBe(7 * 1_440 + 360 - 60);
  });

  it('reads tenors in days or minutes', () => {
    expect(parseTenor('30d')).toBe(43_200);
    expect(parseTenor('9d')).toBe(12_960);
    expect(parseTenor('1d')).toBe(1_440);
    expect(parseTenor('90m')).toBe(90);
    for (const bad of ['0d', '-1d', '1.5d', '30', 'd', '30y']) expect(parseTenor(bad)).toBeNull();
  });

  it('gives a term structure of each expiration’s own value, nearest first, with reasons for the rest', () => {
    const broken = expiration(
      'broken',
      20 * 1_440,
      0.04,
      quotes.filter((q) => q.type === 'call'),
    );
    const settled = expiration('settled', -10, 0.04, quotes);
    const points = varianceTermStructure(VALUED_AT, [weekly[2]!, broken, weekly[0]!, settled]);
    expect(points.map((p) => p.id)).toEqual(['3d', '17d', 'broken']);
    const first = points[0]!;
    expect(first.ok && first.value).toBeCloseTo(100 * Math.sqrt(ok(termVariance(weekly[0]!, VALUED_AT)).variance), 12);
    expect(points[2]).toMatchObject({ ok: false, reason: 'no_parity_strike' });
  });
});

describe('a flat-volatility Black–Scholes chain', () => {
  /**
   * With one volatility at every strike, the model-free variance is σ² exactly for a continuum of
   * strikes; the discrete sum differs by the strike spacing (a midpoint rule on a smooth integrand,
   * error O(ΔK²)), by K0 ≠ F (the (F/K0 − 1)² term removes the first-order part), and by the tails
   * cut where prices fall below a 0.01 tick (a zero bid; here the 24-day strip runs 88.5 to 114).
   * On a 0.5-wide grid of a 100 underlying the 30-day index measured 19.989 (20.03 on a 1-wide grid,
   * 20.30 on 2.5, 21.2 on 5: the spacing error grows as ΔK², the tail cut pulls the other way). The
   * test asserts 0.05 points, ten times tighter than half a vol point.
   */
  function bsChain(sigma: number, minutes: number, rate: number, dividendYield: number): ChainQuote[] {
    const time = minutes / MINUTES_PER_YEAR;
    const quotes: ChainQuote[] = [];
    for (let k = 40; k <= 250; k += 0.5) {
      for (const type of ['call', 'put'] as const) {
        const price = bsmPrice({ type, spot: 100, strike: k, time, rate, dividendYield, volatility: sigma });
        // Quoted a cent wide around the model price; below a cent the bid is zero.
        const bid = price >= 0.01 ? price - 0.005 : 0;
        quotes.push({ strike: k, type, bid, ask: price + 0.005 });
      }
    }
    return quotes;
  }

  it('gives an index within 0.05 vol points of 100σ at 30 days (σ = 0.2), by bracketing and at each term', () => {
    const near = expiration('24d', 24 * 1_440, 0.04, bsChain(0.2, 24 * 1_440, 0.04, 0.013));
    const next = expiration('31d', 31 * 1_440, 0.04, bsChain(0.2, 31 * 1_440, 0.04, 0.013));
    const index = varianceIndex({ valuedAt: VALUED_AT, tenorMinutes: TENOR_MINUTES['30d'], expirations: [near, next] });
    if (!index.ok) throw new Error(index.detail);
    expect(Math.abs(index.value - 20)).toBeLessThan(0.05);
    expect(Math.abs(index.near!.value - 20)).toBeLessThan(0.05);
    expect(Math.abs(index.next.value - 20)).toBeLessThan(0.05);
    // The forward is parity's: S·e^{(r−q)T} to within the quotes' rounding.
    expect(Math.abs(index.next.forward - 100 * Math.exp((0.04 - 0.013) * index.next.time))).toBeLessThan(1e-9);
  });

  it('tracks σ at other levels and at a short tenor (σ = 0.4 at 9 days)', () => {
    const a = expiration('7d', 7 * 1_440, 0.04, bsChain(0.4, 7 * 1_440, 0.04, 0.013));
    const b = expiration('14d', 14 * 1_440, 0.04, bsChain(0.4, 14 * 1_440, 0.04, 0.013));
    const index = varianceIndex({ valuedAt: VALUED_AT, tenorMinutes: TENOR_MINUTES['9d'], expirations: [a, b] });
    if (!index.ok) throw new Error(index.detail);
    expect(Math.abs(index.value - 40)).toBeLessThan(0.05);
  });
});
