/**
 * Continuous futures (issue 38 §2): which contract a continuous symbol maps to on each CME trade
 * date, and the back-adjustment of the earlier contracts' prices at each roll.
 *
 * Symbols follow Databento's continuous symbology: `ES.c.0`, `ES.v.0`, `ES.n.0` (root, roll rule,
 * rank from 0). The rules:
 * - c (calendar): the contracts listed on the date that have not reached their roll date, by
 *   expiration; rank 0 is the lead month of /v1/futures/contracts. The roll date is CME's
 *   equity-index convention (contracts.ts: eight calendar days before the third-Friday expiry, the
 *   Thursday of the week before). Databento's own `c` follows the nearest expiration instead; the
 *   roll date is what CME's equity-index desks roll on, and what the reference routes call the lead.
 * - v (volume) and n (open interest): the contracts listed on the date that trade it through its
 *   close (a contract on its last trade date stops at 09:30 ET and is left out), ranked by their
 *   cleared volume (or open interest) of the previous trade date, largest first, as Databento's
 *   rules do. Ties go to the nearer expiration. A contract with no figure that day ranks after
 *   every contract with one. A day with no figure for any of them (a missing statistics day) is
 *   skipped: the figures of the trade date before it are used, looking back at most
 *   FIGURE_LOOKBACK trade dates; with none, the calendar rule's contract is taken and the basis
 *   says so. There is no hysteresis: a contract may lead again (Databento's rules have none either).
 *
 * Back-adjustment, at the roll from contract A (its last trade date d) to contract B: the price
 * gap is B's settlement minus A's on d (the daily settlement of both on the roll's eve, as CME
 * settles both and as a back-adjusting desk reads them). `difference` adds the sum of the later
 * rolls' gaps to every earlier price; `ratio` multiplies it by the product of the later rolls'
 * B/A. The newest segment is never adjusted. A roll without both prices adjusts nothing.
 */

import { daysBetween } from '../new-york-time.js';
import { contractsAt, type FuturesContract } from './contracts.js';
import { isGlobexTradeDate, nextGlobexTradeDate, previousGlobexTradeDate } from './globex-calendar.js';
import { CalendarRangeError } from '../calendar.js';
import { FUTURES_ROOTS, type FuturesRoot } from './products.js';

export type RollRule = 'calendar' | 'volume' | 'open_interest';
export type PriceAdjustment = 'none' | 'difference' | 'ratio';

const RULE_OF_CODE: Readonly<Record<string, RollRule>> = { c: 'calendar', v: 'volume', n: 'open_interest' };

/** How many trade dates back a volume or open-interest rule looks for a day with figures. */
export const FIGURE_LOOKBACK = 5;

export interface ContinuousSymbol {
  symbol: string;
  root: FuturesRoot;
  rule: RollRule;
  rank: number;
}

const CONTINUOUS_PATTERN = new RegExp(`^(${[...FUTURES_ROOTS].sort((a, b) => b.length - a.length).join('|')})\\.([cvn])\\.([0-9])$`);

/** Parses `ES.v.0`; null when not a continuous symbol of a known root. */
export function parseContinuousSymbol(symbol: string): ContinuousSymbol | null {
  const match = CONTINUOUS_PATTERN.exec(symbol);
  if (!match) return null;
  return { symbol, root: match[1] as FuturesRoot, rule: RULE_OF_CODE[match[2]!]!, rank: Number(match[3]) };
}

/** One contract's figures of one trade date. */
export interface ContractFigures {
  volume: number | null;
  openInterest: number | null;
}

/** Trade date → contract month (YYYY-MM) → figures. */
export type DailyFigures = ReadonlyMap<string, ReadonlyMap<string, ContractFigures>>;

/** Why a date maps to its contract. */
export interface MappingBasis {
  rule: RollRule;
  /** The trade date whose figures ranked the contracts; null under the calendar rule or its fallback. */
  figureDate: string | null;
  /** True when a volume or open-interest rule found no figures and took the calendar rule's contract. */
  fallback: boolean;
  /** The candidates' figures on figureDate, in rank order (empty under the calendar rule). */
  figures: { contract: FuturesContract; value: number | null }[];
}

export interface MappingDay {
  tradeDate: string;
  contract: FuturesContract;
  basis: MappingBasis;
}

export interface MappingInterval {
  startDate: string;
  endDate: string;
  contract: FuturesContract;
  /** The basis of the interval's first date (what made the roll into it). */
  basis: MappingBasis;
}

function calendarCandidates(listed: readonly FuturesContract[], date: string): FuturesContract[] {
  return listed.filter((c) => date < c.roll_date);
}

function figureOf(figures: ContractFigures | undefined, rule: RollRule): number | null {
  if (figures === undefined) return null;
  return rule === 'volume' ? figures.volume : figures.openInterest;
}

/** Of the trade dates before a date (nearest first, FIGURE_LOOKBACK of them), the first with a figure of any candidate. */
function figureDateFor(
  before: readonly string[],
  candidates: readonly FuturesContract[],
  rule: RollRule,
  figures: DailyFigures,
): string | null {
  for (const day of before) {
    const of = figures.get(day);
    if (of && candidates.some((c) => figureOf(of.get(c.contract_month), rule) !== null)) return day;
  }
  return null;
}

/** The FIGURE_LOOKBACK trade dates before `date`, nearest first: fewer near the calendar's first date. */
function tradeDatesBefore(date: string): string[] {
  const out: string[] = [];
  for (let day = date; out.length < FIGURE_LOOKBACK;) {
    try {
      day = previousGlobexTradeDate(day);
    } catch (error) {
      if (error instanceof CalendarRangeError) break;
      throw error;
    }
    out.push(day);
  }
  return out;
}

/** The contract of rank `rank` on one trade date, with its basis; null when fewer contracts qualify. */
export function mapTradeDate(symbol: ContinuousSymbol, date: string, figures: DailyFigures): MappingDay | null {
  return mapAmong(symbol, date, tradeDatesBefore(date), contractsAt(symbol.root, date), figures);
}

/**
 * Every contract of a root listed on some date from `start` through `end`: those listed at `end`
 * and those expired since `start` (a quarter expires every three months; two more for the edges).
 */
function contractsListedBetween(root: FuturesRoot, start: string, end: string): FuturesContract[] {
  return contractsAt(root, end, Math.ceil(daysBetween(start, end) / 90) + 2);
}

/** mapTradeDate given the trade dates before `date` (nearest first) and a superset of the contracts listed on it, by expiration. */
function mapAmong(
  symbol: ContinuousSymbol,
  date: string,
  before: readonly string[],
  universe: readonly FuturesContract[],
  figures: DailyFigures,
): MappingDay | null {
  const listed = universe.filter((c) => c.first_trade_date <= date && date <= c.last_trade_date);
  const calendar = (fallback: boolean): MappingDay | null => {
    const contract = calendarCandidates(listed, date)[symbol.rank];
    return contract ? { tradeDate: date, contract, basis: { rule: symbol.rule, figureDate: null, fallback, figures: [] } } : null;
  };
  if (symbol.rule === 'calendar') return calendar(false);
  const candidates = listed.filter((c) => date < c.last_trade_date);
  const figureDate = figureDateFor(before, candidates, symbol.rule, figures);
  if (figureDate === null) return calendar(true);
  const of = figures.get(figureDate)!;
  const ranked = candidates
    .map((contract) => ({ contract, value: figureOf(of.get(contract.contract_month), symbol.rule) }))
    .sort((a, b) => {
      if (a.value !== b.value) {
        if (a.value === null) return 1;
        if (b.value === null) return -1;
        return b.value - a.value;
      }
      return a.contract.last_trade_date.localeCompare(b.contract.last_trade_date);
    });
  const chosen = ranked[symbol.rank];
  if (!chosen) return null;
  return { tradeDate: date, contract: chosen.contract, basis: { rule: symbol.rule, figureDate, fallback: false, figures: ranked } };
}

/** The CME trade dates from `start` through `end`, ascending. */
export function tradeDatesBetween(start: string, end: string): string[] {
  const out: string[] = [];
  let day = isGlobexTradeDate(start) ? start : nextGlobexTradeDate(start);
  for (; day <= end; day = nextGlobexTradeDate(day)) out.push(day);
  return out;
}

/**
 * The mapping of a continuous symbol over the trade dates from `start` through `end`: consecutive
 * dates of one contract merged into an interval. A date on which fewer than rank + 1 contracts
 * qualify has no contract and breaks the series.
 */
export function continuousMapping(symbol: ContinuousSymbol, start: string, end: string, figures: DailyFigures): MappingInterval[] {
  const out: MappingInterval[] = [];
  if (start > end) return out;
  const universe = contractsListedBetween(symbol.root, start, end);
  const dates = tradeDatesBetween(start, end);
  if (dates.length === 0) return out;
  // The lookback of the first dates, then the range's own dates: each date's previous ones by index.
  const lookback = tradeDatesBefore(dates[0]!).reverse();
  const all = [...lookback, ...dates];
  let previous: string | null = null;
  for (const [i, date] of dates.entries()) {
    const at = i + lookback.length;
    const day = mapAmong(symbol, date, all.slice(Math.max(0, at - FIGURE_LOOKBACK), at).reverse(), universe, figures);
    const last = out.at(-1);
    if (
      day !== null &&
      last !== undefined &&
      previous !== null &&
      previous === last.endDate &&
      last.contract.symbol === day.contract.symbol
    ) {
      last.endDate = date;
    } else if (day !== null) {
      out.push({ startDate: date, endDate: date, contract: day.contract, basis: day.basis });
    }
    previous = day === null ? null : date;
  }
  return out;
}

/** The prices of a roll: the old and the new contract's settlements of the old segment's last trade date. */
export interface RollPrices {
  oldPrice: number | null;
  newPrice: number | null;
}

/** What is applied to a segment's prices: adjusted = raw × factor + offset. */
export interface SegmentAdjustment {
  offset: number;
  factor: number;
}

/**
 * The adjustment of each of n segments, oldest first, given the prices of the n − 1 rolls between
 * them (`rolls[k]`: from segment k to k + 1). The last segment is { offset 0, factor 1 }.
 */
export function segmentAdjustments(rolls: readonly RollPrices[], mode: PriceAdjustment): SegmentAdjustment[] {
  const out: SegmentAdjustment[] = new Array<SegmentAdjustment>(rolls.length + 1);
  let offset = 0;
  let factor = 1;
  out[rolls.length] = { offset, factor };
  for (let k = rolls.length - 1; k >= 0; k -= 1) {
    const { oldPrice, newPrice } = rolls[k]!;
    if (oldPrice !== null && newPrice !== null) {
      if (mode === 'difference') offset += newPrice - oldPrice;
      else if (mode === 'ratio' && oldPrice !== 0) factor *= newPrice / oldPrice;
    }
    out[k] = { offset, factor };
  }
  return out;
}

/** The trade date before a segment starting on `startDate`: the date of its roll prices. */
export function rollPriceDate(startDate: string): string {
  return previousGlobexTradeDate(startDate);
}
