import { describe, expect, it } from 'vitest';
import { isMonthlyExpiration, isTradingDay } from '../../analytics/calendar.js';
import { listedExpirations, nearestStrike, strikeGrid } from './chain.js';
import { ROOTS, UNDERLYINGS } from './model.js';
import { SCALES } from './activity.js';
import { cumulative, Prng } from './prng.js';
import { atmVolatility, nbboOf, onTick, smileVolatility, valueOption } from './surface.js';

const spec = (symbol: string) => UNDERLYINGS.find((u) => u.symbol === symbol)!;
const root = (name: string) => ROOTS.find((r) => r.root === name)!;

describe('Prng', () => {
  it('repeats a seed, separates seeds and forks by label', () => {
    const draw = (p: Prng) => Array.from({ length: 8 }, () => p.nextU32());
    expect(draw(new Prng(1))).toEqual(draw(new Prng(1)));
    expect(draw(new Prng(1))).not.toEqual(draw(new Prng(2)));
    expect(draw(new Prng(1).fork('a'))).toEqual(draw(new Prng(1).fork('a')));
    expect(draw(new Prng(1).fork('a'))).not.toEqual(draw(new Prng(1).fork('b')));
    expect(draw(new Prng(2 ** 40 + 1))).not.toEqual(draw(new Prng(1)));
  });

  it('draws uniforms, normals, Pareto tails and weighted indexes with the right moments', () => {
    const p = new Prng(99);
    const n = 100_000;
    let sum = 0;
    let sumSq = 0;
    let tail = 0;
    const counts = [0, 0, 0];
    const weights = cumulative([1, 2, 7]);
    for (let i = 0; i < n; i += 1) {
      const z = p.normal();
      sum += z;
      sumSq += z * z;
      if (p.pareto(1, 1.5) > 10) tail += 1;
      counts[p.weightedIndex(weights)]! += 1;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.02);
    expect(Math.abs(sumSq / n - 1)).toBeLessThan(0.03);
    expect(tail / n).toBeCloseTo(10 ** -1.5, 2); // P(X > 10) = 10^-alpha
    expect(counts[2]! / n).toBeCloseTo(0.7, 1);
    const u = Array.from({ length: 1000 }, () => p.uniform());
    expect(Math.min(...u)).toBeGreaterThan(0);
    expect(Math.max(...u)).toBeLessThan(1);
  });
});

describe('surface', () => {
  it('has an index put skew, a smile, and a term structure mean-reverting to theta', () => {
    const spx = spec('SPX');
    const atm = 0.16;
    const t = 30 / 365;
    const down = smileVolatility(spx, atm, t, -0.05);
    const up = smileVolatility(spx, atm, t, 0.05);
    expect(down).toBeGreaterThan(atm);
    expect(up).toBeLessThan(down);
    expect(smileVolatility(spx, atm, t, 0.3)).toBeGreaterThan(smileVolatility(spx, atm, t, 0.1)); // smile wing
    // High spot variance: short-dated implied above long-dated (inverted term structure); low: upward.
    expect(atmVolatility(spx, 0.09, 0.02)).toBeGreaterThan(atmVolatility(spx, 0.09, 1));
    expect(atmVolatility(spx, 0.01, 0.02)).toBeLessThan(atmVolatility(spx, 0.01, 1));
    expect(atmVolatility(spx, spx.theta, 0.5)).toBeCloseTo(spx.vrp * Math.sqrt(spx.theta), 10);
    // Single stocks carry more volatility and less skew than the index.
    const tsla = spec('TSLA');
    expect(Math.sqrt(tsla.theta)).toBeGreaterThan(2 * Math.sqrt(spx.theta));
    expect(Math.abs(tsla.skew)).toBeLessThan(Math.abs(spx.skew));
  });

  it('prices by Black-Scholes-Merton with put-call parity on the forward', () => {
    const common = { spec: spec('SPX'), spot: 5900, strike: 5900, years: 0.25, rate: 0.04, dividendYield: 0.013, variance: 0.03 };
    const call = valueOption({ ...common, type: 'call' }).value;
    const put = valueOption({ ...common, type: 'put' }).value;
    const parity = 5900 * Math.exp(-0.013 * 0.25) - 5900 * Math.exp(-0.04 * 0.25);
    expect(call - put).toBeCloseTo(parity, 8);
  });

  it('quotes on the tick grid with bid below ask for every value and rule', () => {
    const p = new Prng(5);
    // Violations are gathered and compared once: an expect() per check made this test take seconds.
    const violations: string[] = [];
    for (const r of ROOTS) {
      for (let i = 0; i < 5000; i += 1) {
        const value = Math.exp(p.between(Math.log(0.005), Math.log(400)));
        const n = nbboOf(value, {
          rule: r.tick,
          spreadRelative: r.spreadRelative,
          spreadAbsolute: r.spreadAbsolute,
          widen: p.between(1, 4),
          lean: p.between(-0.3, 0.3),
        });
        const broken = [
          n.bid >= 0 ? null : 'bid below zero',
          n.ask > n.bid ? null : 'ask not above bid',
          onTick(r.tick, n.ask) ? null : 'ask off the tick grid',
          n.bid === 0 || onTick(r.tick, n.bid) ? null : 'bid off the tick grid',
          n.bid / 100 <= value + 0.01 ? null : 'bid above the value',
          n.ask / 100 >= value - 0.01 ? null : 'ask below the value',
        ].filter((b) => b !== null);
        if (broken.length > 0) violations.push(`${r.root} value ${value}: bid ${n.bid} ask ${n.ask}: ${broken.join(', ')}`);
      }
    }
    expect(violations).toEqual([]);
    // SPX: $0.05 under $3, $0.10 above; single stocks $0.01 under $3, $0.05 above; SPY pennies.
    expect(onTick('index', 295)).toBe(true);
    expect(onTick('index', 305)).toBe(false);
    expect(onTick('penny_pilot', 301)).toBe(false);
    expect(onTick('penny_all', 301)).toBe(true);
  });
});

describe('chain', () => {
  const scale = SCALES.default;

  it('lists SPX on monthly expirations only and SPXW on every trading day', () => {
    const spx = listedExpirations(root('SPX'), '2026-11-16', '2026-11-20', scale);
    expect(spx.every((e) => isMonthlyExpiration(e.date) && e.monthly)).toBe(true);
    expect(spx[0]!.date).toBe('2026-11-20');
    const spxw = listedExpirations(root('SPXW'), '2026-11-16', '2026-11-20', scale).map((e) => e.date);
    for (const d of ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-23', '2026-11-25', '2026-11-27'])
      expect(spxw).toContain(d);
    expect(spxw).not.toContain('2026-11-26'); // Thanksgiving
    expect(spxw.every(isTradingDay)).toBe(true);
    const aapl = listedExpirations(root('AAPL'), '2026-11-16', '2026-11-20', scale).map((e) => e.date);
    expect(aapl).toContain('2026-12-24'); // Friday 12-25 is Christmas: the weekly moves to Thursday
    expect(aapl).not.toContain('2026-11-23');
  });

  it('builds strike grids on the root steps around the reference price', () => {
    const spx = strikeGrid(root('SPX'), 5900, 0.17, 1, SCALES.full);
    expect(spx[0]).toBe(4725);
    expect(spx[spx.length - 1]).toBe(7075);
    expect(spx.filter((k) => k >= 5610 && k <= 6190).every((k, i, a) => i === 0 || k - a[i - 1]! === 5)).toBe(true);
    expect(spx.filter((k) => k < 5600).every((k) => k % 25 === 0)).toBe(true);
    const spy = strikeGrid(root('SPY'), 588.5, 0.17, 0.01, scale);
    expect(spy.every((k) => Number.isInteger(k))).toBe(true);
    expect(spy.length).toBeGreaterThan(40);
    const aapl = strikeGrid(root('AAPL'), 230, 0.26, 0.1, scale);
    expect(aapl).toContain(232.5);
    expect(nearestStrike(aapl, 233.6)).toBe(aapl.indexOf(232.5));
    expect(nearestStrike(aapl, 1)).toBe(0);
    expect(nearestStrike(aapl, 1e6)).toBe(aapl.length - 1);
  });
});
