/**
 * The cash index routes on a simulated market loaded through ingest (the week's Friday and the 30
 * sessions of history before the week): bars at 5m, 1h and 1d recomputed here from the stored
 * one-minute rows read in the test (the calculation window and the New York clock written out with
 * Intl, not with the service's calendar), cursor walks equal to one big page, the quote board's
 * value, session range and change against the previous close read from the store, the list against
 * the store's first and last minutes, entitlements and parameters.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExport,
  downloadExport,
  getIndexSnapshot,
  listCatalog,
  listIndexBars,
  listIndexVolatilityBars,
  listIndices,
} from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { IndexBar } from '../../generated/client/types.gen.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const MINUTE = 60_000;

interface Minute {
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

const clock = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
/** The New York date and HH:MM of an instant. */
function newYork(ts: number): { date: string; time: string } {
  const p = Object.fromEntries(clock.formatToParts(new Date(ts)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}
/** Whether a minute lies in the calculation window 09:30 to 16:00 ET (no early close falls in the loaded dates). */
const calculated = (ts: number): boolean => {
  const { time } = newYork(ts);
  return time >= '09:30' && time < '16:00';
};

/** Bars of minutes by a bucket key, made here: first open, max high, min low, last close. */
function barsOf(minutes: readonly Minute[], bucketOf: (m: Minute) => number): Omit<IndexBar, 'volume'>[] {
  const groups = new Map<number, Minute[]>();
  for (const m of [...minutes].sort((a, b) => a.ts - b.ts)) {
    const key = bucketOf(m);
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([timestamp, ms]) => ({
      timestamp,
      trading_date: newYork(ms[0]!.ts).date,
      open: ms[0]!.open,
      high: Math.max(...ms.map((m) => m.high)),
      low: Math.min(...ms.map((m) => m.low)),
      close: ms.at(-1)!.close,
      minutes: ms.length,
      close_timestamp: ms.at(-1)!.ts,
    }));
}

describe('index routes', () => {
  let service: TestService;
  let pro: Client;
  let optionsOnly: Client;
  let historyDates: string[];
  let spx: Minute[];
  let now = MARKET_NOW;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY], history: true },
      jobs: true,
      clock: () => now,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: optionsOnly } = await service.newAccount({ plan: 'pro', datasets: ['options'] }));
    ({ historyDates } = service.market);
    spx = await stored('SPX');
  });
  afterAll(async () => service.stop());

  const stored = async (symbol: string): Promise<Minute[]> => {
    const r = await sql<Minute>`select ts, open, high, low, close from underlying_bars where symbol = ${symbol} order by ts`.execute(
      service.database.admin,
    );
    return r.rows.map((m) => ({ ...m, ts: Number(m.ts) }));
  };
  /** Every page of a bars query, following the cursors. */
  const walk = async (query: Record<string, unknown>): Promise<{ bars: IndexBar[]; pages: number }> => {
    const bars: IndexBar[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r: Awaited<ReturnType<typeof listIndexBars>> = await listIndexBars({
        client: pro,
        query: { ...query, ...(cursor === null ? {} : { cursor_id: cursor }) } as never,
      });
      expect(r.response.status, JSON.stringify('error' in r ? r.error : null)).toBe(200);
      bars.push(...r.data!.data);
      cursor = r.data!.pagination.next_cursor_id;
      pages += 1;
    } while (cursor !== null);
    return { bars, pages };
  };
  const strip = (bars: readonly IndexBar[]) => bars.map(({ volume, ...rest }) => (expect(volume).toBeNull(), rest));
  const details = (error: unknown) =>
    (error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort();

  it('lists SPX, NDX and RUT with their option roots, hours and the stored first and last minutes', async () => {
    const r = await listIndices({ client: pro });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    const data = r.data!.data;
    expect(data.map((i) => i.symbol)).toEqual(['SPX', 'NDX', 'RUT']);
    expect(data.map((i) => i.option_roots)).toEqual([
      ['SPX', 'SPXW'],
      ['NDX', 'NDXP'],
      ['RUT', 'RUTW'],
    ]);
    for (const index of data) {
      const minutes = await stored(index.symbol);
      expect([index.first_timestamp, index.last_timestamp], index.symbol).toEqual(
        minutes.length === 0 ? [null, null] : [minutes[0]!.ts, minutes.at(-1)!.ts],
      );
      // The test's market loads files not recorded as a simulator run's (support/simulated-market.ts), so the ledger says files.
      expect(index.source, index.symbol).toBe(minutes.length === 0 ? 'none' : 'files');
      expect(index).toMatchObject({
        computed_here: false,
        currency: 'USD',
        calculation_hours: { time_zone: 'America/New_York', open: '09:30', close: '16:00', early_close: '13:00' },
        computed_volatility: {
          path: '/v1/indices/volatility',
          bars_path: '/v1/indices/volatility/bars',
          underlying_symbol: index.symbol,
          computed_here: true,
          published_index: false,
        },
      });
      expect(index.computed_volatility.label).toMatch(/not Cboe's published VIX/);
    }
    // Friday 18:00 ET: the day's window is over.
    expect(data[0]!.session).toEqual({
      trading_date: DAY,
      start_time: Date.parse('2026-11-20T14:30:00Z'),
      end_time: Date.parse('2026-11-20T21:00:00Z'),
      status: 'regular',
      calculating: false,
    });
    now = Date.parse('2026-11-20T15:00:00Z');
    try {
      expect((await listIndices({ client: pro })).data!.data[0]!.session.calculating).toBe(true);
    } finally {
      now = MARKET_NOW;
    }
  });

  it('serves 5m bars of a date recomputed from the stored minutes, and 1m paged to the end equal to one page', async () => {
    const minutes = spx.filter((m) => newYork(m.ts).date === DAY && calculated(m.ts));
    expect(minutes.length).toBe(390);
    const five = await walk({ symbol: 'spx', date: DAY, interval: '5m' });
    expect(five.pages).toBe(1);
    expect(strip(five.bars)).toEqual(barsOf(minutes, (m) => m.ts - (m.ts % 300_000)));
    expect(five.bars).toHaveLength(78);

    const whole = await walk({ symbol: 'SPX', date: DAY, limit: 1000 });
    expect(whole.pages).toBe(1);
    expect(strip(whole.bars)).toEqual(barsOf(minutes, (m) => m.ts));
    const paged = await walk({ symbol: 'SPX', date: DAY, limit: 37 });
    expect(paged.pages).toBe(Math.ceil(390 / 37));
    expect(paged.bars).toEqual(whole.bars);
  });

  it('serves 1h bars on the New York clock over a range crossing the daylight-saving change, paged equal to one page', async () => {
    // From the first history session (October, EDT) to the last (November, EST).
    const start = Date.parse(`${historyDates[0]}T00:00:00Z`);
    const end = Date.parse(`${historyDates.at(-1)}T23:59:00Z`);
    const expected = barsOf(
      spx.filter((m) => m.ts >= start && m.ts < end && calculated(m.ts)),
      (m) => m.ts - (m.ts % 3_600_000),
    );
    // Each session has 7 hour buckets: 09:00 (09:30 to 09:59) to 15:00.
    expect(expected).toHaveLength(7 * historyDates.length);
    expect(expected.filter((b) => b.minutes === 30)).toHaveLength(historyDates.length);
    expect(expected.every((b) => newYork(b.timestamp).time.endsWith(':00'))).toBe(true);
    const one = await walk({ symbol: 'SPX', interval: '1h', start_time: start, end_time: end, limit: 10000 });
    expect(strip(one.bars)).toEqual(expected);
    const paged = await walk({ symbol: 'SPX', interval: '1h', start_time: start, end_time: end, limit: 9 });
    expect(paged.pages).toBe(Math.ceil(expected.length / 9));
    expect(paged.bars).toEqual(one.bars);
  });

  it('serves 1d bars, each closing at the last value of the regular session, and cuts a bar at the range', async () => {
    // The bucket is the date's 09:30 ET open: 13:30 UTC in EDT, 14:30 in EST.
    const openOf = (d: string): number =>
      ['-04:00', '-05:00'].map((zone) => Date.parse(`${d}T09:30:00${zone}`)).find((t) => newYork(t).time === '09:30')!;
    const daily = barsOf(
      spx.filter((m) => calculated(m.ts)),
      (m) => openOf(newYork(m.ts).date),
    );
    expect(daily).toHaveLength(historyDates.length + 1);
    // The default range is the 366 days up to now.
    const served = await walk({ symbol: 'SPX', interval: '1d' });
    expect(strip(served.bars)).toEqual(daily);
    // Each close is the last minute before 16:00 ET.
    expect(served.bars.every((b) => newYork(b.close_timestamp).time === '15:59')).toBe(true);
    const paged = await walk({ symbol: 'SPX', interval: '1d', limit: 4 });
    expect(paged.bars).toEqual(served.bars);

    // A range ending at noon on DAY: the day's bar holds 09:30 to 11:59 only.
    const noon = Date.parse(`${DAY}T17:00:00Z`);
    const cut = await walk({ symbol: 'SPX', interval: '1d', start_time: Date.parse(`${DAY}T00:00:00Z`), end_time: noon });
    expect(strip(cut.bars)).toEqual(
      barsOf(
        spx.filter((m) => newYork(m.ts).date === DAY && calculated(m.ts) && m.ts < noon),
        () => Date.parse(`${DAY}T14:30:00Z`),
      ),
    );
    expect(cut.bars[0]!.minutes).toBe(150);
  });

  it('quotes the board at an instant: value, session range and change against the previous close read from the store', async () => {
    const [before, date] = historyDates.slice(-2) as [string, string];
    const at = Date.parse(`${date}T19:00:30Z`); // 14:00:30 ET (EST): the minute 13:59 is the newest ended.
    const r = await getIndexSnapshot({ client: pro, query: { symbols: ['spx'], at } });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    const [quote] = r.data!.data;
    const session = spx.filter((m) => newYork(m.ts).date === date && calculated(m.ts) && m.ts + MINUTE <= at);
    const last = session.at(-1)!;
    expect(newYork(last.ts).time).toBe('13:59');
    const previous = spx.filter((m) => newYork(m.ts).date === before && calculated(m.ts)).at(-1)!;
    expect(newYork(previous.ts).time).toBe('15:59');
    expect(quote).toEqual({
      symbol: 'SPX',
      value: last.close,
      timestamp: last.ts,
      trading_date: date,
      open: session[0]!.open,
      high: Math.max(...session.map((m) => m.high)),
      low: Math.min(...session.map((m) => m.low)),
      previous_close: previous.close,
      previous_close_date: before,
      change: expect.closeTo(last.close - previous.close, 5) as unknown,
      change_percent: expect.closeTo((100 * (last.close - previous.close)) / previous.close, 5) as unknown,
      calculating: true,
    });
  });

  it('quotes after the close with the last value of the day, in the order asked, and nulls where nothing is stored', async () => {
    const r = await getIndexSnapshot({ client: pro, query: { symbols: ['RUT', 'SPX', 'NDX'] } });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    const data = r.data!.data;
    expect(data.map((q) => q.symbol)).toEqual(['RUT', 'SPX', 'NDX']);
    const quote = data[1]!;
    const day = spx.filter((m) => newYork(m.ts).date === DAY);
    expect(quote).toMatchObject({ value: day.at(-1)!.close, timestamp: day.at(-1)!.ts, trading_date: DAY, calculating: false });
    // The day before (2026-11-19) is not loaded: no previous close, no change.
    expect(quote).toMatchObject({ previous_close: null, previous_close_date: '2026-11-19', change: null, change_percent: null });
    for (const q of [data[0]!, data[2]!]) {
      const minutes = await stored(q.symbol);
      expect(q.value, q.symbol).toBe(minutes.filter((m) => m.ts + MINUTE <= MARKET_NOW).at(-1)?.close ?? null);
    }
    // An instant after the clock is the clock's.
    const later = await getIndexSnapshot({ client: pro, query: { symbols: ['SPX'], at: MARKET_NOW + 86_400_000 } });
    expect(later.data!.data[0]).toEqual(quote);
  });

  it('refuses an account without the indices dataset on every index route with the error body', async () => {
    for (const r of [
      await listIndices({ client: optionsOnly }),
      await listIndexBars({ client: optionsOnly, query: { symbol: 'SPX' } }),
      await getIndexSnapshot({ client: optionsOnly, query: { symbols: ['SPX'] } }),
    ]) {
      expect(r.response.status).toBe(403);
      expect(r.error).toMatchObject({ error: { code: 'forbidden', message: expect.stringContaining('indices dataset') as unknown } });
    }
  });

  it('answers 400 naming each bad parameter, and to a cursor of another query or a forged one', async () => {
    const bars = async (query: Record<string, unknown>) => await listIndexBars({ client: pro, query: query as never });
    expect(details((await bars({ symbol: 'SPX', interval: '2m', limit: 0 })).error)).toEqual(['interval', 'limit']);
    expect(details((await bars({ symbol: 'SPX', date: DAY, start_time: MARKET_NOW - 3_600_000 })).error)).toEqual(['date', 'start_time']);
    const long = await bars({ symbol: 'SPX', interval: '1m', start_time: MARKET_NOW - 8 * 86_400_000, end_time: MARKET_NOW });
    expect(long.response.status).toBe(400);
    expect(details(long.error)).toEqual(['end_time', 'start_time']);

    const page = await bars({ symbol: 'SPX', date: DAY, limit: 5 });
    const cursor = page.data!.pagination.next_cursor_id!;
    const other = await bars({ symbol: 'SPX', date: DAY, limit: 6, cursor_id: cursor });
    expect(other.response.status).toBe(400);
    expect(other.error).toMatchObject({ error: { code: 'invalid_cursor' } });
    const forged = await bars({ symbol: 'SPX', date: DAY, limit: 5, cursor_id: `${cursor.slice(0, -2)}xx` });
    expect(forged.response.status).toBe(400);

    const board = await getIndexSnapshot({ client: pro, query: { symbols: Array<string>(11).fill('SPX'), at: 5 } });
    expect(board.response.status).toBe(400);
    expect(details(board.error)).toEqual(['at', 'symbols']);
  });

  it('answers 422 no_data naming the indices for an unknown index, for a date that does not trade or has no value, and a board with no value', async () => {
    const unknown = await listIndexBars({ client: pro, query: { symbol: 'ZZZ' } });
    expect(unknown.response.status).toBe(422);
    expect(unknown.error).toMatchObject({
      error: { code: 'no_data', message: expect.stringContaining('(the indices: SPX, NDX, RUT)') as unknown },
    });
    const board = await getIndexSnapshot({ client: pro, query: { symbols: ['SPX', 'zzz'] } });
    expect(board.response.status).toBe(422);
    expect(board.error).toMatchObject({ error: { code: 'no_data', message: expect.stringMatching(/^ZZZ: not an index/) as unknown } });
    for (const query of [
      { symbol: 'SPX', date: '2026-11-21' },
      { symbol: 'SPX', date: '2026-11-18' },
    ]) {
      const r = await listIndexBars({ client: pro, query });
      expect(r.response.status, JSON.stringify(query)).toBe(422);
      expect(r.error).toMatchObject({ error: { code: 'no_data' } });
    }
    // 2001: nothing stored; the first instant accepted (2000-01-01 00:00:00.001 UTC, 1999 in New York): before the calendar.
    for (const instant of [Date.parse('2001-01-02T15:00:00Z'), 946_684_800_001]) {
      const early = await getIndexSnapshot({ client: pro, query: { symbols: ['SPX'], at: instant } });
      expect(early.response.status, String(instant)).toBe(422);
      expect(early.error).toMatchObject({ error: { code: 'no_data' } });
    }
  });

  it('exports the bars of a range, cut at the export limit, as the cursor walk serves them', async () => {
    const query = { symbol: 'SPX', interval: '5m', date: DAY };
    const created = await createExport({ client: pro, body: { path: '/v1/indices/bars', query: { ...query, limit: 50 } } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
    const file = await downloadExport({ client: pro, path: { id }, parseAs: 'text' });
    expect(file.response.status).toBe(200);
    const exported = JSON.parse(file.data as unknown as string) as { data: IndexBar[]; truncated: boolean };
    // An export's limit is the file's row count (the spec's export rules): the walk's first 50 bars.
    expect(exported.data).toEqual((await walk({ ...query, limit: 20 })).bars.slice(0, 50));
    expect(exported.data).toHaveLength(50);
    expect(exported.truncated).toBe(true);
  });

  it('lists the four index routes in the catalog under indices, with the indices dataset', async () => {
    const r = await listCatalog({ client: pro, query: { family: 'indices' } });
    expect(r.data!.data.map((e) => [e.id, e.path, e.dataset, e.paginated, e.mcp, e.streamable])).toEqual([
      ['listIndices', '/v1/indices', 'indices', false, true, false],
      ['listIndexBars', '/v1/indices/bars', 'indices', true, true, true],
      ['getIndexSnapshot', '/v1/indices/snapshot', 'indices', false, true, false],
      ['getIndexVolatility', '/v1/indices/volatility', 'indices', false, true, false],
      ['listIndexVolatilityBars', '/v1/indices/volatility/bars', 'indices', true, true, false],
    ]);
  });

  it('exports the computed volatility index series as a paging route, as its cursor walk serves it', async () => {
    const query = {
      underlying_symbol: 'SPX',
      tenor: '30d',
      interval: '1m',
      start_time: Date.parse(`${DAY}T15:00:00Z`),
      end_time: Date.parse(`${DAY}T15:20:00Z`),
    };
    const created = await createExport({ client: pro, body: { path: '/v1/indices/volatility/bars', query } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 60_000 });
    const file = await downloadExport({ client: pro, path: { id }, parseAs: 'text' });
    expect(file.response.status).toBe(200);
    const exported = JSON.parse(file.data as unknown as string) as { data: unknown[]; truncated: boolean };
    const served: unknown[] = [];
    let cursor: string | undefined;
    do {
      const r = await listIndexVolatilityBars({
        client: pro,
        query: { ...query, limit: 7, ...(cursor ? { cursor_id: cursor } : {}) } as never,
      });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      served.push(...r.data!.data);
      cursor = r.data!.pagination.next_cursor_id ?? undefined;
    } while (cursor !== undefined);
    expect(served).toHaveLength(20);
    expect(exported.data).toEqual(served);
    expect(exported.truncated).toBe(false);
  });
});
