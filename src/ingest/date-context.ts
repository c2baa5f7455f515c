/**
 * What the classifier needs about the market of one trading date, loaded once for the date's
 * prints of a file: each contract's one-minute NBBO samples (quotes files loaded earlier), each
 * underlying's one-minute bars, open interest at the start of the date, the risk-free rate and the
 * cash close, and the chain minutes of the prints' expirations (every contract's samples of each
 * minute), whose put-call parity forwards value the prints (carryAt). Only the contracts,
 * expirations and underlyings the date's prints name are read, and only the samples and bars of the
 * prints' span of time (each expiration's chain from FORWARD_MAX_AGE_MS before its first print, for
 * the forward in force at it). The lookups a print needs (quoteAt, barAt, carryAt) are in memory, a binary search and a few
 * map reads, since the pipeline asks them once per print.
 */
import type { QuoteInForce } from '../analytics/print-side.js';
import { riskFreeRate } from '../analytics/rates.js';
import { MS_PER_YEAR } from '../analytics/settlement.js';
import { FORWARD_MAX_AGE_MS, MinuteCarries } from '../analytics/volatility/minute-forward.js';
import { isIndexUnderlying, UNDERLYING_LOOKBACK_MS, underlyingPriceInstant } from '../analytics/volatility/valuation.js';
import { underlyingPriceAt } from '../db/chain.js';
import type { ChainQuote } from '../analytics/volatility/quotes.js';
import { openInterestOn } from '../db/open-interest.js';
import { chainSamplesIn, quoteSamplesOn, type ContractSamplesRow, type QuoteSampleRow } from '../db/quote-samples.js';
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

/** An expiration the prints name (their slots' `expiration` key), with what values its chain minutes. */
export interface PrintExpiration {
  /** root and expiration date, space-separated (print-table.ts StoredSlot.expiration). */
  key: string;
  root: string;
  dateOfExpiry: string;
  underlying: string;
  settlementMs: number;
  /** The minutes (their starts) of the expiration's prints, ascending. */
  minutes: number[];
}

/** What a trading date's prints ask of the store. */
export interface DateNeeds {
  /** Every contract the prints name. */
  contractIds: number[];
  /** Every expiration the prints name, for the parity forwards of its chain minutes. */
  expirations: PrintExpiration[];
  /** The contracts of prints without a quote of their own, whose samples are looked up. */
  sampledIds: number[];
  underlyings: string[];
  /** The prints' first and last timestamps (Infinity and -Infinity for none). */
  minTs: number;
  maxTs: number;
}

const MINUTE_MS = 60_000;

export function dateNeeds({ table, order }: SortedPrints, day: PrintDay): DateNeeds {
  const sampled = new Set<number>();
  const all = new Set<number>();
  const underlyings = new Set<string>();
  const expirations = new Map<string, PrintExpiration>();
  const minutes = new Map<string, Set<number>>();
  let minTs = Infinity;
  let maxTs = -Infinity;
  for (const i of order.subarray(day.start, day.end)) {
    const slot = table.storedSlotAt(i);
    const { contract } = slot;
    all.add(contract.id);
    const ts = table.timestampAt(i);
    let printMinutes = minutes.get(slot.expiration);
    if (printMinutes === undefined) {
      minutes.set(slot.expiration, (printMinutes = new Set()));
      expirations.set(slot.expiration, {
        key: slot.expiration,
        root: slot.ref.root,
        dateOfExpiry: slot.ref.dateOfExpiry,
        underlying: contract.underlying,
        settlementMs: slot.settlementMs,
        minutes: [],
      });
    }
    printMinutes.add(ts - (ts % MINUTE_MS));
    if (!table.hasQuote(i)) sampled.add(contract.id);
    underlyings.add(contract.underlying);
    if (ts < minTs) minTs = ts;
    if (ts > maxTs) maxTs = ts;
  }
  return {
    contractIds: [...all],
    expirations: [...expirations.values()].map((e) => ({ ...e, minutes: [...minutes.get(e.key)!].sort((a, b) => a - b) })),
    sampledIds: [...sampled],
    underlyings: [...underlyings],
    minTs,
    maxTs,
  };
}

export class DateContext {
  /** The prints' expirations by key, and the quotes of each one's chain minutes loaded so far. */
  private readonly expirations = new Map<string, PrintExpiration>();
  private readonly chainMinutes = new Map<string, Map<number, ChainQuote[]>>();
  /** Each expiration's minute carries, built when first asked after chains were added; their solved minutes are kept. */
  private readonly carries = new Map<string, MinuteCarries | null>();
  private readonly solved = new Map<string, Map<number, number | null>>();
  /** Per index underlying, the regular close each instant asked is read at (null inside its hours), and the bar ended by each close. */
  private readonly closeInstants = new Map<string, Map<number, number | null>>();
  private readonly closeBars = new Map<string, Map<number, Bar | null>>();

  constructor(
    readonly samples: ReadonlyMap<number, SampleSeries>,
    readonly bars: ReadonlyMap<string, ReadonlyMap<number, Bar>>,
    readonly openInterest: ReadonlyMap<number, number>,
    readonly rate: number,
    readonly cashCloseMs: number,
  ) {}

  /**
   * Adds chain samples of the expirations (of minutes not added before), by expiration and minute;
   * each minute's quotes in strike order, calls first, whatever order the store sent them in.
   */
  addChains(expirations: readonly PrintExpiration[], rows: readonly ContractSamplesRow[]): void {
    for (const e of expirations) this.expirations.set(e.key, e);
    const sorted = [...rows].sort((a, b) => a.strikeThousandths - b.strikeThousandths || Number(b.call) - Number(a.call));
    for (const r of sorted) {
      const key = `${r.root} ${r.dateOfExpiry}`;
      let minutes = this.chainMinutes.get(key);
      if (minutes === undefined) this.chainMinutes.set(key, (minutes = new Map<number, ChainQuote[]>()));
      const strike = r.strikeThousandths / 1000;
      const type = r.call ? 'call' : 'put';
      for (let i = 0; i < r.minutes.length; i++) {
        const minute = r.minutes[i] as number;
        let quotes = minutes.get(minute);
        if (quotes === undefined) minutes.set(minute, (quotes = []));
        quotes.push({ strike, type, bid: r.bids[i] ?? null, ask: r.asks[i] ?? null });
      }
    }
    this.carries.clear();
  }

  private carriesOf(key: string): MinuteCarries | null {
    let carries = this.carries.get(key);
    if (carries === undefined) {
      const e = this.expirations.get(key);
      const minutes = this.chainMinutes.get(key);
      if (e === undefined || minutes === undefined) {
        // No chain minute of it: asked once per print, answered from here on.
        this.carries.set(key, null);
        return null;
      }
      let solved = this.solved.get(key);
      if (solved === undefined) this.solved.set(key, (solved = new Map<number, number | null>()));
      // A chain minute is valued at the underlying's bar of its minute (else the minute before's),
      // or an index outside its hours at its regular close, as a print of it is, on the time from
      // the minute's start to the settlement instant.
      carries = new MinuteCarries(
        minutes,
        (minute) => ({
          spot: this.valuationBarAt(e.underlying, minute)?.close ?? null,
          time: (e.settlementMs - minute) / MS_PER_YEAR,
          rate: this.rate,
        }),
        solved,
      );
      this.carries.set(key, carries);
    }
    return carries;
  }

  /**
   * Samples grouped by contract and bars by underlying and minute, from their rows in time order
   * (the chain minutes are added by addChains).
   */
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

  /**
   * The carry q = r − ln(F/S)/T of the parity forward in force at `ts` for an expiration (its
   * key): the forward of its chain minute, else of the latest earlier one with a forward within
   * FORWARD_MAX_AGE_MS (volatility/minute-forward.ts MinuteCarries.carryInForce); null when there is
   * none, and the print is then valued on the fixed dividend yield.
   */
  carryAt(expiration: string, ts: number): number | null {
    return this.carriesOf(expiration)?.carryInForce(ts) ?? null;
  }

  /** The carry of the parity forward of an expiration's (its key) own quotes in a minute; null when they give none. */
  ownCarry(expiration: string, minute: number): number | null {
    return this.carriesOf(expiration)?.carryOf(minute) ?? null;
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

  /**
   * The regular close an index is read at for an instant outside its calculation hours
   * (valuation.ts underlyingPriceInstant); null inside them, and for an underlying that is not an
   * index. Kept per minute: the calendar's opens and closes are whole minutes, so every instant
   * inside a minute reads as the minute's first millisecond after its start; only the start itself
   * (a close at 16:00:00.000 is still inside the session) may read otherwise.
   */
  closeInstantAt(underlying: string, ts: number): number | null {
    if (!isIndexUnderlying(underlying)) return null;
    const minute = ts - (ts % MINUTE_MS);
    const key = ts === minute ? minute : minute + 1;
    let instants = this.closeInstants.get(underlying);
    if (instants === undefined) this.closeInstants.set(underlying, (instants = new Map<number, number | null>()));
    let close = instants.get(key);
    if (close === undefined) {
      const read = underlyingPriceInstant(underlying, key);
      close = read.source === 'regular_close' ? read.at : null;
      instants.set(key, close);
    }
    return close;
  }

  /** The underlying's last bar ended by an index's regular close (loadDateContext reads it for each close the prints need). */
  setCloseBar(underlying: string, close: number, bar: Bar | null): void {
    let bars = this.closeBars.get(underlying);
    if (bars === undefined) this.closeBars.set(underlying, (bars = new Map<number, Bar | null>()));
    bars.set(close, bar);
  }

  /**
   * The underlying's own price at `ts`, which a print states as its underlying_price: its bar
   * (barAt), and none for an index outside its calculation hours, which has no price then
   * whatever bars a feed holds.
   */
  ownBarAt(underlying: string, ts: number): Bar | null {
    return this.closeInstantAt(underlying, ts) === null ? this.barAt(underlying, ts) : null;
  }

  /**
   * The bar a valuation at `ts` reads the underlying at: its own (barAt), or for an index outside
   * its calculation hours the last bar ended by its regular close, as the contract history, the
   * skew and the books value it (valuation.ts underlyingPriceInstant); null when not loaded.
   */
  valuationBarAt(underlying: string, ts: number): Bar | null {
    const close = this.closeInstantAt(underlying, ts);
    if (close === null) return this.barAt(underlying, ts);
    return this.closeBars.get(underlying)?.get(close) ?? null;
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
  // From the minute before the first print's (a print's bar may be the previous minute's), and
  // before the oldest chain minute a print may be valued on.
  const firstMinute = Math.floor(needs.minTs / MINUTE_MS) * MINUTE_MS;
  const bars = await underlyingBarsBetween(db, needs.underlyings, firstMinute - FORWARD_MAX_AGE_MS - MINUTE_MS, needs.maxTs);
  const openInterest = await openInterestOn(db, tradingDate, needs.contractIds);
  const context = DateContext.fromRows(samples, bars, openInterest, riskFreeRate(tradingDate), resolver.cashCloseMs(tradingDate));
  // An index's prints and chain minutes outside its hours are valued at its regular close: the
  // bar ended by each close they fall after (the close before an overnight session, the day's
  // close for its curb and late prints), read once each. Closes only move forward in time, so
  // the minutes of the prints and the oldest chain minute a print may be valued on give them all.
  for (const underlying of needs.underlyings.filter(isIndexUnderlying)) {
    const minutes = new Set<number>([firstMinute - FORWARD_MAX_AGE_MS]);
    for (const e of needs.expirations) if (e.underlying === underlying) for (const m of e.minutes) minutes.add(m).add(m + 1);
    const closes = new Set<number>();
    for (const m of minutes) {
      const close = context.closeInstantAt(underlying, m);
      if (close !== null) closes.add(close);
    }
    for (const close of closes) {
      const price = await underlyingPriceAt(db, underlying, close, UNDERLYING_LOOKBACK_MS);
      context.setCloseBar(underlying, close, price === null ? null : { ts: price.barStart, close: price.price });
    }
  }
  // The chain minutes of each expiration from its first print's minute to its last print's; then,
  // for an expiration whose first print's minute gives no forward, the FORWARD_MAX_AGE_MS before it.
  // That is every minute a print's carry in force can come from: for a print minute m, the minutes
  // in [m - FORWARD_MAX_AGE_MS, m]; when the first print's minute f has a forward, a minute before f
  // is never the latest one with a forward at or before m. A live minute's load (its prints in one
  // minute, its quotes loaded just before) so reads one minute of its expirations' chains, not 31.
  const first = (e: PrintExpiration): number => e.minutes[0] ?? firstMinute;
  const span = (e: PrintExpiration, from: number, to: number): { root: string; dateOfExpiry: string; from: number; to: number } => ({
    root: e.root,
    dateOfExpiry: e.dateOfExpiry,
    from,
    to,
  });
  const own = needs.expirations.map((e) => span(e, first(e), e.minutes.at(-1) ?? firstMinute));
  context.addChains(needs.expirations, await chainSamplesIn(db, tradingDate, own));
  const older = needs.expirations.filter((e) => context.ownCarry(e.key, first(e)) === null);
  if (older.length > 0)
    context.addChains(
      older,
      await chainSamplesIn(
        db,
        tradingDate,
        older.map((e) => span(e, first(e) - FORWARD_MAX_AGE_MS, first(e) - MINUTE_MS)),
      ),
    );
  return context;
}
