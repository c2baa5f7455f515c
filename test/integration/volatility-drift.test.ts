/**
 * Volatility drift on the simulated market loaded through ingest (history included), checked
 * against the store: the at-the-money volatility of a bucket, the 30-day figure and realized
 * volatility solved here by hand from the stored quote samples and bars with the pricing core, the
 * trading clock against the calendar, the session share against the daily bars, the in-progress
 * session, the overnight session and entitlements, errors, an archived session, and an export.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getExport, getVolatilityDrift } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { VolatilityDrift } from '../../generated/client/types.gen.js';
import { calendarDay, previousTradingDay } from '../../src/analytics/calendar.js';
import { impliedVolatility } from '../../src/analytics/implied-volatility.js';
import { riskFreeRate } from '../../src/analytics/rates.js';
import { settlementInstant } from '../../src/analytics/settlement.js';
import { recordMarketDataChange } from '../../src/db/market-data-changes.js';
import { enforceRetention } from '../../src/ingest/archive.js';
import { exportJob } from '../../src/jobs/export.js';
import { sessionLoad } from '../../src/jobs/session-load.js';
import { defaultQuery } from '../../src/services/book-answers.js';
import type { QueryOf, ServiceContext } from '../../src/services/types.js';
import { freshDrift, storeDrift } from '../../src/services/volatility-drift.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const MINUTE = 60_000;
const YEAR_MS = 365 * 86_400_000;
// Friday 2026-11-20 (EST, UTC−5): the regular session 09:30 to 16:15 ET for index options, the
// calendar's 09:30 to 16:00; the overnight one Thursday 20:15 ET to Friday 09:25 ET.
const OPEN = Date.parse('2026-11-20T14:30:00Z');
const CLOSE = Date.parse('2026-11-20T21:00:00Z');
const OPTIONS_CLOSE = Date.parse('2026-11-20T21:15:00Z');
const GTH_OPEN = Date.parse('2026-11-20T01:15:00Z');
const GTH_CLOSE = Date.parse('2026-11-20T14:25:00Z');

type Drift = VolatilityDrift;
type Point = Drift['points'][number];
interface Sample {
  strike: number;
  type: 'call' | 'put';
  bid: number | null;
  ask: number | null;
}

/**
 * The at-the-money volatility of one expiration's quotes as the contract states it, written out here
 * on the pricing core alone: parity forward F = K + e^{rT}(C − P) from the mids, the median over all
 * strikes, then twice the median of the 8 strikes nearest it in log-moneyness; Black-76 mid
 * volatilities of the out-of-the-money leg (put below F, call at or above); total variance σ²T
 * interpolated linearly in k = ln(K/F) to k = 0, flat beyond the outermost.
 */
function atmByHand(quotes: readonly Sample[], T: number, r: number): number | null {
  const mid = (q: Sample): number | null =>
    q.bid !== null && q.ask !== null && q.bid > 0 && q.ask > 0 && q.ask >= q.bid ? (q.bid + q.ask) / 2 : null;
  const legs = new Map<number, { call?: number; put?: number }>();
  for (const q of quotes) {
    const m = mid(q);
    if (m === null) continue;
    const leg = legs.get(q.strike) ?? {};
    leg[q.type] = m;
    legs.set(q.strike, leg);
  }
  const parity = [...legs]
    .filter(([, l]) => l.call !== undefined && l.put !== undefined)
    .map(([K, l]) => ({ K, F: K + Math.exp(r * T) * (l.call! - l.put!) }))
    .filter((p) => p.F > 0);
  if (parity.length === 0) return null;
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    const n = s.length;
    return n % 2 === 1 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
  };
  let F = median(parity.map((p) => p.F));
  for (let pass = 0; pass < 2; pass++) {
    const centre = F;
    F = median(
      [...parity]
        .sort((a, b) => Math.abs(Math.log(a.K / centre)) - Math.abs(Math.log(b.K / centre)))
        .slice(0, 8)
        .map((p) => p.F),
    );
  }
  const knots = quotes
    .filter((q) => q.type === (q.strike < F ? 'put' : 'call'))
    .flatMap((q) => {
      const m = mid(q);
      const s =
        m === null ? null : impliedVolatility({ type: q.type, price: m, spot: F, strike: q.strike, time: T, rate: r, dividendYield: r });
      return s === null ? [] : [{ k: Math.log(q.strike / F), w: s * s * T }];
    })
    .filter((p) => p.w > 0)
    .sort((a, b) => a.k - b.k);
  if (knots.length === 0) return null;
  const below = knots.filter((p) => p.k <= 0).at(-1);
  const above = knots.find((p) => p.k > 0);
  const w =
    below === undefined ? above!.w : above === undefined ? below.w : below.w + ((above.w - below.w) * (0 - below.k)) / (above.k - below.k);
  return Math.sqrt(w / T);
}

describe('GET /v1/options/volatility/drift', () => {
  let service: TestService;
  let pro: Client;
  let basic: Client;
  let now = MARKET_NOW;
  let historyDates: string[];
  /** The SPX family's expirations: per date the later-settling root. */
  let expirations: { root: string; date: string; settlement: number }[];
  const rate = riskFreeRate(DAY);

  const drift = async (query: Parameters<typeof getVolatilityDrift>[0]['query'], client = pro) =>
    await getVolatilityDrift({ client, query });
  const ok = async (query: Parameters<typeof getVolatilityDrift>[0]['query']): Promise<Drift> => {
    const r = await drift(query);
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    expect(r.data!.meta.source).toBe('opra');
    return r.data!.data;
  };

  /** Each contract's last sample in [from, to) of an expiration (all its strikes), from the store. */
  const bucketQuotes = async (root: string, date: string, from: number, to: number): Promise<Sample[]> => {
    const rows = await sql<{ strike: string; type: 'call' | 'put'; bid: number | null; ask: number | null }>`
      select distinct on (c.id) (c.strike_thousandths / 1000.0)::text as strike, c.contract_type as type, q.bid, q.ask
      from quote_samples q join contracts c on c.id = q.contract_id
      where q.trading_date = ${DAY} and c.root = ${root} and c.date_of_expiry = ${date}
        and q.minute >= ${from}::int8 and q.minute < ${to}::int8
      order by c.id, q.minute desc`.execute(service.database.admin);
    return rows.rows.map((r) => ({ ...r, strike: Number(r.strike) }));
  };
  const atmOf = async (e: { root: string; date: string; settlement: number }, from: number, to: number): Promise<number | null> =>
    atmByHand(await bucketQuotes(e.root, e.date, from, to), (e.settlement - to) / YEAR_MS, rate);
  const pointAt = (d: Drift, t: number): Point => {
    const p = d.points.find((x) => x.timestamp === t);
    expect(p, `a point at ${new Date(t).toISOString()}`).toBeDefined();
    return p!;
  };

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY], history: true },
      jobs: true,
      clock: () => now,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
    ({ historyDates } = service.market);
    const listed = await sql<{ root: string; date: string }>`
      select distinct root, date_of_expiry::text as date from contracts where root in ('SPX', 'SPXW') and date_of_expiry >= ${DAY}`.execute(
      service.database.admin,
    );
    const byDate = new Map<string, { root: string; date: string; settlement: number }>();
    for (const r of listed.rows) {
      const e = { ...r, settlement: settlementInstant(r.root, r.date) };
      if ((byDate.get(r.date)?.settlement ?? -Infinity) < e.settlement) byDate.set(r.date, e);
    }
    expirations = [...byDate.values()].sort((a, b) => a.settlement - b.settlement);
  });
  afterAll(async () => service.stop());

  it('tracks the nearest expiration through the latest regular session, a point a started bucket with a value, at 1m and 5m', async () => {
    const d = await ok({ underlying_symbol: 'SPX' });
    // Friday's SPX monthly settles at the open, SPXW's series of the date at 16:00: the date is tracked (SPXW).
    expect(d).toMatchObject({ trading_date: DAY, session: 'rth', interval: '1m', underlying_symbol: 'SPX', date_of_expiry: DAY });
    const times = d.points.map((p) => p.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times.every((t) => t >= OPEN && t < OPTIONS_CLOSE && (t - OPEN) % MINUTE === 0)).toBe(true);
    expect(d.points.length).toBeGreaterThan(350);
    const hasValue = (p: Point): boolean =>
      [p.implied_volatility, p.implied_volatility_30d, p.implied_volatility_trading_clock, p.adjusted_realized_volatility].some(
        (v) => v !== null,
      );
    expect(d.points.every(hasValue)).toBe(true);
    // The tracked series settles at 16:00: no calendar or trading-clock figure after.
    expect(
      d.points
        .filter((p) => p.timestamp + MINUTE > CLOSE)
        .every((p) => p.implied_volatility === null && p.implied_volatility_trading_clock === null),
    ).toBe(true);
    expect(d.points.filter((p) => p.implied_volatility !== null).length).toBeGreaterThan(300);
    // Five returns make the first realized figure: the bucket of 09:34 (bars 09:30 to 09:34 closed by 09:35).
    expect(d.points.filter((p) => p.adjusted_realized_volatility === null).map((p) => p.timestamp)).toEqual(
      [0, 1, 2, 3].map((m) => OPEN + m * MINUTE),
    );
    for (const p of d.points.filter((x) => x.implied_volatility !== null)) expect(p.implied_volatility).toBeGreaterThan(0.02);

    const five = await ok({ underlying_symbol: 'SPX', interval: '5m' });
    expect(five.interval).toBe('5m');
    expect(five.points.map((p) => p.timestamp)).toEqual(Array.from({ length: 81 }, (_, i) => OPEN + i * 5 * MINUTE));
  });

  it("solves a bucket's at-the-money volatility as the stored quotes give it by hand, at 1m and 5m, and its trading-clock twin as √(T/τ) of it", async () => {
    const spxw = expirations.find((e) => e.date === DAY)!;
    expect(spxw.root).toBe('SPXW');
    const one = await ok({ underlying_symbol: 'SPX', date: DAY });
    const five = await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m' });
    const s = one.realized_volatility_basis.regular_session_share!;
    // A 1m bucket between snapshots, a 5m bucket holding the 11:00 snapshot, and one of the afternoon.
    for (const [d, start, size] of [
      [one, OPEN + 97 * MINUTE, MINUTE],
      [five, OPEN + 90 * MINUTE, 5 * MINUTE],
      [five, OPEN + 300 * MINUTE, 5 * MINUTE],
    ] as const) {
      const end = start + size;
      const want = await atmOf(spxw, start, end);
      expect(want).not.toBeNull();
      const p = pointAt(d, start);
      expect(Math.abs(p.implied_volatility! - want!) / want!).toBeLessThan(1e-9);
      // τ: the rest of Friday's session on the trading clock, s × (16:00 − t)/(6.5 h) of a 252nd of a year.
      const T = (spxw.settlement - end) / YEAR_MS;
      const tau = (s * (CLOSE - end)) / (CLOSE - OPEN) / 252;
      expect(Math.abs(p.implied_volatility_trading_clock! - want! * Math.sqrt(T / tau)) / want!).toBeLessThan(1e-9);
    }
    // Buckets before settlement without a calendar figure (late on the series' last day) have none
    // by hand either. The index families' 0DTE series of the date (SPXW, NDXP, RUTW: PM-settled at
    // 16:00) are looked at together: which of them has such buckets depends on the simulated quotes
    // (in this market RUTW's last half hour; SPXW's quotes solve to the close).
    let empties = 0;
    for (const [symbol, root] of [
      ['SPX', 'SPXW'],
      ['NDX', 'NDXP'],
      ['RUT', 'RUTW'],
    ] as const) {
      const d = symbol === 'SPX' ? one : await ok({ underlying_symbol: symbol, date: DAY });
      expect(d.date_of_expiry).toBe(DAY);
      const series = { root, date: DAY, settlement: settlementInstant(root, DAY) };
      const empty = d.points.filter((p) => p.implied_volatility === null && p.timestamp + MINUTE < CLOSE);
      empties += empty.length;
      for (const p of empty.slice(0, 8)) expect(await atmOf(series, p.timestamp, p.timestamp + MINUTE)).toBeNull();
    }
    expect(empties).toBeGreaterThan(0);
  });

  it('weights the at-the-money volatilities of the two expirations bracketing 30 days as the VIX method does', async () => {
    const five = await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m' });
    const start = OPEN + 150 * MINUTE;
    const end = start + 5 * MINUTE;
    const thirty = 30 * 86_400_000;
    const near = expirations.filter((e) => e.settlement - end < thirty).at(-1)!;
    const next = expirations.find((e) => e.settlement - end >= thirty)!;
    expect(near.date < next.date).toBe(true);
    const s1 = (await atmOf(near, start, end))!;
    const s2 = (await atmOf(next, start, end))!;
    const [n1, n2, n30, n365] = [(near.settlement - end) / MINUTE, (next.settlement - end) / MINUTE, 43_200, 525_600];
    const want = Math.sqrt(
      (((n1 / n365) * s1 * s1 * (n2 - n30)) / (n2 - n1) + ((n2 / n365) * s2 * s2 * (n30 - n1)) / (n2 - n1)) * (n365 / n30),
    );
    const p = pointAt(five, start);
    expect(Math.abs(p.implied_volatility_30d! - want) / want).toBeLessThan(1e-9);
    expect(p.implied_volatility_30d!).toBeGreaterThanOrEqual(Math.min(s1, s2) - 1e-12);
    expect(p.implied_volatility_30d!).toBeLessThanOrEqual(Math.max(s1, s2) + 1e-12);
    // Tracking the next term itself serves its own at-the-money volatility in that bucket.
    const tracked = await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m', date_of_expiry: next.date });
    expect(tracked.date_of_expiry).toBe(next.date);
    expect(Math.abs(pointAt(tracked, start).implied_volatility! - s2) / s2).toBeLessThan(1e-9);
  });

  it('estimates the session share from the daily bars before the date and scales realized variance by it', async () => {
    const d = await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m' });
    // Daily open and close of each held session among the 31 before the date, from the one-minute bars.
    const first = historyDates[0]!;
    const rows = await sql<{ ts: string; open: number; close: number }>`
      select ts::text as ts, open, close from underlying_bars where symbol = 'SPX' and ts >= ${calendarDay(first).open_timestamp!}::int8 and ts < ${OPEN}::int8 order by ts`.execute(
      service.database.admin,
    );
    const daily: { open: number; close: number }[] = [];
    let date = DAY;
    const sessions: string[] = [];
    for (let i = 0; i < 31; i++) sessions.unshift((date = previousTradingDay(date)));
    for (const day of sessions) {
      const { open_timestamp: o, close_timestamp: c } = calendarDay(day);
      const inside = rows.rows.filter((r) => Number(r.ts) >= o! && Number(r.ts) < c!);
      if (inside.length > 0) daily.push({ open: inside[0]!.open, close: inside.at(-1)!.close });
    }
    let intraday = 0;
    let total = 0;
    for (let i = 1; i < daily.length; i++) {
      const g = Math.log(daily[i]!.open / daily[i - 1]!.close);
      const r = Math.log(daily[i]!.close / daily[i]!.open);
      intraday += r * r;
      total += g * g + r * r;
    }
    // The week before the date is not loaded: 27 history sessions are held, 26 days of returns.
    expect(d.realized_volatility_basis.days).toBe(daily.length - 1);
    expect(d.realized_volatility_basis.days).toBe(26);
    expect(d.realized_volatility_basis.default_used).toBe(false);
    const s = d.realized_volatility_basis.regular_session_share!;
    expect(Math.abs(s - intraday / total)).toBeLessThan(1e-12);

    // Realized variance of the one-minute returns from the open to the bucket's end, over s and the elapsed part of 09:30-16:00.
    const start = OPEN + 120 * MINUTE;
    const end = start + 5 * MINUTE;
    const bars = (
      await sql<{
        open: number;
        close: number;
      }>`select open, close from underlying_bars where symbol = 'SPX' and ts >= ${OPEN}::int8 and ts < ${end - MINUTE + 1}::int8 order by ts`.execute(
        service.database.admin,
      )
    ).rows;
    let rv = 0;
    let previous = bars[0]!.open;
    for (const b of bars) {
      rv += Math.log(b.close / previous) ** 2;
      previous = b.close;
    }
    const want = Math.sqrt((252 * rv) / (s * ((end - OPEN) / (CLOSE - OPEN))));
    const p = pointAt(d, start);
    expect(Math.abs(p.adjusted_realized_volatility! - want) / want).toBeLessThan(1e-12);
    expect(p.underlying_price).toBe(bars.at(-1)!.close);
  });

  it('serves a session in progress up to now: started buckets only, completed ones as the finished session has them', async () => {
    const full = await ok({ underlying_symbol: 'SPX', date: DAY });
    now = OPEN + 12 * MINUTE + 30_000;
    try {
      const d = await ok({ underlying_symbol: 'SPX' });
      expect(d.trading_date).toBe(DAY);
      const times = d.points.map((p) => p.timestamp);
      expect(times.at(-1)).toBeLessThanOrEqual(OPEN + 12 * MINUTE);
      expect(times.length).toBeGreaterThanOrEqual(12);
      for (const p of d.points.filter((x) => x.timestamp < OPEN + 12 * MINUTE)) expect(p).toEqual(pointAt(full, p.timestamp));
      // Each completed bucket is solved over every strike its quotes hold, as by hand, not only over
      // those near the underlying's range so far: the ninth (09:38) held a strike beyond that range
      // (the range up to 09:42 left out the 5785 of the 0DTE's nine sampled strikes, moving the
      // forward's median and the volatility from 0.2448709 to 0.2448773).
      const spxw = expirations.find((e) => e.date === DAY)!;
      for (const m of [0, 8, 11]) {
        const want = (await atmOf(spxw, OPEN + m * MINUTE, OPEN + (m + 1) * MINUTE))!;
        expect(Math.abs(pointAt(d, OPEN + m * MINUTE).implied_volatility! - want) / want).toBeLessThan(1e-9);
      }
      // Before the session opens there is nothing to value.
      now = OPEN - MINUTE;
      const early = await drift({ underlying_symbol: 'SPX', date: DAY });
      expect(early.response.status).toBe(422);
      expect(early.error?.error.code).toBe('no_data');
    } finally {
      now = MARKET_NOW;
    }
  });

  it('serves the overnight session of a root that has one, on the Pro plan; 422 for a root without, 403 without the entitlement', async () => {
    const d = await ok({ underlying_symbol: 'SPX', session: 'gth', date: DAY, interval: '5m' });
    expect(d).toMatchObject({ session: 'gth', trading_date: DAY, date_of_expiry: DAY });
    expect(d.points.length).toBeGreaterThan(100);
    expect(d.points.every((p) => p.timestamp >= GTH_OPEN && p.timestamp < GTH_CLOSE && (p.timestamp - GTH_OPEN) % (5 * MINUTE) === 0)).toBe(
      true,
    );
    expect(d.points.filter((p) => p.implied_volatility !== null).length).toBeGreaterThan(100);
    const spxw = expirations.find((e) => e.date === DAY)!;
    const start = GTH_OPEN + 300 * MINUTE;
    const want = (await atmOf(spxw, start, start + 5 * MINUTE))!;
    expect(Math.abs(pointAt(d, start).implied_volatility! - want) / want).toBeLessThan(1e-9);
    const aapl = await drift({ underlying_symbol: 'AAPL', session: 'gth', date: DAY });
    expect(aapl.response.status).toBe(422);
    expect(aapl.error?.error.code).toBe('no_data');
    expect((await drift({ underlying_symbol: 'SPX', session: 'gth', date: DAY }, basic)).response.status).toBe(403);
    expect((await drift({ underlying_symbol: 'AAPL', date: DAY }, basic)).response.status).toBe(200);
  });

  it('answers 400 for invalid parameters and 422 where no data exists', async () => {
    const bad = async (query: Record<string, unknown>): Promise<string[]> => {
      const r = await drift(query as Parameters<typeof getVolatilityDrift>[0]['query']);
      expect(r.response.status).toBe(400);
      return [...new Set(r.error!.error.details.map((x) => x.parameter))];
    };
    expect(await bad({ underlying_symbol: 'SPX', interval: '2m' })).toEqual(['interval']);
    expect(await bad({ underlying_symbol: 'SPX', session: 'all' })).toEqual(['session']);
    expect(await bad({ underlying_symbol: 'SPX', expirations: DAY })).toEqual(['expirations']);
    expect(await bad({ underlying_symbol: 'SPX', date_of_expiry: '2026-13-01' })).toEqual(['date_of_expiry']);
    expect(await bad({})).toEqual(['underlying_symbol']);
    const none = async (query: Parameters<typeof getVolatilityDrift>[0]['query']): Promise<string> => {
      const r = await drift(query);
      expect(r.response.status).toBe(422);
      return r.error!.error.code;
    };
    // A date with bars but no quotes held, an expiration not listed, one settled before the session, a weekend, an unknown root.
    expect(await none({ underlying_symbol: 'SPX', date: historyDates.at(-1)! })).toBe('no_data');
    expect(await none({ underlying_symbol: 'SPX', date: DAY, date_of_expiry: '2026-11-21' })).toBe('no_data');
    expect(await none({ underlying_symbol: 'SPX', date: DAY, date_of_expiry: '2026-11-19' })).toBe('no_data');
    expect(await none({ underlying_symbol: 'SPX', date: '2026-11-21' })).toBe('no_data');
    expect(await none({ underlying_symbol: 'ZZZZ', date: DAY })).toBe('no_data');
    // The calendar's first day: the store lists only later expirations, none of them quoted then.
    expect(await none({ underlying_symbol: 'SPX', date: '2000-01-03' })).toBe('no_data');
    expect(await none({ underlying_symbol: 'SPX', date: '2000-01-03', session: 'gth' })).toBe('no_data');
  });

  it('exports the drift object as the route serves it', async () => {
    const query = { underlying_symbol: 'SPY', date: DAY, interval: '5m' as const };
    const want = await ok(query);
    const created = await createExport({ client: pro, body: { path: '/v1/options/volatility/drift', query } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
    expect((await getExport({ client: pro, path: { id } })).data?.data.status).toBe('ready');
    const file = await downloadExport({ client: pro, path: { id } });
    expect((file.data as { data: Drift }).data).toEqual(want);
  });

  it('logs the latency of SPX at 1m on the simulated day (p50 of 15 requests)', async () => {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      const r = await drift({ underlying_symbol: 'SPX', date: DAY });
      times.push(performance.now() - t);
      expect(r.response.status).toBe(200);
    }
    times.sort((a, b) => a - b);
    console.log(`volatility drift SPX 1m: p50 ${times[7]!.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms, max ${times[14]!.toFixed(0)} ms`);
  });

  it('answers 503 data_pending for an archived session, loads it, then serves it as before', async () => {
    const before = await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m' });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drift-archive-'));
    try {
      // Monday 2026-11-30 evening: the five sessions kept are Nov 23 to 30; Nov 20 is archived.
      expect(
        await enforceRetention(service.database.admin, {
          archiveRoot: path.join(dataDir, 'archive'),
          now: Date.parse('2026-12-01T03:00:00Z'),
        }),
      ).toEqual([DAY]);
      const pending = await drift({ underlying_symbol: 'SPX', date: DAY, interval: '5m' });
      expect(pending.response.status).toBe(503);
      expect(pending.error?.error.code).toBe('data_pending');
      expect(pending.response.headers.get('retry-after')).toBe('5');
      expect((await settledJob(service.database.admin, sessionLoad.name, DAY, { timeoutMs: 60_000 })).state).toBe('completed');
      expect(await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m' })).toEqual(before);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('extends the stored drift of an earlier minute by the buckets after it: the answer computed afresh, kept points read from the store', async () => {
    const operation = service.deps.apiContract.byId.get('getVolatilityDrift')!;
    const ctx: ServiceContext = {
      deps: service.deps,
      operation,
      account: null,
      requestId: 'test',
      now,
      link: { path: operation.path, search: '' },
    };
    const admin = service.database.admin;
    const earlier = OPEN + 20 * MINUTE + 30_000;
    const later = OPEN + 47 * MINUTE + 10_000;
    try {
      for (const interval of ['1m', '5m'] as const) {
        const query = { ...defaultQuery(ctx, 'getVolatilityDrift', 'SPX', 'rth'), interval } as QueryOf<'getVolatilityDrift'>;
        // Stored as the valuer stores a minute's drift; a later instant's answer extends it.
        await storeDrift(ctx, { ...query, at: earlier });
        const stored = await sql<{ key: string; body: string }>`
          select key, body from drift_answers where instant = ${OPEN + 20 * MINUTE}::int8 and strpos(query_key, ${`"interval":"${interval}"`}) > 0`.execute(
          admin,
        );
        expect(stored.rows).toHaveLength(1);
        const { key, body } = stored.rows[0]!;
        service.deps.memos.clear();
        const extended = await ok({ ...query, at: later });
        expect(extended).toStrictEqual(await freshDrift(ctx, { ...query, at: later }));
        expect(extended.points.length).toBeGreaterThan((JSON.parse(body) as Drift).points.length);
        // The buckets that had ended by the stored instant come from the stored row: a figure changed there comes back.
        const marked = JSON.parse(body) as Drift;
        marked.points[0]!.implied_volatility = 0.987654;
        await sql`update drift_answers set body = ${JSON.stringify(marked)} where key = ${key}`.execute(admin);
        service.deps.memos.clear();
        expect((await ok({ ...query, at: later + MINUTE })).points[0]!.implied_volatility).toBe(0.987654);
        // A change of the date reaching before the stored instant makes it stale: the next answer is computed whole.
        await recordMarketDataChange(admin, [DAY]);
        service.deps.memos.clear();
        const whole = await ok({ ...query, at: later + 2 * MINUTE });
        expect(whole.points[0]!.implied_volatility).not.toBe(0.987654);
        expect(whole).toStrictEqual(await freshDrift(ctx, { ...query, at: later + 2 * MINUTE }));
      }
    } finally {
      await sql`delete from drift_answers`.execute(admin);
      service.deps.memos.clear();
    }
  });

  it('uses the default share, and says so, with fewer than ten days of history', async () => {
    // Keep only the last five history sessions' bars (the last test: it changes the store).
    const keepFrom = calendarDay(historyDates.at(-5)!).open_timestamp! - 12 * 3_600_000;
    const kept = await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m' });
    expect(kept.realized_volatility_basis.default_used).toBe(false);
    // A write by hand, as an operator's: it records the dates it changed in the log of market data
    // changes, as every writer of the store does (db/market-data-changes.ts), so the kept drift is not served.
    await sql`delete from underlying_bars where symbol = 'SPX' and ts < ${keepFrom}::int8`.execute(service.database.admin);
    await recordMarketDataChange(service.database.admin, historyDates.slice(0, -5));
    const d = await ok({ underlying_symbol: 'SPX', date: DAY, interval: '5m' });
    expect(d.realized_volatility_basis).toEqual({ days: 4, default_used: true, regular_session_share: 0.75 });
    const p = d.points.find((x) => x.implied_volatility !== null)!;
    expect(p.implied_volatility_trading_clock).not.toBeNull();
  });
});
