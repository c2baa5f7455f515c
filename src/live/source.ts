/**
 * What a live market feed gives the service: for a trading date, the contracts listed and the open
 * interest at its start, then minute by minute the underlying bars, NBBO samples and prints of
 * that minute, and the futures rows known by then. Everything is given as lines of the canonical ingest layouts (src/ingest/layouts.ts),
 * so that it loads through the ordinary loaders, exactly as a file of the same rows would.
 *
 * Which minutes are due, and when, is the runner's business (runner.ts, from the calendar); a source
 * answers for any minute of a trading date, the same rows each time it is asked.
 */
import type { SessionName } from '../analytics/sessions.js';

/** A trading date's reference data, as canonical lines (contracts, open_interest). */
export interface LiveDay {
  tradingDate: string;
  contracts: string[];
  openInterest: string[];
  /** futures_definitions lines of the futures contracts trading on the date (none: the source has no futures). */
  futuresDefinitions?: string[];
}

/** One minute of a trading date, as canonical lines (underlying_bars, quotes, prints). */
export interface LiveMinute {
  tradingDate: string;
  session: SessionName;
  /** Unix ms of the minute's start; its rows are stamped within [start, start + 60 s). */
  start: number;
  bars: string[];
  quotes: string[];
  prints: string[];
  /**
   * Futures rows (futures_trades, futures_bars, futures_statistics lines) that became known by the
   * minute's end and after the previous minute of the date's options windows ended: those of Globex
   * minutes outside the options windows (the evening from 18:00 ET, the 09:25–09:30 pause) come with
   * the next options minute. None: the source has no futures.
   */
  futuresTrades?: string[];
  futuresBars?: string[];
  futuresStatistics?: string[];
}

export interface LiveSource {
  /** The contracts listed on the date and their open interest at its start. */
  day(tradingDate: string): Promise<LiveDay>;
  /**
   * The minutes of the date that start at or after `from` and end at or before `to`, in time order
   * (minutes outside the date's sessions have no rows and are not returned).
   */
  minutes(tradingDate: string, from: number, to: number): Promise<LiveMinute[]>;
}
