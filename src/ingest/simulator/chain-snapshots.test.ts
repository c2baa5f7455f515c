/**
 * The quotes the volatility surface reads, checked in the simulator's files against oracles built
 * from the contracts file and the calendar alone: chain snapshots of every listed contract at the
 * start, every 15 minutes and the close of each session; one-minute samples at the money of the
 * two expirations around 30 days; 30 sessions of underlying history before the week.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDay, completedSessions } from '../../analytics/calendar.js';
import { parseOccSymbol } from '../../analytics/occ.js';
import { dividendYield, riskFreeRate } from '../../analytics/rates.js';
import { optionRoot } from '../../analytics/roots.js';
import { marketSessions, optionsOvernightWindow } from '../../analytics/sessions.js';
import { MS_PER_YEAR, settlementInstant, settlementStyle } from '../../analytics/settlement.js';
import { HISTORY_SESSIONS, simulateMarket, SNAPSHOT_EVERY_MINUTES, type SimulationSummary } from './index.js';
import { UNDERLYINGS } from './model.js';

const NOW = Date.parse('2026-11-22T12:00:00Z'); // Sunday: the week of 2026-11-16 is complete
const WEEK = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'];
/** Wednesday, and Friday: the November monthly expiration (SPX AM-settled that morning). */
const CHECKED = ['2026-11-18', '2026-11-20'];
const SMALL = { rthEvents: 2500, gthEvents: 60, curbEvents: 40, goldenSweeps: 2 };
const MINUTE = 60_000;
const DAY_MS = 86_400_000;

function lines(file: string): string[][] {
  return gunzipSync(fs.readFileSync(file))
    .toString('utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => l.split(','));
}

const rootOf = (symbol: string): string => symbol.slice(0, 6).trim();

/** The contract's last trading instant: the close before an AM settlement, else the close of its expiry (16:00 ET). */
function lastTradeOf(symbol: string): number {
  const c = parseOccSymbol(symbol);
  if (settlementStyle(c.root) === 'am') {
    // The regular close of the trading day before the expiry: 16:15 ET for index options.
    const before = completedSessions(settlementInstant(c.root, c.dateOfExpiry), 1)[0]!;
    return marketSessions(before, ['options']).find((s) => s.session === 'regular')!.end_time;
  }
  return Math.min(settlementInstant(c.root, c.dateOfExpiry), calendarDay(c.dateOfExpiry).close_timestamp!);
}

/** Per session of a trading date, the roots quoted and the minutes a root's quoting ends. */
function sessionsOf(date: string): { kind: string; start: number; ends: (root: string) => number; roots: string[] }[] {
  const all = ['SPXW', 'SPX', 'SPY', 'QQQ', 'IWM', 'AAPL', 'TSLA', 'NVDA', 'AMZN'];
  const out = [];
  for (const s of marketSessions(date, ['options'])) {
    if (s.session === 'regular') {
      const equityClose = calendarDay(date).close_timestamp!;
      out.push({
        kind: 'rth',
        start: s.start_time,
        roots: all,
        ends: (r: string) => (optionRoot(r)!.kind === 'equity' ? equityClose : s.end_time),
      });
    } else if (s.session === 'overnight') {
      out.push({ kind: 'gth', start: s.start_time, roots: all.filter((r) => optionRoot(r)!.overnight), ends: () => s.end_time });
    } else if (s.session === 'curb') {
      out.push({ kind: 'curb', start: s.start_time, roots: all.filter((r) => optionRoot(r)!.curb), ends: () => s.end_time });
    }
  }
  return out;
}

describe('chain snapshots, 30-day samples and history in the simulated files', () => {
  let dir: string;
  let summary: SimulationSummary;
  let listed: string[];
  const lastTrade = new Map<string, number>();
  /** Per checked date: minute → symbols quoted that minute. */
  const quoted = new Map<string, Map<number, Set<string>>>();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simulator-snapshots-'));
    summary = await simulateMarket({ outDir: dir, seed: 21, scale: 'default', now: NOW, snapshotDates: CHECKED }, SMALL);
    listed = lines(summary.files.contracts![0]!).map((f) => f[0]!);
    for (const s of listed) lastTrade.set(s, lastTradeOf(s));
    for (const date of CHECKED) {
      const byMinute = new Map<number, Set<string>>();
      const bad: string[] = [];
      for (const [symbol, ts] of lines(summary.files.quotes!.find((f) => f.includes(date))!)) {
        const t = Number(ts);
        let set = byMinute.get(t);
        if (set === undefined) byMinute.set(t, (set = new Set()));
        // Quotes at minute starts, one per contract and minute.
        if (t % MINUTE !== 0 || set.has(symbol!)) bad.push(`${symbol} ${ts}`);
        set.add(symbol!);
      }
      expect(bad.slice(0, 3)).toEqual([]);
      quoted.set(date, byMinute);
    }
  }, 180_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('quotes every listed contract of each root at the start, every 15 minutes and the close of each session', () => {
    for (const date of CHECKED) {
      const byMinute = quoted.get(date)!;
      for (const session of sessionsOf(date)) {
        for (const root of session.roots) {
          const end = session.ends(root);
          const minutes: number[] = [];
          for (let t = session.start; t < end; t += SNAPSHOT_EVERY_MINUTES * MINUTE) minutes.push(t);
          if (minutes.at(-1) !== end - MINUTE) minutes.push(end - MINUTE);
          const ofRoot = listed.filter((s) => rootOf(s) === root && parseOccSymbol(s).dateOfExpiry >= date);
          for (const t of minutes) {
            const want = new Set(ofRoot.filter((s) => lastTrade.get(s)! > t));
            const have = byMinute.get(t) ?? new Set<string>();
            const missing = [...want].filter((s) => !have.has(s));
            expect(missing.slice(0, 3), `${date} ${session.kind} ${root} ${new Date(t).toISOString()}`).toEqual([]);
            // Nothing expired or not yet listed is quoted.
            const extra = [...have].filter((s) => rootOf(s) === root && !want.has(s));
            expect(extra.slice(0, 3), `${date} ${session.kind} ${root} ${new Date(t).toISOString()}`).toEqual([]);
            expect(want.size).toBeGreaterThan(root === 'SPXW' ? 1500 : 150);
          }
        }
      }
    }
  });

  it('quotes the whole chain only at snapshot minutes: other minutes hold the one-minute samples', () => {
    const byMinute = quoted.get('2026-11-18')!;
    const regular = sessionsOf('2026-11-18').find((s) => s.kind === 'rth')!;
    const sizes = [0, 7, 14, 15, 16, 404].map((m) => byMinute.get(regular.start + m * MINUTE)!.size);
    expect(sizes[0]).toBeGreaterThan(10 * sizes[1]!);
    expect(sizes[3]).toBeGreaterThan(10 * sizes[2]!);
    expect(sizes[5]).toBeGreaterThan(10 * sizes[4]!);
    expect(sizes[1]).toBeGreaterThan(100);
  });

  it('samples the at-the-money strikes of the two expirations around 30 days every minute (SPX family, SPY, QQQ, IWM)', () => {
    const opens = new Map<string, number>();
    for (const f of summary.files.underlying_bars!.filter((x) => CHECKED.some((d) => x.includes(d)))) {
      for (const [symbol, ts, open] of lines(f)) opens.set(`${symbol}|${ts}`, Number(open));
    }
    // Expirations by root and date, with their strikes ascending and their last trading instant.
    const expirations = new Map<string, { root: string; expiry: string; settle: number; lastTrade: number; strikes: number[] }>();
    const symbolOf = new Map<string, string>();
    for (const s of listed) {
      const c = parseOccSymbol(s);
      const key = `${c.root}|${c.dateOfExpiry}`;
      let e = expirations.get(key);
      if (e === undefined)
        expirations.set(
          key,
          (e = {
            root: c.root,
            expiry: c.dateOfExpiry,
            settle: settlementInstant(c.root, c.dateOfExpiry),
            lastTrade: lastTrade.get(s)!,
            strikes: [],
          }),
        );
      if (c.type === 'call') e.strikes.push(c.strike);
      symbolOf.set(`${key}|${c.strike}|${c.type}`, s);
    }
    for (const e of expirations.values()) e.strikes.sort((a, b) => a - b);
    const families: Record<string, string[]> = { SPX: ['SPX', 'SPXW'], SPY: ['SPY'], QQQ: ['QQQ'], IWM: ['IWM'] };
    for (const date of CHECKED) {
      const byMinute = quoted.get(date)!;
      const rate = riskFreeRate(date);
      const regular = sessionsOf(date).find((s) => s.kind === 'rth')!;
      let checked = 0;
      for (let t = regular.start; t < regular.ends('SPY'); t += MINUTE) {
        for (const [underlying, roots] of Object.entries(families)) {
          const live = [...expirations.values()].filter((e) => roots.includes(e.root) && e.lastTrade > t);
          const near = live.filter((e) => e.settle - t < 30 * DAY_MS).sort((a, b) => b.settle - a.settle)[0]!;
          const next = live.filter((e) => e.settle - t >= 30 * DAY_MS).sort((a, b) => a.settle - b.settle)[0]!;
          // The bar's open is the price the sampled strikes of the minute are chosen at. An index has
          // no bar after its close (16:00 ET), while its options trade to 16:15: those minutes are
          // sampled on the simulator's path, which the files do not show.
          const spot = opens.get(`${underlying}|${t}`);
          if (spot === undefined && underlying === 'SPX' && t >= regular.ends('SPX') - 15 * MINUTE) continue;
          if (spot === undefined) throw new Error(`${date} ${underlying}: no bar at ${new Date(t).toISOString()}`);
          for (const e of [near, next]) {
            const forward = spot * Math.exp((rate - dividendYield(underlying)) * ((e.settle - t) / MS_PER_YEAR));
            const below = e.strikes.filter((k) => k <= forward).at(-1)!;
            const above = e.strikes.find((k) => k >= forward)!;
            for (const strike of [below, above]) {
              for (const type of ['call', 'put']) {
                const symbol = symbolOf.get(`${e.root}|${e.expiry}|${strike}|${type}`)!;
                expect(byMinute.get(t)?.has(symbol), `${date} ${new Date(t).toISOString()} ${symbol} (forward ${forward.toFixed(2)})`).toBe(
                  true,
                );
                checked += 1;
              }
            }
          }
        }
      }
      // Every regular minute: 4 families × 2 expirations × 2 strikes × 2 rights, but SPX's last 15.
      expect(checked).toBe((405 * 4 - 15) * 2 * 2 * 2);
    }
  });

  it('writes 30 sessions of one-minute underlying bars before the week, joined to its starting levels', () => {
    expect(summary.historyDates).toEqual(completedSessions(Date.parse('2026-11-16T12:00:00Z'), HISTORY_SESSIONS));
    expect(summary.historyDates).toHaveLength(30);
    expect(summary.files.underlying_bars!.map((f) => /(\d{4}-\d{2}-\d{2})\.csv\.gz$/.exec(f)![1])).toEqual([
      ...summary.historyDates,
      ...WEEK,
    ]);
    const lastClose = new Map<string, number>();
    for (const date of summary.historyDates) {
      const rows = lines(summary.files.underlying_bars!.find((f) => f.endsWith(`${date}.csv.gz`))!);
      const day = calendarDay(date);
      const equityMinutes = (day.close_timestamp! - day.open_timestamp!) / MINUTE;
      const gth = optionsOvernightWindow(date)!;
      for (const u of UNDERLYINGS) {
        const own = rows.filter((r) => r[0] === u.symbol);
        const regular = own.filter((r) => Number(r[1]) >= day.open_timestamp! && Number(r[1]) < day.close_timestamp!);
        expect(regular.length, `${date} ${u.symbol}`).toBe(equityMinutes);
        // None in the overnight session: an index has no value outside its calculation hours, the
        // others trade from the open.
        expect(
          own.some((r) => Number(r[1]) < gth.end_time),
          `${date} ${u.symbol}`,
        ).toBe(false);
        for (const r of own) {
          const [o, h, l, c] = r.slice(2, 6).map(Number) as [number, number, number, number];
          expect(h >= Math.max(o, c) && l <= Math.min(o, c) && c > 0).toBe(true);
        }
        lastClose.set(u.symbol, Number(own.at(-1)![5]));
      }
    }
    // The history ends where the week starts (the paths end at the starting levels after the curb):
    // each last bar is the regular session's (an index's has none after its close, 16:00 ET), before
    // the curb's moves.
    for (const u of UNDERLYINGS) expect(Math.abs(lastClose.get(u.symbol)! / u.start - 1), u.symbol).toBeLessThan(0.02);
  });

  it('moves the history like the week: daily close-to-close volatility near the model level', () => {
    const closes: number[] = [];
    for (const date of summary.historyDates) {
      const rows = lines(summary.files.underlying_bars!.find((f) => f.endsWith(`${date}.csv.gz`))!);
      const close = calendarDay(date).close_timestamp!;
      closes.push(Number(rows.find((r) => r[0] === 'SPY' && Number(r[1]) === close - MINUTE)![5]));
    }
    const returns = closes.slice(1).map((c, i) => Math.log(c / closes[i]!));
    const volatility = Math.sqrt((returns.reduce((a, r) => a + r * r, 0) / returns.length) * 252);
    // SPY follows SPX: long-run volatility 17%; 29 daily returns give a wide but bounded estimate.
    expect(volatility).toBeGreaterThan(0.05);
    expect(volatility).toBeLessThan(0.45);
  });

  it('writes the same files when the snapshots of another date are left out, less those snapshots', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'simulator-snapshots-one-'));
    try {
      const one = await simulateMarket({ outDir: other, seed: 21, scale: 'default', now: NOW, snapshotDates: ['2026-11-18'] }, SMALL);
      for (const kind of ['contracts', 'underlying_bars', 'open_interest', 'prints'] as const) {
        summary.files[kind]!.forEach((f, i) => expect(fs.readFileSync(one.files[kind]![i]!).equals(fs.readFileSync(f)), f).toBe(true));
      }
      const name = (date: string) => (list: string[]) => list.find((f) => f.includes(date))!;
      expect(
        fs.readFileSync(name('2026-11-18')(one.files.quotes!)).equals(fs.readFileSync(name('2026-11-18')(summary.files.quotes!))),
      ).toBe(true);
      // Friday's file without its snapshots: exactly the lines of the one-minute samples.
      const without = lines(name('2026-11-20')(one.files.quotes!)).map((l) => l.join(','));
      const full = new Set(lines(name('2026-11-20')(summary.files.quotes!)).map((l) => l.join(',')));
      expect(without.every((l) => full.has(l))).toBe(true);
      // The snapshots are most of a day's lines: about 2.95 times the one-minute samples (above 3
      // before the NDX and RUT families, whose samples at the money around 30 days weigh more).
      expect(full.size).toBeGreaterThan(2.5 * without.length);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  }, 180_000);
});
