/**
 * One trading date of the simulated market, minute by minute: each minute's underlying bars, NBBO
 * samples and prints as canonical CSV lines (layouts.ts), in the order the day files hold them.
 * The day files (index.ts) write these minutes; the live market (src/live/) loads them one minute
 * at a time as the clock passes them. Both draw from the same generator, so minute m of a live day
 * is the rows of minute m of the day file.
 *
 * A minute never depends on the minutes after it: what is decided for a whole segment (the
 * contracts sampled every minute, the chain snapshots' minutes, the strikes the forward crosses
 * around 30 days) is decided from the segment's whole simulated path, which exists before its
 * first minute is written, whatever the clock.
 */
import { optionRoot } from '../../analytics/roots.js';
import { MS_PER_YEAR } from '../../analytics/settlement.js';
import { contractId, type Chain } from './chain.js';
import { ROOTS, UNDERLYINGS, type RootSpec } from './model.js';
import { CANCEL_SHARE, LATE_SHARE, type ScaleSpec } from './activity.js';
import { barOf, MINUTE_MS, minuteWeight, regularProfile, SUB_STEPS, type SegmentPath } from './paths.js';
import { FlowGenerator, type MarketContext, type PrintRow } from './prints.js';
import type { Prng } from './prng.js';
import { liveExpirations, quotedMinutesOf, snapshotMinutes, thirtyDayContracts, type QuotedContract } from './snapshots.js';
import { nbboOf, quoteBounds, valueOption, widening } from './surface.js';
import { cents, money } from './writer.js';

/** Where lines go: a file writer, or a minute's array. */
export interface LineSink {
  line(text: string): void;
}

/** Roots trading in a segment: SPX family only in GTH and the curb. */
export function rootsOf(kind: SegmentPath['segment']['kind']): { rootIndex: number; root: RootSpec }[] {
  return ROOTS.map((root, rootIndex) => ({ rootIndex, root })).filter(({ root }) => {
    if (kind === 'rth') return true;
    const ref = optionRoot(root.root);
    return kind === 'gth' ? ref?.overnight === true : ref?.curb === true;
  });
}

/** Contracts sampled every minute in a segment (see index.ts's header). */
function quotedContracts(
  chain: Chain,
  p: SegmentPath,
  tradingDate: string,
  scale: ScaleSpec,
  rate: number,
  dividends: readonly number[],
): QuotedContract[] {
  const { segment } = p;
  const out: QuotedContract[] = [];
  for (const { rootIndex, root } of rootsOf(segment.kind)) {
    const expiries = chain.byRoot[rootIndex]!.filter((e) => e.date >= tradingDate && e.lastTradeMs > segment.start);
    const gth = segment.kind === 'gth';
    const nExp = gth
      ? root.root === 'SPX'
        ? 1
        : scale.gthQuotedExpirations
      : Math.round(root.quotedExpirations * scale.quoteExpirationFactor);
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
 * The NBBO line of a contract stamped at the start of minute m of a segment: the model value at
 * the minute's last price (the close of its bar, the price the service pairs a minute's sample
 * with: iv-samples.ts ivSample) and its variance, on the time from the minute's start, the
 * session's spread, kept within the no-arbitrage bounds at that price (surface.ts quoteBounds).
 * Draws from `rng`: the quote's lean, then the bid size (when there is a bid) and the ask size.
 */
function quoteLine(
  chain: Chain,
  q: QuotedContract,
  p: SegmentPath,
  m: number,
  rate: number,
  dividends: readonly number[],
  rng: Prng,
): string {
  const t0 = p.segment.start + m * MINUTE_MS;
  const u = q.e.underlyingIndex;
  const priced = {
    type: q.type,
    // The close as the bar file writes it (to the cent), so the bounds hold against the stored bar.
    spot: Math.round(p.points[u]![(m + 1) * SUB_STEPS]! * 100) / 100,
    strike: q.e.strikes[q.strikeIndex]!,
    years: (q.e.settleMs - t0) / MS_PER_YEAR,
    rate,
    dividendYield: dividends[u]!,
  };
  const v = valueOption({
    spec: q.e.underlying,
    type: priced.type,
    spot: priced.spot,
    strike: priced.strike,
    years: priced.years,
    rate,
    dividendYield: priced.dividendYield,
    variance: p.variance[u]![m]!,
  });
  const n = nbboOf(
    v.value,
    {
      rule: q.e.root.tick,
      spreadRelative: q.e.root.spreadRelative,
      spreadAbsolute: q.e.root.spreadAbsolute,
      widen: widening(p.segment.kind, v.z),
      lean: rng.between(-0.3, 0.3),
    },
    quoteBounds(priced),
  );
  const depth = q.e.root.venue !== null ? 20 : 50;
  const bidSize = n.bid > 0 ? Math.min(5000, Math.floor(rng.pareto(1, 0.9) * depth * 0.2)) + 1 : 0;
  const askSize = Math.min(5000, Math.floor(rng.pareto(1, 0.9) * depth * 0.2)) + 1;
  return `${chain.symbols[q.id]!},${t0},${n.bid > 0 ? cents(n.bid) : ''},${cents(n.ask)},${n.bid > 0 ? bidSize : ''},${askSize}`;
}

/**
 * Writes the one-minute bars of minute m of a segment: ETFs in the regular segment (to the options
 * close, 16:15 ET), stocks and indexes to the equity close (16:00 ET, 13:00 on an early close),
 * with volume shaped by the regular profile. An index has no value outside its calculation hours,
 * so none is written in GTH, the curb or the quarter hour after the close, although the path (the
 * futures-implied level the index options are priced on) moves on.
 */
export function writeBars(bars: LineSink, p: SegmentPath, m: number, profile: Float64Array | null, rng: Prng): void {
  const { segment } = p;
  const t0 = segment.start + m * MINUTE_MS;
  UNDERLYINGS.forEach((spec, u) => {
    if (segment.kind !== 'rth') return;
    if (spec.bars !== 'etf' && m >= segment.equityMinutes) return;
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

/** The lines of one minute of a trading date, in the canonical layouts of their kinds. */
export interface SimulatedMinute {
  segment: SegmentPath['segment'];
  /** Index of the minute in its segment. */
  minute: number;
  /** Unix ms of the minute's start. */
  start: number;
  bars: string[];
  quotes: string[];
  prints: string[];
}

export interface DaySimulation {
  chain: Chain;
  scale: ScaleSpec;
  /** The simulation's generator (forked by label, so this day's draws are its own). */
  rng: Prng;
  tradingDate: string;
  /** The date's segments' paths, in time order. */
  paths: readonly SegmentPath[];
  rate: number;
  /** Dividend yield per underlying index. */
  dividends: readonly number[];
  /** Minutes that end after this instant are not simulated (the day files' "now"). */
  now: number;
  /** Write the chain snapshots (at their minutes) as quote lines. */
  snapshots: boolean;
  /** Compute quotes at all (false: only the volume of the date's prints is wanted). */
  quotes: boolean;
  /** Receives each print's size by contract id (cancel records left out): the next date's open interest. */
  volume: Int32Array;
  /** Set with the contracts sampled every minute at some time. */
  quotedEver?: Set<number>;
  /** Counts the snapshot lines written. */
  counters?: { snapshotQuotes: number };
}

/**
 * The minutes of a trading date, in time order, each as its lines. Sequence numbers count the
 * date's prints from 1 in time order across its segments.
 */
export function* simulateDay(day: DaySimulation): Generator<SimulatedMinute, void> {
  const { chain, tradingDate: date, rate, dividends, now, volume } = day;
  const market: MarketContext = { chain, tradingDate: date, rate, dividends };
  /** Contracts sampled every minute in the segment at hand (not repeated by its snapshots). */
  const sampled = new Uint8Array(chain.count);
  let sequence = 0;

  for (const p of day.paths) {
    const plan = planSegment(day, market, p, sampled);
    const { segment } = p;
    for (let m = 0; m < plan.minutes; m += 1) {
      const t0 = segment.start + m * MINUTE_MS;
      const out: SimulatedMinute = { segment, minute: m, start: t0, bars: [], quotes: [], prints: [] };
      writeBars({ line: (text) => out.bars.push(text) }, p, m, plan.profile, plan.barRng);
      minuteQuotes(day, plan, sampled, m, t0, out.quotes);
      const minute = minutePrints(plan, m, t0);
      for (const r of minute) {
        if (r.timestamp >= now) continue;
        sequence += 1;
        out.prints.push(printLine(chain.symbols, r, sequence));
        if (r.condition !== 201) volume[r.contract] = volume[r.contract]! + r.size;
      }
      plan.flow.remember(minute);
      yield out;
    }
  }
}

/** What a segment's minutes share, fixed before its first: its generators, contracts quoted, snapshot minutes and event budget. */
interface SegmentPlan {
  path: SegmentPath;
  flow: FlowGenerator;
  quoteRng: Prng;
  barRng: Prng;
  eventRng: Prng;
  snapshotRng: Prng;
  atmRng: Prng;
  roots: { rootIndex: number; root: RootSpec }[];
  /** The roots' activity, summed. */
  activity: number;
  /** Minutes simulated (those that end by the day's "now"). */
  minutes: number;
  /** Contracts sampled every minute near the money, and at the money around 30 days. */
  quoted: QuotedContract[];
  atThirtyDays: QuotedContract[];
  /** Per root, the minutes it is quoted. */
  quotedMinutes: Map<number, number>;
  /** The roots with a chain snapshot, by minute. */
  snapshotsAt: Map<number, number[]>;
  /** Events of the session, and the sum of its minutes' weights. */
  budget: number;
  weightSum: number;
  profile: Float64Array | null;
  /** Minutes with a golden sweep. */
  golden: Set<number>;
}

/** A segment's plan; marks its contracts sampled every minute in `sampled`. */
function planSegment(day: DaySimulation, market: MarketContext, p: SegmentPath, sampled: Uint8Array): SegmentPlan {
  const { chain, scale, rng, tradingDate: date, rate, dividends, now } = day;
  const { segment } = p;
  const label = `${date}:${segment.kind}`;
  const flow = new FlowGenerator(market, p, rng.fork(`flow:${label}`));
  const quoteRng = rng.fork(`quotes:${label}`);
  const barRng = rng.fork(`bars:${label}`);
  const eventRng = rng.fork(`events:${label}`);
  const snapshotRng = rng.fork(`snapshots:${label}`);
  const atmRng = rng.fork(`quotes-30d:${label}`);
  const roots = rootsOf(segment.kind);
  const activity = roots.reduce((a, r) => a + r.root.activity, 0);
  const minutes = Math.min(segment.minutes, Math.max(0, Math.floor((now - segment.start) / MINUTE_MS)));
  const quoted = day.quotes ? quotedContracts(chain, p, date, scale, rate, dividends) : [];
  sampled.fill(0);
  for (const q of quoted) sampled[q.id] = 1;
  // At the money around 30 days, every minute: those not already sampled near the money. Chosen
  // from the whole segment's path, so that a minute's quotes do not depend on how many follow it.
  const atThirtyDays = day.quotes
    ? thirtyDayContracts(chain, p, roots, segment.minutes, rate, dividends).filter((q) => sampled[q.id] === 0)
    : [];
  for (const q of atThirtyDays) sampled[q.id] = 1;
  if (day.quotedEver) for (const q of [...quoted, ...atThirtyDays]) day.quotedEver.add(q.id);
  const quotedMinutes = new Map(roots.map(({ rootIndex, root }) => [rootIndex, quotedMinutesOf(root, segment)]));
  const snapshotsAt = new Map<number, number[]>();
  for (const { rootIndex } of day.quotes && day.snapshots ? roots : []) {
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
  return {
    path: p,
    flow,
    quoteRng,
    barRng,
    eventRng,
    snapshotRng,
    atmRng,
    roots,
    activity,
    minutes,
    quoted,
    atThirtyDays,
    quotedMinutes,
    snapshotsAt,
    budget,
    weightSum,
    profile,
    golden,
  };
}

/** Minute m's quote lines: the one-minute NBBO samples (near the money, then at the money around 30 days), then the chain snapshots. */
function minuteQuotes(day: DaySimulation, plan: SegmentPlan, sampled: Uint8Array, m: number, t0: number, quotes: string[]): void {
  const { chain, tradingDate: date, rate, dividends } = day;
  const p = plan.path;
  for (const q of plan.quoted) {
    if (t0 >= q.e.lastTradeMs) continue;
    quotes.push(quoteLine(chain, q, p, m, rate, dividends, plan.quoteRng));
  }
  for (const q of plan.atThirtyDays) {
    if (t0 >= q.e.lastTradeMs || m >= plan.quotedMinutes.get(q.e.rootIndex)!) continue;
    quotes.push(quoteLine(chain, q, p, m, rate, dividends, plan.atmRng));
  }
  // Chain snapshots: every other listed contract of the roots with a snapshot this minute.
  for (const rootIndex of plan.snapshotsAt.get(m) ?? []) {
    for (const e of liveExpirations(chain, rootIndex, date, t0)) {
      for (let strikeIndex = 0; strikeIndex < e.strikes.length; strikeIndex += 1) {
        for (const type of ['call', 'put'] as const) {
          const id = contractId(e, strikeIndex, type);
          if (sampled[id] === 1) continue;
          quotes.push(quoteLine(chain, { e, strikeIndex, type, id }, p, m, rate, dividends, plan.snapshotRng));
          if (day.counters) day.counters.snapshotQuotes += 1;
        }
      }
    }
  }
}

/** Minute m's prints in time order: each root's Poisson count of events (with late prints and cancels), and a golden sweep at its minutes. */
function minutePrints(plan: SegmentPlan, m: number, t0: number): PrintRow[] {
  const { segment } = plan.path;
  const { flow, eventRng, budget, activity, weightSum, profile } = plan;
  const weight = minuteWeight(segment, m);
  const minute: PrintRow[] = [];
  const eventTime = (): number => t0 + eventRng.int(59_000);
  for (const { rootIndex, root } of plan.roots) {
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
  if (plan.golden.has(m)) flow.golden(plan.roots, eventTime(), minute);
  minute.sort((a, b) => a.timestamp - b.timestamp);
  return minute;
}
