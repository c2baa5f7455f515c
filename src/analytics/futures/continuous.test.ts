/**
 * Continuous mappings against examples worked by hand from CME's calendar: ESZ26 expires Friday
 * 2026-12-18 (its roll date the Thursday eight days before, 2026-12-10); ESM26's third Friday is
 * Juneteenth 2026-06-19, so it expires Thursday 2026-06-18 while its roll date stays eight days
 * before the Friday, 2026-06-11.
 */
import { describe, expect, it } from 'vitest';
import {
  continuousMapping,
  mapTradeDate,
  parseContinuousSymbol,
  segmentAdjustments,
  tradeDatesBetween,
  type ContractFigures,
  type ContinuousSymbol,
  type DailyFigures,
} from './continuous.js';

const symbol = (s: string): ContinuousSymbol => parseContinuousSymbol(s)!;
const Z26 = '2026-12';
const H27 = '2027-03';

/** Figures written as { date: { month: [volume, open interest] } }. */
function figures(days: Record<string, Record<string, [number | null, number | null]>>): DailyFigures {
  return new Map(
    Object.entries(days).map(([date, months]) => [
      date,
      new Map<string, ContractFigures>(Object.entries(months).map(([m, [volume, openInterest]]) => [m, { volume, openInterest }])),
    ]),
  );
}

const intervals = (s: string, start: string, end: string, f: DailyFigures = new Map()) =>
  continuousMapping(symbol(s), start, end, f).map((i) => [i.startDate, i.endDate, i.contract.symbol]);

describe('continuous symbols', () => {
  it('parse root, rule and rank, and refuse anything else', () => {
    expect(parseContinuousSymbol('ES.c.0')).toEqual({ symbol: 'ES.c.0', root: 'ES', rule: 'calendar', rank: 0 });
    expect(parseContinuousSymbol('M2K.v.1')).toEqual({ symbol: 'M2K.v.1', root: 'M2K', rule: 'volume', rank: 1 });
    expect(parseContinuousSymbol('NQ.n.2')).toMatchObject({ rule: 'open_interest', rank: 2 });
    for (const bad of ['ES.x.0', 'ES.c.10', 'CL.c.0', 'ESZ6', 'ES.c', 'es.c.0']) expect(parseContinuousSymbol(bad), bad).toBeNull();
  });
});

describe('calendar roll', () => {
  it('rolls on the Thursday eight days before the third Friday, rank 1 one contract further', () => {
    // 2026-12-07 Monday to 2026-12-14 Monday: ESZ26 through Wednesday 12-09, ESH27 from the roll date 12-10.
    expect(intervals('ES.c.0', '2026-12-07', '2026-12-14')).toEqual([
      ['2026-12-07', '2026-12-09', 'ESZ26'],
      ['2026-12-10', '2026-12-14', 'ESH27'],
    ]);
    expect(intervals('ES.c.1', '2026-12-07', '2026-12-14')).toEqual([
      ['2026-12-07', '2026-12-09', 'ESH27'],
      ['2026-12-10', '2026-12-14', 'ESM27'],
    ]);
  });

  it('keeps the roll date eight days before the Friday when expiry moves to the Thursday (Juneteenth 2026)', () => {
    expect(intervals('NQ.c.0', '2026-06-08', '2026-06-22')).toEqual([
      ['2026-06-08', '2026-06-10', 'NQM26'],
      ['2026-06-11', '2026-06-22', 'NQU26'],
    ]);
  });

  it('skips weekends and holidays: the mapping covers trade dates only', () => {
    // Saturday 12-12 and Sunday 12-13 are no trade dates; a range of weekend days alone is empty.
    expect(intervals('ES.c.0', '2026-12-12', '2026-12-13')).toEqual([]);
    // Thanksgiving 2026-11-26 is no trade date: the interval runs over it.
    expect(intervals('ES.c.0', '2026-11-25', '2026-11-27')).toEqual([['2026-11-25', '2026-11-27', 'ESZ26']]);
  });
});

describe('volume and open-interest rolls', () => {
  // Previous-day cleared volume [volume, open interest] by trade date; 12-10 has no statistics at all.
  const f = figures({
    '2026-12-04': { [Z26]: [1_500_000, 2_000_000], [H27]: [200_000, 600_000] },
    '2026-12-07': { [Z26]: [1_200_000, 1_900_000], [H27]: [900_000, 900_000] },
    '2026-12-08': { [Z26]: [800_000, 1_500_000], [H27]: [1_300_000, 1_400_000] },
    '2026-12-09': { [Z26]: [700_000, 1_200_000], [H27]: [700_000, 1_700_000] },
    '2026-12-11': { [Z26]: [300_000, 900_000], [H27]: [1_500_000, 2_100_000] },
    '2026-12-16': { [Z26]: [5_000_000, 100_000], [H27]: [1_000, 2_500_000] },
  });

  it('volume: the largest previous-day volume, ties to the nearer expiry, a missing day skipped, rolling back when it leads again', () => {
    // 12-07 ← 12-04: Z; 12-08 ← 12-07: Z; 12-09 ← 12-08: H; 12-10 ← 12-09 tie: Z (nearer);
    // 12-11 ← (12-10 missing) 12-09 tie: Z; 12-14 ← 12-11: H.
    expect(intervals('ES.v.0', '2026-12-07', '2026-12-14', f)).toEqual([
      ['2026-12-07', '2026-12-08', 'ESZ26'],
      ['2026-12-09', '2026-12-09', 'ESH27'],
      ['2026-12-10', '2026-12-11', 'ESZ26'],
      ['2026-12-14', '2026-12-14', 'ESH27'],
    ]);
    const eleventh = mapTradeDate(symbol('ES.v.0'), '2026-12-11', f)!;
    expect(eleventh.basis).toMatchObject({ rule: 'volume', figureDate: '2026-12-09', fallback: false });
    expect(eleventh.basis.figures.slice(0, 3).map((x) => [x.contract.symbol, x.value])).toEqual([
      ['ESZ26', 700_000],
      ['ESH27', 700_000],
      ['ESM27', null],
    ]);
    // Rank 1: the second largest.
    expect(intervals('ES.v.1', '2026-12-07', '2026-12-08', f)).toEqual([['2026-12-07', '2026-12-08', 'ESH27']]);
  });

  it('open interest: the largest previous-day open interest', () => {
    // 12-07 ← 12-04: Z; 12-08 ← 12-07: Z; 12-09 ← 12-08: Z (1.5M > 1.4M); 12-10 ← 12-09: H; 12-11 ← 12-09: H.
    expect(intervals('ES.n.0', '2026-12-07', '2026-12-11', f)).toEqual([
      ['2026-12-07', '2026-12-09', 'ESZ26'],
      ['2026-12-10', '2026-12-11', 'ESH27'],
    ]);
  });

  it('leaves out a contract on its last trade date, whatever its figures', () => {
    // 12-18 is ESZ26's last trade date (trading ends 09:30 ET): ESH27 although Z traded more on 12-16 (12-17 has no figures).
    expect(mapTradeDate(symbol('ES.v.0'), '2026-12-18', f)!.contract.symbol).toBe('ESH27');
    expect(mapTradeDate(symbol('ES.v.0'), '2026-12-17', f)!.contract.symbol).toBe('ESZ26');
  });

  it('falls back to the calendar rule, and says so, with no figures in the lookback', () => {
    const day = mapTradeDate(symbol('ES.n.0'), '2026-12-10', new Map())!;
    expect(day.contract.symbol).toBe('ESH27');
    expect(day.basis).toEqual({ rule: 'open_interest', figureDate: null, fallback: true, figures: [] });
    // Figures six trade dates back are beyond the five-date lookback.
    const old = figures({ '2026-12-01': { [Z26]: [1, 1] } });
    expect(mapTradeDate(symbol('ES.v.0'), '2026-12-09', old)!.basis.fallback).toBe(true);
    expect(mapTradeDate(symbol('ES.v.0'), '2026-12-08', old)!.basis).toMatchObject({ figureDate: '2026-12-01', fallback: false });
  });

  it('answers no contract for a rank beyond those that qualify', () => {
    // NQ lists 5 quarters: ranks 0 to 4 under the volume rule; rank 5 has none.
    expect(mapTradeDate(symbol('NQ.v.4'), '2026-12-07', new Map())).not.toBeNull();
    expect(mapTradeDate(symbol('NQ.v.5'), '2026-12-07', new Map())).toBeNull();
    expect(intervals('NQ.c.9', '2026-12-07', '2026-12-08')).toEqual([]);
  });
});

describe('the mapping over a range', () => {
  it('equals each trade date mapped on its own, across several expirations, missing days and ties', () => {
    // Figures for a year of trade dates from a fixed sequence: every seventh date missing, values on a coarse grid (ties).
    const dates = tradeDatesBetween('2025-11-01', '2026-12-31');
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) % 5;
    const f = new Map<string, Map<string, ContractFigures>>();
    dates.forEach((date, i) => {
      if (i % 7 === 3) return;
      const months = new Map<string, ContractFigures>();
      for (const month of ['2025-12', '2026-03', '2026-06', '2026-09', '2026-12', '2027-03']) {
        if (next() !== 0) months.set(month, { volume: next() * 100, openInterest: next() * 1000 });
      }
      f.set(date, months);
    });
    for (const s of ['ES.c.0', 'ES.c.2', 'ES.v.0', 'ES.v.1', 'NQ.n.0', 'RTY.n.4']) {
      const sym = symbol(s);
      const ranged = continuousMapping(sym, '2025-12-01', '2026-12-01', f).flatMap((iv) =>
        tradeDatesBetween(iv.startDate, iv.endDate).map((date) => [date, iv.contract.symbol]),
      );
      const daily = tradeDatesBetween('2025-12-01', '2026-12-01').flatMap((date) => {
        const day = mapTradeDate(sym, date, f);
        return day === null ? [] : [[date, day.contract.symbol]];
      });
      expect(ranged, s).toEqual(daily);
      expect(new Set(ranged.map(([, c]) => c)).size, s).toBeGreaterThan(2);
    }
  });
});

describe('back-adjustment', () => {
  // Roll 0: 100 → 102 (+2); roll 1: 110 → 109 (−1).
  const rolls = [
    { oldPrice: 100, newPrice: 102 },
    { oldPrice: 110, newPrice: 109 },
  ];

  it('difference: each earlier segment shifted by the sum of the later gaps, the newest unadjusted', () => {
    expect(segmentAdjustments(rolls, 'difference')).toEqual([
      { offset: 1, factor: 1 },
      { offset: -1, factor: 1 },
      { offset: 0, factor: 1 },
    ]);
  });

  it('ratio: each earlier segment scaled by the product of the later ratios', () => {
    const r = segmentAdjustments(rolls, 'ratio');
    expect(r.map((a) => a.offset)).toEqual([0, 0, 0]);
    expect(r[2]!.factor).toBe(1);
    expect(r[1]!.factor).toBeCloseTo(109 / 110, 15);
    expect(r[0]!.factor).toBeCloseTo((109 / 110) * (102 / 100), 15);
  });

  it('none, or a roll missing a price, adjusts nothing at that roll', () => {
    expect(segmentAdjustments(rolls, 'none')).toEqual([
      { offset: 0, factor: 1 },
      { offset: 0, factor: 1 },
      { offset: 0, factor: 1 },
    ]);
    expect(segmentAdjustments([{ oldPrice: 100, newPrice: null }, ...rolls.slice(1)], 'difference').map((a) => a.offset)).toEqual([
      -1, -1, 0,
    ]);
    expect(segmentAdjustments([], 'ratio')).toEqual([{ offset: 0, factor: 1 }]);
  });
});

describe('the calendar first dates', () => {
  it('maps the first week of the supported calendar with the few trade dates before it (a volume rule falls back to the calendar)', () => {
    for (const symbol of ['ES.c.0', 'ES.v.0'] as const) {
      const mapped = continuousMapping(parseContinuousSymbol(symbol)!, '2000-01-01', '2000-01-06', new Map());
      expect(mapped.map((i) => [i.startDate, i.endDate, i.contract.symbol])).toEqual([['2000-01-03', '2000-01-06', 'ESH00']]);
    }
  });
});
