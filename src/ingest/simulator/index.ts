/**
 * The market simulator: a deterministic, seeded, realistic US options market written as gzip CSV
 * files in the canonical ingest layouts (src/ingest/layouts.ts), which `npm run simulate` loads
 * through the ordinary ingest path, so simulated prints are classified exactly like real ones.
 * The files hold RAW data only: contracts, one-minute underlying bars, open interest per contract
 * and date, one-minute NBBO samples and prints with the NBBO in force; never classified fields.
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
 *   early-close days). Only whole minutes that end at or before `now` are written.
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
 *   ±2.2 standard deviations at the segment start), and for SPX/SPXW in GTH and the curb.
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
 *   10.8 MB of gzip, written in about 4 s.
 * - 'full': every listed strike within ±20% for every expiration (56k contracts), 1.5 million
 *   order events per regular session: 2.3 million prints a day (SPXW 620k, SPY 460k, SPX 90k),
 *   11.4 million prints and 4 million quote samples for the week, 250 MB of gzip, written in
 *   about 95 s with a constant ~240 MB resident set (everything is streamed minute by minute).
 *
 * Files (all gzip CSV with the canonical header): contracts.csv.gz, then per trading date
 * underlying_bars-<date>.csv.gz, open_interest-<date>.csv.gz, quotes-<date>.csv.gz,
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
import { buildChain, contractId, initialOpenInterest, rollOpenInterest, type Chain, type Expiration } from './chain.js';
import { CANCEL_SHARE, LATE_SHARE, ROOTS, SCALES, UNDERLYINGS, type RootSpec, type Scale, type ScaleSpec } from './model.js';
import { barOf, MINUTE_MS, minuteWeight, regularProfile, segmentsOf, simulatePaths, SUB_STEPS, type SegmentPath } from './paths.js';
import { FlowGenerator, type MarketContext, type PrintRow } from './prints.js';
import { Prng } from './prng.js';
import { nbboOf, valueOption, widening } from './surface.js';
import { cents, CsvGzWriter, money } from './writer.js';

export { SCALES, UNDERLYINGS, ROOTS } from './model.js';

export interface SimulateOptions {
  outDir: string;
  seed: number;
  scale: Scale;
  /** The simulated "now", Unix ms: the data ends here. */
  now: number;
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

interface QuotedContract {
  e: Expiration;
  strikeIndex: number;
  type: 'call' | 'put';
  id: number;
}

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

function printLine(symbols: readonly string[], r: PrintRow, sequence: number): string {
  const quote = r.bid === null || r.ask === null ? ',,' : `${r.bid > 0 ? cents(r.bid) : ''},${cents(r.ask)},${r.quoteTimestamp ?? ''}`;
  // option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp
  return `${symbols[r.contract]!},${r.timestamp},${sequence},${cents(r.price)},${r.size},${r.exchange},${r.condition ?? ''},,,${quote}`;
}

export interface SimulationSummary {
  files: Partial<Record<IngestKind, string[]>>;
  rows: Partial<Record<IngestKind, number>>;
  dates: string[];
  contracts: number;
  quotedContracts: number;
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
  await mkdir(outDir, { recursive: true });

  const files: Partial<Record<IngestKind, string[]>> = { contracts: [], underlying_bars: [], open_interest: [], quotes: [], prints: [] };
  const rows: Partial<Record<IngestKind, number>> = {};
  const track = (kind: IngestKind, w: CsvGzWriter): void => {
    files[kind]!.push(w.path);
    rows[kind] = (rows[kind] ?? 0) + w.rows;
  };

  const contracts = new CsvGzWriter(path.join(outDir, 'contracts.csv.gz'), header('contracts'));
  for (const e of chain.expirations) {
    for (let id = e.firstId; id < e.firstId + 2 * e.strikes.length; id += 1) contracts.line(`${chain.symbols[id]!},${e.underlying.symbol},100`);
    await contracts.drain();
  }
  await contracts.close();
  track('contracts', contracts);

  const dividends = UNDERLYINGS.map((u) => dividendYield(u.symbol));
  const openInterest = initialOpenInterest(chain, dates[0]!, rng.fork('open-interest'));
  const volume = new Int32Array(chain.count);
  const quotedEver = new Set<number>();

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
      const quoted = quotedContracts(chain, p, date, scale, rate, dividends);
      for (const q of quoted) quotedEver.add(q.id);
      const roots = rootsOf(segment.kind);
      const activity = roots.reduce((a, r) => a + r.root.activity, 0);
      const minutes = Math.min(segment.minutes, Math.floor((now - segment.start) / MINUTE_MS));
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
        // Bars.
        UNDERLYINGS.forEach((spec, u) => {
          if (spec.bars !== 'index' && segment.kind !== 'rth') return;
          if (spec.bars === 'equity' && m >= segment.equityMinutes) return;
          const [o, h, l, c] = barOf(p, u, m);
          let shares = 0;
          if (spec.dailyVolume > 0) {
            const shape = profile ? profile[m]! * (m >= segment.equityMinutes ? 0.2 : 1) : 0;
            shares = Math.round(((spec.dailyVolume * shape) / segment.equityMinutes) * Math.exp(0.4 * barRng.normal() - 0.08));
          }
          bars.line(`${spec.symbol},${t0},${money(o)},${money(h)},${money(l)},${money(c)},${shares}`);
        });
        // One-minute NBBO samples.
        for (const q of quoted) {
          if (t0 >= q.e.lastTradeMs) continue;
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
            widen: widening(segment.kind, v.z),
            lean: quoteRng.between(-0.3, 0.3),
          });
          const depth = q.e.root.listing === 'cboe_only' ? 20 : 50;
          const bidSize = n.bid > 0 ? Math.min(5000, Math.floor(quoteRng.pareto(1, 0.9) * depth * 0.2)) + 1 : 0;
          const askSize = Math.min(5000, Math.floor(quoteRng.pareto(1, 0.9) * depth * 0.2)) + 1;
          quotes.line(`${chain.symbols[q.id]!},${t0},${n.bid > 0 ? cents(n.bid) : ''},${cents(n.ask)},${n.bid > 0 ? bidSize : ''},${askSize}`);
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
    track('open_interest', oi);
    track('underlying_bars', bars);
    track('quotes', quotes);
    track('prints', prints);
  }
  return { files, rows, dates, contracts: chain.count, quotedContracts: quotedEver.size };
}
