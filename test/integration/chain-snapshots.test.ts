/**
 * The simulated market's chain snapshots and underlying history, loaded through the ordinary
 * loaders (loadFilesInOrder), as the store holds them: quote samples per root per snapshot minute
 * against the contracts the store lists and the calendar, daily bars of the 30 sessions before the
 * week from their one-minute bars; and a vendor's full quote file of the same quotes, with updates
 * the minute's last one supersedes, stored as the same rows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDay, previousTradingDay } from '../../src/analytics/calendar.js';
import { marketSessions } from '../../src/analytics/sessions.js';
import { sessionBars } from '../../src/db/underlying-bars.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { SNAPSHOT_EVERY_MINUTES } from '../../src/ingest/simulator/index.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
const MINUTE = 60_000;

interface Listed {
  root: string;
  am: boolean;
  expiry: string;
  n: number;
}

describe('chain snapshots and history in the seeded store', () => {
  let service: TestService;
  let historyDates: string[];
  let listed: Listed[];
  /** root|minute → samples stored. */
  const stored = new Map<string, number>();

  beforeAll(async () => {
    service = await startTestService({ market: { dates: [DAY], history: true } });
    ({ historyDates } = service.market);
    const db = service.database.admin;
    const counts = await sql<{ root: string; minute: string; n: number }>`
      select c.root, q.minute::text as minute, count(*)::int as n from quote_samples q join contracts c on c.id = q.contract_id
      where q.trading_date = ${DAY} group by 1, 2`.execute(db);
    for (const r of counts.rows) stored.set(`${r.root}|${r.minute}`, r.n);
    const contracts = await sql<{ root: string; am: boolean; expiry: string; n: number }>`
      select c.root, o.am_settled as am, c.date_of_expiry::text as expiry, count(*)::int as n from contracts c join option_roots o on o.root = c.root
      where c.date_of_expiry >= ${DAY} group by 1, 2, 3`.execute(db);
    listed = contracts.rows;
  });
  afterAll(async () => service.stop());

  /**
   * Contracts of a root trading at t on DAY: those expiring later, and the PM-settled ones expiring
   * on DAY until its 16:00 close (an AM-settled series expiring on DAY last traded the day before).
   */
  const liveAt = (root: string, t: number): number =>
    listed
      .filter((l) => l.root === root && (l.expiry > DAY || (!l.am && t < calendarDay(DAY).close_timestamp!)))
      .reduce((a, l) => a + l.n, 0);

  it('holds a sample of every listed contract of each root at each snapshot minute of each session', () => {
    const rootsOf = (session: string): string[] =>
      session === 'regular'
        ? ['SPXW', 'SPX', 'NDXP', 'NDX', 'RUTW', 'RUT', 'SPY', 'QQQ', 'IWM', 'AAPL', 'TSLA', 'NVDA', 'AMZN']
        : ['SPXW', 'SPX'];
    const table: string[] = [];
    for (const s of marketSessions(DAY, ['options'])) {
      if (!['overnight', 'regular', 'curb'].includes(s.session)) continue;
      for (const root of rootsOf(s.session)) {
        const end =
          s.session === 'regular' && ['AAPL', 'TSLA', 'NVDA', 'AMZN'].includes(root) ? calendarDay(DAY).close_timestamp! : s.end_time;
        const minutes: number[] = [];
        for (let t = s.start_time; t < end; t += SNAPSHOT_EVERY_MINUTES * MINUTE) minutes.push(t);
        if (minutes.at(-1) !== end - MINUTE) minutes.push(end - MINUTE);
        for (const t of minutes) {
          const want = liveAt(root, t);
          expect(want, `${root} ${s.session}`).toBeGreaterThan(100);
          expect(stored.get(`${root}|${t}`), `${root} ${s.session} ${new Date(t).toISOString()}`).toBe(want);
        }
        table.push(`${s.session} ${root}: ${minutes.length} snapshots of ${liveAt(root, minutes[0]!)} contracts`);
      }
    }
    // 54 overnight, 28 regular (27 for equity options: their close is 15:59) and 4 curb snapshots.
    expect(table).toContain(`overnight SPXW: 54 snapshots of ${liveAt('SPXW', marketSessions(DAY, ['options'])[0]!.start_time)} contracts`);
    expect(table.filter((l) => l.startsWith('regular') && l.includes(': 28 snapshots'))).toHaveLength(9);
    expect(table.filter((l) => l.startsWith('regular') && l.includes(': 27 snapshots'))).toHaveLength(4);
  });

  it('holds 30 sessions of one-minute bars before the week, as regular-session daily bars', async () => {
    const dates = [...historyDates, DAY];
    expect(historyDates).toHaveLength(30);
    expect(historyDates.at(-1)).toBe(previousTradingDay('2026-11-16'));
    for (const symbol of ['SPX', 'NDX', 'RUT', 'SPY', 'QQQ', 'IWM', 'AAPL']) {
      const windows = dates.map((date) => ({ date, start: calendarDay(date).open_timestamp!, end: calendarDay(date).close_timestamp! }));
      const bars = await sessionBars(service.database.admin, symbol, windows);
      expect(bars.map((b) => b.date)).toEqual(dates);
      for (const b of bars) {
        const day = calendarDay(b.date);
        expect(b.minutes).toBe((day.close_timestamp! - day.open_timestamp!) / MINUTE);
        expect(b.firstTs).toBe(day.open_timestamp);
        expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
        expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
        // An index has no volume (the simulator writes 0); ETFs and stocks trade shares.
        if (['SPX', 'NDX', 'RUT'].includes(symbol)) expect(b.volume).toBe(0);
        else expect(b.volume).toBeGreaterThan(0);
      }
    }
    // No SPX bar before the first date's open: an index has no value outside its calculation hours
    // (the overnight share of the day's variance comes from the close-to-open moves of the daily bars).
    const gth = await sql<{
      n: number;
    }>`select count(*)::int as n from underlying_bars where symbol = 'SPX' and ts < ${calendarDay(historyDates[0]!).open_timestamp!}::int8`.execute(
      service.database.admin,
    );
    expect(gth.rows[0]!.n).toBe(0);
  });

  describe("a vendor's full quote file of the same quotes", () => {
    let second: TestService;
    let dir: string;

    beforeAll(async () => {
      second = await startTestService();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vendor-quotes-'));
    });
    afterAll(async () => {
      await second.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const samplesOf = async (s: TestService, root: string) =>
      (
        await sql<{
          symbol: string;
          minute: string;
          bid: number | null;
          ask: number | null;
          bid_size: number | null;
          ask_size: number | null;
          quote_ts: string;
        }>`
          select c.option_symbol as symbol, q.minute::text as minute, q.bid, q.ask, q.bid_size, q.ask_size, q.quote_ts::text as quote_ts
          from quote_samples q join contracts c on c.id = q.contract_id where q.trading_date = ${DAY} and c.root = ${root}
          order by 1, 2`.execute(s.database.admin)
      ).rows;

    it('stores a Massive quotes file, every update of a minute before the last superseded, as the simulated file stored it', async () => {
      const want = await samplesOf(service, 'SPY');
      expect(want.length).toBeGreaterThan(50_000);
      // Each sample as Massive writes a quote: nanoseconds, 0 for an absent side, O:-prefixed ticker;
      // a first update a cent off, then the sample itself at the same instant (the later line wins).
      const ticker = (symbol: string): string => `O:${symbol.replace(/ /g, '')}`;
      const out = ['ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,sequence_number,sip_timestamp'];
      let sequence = 0;
      for (const r of want) {
        const ns = `${r.quote_ts}000000`;
        out.push(
          `${ticker(r.symbol)},301,${(r.ask ?? 0) + 0.01},${r.ask_size ?? 0},301,${r.bid ?? 0},${r.bid_size ?? 0},${(sequence += 1)},${ns}`,
        );
        out.push(`${ticker(r.symbol)},301,${r.ask ?? 0},${r.ask_size ?? 0},301,${r.bid ?? 0},${r.bid_size ?? 0},${(sequence += 1)},${ns}`);
      }
      const file = path.join(dir, 'massive-quotes.csv');
      fs.writeFileSync(file, out.join('\n') + '\n');
      const result = await loadMarketFile(second.database.admin, 'massive-quotes', file);
      expect(result).toMatchObject({ read: 2 * want.length, loaded: want.length, superseded: want.length, duplicates: 0, rejected: [] });
      const have = await samplesOf(second, 'SPY');
      // Massive writes 0 for an absent side (stored as no bid) and its size 0 (stored as 0).
      expect(have).toEqual(want.map((r) => (r.bid === null ? { ...r, bid_size: 0 } : r)));
    });
  });
});
