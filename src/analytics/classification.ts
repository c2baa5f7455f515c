/**
 * Print classification: turns each raw option execution into the 31-field "Option trade print" of
 * the interface specification, streaming, in input order.
 *
 * ## Quote in force
 * The caller passes the consolidated NBBO in force at the print. It is invalid, and the print gets
 * side `unknown`, flag `no_side`, side_confidence 0 and null bid/ask, when it is:
 * - missing, or one-sided (bid or ask null);
 * - zero, negative or not finite on either side (OPRA disseminates a zero bid for "no bid");
 * - crossed (bid above ask by more than PRICE_EPSILON);
 * - timestamped after the print (it cannot have been in force);
 * - stale: older than STALE_QUOTE_MS (30 s) at the print.
 * A locked quote (bid equal to ask) is valid. A quote stays in force until replaced, so age alone
 * does not prove it wrong, but options market makers requote on every move of the underlying, so a
 * quote more than a second old usually means quote updates were missed. Between FRESH_QUOTE_MS
 * (1 s) and STALE_QUOTE_MS the side is kept and side_confidence is scaled down linearly from 1 to
 * STALE_CONFIDENCE_FLOOR (0.5); past 30 s the quote is treated as invalid.
 *
 * ## Side bands
 * With bid B, ask A, spread s = A - B, mid M = (A + B) / 2 and price P (comparisons tolerate
 * PRICE_EPSILON = 0.00005 USD, half of OPRA's finest price increment of 0.0001, so that binary
 * floating point never splits equal prices):
 * - above_ask: P > A;  below_bid: P < B;
 * - locked quote (s = 0) with P = A = B: mid (neither side can be told);
 * - at_ask: P = A;  at_bid: P = B;
 * - mid: |P - M| <= MID_ZONE_FRACTION * s, i.e. the middle 20% of the spread (±10% around M);
 * - near_ask / near_bid: inside the spread, above / below the mid zone.
 *
 * ## side_confidence (0 to 1, rounded to 3 decimals)
 * Base: 1 for above_ask, at_ask, at_bid, below_bid; near_* rises linearly from 0.6 at the edge of
 * the mid zone to 0.9 next to the quote; mid 0.5; unknown 0. Then multiplied by:
 * - the quote-age factor above;
 * - 0.5 for implied complex prints (leg price allocated from a complex order's net price, not
 *   comparable to the single-leg NBBO), 0.8 for complex prints that traded against the leg books
 *   ("against single leg(s)" conditions).
 * When the vendor gives the aggressor side (flag `aggressor_hint`) the side stays the price's place
 * against the quote, as the specification defines it, and the hint moves the confidence: a hint
 * that agrees (buy on an ask-side band, sell on a bid-side band) raises it to at least 0.9; one that
 * disagrees halves it; on mid or unknown it changes nothing.
 *
 * ## Sentiment
 * Ask-side bands (above_ask, at_ask, near_ask) are buys, bid-side bands (near_bid, at_bid,
 * below_bid) are sells. Calls bought and puts sold are bullish; puts bought and calls sold bearish;
 * mid is neutral; unknown is unknown.
 *
 * ## Flags (in this order)
 * iso, auction, cross, floor, complex, tied, implied, late: from the traits of condition_code and of
 * every extended condition (see opra.ts). ext_hours: Extended Hours Trade condition, or session gth.
 * cancelled: a later cancel record matched this print (see Cancels). aggressor_hint: the vendor gave
 * the aggressor side. post_cash_close: a curb-session print after 16:00 ET (context.cashCloseMs).
 * vol_gt_oi: day_volume (this print included) above open_interest. size_gt_oi: size above
 * open_interest. no_side: side unknown. Both OI flags need a known open interest.
 *
 * ## trade_type and grouping
 * Precedence: multileg (complex trait) > cross > floor > sweep > split > single. Complex, cross,
 * floor and late prints never join a group (a negotiated or complex print is one order by itself; a
 * late print's time is its report time). The other prints of one contract are grouped, per trading
 * date, while they:
 * - keep one direction: ask-side and bid-side prints never mix (mid and unknown prints join either,
 *   since a sweep moves the quote under its own later fills);
 * - walk the price one way: constant, or rising for buys and falling for sells (once a group has
 *   moved up it cannot move down, and the reverse);
 * - stay inside the windows, measured from the group's first print: a group on one exchange takes
 *   same-exchange prints up to splitWindowMs (default 500 ms) after its first print; a print on a
 *   second exchange joins only within sweepWindowMs (default 50 ms), and from then on the group
 *   takes prints only within that window.
 * A print that cannot join closes the contract's open group and starts a new one. A closed group
 * with 2 or more live (not cancelled) prints on 2 or more exchanges is a sweep, on one exchange a
 * split; one print is single. ISO marks are not required: the same fill pattern comes from orders
 * routed without them, and the iso flag still tells which fills were marked. group_id is 'g:' + id
 * of the group's first live print, on every live print of the group; null for single prints.
 *
 * ## Thresholds
 * - premium = price x size x multiplier, rounded to cents.
 * - is_block: size >= 100 and premium >= 50,000; or premium >= 250,000; or an auction, cross or
 *   floor print of at least 500 contracts, the minimum order size of the exchanges' solicitation
 *   auctions (e.g. Nasdaq PHLX Rule 1081 Solicitation Mechanism, SEC Release 34-73441; Cboe's
 *   Solicitation Auction Mechanism, SR-CBOE-2008-14).
 * - is_golden: a sweep whose group premium (sum over its live prints) is >= 1,000,000 USD; set on
 *   every print of the sweep, since the sweep is one order.
 * - is_unusual: (day_volume > open_interest and days_to_expiry <= 45); or premium >= 250,000; or a
 *   sweep on an ask-side band whose contract is out of the money (otm_percent > 0).
 * - otm_percent: calls (strike - S) / S x 100, puts (S - strike) / S x 100, negative in the money,
 *   rounded to 4 decimals; null without an underlying price S.
 * - days_to_expiry: calendar days from the trading date to expiry.
 * - day_volume: running contracts per contract and trading date, this print included, less
 *   cancelled prints; reset when the trading date changes.
 * - implied_volatility: solved from the print price with the context's underlying price,
 *   yearsToSettlement, rate and dividend yield; null when S is unknown or the price is outside the
 *   model's bounds. delta: Black-Scholes-Merton delta at that volatility; null with it. Both
 *   rounded to 6 decimals.
 *
 * ## Ids
 * contract_key = root:expiry:strike x 1000:C|P, id = contract_key:tradingDate:sequence, e.g.
 * 'SPXW:2024-12-20:5900000:C:2024-12-19:8812' (strike x 1000 rounded to an integer, no padding).
 *
 * ## Cancels
 * A print whose condition (or an extended condition) has the cancel trait (CANC, CNCL, CNCO, CNOL)
 * is a cancel record, not a print: it is never output. It cancels the most recent earlier print of
 * the same trading date, contract, exchange, price and size that is not yet cancelled, looking back
 * at most cancelLookbackMs (10 min) and at most cancelLookbackPrints (1,048,576) prints of the whole
 * feed, about four times the 10 minutes of a day's average rate (10 million prints in 6.5 hours);
 * an unmatched cancel is only counted (unmatchedCancels). A matched print not yet output is output with
 * cancelled = true and the `cancelled` flag, and leaves its group; a print already output is not
 * changed (the caller owns it) and its id is reported in the batch's `cancels` instead. Either way
 * its size leaves day_volume for later prints. Late prints are ordinary prints with the `late` flag.
 * When the context gives `stored` (prints of the date loaded before this feed), a contract's
 * day_volume starts from its stored volume, and a cancel record matching no print of the feed is
 * offered to stored.cancel(); a stored print it cancels leaves day_volume too.
 *
 * ## Streaming
 * Input must be sorted by (timestamp, sequence) within a trading date. push() returns the prints
 * whose group can no longer change (stream time, the latest timestamp pushed, is past the group's
 * window) plus cancels of prints already returned; flush() returns everything still held. Output
 * order is input order. A change of trading date flushes the previous date first. The classifier is
 * deterministic: no clock, no randomness; the same input gives the same output.
 */

import type { components } from '../../generated/openapi.js';
import { daysBetween } from './new-york-time.js';
import { conditionTraitMask, exchangeName, TraitBit } from './opra.js';
import { bsmGreeks, impliedVolatility, type OptionType } from './pricing.js';

export type { OptionType } from './pricing.js';

export type Side =
  | 'above_ask'
  | 'at_ask'
  | 'near_ask'
  | 'mid'
  | 'near_bid'
  | 'at_bid'
  | 'below_bid'
  | 'unknown';
export type Sentiment = 'bullish' | 'bearish' | 'neutral' | 'unknown';
export type PrintSession = 'rth' | 'gth' | 'curb' | 'other';
export type TradeType = 'sweep' | 'split' | 'single' | 'multileg' | 'cross' | 'floor';
export type PrintFlag =
  | 'iso'
  | 'auction'
  | 'cross'
  | 'floor'
  | 'complex'
  | 'tied'
  | 'implied'
  | 'ext_hours'
  | 'late'
  | 'cancelled'
  | 'aggressor_hint'
  | 'post_cash_close'
  | 'vol_gt_oi'
  | 'size_gt_oi'
  | 'no_side';

/** One execution as the vendor reports it. */
export interface RawPrint {
  /** Option root, e.g. SPXW. */
  root: string;
  /**
   * contractKey() of the print, when the caller keeps one per contract (the ingest pipeline does):
   * the classifier then neither builds the key nor hashes a new string per print.
   */
  contractKey?: string;
  /** Underlying symbol, e.g. SPX. */
  underlying: string;
  /** YYYY-MM-DD. */
  dateOfExpiry: string;
  type: OptionType;
  /** Dollars. */
  strike: number;
  /** Shares per contract. */
  multiplier: number;
  /** Unix ms of the execution. */
  timestamp: number;
  /** Sequence number in the consolidated feed. */
  sequence: number;
  /** Dollars per share. */
  price: number;
  /** Contracts. */
  size: number;
  /** Massive options exchange id (see opra.ts). */
  exchangeCode: number;
  /** Massive options condition id (see opra.ts). */
  conditionCode: number;
  extendedConditions: number[];
  /** Aggressor side, when the vendor gives it. */
  aggressorSide?: 'buy' | 'sell' | null;
}

/** Consolidated NBBO in force at the print. */
export interface QuoteInForce {
  bid: number | null;
  ask: number | null;
  /** Unix ms of the quote update. */
  timestamp: number;
}

/** What the caller knows about the market at the print. */
export interface PrintContext {
  /** YYYY-MM-DD; overnight prints belong to the next trading date. */
  tradingDate: string;
  /** Computed by the caller from the market calendar. */
  session: PrintSession;
  quote: QuoteInForce | null;
  underlyingPrice: number | null;
  underlyingTimestamp: number | null;
  /** Open interest at the start of the trading date. */
  openInterest: number | null;
  yearsToSettlement: number;
  /** Continuously compounded. */
  rate: number;
  /** Continuously compounded. */
  dividendYield: number;
  /** 16:00 ET of the trading date, Unix ms. */
  cashCloseMs: number;
  /** Prints of the trading date stored before this feed, when the caller has any (see Cancels). */
  stored?: StoredPrints | null;
}

/**
 * The caller's view of prints of the trading date stored before this feed (an earlier file of the
 * same day): day volume continues from them, and a cancel record that matches no print of the feed
 * may cancel one of them by the same rule.
 */
export interface StoredPrints {
  /** Volume of the contract traded on the trading date before this feed, less cancelled prints. */
  dayVolume(contractKey: string): number;
  /** Cancels the stored print the cancel record matches, if any; true when one was cancelled. */
  cancel(contractKey: string, cancel: RawPrint): boolean;
}

/** The specification's "Option trade print": exactly its 31 fields, typed by the contract. */
export type ClassifiedPrint = components['schemas']['Print'];

/** A classified print plus what the platform needs to store and retract it. */
export type ClassifiedPrintRecord = ClassifiedPrint & {
  /** True when a cancel record matched the print before it was output; the caller excludes it. */
  cancelled: boolean;
  /** root:expiry:strike x 1000:C|P. */
  contract_key: string;
  trading_date: string;
  sequence: number;
};

/** Output of push() and flush(). */
export interface PrintBatch {
  /** Final prints, in input order. */
  readonly prints: readonly ClassifiedPrintRecord[];
  /** Ids of prints returned by an earlier call that a cancel record has now cancelled. */
  readonly cancels: readonly string[];
}

/** Receiver for pushTo() and flushTo(), the allocation-free form of push() and flush(). */
export interface PrintSink {
  print(record: ClassifiedPrintRecord): void;
  cancel(id: string): void;
}

export interface GroupingWindows {
  /** Longest span of a sweep across exchanges, from its first print. */
  sweepWindowMs: number;
  /** Longest span of a split on one exchange, from its first print. */
  splitWindowMs: number;
}

export interface ClassifierOptions extends GroupingWindows {
  /** How far back a cancel record looks for its print. */
  cancelLookbackMs: number;
  /**
   * How many of the feed's most recent prints (all contracts) a cancel record can reach; rounded up
   * to a power of two. Memory is claimed only as the 10-minute look-back needs it.
   */
  cancelLookbackPrints: number;
}

// ---------------------------------------------------------------------------------------------
// Rule constants (documented in the header)
// ---------------------------------------------------------------------------------------------

export const PRICE_EPSILON = 0.00005;
export const MID_ZONE_FRACTION = 0.1;
export const FRESH_QUOTE_MS = 1_000;
export const STALE_QUOTE_MS = 30_000;
export const STALE_CONFIDENCE_FLOOR = 0.5;

const AT_QUOTE_CONFIDENCE = 1;
const NEAR_CONFIDENCE_MIN = 0.6;
const NEAR_CONFIDENCE_MAX = 0.9;
const MID_CONFIDENCE = 0.5;
const IMPLIED_COMPLEX_FACTOR = 0.5;
const LEGGED_COMPLEX_FACTOR = 0.8;
const HINT_AGREES_CONFIDENCE = 0.9;
const HINT_DISAGREES_FACTOR = 0.5;

export const BLOCK_MIN_SIZE = 100;
export const BLOCK_MIN_SIZE_PREMIUM = 50_000;
export const BLOCK_PREMIUM = 250_000;
export const BLOCK_NEGOTIATED_SIZE = 500;
export const GOLDEN_SWEEP_PREMIUM = 1_000_000;
export const UNUSUAL_PREMIUM = 250_000;
export const UNUSUAL_MAX_DAYS_TO_EXPIRY = 45;

export const DEFAULT_CLASSIFIER_OPTIONS: Readonly<ClassifierOptions> = Object.freeze({
  sweepWindowMs: 50,
  splitWindowMs: 500,
  cancelLookbackMs: 10 * 60_000,
  cancelLookbackPrints: 1 << 20,
});

// ---------------------------------------------------------------------------------------------
// Pure helpers
// ---------------------------------------------------------------------------------------------

/** root:expiry:strike x 1000:C|P. */
export function contractKey(p: {
  root: string;
  dateOfExpiry: string;
  strike: number;
  type: OptionType;
}): string {
  const right = p.type === 'call' ? 'C' : 'P';
  return `${p.root}:${p.dateOfExpiry}:${Math.round(p.strike * 1000)}:${right}`;
}

/**
 * Print id: root:expiry:strike x 1000:C|P:tradingDate:sequence, e.g.
 * 'SPXW:2024-12-20:5900000:C:2024-12-19:8812'.
 */
export function printId(p: {
  root: string;
  dateOfExpiry: string;
  strike: number;
  type: OptionType;
  tradingDate: string;
  sequence: number;
}): string {
  return `${contractKey(p)}:${p.tradingDate}:${p.sequence}`;
}

interface SidePlacement {
  side: Side;
  confidence: number;
  quoteValid: boolean;
}

/** Writes the band and base confidence of a price against the quote into `out`. */
function placeAgainstQuote(
  price: number,
  quote: QuoteInForce | null,
  printTimestamp: number,
  out: SidePlacement,
): void {
  out.side = 'unknown';
  out.confidence = 0;
  out.quoteValid = false;
  if (quote === null) return;
  const bid = quote.bid;
  const ask = quote.ask;
  if (bid === null || ask === null) return;
  // `!(x > 0)` also rejects NaN.
  if (!(bid > 0) || !(ask > 0) || bid === Infinity || ask === Infinity) return;
  if (bid > ask + PRICE_EPSILON) return;
  const age = printTimestamp - quote.timestamp;
  if (!(age >= 0) || age > STALE_QUOTE_MS) return;
  out.quoteValid = true;

  const ageFactor =
    age <= FRESH_QUOTE_MS
      ? 1
      : 1 -
        ((1 - STALE_CONFIDENCE_FLOOR) * (age - FRESH_QUOTE_MS)) / (STALE_QUOTE_MS - FRESH_QUOTE_MS);
  const spread = ask - bid;
  let side: Side;
  let confidence: number;
  if (price > ask + PRICE_EPSILON) {
    side = 'above_ask';
    confidence = AT_QUOTE_CONFIDENCE;
  } else if (price < bid - PRICE_EPSILON) {
    side = 'below_bid';
    confidence = AT_QUOTE_CONFIDENCE;
  } else if (spread <= PRICE_EPSILON) {
    side = 'mid';
    confidence = MID_CONFIDENCE;
  } else if (price >= ask - PRICE_EPSILON) {
    side = 'at_ask';
    confidence = AT_QUOTE_CONFIDENCE;
  } else if (price <= bid + PRICE_EPSILON) {
    side = 'at_bid';
    confidence = AT_QUOTE_CONFIDENCE;
  } else {
    const halfZone = MID_ZONE_FRACTION * spread;
    const offset = price - (bid + ask) / 2;
    const distance = offset < 0 ? -offset : offset;
    if (distance <= halfZone + PRICE_EPSILON) {
      side = 'mid';
      confidence = MID_CONFIDENCE;
    } else {
      side = offset > 0 ? 'near_ask' : 'near_bid';
      let reach = (distance - halfZone) / (spread / 2 - halfZone);
      if (reach > 1) reach = 1;
      confidence = NEAR_CONFIDENCE_MIN + (NEAR_CONFIDENCE_MAX - NEAR_CONFIDENCE_MIN) * reach;
    }
  }
  out.side = side;
  out.confidence = confidence * ageFactor;
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/**
 * Side of a price against the quote in force, with its confidence (header: Quote in force, Side
 * bands, side_confidence). Complex-order and vendor-hint adjustments are the classifier's.
 */
export function sideOf(
  price: number,
  quote: QuoteInForce | null,
  printTimestamp: number,
): { side: Side; confidence: number } {
  const out: SidePlacement = { side: 'unknown', confidence: 0, quoteValid: false };
  placeAgainstQuote(price, quote, printTimestamp, out);
  return { side: out.side, confidence: round(out.confidence, 3) };
}

/** +1 for ask-side bands (buys), -1 for bid-side bands (sells), 0 otherwise. */
function directionOf(side: Side): number {
  switch (side) {
    case 'above_ask':
    case 'at_ask':
    case 'near_ask':
      return 1;
    case 'near_bid':
    case 'at_bid':
    case 'below_bid':
      return -1;
    case 'mid':
    case 'unknown':
      return 0;
  }
}

/** Calls bought or puts sold: bullish; puts bought or calls sold: bearish; mid neutral. */
export function sentimentOf(side: Side, type: OptionType): Sentiment {
  if (side === 'unknown') return 'unknown';
  const direction = directionOf(side);
  if (direction === 0) return 'neutral';
  return (direction > 0) === (type === 'call') ? 'bullish' : 'bearish';
}

// Trait bits copied to module constants so the hot path reads no object properties.
const T_CANCEL = TraitBit.cancel;
const T_LATE = TraitBit.late;
const T_ISO = TraitBit.iso;
const T_AUCTION = TraitBit.auction;
const T_CROSS = TraitBit.cross;
const T_FLOOR = TraitBit.floor;
const T_COMPLEX = TraitBit.complex;
const T_TIED = TraitBit.tied;
const T_IMPLIED = TraitBit.implied;
const T_EXT_HOURS = TraitBit.extHours;
const T_UNGROUPED = T_COMPLEX | T_CROSS | T_FLOOR | T_LATE;
const T_NEGOTIATED = T_AUCTION | T_CROSS | T_FLOOR;

// Output flags in the specification's order; bit i is FLAG_ORDER[i].
const FLAG_ORDER: readonly PrintFlag[] = [
  'iso',
  'auction',
  'cross',
  'floor',
  'complex',
  'tied',
  'implied',
  'ext_hours',
  'late',
  'cancelled',
  'aggressor_hint',
  'post_cash_close',
  'vol_gt_oi',
  'size_gt_oi',
  'no_side',
];
const F_ISO = 1 << 0;
const F_AUCTION = 1 << 1;
const F_CROSS = 1 << 2;
const F_FLOOR = 1 << 3;
const F_COMPLEX = 1 << 4;
const F_TIED = 1 << 5;
const F_IMPLIED = 1 << 6;
const F_EXT_HOURS = 1 << 7;
const F_LATE = 1 << 8;
const F_CANCELLED = 1 << 9;
const F_AGGRESSOR_HINT = 1 << 10;
const F_POST_CASH_CLOSE = 1 << 11;
const F_VOL_GT_OI = 1 << 12;
const F_SIZE_GT_OI = 1 << 13;
const F_NO_SIDE = 1 << 14;

function flagsOf(mask: number): PrintFlag[] {
  const flags: PrintFlag[] = [];
  for (let i = 0; mask !== 0; i++, mask >>>= 1) {
    if ((mask & 1) !== 0) flags.push(FLAG_ORDER[i] as PrintFlag);
  }
  return flags;
}

function maskOfFlags(flags: readonly PrintFlag[]): number {
  let mask = 0;
  for (const f of flags) mask |= 1 << FLAG_ORDER.indexOf(f);
  return mask;
}

function isUnusual(r: ClassifiedPrint): boolean {
  return (
    (r.open_interest !== null &&
      r.day_volume > r.open_interest &&
      r.days_to_expiry <= UNUSUAL_MAX_DAYS_TO_EXPIRY) ||
    r.premium >= UNUSUAL_PREMIUM ||
    (r.trade_type === 'sweep' &&
      r.otm_percent !== null &&
      r.otm_percent > 0 &&
      directionOf(r.side) > 0)
  );
}

// ---------------------------------------------------------------------------------------------
// Streaming classifier
// ---------------------------------------------------------------------------------------------

/** Per contract and trading date: volume, cancel look-back and the one open group. */
interface ContractState {
  dayVolume: number;
  daysToExpiry: number;
  /** Queue position of the contract's latest print (head of its chain in the look-back ring). */
  lastPosition: number;
  groupOpen: boolean;
  groupFirstTs: number;
  groupFirstExchange: number;
  groupMultiVenue: boolean;
  groupDirection: number;
  groupWalk: number;
  groupLastPrice: number;
  groupMembers: ClassifiedPrintRecord[];
  groupPositions: number[];
}

const EMPTY: readonly never[] = Object.freeze([]);
const EMPTY_BATCH: PrintBatch = Object.freeze({ prints: EMPTY, cancels: EMPTY });

class BatchCollector implements PrintSink {
  prints: ClassifiedPrintRecord[] | null = null;
  cancels: string[] | null = null;
  print(record: ClassifiedPrintRecord): void {
    (this.prints ??= []).push(record);
  }
  cancel(id: string): void {
    (this.cancels ??= []).push(id);
  }
  take(): PrintBatch {
    const prints = this.prints;
    const cancels = this.cancels;
    this.prints = null;
    this.cancels = null;
    if (prints === null && cancels === null) return EMPTY_BATCH;
    return { prints: prints ?? EMPTY, cancels: cancels ?? EMPTY };
  }
}

function checkNonNegative(name: string, value: number): void {
  if (!(value >= 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a finite non-negative number, got ${value}`);
  }
}

/**
 * Streaming classifier for one feed of prints (all underlyings), sorted by (timestamp, sequence)
 * within each trading date. See the module header for every rule.
 */
export class PrintClassifier {
  private readonly sweepWindowMs: number;
  private readonly splitWindowMs: number;
  private readonly singleVenueWindowMs: number;
  private readonly cancelLookbackMs: number;
  private readonly maxRingCapacity: number;

  private tradingDate: string | null = null;
  private latestTs = -Infinity;
  private contracts = new Map<string, ContractState>();
  /** Held prints in input order; slots before queueHead are already output. */
  private queue: (ClassifiedPrintRecord | undefined)[] = [];
  private queueReady: boolean[] = [];
  private queueContract: (ContractState | undefined)[] = [];
  private queueHead = 0;
  /** Absolute position of queue[0]. */
  private queueBase = 0;
  /**
   * Cancel look-back: a ring of typed arrays indexed by queue position (mod capacity), so recent
   * prints are kept without keeping their output objects alive. Each entry links to the previous
   * print of the same contract.
   */
  private ringCapacity: number;
  private ringWritten = 0;
  private ringTimestamp: Float64Array;
  private ringPrice: Float64Array;
  private ringSize: Float64Array;
  private ringPrevious: Float64Array;
  private ringExchange: Int32Array;
  private ringCancelled: Uint8Array;
  private ringId: (string | undefined)[];
  private unmatched = 0;

  private readonly placement: SidePlacement = { side: 'unknown', confidence: 0, quoteValid: false };
  private readonly collector = new BatchCollector();
  // Reused solver inputs: the pricing functions read them synchronously and keep no reference.
  private readonly ivInput = {
    type: 'call' as OptionType,
    price: 0,
    spot: 0,
    strike: 0,
    time: 0,
    rate: 0,
    dividendYield: 0,
  };
  private readonly greeksInput = {
    type: 'call' as OptionType,
    spot: 0,
    strike: 0,
    time: 0,
    rate: 0,
    dividendYield: 0,
    volatility: 0,
  };

  constructor(options?: Partial<ClassifierOptions>) {
    const o = { ...DEFAULT_CLASSIFIER_OPTIONS, ...options };
    checkNonNegative('sweepWindowMs', o.sweepWindowMs);
    checkNonNegative('splitWindowMs', o.splitWindowMs);
    checkNonNegative('cancelLookbackMs', o.cancelLookbackMs);
    checkNonNegative('cancelLookbackPrints', o.cancelLookbackPrints);
    this.sweepWindowMs = o.sweepWindowMs;
    this.splitWindowMs = o.splitWindowMs;
    // A one-exchange group can still turn into a sweep until the sweep window has passed.
    this.singleVenueWindowMs = Math.max(o.sweepWindowMs, o.splitWindowMs);
    this.cancelLookbackMs = o.cancelLookbackMs;
    let capacity = 1;
    while (capacity < o.cancelLookbackPrints) capacity *= 2;
    this.maxRingCapacity = capacity;
    this.ringCapacity = Math.min(capacity, 1024);
    this.ringTimestamp = new Float64Array(this.ringCapacity);
    this.ringPrice = new Float64Array(this.ringCapacity);
    this.ringSize = new Float64Array(this.ringCapacity);
    this.ringPrevious = new Float64Array(this.ringCapacity);
    this.ringExchange = new Int32Array(this.ringCapacity);
    this.ringCancelled = new Uint8Array(this.ringCapacity);
    this.ringId = new Array<string | undefined>(this.ringCapacity);
  }

  /** Cancel records that found no print to cancel, since construction. */
  get unmatchedCancels(): number {
    return this.unmatched;
  }

  /** Classifies one print; returns the prints that became final and cancels of earlier output. */
  push(print: RawPrint, context: PrintContext): PrintBatch {
    this.pushTo(print, context, this.collector);
    return this.collector.take();
  }

  /** Returns every print still held (groups closed as they stand). */
  flush(): PrintBatch {
    this.flushTo(this.collector);
    return this.collector.take();
  }

  /** push() delivering to a sink instead of allocating a batch. */
  pushTo(print: RawPrint, context: PrintContext, sink: PrintSink): void {
    if (context.tradingDate !== this.tradingDate) this.startTradingDate(context.tradingDate, sink);
    if (print.timestamp > this.latestTs) this.latestTs = print.timestamp;

    let traits = conditionTraitMask(print.conditionCode);
    const extended = print.extendedConditions;
    for (let i = 0; i < extended.length; i++) traits |= conditionTraitMask(extended[i] as number);

    const key = print.contractKey ?? contractKey(print);
    let contract = this.contracts.get(key);
    if (contract === undefined) {
      contract = this.newContract(print.dateOfExpiry, context.tradingDate);
      if (context.stored) contract.dayVolume = context.stored.dayVolume(key);
      this.contracts.set(key, contract);
    }

    if ((traits & T_CANCEL) !== 0) {
      this.applyCancel(contract, print, sink, key, context.stored);
    } else {
      contract.dayVolume += print.size;
      const record = this.classify(print, context, contract, key, traits);
      const position = this.queueBase + this.queue.length;
      this.remember(contract, record, position);
      const groupable = (traits & T_UNGROUPED) === 0;
      this.queue.push(record);
      this.queueReady.push(!groupable);
      this.queueContract.push(contract);
      if (groupable) this.group(contract, record, position);
    }
    this.drain(sink);
  }

  /** flush() delivering to a sink. */
  flushTo(sink: PrintSink): void {
    for (const contract of this.contracts.values()) {
      if (contract.groupOpen) this.closeGroup(contract);
    }
    this.drain(sink);
  }

  private startTradingDate(tradingDate: string, sink: PrintSink): void {
    if (this.tradingDate !== null) this.flushTo(sink);
    this.tradingDate = tradingDate;
    this.latestTs = -Infinity;
    this.contracts = new Map();
    // flushTo() has output everything, so the whole old queue lies before the new base.
    this.queueBase += this.queue.length;
    this.queue = [];
    this.queueReady = [];
    this.queueContract = [];
    this.queueHead = 0;
  }

  private newContract(dateOfExpiry: string, tradingDate: string): ContractState {
    return {
      dayVolume: 0,
      daysToExpiry: daysBetween(tradingDate, dateOfExpiry),
      lastPosition: -1,
      groupOpen: false,
      groupFirstTs: 0,
      groupFirstExchange: 0,
      groupMultiVenue: false,
      groupDirection: 0,
      groupWalk: 0,
      groupLastPrice: 0,
      groupMembers: [],
      groupPositions: [],
    };
  }

  private classify(
    print: RawPrint,
    context: PrintContext,
    contract: ContractState,
    key: string,
    traits: number,
  ): ClassifiedPrintRecord {
    const { price, size, strike, type } = print;
    const placement = this.placement;
    placeAgainstQuote(price, context.quote, print.timestamp, placement);
    const side = placement.side;
    let confidence = placement.confidence;
    if ((traits & T_COMPLEX) !== 0) {
      confidence *= (traits & T_IMPLIED) !== 0 ? IMPLIED_COMPLEX_FACTOR : LEGGED_COMPLEX_FACTOR;
    }
    const aggressor = print.aggressorSide;
    const hinted = aggressor === 'buy' || aggressor === 'sell';
    if (hinted) {
      const direction = directionOf(side);
      if (direction !== 0) {
        if ((direction > 0) === (aggressor === 'buy')) {
          if (confidence < HINT_AGREES_CONFIDENCE) confidence = HINT_AGREES_CONFIDENCE;
        } else {
          confidence *= HINT_DISAGREES_FACTOR;
        }
      }
    }

    const spot = context.underlyingPrice;
    const spotKnown = spot !== null && spot > 0 && Number.isFinite(spot);
    let otmPercent: number | null = null;
    let impliedVol: number | null = null;
    let delta: number | null = null;
    if (spotKnown) {
      otmPercent = round(((type === 'call' ? strike - spot : spot - strike) / spot) * 100, 4);
      if (context.yearsToSettlement > 0 && price > 0) {
        const iv = this.ivInput;
        iv.type = type;
        iv.price = price;
        iv.spot = spot;
        iv.strike = strike;
        iv.time = context.yearsToSettlement;
        iv.rate = context.rate;
        iv.dividendYield = context.dividendYield;
        const vol = impliedVolatility(iv);
        if (vol !== null && Number.isFinite(vol)) {
          impliedVol = round(vol, 6);
          const g = this.greeksInput;
          g.type = type;
          g.spot = spot;
          g.strike = strike;
          g.time = context.yearsToSettlement;
          g.rate = context.rate;
          g.dividendYield = context.dividendYield;
          g.volatility = vol;
          delta = round(bsmGreeks(g).delta, 6);
        }
      }
    }

    const premium = Math.round(price * size * print.multiplier * 100) / 100;
    const openInterest = context.openInterest;
    const dayVolume = contract.dayVolume;

    let flags = 0;
    if ((traits & T_ISO) !== 0) flags |= F_ISO;
    if ((traits & T_AUCTION) !== 0) flags |= F_AUCTION;
    if ((traits & T_CROSS) !== 0) flags |= F_CROSS;
    if ((traits & T_FLOOR) !== 0) flags |= F_FLOOR;
    if ((traits & T_COMPLEX) !== 0) flags |= F_COMPLEX;
    if ((traits & T_TIED) !== 0) flags |= F_TIED;
    if ((traits & T_IMPLIED) !== 0) flags |= F_IMPLIED;
    if ((traits & T_EXT_HOURS) !== 0 || context.session === 'gth') flags |= F_EXT_HOURS;
    if ((traits & T_LATE) !== 0) flags |= F_LATE;
    if (hinted) flags |= F_AGGRESSOR_HINT;
    if (context.session === 'curb' && print.timestamp > context.cashCloseMs) {
      flags |= F_POST_CASH_CLOSE;
    }
    if (openInterest !== null && dayVolume > openInterest) flags |= F_VOL_GT_OI;
    if (openInterest !== null && size > openInterest) flags |= F_SIZE_GT_OI;
    if (side === 'unknown') flags |= F_NO_SIDE;

    const tradeType: TradeType =
      (traits & T_COMPLEX) !== 0
        ? 'multileg'
        : (traits & T_CROSS) !== 0
          ? 'cross'
          : (traits & T_FLOOR) !== 0
            ? 'floor'
            : 'single';
    const negotiated = (traits & T_NEGOTIATED) !== 0;
    const isBlock =
      (size >= BLOCK_MIN_SIZE && premium >= BLOCK_MIN_SIZE_PREMIUM) ||
      premium >= BLOCK_PREMIUM ||
      (negotiated && size >= BLOCK_NEGOTIATED_SIZE);
    const quote = context.quote;
    const tradingDate = context.tradingDate;

    const record: ClassifiedPrintRecord = {
      ask: placement.quoteValid && quote !== null ? quote.ask : null,
      bid: placement.quoteValid && quote !== null ? quote.bid : null,
      condition_code: print.conditionCode,
      contract_type: type,
      date_of_expiry: print.dateOfExpiry,
      day_volume: dayVolume,
      days_to_expiry: contract.daysToExpiry,
      delta,
      exchange: exchangeName(print.exchangeCode),
      exchange_code: print.exchangeCode,
      flags: flagsOf(flags),
      group_id: null,
      id: `${key}:${tradingDate}:${print.sequence}`,
      implied_volatility: impliedVol,
      is_block: isBlock,
      is_golden: false,
      is_unusual: false,
      open_interest: openInterest,
      otm_percent: otmPercent,
      premium,
      price,
      sentiment: sentimentOf(side, type),
      session: context.session,
      side,
      side_confidence: round(confidence, 3),
      size,
      strike,
      timestamp: print.timestamp,
      trade_type: tradeType,
      underlying_price: spotKnown ? spot : null,
      underlying_symbol: print.root,
      cancelled: false,
      contract_key: key,
      trading_date: tradingDate,
      sequence: print.sequence,
    };
    record.is_unusual = isUnusual(record);
    return record;
  }

  // --- grouping ------------------------------------------------------------------------------

  private group(contract: ContractState, record: ClassifiedPrintRecord, position: number): void {
    const direction = directionOf(record.side);
    if (contract.groupOpen && !this.joins(contract, record, direction)) this.closeGroup(contract);
    if (!contract.groupOpen) {
      contract.groupOpen = true;
      contract.groupFirstTs = record.timestamp;
      contract.groupFirstExchange = record.exchange_code;
      contract.groupMultiVenue = false;
      contract.groupDirection = direction;
      contract.groupWalk = 0;
      contract.groupLastPrice = record.price;
      contract.groupMembers.push(record);
      contract.groupPositions.push(position);
      return;
    }
    const move = record.price - contract.groupLastPrice;
    if (move > PRICE_EPSILON) contract.groupWalk = 1;
    else if (move < -PRICE_EPSILON) contract.groupWalk = -1;
    if (contract.groupDirection === 0) contract.groupDirection = direction;
    if (record.exchange_code !== contract.groupFirstExchange) contract.groupMultiVenue = true;
    contract.groupLastPrice = record.price;
    contract.groupMembers.push(record);
    contract.groupPositions.push(position);
  }

  private joins(
    contract: ContractState,
    record: ClassifiedPrintRecord,
    direction: number,
  ): boolean {
    const elapsed = record.timestamp - contract.groupFirstTs;
    const sameVenueGroup =
      !contract.groupMultiVenue && record.exchange_code === contract.groupFirstExchange;
    if (elapsed > (sameVenueGroup ? this.splitWindowMs : this.sweepWindowMs)) return false;
    const groupDirection = contract.groupDirection;
    if (direction !== 0 && groupDirection !== 0 && direction !== groupDirection) return false;
    const move = record.price - contract.groupLastPrice;
    const step = move > PRICE_EPSILON ? 1 : move < -PRICE_EPSILON ? -1 : 0;
    if (step !== 0) {
      // Buyers lift ever higher offers and sellers hit ever lower bids.
      const expected = groupDirection !== 0 ? groupDirection : direction;
      if (expected !== 0 && step !== expected) return false;
      if (contract.groupWalk !== 0 && step !== contract.groupWalk) return false;
    }
    return true;
  }

  /** Settles the open group's trade_type, group_id, is_golden and is_unusual, and releases it. */
  private closeGroup(contract: ContractState): void {
    const members = contract.groupMembers;
    let live = 0;
    let premium = 0;
    let first: ClassifiedPrintRecord | undefined;
    let multiVenue = false;
    for (const m of members) {
      if (m.cancelled) continue;
      live++;
      premium += m.premium;
      if (first === undefined) first = m;
      else if (m.exchange_code !== first.exchange_code) multiVenue = true;
    }
    if (live >= 2 && first !== undefined) {
      const tradeType: TradeType = multiVenue ? 'sweep' : 'split';
      const groupId = `g:${first.id}`;
      const golden = multiVenue && Math.round(premium * 100) / 100 >= GOLDEN_SWEEP_PREMIUM;
      for (const m of members) {
        if (m.cancelled) continue;
        m.trade_type = tradeType;
        m.group_id = groupId;
        m.is_golden = golden;
        m.is_unusual = isUnusual(m);
      }
    }
    const base = this.queueBase;
    for (const position of contract.groupPositions) this.queueReady[position - base] = true;
    members.length = 0;
    contract.groupPositions.length = 0;
    contract.groupOpen = false;
  }

  /** Outputs held prints from the front of the queue while they are final. */
  private drain(sink: PrintSink): void {
    const queue = this.queue;
    const ready = this.queueReady;
    let head = this.queueHead;
    while (head < queue.length) {
      if (ready[head] !== true) {
        // Every held print not yet final is in its contract's open group.
        const contract = this.queueContract[head];
        if (contract === undefined || !contract.groupOpen) break;
        const window = contract.groupMultiVenue ? this.sweepWindowMs : this.singleVenueWindowMs;
        if (this.latestTs - contract.groupFirstTs <= window) break;
        this.closeGroup(contract);
      }
      const record = queue[head] as ClassifiedPrintRecord;
      queue[head] = undefined;
      this.queueContract[head] = undefined;
      head++;
      sink.print(record);
    }
    this.queueHead = head;
    // Compact once the output prefix dominates, so the arrays stay proportional to held prints.
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      ready.splice(0, head);
      this.queueContract.splice(0, head);
      this.queueBase += head;
      this.queueHead = 0;
    }
  }

  // --- cancels -------------------------------------------------------------------------------

  private remember(contract: ContractState, record: ClassifiedPrintRecord, position: number): void {
    let index = position & (this.ringCapacity - 1);
    // Grow rather than overwrite a print that is still inside the look-back time.
    if (
      this.ringWritten >= this.ringCapacity &&
      this.ringCapacity < this.maxRingCapacity &&
      (this.ringTimestamp[index] as number) >= record.timestamp - this.cancelLookbackMs
    ) {
      this.growRing(position);
      index = position & (this.ringCapacity - 1);
    }
    this.ringTimestamp[index] = record.timestamp;
    this.ringPrice[index] = record.price;
    this.ringSize[index] = record.size;
    this.ringPrevious[index] = contract.lastPosition;
    this.ringExchange[index] = record.exchange_code;
    this.ringCancelled[index] = 0;
    this.ringId[index] = record.id;
    this.ringWritten++;
    contract.lastPosition = position;
  }

  /** Doubles the ring, keeping the entries of the positions just before `position`. */
  private growRing(position: number): void {
    const oldCapacity = this.ringCapacity;
    const capacity = Math.min(oldCapacity * 2, this.maxRingCapacity);
    const timestamp = new Float64Array(capacity);
    const price = new Float64Array(capacity);
    const size = new Float64Array(capacity);
    const previous = new Float64Array(capacity);
    const exchange = new Int32Array(capacity);
    const cancelled = new Uint8Array(capacity);
    const id = new Array<string | undefined>(capacity);
    const first = Math.max(0, position - oldCapacity);
    for (let p = first; p < position; p++) {
      const from = p & (oldCapacity - 1);
      const to = p & (capacity - 1);
      timestamp[to] = this.ringTimestamp[from] as number;
      price[to] = this.ringPrice[from] as number;
      size[to] = this.ringSize[from] as number;
      previous[to] = this.ringPrevious[from] as number;
      exchange[to] = this.ringExchange[from] as number;
      cancelled[to] = this.ringCancelled[from] as number;
      id[to] = this.ringId[from];
    }
    this.ringCapacity = capacity;
    this.ringTimestamp = timestamp;
    this.ringPrice = price;
    this.ringSize = size;
    this.ringPrevious = previous;
    this.ringExchange = exchange;
    this.ringCancelled = cancelled;
    this.ringId = id;
  }

  private applyCancel(
    contract: ContractState,
    cancel: RawPrint,
    sink: PrintSink,
    key: string,
    stored: StoredPrints | null | undefined,
  ): void {
    const capacity = this.ringCapacity;
    const mask = capacity - 1;
    const nextPosition = this.queueBase + this.queue.length;
    const oldest = cancel.timestamp - this.cancelLookbackMs;
    // Walk the contract's chain newest first, while entries are neither overwritten nor too old.
    for (let p = contract.lastPosition; p >= 0 && p >= nextPosition - capacity; ) {
      const i = p & mask;
      if ((this.ringTimestamp[i] as number) < oldest) break;
      if (
        this.ringCancelled[i] === 0 &&
        this.ringExchange[i] === cancel.exchangeCode &&
        this.ringSize[i] === cancel.size &&
        Math.abs((this.ringPrice[i] as number) - cancel.price) <= PRICE_EPSILON
      ) {
        this.ringCancelled[i] = 1;
        contract.dayVolume -= cancel.size;
        if (p >= this.queueBase + this.queueHead) {
          const held = this.queue[p - this.queueBase] as ClassifiedPrintRecord;
          held.cancelled = true;
          held.flags = flagsOf(maskOfFlags(held.flags) | F_CANCELLED);
        } else {
          sink.cancel(this.ringId[i] as string);
        }
        return;
      }
      p = this.ringPrevious[i] as number;
    }
    if (stored && stored.cancel(key, cancel)) {
      contract.dayVolume -= cancel.size;
      return;
    }
    this.unmatched++;
  }
}
