/**
 * Simulated CME equity-index futures (issue 38 §1): ES on SPX, NQ on NDX and RTY on RUT, the
 * quarterly contracts of analytics/futures/contracts.ts, one CME trade date at a time, as lines of
 * the canonical futures layouts (futures-layouts.ts): definitions, trades, one-minute bars and
 * statistics. The seed (index.ts) writes them as files beside each date's options files and the live
 * market (src/live/simulated-source.ts) hands each minute's rows to the same loaders; both take them
 * from simulateFuturesDay, so a live minute's futures rows are the day file's.
 *
 * Model
 * - Hours: the Globex windows of the trade date (analytics/futures/globex-calendar.ts
 *   globexTradeDate: from 18:00 ET the evening before, holidays' abbreviated sessions and early
 *   closes included); no trade or bar outside them.
 * - Fair value: F = S·exp((r − q)·T), S the index's simulated level (paths.ts, the same level its
 *   options are priced on, sub-step exact), r = rates.ts riskFreeRate(trade date) and q = rates.ts
 *   dividendYield(index), the r and q of the options' put-call parity forward (day.ts), T the years
 *   (settlement.ts MS_PER_YEAR, 365 days) from the instant to the contract's last trading instant
 *   (09:30 ET on its last trade date, the Special Opening Quotation).
 * - Where the index has no simulated level (the Globex evening from 18:00 ET before its options'
 *   overnight session opens at 20:15, the 09:25–09:30 pause, a holiday's abbreviated session) the
 *   future moves on its own: a random walk of GAP_SIGMA per minute in log price. Before the
 *   date's first simulated level it is a walk run backwards from that level; between two levels, a
 *   Brownian bridge between them. So the index, when it opens again, is where the future had walked
 *   to (no jump), and the evening's 18:00 reopen may gap from the previous 17:00 close as a real one does.
 * - Noise: a trade's price is the fair value times exp(ε), ε uniform in ±NOISE (1 basis point),
 *   then rounded to the tick (ES and NQ 0.25, RTY 0.10; products.ts) up for a buyer-initiated trade
 *   and down for a seller-initiated one. So |price − F| ≤ F·(e^NOISE − 1) + tick.
 * - Volume: Poisson trades at TRADES_PER_MINUTE in the index's regular session (09:30–16:15 ET),
 *   OFF_HOURS_ACTIVITY of it at other times (some 1,000 to 2,500 trades a day per root), sizes
 *   1 + a geometric tail (mean about 3.5), capped at 60; buy or sell with equal chance.
 * - Contracts: the two nearest not expired at the instant (on an expiration date, the expiring
 *   contract until 09:30 ET, then the two after it). The next contract's share of trades follows
 *   a logistic in calendar days from the front's roll date (CME's: eight days before expiration)
 *   that crosses one half between the Wednesday and the roll date Thursday; open interest moves
 *   half a day behind, crossing between Thursday and Friday of the roll week. The total open
 *   interest of a root is OPEN_INTEREST (CME's order of magnitude) with a ±2% daily wobble.
 * - Statistics per contract and trade date: a preliminary settlement (the volume-weighted average
 *   of the contract's trades in the 30 seconds before the 16:00 ET close of the index's regular
 *   session, 13:00 ET on an early close; the fair value there when it did not trade; on the tick)
 *   published 30 seconds after it; then a final settlement at the same price with open interest and
 *   cleared volume (the sum of the date's simulated trade sizes) published at the Globex close. An
 *   expiring contract's only settlement is final: the index's Special Opening Quotation (its level at
 *   09:30 ET, to the cent), published at 09:45 ET, with open interest 0.
 *
 * Each row carries the instant it becomes known (`at`): a trade or bar at its minute's end, a
 * statistic when published. A day file holds the rows known by `now`.
 */
import { contractsAt, type FuturesContract } from '../../analytics/futures/contracts.js';
import { globexTradeDate } from '../../analytics/futures/globex-calendar.js';
import { futuresProduct, type FuturesIndex, type FuturesRoot } from '../../analytics/futures/products.js';
import { dividendYield, riskFreeRate } from '../../analytics/rates.js';
import { MS_PER_YEAR } from '../../analytics/settlement.js';
import { UNDERLYINGS } from './model.js';
import { MINUTE_MS, priceAt, SUB_STEPS, type SegmentPath } from './paths.js';
import type { Prng } from './prng.js';

/** The simulated roots, their index, regular-session trades a minute and total open interest. */
export const SIMULATED_FUTURES: readonly { root: FuturesRoot; index: FuturesIndex; tradesPerMinute: number; openInterest: number }[] = [
  { root: 'ES', index: 'SPX', tradesPerMinute: 3, openInterest: 2_100_000 },
  { root: 'NQ', index: 'NDX', tradesPerMinute: 2.5, openInterest: 260_000 },
  { root: 'RTY', index: 'RUT', tradesPerMinute: 1.5, openInterest: 460_000 },
];

/** Half-width of a trade's relative noise around the fair value: 1 basis point. */
export const NOISE = 0.0001;
/** Standard deviation of the future's own log-price walk per minute where the index has no level. */
export const GAP_SIGMA = 0.0001;
/** Trade rate outside the index's regular session, relative to TRADES_PER_MINUTE. */
const OFF_HOURS_ACTIVITY = 0.2;
const MAX_SIZE = 60;
/** Seconds of trades the settlement averages (CME equity-index futures: the 30 s before 15:00 CT). */
const SETTLEMENT_WINDOW_MS = 30_000;
const SOQ_PUBLISHED_MS = 15 * MINUTE_MS;
const DAY_MS = 86_400_000;

/** A row of a canonical futures layout and the instant it is known (a trade or bar: its minute's end). */
export interface FuturesRow {
  at: number;
  line: string;
}

export interface FuturesDay {
  tradeDate: string;
  /** futures_definitions lines of the contracts that trade on the date. */
  definitions: string[];
  trades: FuturesRow[];
  bars: FuturesRow[];
  statistics: FuturesRow[];
}

/** Share of the next contract (trades or open interest) `days` calendar days after the front's roll date. */
export function nextShare(days: number): number {
  return 0.03 + 0.94 / (1 + Math.exp(-1.1 * days));
}
/** The volume's crossover: half a day before the roll date's. */
export const volumeShare = (daysFromRoll: number): number => nextShare(daysFromRoll + 0.5);
/** Open interest's: half a day after. */
export const openInterestShare = (daysFromRoll: number): number => nextShare(daysFromRoll - 0.5);

const daysBetween = (from: string, to: string): number => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS;

/** Fair value: the index level carried to the contract's last trading instant. */
export function carryPrice(level: number, rate: number, dividend: number, lastTradeTime: number, at: number): number {
  return level * Math.exp(((rate - dividend) * (lastTradeTime - at)) / MS_PER_YEAR);
}

/** The price on a tick grid, up or down, with the grid's decimals (0.25 and 0.1 ticks: two). */
function onTick(price: number, tick: number, direction: 'up' | 'down' | 'nearest'): number {
  const steps = price / tick;
  const n = direction === 'up' ? Math.ceil(steps - 1e-9) : direction === 'down' ? Math.floor(steps + 1e-9) : Math.round(steps);
  return Math.round(n * tick * 100) / 100;
}

/**
 * The index's level at any instant of the trade date's Globex windows: the simulated path inside
 * its segments, the walks and bridges of the header between and before them (on a minute grid,
 * linear inside a minute).
 */
export function levelOf(segments: readonly SegmentPath[], u: number, from: number, to: number, rng: Prng): (t: number) => number {
  const sorted = [...segments].sort((a, b) => a.segment.start - b.segment.start);
  if (sorted.length === 0) throw new RangeError('no simulated index level on the trade date');
  const n = Math.round((to - from) / MINUTE_MS);
  const grid = new Float64Array(n + 1);
  const known = new Uint8Array(n + 1);
  for (let k = 0; k <= n; k += 1) {
    const t = from + k * MINUTE_MS;
    const s = sorted.find((p) => t >= p.segment.start && t <= p.segment.start + p.segment.minutes * MINUTE_MS);
    if (s === undefined) continue;
    grid[k] = s.points[u]![((t - s.segment.start) / MINUTE_MS) * SUB_STEPS]!;
    known[k] = 1;
  }
  for (let k = 0; k <= n;) {
    if (known[k] === 1) {
      k += 1;
      continue;
    }
    let end = k;
    while (end <= n && known[end] === 0) end += 1;
    const before = k > 0 ? Math.log(grid[k - 1]!) : null;
    const after = end <= n ? Math.log(grid[end]!) : null;
    if (before === null && after === null) throw new RangeError('no simulated index level on the trade date');
    if (before !== null && after !== null) {
      // Brownian bridge from k-1 to end.
      const steps = end - (k - 1);
      const walk = new Float64Array(steps + 1);
      for (let i = 1; i <= steps; i += 1) walk[i] = walk[i - 1]! + GAP_SIGMA * rng.normal();
      for (let i = 1; i < steps; i += 1) {
        const f = i / steps;
        grid[k - 1 + i] = Math.exp(before + f * (after - before) + walk[i]! - f * walk[steps]!);
      }
    } else if (after !== null) {
      // Backwards from the first level.
      let x = after;
      for (let i = end - 1; i >= k; i -= 1) grid[i] = Math.exp((x += GAP_SIGMA * rng.normal()));
    } else {
      let x = before!;
      for (let i = k; i < end; i += 1) grid[i] = Math.exp((x += GAP_SIGMA * rng.normal()));
    }
    k = end;
  }
  return (t: number): number => {
    const s = sorted.find((p) => t >= p.segment.start && t < p.segment.start + p.segment.minutes * MINUTE_MS);
    if (s !== undefined) return priceAt(s, u, t);
    const x = Math.min(Math.max((t - from) / MINUTE_MS, 0), n);
    const i = Math.min(Math.floor(x), Math.max(n - 1, 0));
    const f = x - i;
    return grid[i]! * (1 - f) + grid[Math.min(i + 1, n)]! * f;
  };
}

interface Bar {
  symbol: string;
  minute: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

interface Trade {
  contract: FuturesContract;
  ts: number;
  price: number;
  size: number;
  side: 'buy' | 'sell';
}

/**
 * The futures rows of one CME trade date, from the options trading date's simulated paths (that
 * date's segments: paths.ts segmentsOf). Deterministic in `rng` (forked by root and date), `paths`
 * and the date; an empty day when the date is not a trade date.
 */
export function simulateFuturesDay(tradeDate: string, paths: readonly SegmentPath[], rng: Prng): FuturesDay {
  const day: FuturesDay = { tradeDate, definitions: [], trades: [], bars: [], statistics: [] };
  const session = globexTradeDate(tradeDate);
  const segments = paths.filter((p) => p.segment.tradingDate === tradeDate);
  if (session === null || segments.length === 0) return day;
  const rth = segments.find((p) => p.segment.kind === 'rth')?.segment;
  if (rth === undefined) return day;
  const regularStart = rth.start;
  const regularEnd = rth.start + rth.minutes * MINUTE_MS;
  const settleAt = rth.start + rth.equityMinutes * MINUTE_MS;
  const from = session.windows[0]!.start_time;
  const to = session.windows[session.windows.length - 1]!.end_time;
  const rate = riskFreeRate(tradeDate);

  for (const spec of SIMULATED_FUTURES) {
    const product = futuresProduct(spec.root)!;
    const u = UNDERLYINGS.findIndex((x) => x.symbol === spec.index);
    if (u < 0) throw new RangeError(`the simulator has no ${spec.index}`);
    const q = dividendYield(spec.index);
    const r = rng.fork(`futures:${spec.root}:${tradeDate}`);
    const level = levelOf(segments, u, from, to, r.fork('level'));
    const tradeRng = r.fork('trades');
    // The two nearest at every instant: on an expiration date, three are listed in turn.
    const listed = contractsAt(spec.root, tradeDate).slice(0, 3);
    const expiring = listed[0]!.last_trade_date === tradeDate;
    const contracts = expiring ? listed : listed.slice(0, 2);
    const trades: Trade[] = [];
    for (const w of session.windows) {
      for (let t0 = w.start_time; t0 + MINUTE_MS <= w.end_time; t0 += MINUTE_MS) {
        const regular = t0 >= regularStart && t0 < regularEnd;
        const count = tradeRng.poisson(spec.tradesPerMinute * (regular ? 1 : OFF_HOURS_ACTIVITY));
        const offsets: number[] = [];
        for (let i = 0; i < count; i += 1) offsets.push(tradeRng.int(MINUTE_MS));
        offsets.sort((a, b) => a - b);
        for (const offset of offsets) {
          const ts = t0 + offset;
          const open = contracts.filter((c) => ts < c.last_trade_time);
          const front = open[0]!;
          const next = open[1];
          const contract = next !== undefined && tradeRng.chance(volumeShare(daysBetween(front.roll_date, tradeDate))) ? next : front;
          const side = tradeRng.chance(0.5) ? 'buy' : 'sell';
          const size = Math.min(MAX_SIZE, 1 + Math.floor(-Math.log(tradeRng.uniform()) * 2.5));
          const fair = carryPrice(level(ts), rate, q, contract.last_trade_time, ts);
          const noisy = fair * Math.exp(tradeRng.between(-NOISE, NOISE));
          trades.push({ contract, ts, size, side, price: onTick(noisy, product.tick_size, side === 'buy' ? 'up' : 'down') });
        }
      }
    }

    for (const c of contracts) {
      day.definitions.push(
        `${c.globex_symbol},${c.root},${c.contract_month},${c.last_trade_time},${product.tick_size},${product.multiplier},USD,`,
      );
    }
    let sequence = 0;
    const volume = new Map<string, number>();
    const vwap = new Map<string, { notional: number; size: number }>();
    const barsOpen = new Map<string, Bar>();
    const flush = (b: Bar): void => {
      day.bars.push({ at: b.minute + MINUTE_MS, line: `${b.symbol},${b.minute},${b.o},${b.h},${b.l},${b.c},${b.v}` });
    };
    for (const t of trades) {
      const symbol = t.contract.globex_symbol;
      sequence += 1;
      const minute = t.ts - (t.ts % MINUTE_MS);
      day.trades.push({ at: minute + MINUTE_MS, line: `${symbol},${t.ts},${sequence},${t.price},${t.size},${t.side},${tradeDate}` });
      volume.set(symbol, (volume.get(symbol) ?? 0) + t.size);
      if (t.ts >= settleAt - SETTLEMENT_WINDOW_MS && t.ts < settleAt) {
        const v = vwap.get(symbol) ?? { notional: 0, size: 0 };
        vwap.set(symbol, { notional: v.notional + t.price * t.size, size: v.size + t.size });
      }
      const b = barsOpen.get(symbol);
      if (b !== undefined && b.minute === minute) {
        b.h = Math.max(b.h, t.price);
        b.l = Math.min(b.l, t.price);
        b.c = t.price;
        b.v += t.size;
      } else {
        if (b !== undefined) flush(b);
        barsOpen.set(symbol, { symbol, minute, o: t.price, h: t.price, l: t.price, c: t.price, v: t.size });
      }
    }
    for (const b of barsOpen.values()) flush(b);

    const oiRng = r.fork('open-interest');
    const total = spec.openInterest * (1 + oiRng.between(-0.02, 0.02));
    const front = contracts[0]!;
    const nextOi = openInterestShare(daysBetween(front.roll_date, tradeDate));
    contracts.forEach((c, i) => {
      const symbol = c.globex_symbol;
      const cleared = volume.get(symbol) ?? 0;
      if (c.last_trade_date === tradeDate) {
        const soq = Math.round(level(c.last_trade_time) * 100) / 100;
        day.statistics.push({
          at: c.last_trade_time + SOQ_PUBLISHED_MS,
          line: `${symbol},${tradeDate},${soq},final,0,${cleared},${c.last_trade_time + SOQ_PUBLISHED_MS}`,
        });
        return;
      }
      // After an expiration the front's figures are the next's: the contract after is the new next.
      const share = expiring ? (i === 1 ? 0.98 : 0.02) : i === 0 ? 1 - nextOi : nextOi;
      const oi = Math.round(total * share);
      const v = vwap.get(symbol);
      const price =
        v !== undefined && v.size > 0
          ? onTick(v.notional / v.size, product.tick_size, 'nearest')
          : onTick(carryPrice(level(settleAt), rate, q, c.last_trade_time, settleAt), product.tick_size, 'nearest');
      const preliminary = settleAt + SETTLEMENT_WINDOW_MS;
      day.statistics.push({ at: preliminary, line: `${symbol},${tradeDate},${price},preliminary,,,${preliminary}` });
      day.statistics.push({ at: to, line: `${symbol},${tradeDate},${price},final,${oi},${cleared},${to}` });
    });
  }
  const byAt = (a: FuturesRow, b: FuturesRow): number => a.at - b.at;
  day.trades.sort(byAt);
  day.bars.sort(byAt);
  day.statistics.sort(byAt);
  return day;
}
