/**
 * What the classifier needs about the market of one trading date, loaded once for the date's
 * prints of a file: each contract's one-minute NBBO samples (quotes files loaded earlier), each
 * underlying's one-minute bars, open interest at the start of the date, the risk-free rate and the
 * cash close. Only the contracts and underlyings the date's prints name are read, and only the
 * bars of the prints' span of time. The lookups a print needs (quoteAt, barAt) are in memory, a
 * binary search and two map reads, since the pipeline asks them once per print.
 */
import type { QuoteInForce } from '../analytics/print-side.js';
import { riskFreeRate } from '../analytics/rates.js';
import { openInterestOn } from '../db/open-interest.js';
import { quoteSamplesOn, type QuoteSampleRow } from '../db/quote-samples.js';
import { underlyingBarsBetween, type BarRow } from '../db/underlying-bars.js';
import type { Queryable } from '../db/connection.js';
import type { PrintDay, SortedPrints } from './print-order.js';
import type { PrintSessionResolver } from './print-session.js';

/** One contract's minute samples in time order, for latest-at-or-before lookups. */
export interface SampleSeries {
  ts: number[];
  bid: (number | null)[];
  ask: (number | null)[];
}

/** An underlying's one-minute bar: its start and close. */
export interface Bar {
  ts: number;
  close: number;
}

/** What a trading date's prints ask of the store. */
export interface DateNeeds {
  /** Every contract the prints name. */
  contractIds: number[];
  /** The contracts of prints without a quote of their own, whose samples are looked up. */
  sampledIds: number[];
  underlyings: string[];
  /** The prints' first and last timestamps (Infinity and -Infinity for none). */
  minTs: number;
  maxTs: number;
}

export function dateNeeds({ table, order }: SortedPrints, day: PrintDay): DateNeeds {
  const sampled = new Set<number>();
  const all = new Set<number>();
  const underlyings = new Set<string>();
  let minTs = Infinity;
  let maxTs = -Infinity;
  for (const i of order.subarray(day.start, day.end)) {
    const { contract } = table.storedSlotAt(i);
    all.add(contract.id);
    if (!table.hasQuote(i)) sampled.add(contract.id);
    underlyings.add(contract.underlying);
    const ts = table.timestampAt(i);
    if (ts < minTs) minTs = ts;
    if (ts > maxTs) maxTs = ts;
  }
  return { contractIds: [...all], sampledIds: [...sampled], underlyings: [...underlyings], minTs, maxTs };
}

export class DateContext {
  constructor(
    readonly samples: ReadonlyMap<number, SampleSeries>,
    readonly bars: ReadonlyMap<string, ReadonlyMap<number, Bar>>,
    readonly openInterest: ReadonlyMap<number, number>,
    readonly rate: number,
    readonly cashCloseMs: number,
  ) {}

  /** Samples grouped by contract and bars by underlying and minute, from their rows in time order. */
  static fromRows(
    samples: readonly QuoteSampleRow[],
    bars: readonly BarRow[],
    openInterest: ReadonlyMap<number, number>,
    rate: number,
    cashCloseMs: number,
  ): DateContext {
    const series = new Map<number, SampleSeries>();
    for (const s of samples) {
      let one = series.get(s.contractId);
      if (one === undefined) series.set(s.contractId, (one = { ts: [], bid: [], ask: [] }));
      one.ts.push(s.quoteTs);
      one.bid.push(s.bid);
      one.ask.push(s.ask);
    }
    const minutes = new Map<string, Map<number, Bar>>();
    for (const b of bars) {
      let one = minutes.get(b.symbol);
      if (one === undefined) minutes.set(b.symbol, (one = new Map<number, Bar>()));
      one.set(b.ts, { ts: b.ts, close: b.close });
    }
    return new DateContext(series, minutes, openInterest, rate, cashCloseMs);
  }

  /** The contract's latest sample at or before `ts`, written into `out`; null when it has none. */
  quoteAt(contractId: number, ts: number, out: QuoteInForce): QuoteInForce | null {
    return sampleAt(this.samples.get(contractId), ts, out);
  }

  /** The underlying's bar of the minute of `ts`, else of the minute before; null when neither is loaded. */
  barAt(underlying: string, ts: number): Bar | null {
    const bars = this.bars.get(underlying);
    if (bars === undefined) return null;
    const minute = ts - (ts % 60_000);
    return bars.get(minute) ?? bars.get(minute - 60_000) ?? null;
  }

  openInterestOf(contractId: number): number | null {
    return this.openInterest.get(contractId) ?? null;
  }
}

/** The latest sample of `series` at or before `ts`, written into `out`; null when there is none. */
export function sampleAt(series: SampleSeries | undefined, ts: number, out: QuoteInForce): QuoteInForce | null {
  if (series === undefined) return null;
  const times = series.ts;
  let lo = 0;
  let hi = times.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] ?? Infinity) <= ts) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const at = times[found];
  if (at === undefined) return null;
  out.bid = series.bid[found] ?? null;
  out.ask = series.ask[found] ?? null;
  out.timestamp = at;
  return out;
}

/** Loads the market of `day`'s trading date as its prints need it. */
export async function loadDateContext(
  db: Queryable,
  prints: SortedPrints,
  day: PrintDay,
  resolver: PrintSessionResolver,
): Promise<DateContext> {
  const { tradingDate } = day;
  const needs = dateNeeds(prints, day);
  const samples = await quoteSamplesOn(db, tradingDate, needs.sampledIds);
  // From the minute before the first print's: a print's bar may be the previous minute's.
  const bars = await underlyingBarsBetween(db, needs.underlyings, Math.floor(needs.minTs / 60_000) * 60_000 - 60_000, needs.maxTs);
  const openInterest = await openInterestOn(db, tradingDate, needs.contractIds);
  return DateContext.fromRows(samples, bars, openInterest, riskFreeRate(tradingDate), resolver.cashCloseMs(tradingDate));
}
