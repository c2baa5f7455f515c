/**
 * The quarterly contracts of the CME equity-index futures (products.ts): their symbols, listing and
 * expiration dates, and which are listed at a date.
 *
 * Rules (CME Group contract specifications and rulebook chapters of the E-mini S&P 500, E-mini
 * Nasdaq-100 and E-mini Russell 2000):
 * - Contract months March, June, September, December (H, M, U, Z); `listed_contracts` consecutive
 *   quarters are listed at once, the next one from the trade date after the nearest expires.
 * - Trading terminates at 09:30 ET on the third Friday of the contract month, or on the business
 *   day before it when that Friday is not a CME trade date (e.g. Good Friday). The final settlement
 *   price is the index's Special Opening Quotation on that same date.
 * - The roll date is CME's equity-index convention: eight calendar days before expiration, the
 *   Thursday before the third Friday's week, counted from the third Friday even when expiration
 *   moves to the Thursday (the preceding trade date when that Thursday does not trade); from it
 *   the next contract is the lead.
 *
 * Symbols: canonical `ESZ26` (root, month code, two-digit year: unambiguous for a century);
 * `ESZ6`, the CME Globex form, is also given and accepted, its year the one ending in that digit
 * from four years before the reference date's year to five after.
 *
 * Dates outside the exchange calendar (before 2000, after 2035) have no known holidays: the third
 * Friday is taken as is and the next trade date after one is the following Monday.
 */

import { CALENDAR_FIRST_DATE, CALENDAR_LAST_DATE } from '../calendar.js';
import { addDays, dayOfWeek, newYorkTimeToMs } from '../new-york-time.js';
import { isGlobexTradeDate, nextGlobexTradeDate, previousGlobexTradeDate } from './globex-calendar.js';
import { FUTURES_ROOTS, QUARTERLY_MONTHS, futuresProduct, type FuturesRoot, type QuarterlyMonthCode } from './products.js';

export type ContractStatus = 'listed' | 'expired' | 'not_listed';

export interface FuturesContract {
  /** Canonical symbol: root, month code and two-digit year (ESZ26). */
  symbol: string;
  /** The CME Globex symbol: one-digit year (ESZ6). */
  globex_symbol: string;
  root: FuturesRoot;
  month_code: QuarterlyMonthCode;
  /** YYYY-MM of the contract month. */
  contract_month: string;
  first_trade_date: string;
  last_trade_date: string;
  /** Unix ms at which trading terminates: 09:30 ET on the last trade date. */
  last_trade_time: number;
  expiration_date: string;
  final_settlement_date: string;
  roll_date: string;
  /** At the reference date: listed (first trade date <= date <= last trade date), expired, or not_listed yet. */
  status: ContractStatus;
  active: boolean;
  /** 0 for the nearest listed contract at the reference date, 1 the next...; null when not listed. */
  rank: number | null;
  /** The lead month at the reference date: the nearest listed contract until its roll date, the next one from it. */
  lead: boolean;
}

const inCalendar = (date: string): boolean => date >= CALENDAR_FIRST_DATE && date <= CALENDAR_LAST_DATE;

function thirdFriday(year: number, month: number): string {
  const first = `${year}-${String(month).padStart(2, '0')}-01`;
  return addDays(first, ((5 - dayOfWeek(first) + 7) % 7) + 14);
}

/** A business day at or before `date`. */
function tradeDateAtOrBefore(date: string): string {
  if (!inCalendar(date) || isGlobexTradeDate(date)) return date;
  return previousGlobexTradeDate(date);
}

function tradeDateAfter(date: string): string {
  if (date >= CALENDAR_FIRST_DATE && date < CALENDAR_LAST_DATE) return nextGlobexTradeDate(date);
  return addDays(date, ((1 - dayOfWeek(date) + 7) % 7) + (dayOfWeek(date) === 1 ? 7 : 0));
}

/** Quarter number q = year × 4 + (0..3 for H, M, U, Z). */
const quarterOf = (year: number, month: number): number => year * 4 + (month / 3 - 1);
const yearOfQuarter = (q: number): number => Math.floor(q / 4);
const monthOfQuarter = (q: number): number => ((q % 4) + 1) * 3;

export function lastTradeDate(year: number, month: number): string {
  return tradeDateAtOrBefore(thirdFriday(year, month));
}

function lastTradeDateOfQuarter(q: number): string {
  return lastTradeDate(yearOfQuarter(q), monthOfQuarter(q));
}

/** The trade date on which the contract of quarter q is first listed: the trade date after the expiration `listed` quarters before. */
function firstTradeDateOfQuarter(q: number, listed: number): string {
  return tradeDateAfter(lastTradeDateOfQuarter(q - listed));
}

function listedCount(root: FuturesRoot): number {
  const product = futuresProduct(root);
  if (!product) throw new RangeError(`unknown futures root: ${root}`);
  return product.listing_cycle.listed_contracts;
}

/** The contract of a root and quarter, described at reference date `asOf` (rank and lead left to the listing). */
function describe(root: FuturesRoot, q: number, asOf: string): FuturesContract {
  const year = yearOfQuarter(q);
  const month = monthOfQuarter(q);
  const code = QUARTERLY_MONTHS.find((m) => m.month === month)!.code;
  const first = firstTradeDateOfQuarter(q, listedCount(root));
  const last = lastTradeDateOfQuarter(q);
  const status: ContractStatus = asOf < first ? 'not_listed' : asOf > last ? 'expired' : 'listed';
  return {
    symbol: `${root}${code}${String(year % 100).padStart(2, '0')}`,
    globex_symbol: `${root}${code}${year % 10}`,
    root,
    month_code: code,
    contract_month: `${year}-${String(month).padStart(2, '0')}`,
    first_trade_date: first,
    last_trade_date: last,
    last_trade_time: newYorkTimeToMs(last, '09:30'),
    expiration_date: last,
    final_settlement_date: last,
    roll_date: tradeDateAtOrBefore(addDays(thirdFriday(year, month), -8)),
    status,
    active: status === 'listed',
    rank: null,
    lead: false,
  };
}

/** The quarter of the nearest contract not expired at `asOf`. */
function frontQuarter(asOf: string): number {
  const year = Number(asOf.slice(0, 4));
  let q = quarterOf(year, 3);
  while (lastTradeDateOfQuarter(q) < asOf) q += 1;
  return q;
}

/** Ranks the listed contracts by expiration and marks the lead month. */
function ranked(contracts: FuturesContract[], asOf: string): FuturesContract[] {
  const listed = contracts.filter((c) => c.active).sort((a, b) => a.last_trade_date.localeCompare(b.last_trade_date));
  listed.forEach((c, i) => (c.rank = i));
  const front = listed[0];
  const lead = front && asOf >= front.roll_date ? listed[1] : front;
  if (lead) lead.lead = true;
  return contracts;
}

/**
 * The contracts of a root listed at `asOf`, nearest first; with `expired`, also that many of the
 * most recently expired ones before them (oldest first).
 */
export function contractsAt(root: FuturesRoot, asOf: string, expired = 0): FuturesContract[] {
  const listed = listedCount(root);
  const front = frontQuarter(asOf);
  const contracts: FuturesContract[] = [];
  for (let q = front - expired; q < front + listed; q += 1) {
    const contract = describe(root, q, asOf);
    if (contract.status !== 'not_listed') contracts.push(contract);
  }
  return ranked(contracts, asOf);
}

export interface ParsedFuturesSymbol {
  root: FuturesRoot;
  year: number;
  month: number;
}

const SYMBOL_PATTERN = new RegExp(`^(${[...FUTURES_ROOTS].sort((a, b) => b.length - a.length).join('|')})([HMUZ])(\\d{1,2})$`);

/** Parses ESZ26 or ESZ6 (the one-digit year resolved around `asOf`'s year); null when not a symbol of a known root. */
export function parseFuturesSymbol(symbol: string, asOf: string): ParsedFuturesSymbol | null {
  const match = SYMBOL_PATTERN.exec(symbol);
  if (!match) return null;
  const root = match[1] as FuturesRoot;
  const month = QUARTERLY_MONTHS.find((m) => m.code === match[2])!.month;
  const digits = match[3]!;
  const reference = Number(asOf.slice(0, 4));
  let year: number;
  if (digits.length === 2) {
    year = Math.floor(reference / 100) * 100 + Number(digits);
    if (year < reference - 50) year += 100;
    else if (year > reference + 49) year -= 100;
  } else {
    year = reference - 4;
    while (year % 10 !== Number(digits)) year += 1;
  }
  return { root, year, month };
}

/** One contract by symbol, described at `asOf` (rank and lead among the contracts listed then). */
export function contractBySymbol(symbol: string, asOf: string): FuturesContract | null {
  const parsed = parseFuturesSymbol(symbol, asOf);
  if (!parsed) return null;
  const q = quarterOf(parsed.year, parsed.month);
  const contract = describe(parsed.root, q, asOf);
  const ranking = contractsAt(parsed.root, asOf).find((c) => c.symbol === contract.symbol);
  return ranking ?? contract;
}
