/**
 * The live market: while a trading date's options sessions are open by the calendar (the overnight
 * window, the regular session, the curb: analytics/sessions.ts), each minute that has ended is
 * taken from a live source (source.ts) and loaded through the ordinary ingest path, as files of
 * its rows in the canonical layouts given to the same loaders a vendor's file goes through
 * (ingest/market.ts), in dependency order (underlying bars, quotes, prints), with the futures rows
 * the source gives with that minute (futures bars, statistics, trades; their definitions with the
 * date's contracts). So a trading date's
 * partitions grow in place: a date already stored takes the new rows through the loaders' append
 * path (a print it already holds, by date, contract and sequence, is left as stored; a quote or a
 * bar is upserted), and loading a minute again changes nothing.
 *
 * At the start of a date (and on every start of the service) the date's contracts and open
 * interest are loaded first; a file the ledger already holds (same rows, same bytes) is skipped.
 * On start the runner resumes at the newest minute of the date that all kinds reach (db/live.ts
 * newestCompleteMinute: loaded again, in case a load after it stopped half way) and catches up the
 * minutes since, at most `catchUpMinutes` of them (the older ones are left out, and the gap
 * logged), in batches of `batchMinutes`.
 *
 * A batch of minutes loads as one unit (db/market-data-changes.ts whileLoadingUnit): the book valuer
 * (jobs/book-valuer.ts) leaves a minute alone until all its files have committed.
 *
 * One runner writes (a cluster's primary, main.ts); it loads one batch at a time, and stop() waits
 * for the batch in flight. A failed load (the database away) is logged and tried again a minute
 * later from where the store stands.
 */
import fs from 'node:fs';
import path from 'node:path';
import { marketSessions } from '../analytics/sessions.js';
import { addDays, newYorkDate } from '../analytics/new-york-time.js';
import type { Database } from '../db/connection.js';
import { recordSimulatedMarket } from '../db/data-origin.js';
import { newestCompleteMinute } from '../db/live.js';
import { whileLoadingUnit } from '../db/market-data-changes.js';
import { seedOptionRoots } from '../db/option-contracts.js';
import { LAYOUTS, type IngestKind } from '../ingest/layouts.js';
import { loadMarketFile } from '../ingest/market.js';
import { CsvGzWriter } from '../ingest/simulator/writer.js';
import type { Logger } from '../logging.js';
import type { LiveMinute, LiveSource } from './source.js';

const MINUTE_MS = 60_000;
/** How long after a minute ends its rows are loaded (a feed's minute is complete a little after it ends). */
const MINUTE_LAG_MS = 1_000;

export interface LiveMarketOptions {
  /** The writer's handle (no statement time-out): the loads take longer than a request. */
  db: Database;
  source: LiveSource;
  clock: () => number;
  /** Where the minutes' files are written before they load (removed after). */
  dir: string;
  /** At most this many minutes are caught up on a start (default 120). */
  catchUpMinutes?: number;
  /** Minutes per load when catching up (default 30). */
  batchMinutes?: number;
  /**
   * The simulator run the source continues, recorded once per start before the first load so that
   * GET /v1/status counts the minutes' files as simulated (db/data-origin.ts); none for another source.
   */
  simulator?: { seed: number; scale: string };
  logger?: Logger;
}

/** A trading date's options windows in time order; [] when the market is closed that day. */
export function optionsWindows(tradingDate: string): { start: number; end: number }[] {
  return marketSessions(tradingDate, ['options'])
    .map((s) => ({ start: s.start_time, end: s.end_time }))
    .sort((a, b) => a.start - b.start);
}

/**
 * The trading date whose options sessions are under way at `now` (from its overnight window's
 * start to its last window's end, the pauses between windows included), or null.
 */
export function tradingDateAt(now: number): string | null {
  const today = newYorkDate(now);
  // A date's overnight window opens the evening before it.
  for (const date of [today, addDays(today, 1)]) {
    const windows = optionsWindows(date);
    const first = windows[0];
    const last = windows[windows.length - 1];
    if (first !== undefined && last !== undefined && first.start <= now && now < last.end) return date;
  }
  return null;
}

/** The minutes of a date's windows that start in [from, to) and have ended by `to`: their starts. */
export function dueMinutes(tradingDate: string, from: number, to: number): number[] {
  const out: number[] = [];
  for (const w of optionsWindows(tradingDate)) {
    for (let t = Math.max(w.start, from); t + MINUTE_MS <= Math.min(w.end, to); t += MINUTE_MS) out.push(t);
  }
  return out;
}

export interface LiveTick {
  tradingDate: string | null;
  /** Minutes loaded by this tick. */
  minutes: number;
  prints: number;
  /** Minutes left out because the catch-up was longer than its bound. */
  skipped: number;
}

export class LiveMarket {
  private readonly catchUp: number;
  private readonly batch: number;
  /** Per trading date: the start of the next minute to load, once known. */
  private readonly next = new Map<string, number>();
  private readonly ready = new Set<string>();
  private running: Promise<LiveTick> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private recorded = false;

  constructor(private readonly options: LiveMarketOptions) {
    this.catchUp = options.catchUpMinutes ?? 120;
    this.batch = options.batchMinutes ?? 30;
  }

  /** Loads every minute due at the clock's now (one pass; a pass in progress is awaited instead). */
  async tick(): Promise<LiveTick> {
    this.running ??= this.pass().finally(() => {
      this.running = null;
    });
    return await this.running;
  }

  /** Ticks now and then shortly after each minute ends, until stop(). */
  start(): void {
    this.stopped = false;
    const schedule = (): void => {
      if (this.stopped) return;
      const now = this.options.clock();
      const wait = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS + MINUTE_LAG_MS - now;
      this.timer = setTimeout(run, wait);
    };
    const run = (): void => {
      void this.tick()
        .then(
          (result) => {
            if (result.minutes > 0) this.options.logger?.info('live minutes loaded', { ...result });
          },
          (error: unknown) =>
            this.options.logger?.error('live minutes failed; retrying next minute', {
              error: error instanceof Error ? error.message : String(error),
            }),
        )
        .finally(schedule);
    };
    run();
  }

  /** Stops ticking; waits for the load in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  private async pass(): Promise<LiveTick> {
    const now = this.options.clock();
    const tradingDate = tradingDateAt(now);
    if (tradingDate === null) return { tradingDate, minutes: 0, prints: 0, skipped: 0 };
    const windows = optionsWindows(tradingDate);
    const dayStart = windows[0]!.start;
    const simulator = this.options.simulator;
    if (simulator !== undefined && !this.recorded) {
      await recordSimulatedMarket(this.options.db, { ...simulator, outDir: this.options.dir, live: true });
      this.recorded = true;
    }
    await this.prepareDay(tradingDate);
    let from = this.next.get(tradingDate);
    if (from === undefined)
      from = (await newestCompleteMinute(this.options.db, tradingDate, dayStart, windows[windows.length - 1]!.end)) ?? dayStart;
    let due = dueMinutes(tradingDate, from, now);
    const skipped = Math.max(0, due.length - this.catchUp);
    if (skipped > 0) {
      this.options.logger?.error('live catch-up bounded: minutes left out', {
        trading_date: tradingDate,
        skipped,
        from: due[0],
        to: due[skipped],
      });
      due = due.slice(skipped);
    }
    let minutes = 0;
    let prints = 0;
    for (let i = 0; i < due.length && !this.stopped; i += this.batch) {
      const first = due[i]!;
      const last = due[Math.min(i + this.batch, due.length) - 1]!;
      const rows = await this.options.source.minutes(tradingDate, first, last + MINUTE_MS);
      prints += await this.loadMinutes(tradingDate, rows);
      minutes += rows.length;
      this.next.set(tradingDate, last + MINUTE_MS);
    }
    return { tradingDate, minutes, prints, skipped };
  }

  /** The date's contracts and open interest, once per date and process (the ledger skips a file loaded before). */
  private async prepareDay(tradingDate: string): Promise<void> {
    if (this.ready.has(tradingDate)) return;
    const day = await this.options.source.day(tradingDate);
    await seedOptionRoots(this.options.db);
    await this.loadFiles(`${tradingDate}`, {
      contracts: day.contracts,
      open_interest: day.openInterest,
      futures_definitions: day.futuresDefinitions ?? [],
    });
    this.ready.add(tradingDate);
  }

  /** Loads some minutes as one file per kind; returns the prints loaded. */
  async loadMinutes(tradingDate: string, minutes: readonly LiveMinute[]): Promise<number> {
    if (minutes.length === 0) return 0;
    const stamp = (t: number): string => new Date(t).toISOString().slice(11, 16).replace(':', '');
    const label = `${tradingDate}-${stamp(minutes[0]!.start)}-${stamp(minutes[minutes.length - 1]!.start)}`;
    // One unit for the book valuer (db/market-data-changes.ts whileLoadingUnit): a minute's books are
    // valued once its prints have committed too, not between its quotes and its prints.
    return await whileLoadingUnit(
      this.options.db,
      async () =>
        await this.loadFiles(label, {
          underlying_bars: minutes.flatMap((m) => m.bars),
          quotes: minutes.flatMap((m) => m.quotes),
          prints: minutes.flatMap((m) => m.prints),
          futures_bars: minutes.flatMap((m) => m.futuresBars ?? []),
          futures_statistics: minutes.flatMap((m) => m.futuresStatistics ?? []),
          futures_trades: minutes.flatMap((m) => m.futuresTrades ?? []),
        }),
    );
  }

  /** Writes each kind's lines to a file and loads the files in dependency order; returns the prints loaded. */
  private async loadFiles(label: string, lines: Partial<Record<IngestKind, string[]>>): Promise<number> {
    fs.mkdirSync(this.options.dir, { recursive: true });
    let prints = 0;
    for (const kind of [
      'contracts',
      'futures_definitions',
      'open_interest',
      'underlying_bars',
      'futures_bars',
      'futures_statistics',
      'quotes',
      'prints',
      'futures_trades',
    ] as const) {
      const rows = lines[kind];
      if (rows === undefined || rows.length === 0) continue;
      const file = path.join(this.options.dir, `${kind}-${label}.csv.gz`);
      const writer = new CsvGzWriter(
        file,
        LAYOUTS[kind].map((c) => c.name),
      );
      for (const row of rows) writer.line(row);
      await writer.close();
      try {
        const result = await loadMarketFile(this.options.db, kind, file);
        if (result.rejected.length > 0) {
          const first = result.rejected
            .slice(0, 3)
            .map((r) => `line ${r.line}: ${r.reason}`)
            .join('; ');
          this.options.logger?.error('live rows rejected', { file: path.basename(file), rejected: result.rejected.length, first });
        }
        if (kind === 'prints') prints += result.loaded;
      } finally {
        fs.rmSync(file, { force: true });
      }
    }
    return prints;
  }
}

/**
 * The embedded market's live runner (main.ts): the simulator continuing the seeded market (same
 * seed and scale as ingest/seed-market.ts), its minutes' files under `<dataDir>/live`, ticking on
 * the service's clock (clock.ts; the wall clock unless CLOCK_START sets it). Null unless config.liveMode is live.
 */
export function startLiveMarket(
  db: Database,
  config: { liveMode: 'off' | 'live' | 'replay'; liveCatchUpMinutes: number; dataDir: string },
  options: { source: LiveSource; clock?: () => number; logger?: Logger; simulator?: { seed: number; scale: string } },
): LiveMarket | null {
  if (config.liveMode !== 'live') return null;
  const market = new LiveMarket({
    db,
    source: options.source,
    clock: options.clock ?? Date.now,
    dir: path.join(config.dataDir, 'live'),
    catchUpMinutes: config.liveCatchUpMinutes,
    logger: options.logger,
    simulator: options.simulator,
  });
  market.start();
  return market;
}
