/**
 * GET /v1/options/chain during a session in progress (issue 36 §4, issue 32 §1): the snapshot is
 * valued at the newest minute of data ended by the request's instant, a cursor walk stays on the
 * minute of its first page while later minutes load, and an `at` answer reads nothing recorded
 * after it. The session is loaded minute by minute by the live market on a fake clock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getExposureLevels, getOptionChain } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { GetOptionChainData, OptionChainPage } from '../../generated/client/types.gen.js';
import { LiveMarket } from '../../src/live/runner.js';
import { SimulatedLiveSource } from '../../src/live/simulated-source.js';
import { SMALL_MARKET } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const MINUTE = 60_000;
/** 10:20 ET on Thursday 2026-11-19: the regular session has run 50 minutes. */
const CLOCK_START = Date.parse('2026-11-19T15:20:00Z');

describe('the chain snapshot during a session in progress', () => {
  let service: TestService;
  let client: Client;
  let now = CLOCK_START + 30_000;
  let market: LiveMarket;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService({ clock: () => now });
    client = (await service.newAccount({ plan: 'pro' })).client;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-chain-live-'));
    const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL_MARKET });
    market = new LiveMarket({ db: service.database.admin, source, clock: () => now, dir, catchUpMinutes: 2_000, batchMinutes: 2_000 });
    expect((await market.tick()).minutes).toBeGreaterThan(50);
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const page = async (query: NonNullable<GetOptionChainData['query']>): Promise<OptionChainPage> => {
    const r = await getOptionChain({ client, query });
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!;
  };

  it('values the newest minute of data as the levels route does, and a cursor walk stays on its first page minute', async () => {
    const first = await page({ underlying_symbol: 'SPY', limit: 40 });
    const valuation = first.data[0]!.valuation;
    const levels = await getExposureLevels({ client, query: { underlying_symbol: 'SPY' } });
    expect(valuation).toEqual(levels.data!.data.valuation);
    expect(valuation.timestamp).toBeLessThanOrEqual(CLOCK_START);
    expect(first.pagination.next_cursor_id).not.toBeNull();

    // Fifteen more minutes load (the simulated chain is sampled every 15): a new request values a later minute, the walk keeps its own.
    now += 15 * MINUTE;
    expect((await market.tick()).minutes).toBe(15);
    const fresh = await page({ underlying_symbol: 'SPY', limit: 40 });
    expect(fresh.data[0]!.valuation.timestamp).toBeGreaterThan(valuation.timestamp!);
    const second = await page({ underlying_symbol: 'SPY', limit: 40, cursor_id: first.pagination.next_cursor_id! });
    expect(second.data.length).toBeGreaterThan(0);
    for (const r of second.data) expect(r.valuation).toEqual(valuation);
    // The walk's second page is the second page of the same minute asked by `at`.
    const pinned = await page({ underlying_symbol: 'SPY', limit: 80, at: valuation.timestamp! });
    expect([...first.data, ...second.data]).toEqual(pinned.data.slice(0, first.data.length + second.data.length));
  });

  it('answers `at` from the data up to it: loading later minutes changes nothing of it', async () => {
    const at = now - 1 * MINUTE + 20_000;
    const before = await page({ underlying_symbol: 'SPY', at, limit: 1000 });
    for (const r of before.data) {
      if (r.quote_timestamp !== null) expect(r.quote_timestamp).toBeLessThanOrEqual(at);
      if (r.last_trade !== null) expect(r.last_trade.timestamp).toBeLessThan(at);
    }
    now += 15 * MINUTE;
    expect((await market.tick()).minutes).toBe(15);
    expect(await page({ underlying_symbol: 'SPY', at, limit: 1000 })).toMatchObject({ data: before.data });
  });
});
