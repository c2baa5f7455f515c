/**
 * The simulated market's scales and order flow (model.ts holds the underlyings and roots): what the
 * two scales change, the exchanges' shares, the mix of order events, late and cancelled prints,
 * where prints fall against the quote and their sizes. Documented where they are set.
 */
import { exchangeCodeByName } from '../../analytics/opra.js';
import type { Scale } from './model.js';

/** What the two scales change. */
export interface ScaleSpec {
  /** Dailies listed this many calendar days past the last session (daily roots). */
  dailyDays: number;
  /** Friday weeklies listed this many calendar days out. */
  weeklyDays: number;
  /** Every monthly this many days out; beyond, only quarterly (Mar/Jun/Sep/Dec) months. */
  monthlyDays: number;
  /** Last expiration listed, in days. */
  horizonDays: number;
  /**
   * Strike range of an expiration as a fraction of the reference price: rangeSigmas standard
   * deviations of the price at expiry, between minRange and the roots' outer band (±20%).
   */
  rangeSigmas: number;
  minRange: number;
  /** Order events in a regular session over all roots (each event is one or more prints). */
  rthEvents: number;
  /** Order events of the SPX family in one overnight (GTH) session and in one curb session. */
  gthEvents: number;
  curbEvents: number;
  /** Golden sweeps (≥ $1M premium) per regular session. */
  goldenSweeps: number;
  /** Multiplies each root's quotedExpirations / quotedStrikes. */
  quoteExpirationFactor: number;
  quoteStrikeFactor: number;
  /** Contracts quoted every minute in GTH: the first GTH expirations of SPXW and SPX. */
  gthQuotedExpirations: number;
  gthQuotedStrikes: number;
}

export const SCALES: Record<Scale, ScaleSpec> = {
  default: {
    dailyDays: 10,
    weeklyDays: 35,
    monthlyDays: 95,
    horizonDays: 370,
    rangeSigmas: 3,
    minRange: 0.04,
    rthEvents: 28_000,
    gthEvents: 240,
    curbEvents: 120,
    goldenSweeps: 4,
    quoteExpirationFactor: 1,
    quoteStrikeFactor: 1,
    gthQuotedExpirations: 2,
    gthQuotedStrikes: 5,
  },
  full: {
    dailyDays: 40,
    weeklyDays: 91,
    monthlyDays: 370,
    horizonDays: 370,
    rangeSigmas: 100,
    minRange: 0.2,
    rthEvents: 1_500_000,
    gthEvents: 9_000,
    curbEvents: 5_000,
    goldenSweeps: 60,
    quoteExpirationFactor: 2,
    quoteStrikeFactor: 4,
    gthQuotedExpirations: 3,
    gthQuotedStrikes: 21,
  },
};

/**
 * Approximate share of US options volume by venue (Massive exchange ids from opra.ts), rounded
 * from the OCC and exchange-group volume reports of 2024–2025. OPRA itself (314) never executes.
 */
export const EXCHANGE_SHARES: readonly { code: number; share: number }[] = [
  { code: exchangeCodeByName.cboe, share: 0.1 },
  { code: exchangeCodeByName.phlx, share: 0.09 },
  { code: exchangeCodeByName.arca, share: 0.07 },
  { code: exchangeCodeByName.amex, share: 0.07 },
  { code: exchangeCodeByName.ise, share: 0.06 },
  { code: exchangeCodeByName.nom, share: 0.06 },
  { code: exchangeCodeByName.perl, share: 0.06 },
  { code: exchangeCodeByName.bzx, share: 0.06 },
  { code: exchangeCodeByName.miax, share: 0.05 },
  { code: exchangeCodeByName.emld, share: 0.05 },
  { code: exchangeCodeByName.edgx, share: 0.04 },
  { code: exchangeCodeByName.c2, share: 0.04 },
  { code: exchangeCodeByName.box, share: 0.04 },
  { code: exchangeCodeByName.memx, share: 0.04 },
  { code: exchangeCodeByName.gmni, share: 0.03 },
  { code: exchangeCodeByName.mrcy, share: 0.02 },
  { code: exchangeCodeByName.bx, share: 0.02 },
  { code: 318, share: 0.03 }, // MIAX Sapphire: a real venue without a short name (unmapped_318)
];

/** Venues with a trading floor (open outcry): Cboe, Phlx, NYSE American, NYSE Arca, BOX. */
export const FLOOR_EXCHANGES: readonly number[] = [
  exchangeCodeByName.cboe,
  exchangeCodeByName.phlx,
  exchangeCodeByName.amex,
  exchangeCodeByName.arca,
  exchangeCodeByName.box,
];

/**
 * Order events by kind (shares of events in a regular session; see prints.ts for what each emits).
 * Late reports and cancels are drawn on top of these (LATE_SHARE, CANCEL_SHARE of events).
 */
export const EVENT_MIX = {
  single: 0.715,
  split: 0.08,
  sweep: 0.055,
  multileg: 0.07,
  auction: 0.035,
  cross: 0.018,
  floor: 0.012,
  block: 0.015,
} as const;
export type EventKind = keyof typeof EVENT_MIX;
export const LATE_SHARE = 0.004;
export const CANCEL_SHARE = 0.003;

/**
 * Where a print lands against the NBBO for a one-sided order (buyer-initiated shown; a seller
 * mirrors it): at the ask, inside the spread towards the ask, at the mid, towards the bid, at the
 * bid (the other side's liquidity-providing flow), or one tick outside the quote.
 */
export const PRICE_LOCATION = {
  at: 0.56,
  near: 0.17,
  mid: 0.13,
  far_near: 0.05,
  far_at: 0.07,
  outside: 0.02,
} as const;

/** Print sizes: Pareto(1, SIZE_ALPHA) contracts, capped; blocks Pareto(BLOCK_MIN, 1.6). */
export const SIZE_ALPHA = 1.15;
export const SIZE_CAP = 2500;
export const BLOCK_MIN = 250;
export const BLOCK_CAP = 10_000;
