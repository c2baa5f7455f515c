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
 * - Underlyings (model.ts UNDERLYINGS), starting levels SPX 5900, SPY 588.5 (SPX/10.03), QQQ 510,
 *   IWM 225, AAPL 230, TSLA 340, NVDA 140, AMZN 205; at-the-money volatilities about 15–17% (SPX,
 *   SPY), 20% QQQ, 22% IWM, 25% AAPL, 30% AMZN, 48% NVDA, 55% TSLA.
 * - Paths (paths.ts): Heston stochastic volatility per underlying on one-minute steps (four
 *   15-second sub-steps), full-truncation Euler, correlated to the market by beta, leverage rho,
 *   an intraday U-shaped activity clock, quiet overnight with European-open and 08:30 ET bumps.
 *   Bars: SPX through GTH, regular and curb; ETFs 09:30–16:15; stocks 09:30–16:00 with volume.
 * - Chain (chain.ts): option roots SPX (AM-settled third-Friday monthlies), SPXW (PM dailies
 *   Monday to Friday, weeklies, monthlies), SPY, QQQ, IWM (dailies), AAPL, TSLA, NVDA, AMZN (Friday
 *   weeklies and monthlies), out to about a year (monthlies for three months at the default scale,
 *   then quarterlies); strike grids per root (SPX 5 points within ±5% and 25 to ±20%, SPY/QQQ $1
 *   then $5, IWM $1 then $5, AAPL/TSLA/AMZN $2.50 then $5, NVDA $1 then $5), OCC symbols from
 *   occ.ts formatOccSymbol.
 * - Surface (surface.ts): Heston term structure of at-the-money volatility with a variance risk
 *   premium, skew and smile in standardised moneyness (index put skew, flatter single stocks),
 *   Black-Scholes-Merton prices (pricing.ts) on the time to settlement (settlement.ts), rate from
 *   rates.ts riskFreeRate, yields from rates.ts dividendYield.
 * - Quotes: NBBO with spreads relative to value plus an absolute part, wider in GTH (×2.5), in the
 *   curb (×1.8) and in the wings, on the root's tick grid ($0.05/$0.10 SPX and SPXW, $0.01 SPY,
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
 *   mix of opra.ts (SPX/SPXW on Cboe only), sweeps (219), splits, blocks, auctions (227/228),
 *   crosses (229/230), floor prints (231), multi-leg prints (232–236), late prints (204/202),
 *   cancel records (201) and golden sweeps (≥ $1.1M). Sequence numbers are unique per trading
 *   date (one counter per date, in time order). Sparse SPX/SPXW prints in GTH and the curb.
 *
 * Scale (model.ts SCALES), measured on the 2-core development machine (seed 42, the week of
 * 2026-11-16):
 * - 'default': 19k contracts, 92k open-interest rows, 20k bars, 580k quote samples (1,260
 *   contracts quoted over the week), 215k prints (about 43k a session, 300 of them in GTH);
 *   10.8 MB of gzip, written in about 4 s. With the chain snapshots, the 30-day samples and the
 *   history (seed 20261122, now 2026-11-25 16:00 ET): 6.6 million quote samples (4.55 million in
 *   snapshots, about 1.3 million a full day; 2,332 contracts sampled every minute at some time),
 *   140k bars over 35 dates, 87 MB of gzip at level 1, written in 16 to 23 s (14.5 s of CPU) on
 *   the shared machine.
 * - 'full': every listed strike within ±20% for every expiration (56k contracts), 1.5 million
 *   order events per regular session: 2.3 million prints a day (SPXW 620k, SPY 460k, SPX 90k),
 *   11.4 million prints and 4 million quote samples for the week, 250 MB of gzip, written in
 *   about 95 s with a constant ~240 MB resident set (everything is streamed minute by minute),
 *   before the chain snapshots (every one of the 56k contracts at each snapshot minute).
 *
 * Files (all gzip CSV with the canonical header): contracts.csv.gz, underlying_bars-<date>.csv.gz
 * of the history dates, then per trading date underlying_bars-<date>.csv.gz,
 * open_interest-<date>.csv.gz, quotes-<date>.csv.gz,
 * prints-<date>.csv.gz. Load contracts first.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { completedSessions, isTradingDay, nextTradingDay } from '../../analytics/calendar.js';
import { newYorkDate } from '../../analytics/new-york-time.js';
import { dividendYield, riskFreeRate } from '../../analytics/rates.js';
import { optionRoot } from '../../analytics/roots.js';
import { MS_PER_YEAR } from '../../analytics/settlement.js';
import { optionsOvernightWindow } from '../../analytics/sessions.js';
import { LAYOUTS, type IngestKind } from '../layouts.js';
import { buildChain, contractId, initialOpenInterest, rollOpenInterest, type Chain } from './chain.js';
import { CANCEL_SHARE, LATE_SHARE, ROOTS, SCALES, UNDERLYINGS, type RootSpec, type Scale, type ScaleSpec } from './model.js';
import { historyDates, simulateHistoryPaths } from './history.js';
import { barOf, MINUTE_MS, minuteWeight, regularProfile, segmentsOf, simulatePaths, SUB_STEPS, type SegmentPath } from './paths.js';
import { FlowGenerator, type MarketContext, type PrintRow } from './prints.js';
import { Prng } from './prng.js';
import { liveExpirations, quotedMinutesOf, snapshotMinutes, thirtyDayContracts, type QuotedContract } from './snapshots.js';
import { nbboOf, valueOption, widening } from './surface.js';
import { cents, CsvGzWriter, money } from './writer.js';

export { SCALES, UNDERLYINGS, ROOTS } from './model.js';
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
   * Called with each set of files as soon as it is written: the contracts, each history date's
   * bars, then each trading date's files. Each set can load once the sets before it have, so a
   * caller may load while the simulation goes on (seed-market.ts).
   */
  onFiles?: (files: Partial<Record<IngestKind, string[]>>) => void;
}

/** Number of completed sessions simulated. */
export const SESSIONS = 5;

/**
 * The trading dates simulated: the last five completed sessions, plus the date whose overnight or
 * regular session is in progress at `now` (ascending).
 */
export function simulatedDates(now: number): string[] {
  const dates = completedSessions(now, SESSIONS);
  const last = dates[dates.length - 1]!;
  const today = newYorkDate(now);
  const candidates = [today, nextTradingDay(today)];
  for (const date of candidates) {
    if (date <= last || !isTradingDay(date)) continue;
    const gth = optionsOvernightWindow(date);
    if (gth && gth.start_time + MINUTE_MS <= now) {
      dates.push(date);
      break;
    }
  }
  return dates;
}

const header = (kind: IngestKind): string[] => LAYOUTS[kind].map((c) => c.name);

/** Roots trading in a segment: SPX family only in GTH and the curb. */
function rootsOf(kind: SegmentPath['segment']['kind']): { rootIndex: number; root: RootSpec }[] {
  return ROOTS.map((root, rootIndex) => ({ rootIndex, root })).filter(({ root }) => {
    if (kind === 'rth') return true;
    const ref = optionRoot(root.root);
    return kind === 'gth' ? ref?.overnight === true : ref?.curb === true;
  });
}

/** Contracts sampled every minute in a segment (see the header). */
function quotedContracts(chain: Chain, p: SegmentPath, tradingDate: string, scale: ScaleSpec, rate: number, dividends: readonly number[]): QuotedContract[] {
  const { segment } = p;
  const out: QuotedContract[] = [];
  for (const { rootIndex, root } of rootsOf(segment.kind)) {
    const expiries = chain.byRoot[rootIndex]!.filter((e) => e.date >= tradingDate && e.lastTradeMs > segment.start);
    const gth = segment.kind === 'gth';
    const nExp = gth ? (root.root === 'SPX' ? 1 : scale.gthQuotedExpirations) : Math.round(root.quotedExpirations * scale.quoteExpirationFactor);
    const nStrikes = gth ? scale.gthQuotedStrikes : Math.round(root.quotedStrikes * scale.quoteStrikeFactor);
    for (const e of expiries.slice(0, nExp)) {
      const u = e.underlyingIndex;
      const spot = p.points[u]![0]!;
      const years = Math.max((e.settleMs - segment.start) / MS_PER_YEAR, 1 / 365 / 24);
      const sd = Math.sqrt(p.variance[u]![0]! * years) * e.underlying.vrp;
      const forward = spot * Math.exp((rate - dividends[u]!) * years);
      const within = e.strikes.map((k, i) => ({ i, d: Math.abs(Math.log(k / forward)) })).filter((s) => s.d <= 2.2 * sd);
      let chosen = within.map((s) => s.i);
      if (chosen.length < 3) {
        chosen = e.strikes
          .map((k, i) => ({ i, d: Math.abs(Math.log(k / forward)) }))
          .sort((a, b) => a.d - b.d)
          .slice(0, 3)
          .map((s) => s.i)
          .sort((a, b) => a - b);
      }
      if (chosen.length > nStrikes) {
        const picked = new Set<number>();
        for (let k = 0; k < nStrikes; k += 1) picked.add(chosen[Math.round((k * (chosen.length - 1)) / (nStrikes - 1))]!);
        chosen = [...picked];
      }
      for (const strikeIndex of chosen) {
        for (const type of ['call', 'put'] as const) out.push({ e, strikeIndex, type, id: contractId(e, strikeIndex, type) });
      }
    }
  }
  return out;
}

/**
 * The NBBO line of a contract at the start of minute m of a segment (model value at the minute's
 * first price and variance, the session's spread). Draws from `rng`: the quote's lean, then the
 * bid size (when there is a bid) and the ask size.
 */
function quoteLine(chain: Chain, q: QuotedContract, p: SegmentPath, m: number, rate: number, dividends: readonly number[], rng: Prng): string {
  const t0 = p.segment.start + m * MINUTE_MS;
  const u = q.e.underlyingIndex;
  const v = valueOption({
    spec: q.e.underlying,
    type: q.type,
    spot: p.points[u]![m * SUB_STEPS]!,
    strike: q.e.strikes[q.strikeIndex]!,
    years: (q.e.settleMs - t0) / MS_PER_YEAR,
    rate,
    dividendYield: dividends[u]!,
    variance: p.variance[u]![m]!,
  });
  const n = nbboOf(v.value, {
    rule: q.e.root.tick,
    spreadRelative: q.e.root.spreadRelative,
    spreadAbsolute: q.e.root.spreadAbsolute,
    widen: widening(p.segment.kind, v.z),
    lean: rng.between(-0.3, 0.3),
  });
  const depth = q.e.root.listing === 'cboe_only' ? 20 : 50;
  const bidSize = n.bid > 0 ? Math.min(5000, Math.floor(rng.pareto(1, 0.9) * depth * 0.2)) + 1 : 0;
  const askSize = Math.min(5000, Math.floor(rng.pareto(1, 0.9) * depth * 0.2)) + 1;
  return `${chain.symbols[q.id]!},${t0},${n.bid > 0 ? cents(n.bid) : ''},${cents(n.ask)},${n.bid > 0 ? bidSize : ''},${askSize}`;
}

/**
 * Writes the one-minute bars of minute m of a segment: SPX through every segment, ETFs in the
 * regular segment, stocks to the equity close, with volume shaped by the regular profile.
 */
function writeBars(bars: CsvGzWriter, p: SegmentPath, m: number, profile: Float64Array | null, rng: Prng): void {
  const { segment } = p;
  const t0 = segment.start + m * MINUTE_MS;
  UNDERLYINGS.forEach((spec, u) => {
    if (spec.bars !== 'index' && segment.kind !== 'rth') return;
    if (spec.bars === 'equity' && m >= segment.equityMinutes) return;
    const [o, h, l, c] = barOf(p, u, m);
    let shares = 0;
    if (spec.dailyVolume > 0) {
      const shape = profile ? profile[m]! * (m >= segment.equityMinutes ? 0.2 : 1) : 0;
      shares = Math.round(((spec.dailyVolume * shape) / segment.equityMinutes) * Math.exp(0.4 * rng.normal() - 0.08));
    }
    bars.line(`${spec.symbol},${t0},${money(o)},${money(h)},${money(l)},${money(c)},${shares}`);
  });
}

function printLine(symbols: readonly string[], r: PrintRow, sequence: number): string {
  const quote = r.bid === null || r.ask === null ? ',,' : `${r.bid > 0 ? cents(r.bid) : ''},${cents(r.ask)},${r.quoteTimestamp ?? ''}`;
  // option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp
  return `${symbols[r.contract]!},${r.timestamp},${sequence},${cents(r.price)},${r.size},${r.exchange},${r.condition ?? ''},,,${quote}`;
}

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
  const segments = dates.flatMap(segmentsOf).filter((s) => s.start + MINUTE_MS <= now);
  const paths = simulatePaths(segments, rng.fork('paths'));
  const chain = buildChain(dates, scale);
  const history = historyDates(now, SESSIONS);
  const historyPaths = simulateHistoryPaths(history, rng.fork('history-paths'));
  await mkdir(outDir, { recursive: true });

  const files: Partial<Record<IngestKind, string[]>> = { contracts: [], underlying_bars: [], open_interest: [], quotes: [], prints: [] };
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

  const contracts = new CsvGzWriter(path.join(outDir, 'contracts.csv.gz'), header('contracts'));
  for (const e of chain.expirations) {
    for (let id = e.firstId; id < e.firstId + 2 * e.strikes.length; id += 1) contracts.line(`${chain.symbols[id]!},${e.underlying.symbol},100`);
    await contracts.drain();
  }
  await contracts.close();
  track(['contracts', contracts]);

  for (const date of history) {
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
    track(['underlying_bars', bars]);
  }

  const dividends = UNDERLYINGS.map((u) => dividendYield(u.symbol));
  const openInterest = initialOpenInterest(chain, dates[0]!, rng.fork('open-interest'));
  const volume = new Int32Array(chain.count);
  const quotedEver = new Set<number>();
  let snapshotQuotes = 0;
  /** Contracts sampled every minute in the segment at hand (not repeated by its snapshots). */
  const sampled = new Uint8Array(chain.count);

  for (const [dateIndex, date] of dates.entries()) {
    if (dateIndex > 0) {
      rollOpenInterest(openInterest, volume, rng.fork(`open-interest:${date}`));
      volume.fill(0);
    }
    const oi = new CsvGzWriter(path.join(outDir, `open_interest-${date}.csv.gz`), header('open_interest'));
    for (const e of chain.expirations) {
      if (e.date < date) continue;
      for (let id = e.firstId; id < e.firstId + 2 * e.strikes.length; id += 1) oi.line(`${chain.symbols[id]!},${date},${openInterest[id]!}`);
      await oi.drain();
    }
    await oi.close();

    const bars = new CsvGzWriter(path.join(outDir, `underlying_bars-${date}.csv.gz`), header('underlying_bars'));
    const quotes = new CsvGzWriter(path.join(outDir, `quotes-${date}.csv.gz`), header('quotes'));
    const prints = new CsvGzWriter(path.join(outDir, `prints-${date}.csv.gz`), header('prints'));
    const rate = riskFreeRate(date);
    const market: MarketContext = { chain, tradingDate: date, rate, dividends };
    let sequence = 0;

    for (const p of paths.filter((x) => x.segment.tradingDate === date)) {
      const { segment } = p;
      const label = `${date}:${segment.kind}`;
      const flow = new FlowGenerator(market, p, rng.fork(`flow:${label}`));
      const quoteRng = rng.fork(`quotes:${label}`);
      const barRng = rng.fork(`bars:${label}`);
      const eventRng = rng.fork(`events:${label}`);
      const snapshotRng = rng.fork(`snapshots:${label}`);
      const atmRng = rng.fork(`quotes-30d:${label}`);
      const quoted = quotedContracts(chain, p, date, scale, rate, dividends);
      const roots = rootsOf(segment.kind);
      const activity = roots.reduce((a, r) => a + r.root.activity, 0);
      const minutes = Math.min(segment.minutes, Math.floor((now - segment.start) / MINUTE_MS));
      sampled.fill(0);
      for (const q of quoted) sampled[q.id] = 1;
      // At the money around 30 days, every minute: those not already sampled near the money.
      const atThirtyDays = thirtyDayContracts(chain, p, roots, minutes, rate, dividends).filter((q) => sampled[q.id] === 0);
      for (const q of atThirtyDays) sampled[q.id] = 1;
      for (const q of [...quoted, ...atThirtyDays]) quotedEver.add(q.id);
      const quotedMinutes = new Map(roots.map(({ rootIndex, root }) => [rootIndex, quotedMinutesOf(root, segment)]));
      const snapshotsAt = new Map<number, number[]>();
      for (const { rootIndex } of options.snapshotDates === undefined || options.snapshotDates.includes(date) ? roots : []) {
        for (const m of snapshotMinutes(quotedMinutes.get(rootIndex)!, minutes)) snapshotsAt.set(m, [...(snapshotsAt.get(m) ?? []), rootIndex]);
      }
      // Events per minute of a root: the session's budget × the root's share × the minute's activity.
      let budget: number;
      let weightSum = 0;
      if (segment.kind === 'rth') {
        budget = scale.rthEvents;
        weightSum = 390;
      } else {
        budget = segment.kind === 'gth' ? scale.gthEvents : scale.curbEvents;
        for (let m = 0; m < segment.minutes; m += 1) weightSum += minuteWeight(segment, m);
      }
      const profile = segment.kind === 'rth' ? regularProfile(segment.equityMinutes, segment.minutes) : null;
      const golden = new Set<number>();
      if (segment.kind === 'rth') {
        for (let k = 0; k < scale.goldenSweeps; k += 1) golden.add(5 + eventRng.int(Math.max(1, segment.equityMinutes - 10)));
      }

      for (let m = 0; m < minutes; m += 1) {
        const t0 = segment.start + m * MINUTE_MS;
        const weight = minuteWeight(segment, m);
        writeBars(bars, p, m, profile, barRng);
        // One-minute NBBO samples: near the money, then at the money around 30 days.
        for (const q of quoted) {
          if (t0 >= q.e.lastTradeMs) continue;
          quotes.line(quoteLine(chain, q, p, m, rate, dividends, quoteRng));
        }
        for (const q of atThirtyDays) {
          if (t0 >= q.e.lastTradeMs || m >= quotedMinutes.get(q.e.rootIndex)!) continue;
          quotes.line(quoteLine(chain, q, p, m, rate, dividends, atmRng));
        }
        // Chain snapshots: every other listed contract of the roots with a snapshot this minute.
        for (const rootIndex of snapshotsAt.get(m) ?? []) {
          for (const e of liveExpirations(chain, rootIndex, date, t0)) {
            for (let strikeIndex = 0; strikeIndex < e.strikes.length; strikeIndex += 1) {
              for (const type of ['call', 'put'] as const) {
                const id = contractId(e, strikeIndex, type);
                if (sampled[id] === 1) continue;
                quotes.line(quoteLine(chain, { e, strikeIndex, type, id }, p, m, rate, dividends, snapshotRng));
                snapshotQuotes += 1;
              }
            }
            await quotes.drain();
          }
        }
        // Prints.
        const minute: PrintRow[] = [];
        const eventTime = (): number => t0 + eventRng.int(59_000);
        for (const { rootIndex, root } of roots) {
          if (segment.kind === 'rth' && optionRoot(root.root)?.kind === 'equity' && m >= segment.equityMinutes) continue;
          const lambda = (budget * (root.activity / activity) * (profile ? profile[m]! : weight)) / weightSum;
          const n = eventRng.poisson(lambda);
          for (let k = 0; k < n; k += 1) {
            const t = eventTime();
            flow.event(rootIndex, root, t, minute);
            if (eventRng.chance(LATE_SHARE)) flow.late(rootIndex, root, eventTime(), minute);
            if (eventRng.chance(CANCEL_SHARE)) flow.cancel(eventTime(), minute);
          }
        }
        if (golden.has(m)) flow.golden(roots, eventTime(), minute);
        minute.sort((a, b) => a.timestamp - b.timestamp);
        for (const r of minute) {
          if (r.timestamp >= now) continue;
          sequence += 1;
          prints.line(printLine(chain.symbols, r, sequence));
          if (r.condition !== 201) volume[r.contract] = volume[r.contract]! + r.size;
        }
        flow.remember(minute);
        await Promise.all([bars.drain(), quotes.drain(), prints.drain()]);
      }
    }
    await Promise.all([bars.close(), quotes.close(), prints.close()]);
    track(['underlying_bars', bars], ['open_interest', oi], ['quotes', quotes], ['prints', prints]);
  }
  return { files, rows, dates, historyDates: history, contracts: chain.count, quotedContracts: quotedEver.size, snapshotQuotes };
}
