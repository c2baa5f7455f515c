/**
 * The Nasdaq-100 and Russell 2000 of the simulated market (model.ts NDX_START, RUT_START): their
 * one-minute values exist only in their calculation hours, their ETFs track them minute by minute at
 * the ratios model.ts states, and the put-call parity forward of their option chains (NDX/NDXP,
 * RUT/RUTW) sits on the index carried at the rate and dividend yield. A day simulated in memory
 * (day.ts simulateDay, the lines the day files hold), a regular one and an early close.
 */
import { describe, expect, it } from 'vitest';
import { calendarDay } from '../../analytics/calendar.js';
import { parseOccSymbol } from '../../analytics/occ.js';
import { dividendYield, riskFreeRate } from '../../analytics/rates.js';
import { MS_PER_YEAR, settlementInstant } from '../../analytics/settlement.js';
import { impliedForward } from '../../analytics/volatility/forward.js';
import { buildChain } from './chain.js';
import { simulateDay, type SimulatedMinute } from './day.js';
import { NDX_START, PHLX, CBOE, ROOTS, RUT_START, UNDERLYINGS } from './model.js';
import { SCALES } from './activity.js';
import { segmentsOf, simulatePaths } from './paths.js';
import { Prng } from './prng.js';

interface Bar {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A date's minutes, each with its bars by symbol. */
function simulate(date: string, seed: number, quotes: boolean): { minutes: SimulatedMinute[]; bars: Map<number, Map<string, Bar>> } {
  const rng = new Prng(seed);
  const scale = { ...SCALES.default, rthEvents: 2000, gthEvents: 40, curbEvents: 20 };
  const chain = buildChain([date], scale);
  const minutes = [
    ...simulateDay({
      chain,
      scale,
      rng,
      tradingDate: date,
      paths: simulatePaths(segmentsOf(date), rng.fork('paths')),
      rate: riskFreeRate(date),
      dividends: UNDERLYINGS.map((u) => dividendYield(u.symbol)),
      now: Number.MAX_SAFE_INTEGER,
      snapshots: quotes,
      quotes,
      volume: new Int32Array(chain.count),
    }),
  ];
  const bars = new Map<number, Map<string, Bar>>();
  for (const m of minutes) {
    for (const line of m.bars) {
      const [symbol, ts, open, high, low, close, volume] = line.split(',') as [string, string, string, string, string, string, string];
      const byMinute = bars.get(Number(ts)) ?? new Map<string, Bar>();
      byMinute.set(symbol, { open: Number(open), high: Number(high), low: Number(low), close: Number(close), volume: Number(volume) });
      bars.set(Number(ts), byMinute);
    }
  }
  return { minutes, bars };
}

const regular = simulate('2026-11-24', 31, true);
const early = simulate('2026-11-27', 32, false);

describe('simulated NDX and RUT', () => {
  it('have values only in their regular session, 09:30 to the equity close (13:00 on an early close), without volume', () => {
    for (const [date, day] of [
      ['2026-11-24', regular],
      ['2026-11-27', early],
    ] as const) {
      const { open_timestamp: open, close_timestamp: close } = calendarDay(date);
      const expected = Array.from({ length: (close! - open!) / 60_000 }, (_, i) => open! + i * 60_000);
      expect(expected.length).toBe(date === '2026-11-27' ? 210 : 390);
      for (const symbol of ['NDX', 'RUT', 'SPX']) {
        const times = [...day.bars].filter(([, m]) => m.has(symbol)).map(([t]) => t);
        expect(times, `${symbol} ${date}`).toEqual(expected);
        expect([...day.bars.values()].filter((m) => m.has(symbol)).every((m) => m.get(symbol)!.volume === 0)).toBe(true);
      }
      // The ETFs trade to 16:15 (13:15), past the index's last value; the index options' paths move
      // on through the curb on a regular day but no index value is written there.
      const qqq = [...day.bars].filter(([, m]) => m.has('QQQ')).length;
      expect(qqq, date).toBe(expected.length + 15);
    }
  });

  it('move with QQQ and IWM at fixed ratios, minute by minute within the tracking noise', () => {
    const pairs = [
      { etf: 'QQQ', index: 'NDX', ratio: 510 / NDX_START },
      { etf: 'IWM', index: 'RUT', ratio: 225 / RUT_START },
    ];
    // The stated ratios: QQQ ≈ NDX / 40.98, IWM ≈ RUT / 10.
    expect(1 / pairs[0]!.ratio).toBeCloseTo(40.98, 2);
    expect(1 / pairs[1]!.ratio).toBeCloseTo(10, 6);
    for (const day of [regular, early]) {
      for (const { etf, index, ratio } of pairs) {
        let checked = 0;
        let worst = 0;
        const closes: number[] = [];
        for (const m of day.bars.values()) {
          const e = m.get(etf);
          const i = m.get(index);
          if (!e || !i) continue;
          // Each sub-step's noise is 3e-5 (paths.ts TRACKING_NOISE), the ETF's cent rounding up to
          // 2.2e-5 of IWM's price: 2e-4 is some six standard deviations.
          for (const field of ['open', 'high', 'low', 'close'] as const)
            worst = Math.max(worst, Math.abs(e[field] / (i[field] * ratio) - 1));
          closes.push(i.close);
          checked += 1;
        }
        expect(checked).toBeGreaterThan(200);
        expect(worst, `${etf}/${index}`).toBeLessThan(2e-4);
        // The index moves (a ratio held by two flat lines would prove nothing).
        expect(Math.max(...closes) / Math.min(...closes) - 1, index).toBeGreaterThan(0.001);
      }
    }
  });

  it('has its option chains single-listed with a put-call parity forward on the index carried to each expiration', () => {
    const rootOf = new Map(ROOTS.map((r) => [r.root, r]));
    expect(rootOf.get('NDX')!.venue).toBe(PHLX);
    expect(rootOf.get('NDXP')!.venue).toBe(PHLX);
    expect(rootOf.get('RUT')!.venue).toBe(CBOE);
    expect(rootOf.get('RUTW')!.venue).toBe(CBOE);
    // Prints of the day: on their one venue only.
    const venues = new Map<string, Set<number>>();
    for (const m of regular.minutes) {
      for (const line of m.prints) {
        const [symbol, , , , , exchange] = line.split(',');
        const root = parseOccSymbol(symbol!).root;
        venues.set(root, (venues.get(root) ?? new Set()).add(Number(exchange)));
      }
    }
    for (const root of ['NDX', 'NDXP', 'RUT', 'RUTW']) expect([...(venues.get(root) ?? [])], root).toEqual([rootOf.get(root)!.venue]);

    // The chain snapshot 30 minutes into the session (10:00 ET): per expiration, the parity forward
    // of the quotes against S·e^{(r−q)T}, S the index's close of that minute.
    const date = '2026-11-24';
    const at = calendarDay(date).open_timestamp! + 30 * 60_000;
    const minute = regular.minutes.find((m) => m.start === at && m.segment.kind === 'rth')!;
    const rate = riskFreeRate(date);
    const chains = new Map<string, { strike: number; type: 'call' | 'put'; bid: number | null; ask: number | null }[]>();
    for (const line of minute.quotes) {
      const [symbol, , bid, ask] = line.split(',') as [string, string, string, string];
      const c = parseOccSymbol(symbol);
      if (!['NDX', 'NDXP', 'RUT', 'RUTW'].includes(c.root)) continue;
      const key = `${c.root} ${c.dateOfExpiry}`;
      chains.set(key, [
        ...(chains.get(key) ?? []),
        { strike: c.strike, type: c.type, bid: bid === '' ? null : Number(bid), ask: Number(ask) },
      ]);
    }
    const checked = new Set<string>();
    for (const [key, quotes] of chains) {
      const [root, expiry] = key.split(' ') as [string, string];
      const underlying = root.startsWith('NDX') ? 'NDX' : 'RUT';
      const spot = regular.bars.get(at)!.get(underlying)!.close;
      const time = (settlementInstant(root, expiry) - at) / MS_PER_YEAR;
      const estimate = impliedForward({ quotes, time, rate, spot });
      expect(estimate, key).not.toBeNull();
      const carried = spot * Math.exp((rate - dividendYield(underlying)) * time);
      // Within 0.05% (NDX some 10 points, RUT 1): the quotes' lean and tick rounding.
      expect(Math.abs(estimate!.forward / carried - 1), `${key}: ${estimate!.forward} against ${carried}`).toBeLessThan(5e-4);
      checked.add(root);
    }
    expect([...checked].sort()).toEqual(['NDX', 'NDXP', 'RUT', 'RUTW']);
    expect(chains.size).toBeGreaterThan(20);
  });
});
