/**
 * The market simulator: a deterministic, seeded, realistic US options market written as gzip CSV
 * files in the canonical ingest layouts (src/ingest/layouts.ts), which `npm run simulate` loads
 * through the ordinary ingest path, so simulated prints are classified exactly like real ones.
 * The files hold RAW data only: contracts, one-minute underlying bars, open interest per contract
 * and date, NBBO samples (one a minute near the money, chain snapshots of every contract) and
 * prints with the NBBO in force; never classified fields.
 *
 * Determinism: one xoshiro128** generator seeded by `seed` (prng.ts), forked by label; the clock
 * is `now`, never the system's. Same seed and now: byte-identical files.
 *
 * What is simulated
 * - Dates: the last five completed regular sessions before `now` by the NYSE calendar
 *   (calendar.ts completedSessions), plus the trading date in progress at `now` (its overnight
 *   session so far, or its regular session so far), each with its Cboe Global Trading Hours window
 *   (20:15 ET the evening before to 09:25 ET, sessions.ts optionsOvernightWindow), its regular
 *   window (09:30 to 16:15 ET; 13:15 on early-close days) and its curb (16:15–17:00 ET, not on
 *   early-close days). Only whole minutes that end at or before `now` are written. Before them, the
 *   30 sessions of underlying history (history.ts): one-minute bars only.
 * - Underlyings (model.ts UNDERLYINGS): SPX, SPY, NDX, QQQ, RUT, IWM, AAPL, TSLA, NVDA, AMZN, each
 *   with its starting level and at-the-money volatility; the ETFs track their indexes at a fixed
 *   ratio (SPY ≈ SPX/10.03, QQQ ≈ NDX/40.98, IWM ≈ RUT/10).
 * - Paths (paths.ts): Heston stochastic volatility per underlying on one-minute steps (four
 *   15-second sub-steps), full-truncation Euler, correlated to the market by beta, leverage rho,
 *   an intraday U-shaped activity clock, quiet overnight with European-open and 08:30 ET bumps.
 *   Bars: SPX, NDX and RUT (indexes, calculated in the regular session only, no volume) and stocks
 *   09:30–16:00 (13:00 on an early close), stocks with volume; ETFs 09:30–16:15. An index's path
 *   moves on through GTH and the curb (the futures-implied level its options are priced on),
 *   without bars.
 * - Chain (chain.ts): option roots SPX, NDX and RUT (AM-settled third-Friday monthlies), SPXW,
 *   NDXP and RUTW (PM dailies Monday to Friday, weeklies, monthlies; SPX, SPXW, RUT and RUTW
 *   single-listed on Cboe, NDX and NDXP on Nasdaq PHLX, model.ts venue), SPY, QQQ, IWM (dailies),
 *   AAPL, TSLA, NVDA, AMZN (Friday
 *   weeklies and monthlies), out to about a year (monthlies for three months at the default scale,
 *   then quarterlies); a strike grid per root, finer near the money; OCC symbols from occ.ts
 *   formatOccSymbol.
 * - Surface (surface.ts): Heston term structure of at-the-money volatility with a variance risk
 *   premium, skew and smile in standardised moneyness (index put skew, flatter single stocks),
 *   Black-Scholes-Merton prices (pricing.ts) on the time to settlement (settlement.ts), rate from
 *   rates.ts riskFreeRate, yields from rates.ts dividendYield.
 * - Quotes: NBBO with spreads relative to value plus an absolute part, wider in GTH (×2.5), in the
 *   curb (×1.8) and in the wings, on the root's tick grid ($0.05/$0.10 the index roots, $0.01 SPY,
 *   QQQ, IWM, $0.01/$0.05 single stocks). One-minute samples for the contracts near the money of
 *   the nearest expirations of each root (model.ts quotedExpirations × quotedStrikes, chosen within
 *   ±2.2 standard deviations at the segment start), and for SPX/SPXW in GTH and the curb; one-minute
 *   samples at the money of the two expirations around 30 days of every root; chain snapshots of
 *   every listed contract of each root trading in a session at its start, every 15 minutes and its
 *   close (snapshots.ts). A snapshot and the one-minute samples of its minute never repeat a
 *   contract; each set draws from a generator of its own, so adding one leaves the others' quotes
 *   as they were.
 * - Open interest (chain.ts): concentrated near the money, on monthlies and on round strikes,
 *   rolled forward each date with the previous date's volume.
 * - Prints (prints.ts): Poisson order events, heavy-tailed (Pareto) sizes, a price-location mix
 *   against the NBBO in force (written on the print: bid, ask, quote_timestamp), the Massive venue
 *   mix of opra.ts (SPX/SPXW and RUT/RUTW on Cboe only, NDX/NDXP on Nasdaq PHLX only), sweeps
 *   (219), splits, blocks, auctions (227/228),
 *   crosses (229/230), floor prints (231), multi-leg prints (232–236), late prints (204/202),
 *   cancel records (201) and golden sweeps (≥ $1.1M). Sequence numbers are unique per trading
 *   date (one counter per date, in time order). Sparse SPX/SPXW prints in GTH and the curb.
 *
 * Scale (model.ts SCALES):
 * - 'default': what a first start seeds and the tests load: the near expirations and the strikes
 *   around the money, some 28k order events a regular session; small enough for a quick first
 *   start and test tier, large enough for every route to have data.
 * - 'full': every listed strike within ±20% for every expiration and 1.5 million order events a
 *   regular session (a busy real day's volume), for the benchmarks. Every file is streamed minute
 *   by minute, so memory stays flat whatever the scale.
 *
 * Files (all gzip CSV with the canonical header): contracts.csv.gz, underlying_bars-<date>.csv.gz
 * of the history dates, then per trading date underlying_bars-<date>.csv.gz,
 * open_interest-<date>.csv.gz, quotes-<date>.csv.gz,
 * prints-<date>.csv.gz, and the date's simulated futures (futures.ts: ES, NQ, RTY) as
 * futures_definitions-, futures_trades-, futures_bars- and futures_statistics-<date>.csv.gz.
 * Load contracts first.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { completedSessions, isTradingDay, nextTradingDay } from '../../analytics/calendar.js';
import { newYorkDate } from '../../analytics/new-york-time.js';
import { dividendYield, riskFreeRate } from '../../analytics/rates.js';
import { optionsOvernightWindow } from '../../analytics/sessions.js';
import { LAYOUTS, type IngestKind } from '../layouts.js';
import { buildChain, initialOpenInterest, rollOpenInterest, type Chain } from './chain.js';
import { UNDERLYINGS, type Scale } from './model.js';
import { SCALES, type ScaleSpec } from './activity.js';
import { historyDates, simulateHistoryPaths } from './history.js';
import { simulateDay, writeBars, type DaySimulation } from './day.js';
import { MINUTE_MS, regularProfile, segmentsOf, simulatePaths, type SegmentPath } from './paths.js';
import { Prng } from './prng.js';
import { CsvGzWriter } from './writer.js';
import { emptyFuturesFiles, writeFuturesDay } from './futures-files.js';

export { UNDERLYINGS, ROOTS } from './model.js';
export { SCALES } from './activity.js';
export { HISTORY_SESSIONS } from './history.js';
export { SNAPSHOT_EVERY_MINUTES } from './snapshots.js';

export interface SimulateOptions {
  outDir: string;
  seed: number;
  scale: Scale;
  /** The simulated "now", Unix ms: the data ends here. */
  now: number;
  /**
   * Trading dates whose chain snapshots are written (default every date): tests that load a date or
   * two skip the others' millions of lines. Everything else is written, and the same, either way.
   */
  snapshotDates?: readonly string[];
  /**
   * Trading dates whose quotes are written (default every date; the others' quotes files hold the
   * header only). The prints, bars and open interest are the same either way: quotes draw from
   * generators of their own.
   */
  quoteDates?: readonly string[];
  /**
   * Called with each set of files as soon as it is written: the contracts, each history date's
   * bars, then each trading date's files. Each set can load once the sets before it have, so a
   * caller may load while the simulation goes on (seed-market.ts).
   */
  onFiles?: (files: Partial<Record<IngestKind, string[]>>) => void;
}

/** Number of completed sessions simulated. */
export const SESSIONS = 5;

/**
 * The trading date whose options windows are in progress at `now`: from the end of the first
 * minute of its overnight window to the end of its last window (the curb, or the regular session
 * on an early-close day), the pause between windows included. Null when none is.
 */
export function dateInProgress(now: number): string | null {
  const today = newYorkDate(now);
  for (const date of [today, nextTradingDay(today)]) {
    if (!isTradingDay(date)) continue;
    const segments = segmentsOf(date);
    const first = segments[0];
    const last = segments[segments.length - 1];
    if (first === undefined || last === undefined) continue;
    if (first.start + MINUTE_MS <= now && now < last.start + last.minutes * MINUTE_MS) return date;
  }
  return null;
}

/**
 * The dates simulated while `tradingDate` is in progress: the last five sessions completed before
 * its overnight window opens, then the date itself (ascending).
 */
export function datesThrough(tradingDate: string): string[] {
  const gth = optionsOvernightWindow(tradingDate);
  if (gth === null) throw new RangeError(`not a trading date: ${tradingDate}`);
  return [...completedSessions(gth.start_time, SESSIONS), tradingDate];
}

/**
 * The trading dates simulated: the last five completed sessions, plus the date whose overnight,
 * regular or curb session is in progress at `now` (ascending). A date in progress keeps the same
 * dates until its last window ends (its regular close does not make it one of the five), so that
 * its day file, and the live market's minutes of it (src/live/), come from one simulation all day.
 */
export function simulatedDates(now: number): string[] {
  const inProgress = dateInProgress(now);
  return inProgress === null ? completedSessions(now, SESSIONS) : datesThrough(inProgress);
}

const header = (kind: IngestKind): string[] => LAYOUTS[kind].map((c) => c.name);

export interface SimulationSummary {
  files: Partial<Record<IngestKind, string[]>>;
  rows: Partial<Record<IngestKind, number>>;
  dates: string[];
  /** The sessions before `dates` with underlying bars only (history.ts). */
  historyDates: string[];
  contracts: number;
  /** Contracts sampled every minute at some time (near the money, or at the money around 30 days). */
  quotedContracts: number;
  /** Quote lines of chain snapshots (beyond the contracts sampled every minute at those minutes). */
  snapshotQuotes: number;
}

/**
 * Writes the simulated market into outDir and returns the files per kind (contracts first, then
 * per date ascending).
 */
export async function writeSimulatedMarket(options: SimulateOptions): Promise<Partial<Record<IngestKind, string[]>>> {
  return (await simulateMarket(options)).files;
}

/** writeSimulatedMarket with row counts, for the CLI's report; overrides shrink a scale for tests. */
export async function simulateMarket(options: SimulateOptions, overrides: Partial<ScaleSpec> = {}): Promise<SimulationSummary> {
  const base = SCALES[options.scale];
  if (!base) throw new RangeError(`unknown scale ${String(options.scale)}`);
  const scale: ScaleSpec = { ...base, ...overrides };
  const { now, outDir } = options;
  const rng = new Prng(options.seed);
  const dates = simulatedDates(now);
  // Every segment of the dates (the futures' fair value needs the level after `now`'s minute: futures.ts);
  // the options use those begun by now, which are the same whether the later ones are simulated or not.
  const allPaths = simulatePaths(dates.flatMap(segmentsOf), rng.fork('paths'));
  const paths = allPaths.filter((s) => s.segment.start + MINUTE_MS <= now);
  const chain = buildChain(dates, scale);
  const history = historyDates(now, SESSIONS);
  const historyPaths = simulateHistoryPaths(history, rng.fork('history-paths'));
  await mkdir(outDir, { recursive: true });

  const files: Partial<Record<IngestKind, string[]>> = {
    contracts: [],
    underlying_bars: [],
    open_interest: [],
    quotes: [],
    prints: [],
    ...emptyFuturesFiles(),
  };
  const rows: Partial<Record<IngestKind, number>> = {};
  const track = (...written: [IngestKind, CsvGzWriter][]): void => {
    const set: Partial<Record<IngestKind, string[]>> = {};
    for (const [kind, w] of written) {
      files[kind]!.push(w.path);
      rows[kind] = (rows[kind] ?? 0) + w.rows;
      set[kind] = [...(set[kind] ?? []), w.path];
    }
    options.onFiles?.(set);
  };

  track(['contracts', await writeContracts(outDir, chain)]);
  for (const date of history) track(['underlying_bars', await writeHistoryBars(outDir, date, historyPaths, rng)]);

  const dividends = UNDERLYINGS.map((u) => dividendYield(u.symbol));
  const openInterest = initialOpenInterest(chain, dates[0]!, rng.fork('open-interest'));
  const volume = new Int32Array(chain.count);
  const quotedEver = new Set<number>();
  const counters = { snapshotQuotes: 0 };

  for (const [dateIndex, date] of dates.entries()) {
    if (dateIndex > 0) {
      rollOpenInterest(openInterest, volume, rng.fork(`open-interest:${date}`));
      volume.fill(0);
    }
    const oi = await writeOpenInterest(outDir, date, chain, openInterest);
    const { bars, quotes, prints } = await writeDay(outDir, {
      chain,
      scale,
      rng,
      tradingDate: date,
      paths: paths.filter((x) => x.segment.tradingDate === date),
      rate: riskFreeRate(date),
      dividends,
      now,
      snapshots: options.snapshotDates === undefined || options.snapshotDates.includes(date),
      quotes: options.quoteDates === undefined || options.quoteDates.includes(date),
      volume,
      quotedEver,
      counters,
    });
    const futures = await writeFuturesDay(outDir, date, allPaths, now, rng);
    track(['underlying_bars', bars], ['open_interest', oi], ['quotes', quotes], ['prints', prints], ...futures);
  }
  return {
    files,
    rows,
    dates,
    historyDates: history,
    contracts: chain.count,
    quotedContracts: quotedEver.size,
    snapshotQuotes: counters.snapshotQuotes,
  };
}

/** contracts.csv.gz: every contract of the chain. */
async function writeContracts(outDir: string, chain: Chain): Promise<CsvGzWriter> {
  const contracts = new CsvGzWriter(path.join(outDir, 'contracts.csv.gz'), header('contracts'));
  for (const e of chain.expirations) {
    for (let id = e.firstId; id < e.firstId + 2 * e.strikes.length; id += 1)
      contracts.line(`${chain.symbols[id]!},${e.underlying.symbol},100`);
    await contracts.drain();
  }
  await contracts.close();
  return contracts;
}

/** A history session's underlying bars (no options). */
async function writeHistoryBars(outDir: string, date: string, historyPaths: readonly SegmentPath[], rng: Prng): Promise<CsvGzWriter> {
  const bars = new CsvGzWriter(path.join(outDir, `underlying_bars-${date}.csv.gz`), header('underlying_bars'));
  for (const p of historyPaths.filter((x) => x.segment.tradingDate === date)) {
    const barRng = rng.fork(`history-bars:${date}:${p.segment.kind}`);
    const profile = p.segment.kind === 'rth' ? regularProfile(p.segment.equityMinutes, p.segment.minutes) : null;
    for (let m = 0; m < p.segment.minutes; m += 1) {
      writeBars(bars, p, m, profile, barRng);
      await bars.drain();
    }
  }
  await bars.close();
  return bars;
}

/** The date's open interest of every contract not expired before it. */
async function writeOpenInterest(outDir: string, date: string, chain: Chain, openInterest: Int32Array): Promise<CsvGzWriter> {
  const oi = new CsvGzWriter(path.join(outDir, `open_interest-${date}.csv.gz`), header('open_interest'));
  for (const e of chain.expirations) {
    if (e.date < date) continue;
    for (let id = e.firstId; id < e.firstId + 2 * e.strikes.length; id += 1) oi.line(`${chain.symbols[id]!},${date},${openInterest[id]!}`);
    await oi.drain();
  }
  await oi.close();
  return oi;
}

/** A simulated date's bars, quotes and prints files, minute by minute. */
async function writeDay(outDir: string, day: DaySimulation): Promise<{ bars: CsvGzWriter; quotes: CsvGzWriter; prints: CsvGzWriter }> {
  const date = day.tradingDate;
  const bars = new CsvGzWriter(path.join(outDir, `underlying_bars-${date}.csv.gz`), header('underlying_bars'));
  const quotes = new CsvGzWriter(path.join(outDir, `quotes-${date}.csv.gz`), header('quotes'));
  const prints = new CsvGzWriter(path.join(outDir, `prints-${date}.csv.gz`), header('prints'));
  for (const minute of simulateDay(day)) {
    for (const line of minute.bars) bars.line(line);
    for (const line of minute.quotes) quotes.line(line);
    for (const line of minute.prints) prints.line(line);
    await Promise.all([bars.drain(), quotes.drain(), prints.drain()]);
  }
  await Promise.all([bars.close(), quotes.close(), prints.close()]);
  return { bars, quotes, prints };
}
