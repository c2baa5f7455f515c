import { describe, expect, it } from 'vitest';
import { contractsAt } from '../../analytics/futures/contracts.js';
import { globexTradeDate, globexTradeDateAt, isGlobexOpenAt } from '../../analytics/futures/globex-calendar.js';
import { futuresProduct } from '../../analytics/futures/products.js';
import { newYorkTimeToMs } from '../../analytics/new-york-time.js';
import { dividendYield, riskFreeRate } from '../../analytics/rates.js';
import { MS_PER_YEAR } from '../../analytics/settlement.js';
import { simulateFuturesDay, NOISE, SIMULATED_FUTURES, type FuturesDay } from './futures.js';
import { datesThrough } from './index.js';
import { UNDERLYINGS } from './model.js';
import { priceAt, segmentsOf, simulatePaths, type SegmentPath } from './paths.js';
import { Prng } from './prng.js';

const MINUTE = 60_000;

interface Trade {
  symbol: string;
  ts: number;
  sequence: number;
  price: number;
  size: number;
  side: string;
  tradeDate: string;
}

function trades(day: FuturesDay): Trade[] {
  return day.trades.map(({ line }) => {
    const [symbol, ts, sequence, price, size, side, tradeDate] = line.split(',');
    return {
      symbol: symbol!,
      ts: Number(ts),
      sequence: Number(sequence),
      price: Number(price),
      size: Number(size),
      side: side!,
      tradeDate: tradeDate!,
    };
  });
}

/** The futures days of the dates simulated while `date` is in progress, with their paths. */
function week(date: string): { days: FuturesDay[]; paths: SegmentPath[] } {
  const dates = datesThrough(date);
  const paths = simulatePaths(dates.flatMap(segmentsOf), new Prng(7).fork('paths'));
  return { days: dates.map((d) => simulateFuturesDay(d, paths, new Prng(7).fork('futures'))), paths };
}

const et = (date: string, time: string): number => newYorkTimeToMs(date, time);

describe('simulated futures', () => {
  // Friday 2026-11-27 (after Thanksgiving, Globex to 13:15 ET) and the five trade dates before it.
  const thanksgiving = week('2026-11-27');
  // The roll week of the December 2026 contracts (roll date Thursday 2026-12-10).
  const roll = week('2026-12-11');
  // The December 2026 expiration (Friday 2026-12-18, 09:30 ET).
  const expiry = week('2026-12-18');
  const all = [...thanksgiving.days, ...roll.days, ...expiry.days];

  it('trades and bars only inside the Globex windows of their trade date', () => {
    let count = 0;
    const outside: string[] = [];
    // The calendar by minute (its windows open and close on whole minutes).
    const byMinute = new Map<number, { trade_date: string | undefined; trading: boolean }>();
    const calendarAt = (t: number): { trade_date: string | undefined; trading: boolean } => {
      const minute = t - (t % MINUTE);
      let answer = byMinute.get(minute);
      if (answer === undefined) {
        const at = globexTradeDateAt(minute);
        answer = { trade_date: at?.trade_date, trading: isGlobexOpenAt(minute) };
        byMinute.set(minute, answer);
      }
      return answer;
    };
    for (const day of all) {
      const session = globexTradeDate(day.tradeDate)!;
      const inside = (t: number): boolean => session.windows.some((w) => t >= w.start_time && t < w.end_time);
      for (const t of trades(day)) {
        const at = calendarAt(t.ts);
        if (!inside(t.ts) || !at.trading || at.trade_date !== t.tradeDate || t.tradeDate !== day.tradeDate)
          outside.push(`${t.symbol} ${new Date(t.ts).toISOString()} ${t.tradeDate}`);
        count += 1;
      }
      for (const { line } of day.bars) {
        const start = Number(line.split(',')[1]);
        if (start % MINUTE !== 0 || !inside(start) || !inside(start + MINUTE - 1)) outside.push(`bar ${line}`);
      }
    }
    expect(outside).toEqual([]);
    expect(count).toBeGreaterThan(50_000);
  });

  it('leaves the hand-written closed instants empty and trades the open ones', () => {
    const stamps = all.flatMap((d) => trades(d).map((t) => t.ts));
    const between = (from: number, to: number): number => stamps.filter((t) => t >= from && t < to).length;
    // The daily 17:00-18:00 ET halt, on a Tuesday and a Wednesday.
    expect(between(et('2026-12-08', '17:00'), et('2026-12-08', '18:00'))).toBe(0);
    expect(between(et('2026-11-25', '17:00'), et('2026-11-25', '18:00'))).toBe(0);
    // A Saturday, and Sunday before 18:00 ET.
    expect(between(et('2026-12-05', '00:00'), et('2026-12-06', '18:00'))).toBe(0);
    // Thanksgiving 2026: the abbreviated session to 13:00 ET trades (for Friday's date), then the halt to 18:00.
    expect(between(et('2026-11-26', '08:00'), et('2026-11-26', '13:00'))).toBeGreaterThan(0);
    expect(between(et('2026-11-26', '13:00'), et('2026-11-26', '18:00'))).toBe(0);
    // Friday's early close at 13:15 ET.
    expect(between(et('2026-11-27', '12:00'), et('2026-11-27', '13:15'))).toBeGreaterThan(0);
    expect(between(et('2026-11-27', '13:15'), et('2026-11-29', '18:00'))).toBe(0);
    // The evening session from 18:00 ET, before the index options' overnight session opens at 20:15.
    expect(between(et('2026-12-08', '18:00'), et('2026-12-08', '20:15'))).toBeGreaterThan(0);
    expect(thanksgiving.days.find((d) => d.tradeDate === '2026-11-27')!.trades.every((r) => r.line.endsWith(',2026-11-27'))).toBe(true);
  });

  it('makes each bar the open, high, low, close and volume of its minute’s trades', () => {
    for (const day of all) {
      const expected = new Map<string, { o: number; h: number; l: number; c: number; v: number }>();
      for (const t of trades(day)) {
        const key = `${t.symbol},${t.ts - (t.ts % MINUTE)}`;
        const b = expected.get(key);
        if (b === undefined) expected.set(key, { o: t.price, h: t.price, l: t.price, c: t.price, v: t.size });
        else Object.assign(b, { h: Math.max(b.h, t.price), l: Math.min(b.l, t.price), c: t.price, v: b.v + t.size });
      }
      const bars = new Map(
        day.bars.map(({ line }) => {
          const [symbol, ts, o, h, l, c, v] = line.split(',');
          return [`${symbol},${ts}`, { o: Number(o), h: Number(h), l: Number(l), c: Number(c), v: Number(v) }];
        }),
      );
      expect(bars).toEqual(expected);
    }
  });

  it('prices each trade at the index carried by S·exp((r − q)T), on the tick, within the stated noise', () => {
    let checked = 0;
    const wrong: string[] = [];
    for (const { days, paths } of [thanksgiving, roll, expiry]) {
      for (const day of days) {
        const rth = paths.find((p) => p.segment.tradingDate === day.tradeDate && p.segment.kind === 'rth')!;
        const end = rth.segment.start + rth.segment.minutes * MINUTE;
        const rate = riskFreeRate(day.tradeDate);
        const contracts = new Map(
          SIMULATED_FUTURES.flatMap((spec) => contractsAt(spec.root, day.tradeDate, 1).map((c) => [c.globex_symbol, { spec, c }] as const)),
        );
        for (const t of trades(day)) {
          const { spec, c: contract } = contracts.get(t.symbol)!;
          const tick = futuresProduct(spec.root)!.tick_size;
          if (Math.abs(t.price / tick - Math.round(t.price / tick)) > 1e-6) wrong.push(`off the tick: ${t.symbol} ${t.price}`);
          if (t.ts < rth.segment.start || t.ts >= end) continue;
          const u = UNDERLYINGS.findIndex((x) => x.symbol === spec.index);
          const fair =
            priceAt(rth, u, t.ts) * Math.exp(((rate - dividendYield(spec.index)) * (contract.last_trade_time - t.ts)) / MS_PER_YEAR);
          const bound = fair * (Math.exp(NOISE) - 1) + tick + 1e-9;
          if (Math.abs(t.price - fair) > bound) wrong.push(`${t.symbol} at ${t.ts}: ${t.price} against ${fair}`);
          // A buyer pays at least the fair value less the noise, a seller at most more.
          if (t.side === 'buy' ? t.price < fair * Math.exp(-NOISE) - 1e-9 : t.price > fair * Math.exp(NOISE) + 1e-9)
            wrong.push(`${t.side} ${t.symbol} at ${t.ts}: ${t.price} against ${fair}`);
          checked += 1;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(30_000);
  });

  it('moves volume and open interest from the front to the next contract in the roll week', () => {
    const figures = (date: string, symbol: string): { oi: number; cleared: number } => {
      const day = roll.days.find((d) => d.tradeDate === date)!;
      const final = day.statistics.find((r) => r.line.startsWith(`${symbol},`) && r.line.includes(',final,'))!.line.split(',');
      return { oi: Number(final[4]), cleared: Number(final[5]) };
    };
    const week = ['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11'];
    for (const root of ['ES', 'NQ', 'RTY']) {
      const front = week.map((d) => figures(d, `${root}Z6`));
      const next = week.map((d) => figures(d, `${root}H7`));
      // Monday: the front leads both; Friday: the next leads both.
      expect(front[0]!.cleared).toBeGreaterThan(next[0]!.cleared);
      expect(front[0]!.oi).toBeGreaterThan(next[0]!.oi);
      expect(next[4]!.cleared).toBeGreaterThan(front[4]!.cleared);
      expect(next[4]!.oi).toBeGreaterThan(front[4]!.oi);
      // The next contract's share of open interest grows every day of the week.
      const share = week.map((_, i) => next[i]!.oi / (next[i]!.oi + front[i]!.oi));
      for (let i = 1; i < share.length; i += 1) expect(share[i]!).toBeGreaterThan(share[i - 1]!);
      // The week before, the front held nearly all of it.
      const before = figures('2026-12-04', `${root}Z6`);
      expect(before.oi).toBeGreaterThan(10 * figures('2026-12-04', `${root}H7`).oi);
    }
  });

  it('stops the front at 09:30 ET on its last trade date and settles it once, finally, at the index’s opening quotation', () => {
    const day = expiry.days.find((d) => d.tradeDate === '2026-12-18')!;
    const soq = et('2026-12-18', '09:30');
    const rth = expiry.paths.find((p) => p.segment.tradingDate === '2026-12-18' && p.segment.kind === 'rth')!;
    for (const spec of SIMULATED_FUTURES) {
      const front = trades(day).filter((t) => t.symbol === `${spec.root}Z6`);
      expect(front.length).toBeGreaterThan(0);
      expect(Math.max(...front.map((t) => t.ts))).toBeLessThan(soq);
      // After the expiration the two nearest are H7 and M7.
      expect(trades(day).filter((t) => t.ts >= soq && t.symbol === `${spec.root}H7`).length).toBeGreaterThan(0);
      expect(trades(day).some((t) => t.ts >= soq && t.symbol === `${spec.root}M7`)).toBe(true);
      const stats = day.statistics.filter((r) => r.line.startsWith(`${spec.root}Z6,`)).map((r) => r.line.split(','));
      expect(stats).toHaveLength(1);
      const level = rth.points[UNDERLYINGS.findIndex((u) => u.symbol === spec.index)]![0]!;
      expect(stats[0]!.slice(2, 5)).toEqual([String(Math.round(level * 100) / 100), 'final', '0']);
    }
  });

  it('publishes a preliminary settlement at the close and a final one at the same price with open interest and cleared volume', () => {
    for (const day of roll.days) {
      const settle = globexTradeDate(day.tradeDate)!.windows.at(-1)!.end_time;
      const bySymbol = new Map<string, { at: number; fields: string[] }[]>();
      for (const r of day.statistics) {
        const fields = r.line.split(',');
        bySymbol.set(fields[0]!, [...(bySymbol.get(fields[0]!) ?? []), { at: r.at, fields }]);
      }
      expect(bySymbol.size).toBe(6);
      for (const [symbol, rows] of bySymbol) {
        expect(rows.map((r) => r.fields[3])).toEqual(['preliminary', 'final']);
        const [preliminary, final] = rows;
        expect(preliminary!.at).toBe(et(day.tradeDate, '16:00') + 30_000);
        expect(final!.at).toBe(settle);
        expect(final!.fields[2]).toBe(preliminary!.fields[2]);
        const cleared = trades(day)
          .filter((t) => t.symbol === symbol)
          .reduce((sum, t) => sum + t.size, 0);
        expect(Number(final!.fields[5])).toBe(cleared);
        expect(Number(final!.fields[4])).toBeGreaterThan(0);
      }
    }
  });

  it('keeps volume modest and sequences each root’s trades of a date in time order', () => {
    const wrong: string[] = [];
    for (const day of all) {
      const perContract = new Map<string, number>();
      const last = new Map<string, { seq: number; ts: number }>();
      for (const t of trades(day)) {
        perContract.set(t.symbol, (perContract.get(t.symbol) ?? 0) + 1);
        const root = t.symbol.slice(0, -2);
        const previous = last.get(root);
        if (previous && (t.sequence !== previous.seq + 1 || t.ts < previous.ts)) wrong.push(`${day.tradeDate} ${t.symbol} ${t.sequence}`);
        last.set(root, { seq: t.sequence, ts: t.ts });
      }
      for (const [symbol, n] of perContract) if (n >= 4000) wrong.push(`${day.tradeDate} ${symbol}: ${n} trades`);
    }
    expect(wrong).toEqual([]);
  });
});
