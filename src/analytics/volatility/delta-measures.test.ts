import { describe, expect, it } from 'vitest';
import { approximateInverseNormCdf, bsmGreeks } from '../pricing.js';
import { atmSlope, atmVolatility, smileDelta, smileMeasures, strikeForDelta } from './delta-measures.js';
import type { ExpirationMarket } from './quotes.js';
import type { Smile, SmileCurve, SmileFit } from './smile.js';
import { sviTotalVariance, type SviParameters } from './svi.js';

const fit: SmileFit = {
  method: 'svi',
  quotes_used: 0,
  rmse_vol_points: 0,
  max_abs_error_vol_points: 0,
  quotes_within_spread: 0,
  butterfly_ok: true,
  calendar_ok: true,
  fallback_reason: null,
};

function smileOf(curve: SmileCurve, time: number): Smile {
  return { time, curve, points: [], fit };
}

const spot = 100;
const rate = 0.04;
const q = 0.015;
const time = 0.25;
const market: ExpirationMarket = { spot, forward: spot * Math.exp((rate - q) * time), time, rate };

describe('a flat smile', () => {
  const sigma = 0.2;
  const flat = smileOf({ method: 'svi', parameters: { a: sigma * sigma * time, b: 0, rho: 0, m: 0, sigma: 0.1 } }, time);

  it('puts the 25-delta call where e^{−qT}Φ(d1) = 0.25 in closed form, and risk reversal, butterfly and slope at 0', () => {
    // Call: e^{−qT}Φ(d1) = 0.25 ⇔ d1 = Φ⁻¹(0.25e^{qT}); put: e^{−qT}Φ(−d1) = 0.25 ⇔ d1 = −Φ⁻¹(0.25e^{qT});
    // and k = −d1·σ√T + σ²T/2. Acklam's inverse (pricing.ts) is good to ~1e-9.
    const s = sigma * Math.sqrt(time);
    const z = approximateInverseNormCdf(0.25 * Math.exp(q * time));
    const call = strikeForDelta(flat, market, 0.25)!;
    expect(Math.abs(call.moneyness - (-z * s + 0.5 * s * s))).toBeLessThan(1e-8);
    const put = strikeForDelta(flat, market, -0.25)!;
    expect(Math.abs(put.moneyness - (z * s + 0.5 * s * s))).toBeLessThan(1e-8);
    expect(call.strike).toBeCloseTo(market.forward * Math.exp(call.moneyness), 12);
    const m = smileMeasures(flat, market);
    expect(m.atm_implied_volatility).toBeCloseTo(sigma, 14);
    for (const key of ['risk_reversal_25d', 'butterfly_25d', 'risk_reversal_10d', 'butterfly_10d', 'normalized_skew', 'slope'] as const) {
      expect(Math.abs(m[key]!), key).toBeLessThan(1e-12);
    }
  });
});

describe('a skewed SVI smile', () => {
  const p: SviParameters = { a: 0.004, b: 0.05, rho: -0.5, m: 0.02, sigma: 0.1 };
  const smile = smileOf({ method: 'svi', parameters: p }, time);
  const volAt = (k: number): number => Math.sqrt(sviTotalVariance(p, k) / time);

  it('finds strikes whose Black-Scholes-Merton spot delta (pricing core, at the smile volatility) is the target', () => {
    for (const delta of [0.25, -0.25, 0.1, -0.1]) {
      const found = strikeForDelta(smile, market, delta)!;
      const greeks = bsmGreeks({
        type: delta > 0 ? 'call' : 'put',
        spot,
        strike: found.strike,
        time,
        rate,
        dividendYield: q,
        volatility: volAt(found.moneyness),
      });
      expect(Math.abs(greeks.delta - delta), `${delta}`).toBeLessThan(1e-12);
      expect(found.volatility).toBeCloseTo(volAt(found.moneyness), 14);
      expect(Math.sign(found.moneyness)).toBe(Math.sign(delta));
    }
  });

  it('reports RR, BF, normalized skew and slope as defined (negative skew for ρ < 0)', () => {
    const m = smileMeasures(smile, market);
    const c25 = strikeForDelta(smile, market, 0.25)!.volatility;
    const p25 = strikeForDelta(smile, market, -0.25)!.volatility;
    const c10 = strikeForDelta(smile, market, 0.1)!.volatility;
    const p10 = strikeForDelta(smile, market, -0.1)!.volatility;
    const atm = volAt(0);
    expect(m.atm_implied_volatility).toBeCloseTo(atm, 15);
    expect(m.risk_reversal_25d).toBeCloseTo(c25 - p25, 15);
    expect(m.butterfly_25d).toBeCloseTo(0.5 * (c25 + p25) - atm, 15);
    expect(m.risk_reversal_10d).toBeCloseTo(c10 - p10, 15);
    expect(m.butterfly_10d).toBeCloseTo(0.5 * (c10 + p10) - atm, 15);
    expect(m.normalized_skew).toBeCloseTo((c25 - p25) / atm, 14);
    expect(m.risk_reversal_25d!).toBeLessThan(0);
    expect(m.risk_reversal_10d!).toBeLessThan(m.risk_reversal_25d!);
    expect(m.butterfly_25d!).toBeGreaterThan(0);
    const h = 1e-6;
    expect(atmSlope(smile)).toBeCloseTo((volAt(h) - volAt(-h)) / (2 * h), 7);
    expect(atmSlope(smile)!).toBeLessThan(0);
  });

  it('uses the dividend discount e^{−qT} = F e^{−rT}/S in the delta: bsmGreeks at the spot and yield q', () => {
    for (const k of [-0.2, 0, 0.05]) {
      const w = sviTotalVariance(p, k);
      const strike = market.forward * Math.exp(k);
      for (const type of ['call', 'put'] as const) {
        const greeks = bsmGreeks({ type, spot, strike, time, rate, dividendYield: q, volatility: Math.sqrt(w / time) });
        expect(smileDelta(smile, market, type, k)).toBeCloseTo(greeks.delta, 14);
      }
    }
  });
});

describe('without a spot', () => {
  it('gives the at-the-money volatility and slope but no delta-based measure', () => {
    const smile = smileOf({ method: 'svi', parameters: { a: 0.004, b: 0.05, rho: -0.5, m: 0.02, sigma: 0.1 } }, time);
    const m = smileMeasures(smile, { ...market, spot: null });
    expect(m.atm_implied_volatility).toBeGreaterThan(0);
    expect(m.slope).not.toBeNull();
    expect([m.risk_reversal_25d, m.butterfly_25d, m.risk_reversal_10d, m.butterfly_10d, m.normalized_skew]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});

describe('interpolated smiles', () => {
  it('take the at-the-money volatility and slope from the segments around k = 0', () => {
    const knots = [
      { k: -0.1, w: 0.012 },
      { k: -0.02, w: 0.0104 },
      { k: 0.03, w: 0.0096 },
      { k: 0.1, w: 0.0094 },
    ];
    const smile = smileOf({ method: 'interpolated', knots }, time);
    const w0 = 0.0104 + ((0.0096 - 0.0104) * 0.02) / 0.05;
    expect(atmVolatility(smile)).toBeCloseTo(Math.sqrt(w0 / time), 14);
    expect(atmSlope(smile)).toBeCloseTo((0.0096 - 0.0104) / 0.05 / (2 * Math.sqrt(w0 * time)), 12);
    const m = smileMeasures(smile, market);
    expect(m.risk_reversal_25d!).toBeLessThan(0);
  });
});
