/**
 * The live source of the embedded market: the market simulator (src/ingest/simulator) run minute
 * by minute. A trading date is simulated as the day file of that date is while the date is in
 * progress (simulator/index.ts datesThrough: the five sessions before it, then it, from one seed),
 * and its minutes come from the same generator as the day file's (simulator/day.ts), so minute m
 * of a live day is the rows of minute m of the day file, and a print's classification does not
 * depend on how it arrived.
 *
 * Preparing a date simulates the paths of its six dates and the prints of the five before it (for
 * the open interest at its start, which rolls forward with each date's volume), then the date's
 * minutes are generated in order and kept behind a cursor; asking for an earlier minute starts the
 * date's generator again. The work yields to the event loop between minutes, so a service running
 * it keeps answering. The date's futures (simulator/futures.ts) are simulated whole when it is
 * prepared, as the day file's are, and each row given with the options minute that ends first at or
 * after it is known.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { riskFreeRate, dividendYield } from '../analytics/rates.js';
import type { SessionName } from '../analytics/sessions.js';
import { buildChain, initialOpenInterest, rollOpenInterest, type Chain } from '../ingest/simulator/chain.js';
import { simulateDay, type SimulatedMinute } from '../ingest/simulator/day.js';
import { datesThrough } from '../ingest/simulator/index.js';
import { UNDERLYINGS, type Scale } from '../ingest/simulator/model.js';
import { SCALES, type ScaleSpec } from '../ingest/simulator/activity.js';
import { segmentsOf, simulatePaths, MINUTE_MS, type SegmentPath } from '../ingest/simulator/paths.js';
import { Prng } from '../ingest/simulator/prng.js';
import { simulateFuturesDay, type FuturesRow } from '../ingest/simulator/futures.js';
import { futuresRng } from '../ingest/simulator/futures-files.js';
import type { LiveDay, LiveMinute, LiveSource } from './source.js';

export interface SimulatedSourceOptions {
  seed: number;
  scale: Scale;
  /** Overrides of the scale (tests shrink it, as test/support/market.ts does for day files). */
  overrides?: Partial<ScaleSpec>;
  /** Quote the chain snapshots (default true); a day file written without them matches `false`. */
  snapshots?: boolean;
}

const SESSION_OF: Record<SegmentPath['segment']['kind'], SessionName> = { gth: 'overnight', rth: 'regular', curb: 'curb' };

interface PreparedDate {
  tradingDate: string;
  chain: Chain;
  rng: Prng;
  paths: SegmentPath[];
  openInterest: Int32Array;
  /** The date's futures (simulator/futures.ts, as the day files write them): definitions, and rows by the options minute that delivers them. */
  futuresDefinitions: string[];
  futures: Map<number, FuturesOfMinute>;
  /** The date's generator and the next minute it gives (null when the date is over). */
  generator: Generator<SimulatedMinute, void>;
  next: SimulatedMinute | null;
}

interface FuturesOfMinute {
  trades: string[];
  bars: string[];
  statistics: string[];
}

/**
 * The futures rows of a date by the options minute that delivers them: the first minute of the
 * date's options windows that ends at or after the row is known (the last minute for any later).
 */
function futuresByMinute(
  tradingDate: string,
  paths: readonly SegmentPath[],
  seed: number,
): { definitions: string[]; byMinute: Map<number, FuturesOfMinute> } {
  const day = simulateFuturesDay(tradingDate, paths, futuresRng(new Prng(seed)));
  const starts: number[] = [];
  for (const p of paths) {
    if (p.segment.tradingDate !== tradingDate) continue;
    for (let m = 0; m < p.segment.minutes; m += 1) starts.push(p.segment.start + m * MINUTE_MS);
  }
  starts.sort((a, b) => a - b);
  const byMinute = new Map<number, FuturesOfMinute>();
  const put = (rows: readonly FuturesRow[], key: keyof FuturesOfMinute): void => {
    let i = 0;
    for (const row of rows) {
      while (i < starts.length - 1 && starts[i]! + MINUTE_MS < row.at) i += 1;
      const start = starts[i];
      if (start === undefined) return;
      let entry = byMinute.get(start);
      if (entry === undefined) byMinute.set(start, (entry = { trades: [], bars: [], statistics: [] }));
      entry[key].push(row.line);
    }
  };
  put(day.trades, 'trades');
  put(day.bars, 'bars');
  put(day.statistics, 'statistics');
  return { definitions: day.definitions, byMinute };
}

function nextMinute(generator: Generator<SimulatedMinute, void>): SimulatedMinute | null {
  const step = generator.next();
  return step.done === true ? null : step.value;
}

export class SimulatedLiveSource implements LiveSource {
  private readonly scale: ScaleSpec;
  private prepared: PreparedDate | null = null;

  constructor(private readonly options: SimulatedSourceOptions) {
    const base = SCALES[options.scale];
    if (!base) throw new RangeError(`unknown scale ${String(options.scale)}`);
    this.scale = { ...base, ...options.overrides };
  }

  async day(tradingDate: string): Promise<LiveDay> {
    const { chain, openInterest, futuresDefinitions } = await this.prepare(tradingDate);
    const contracts: string[] = [];
    const figures: string[] = [];
    // The lines of simulator/index.ts's contracts and open_interest files, in their order.
    for (const e of chain.expirations) {
      for (let id = e.firstId; id < e.firstId + 2 * e.strikes.length; id += 1) {
        contracts.push(`${chain.symbols[id]!},${e.underlying.symbol},100`);
        if (e.date >= tradingDate) figures.push(`${chain.symbols[id]!},${tradingDate},${openInterest[id]!}`);
      }
    }
    return { tradingDate, contracts, openInterest: figures, futuresDefinitions };
  }

  async minutes(tradingDate: string, from: number, to: number): Promise<LiveMinute[]> {
    let date = await this.prepare(tradingDate);
    if (date.next !== null && date.next.start > from) date = this.restart(date);
    const out: LiveMinute[] = [];
    while (date.next !== null && date.next.start + MINUTE_MS <= to) {
      const m = date.next;
      if (m.start >= from) {
        const futures = date.futures.get(m.start);
        out.push({
          tradingDate,
          session: SESSION_OF[m.segment.kind],
          start: m.start,
          bars: m.bars,
          quotes: m.quotes,
          prints: m.prints,
          futuresTrades: futures?.trades ?? [],
          futuresBars: futures?.bars ?? [],
          futuresStatistics: futures?.statistics ?? [],
        });
      }
      date.next = nextMinute(date.generator);
      await yieldToEventLoop();
    }
    return out;
  }

  /** The date's simulation, prepared once (the last date asked for is kept). */
  private async prepare(tradingDate: string): Promise<PreparedDate> {
    if (this.prepared?.tradingDate === tradingDate) return this.prepared;
    this.prepared = null;
    const dates = datesThrough(tradingDate);
    const rng = new Prng(this.options.seed);
    const paths = simulatePaths(dates.flatMap(segmentsOf), rng.fork('paths'));
    const chain = buildChain(dates, this.scale);
    const openInterest = initialOpenInterest(chain, dates[0]!, rng.fork('open-interest'));
    const volume = new Int32Array(chain.count);
    for (const [index, date] of dates.entries()) {
      if (index > 0) {
        rollOpenInterest(openInterest, volume, rng.fork(`open-interest:${date}`));
        volume.fill(0);
      }
      if (date === tradingDate) break;
      // Only the date's volume is wanted: its prints, without computing its quotes.
      for (const _ of simulateDay({ ...this.dayOf(chain, rng, paths, date), quotes: false, volume })) await yieldToEventLoop();
    }
    const futures = futuresByMinute(tradingDate, paths, this.options.seed);
    const prepared: PreparedDate = {
      tradingDate,
      chain,
      rng,
      paths,
      openInterest,
      futuresDefinitions: futures.definitions,
      futures: futures.byMinute,
      generator: this.generatorOf(chain, rng, paths, tradingDate),
      next: null,
    };
    prepared.next = nextMinute(prepared.generator);
    this.prepared = prepared;
    return prepared;
  }

  private restart(date: PreparedDate): PreparedDate {
    date.generator = this.generatorOf(date.chain, date.rng, date.paths, date.tradingDate);
    date.next = nextMinute(date.generator);
    return date;
  }

  private generatorOf(chain: Chain, rng: Prng, paths: readonly SegmentPath[], tradingDate: string): Generator<SimulatedMinute, void> {
    return simulateDay({ ...this.dayOf(chain, rng, paths, tradingDate), quotes: true, volume: new Int32Array(chain.count) });
  }

  private dayOf(chain: Chain, rng: Prng, paths: readonly SegmentPath[], tradingDate: string) {
    return {
      chain,
      scale: this.scale,
      rng,
      tradingDate,
      paths: paths.filter((p) => p.segment.tradingDate === tradingDate),
      rate: riskFreeRate(tradingDate),
      dividends: UNDERLYINGS.map((u) => dividendYield(u.symbol)),
      now: Number.POSITIVE_INFINITY,
      snapshots: this.options.snapshots ?? true,
    };
  }
}
