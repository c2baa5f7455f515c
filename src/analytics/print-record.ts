/**
 * The classifier's input and output: a raw print and what the caller knows of the market at it,
 * and the classified print with what the store needs. The stream (classification.ts) and the
 * per-print fields (print-fields.ts) both read them, so they live here, below both.
 */
import type { components } from '../../generated/openapi.js';
import type { QuoteInForce } from './print-side.js';
import type { OptionType } from './pricing.js';

export type PrintSession = components['schemas']['OptionPrint']['session'];

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

/** What the caller knows about the market at the print. */
export interface PrintContext {
  /** YYYY-MM-DD; overnight prints belong to the next trading date. */
  tradingDate: string;
  /** Computed by the caller from the market calendar. */
  session: PrintSession;
  quote: QuoteInForce | null;
  underlyingPrice: number | null;
  underlyingTimestamp: number | null;
  /**
   * The underlying price the volatility and delta are solved at when the underlying has no price
   * of its own at the print (underlyingPrice null): an index outside its calculation hours, at
   * its last regular close. Absent or null otherwise.
   */
  valuationPrice?: number | null;
  /** Open interest at the start of the trading date. */
  openInterest: number | null;
  yearsToSettlement: number;
  /** Continuously compounded. */
  rate: number;
  /** Continuously compounded. */
  dividendYield: number;
  /** 16:00 ET of the trading date, Unix ms. */
  cashCloseMs: number;
  /** Prints of the trading date stored before this feed, when the caller has any (see applyCancel). */
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
export type ClassifiedPrint = components['schemas']['OptionPrint'];

/** A classified print plus what the platform needs to store and retract it. */
export type ClassifiedPrintRecord = ClassifiedPrint & {
  /** True when a cancel record matched the print before it was output; the caller excludes it. */
  cancelled: boolean;
  /** root:expiry:strike x 1000:C|P. */
  contract_key: string;
  trading_date: string;
  sequence: number;
};
