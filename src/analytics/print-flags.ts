/**
 * A print's flags and its marks (is_block, is_golden, is_unusual). The classifier builds the flags
 * as a bit mask, bit i being FLAG_ORDER[i], and spells them out once per print in the contract's
 * order: a mask is cheaper to build, and to change when a cancel arrives, than a list. The
 * thresholds of the marks are here so that the rules read in one place; the classifier applies
 * is_block inline and print-groups.ts is_golden.
 */
import type { components } from '../../generated/openapi.js';
import { directionOf } from './sides.js';

type Print = components['schemas']['OptionPrint'];
export type PrintFlag = Print['flags'][number];

/**
 * The flags in the contract's order; bit i of a flag mask is FLAG_ORDER[i]. iso, auction, cross,
 * floor, complex, tied, implied and late come from the traits of condition_code and of every
 * extended condition (opra.ts); ext_hours: the Extended Hours Trade condition, or session gth;
 * cancelled: a later cancel record matched the print; aggressor_hint: the vendor gave the aggressor
 * side; post_cash_close: a curb-session print after 16:00 ET; vol_gt_oi: day_volume (this print
 * included) above open_interest; size_gt_oi: size above open_interest (both need a known open
 * interest); no_side: side unknown.
 */
export const FLAG_ORDER: readonly PrintFlag[] = [
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

/** The bit of each flag in a flag mask. */
export const FlagBit: Readonly<Record<PrintFlag, number>> = Object.freeze(
  Object.fromEntries(FLAG_ORDER.map((flag, i) => [flag, 1 << i])) as Record<PrintFlag, number>,
);

/** The flags of a mask, in the contract's order. */
export function flagsOf(mask: number): PrintFlag[] {
  const flags: PrintFlag[] = [];
  for (let i = 0; mask !== 0; i++, mask >>>= 1) {
    if ((mask & 1) !== 0) flags.push(FLAG_ORDER[i] as PrintFlag);
  }
  return flags;
}

/** The mask of a list of flags. */
export function maskOfFlags(flags: readonly PrintFlag[]): number {
  let mask = 0;
  for (const f of flags) mask |= 1 << FLAG_ORDER.indexOf(f);
  return mask;
}

/**
 * is_block: size >= 100 and premium >= 50,000 USD; or premium >= 250,000; or an auction, cross or
 * floor print of at least 500 contracts, the minimum order size of the exchanges' solicitation
 * auctions (e.g. Nasdaq PHLX Rule 1081 Solicitation Mechanism, SEC Release 34-73441; Cboe's
 * Solicitation Auction Mechanism, SR-CBOE-2008-14).
 */
export const BLOCK_MIN_SIZE = 100;
export const BLOCK_MIN_SIZE_PREMIUM = 50_000;
export const BLOCK_PREMIUM = 250_000;
export const BLOCK_NEGOTIATED_SIZE = 500;
/**
 * is_golden: a sweep whose group premium (sum over its live prints) is >= 1,000,000 USD; set on
 * every print of the sweep, since the sweep is one order.
 */
export const GOLDEN_SWEEP_PREMIUM = 1_000_000;
export const UNUSUAL_PREMIUM = 250_000;
export const UNUSUAL_MAX_DAYS_TO_EXPIRY = 45;

/**
 * is_unusual of a classified print, once its trade_type is settled: day_volume above open_interest
 * within 45 days of expiry; or premium >= 250,000 USD; or a sweep on an ask-side band whose contract
 * is out of the money (otm_percent > 0).
 */
export function isUnusual(r: Print): boolean {
  return (
    (r.open_interest !== null && r.day_volume > r.open_interest && r.days_to_expiry <= UNUSUAL_MAX_DAYS_TO_EXPIRY) ||
    r.premium >= UNUSUAL_PREMIUM ||
    (r.trade_type === 'sweep' && r.otm_percent !== null && r.otm_percent > 0 && directionOf(r.side) > 0)
  );
}
