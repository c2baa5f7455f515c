/**
 * The fields of one classified print, before grouping settles its trade_type: side and confidence,
 * sentiment, premium, moneyness, implied volatility and delta, flags, is_block and is_unusual. This
 * is the per-print part of the ingest classifier (classification.ts), so it keeps nothing between
 * prints and writes its intermediate values into scratch objects the classifier owns and reuses:
 * the only allocations per print are the record itself, its flag list and its id. Condition traits
 * and flag bits are copied to module constants so that it reads no object properties for them.
 */
import { exchangeName, TraitBit } from './opra.js';
import {
  BLOCK_MIN_SIZE,
  BLOCK_MIN_SIZE_PREMIUM,
  BLOCK_NEGOTIATED_SIZE,
  BLOCK_PREMIUM,
  FlagBit,
  flagsOf,
  isUnusual,
} from './print-flags.js';
import type { TradeType } from './print-groups.js';
import { printIdOf } from './print-id.js';
import type { ClassifiedPrintRecord, PrintContext, RawPrint } from './print-record.js';
import { placeAgainstQuote, type SidePlacement } from './print-side.js';
import { bsmGreeks, type OptionType } from './pricing.js';
import { impliedVolatility } from './implied-volatility.js';
import { directionOf, sentimentOf } from './sides.js';

/**
 * Side confidence adjustments. An implied complex print (leg price allocated from a complex order's
 * net price) is not comparable to the single-leg NBBO; a complex print that traded against the leg
 * books ("against single leg(s)" conditions) nearly is. When the vendor gives the aggressor side
 * (flag aggressor_hint) the side stays the price's place against the quote, as the contract defines
 * it, and the hint moves the confidence: one that agrees (buy on an ask-side band, sell on a
 * bid-side band) raises it to at least 0.9; one that disagrees halves it; on mid or unknown it
 * changes nothing.
 */
const IMPLIED_COMPLEX_FACTOR = 0.5;
const LEGGED_COMPLEX_FACTOR = 0.8;
const HINT_AGREES_CONFIDENCE = 0.9;
const HINT_DISAGREES_FACTOR = 0.5;

const T_LATE = TraitBit.late;
const T_ISO = TraitBit.iso;
const T_AUCTION = TraitBit.auction;
const T_CROSS = TraitBit.cross;
const T_FLOOR = TraitBit.floor;
const T_COMPLEX = TraitBit.complex;
const T_TIED = TraitBit.tied;
const T_IMPLIED = TraitBit.implied;
const T_EXT_HOURS = TraitBit.extHours;
const T_NEGOTIATED = T_AUCTION | T_CROSS | T_FLOOR;

const F_ISO = FlagBit.iso;
const F_AUCTION = FlagBit.auction;
const F_CROSS = FlagBit.cross;
const F_FLOOR = FlagBit.floor;
const F_COMPLEX = FlagBit.complex;
const F_TIED = FlagBit.tied;
const F_IMPLIED = FlagBit.implied;
const F_EXT_HOURS = FlagBit.ext_hours;
const F_LATE = FlagBit.late;
const F_AGGRESSOR_HINT = FlagBit.aggressor_hint;
const F_POST_CASH_CLOSE = FlagBit.post_cash_close;
const F_VOL_GT_OI = FlagBit.vol_gt_oi;
const F_SIZE_GT_OI = FlagBit.size_gt_oi;
const F_NO_SIDE = FlagBit.no_side;

/** What classifyPrint reads of the contract's day. */
export interface ContractDay {
  /** Contracts traded so far on the trading date, this print included. */
  readonly dayVolume: number;
  readonly daysToExpiry: number;
}

/**
 * Objects classifyPrint overwrites on every print: the placement against the quote and the solver
 * inputs (the pricing functions read them synchronously and keep no reference).
 */
export interface PrintScratch {
  readonly placement: SidePlacement;
  readonly ivInput: {
    type: OptionType;
    price: number;
    spot: number;
    strike: number;
    time: number;
    rate: number;
    dividendYield: number;
  };
  readonly greeksInput: {
    type: OptionType;
    spot: number;
    strike: number;
    time: number;
    rate: number;
    dividendYield: number;
    volatility: number;
  };
}

export function newPrintScratch(): PrintScratch {
  return {
    placement: { side: 'unknown', confidence: 0, quoteValid: false },
    ivInput: { type: 'call', price: 0, spot: 0, strike: 0, time: 0, rate: 0, dividendYield: 0 },
    greeksInput: { type: 'call', spot: 0, strike: 0, time: 0, rate: 0, dividendYield: 0, volatility: 0 },
  };
}

function knownPrice(price: number | null): price is number {
  return price !== null && price > 0 && Number.isFinite(price);
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/**
 * The fields of a print (not a cancel record) before grouping, `traits` being the trait mask of its
 * conditions and `key` its contract key. premium = price x size x multiplier, rounded to cents.
 * otm_percent: calls (strike - S) / S x 100, puts (S - strike) / S x 100, negative in the money,
 * rounded to 4 decimals; null without an underlying price S. days_to_expiry: calendar days from
 * the trading date to expiry. day_volume: running contracts of the contract and trading date, this
 * print included, less cancelled prints. implied_volatility is solved from the print price with
 * the context's S (else its valuationPrice: an index outside its hours, at its regular close),
 * yearsToSettlement, rate and dividend yield, null when neither is known or the price is outside
 * the model's bounds; delta is Black-Scholes-Merton delta at that volatility, null with
 * it; both rounded to 6 decimals. side_confidence is rounded to 3 decimals.
 */
export function classifyPrint(
  print: RawPrint,
  context: PrintContext,
  contract: ContractDay,
  key: string,
  traits: number,
  scratch: PrintScratch,
): ClassifiedPrintRecord {
  const { price, size, strike, type } = print;
  const placement = scratch.placement;
  placeAgainstQuote(price, context.quote, print.timestamp, placement);
  const side = placement.side;
  const aggressor = print.aggressorSide;
  const hinted = aggressor === 'buy' || aggressor === 'sell';
  const confidence = sideConfidence(side, placement.confidence, traits, hinted, aggressor === 'buy');

  const spot = context.underlyingPrice;
  const spotKnown = knownPrice(spot);
  let otmPercent: number | null = null;
  let impliedVol: number | null = null;
  let delta: number | null = null;
  if (spotKnown) otmPercent = round(((type === 'call' ? strike - spot : spot - strike) / spot) * 100, 4);
  const valuedAt = spotKnown ? spot : (context.valuationPrice ?? null);
  if (knownPrice(valuedAt)) {
    const vol = solvedVolatility(print, context, valuedAt, scratch);
    if (vol !== null) {
      impliedVol = round(vol, 6);
      delta = round(deltaAt(print, context, valuedAt, vol, scratch), 6);
    }
  }

  const premium = Math.round(price * size * print.multiplier * 100) / 100;
  const openInterest = context.openInterest;
  const dayVolume = contract.dayVolume;
  const flags = flagBits(print, context, traits, side, hinted, dayVolume);
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
    id: printIdOf(key, tradingDate, print.sequence),
    implied_volatility: impliedVol,
    is_block: isBlockPrint(size, premium, traits),
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
    trade_type: tradeTypeOf(traits),
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

/**
 * The side's confidence after the print's conditions (complex prints) and the vendor's aggressor
 * hint (`hinted`, `hintBuys` when it names the buyer) have moved it (see IMPLIED_COMPLEX_FACTOR).
 */
function sideConfidence(side: SidePlacement['side'], placed: number, traits: number, hinted: boolean, hintBuys: boolean): number {
  let confidence = placed;
  if ((traits & T_COMPLEX) !== 0) {
    confidence *= (traits & T_IMPLIED) !== 0 ? IMPLIED_COMPLEX_FACTOR : LEGGED_COMPLEX_FACTOR;
  }
  if (hinted) {
    const direction = directionOf(side);
    if (direction !== 0) {
      if (direction > 0 === hintBuys) {
        if (confidence < HINT_AGREES_CONFIDENCE) confidence = HINT_AGREES_CONFIDENCE;
      } else {
        confidence *= HINT_DISAGREES_FACTOR;
      }
    }
  }
  return confidence;
}

/** The volatility the print's price implies at `spot`, unrounded; null when it has none or none solves. */
function solvedVolatility(print: RawPrint, context: PrintContext, spot: number, scratch: PrintScratch): number | null {
  if (!(context.yearsToSettlement > 0 && print.price > 0)) return null;
  const iv = scratch.ivInput;
  iv.type = print.type;
  iv.price = print.price;
  iv.spot = spot;
  iv.strike = print.strike;
  iv.time = context.yearsToSettlement;
  iv.rate = context.rate;
  iv.dividendYield = context.dividendYield;
  const vol = impliedVolatility(iv);
  return vol !== null && Number.isFinite(vol) ? vol : null;
}

/** Black-Scholes-Merton delta of the print's contract at `spot` and `volatility`, unrounded. */
function deltaAt(print: RawPrint, context: PrintContext, spot: number, volatility: number, scratch: PrintScratch): number {
  const g = scratch.greeksInput;
  g.type = print.type;
  g.spot = spot;
  g.strike = print.strike;
  g.time = context.yearsToSettlement;
  g.rate = context.rate;
  g.dividendYield = context.dividendYield;
  g.volatility = volatility;
  return bsmGreeks(g).delta;
}

/** The print's flags as FlagBit bits: its conditions' traits, then what its session, hint, side and day add. */
function flagBits(
  print: RawPrint,
  context: PrintContext,
  traits: number,
  side: SidePlacement['side'],
  hinted: boolean,
  dayVolume: number,
): number {
  const openInterest = context.openInterest;
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
  if (openInterest !== null && print.size > openInterest) flags |= F_SIZE_GT_OI;
  if (side === 'unknown') flags |= F_NO_SIDE;
  return flags;
}

/** trade_type before grouping: multileg, cross or floor by the conditions, else single. */
function tradeTypeOf(traits: number): TradeType {
  if ((traits & T_COMPLEX) !== 0) return 'multileg';
  if ((traits & T_CROSS) !== 0) return 'cross';
  if ((traits & T_FLOOR) !== 0) return 'floor';
  return 'single';
}

/** is_block: size and premium over the block thresholds, or a negotiated print (auction, cross, floor) of block size. */
function isBlockPrint(size: number, premium: number, traits: number): boolean {
  const negotiated = (traits & T_NEGOTIATED) !== 0;
  return (
    (size >= BLOCK_MIN_SIZE && premium >= BLOCK_MIN_SIZE_PREMIUM) ||
    premium >= BLOCK_PREMIUM ||
    (negotiated && size >= BLOCK_NEGOTIATED_SIZE)
  );
}
