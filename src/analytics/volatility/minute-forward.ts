/**
 * The parity forward of a chain minute, the one forward every volatility and greek of the service
 * is stated on: the skew, drift, levels and heat map routes solve their chain's forward with
 * forward.ts impliedForward (surface.ts, drift.ts), which chainMinuteCarry reads too, for the
 * contract implied-volatility history (iv-samples.ts parityCarries, per sample) and the prints
 * (ingest/date-context.ts, per print).
 *
 * A chain minute is the quotes of one expiration (one root and expiration date) sampled in one
 * minute. Its forward F is forward.ts impliedForward (the median put-call parity forward), on the
 * time from the minute to the settlement instant; what it carries to another instant is the carry
 * it implies at the underlying price S the minute is valued at, q = r − ln(F/S)/T, applied to that
 * instant's own S and T. So a call and a put of one strike solve to one volatility.
 *
 * Which minute: the history takes the sample's own minute, else the nearest sampled minute with a
 * forward (carryNear); a print takes its own minute, else the latest earlier one with a forward
 * (MinuteCarries.carryInForce: what was known at the print, so a live minute and a file of the
 * whole day give the print the same forward). Either way within FORWARD_MAX_AGE_MS; beyond it, or
 * without a strike quoted on both legs, the caller falls back to the underlying's fixed dividend
 * yield (rates.ts dividendYield) and says so.
 */
import { impliedDividendYield, impliedForward } from './forward.js';
import type { ChainQuote } from './quotes.js';

/** How far from an instant's minute the carry of another minute's forward is taken, when its own minute has none. */
export const FORWARD_MAX_AGE_MS = 30 * 60_000;

const MINUTE_MS = 60_000;

/** Where a chain minute is valued. */
export interface MinuteValuation {
  /** Underlying price the minute is valued at; null when unknown. */
  spot: number | null;
  /** Years (ACT/365) from the minute to the settlement instant. */
  time: number;
  /** Continuously compounded rate. */
  rate: number;
}

/**
 * The carry q = r − ln(F/S)/T of the parity forward F of one chain minute's quotes, at S; null
 * without an underlying price, a positive time, or a strike quoted (with a mid) on both legs.
 */
export function chainMinuteCarry(quotes: readonly ChainQuote[], { spot, time, rate }: MinuteValuation): number | null {
  if (spot === null || !(spot > 0) || !(time > 0)) return null;
  const estimate = impliedForward({ quotes, time, rate, spot });
  return estimate === null ? null : impliedDividendYield(spot, estimate.forward, rate, time);
}

/** The carry of one chain minute. */
export interface MinuteCarry {
  minute: number;
  carry: number;
}

/**
 * The carry of the minute of `carries` nearest to `minute` within FORWARD_MAX_AGE_MS (the earlier
 * of two as near); null when none is.
 */
export function carryNear(carries: readonly MinuteCarry[], minute: number): number | null {
  let best: MinuteCarry | null = null;
  for (const c of carries) {
    const distance = Math.abs(c.minute - minute);
    if (distance <= FORWARD_MAX_AGE_MS && (best === null || distance < Math.abs(best.minute - minute))) best = c;
  }
  return best === null ? null : best.carry;
}

/**
 * The chain minutes of one expiration, their carries solved when first asked (a day's prints ask
 * few of its minutes) and kept.
 */
export class MinuteCarries {
  /** The minutes with quotes, ascending. */
  private readonly minutes: number[];
  private readonly inForce = new Map<number, number | null>();

  constructor(
    private readonly quotesByMinute: ReadonlyMap<number, readonly ChainQuote[]>,
    /** Where a minute (its start, Unix ms) is valued. */
    private readonly valuationOf: (minute: number) => MinuteValuation,
    /** The carries of minutes solved already (by an earlier MinuteCarries of the same quotes), kept up to date. */
    private readonly solved = new Map<number, number | null>(),
  ) {
    this.minutes = [...quotesByMinute.keys()].sort((a, b) => a - b);
  }

  /** The carry of the minute's own quotes; null when they give none. */
  carryOf(minute: number): number | null {
    let carry = this.solved.get(minute);
    if (carry === undefined) {
      const quotes = this.quotesByMinute.get(minute);
      carry = quotes === undefined ? null : chainMinuteCarry(quotes, this.valuationOf(minute));
      this.solved.set(minute, carry);
    }
    return carry;
  }

  /**
   * The carry in force at `ts`: of its minute's quotes, else of the latest earlier minute with a
   * forward within FORWARD_MAX_AGE_MS; null when none.
   */
  carryInForce(ts: number): number | null {
    const minute = ts - (((ts % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
    let carry = this.inForce.get(minute);
    if (carry !== undefined) return carry;
    carry = null;
    // The last minute with quotes at or before `minute`, then back while within the age.
    let lo = 0;
    let hi = this.minutes.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((this.minutes[mid] as number) <= minute) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    for (let i = at; i >= 0 && minute - (this.minutes[i] as number) <= FORWARD_MAX_AGE_MS; i--) {
      carry = this.carryOf(this.minutes[i] as number);
      if (carry !== null) break;
    }
    this.inForce.set(minute, carry);
    return carry;
  }
}
