/**
 * Valuation during a session in progress (issue 32 §1 and §3): the positioning and volatility
 * routes value at the newest minute of data ended by the request's instant, so that two requests
 * between two loads of minutes get one answer, and `at` names an earlier instant of a retained
 * session that reads nothing recorded after it. The session is loaded minute by minute by the live
 * market (src/live/) on a fake clock, as a deployment in live mode loads it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getExposureHeatmap,
  getExposureLevels,
  getOpenInterest,
  getVolatilityDrift,
  getVolatilitySkew,
} from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import { LiveMarket } from '../../src/live/runner.js';
import { SimulatedLiveSource } from '../../src/live/simulated-source.js';
import { SMALL_MARKET } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const MINUTE = 60_000;
/** 10:20 ET on Thursday 2026-11-19: the regular session has run 50 minutes. */
const CLOCK_START = Date.parse('2026-11-19T15:20:00Z');
const SYMBOL = 'SPY';

type Route = 'skew' | 'levels' | 'heatmap' | 'open_interest' | 'drift';
const ROUTES: Route[] = ['skew', 'levels', 'heatmap', 'open_interest', 'drift'];

interface Answer {
  status: number;
  data: unknown;
  error: unknown;
}

describe('valuation during a session in progress', () => {
  let service: TestService;
  let client: Client;
  let now = CLOCK_START + 30_000;
  let market: LiveMarket;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService({ clock: () => now });
    client = (await service.newAccount({ plan: 'pro', overnight: true })).client;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-live-valuation-'));
    const source = new SimulatedLiveSource({ seed: 11, scale: 'default', overrides: SMALL_MARKET });
    market = new LiveMarket({ db: service.database.admin, source, clock: () => now, dir, catchUpMinutes: 2_000, batchMinutes: 2_000 });
    // The date so far: every minute ended by the clock.
    const first = await market.tick();
    expect(first.minutes).toBeGreaterThan(50);
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const ask = async (route: Route, query: Record<string, unknown> = {}): Promise<Answer> => {
    const q = { underlying_symbol: SYMBOL, ...query } as never;
    const r =
      route === 'skew'
        ? await getVolatilitySkew({ client, query: q })
        : route === 'levels'
          ? await getExposureLevels({ client, query: q })
          : route === 'heatmap'
            ? await getExposureHeatmap({ client, query: q })
            : route === 'open_interest'
              ? await getOpenInterest({ client, query: q })
              : await getVolatilityDrift({ client, query: q });
    return { status: r.response.status, data: (r.data as { data?: unknown } | undefined)?.data, error: r.error };
  };

  const ok = async (route: Route, query: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
    const answer = await ask(route, query);
    expect(answer.status, `${route} ${JSON.stringify(query)}: ${JSON.stringify(answer.error)}`).toBe(200);
    return answer.data as Record<string, unknown>;
  };

  const valuationTimestamp = (data: Record<string, unknown>): number => (data.valuation as { timestamp: number }).timestamp;

  const lastPoint = (drift: Record<string, unknown>): number => (drift.points as { timestamp: number }[]).at(-1)!.timestamp;

  it('values at the end of the newest minute of data, and gives the requests between two loads one answer', async () => {
    // The runner loaded every minute ended by 10:20:30 ET: the newest starts at 10:19, and ends at
    // CLOCK_START. The chain's minute (the newest at which half the chain is sampled) is at or
    // before it, and the drift's last bucket is that minute's.
    const answers = new Map<Route, Record<string, unknown>>();
    for (const route of ROUTES) answers.set(route, await ok(route));
    for (const route of ['skew', 'levels', 'heatmap'] as const) {
      expect(valuationTimestamp(answers.get(route)!), route).toBeLessThanOrEqual(CLOCK_START);
      expect(valuationTimestamp(answers.get(route)!), route).toBeGreaterThan(CLOCK_START - 16 * MINUTE);
    }
    expect(lastPoint(answers.get('drift')!)).toBe(CLOCK_START - MINUTE);
    // Later in the same minute and in the next one, with no load between: the same answers.
    for (const later of [CLOCK_START + 45_000, CLOCK_START + 100_000]) {
      now = later;
      for (const route of ROUTES) expect(await ok(route), route).toEqual(answers.get(route));
    }
    // The next minute loads: the drift runs to it, and the levels are valued at or before it.
    now = CLOCK_START + MINUTE + 500;
    expect((await market.tick()).minutes).toBe(1);
    expect(lastPoint(await ok('drift'))).toBe(CLOCK_START);
    expect(valuationTimestamp(await ok('levels'))).toBeLessThanOrEqual(CLOCK_START + MINUTE);
  });

  it('answers `at` from the data up to it: loading later minutes changes no earlier answer (every route)', async () => {
    const at = CLOCK_START - 10 * MINUTE + 20_000;
    const before = new Map<Route, Record<string, unknown>>();
    for (const route of ROUTES) before.set(route, await ok(route, { at }));
    expect(valuationTimestamp(before.get('levels')!)).toBeLessThanOrEqual(CLOCK_START - 10 * MINUTE);
    expect(lastPoint(before.get('drift')!)).toBe(CLOCK_START - 11 * MINUTE);
    // Nothing of the chain or the underlying is from after `at`.
    for (const route of ['skew', 'levels', 'heatmap'] as const) {
      const valuation = before.get(route)!.valuation as { chain_timestamp: number; underlying_timestamp: number };
      expect(valuation.chain_timestamp, route).toBeLessThanOrEqual(at);
      expect(valuation.underlying_timestamp + MINUTE, route).toBeLessThanOrEqual(at);
    }
    // Five more minutes load.
    now += 5 * MINUTE;
    expect((await market.tick()).minutes).toBe(5);
    for (const route of ROUTES) expect(await ok(route, { at }), route).toEqual(before.get(route));
  });

  it('answers `at` at the newest minute of data as it answers now, and an `at` after the clock as now', async () => {
    const newestEnd = Math.floor(now / MINUTE) * MINUTE;
    for (const route of ROUTES) {
      const current = await ok(route);
      expect(await ok(route, { at: newestEnd + 1_000 }), route).toEqual(current);
      expect(await ok(route, { at: now + 3_600_000 }), route).toEqual(current);
    }
  });

  it('refuses `at` with `date`, naming both', async () => {
    const answer = await ask('levels', { at: CLOCK_START, date: '2026-11-19' });
    expect(answer.status).toBe(400);
    const details = (answer.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort();
    expect(details).toEqual(['at', 'date']);
  });
});
