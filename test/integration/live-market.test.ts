/**
 * The live market (src/live/): with a fake clock, the simulated source's minutes load through the
 * ordinary loaders as the clock passes them and appear on GET /v1/options/trades in order, and
 * /v1/status's freshness moves with them. A date loaded minute by minute holds exactly the prints
 * (classified fields included) of the same rows loaded as one day file, and loading a minute
 * again, or restarting the runner, changes nothing. /v1/status's data_source counts the minutes'
 * files as simulated when the runner recorded its simulator run. A live minute reaches the prints
 * stream in the trades route's order (read forward) with its bodies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAsyncApiDocument, getStatus, listOptionTrades } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { OptionPrint as Print } from '../../generated/client/types.gen.js';
import { recordSimulatedMarket } from '../../src/db/data-origin.js';
import { recordIngestedFile } from '../../src/db/ingest-files.js';
import { countPrints, printBodies } from '../../src/db/stored-prints.js';
import { LiveMarket } from '../../src/live/runner.js';
import { SimulatedLiveSource } from '../../src/live/simulated-source.js';
import { SMALL_MARKET } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { MessageSchemas, StreamClient } from '../support/stream-client.js';

const DATE = '2026-11-19';
const MINUTE = 60_000;
/** 09:33 ET on the date: the overnight window and three regular minutes are over. */
const FIRST_LIVE = Date.parse('2026-11-19T14:33:00Z');
const LIVE_MINUTES = 5;
/** Every underlying of the simulated market (families: SPX, NDX and RUT cover their roots): ten, the route's most. */
const UNDERLYINGS = ['SPX', 'NDX', 'RUT', 'SPY', 'QQQ', 'IWM', 'AAPL', 'TSLA', 'NVDA', 'AMZN'];

const sequenceOf = (id: string): number => Number(id.split(':').at(-1));
const newestFirst = (a: { id: string; timestamp: number }, b: { id: string; timestamp: number }): number =>
  b.timestamp - a.timestamp || sequenceOf(b.id) - sequenceOf(a.id);

async function tableCount(service: TestService, table: 'quote_samples' | 'underlying_bars'): Promise<number> {
  const row = await service.database.admin
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('the live market', () => {
  let live: TestService;
  let whole: TestService;
  let pro: Client;
  let now = FIRST_LIVE + MINUTE / 2;
  const dirs: string[] = [];
  const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL_MARKET, snapshots: false });
  const runner = (
    service: TestService,
    options: { catchUpMinutes?: number; batchMinutes?: number; simulator?: { seed: number; scale: string } } = {},
  ): LiveMarket => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-live-'));
    dirs.push(dir);
    return new LiveMarket({ db: service.database.admin, source, clock: () => now, dir, ...options });
  };
  let market: LiveMarket;

  beforeAll(async () => {
    live = await startTestService({ clock: () => now });
    whole = await startTestService({ clock: () => now });
    pro = (await live.newAccount({ plan: 'pro', overnight: true })).client;
    // The date so far, as a first start loads it: one load of every minute before the clock's.
    market = runner(live, { catchUpMinutes: 2_000, batchMinutes: 2_000, simulator: { seed: 11, scale: 'default' } });
    const first = await market.tick();
    expect(first).toMatchObject({ tradingDate: DATE, skipped: 0 });
    expect(first.minutes).toBe(13 * 60 + 10 + 3);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([live?.stop(), whole?.stop()]);
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const trades = async (from: number, to: number): Promise<Print[]> => {
    const r = await listOptionTrades({
      client: pro,
      query: { underlying_symbols: UNDERLYINGS, date: DATE, start_time: from, end_time: to, limit: 500 },
    });
    // A window no print matches is 422 no_data.
    if (r.response.status === 422 && (r.error as { error?: { code?: string } }).error?.code === 'no_data') return [];
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    expect(r.data!.pagination.has_more).toBe(false);
    return r.data!.data;
  };

  const storedBetween = async (from: number, to: number): Promise<{ id: string; timestamp: number }[]> =>
    (await printBodies(live.database.admin, DATE))
      .map((body) => JSON.parse(body) as { id: string; timestamp: number })
      .filter((p) => p.timestamp >= from && p.timestamp < to)
      .sort(newestFirst);

  it('loads each minute as the clock passes it; its prints appear on /v1/options/trades, newest first, and /v1/status moves', async () => {
    const statusBefore = await getStatus({ client: live.client() });
    const printsBefore = statusBefore.data!.data.datasets.find((d) => d.dataset === 'options.prints')!;
    expect(printsBefore.newest_timestamp).toBeLessThan(FIRST_LIVE);
    // The runner recorded its simulator run: every file it loaded counts as simulated.
    expect(statusBefore.data!.data.data_source).toMatchObject({
      kind: 'simulated',
      loaded_files: 0,
      simulator_seed: 11,
      simulator_scale: 'default',
      live_simulation: true,
    });
    expect(statusBefore.data!.data.data_source!.simulated_files).toBeGreaterThan(0);
    let total = 0;
    for (let k = 0; k < LIVE_MINUTES; k += 1) {
      const minute = FIRST_LIVE + k * MINUTE;
      expect(await trades(minute, minute + MINUTE), `before ${k}`).toEqual([]);
      // A tick before the minute ends loads nothing.
      now = minute + MINUTE - 1;
      expect((await market.tick()).minutes).toBe(0);
      now = minute + MINUTE + 500;
      const tick = await market.tick();
      expect(tick).toMatchObject({ tradingDate: DATE, minutes: 1, skipped: 0 });
      const rows = await trades(minute, minute + MINUTE);
      expect(rows.length, `minute ${k}`).toBeGreaterThan(0);
      expect(rows.map((r) => r.id)).toEqual((await storedBetween(minute, minute + MINUTE)).map((p) => p.id));
      expect(rows.every((r) => r.timestamp >= minute && r.timestamp < minute + MINUTE && r.session === 'rth')).toBe(true);
      total += rows.length;
      // The minutes so far, newest first: this one's on top of the ones before.
      const sofar = await trades(FIRST_LIVE, minute + MINUTE);
      expect(sofar.length).toBe(total);
      expect(sofar.slice(0, rows.length).map((r) => r.id)).toEqual(rows.map((r) => r.id));
      const status = await getStatus({ client: live.client() });
      const prints = status.data!.data.datasets.find((d) => d.dataset === 'options.prints')!;
      expect(prints.newest_timestamp).toBe(Math.max(...rows.map((r) => r.timestamp)));
      const bars = status.data!.data.datasets.find((d) => d.dataset === 'indices.bars')!;
      expect(bars.newest_timestamp).toBe(minute);
    }
  }, 300_000);

  it('stores exactly the prints, classification included, that the same rows loaded as one day file give', async () => {
    // The other service loads the date up to the same minute in one load of each kind.
    const once = runner(whole, { catchUpMinutes: 2_000, batchMinutes: 2_000 });
    const loaded = await once.tick();
    expect(loaded.minutes).toBe(13 * 60 + 10 + 3 + LIVE_MINUTES);
    const byMinute = await printBodies(live.database.admin, DATE, { includeCancelled: true });
    const byDay = await printBodies(whole.database.admin, DATE, { includeCancelled: true });
    expect(byMinute.length).toBeGreaterThan(100);
    expect(byMinute).toEqual(byDay);
    expect(await printBodies(live.database.admin, DATE)).toEqual(await printBodies(whole.database.admin, DATE));
  }, 300_000);

  it("tells /v1/status's data_source simulated files from loaded ones by the folder a simulator run recorded", async () => {
    const origin = async () => (await getStatus({ client: whole.client() })).data!.data.data_source!;
    // The other service's runner recorded no simulator run: its minutes' files are files of one's own.
    const files = await origin();
    expect(files).toMatchObject({ kind: 'files', simulated_files: 0, simulator_seed: null, simulator_scale: null, live_simulation: false });
    expect(files.loaded_files).toBeGreaterThan(0);
    const dir = dirs.at(-1)!;
    // A folder whose name merely begins like the files' folder does not own them.
    await recordSimulatedMarket(whole.database.admin, { seed: 7, scale: 'default', outDir: dir.slice(0, -1) });
    expect(await origin()).toMatchObject({ kind: 'files', simulated_files: 0, loaded_files: files.loaded_files, simulator_seed: 7 });
    await recordSimulatedMarket(whole.database.admin, { seed: 8, scale: 'full', outDir: `${dir}/` });
    expect(await origin()).toEqual({
      ...files,
      kind: 'simulated',
      simulated_files: files.loaded_files,
      loaded_files: 0,
      simulator_seed: 8,
      simulator_scale: 'full',
    });
    // A session loaded back from its archive is the same data again: its files are not counted.
    const archiveDir = path.join(os.tmpdir(), 'oads-archive', '2020-01-02');
    await whole.database.admin
      .insertInto('archived_sessions')
      .values({ trading_date: '2020-01-02', archive_dir: archiveDir, prints: 1, quotes: 0 })
      .execute();
    await recordIngestedFile(whole.database.admin, {
      checksum: 'archived-prints',
      kind: 'prints',
      fileName: path.join(archiveDir, 'prints.csv.gz'),
      read: 1,
      loaded: 1,
      rejected: 0,
      duplicates: 0,
    });
    expect(await origin()).toEqual({
      ...files,
      kind: 'simulated',
      simulated_files: files.loaded_files,
      loaded_files: 0,
      simulator_seed: 8,
      simulator_scale: 'full',
    });
  });

  it('changes nothing when a minute loads again, or when the runner restarts and resumes', async () => {
    const before = {
      prints: await countPrints(live.database.admin, DATE),
      bodies: await printBodies(live.database.admin, DATE, { includeCancelled: true }),
      quotes: await tableCount(live, 'quote_samples'),
      bars: await tableCount(live, 'underlying_bars'),
    };
    const again = FIRST_LIVE + 2 * MINUTE;
    const minutes = await source.minutes(DATE, again, again + MINUTE);
    expect(minutes.map((m) => m.start)).toEqual([again]);
    expect(minutes[0]!.prints.length).toBeGreaterThan(0);
    expect(await market.loadMinutes(DATE, minutes)).toBe(0);
    // A restart: a new runner finds the newest minute every kind reaches, loads it (and any after it
    // that hold no print) again, and nothing else is due.
    const restarted = runner(live);
    const resumed = await restarted.tick();
    expect(resumed).toMatchObject({ tradingDate: DATE, prints: 0, skipped: 0 });
    expect(resumed.minutes).toBeGreaterThanOrEqual(1);
    expect(await restarted.tick()).toMatchObject({ minutes: 0 });
    expect({
      prints: await countPrints(live.database.admin, DATE),
      bodies: await printBodies(live.database.admin, DATE, { includeCancelled: true }),
      quotes: await tableCount(live, 'quote_samples'),
      bars: await tableCount(live, 'underlying_bars'),
    }).toEqual(before);
  }, 300_000);

  it('completes, on the next start, a minute whose load stopped half way (bars and quotes stored, not its prints)', async () => {
    const minute = FIRST_LIVE + LIVE_MINUTES * MINUTE;
    now = minute + MINUTE + 500;
    const [rows] = await source.minutes(DATE, minute, minute + MINUTE);
    expect(rows!.prints.length).toBeGreaterThan(0);
    await market.loadMinutes(DATE, [{ ...rows!, prints: [] }]);
    expect(await trades(minute, minute + MINUTE)).toEqual([]);
    const tick = await runner(live).tick();
    expect(tick.prints).toBeGreaterThan(0);
    const loaded = await trades(minute, minute + MINUTE);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.map((r) => r.id)).toEqual((await storedBetween(minute, minute + MINUTE)).map((p) => p.id));
  }, 300_000);

  it('bounds the catch-up after a long stop, and loads nothing while the market is closed', async () => {
    // Nineteen minutes after the newest complete one (09:38), a runner allowed five catches up the
    // last five (09:53 to 09:57) and says it left out the 15 before them (09:38 again, then 14).
    now = FIRST_LIVE + (LIVE_MINUTES + 20) * MINUTE + 500;
    const bounded = runner(live, { catchUpMinutes: 5, batchMinutes: 2 });
    const tick = await bounded.tick();
    expect(tick).toMatchObject({ tradingDate: DATE, minutes: 5 });
    expect(tick.skipped).toBe(15);
    const newest = await trades(FIRST_LIVE, now);
    expect(newest[0]!.timestamp).toBeGreaterThanOrEqual(now - 500 - MINUTE);
    expect(await trades(FIRST_LIVE + (LIVE_MINUTES + 1) * MINUTE, FIRST_LIVE + (LIVE_MINUTES + 15) * MINUTE)).toEqual([]);
    expect((await trades(FIRST_LIVE + (LIVE_MINUTES + 15) * MINUTE, now)).length).toBeGreaterThan(0);
    // Thanksgiving: no session, nothing loaded.
    now = Date.parse('2026-11-26T16:00:00Z');
    expect(await bounded.tick()).toEqual({ tradingDate: null, minutes: 0, prints: 0, skipped: 0 });
  }, 300_000);

  it("streams a live minute's prints as GET /v1/options/trades serves them: the same bodies, in its order read forward", async () => {
    const doc = await getAsyncApiDocument({ client: live.client() });
    const schemas = new MessageSchemas(doc.data as unknown as Record<string, unknown>);
    const { key } = await live.newAccount({ plan: 'pro' });
    const stream = await StreamClient.open(live.url, { key, schemas });
    try {
      await stream.next((m) => m.type === 'welcome');
      stream.send({ type: 'subscribe', id: 'p', channel: 'prints', params: { underlying_symbols: UNDERLYINGS } });
      const subscribed = await stream.next((m) => m.request === 'p');
      expect(subscribed.type, JSON.stringify(subscribed)).toBe('subscribed');
      // The minute after the newest one stored (09:58, after the catch-up test), as the clock passes it;
      // the prints it adds to the route's answer are those the stream must send.
      const minute = FIRST_LIVE + (LIVE_MINUTES + 21) * MINUTE;
      const open = FIRST_LIVE - 3 * MINUTE;
      const before = new Set((await trades(open, minute + MINUTE)).map((r) => r.id));
      now = minute + MINUTE + 500;
      const tick = await runner(live, { catchUpMinutes: 5 }).tick();
      expect(tick.tradingDate).toBe(DATE);
      expect(tick.prints).toBeGreaterThan(0);
      await live.streams?.hub.settled();
      const added = (await trades(open, now)).filter((r) => !before.has(r.id));
      expect(added.length).toBeGreaterThan(0);
      expect(added.some((r) => r.timestamp >= minute)).toBe(true);
      const streamed = () => stream.messages.filter((m) => m.type === 'prints').flatMap((m) => m.data as Print[]);
      await stream.next(() => streamed().length >= added.length);
      // Every message of the load has arrived (the hub sent them before it settled): exactly the route's prints.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(streamed()).toEqual([...added].reverse());
      expect(stream.messages.filter((m) => m.type === 'prints').every((m) => m.replay === false && m.trading_date === DATE)).toBe(true);
      expect(stream.invalid).toEqual([]);
    } finally {
      stream.close();
    }
  }, 300_000);
});
