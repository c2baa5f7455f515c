/**
 * Listed expirations, strike grids, contracts and open interest.
 *
 * Expirations (calendar.ts): SPX standard monthlies on the third Friday (the preceding trading
 * day when it is a holiday), AM-settled, last traded the day before; SPXW, SPY, QQQ and IWM list
 * every trading day (Monday to Friday) for `dailyDays`, Friday weeklies (Thursday when the Friday
 * is a holiday) for `weeklyDays`, then monthlies; single stocks list Friday weeklies and monthlies.
 * Monthlies are listed for `monthlyDays`, then quarterly months (Mar, Jun, Sep, Dec) out to
 * `horizonDays`. Every expiration from the first simulated date onwards is listed, so contracts
 * that expire during the simulated week are present on the days they trade.
 *
 * Strikes: the root's bands around the reference price (the underlying's starting level), e.g. SPX
 * every 5 points within ±5% and every 25 out to ±20%, SPY $1 within ±8% then $5; each expiration
 * lists out to clamp(rangeSigmas·σ·√T, minRange, outermost band), so short expirations list a
 * narrower range at the default scale, and the full scale lists every band in full. Strikes are
 * multiples of their band's step.
 *
 * Open interest at the first date (Garleanu, Pedersen and Poteshman, "Demand-based option
 * pricing", RFS 22(10), 2009, document its concentration near the money and in monthlies):
 *   OI = scale · w(expiry) · exp(−z²/(2·1.3²)) · round-strike bonus · put-wing bonus · lognormal(0, 0.5),
 * z the standardised moneyness at the reference price; w = 1 for monthlies (1.5 in quarterly
 * months), 0.35 for weeklies and dailies, decaying for far expirations (new series hold less).
 * Each later date adds the previous date's simulated volume times U(−0.15, 0.55) (opening minus
 * closing trades), never below zero.
 */
import { addDays, daysBetween, dayOfWeek } from '../../analytics/new-york-time.js';
import { isTradingDay, monthlyExpiration, previousTradingDay, calendarDay } from '../../analytics/calendar.js';
import { formatOccSymbol } from '../../analytics/occ.js';
import { optionRoot } from '../../analytics/roots.js';
import { settlementInstant, settlementStyle, MS_PER_YEAR } from '../../analytics/settlement.js';
import { optionsRegularClose } from '../../analytics/sessions.js';
import type { OptionType } from '../../analytics/pricing.js';
import { type Prng } from './prng.js';
import { ROOTS, UNDERLYINGS, type RootSpec, type UnderlyingSpec } from './model.js';
import { type ScaleSpec } from './activity.js';

export interface Expiration {
  root: RootSpec;
  rootIndex: number;
  underlying: UnderlyingSpec;
  underlyingIndex: number;
  date: string;
  monthly: boolean;
  /** Unix ms of the settlement instant (settlement.ts). */
  settleMs: number;
  /** Last instant the series trades: the previous close for AM-settled, else the expiry's close. */
  lastTradeMs: number;
  strikes: number[];
  /** Contract id of strike i: firstId + 2i (call) or 2i + 1 (put). */
  firstId: number;
}

export interface Chain {
  expirations: Expiration[];
  /** Per root index, its expirations ascending. */
  byRoot: Expiration[][];
  symbols: string[];
  count: number;
}

export function contractId(e: Expiration, strikeIndex: number, type: OptionType): number {
  return e.firstId + 2 * strikeIndex + (type === 'put' ? 1 : 0);
}

/** The Friday of a week, or the trading day before it when that Friday is a holiday. */
function fridayExpiration(friday: string): string {
  return isTradingDay(friday) ? friday : previousTradingDay(friday);
}

export function listedExpirations(
  root: RootSpec,
  firstDate: string,
  lastDate: string,
  scale: ScaleSpec,
): { date: string; monthly: boolean }[] {
  const dates = new Map<string, boolean>();
  const horizon = addDays(lastDate, scale.horizonDays);
  // Monthlies and quarterlies.
  const [y0, m0] = firstDate.split('-').map(Number) as [number, number];
  for (let k = 0; k < 16; k += 1) {
    const year = y0 + Math.floor((m0 - 1 + k) / 12);
    const month = ((m0 - 1 + k) % 12) + 1;
    const date = monthlyExpiration(year, month);
    if (date < firstDate || date > horizon) continue;
    const within = daysBetween(lastDate, date) <= scale.monthlyDays;
    if (within || month % 3 === 0) dates.set(date, true);
  }
  if (root.expirations === 'monthly_only')
    return [...dates].map(([date, monthly]) => ({ date, monthly })).sort((a, b) => a.date.localeCompare(b.date));
  const weeklyEnd = addDays(lastDate, scale.weeklyDays);
  let friday = addDays(firstDate, (5 - dayOfWeek(firstDate) + 7) % 7);
  for (; friday <= weeklyEnd; friday = addDays(friday, 7)) {
    const date = fridayExpiration(friday);
    if (date >= firstDate && !dates.has(date)) dates.set(date, false);
  }
  if (root.expirations === 'daily') {
    const dailyEnd = addDays(lastDate, scale.dailyDays);
    for (let d = firstDate; d <= dailyEnd; d = addDays(d, 1)) {
      if (isTradingDay(d) && !dates.has(d)) dates.set(d, false);
    }
  }
  return [...dates].map(([date, monthly]) => ({ date, monthly })).sort((a, b) => a.date.localeCompare(b.date));
}

/** Strike grid of one expiration around the reference price (see the header). */
export function strikeGrid(root: RootSpec, reference: number, sigma: number, years: number, scale: ScaleSpec): number[] {
  const outer = root.strikes[root.strikes.length - 1]!.within;
  const range = Math.min(outer, Math.max(scale.minRange, scale.rangeSigmas * sigma * Math.sqrt(Math.max(years, 1 / 365))));
  const strikes = new Set<number>();
  let inner = 0;
  for (const band of root.strikes) {
    const reach = Math.min(band.within, range);
    const lo = Math.ceil((reference * (1 - reach)) / band.step);
    const hi = Math.floor((reference * (1 + reach)) / band.step);
    for (let k = lo; k <= hi; k += 1) {
      const strike = Math.round(k * band.step * 1000) / 1000;
      const distance = Math.abs(strike / reference - 1);
      if (distance >= inner - 1e-12 || band === root.strikes[0]) strikes.add(strike);
    }
    inner = reach;
    if (band.within >= range) break;
  }
  return [...strikes].filter((s) => s > 0).sort((a, b) => a - b);
}

/** Builds every listed contract of the simulated dates. */
export function buildChain(tradingDates: readonly string[], scale: ScaleSpec): Chain {
  const firstDate = tradingDates[0]!;
  const lastDate = tradingDates[tradingDates.length - 1]!;
  const referenceMs = calendarDay(firstDate).open_timestamp!;
  const expirations: Expiration[] = [];
  const byRoot: Expiration[][] = ROOTS.map(() => []);
  const symbols: string[] = [];
  ROOTS.forEach((root, rootIndex) => {
    const underlyingIndex = UNDERLYINGS.findIndex((u) => u.symbol === root.underlying);
    const underlying = UNDERLYINGS[underlyingIndex]!;
    const kind = optionRoot(root.root)?.kind === 'equity' ? 'equity' : 'index_or_etf';
    for (const { date, monthly } of listedExpirations(root, firstDate, lastDate, scale)) {
      const settleMs = settlementInstant(root.root, date);
      const am = settlementStyle(root.root) === 'am';
      const lastTradeMs = am
        ? optionsRegularClose(previousTradingDay(date), kind)!
        : Math.min(settleMs, calendarDay(date).close_timestamp ?? settleMs);
      const years = (settleMs - referenceMs) / MS_PER_YEAR;
      const strikes = strikeGrid(root, underlying.start, Math.sqrt(underlying.theta), years, scale);
      const e: Expiration = {
        root,
        rootIndex,
        underlying,
        underlyingIndex,
        date,
        monthly,
        settleMs,
        lastTradeMs,
        strikes,
        firstId: symbols.length,
      };
      for (const strike of strikes) {
        symbols.push(formatOccSymbol({ root: root.root, dateOfExpiry: date, type: 'call', strike }));
        symbols.push(formatOccSymbol({ root: root.root, dateOfExpiry: date, type: 'put', strike }));
      }
      expirations.push(e);
      byRoot[rootIndex]!.push(e);
    }
  });
  return { expirations, byRoot, symbols, count: symbols.length };
}

/** Nearest listed strike index to a target strike (binary search). */
export function nearestStrike(strikes: readonly number[], target: number): number {
  let lo = 0;
  let hi = strikes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strikes[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(strikes[lo - 1]! - target) <= Math.abs(strikes[lo]! - target)) return lo - 1;
  return lo;
}

function roundStrikeBonus(strike: number, reference: number): number {
  const unit = reference > 2000 ? 100 : reference > 300 ? 10 : 5;
  if (Math.abs(strike / unit - Math.round(strike / unit)) < 1e-9) return 1.8;
  if (Math.abs((2 * strike) / unit - Math.round((2 * strike) / unit)) < 1e-9) return 1.3;
  return 1;
}

/** Open interest at the start of the first simulated date (see the header). */
export function initialOpenInterest(chain: Chain, firstDate: string, rng: Prng): Int32Array {
  const oi = new Int32Array(chain.count);
  const referenceMs = calendarDay(firstDate).open_timestamp!;
  for (const e of chain.expirations) {
    const years = Math.max((e.settleMs - referenceMs) / MS_PER_YEAR, 1 / 365);
    const days = years * 365;
    const month = Number(e.date.slice(5, 7));
    let w = e.monthly ? (month % 3 === 0 ? 1.5 : 1) : 0.35;
    if (days > 60) w *= Math.pow(60 / days, 0.5);
    if (!e.monthly && days > 20) w *= 0.5;
    const sigma = Math.sqrt(e.underlying.theta) * Math.sqrt(years);
    const reference = e.underlying.start;
    e.strikes.forEach((strike, i) => {
      const z = Math.log(strike / reference) / sigma;
      const base = e.root.openInterestScale * w * Math.exp(-(z * z) / (2 * 1.3 * 1.3)) * roundStrikeBonus(strike, reference);
      for (const type of ['call', 'put'] as const) {
        const wing = type === 'put' ? (z < 0 ? 1.4 : 0.7) : z > 0 ? 1.1 : 0.6;
        const value = base * wing * Math.exp(0.5 * rng.normal() - 0.125);
        oi[contractId(e, i, type)] = Math.max(0, Math.round(value));
      }
    });
  }
  return oi;
}

/** Open interest of the next date from today's and today's volume (see the header). */
export function rollOpenInterest(oi: Int32Array, volume: Int32Array, rng: Prng): void {
  for (let id = 0; id < oi.length; id += 1) {
    const v = volume[id]!;
    if (v === 0) continue;
    oi[id] = Math.max(0, oi[id]! + Math.round(v * rng.between(-0.15, 0.55)));
  }
}
