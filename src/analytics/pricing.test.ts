import { describe, expect, it } from 'vitest';
import { approximateInverseNormCdf, bsmGreeks, bsmPrice, normCdf, normPdf, type BsmInput, type OptionType } from './pricing.js';
import { blackImpliedVolatility, impliedVolatility } from './implied-volatility.js';

function relErr(got: number, want: number): number {
  return Math.abs(got - want) / Math.abs(want);
}

describe('normCdf / normPdf', () => {
  it('matches the reference values quoted in the brief', () => {
    expect(relErr(normCdf(-10), 7.619853024160527e-24)).toBeLessThan(1e-15);
    expect(relErr(normCdf(-5), 2.866515718791939e-7)).toBeLessThan(1e-15);
    expect(relErr(normCdf(1.96), 0.9750021048517795)).toBeLessThan(1e-15);
  });

  it('keeps ~1e-15 relative accuracy across the line, deep tails included', () => {
    // Reference values computed with mpmath 1.3 (ncdf) at 40 significant digits, rounded to 17.
    const table: [number, number][] = [
      [-37.5, 4.6053530095819548e-308],
      [-30, 4.9067139271481871e-198],
      [-20, 2.7536241186062337e-89],
      [-8, 6.2209605742717841e-16],
      [-3, 1.3498980316300945e-3],
      [-1, 1.5865525393145705e-1],
      [-0.6629, 2.5369730086823677e-1], // next to Cody's erf/erfc switch at |x|/√2 = 0.46875
      [-0.5, 3.085375387259869e-1],
      [0, 0.5],
      [0.3, 6.1791142218895263e-1],
      [1, 8.4134474606854295e-1],
      [3, 9.9865010196836991e-1],
      [5, 9.9999971334842812e-1],
      [8, 9.9999999999999938e-1],
    ];
    for (const [x, want] of table) expect(relErr(normCdf(x), want), `x=${x}`).toBeLessThan(2e-15);
  });

  it('is symmetric, monotone and saturates without NaN', () => {
    for (const x of [0.1, 0.7, 2.5, 6, 12]) expect(normCdf(x) + normCdf(-x)).toBeCloseTo(1, 15);
    expect(normCdf(-40)).toBe(0);
    expect(normCdf(-Infinity)).toBe(0);
    expect(normCdf(Infinity)).toBe(1);
    expect(Number.isNaN(normCdf(NaN))).toBe(true);
    let previous = 0;
    for (let x = -38; x <= 8; x += 0.01) {
      const p = normCdf(x);
      expect(p).toBeGreaterThanOrEqual(previous);
      previous = p;
    }
  });

  it('normPdf matches mpmath values', () => {
    expect(relErr(normPdf(0), 0.39894228040143268)).toBeLessThan(1e-15);
    expect(relErr(normPdf(1), 0.24197072451914335)).toBeLessThan(1e-15);
    expect(relErr(normPdf(-10), 7.6945986267064193e-23)).toBeLessThan(2e-15);
    expect(relErr(normPdf(30), 1.4736461348785475e-196)).toBeLessThan(2e-15);
  });

  it('approximateInverseNormCdf (Acklam, guesses only) inverts normCdf to ~1e-8', () => {
    for (const p of [1e-300, 1e-20, 1e-5, 0.02, 0.3, 0.5, 0.9, 0.999]) {
      expect(relErr(normCdf(approximateInverseNormCdf(p)), p), `p=${p}`).toBeLessThan(2e-7);
    }
  });
});

const base = (o: Partial<BsmInput> & Pick<BsmInput, 'type'>): BsmInput => ({
  spot: 100,
  strike: 100,
  time: 1,
  rate: 0,
  dividendYield: 0,
  volatility: 0.2,
  ...o,
});

describe('bsmPrice against published values', () => {
  // E. G. Haug, "The Complete Guide to Option Pricing Formulas" (1998 ed., pp. 2-8, 24, 27), as
  // tabulated in QuantLib's test-suite/europeanoption.cpp (testValues); 4 decimals, tolerance 1e-4
  // as in QuantLib. Columns: type, strike, spot, q, r, t, vol, value.
  const haug: [OptionType, number, number, number, number, number, number, number][] = [
    ['call', 65.0, 60.0, 0.0, 0.08, 0.25, 0.3, 2.1334],
    ['put', 95.0, 100.0, 0.05, 0.1, 0.5, 0.2, 2.4648],
    ['put', 19.0, 19.0, 0.1, 0.1, 0.75, 0.28, 1.7011],
    ['call', 19.0, 19.0, 0.1, 0.1, 0.75, 0.28, 1.7011],
    ['call', 1.6, 1.56, 0.08, 0.06, 0.5, 0.12, 0.0291],
    ['put', 70.0, 75.0, 0.05, 0.1, 0.5, 0.35, 4.087],
    ['call', 100.0, 90.0, 0.1, 0.1, 0.1, 0.15, 0.0205],
    ['call', 100.0, 100.0, 0.1, 0.1, 0.1, 0.15, 1.8734],
    ['call', 100.0, 110.0, 0.1, 0.1, 0.1, 0.15, 9.9413],
    ['call', 100.0, 90.0, 0.1, 0.1, 0.1, 0.25, 0.315],
    ['call', 100.0, 100.0, 0.1, 0.1, 0.1, 0.25, 3.1217],
    ['call', 100.0, 110.0, 0.1, 0.1, 0.1, 0.25, 10.3556],
    ['call', 100.0, 90.0, 0.1, 0.1, 0.1, 0.35, 0.9474],
    ['call', 100.0, 100.0, 0.1, 0.1, 0.1, 0.35, 4.3693],
    ['call', 100.0, 110.0, 0.1, 0.1, 0.1, 0.35, 11.1381],
    ['call', 100.0, 90.0, 0.1, 0.1, 0.5, 0.15, 0.8069],
    ['call', 100.0, 100.0, 0.1, 0.1, 0.5, 0.15, 4.0232],
    ['call', 100.0, 110.0, 0.1, 0.1, 0.5, 0.15, 10.5769],
    ['call', 100.0, 90.0, 0.1, 0.1, 0.5, 0.25, 2.7026],
    ['call', 100.0, 100.0, 0.1, 0.1, 0.5, 0.25, 6.6997],
    ['call', 100.0, 110.0, 0.1, 0.1, 0.5, 0.25, 12.7857],
    ['call', 100.0, 90.0, 0.1, 0.1, 0.5, 0.35, 4.9329],
    ['call', 100.0, 100.0, 0.1, 0.1, 0.5, 0.35, 9.3679],
    ['call', 100.0, 110.0, 0.1, 0.1, 0.5, 0.35, 15.3086],
    ['put', 100.0, 90.0, 0.1, 0.1, 0.1, 0.15, 9.921],
    ['put', 100.0, 100.0, 0.1, 0.1, 0.1, 0.15, 1.8734],
    ['put', 100.0, 110.0, 0.1, 0.1, 0.1, 0.15, 0.0408],
    ['put', 100.0, 90.0, 0.1, 0.1, 0.1, 0.25, 10.2155],
    ['put', 100.0, 100.0, 0.1, 0.1, 0.1, 0.25, 3.1217],
    ['put', 100.0, 110.0, 0.1, 0.1, 0.1, 0.25, 0.4551],
    ['put', 100.0, 90.0, 0.1, 0.1, 0.1, 0.35, 10.8479],
    ['put', 100.0, 100.0, 0.1, 0.1, 0.1, 0.35, 4.3693],
    ['put', 100.0, 110.0, 0.1, 0.1, 0.1, 0.35, 1.2376],
    ['put', 100.0, 90.0, 0.1, 0.1, 0.5, 0.15, 10.3192],
    ['put', 100.0, 100.0, 0.1, 0.1, 0.5, 0.15, 4.0232],
    ['put', 100.0, 110.0, 0.1, 0.1, 0.5, 0.15, 1.0646],
    ['put', 100.0, 90.0, 0.1, 0.1, 0.5, 0.25, 12.2149],
    ['put', 100.0, 100.0, 0.1, 0.1, 0.5, 0.25, 6.6997],
    ['put', 100.0, 110.0, 0.1, 0.1, 0.5, 0.25, 3.2734],
    ['put', 100.0, 90.0, 0.1, 0.1, 0.5, 0.35, 14.4452],
    ['put', 100.0, 100.0, 0.1, 0.1, 0.5, 0.35, 9.3679],
    ['put', 100.0, 110.0, 0.1, 0.1, 0.5, 0.35, 5.7963],
    ['call', 40.0, 42.0, 0.08, 0.04, 0.75, 0.35, 5.0975],
  ];
  it.each(haug)('Haug %s K=%d S=%d q=%d r=%d t=%d vol=%d → %d', (type, strike, spot, q, r, t, vol, value) => {
    const price = bsmPrice({ type, strike, spot, dividendYield: q, rate: r, time: t, volatility: vol });
    expect(Math.abs(price - value)).toBeLessThanOrEqual(1e-4);
  });

  it("Hull's worked example: S=42, K=40, r=10%, σ=20%, T=0.5 → call 4.76, put 0.81", () => {
    // J. C. Hull, "Options, Futures, and Other Derivatives", Black-Scholes-Merton chapter example
    // (d1 = 0.7693, d2 = 0.6278, c = 4.76, p = 0.81).
    const call = bsmPrice({ type: 'call', spot: 42, strike: 40, rate: 0.1, dividendYield: 0, time: 0.5, volatility: 0.2 });
    const put = bsmPrice({ type: 'put', spot: 42, strike: 40, rate: 0.1, dividendYield: 0, time: 0.5, volatility: 0.2 });
    expect(call).toBeCloseTo(4.76, 2);
    expect(put).toBeCloseTo(0.81, 2);
    // Put-call parity c − p = S − K e^{−rT} holds to rounding.
    expect(call - put).toBeCloseTo(42 - 40 * Math.exp(-0.05), 12);
  });

  it("py_vollib's docstring example: S=K=100, σ=0.2, r=0.01, t=0.5, q=0 → call 5.87602423383", () => {
    // vollib/py_vollib, py_vollib/black_scholes_merton/implied_volatility.py (doctest).
    const price = bsmPrice({ type: 'call', spot: 100, strike: 100, rate: 0.01, dividendYield: 0, time: 0.5, volatility: 0.2 });
    expect(Math.abs(price - 5.87602423383)).toBeLessThan(1e-10);
  });
});

describe('bsmGreeks against published values', () => {
  // Haug (1998) pp. 11-16 via QuantLib's testGreekValues; tolerance 1e-4 as there.
  it('Haug delta: K=100, S=105, q=r=10%, T=0.5, σ=36% → call 0.5946, put −0.3566', () => {
    const i = { spot: 105, strike: 100, dividendYield: 0.1, rate: 0.1, time: 0.5, volatility: 0.36 };
    expect(Math.abs(bsmGreeks({ ...i, type: 'call' }).delta - 0.5946)).toBeLessThan(1e-4);
    expect(Math.abs(bsmGreeks({ ...i, type: 'put' }).delta + 0.3566)).toBeLessThan(1e-4);
  });

  it('Haug gamma and vega: K=60, S=55, q=0, r=10%, T=0.75, σ=30% → 0.0278 and 18.9358 per 1.00 vol', () => {
    for (const type of ['call', 'put'] as const) {
      const g = bsmGreeks({ type, spot: 55, strike: 60, dividendYield: 0, rate: 0.1, time: 0.75, volatility: 0.3 });
      expect(Math.abs(g.gamma - 0.0278)).toBeLessThan(1e-4);
      expect(Math.abs(g.vega - 18.9358)).toBeLessThan(1e-4);
    }
  });

  it("Hull's greek-letters example: S=49, K=50, r=5%, σ=20%, T=20 weeks → Δ 0.522, Γ 0.066, vega 12.1", () => {
    // Hull, "Options, Futures, and Other Derivatives", Greek Letters chapter (T = 0.3846 years; price
    // about 2.40 per share, i.e. $240,000 for 100,000 options).
    const g = bsmGreeks({ type: 'call', spot: 49, strike: 50, rate: 0.05, dividendYield: 0, time: 20 / 52, volatility: 0.2 });
    expect(g.price).toBeCloseTo(2.4, 2);
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.vega).toBeCloseTo(12.1, 1);
  });

  it('vanna and charm match closed forms evaluated at 40 digits (mpmath), charm as −dΔ/dT', () => {
    // Haug's delta example inputs; reference values computed with mpmath from Haug (2007) ch. 2 closed forms.
    const i = { spot: 105, strike: 100, dividendYield: 0.1, rate: 0.1, time: 0.5, volatility: 0.36 };
    const call = bsmGreeks({ ...i, type: 'call' });
    const put = bsmGreeks({ ...i, type: 'put' });
    expect(relErr(call.vanna, -0.064505853849550535)).toBeLessThan(1e-13);
    expect(relErr(put.vanna, -0.064505853849550535)).toBeLessThan(1e-13);
    expect(relErr(call.charm, 0.082684973358837757)).toBeLessThan(1e-13);
    expect(relErr(put.charm, -0.012437969091233649)).toBeLessThan(1e-13);
    const hull = bsmGreeks({ type: 'call', spot: 49, strike: 50, rate: 0.05, dividendYield: 0, time: 20 / 52, volatility: 0.2 });
    expect(relErr(hull.vanna, 0.13913296823418175)).toBeLessThan(1e-13);
    expect(relErr(hull.charm, -0.19675746814310603)).toBeLessThan(1e-13);
  });
});

describe('bsmGreeks against finite differences', () => {
  const cases: BsmInput[] = [];
  for (const type of ['call', 'put'] as const) {
    cases.push(
      { type, spot: 100, strike: 100, time: 0.5, rate: 0.05, dividendYield: 0.02, volatility: 0.25 },
      { type, spot: 100, strike: 120, time: 1, rate: 0.03, dividendYield: 0.013, volatility: 0.35 },
      { type, spot: 100, strike: 85, time: 0.1, rate: 0.01, dividendYield: 0.04, volatility: 0.6 },
      { type, spot: 5900, strike: 5950, time: 7 / 365, rate: 0.045, dividendYield: 0.013, volatility: 0.14 },
      { type, spot: 42, strike: 40, time: 2.5, rate: -0.005, dividendYield: 0, volatility: 1.2 },
    );
  }
  // Central differences with one Richardson step, D = (4·C(h/2) − C(h))/3, error O(h⁴); steps are
  // 1% of the natural scale of each variable (spot·σ√T for spot, so short-dated options are fine).
  const central = (f: (h: number) => number, h: number) => (f(h) - f(-h)) / (2 * h);
  const derivative = (f: (h: number) => number, h: number) => (4 * central(f, h / 2) - central(f, h)) / 3;
  const close = (got: number, want: number, scale: number) =>
    expect(Math.abs(got - want), `got ${got}, want ${want}`).toBeLessThanOrEqual(1e-6 * Math.abs(want) + 1e-12 * scale);

  it.each(cases)('%o', (c) => {
    const g = bsmGreeks(c);
    const dS = 0.01 * c.spot * c.volatility * Math.sqrt(c.time);
    const dV = 0.01 * c.volatility;
    const dT = 0.01 * c.time;
    close(
      g.delta,
      derivative((h) => bsmPrice({ ...c, spot: c.spot + h }), dS),
      1,
    );
    close(
      g.gamma,
      derivative((h) => bsmGreeks({ ...c, spot: c.spot + h }).delta, dS),
      1 / c.spot,
    );
    close(
      g.vega,
      derivative((h) => bsmPrice({ ...c, volatility: c.volatility + h }), dV),
      c.spot,
    );
    close(
      g.vanna,
      derivative((h) => bsmGreeks({ ...c, volatility: c.volatility + h }).delta, dV),
      1,
    );
    // Charm is dΔ/dt with calendar time t passing, i.e. −dΔ/dT.
    close(g.charm, -derivative((h) => bsmGreeks({ ...c, time: c.time + h }).delta, dT), 1);
    expect(g.price).toBe(bsmPrice(c));
  });
});

describe('limits and input validation', () => {
  it('time <= 0 gives the payoff on the spot', () => {
    expect(bsmPrice(base({ type: 'call', spot: 105, time: 0 }))).toBe(5);
    expect(bsmPrice(base({ type: 'put', spot: 105, time: -0.01 }))).toBe(0);
    const g = bsmGreeks(base({ type: 'put', spot: 95, time: 0 }));
    expect(g).toEqual({ price: 5, delta: -1, gamma: 0, vega: 0, vanna: 0, charm: 0 });
  });

  it('zero or vanishing volatility gives the discounted forward intrinsic value, no NaN', () => {
    const i = { spot: 100, strike: 95, time: 0.5, rate: 0.05, dividendYield: 0.02 };
    const intrinsic = 100 * Math.exp(-0.01) - 95 * Math.exp(-0.025);
    for (const volatility of [0, 1e-300, 1e-200, 1e-12]) {
      const call = bsmGreeks({ ...i, type: 'call', volatility });
      const put = bsmGreeks({ ...i, type: 'put', volatility });
      expect(call.price).toBeCloseTo(intrinsic, 12);
      expect(put.price).toBe(0);
      expect(call.delta).toBeCloseTo(Math.exp(-0.01), 15);
      expect(put.delta).toBeCloseTo(0, 15);
      for (const g of [call, put]) for (const v of Object.values(g)) expect(Number.isFinite(v)).toBe(true);
    }
  });

  it('vanishing time keeps all greeks finite, at the money included', () => {
    for (const time of [1e-300, 1e-15, 1e-9]) {
      for (const strike of [90, 100, 110]) {
        for (const type of ['call', 'put'] as const) {
          const g = bsmGreeks({ type, spot: 100, strike, time, rate: 0.05, dividendYield: 0.01, volatility: 0.3 });
          for (const v of Object.values(g)) expect(Number.isFinite(v)).toBe(true);
          // Time value is at most ~0.4·S·σ√T (at the money).
          const payoff = Math.max((type === 'call' ? 1 : -1) * (100 - strike), 0);
          expect(Math.abs(g.price - payoff)).toBeLessThanOrEqual(0.4 * 100 * 0.3 * Math.sqrt(time) + 1e-12);
        }
      }
    }
  });

  it('prices tiny, far out-of-the-money values with full relative accuracy (no cancellation)', () => {
    // References from mpmath (50 digits) of S e^{−qT}Φ(d1) − K e^{−rT}Φ(d2) and its put analogue.
    const call = bsmPrice({ type: 'call', spot: 100, strike: 200, time: 0.25, rate: 0.05, dividendYield: 0, volatility: 0.2 });
    expect(relErr(call, 9.910203707027289e-12)).toBeLessThan(1e-13);
    // A 1-day SPX-like put 5% out of the money at 12 vol, where S e^{−qT}Φ(−d1) and K e^{−rT}Φ(−d2)
    // agree to 13 digits and naive subtraction would leave noise.
    const put = bsmPrice({ type: 'put', spot: 5900, strike: 5600, time: 1 / 365, rate: 0.045, dividendYield: 0.013, volatility: 0.12 });
    expect(relErr(put, 1.819863300294255e-16)).toBeLessThan(1e-12);
  });

  it('rejects invalid inputs with RangeError', () => {
    expect(() => bsmPrice(base({ type: 'call', spot: 0 }))).toThrow(RangeError);
    expect(() => bsmPrice(base({ type: 'call', strike: -1 }))).toThrow(RangeError);
    expect(() => bsmPrice(base({ type: 'call', volatility: -0.1 }))).toThrow(RangeError);
    expect(() => bsmPrice(base({ type: 'call', rate: NaN }))).toThrow(RangeError);
    expect(() => bsmGreeks(base({ type: 'put', time: Infinity }))).toThrow(RangeError);
  });
});

describe('impliedVolatility', () => {
  it("Hull's example: c = 1.875, S = 21, K = 20, r = 10%, T = 0.25 → σ ≈ 23.5%", () => {
    // Hull, "Options, Futures, and Other Derivatives", implied volatilities section.
    const iv = impliedVolatility({ type: 'call', price: 1.875, spot: 21, strike: 20, time: 0.25, rate: 0.1, dividendYield: 0 });
    expect(iv).not.toBeNull();
    expect(iv as number).toBeCloseTo(0.235, 3);
  });

  it("py_vollib's docstring example recovers 0.2 from 5.87602423383", () => {
    const iv = impliedVolatility({ type: 'call', price: 5.87602423383, spot: 100, strike: 100, time: 0.5, rate: 0.01, dividendYield: 0 });
    expect(Math.abs((iv as number) - 0.2)).toBeLessThan(1e-11);
  });

  it('inverts the Haug table prices back to their volatilities (to the 4-decimal rounding)', () => {
    // Haug (1998) p. 24 values: a price known to QuantLib's 1e-4 tolerance pins σ only to 1e-4 / vega.
    const cases: [OptionType, number, number, number, number][] = [
      ['call', 100, 100, 0.1, 1.8734],
      ['call', 100, 110, 0.5, 15.3086],
      ['put', 100, 90, 0.5, 14.4452],
    ];
    const vols = [0.15, 0.35, 0.35];
    cases.forEach(([type, strike, spot, time, price], k) => {
      const iv = impliedVolatility({ type, price, spot, strike, time, rate: 0.1, dividendYield: 0.1 }) as number;
      const vega = bsmGreeks({ type, spot, strike, time, rate: 0.1, dividendYield: 0.1, volatility: iv }).vega;
      expect(Math.abs(iv - (vols[k] as number))).toBeLessThan(1e-4 / vega);
    });
  });

  it('round-trips to 1e-10 over σ 0.01..3, T 1 minute..3 years, ln(K/F) in ±3σ√T, calls and puts', () => {
    // Out-of-the-money (and at-the-money) options must come back within 1e-10. An in-the-money price
    // is mostly intrinsic value: its own rounding (a few ulps of the price) moves σ by ~ε·price/vega,
    // which at σ = 3, T = 3, 3σ√T in the money reaches 2e-9, so there the bound adds that limit.
    const MINUTE = 1 / (365 * 24 * 60);
    const sigmas = [0.01, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 1, 2, 3];
    const times = [MINUTE, 15 * MINUTE, 1 / 8760, 1 / 365, 7 / 365, 30 / 365, 0.25, 1, 3];
    const markets = [
      { spot: 100, rate: 0.04, dividendYield: 0.013 },
      { spot: 5900, rate: 0.0525, dividendYield: 0 },
      { spot: 3.5, rate: -0.005, dividendYield: 0.03 },
    ];
    let worstOtm = 0;
    let worstItmBeyondLimit = 0;
    let count = 0;
    for (const m of markets) {
      for (const volatility of sigmas) {
        for (const time of times) {
          const s = volatility * Math.sqrt(time);
          const forward = m.spot * Math.exp((m.rate - m.dividendYield) * time);
          for (let j = -12; j <= 12; j++) {
            const strike = forward * Math.exp((j / 4) * s);
            for (const type of ['call', 'put'] as const) {
              const price = bsmPrice({ type, strike, time, volatility, ...m });
              const iv = impliedVolatility({ type, price, strike, time, ...m });
              expect(iv, `${type} σ=${volatility} T=${time} j=${j}`).not.toBeNull();
              const err = Math.abs((iv as number) - volatility);
              count++;
              const outOfTheMoney = type === 'call' ? j >= 0 : j <= 0;
              if (outOfTheMoney) {
                worstOtm = Math.max(worstOtm, err);
              } else {
                const limit = (4 * Number.EPSILON * price) / bsmGreeks({ type, strike, time, volatility, ...m }).vega;
                worstItmBeyondLimit = Math.max(worstItmBeyondLimit, err - limit);
              }
            }
          }
        }
      }
    }
    expect(count).toBe(3 * 10 * 9 * 25 * 2);
    expect(worstOtm).toBeLessThan(1e-10);
    expect(worstItmBeyondLimit).toBeLessThan(1e-10);
  });

  it('stays accurate in the wings: out-of-the-money to ±10σ√T, σ to 5, T from 1e-5 years', () => {
    let worstRelative = 0;
    for (const volatility of [0.01, 0.05, 0.2, 1, 3, 5]) {
      for (const time of [1e-5, 1e-3, 0.1, 1, 3]) {
        const s = volatility * Math.sqrt(time);
        for (const z of [-10, -8, -6, -4, 4, 6, 8, 10]) {
          const strike = 100 * Math.exp(z * s); // r = q = 0: F = S
          const type: OptionType = z > 0 ? 'call' : 'put'; // out of the money
          const price = bsmPrice({ type, spot: 100, strike, time, rate: 0, dividendYield: 0, volatility });
          if (!(price > 0)) continue;
          const iv = impliedVolatility({ type, price, spot: 100, strike, time, rate: 0, dividendYield: 0 });
          expect(iv, `${type} σ=${volatility} T=${time} z=${z}`).not.toBeNull();
          worstRelative = Math.max(worstRelative, Math.abs((iv as number) - volatility) / volatility);
        }
      }
    }
    expect(worstRelative).toBeLessThan(1e-10);
  });

  it('inverts extremely small out-of-the-money prices (normalised price far below 1e-300 never formed)', () => {
    const i = { spot: 100, strike: 130, time: 1e-5, rate: 0, dividendYield: 0 };
    for (const price of [1e-300, 1e-100, 1e-30]) {
      const iv = impliedVolatility({ ...i, type: 'call', price }) as number;
      expect(iv).toBeGreaterThan(0);
      expect(relErr(bsmPrice({ ...i, type: 'call', volatility: iv }), price)).toBeLessThan(1e-9);
    }
  });

  it('returns null where no volatility fits or the price carries no information', () => {
    const m = { spot: 100, strike: 90, time: 0.5, rate: 0.05, dividendYield: 0.02 };
    const spotPv = 100 * Math.exp(-0.01);
    const strikePv = 90 * Math.exp(-0.025);
    const intrinsic = spotPv - strikePv;
    const iv = (o: Partial<Parameters<typeof impliedVolatility>[0]>) => impliedVolatility({ type: 'call', price: 12, ...m, ...o });
    expect(iv({})).not.toBeNull();
    expect(iv({ price: intrinsic })).toBeNull(); // at the discounted forward intrinsic value
    expect(iv({ price: intrinsic - 0.01 })).toBeNull(); // below it
    expect(iv({ price: intrinsic * (1 + 1e-13) })).toBeNull(); // within 1e-12 relative of it
    expect(iv({ price: spotPv })).toBeNull(); // at the upper bound S e^{−qT}
    expect(iv({ price: spotPv + 1 })).toBeNull(); // above it
    expect(iv({ price: spotPv * (1 - 1e-13) })).toBeNull(); // within 1e-12 of it: vega ≈ 0
    expect(iv({ type: 'put', price: strikePv })).toBeNull(); // put upper bound K e^{−rT}
    expect(iv({ type: 'put', price: strikePv * (1 - 1e-13) })).toBeNull();
    expect(iv({ type: 'put', price: 1e-3 })).not.toBeNull(); // out of the money: any positive price fits
    expect(iv({ price: 0 })).toBeNull();
    expect(iv({ price: -1 })).toBeNull();
    expect(iv({ price: NaN })).toBeNull();
    expect(iv({ price: Infinity })).toBeNull();
    expect(iv({ time: 0 })).toBeNull();
    expect(iv({ time: -1 })).toBeNull();
    expect(iv({ spot: 0 })).toBeNull();
    expect(iv({ strike: 0 })).toBeNull();
    expect(iv({ strike: -5 })).toBeNull();
    expect(iv({ rate: NaN })).toBeNull();
    expect(iv({ dividendYield: Infinity })).toBeNull();
  });

  it('treats deep in-the-money prices whose time value is lost in rounding as uninformative', () => {
    // σ = 0.2, T = 0.01: K at 15σ√T below the forward; time value ~1e-52 of the price.
    const c = { type: 'call' as const, spot: 100, strike: 100 * Math.exp(-0.3), time: 0.01, rate: 0, dividendYield: 0 };
    const price = bsmPrice({ ...c, volatility: 0.2 });
    expect(impliedVolatility({ ...c, price })).toBeNull();
  });
});

describe('impliedVolatility: Householder solver from rational-cubic guesses (Jäckel 2015)', () => {
  // Black-76 prices (F, K, T, r, σ; both legs discounted at r) and vegas evaluated with mpmath 1.3 at
  // 50 significant digits, rounded to 17: independent of this module. Wings, a 1-second-to-1-minute
  // expiry, 10 years, and two in-the-money legs.
  const table: [OptionType, number, number, number, number, number, number, number][] = [
    ['call', 100, 100, 1, 0.05, 0.2, 7.5770821464272729, 37.7593],
    ['call', 100, 150, 0.25, 0, 0.3, 0.019232942790700939, 0.631049],
    ['put', 100, 60, 0.5, 0.03, 0.45, 0.55204108609543781, 5.85902],
    ['call', 6600, 6700, 1 / 365, 0.04, 0.12, 0.11563288263343239, 7.90393],
    ['put', 6600, 5000, 0.0821917808219178, 0.04, 0.35, 0.48797141963467801, 14.231],
    ['call', 6600, 9000, 2, 0.04, 0.18, 97.294788730881071, 1895.4],
    ['put', 6600, 6590, 1.902587519025875e-6, 0.04, 0.1, 1.6830408576126284e-29, 2.08356e-26],
    ['call', 100, 100.5, 1e-6, 0, 0.3, 4.1159262508910878e-65, 3.83294e-62],
    ['call', 1, 5, 1, 0, 0.5, 0.00018785436590196116, 0.00486324],
    ['put', 1, 0.05, 0.1, 0, 2.5, 2.9345664405233253e-6, 1.98809e-5],
    ['call', 100, 101, 1 / 365, 0, 0.02, 1.0834480851282439e-23, 5.05342e-20],
    ['put', 50, 49, 3, 0.01, 0.05, 1.2188221905106136, 32.2701],
    ['call', 100, 300, 10, 0.02, 1.2, 73.926425847658502, 28.3584],
    ['call', 100, 80, 0.5, 0.02, 0.25, 20.570713158423655, 11.2177],
    ['put', 100, 130, 0.25, 0.02, 0.4, 30.854214223572513, 9.52413],
  ];

  it('recovers σ from 50-digit Black-76 prices within what the rounding of the price allows', () => {
    for (const [type, forward, strike, time, rate, sigma, price, vega] of table) {
      // The price is known to half an ulp: σ to ε·price/vega; plus the normalised price's own
      // rounding, ~2e-16·(1 + |z|)/(σ√T) relative with z = ln(K/F)/(σ√T) (the module comment), 1e-14 at least.
      const s = sigma * Math.sqrt(time);
      const z = Math.log(strike / forward) / s;
      const allowed = (2 * Number.EPSILON * price) / vega + sigma * Math.max(1e-14, (2e-16 * (1 + Math.abs(z))) / s);
      const iv = impliedVolatility({ type, price, spot: forward, strike, time, rate, dividendYield: rate });
      expect(Math.abs((iv as number) - sigma), `${type} F=${forward} K=${strike} T=${time}`).toBeLessThan(allowed);
      expect(blackImpliedVolatility(type, price, forward, strike, time, Math.exp(-rate * time))).toBe(iv);
    }
  });

  it('round-trips price → σ → price to 2e-12 relative, or the rounding of the normalised price below σ√T = 0.01: wings to 35σ√T, 1 second to 10 years, σ 0.5% to 400%', () => {
    // The normalised price b(x, σ√T) is evaluated with a relative error of up to ~5e-16·(1 + |z|)/(σ√T)
    // (the difference of two erfcx values, the module comment): for σ√T = 7e-6 (σ = 0.5%, one minute)
    // that is ~1e-9, a floor for any solver that prices with it. The bound is the larger of the two.
    const markets = [
      { spot: 100, rate: 0.04, dividendYield: 0.013 },
      { spot: 6600, rate: 0.0525, dividendYield: 0.0525 },
    ];
    const times = [1 / (365 * 86400), 1 / (365 * 1440), 1 / 365, 0.1, 1, 10];
    const sigmas = [0.005, 0.05, 0.2, 0.8, 4];
    const zs = [-35, -20, -10, -5, -2, -0.5, -0.01, 0, 0.01, 0.5, 2, 5, 10, 20, 35];
    let worst = 0;
    let solved = 0;
    for (const m of markets) {
      for (const time of times) {
        for (const volatility of sigmas) {
          const s = volatility * Math.sqrt(time);
          const forward = m.spot * Math.exp((m.rate - m.dividendYield) * time);
          for (const z of zs) {
            const strike = forward * Math.exp(z * s);
            for (const type of ['call', 'put'] as const) {
              const price = bsmPrice({ type, strike, time, volatility, ...m });
              const outOfTheMoney = type === 'call' ? z >= 0 : z <= 0;
              if (!(price > 1e-290)) continue; // below the smallest normal double: no digits to invert
              const iv = impliedVolatility({ type, price, strike, time, ...m });
              // An out-of-the-money price always determines σ; an in-the-money one only while its time
              // value is more than 1e-12 of it.
              if (outOfTheMoney) expect(iv, `${type} σ=${volatility} T=${time} z=${z}`).not.toBeNull();
              if (iv === null) continue;
              solved++;
              const back = bsmPrice({ type, strike, time, volatility: iv, ...m });
              const bound = Math.max(2e-12, (1e-15 * (1 + Math.abs(z))) / s);
              worst = Math.max(worst, Math.abs(back - price) / price / bound);
            }
          }
        }
      }
    }
    expect(solved).toBeGreaterThan(1400);
    expect(worst).toBeLessThan(1);
  });

  it('gives blackImpliedVolatility the same σ, bit for bit, as impliedVolatility on the forward', () => {
    const rate = 0.043;
    for (const time of [1 / 1440 / 365, 3 / 365, 0.5, 2]) {
      const discount = Math.exp(-rate * time);
      for (const strike of [4000, 5800, 6590, 6600, 6610, 7400, 9000]) {
        for (const type of ['call', 'put'] as const) {
          for (const price of [1e-40, 0.05, 1.3, 27.5, 640, 2600]) {
            const viaSpot = impliedVolatility({ type, price, spot: 6600, strike, time, rate, dividendYield: rate });
            expect(blackImpliedVolatility(type, price, 6600, strike, time, discount)).toBe(viaSpot);
          }
        }
      }
    }
    expect(blackImpliedVolatility('call', 1, 100, 100, 1, 0)).toBeNull();
    expect(blackImpliedVolatility('call', 1, 100, 100, 1, NaN)).toBeNull();
    expect(blackImpliedVolatility('call', 1, 0, 100, 1, 1)).toBeNull();
  });
});
