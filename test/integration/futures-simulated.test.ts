/**
 * The simulated futures (src/ingest/simulator/futures.ts) through the ordinary ingest path on real
 * PostgreSQL: the day files a first start writes load with the seed's loader (seed-market.ts
 * loadFilesInOrder) and the live runner's minutes with its own (runner.ts loadMinutes); what is
 * stored keeps to the Globex calendar, its bars are its trades', the roll week moves volume then
 * open interest, a settlement is preliminary then final, and GET /v1/status's futures datasets say
 * how fresh they are.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { globexTradeDateAt } from '../../src/analytics/futures/globex-calendar.js';
import { newYorkTimeToMs } from '../../src/analytics/new-york-time.js';
import { openDatabase, type Database, type DatabaseHandle } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { datasetFreshness } from '../../src/db/status.js';
import type { IngestKind } from '../../src/ingest/layouts.js';
import { loadFilesInOrder } from '../../src/ingest/seed-market.js';
import { simulateFuturesDay } from '../../src/ingest/simulator/futures.js';
import { futuresRng, writeFuturesDay } from '../../src/ingest/simulator/futures-files.js';
import { simulatedDates } from '../../src/ingest/simulator/index.js';
import { segmentsOf, simulatePaths } from '../../src/ingest/simulator/paths.js';
import { Prng } from '../../src/ingest/simulator/prng.js';
import { LiveMarket } from '../../src/live/runner.js';
import { createDatabase } from '../support/service.js';

const SEED = 5;
const DATE = '2026-12-10';
/** Thursday 2026-12-10 (the December contracts' roll date), 16:30 ET: settled preliminarily, not finally. */
const NOW = newYorkTimeToMs(DATE, '16:30');
const CLOSE = newYorkTimeToMs(DATE, '17:00');

let handle: DatabaseHandle;
let db: Database;
let dir: string;
let dates: string[];
let paths: ReturnType<typeof simulatePaths>;
let loadSeconds = 0;
const logged: string[] = [];

interface StoredTrade {
  symbol: string;
  trade_date: string;
  ts: number;
  sequence: number;
  price: number;
  size: number;
  aggressor_side: string | null;
}

async function storedTrades(): Promise<StoredTrade[]> {
  const result = await sql<StoredTrade>`
    select c.symbol, t.trade_date::text as trade_date, t.ts::float8 as ts, t.sequence::float8 as sequence, t.price, t.size, t.aggressor_side
    from futures_trades t join futures_contracts c on c.id = t.contract_id
    order by c.symbol, t.ts, t.sequence, t.match`.execute(db);
  return result.rows;
}

async function statistic(symbol: string, tradeDate: string) {
  const result = await sql<{ price: number | null; final: boolean | null; ts: number | null; oi: number | null; cleared: number | null }>`
    select s.settlement_price as price, s.settlement_final as final, s.settlement_ts::float8 as ts,
      s.open_interest::float8 as oi, s.cleared_volume::float8 as cleared
    from futures_statistics s join futures_contracts c on c.id = s.contract_id
    where c.symbol = ${symbol} and s.trade_date = ${tradeDate}::date`.execute(db);
  return result.rows[0];
}

beforeAll(async () => {
  handle = await openDatabase({
    databaseUrl: await createDatabase(inject('postgresUrl')),
    embeddedDir: '',
    embeddedPort: 0,
    poolSize: 4,
    statementTimeoutMs: 60_000,
  });
  db = handle.admin;
  await migrateToLatest(db);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'futures-simulated-'));
  // The futures day files of a first start at NOW (simulator/index.ts writes the same beside the options').
  dates = simulatedDates(NOW);
  paths = simulatePaths(dates.flatMap(segmentsOf), new Prng(SEED).fork('paths'));
  const files: Partial<Record<IngestKind, string[]>> = {};
  for (const date of dates) {
    for (const [kind, writer] of await writeFuturesDay(dir, date, paths, NOW, new Prng(SEED)))
      files[kind] = [...(files[kind] ?? []), writer.path];
  }
  const started = performance.now();
  await loadFilesInOrder(db, files, (line) => logged.push(line));
  loadSeconds = (performance.now() - started) / 1000;
}, 240_000);

afterAll(async () => {
  await handle?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('simulated futures loaded through the ingest path', () => {
  it('load every row of the day files, none rejected', async () => {
    expect(dates).toEqual(['2026-12-03', '2026-12-04', '2026-12-07', '2026-12-08', '2026-12-09', DATE]);
    expect(logged.filter((l) => /: \d+ rejected \(/.test(l))).toEqual([]);
    expect(logged.length).toBe(4 * dates.length);
    const trades = await storedTrades();
    expect(trades.length).toBeGreaterThan(20_000);
    expect(new Set(trades.map((t) => t.symbol))).toEqual(new Set(['ESZ6', 'ESH7', 'NQZ6', 'NQH7', 'RTYZ6', 'RTYH7']));
    expect(new Set(trades.map((t) => t.aggressor_side))).toEqual(new Set(['buy', 'sell']));
    // Nothing after the clock.
    expect(Math.max(...trades.map((t) => t.ts))).toBeLessThan(NOW);
    console.info(`futures day files of ${dates.length} dates loaded in ${loadSeconds.toFixed(2)} s`);
  });

  it('stores no trade or bar outside the Globex windows of its trade date', async () => {
    // The calendar by minute: its windows open and close on whole minutes.
    const byMinute = new Map<number, ReturnType<typeof globexTradeDateAt>>();
    const calendarAt = (t: number): ReturnType<typeof globexTradeDateAt> => {
      const minute = t - (t % 60_000);
      if (!byMinute.has(minute)) byMinute.set(minute, globexTradeDateAt(minute));
      return byMinute.get(minute)!;
    };
    const trades = await storedTrades();
    const wrong = trades.filter((t) => {
      const at = calendarAt(t.ts);
      return at === null || !at.trading || at.trade_date !== t.trade_date;
    });
    expect(wrong).toEqual([]);
    const bars = await sql<{ ts: number }>`select ts::float8 as ts from futures_bars`.execute(db);
    expect(bars.rows.filter((b) => b.ts % 60_000 !== 0 || !calendarAt(b.ts)?.trading)).toEqual([]);
    // Hand-written: the 17:00-18:00 ET halt, Saturdays and Sundays before 18:00 ET hold nothing, in New York time by PostgreSQL.
    const closed = await sql<{ n: number }>`
      select count(*)::int as n from (select to_timestamp(ts / 1000.0) at time zone 'America/New_York' as ny from futures_trades
        union all select to_timestamp(ts / 1000.0) at time zone 'America/New_York' from futures_bars) x
      where extract(hour from ny) = 17 or extract(isodow from ny) = 6 or (extract(isodow from ny) = 7 and extract(hour from ny) < 18)`.execute(
      db,
    );
    expect(closed.rows[0]!.n).toBe(0);
  });

  it("stores bars whose open, high, low, close and volume are their minute's trades", async () => {
    const result = await sql<{ bars: number; differing: number }>`
      with t as (
        select contract_id, ts - ts % 60000 as minute, ts, sequence, match, price, size from futures_trades
      ), agg as (
        select contract_id, minute,
          (array_agg(price order by ts, sequence, match))[1] as open, max(price) as high, min(price) as low,
          (array_agg(price order by ts desc, sequence desc, match desc))[1] as close, sum(size) as volume
        from t group by contract_id, minute
      )
      select (select count(*)::int from futures_bars) as bars,
        (select count(*)::int from futures_bars b full join agg a on a.contract_id = b.contract_id and a.minute = b.ts
          where a.minute is null or b.ts is null or (a.open, a.high, a.low, a.close, a.volume) is distinct from (b.open, b.high, b.low, b.close, b.volume)) as differing`.execute(
      db,
    );
    expect(result.rows[0]!.bars).toBeGreaterThan(10_000);
    expect(result.rows[0]!.differing).toBe(0);
  });

  it('settles the date in progress preliminarily, then finally with open interest and cleared volume from the live minutes', async () => {
    const before = await statistic('ESZ6', DATE);
    expect(before).toMatchObject({ final: false, oi: null, cleared: null, ts: newYorkTimeToMs(DATE, '16:00') + 30_000 });
    const status = new Map((await datasetFreshness(db)).map((d) => [d.dataset, d]));
    expect(status.get('futures.settlements')).toMatchObject({ newest_date: DATE, newest_timestamp: before!.ts });
    const stored = await storedTrades();
    expect(status.get('futures.trades')).toMatchObject({ newest_date: DATE, newest_timestamp: Math.max(...stored.map((t) => t.ts)) });
    const newestBar = await sql<{ ts: number }>`select max(ts)::float8 as ts from futures_bars`.execute(db);
    expect(status.get('futures.bars')).toMatchObject({ newest_date: DATE, newest_timestamp: newestBar.rows[0]!.ts });

    // The live runner's minutes to the Globex close: the rows known after NOW.
    const day = simulateFuturesDay(DATE, paths, futuresRng(new Prng(SEED)));
    const later = (rows: { at: number; line: string }[]): string[] => rows.filter((r) => r.at > NOW && r.at <= CLOSE).map((r) => r.line);
    const market = new LiveMarket({
      db,
      source: { day: async () => Promise.reject(new Error('unused')), minutes: async () => [] },
      clock: () => CLOSE,
      dir,
    });
    await market.loadMinutes(DATE, [
      {
        tradingDate: DATE,
        session: 'curb',
        start: CLOSE - 60_000,
        bars: [],
        quotes: [],
        prints: [],
        futuresTrades: later(day.trades),
        futuresBars: later(day.bars),
        futuresStatistics: later(day.statistics),
      },
    ]);
    const after = await statistic('ESZ6', DATE);
    expect(after).toMatchObject({ final: true, price: before!.price, ts: CLOSE });
    const trades = await storedTrades();
    expect(Math.max(...trades.map((t) => t.ts))).toBeGreaterThan(NOW);
    for (const symbol of ['ESZ6', 'ESH7', 'NQZ6', 'NQH7', 'RTYZ6', 'RTYH7']) {
      const s = await statistic(symbol, DATE);
      const cleared = trades.filter((t) => t.symbol === symbol && t.trade_date === DATE).reduce((sum, t) => sum + t.size, 0);
      expect(s, symbol).toMatchObject({ final: true, cleared });
      expect(s!.oi).toBeGreaterThan(0);
    }
    const settled = new Map((await datasetFreshness(db)).map((d) => [d.dataset, d])).get('futures.settlements');
    expect(settled).toMatchObject({ newest_date: DATE, newest_timestamp: CLOSE });
  });

  it('moves volume to the next contract by the roll date and open interest after it', async () => {
    for (const root of ['ES', 'NQ', 'RTY']) {
      const front = await Promise.all(['2026-12-04', '2026-12-08', '2026-12-09', DATE].map((d) => statistic(`${root}Z6`, d)));
      const next = await Promise.all(['2026-12-04', '2026-12-08', '2026-12-09', DATE].map((d) => statistic(`${root}H7`, d)));
      // The Friday before the roll week: the front holds nearly all of both.
      expect(front[0]!.cleared!).toBeGreaterThan(5 * next[0]!.cleared!);
      expect(front[0]!.oi!).toBeGreaterThan(10 * next[0]!.oi!);
      // The roll date: the next contract trades more, the front still holds more open interest.
      expect(next[3]!.cleared!).toBeGreaterThan(front[3]!.cleared!);
      expect(front[3]!.oi!).toBeGreaterThan(next[3]!.oi!);
      const share = front.map((f, i) => next[i]!.oi! / (next[i]!.oi! + f!.oi!));
      for (let i = 1; i < share.length; i += 1) expect(share[i]!).toBeGreaterThan(share[i - 1]!);
      // Every final settlement of the week, before the date in progress, is stored as final.
      for (const f of front.slice(0, 3)) expect(f!.final).toBe(true);
    }
  });
});
