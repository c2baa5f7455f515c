/**
 * Key levels and the exposure heat map on a simulated session loaded through ingest. Figures are
 * reproduced from the open-interest and skew routes alone with formulas written out here (the
 * Black-Scholes-Merton gamma at the skew point's smile volatility, the carry of the skew's forward),
 * the heat map and the levels are checked against each other on the same request, and the observed
 * metrics against the stored prints.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExport,
  downloadExport,
  getExposureHeatmap,
  getExposureLevels,
  getOpenInterest,
  getVolatilitySkew,
} from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type {
  GetExposureHeatmapResponse,
  GetExposureLevelsResponse,
  GetOpenInterestResponse,
  GetVolatilitySkewResponse,
} from '../../generated/client/types.gen.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const YEAR_MS = 365 * 86_400_000;
type Levels = GetExposureLevelsResponse['data'];
type Heatmap = GetExposureHeatmapResponse['data'];
type OpenInterest = GetOpenInterestResponse['data'];
type Skew = GetVolatilitySkewResponse['data'];

/** Relative closeness for sums taken in another order. */
function near(got: number | null | undefined, want: number, relative = 1e-9): void {
  expect(got).not.toBeNull();
  expect(Math.abs((got as number) - want), `${got} vs ${want}`).toBeLessThanOrEqual(relative * Math.max(1, Math.abs(want)));
}

/** BSM gamma with a continuous yield (Haug 2007, ch. 2). */
function gamma(S: number, K: number, T: number, r: number, q: number, sigma: number): number {
  const v = sigma * Math.sqrt(T);
  const d1 = (Math.log(S / K) + (r - q) * T) / v + v / 2;
  return (Math.exp(-q * T) * Math.exp(-0.5 * d1 * d1)) / (Math.sqrt(2 * Math.PI) * S * v);
}

describe('levels and heat map', () => {
  let service: TestService;
  let pro: Client;
  let basic: Client;
  /** Two SPXW weeklies after DAY (no SPX monthly shares their dates). */
  let weeklies: string[];

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      jobs: true,
      clock: () => MARKET_NOW,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
    const listed = await sql<{ d: string }>`
      select date_of_expiry::text as d from contracts where root in ('SPX', 'SPXW') and date_of_expiry > ${DAY}::date group by 1
      having bool_and(root = 'SPXW') and bool_or(root = 'SPXW') order by 1 limit 2`.execute(service.database.admin);
    weeklies = listed.rows.map((r) => r.d);
    expect(weeklies).toHaveLength(2);
  });
  afterAll(async () => service.stop());

  const base = { underlying_symbol: 'SPX', date: DAY };
  const levels = async (query: Record<string, unknown>, client = pro) => await getExposureLevels({ client, query: { ...base, ...query } });
  const heatmap = async (query: Record<string, unknown>, client = pro) =>
    await getExposureHeatmap({ client, query: { ...base, ...query } });
  const okLevels = async (query: Record<string, unknown>): Promise<Levels> => {
    const r = await levels(query);
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };
  const okHeatmap = async (query: Record<string, unknown>): Promise<Heatmap> => {
    const r = await heatmap(query);
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };
  const openInterest = async (query: Record<string, unknown>): Promise<OpenInterest> =>
    (await getOpenInterest({ client: pro, query: { ...base, ...query } })).data!.data;
  const skew = async (query: Record<string, unknown>): Promise<Skew> =>
    (await getVolatilitySkew({ client: pro, query: { ...base, ...query } })).data!.data;

  it('values the SPX family at the close: both roots, the previous close open interest, the model named', async () => {
    const data = await okLevels({ include: ['vanna', 'charm', 'delta'] });
    expect(data).toMatchObject({
      greek: 'gamma',
      unit: 'per_percent',
      model: 'classic_oi',
      perspective: 'dealer',
      positioning_model: 'classic_oi/v1',
      session: 'rth',
      trading_date: DAY,
      underlying_symbol: 'SPX',
      roots: ['SPX', 'SPXW'],
    });
    expect(data.valuation.open_interest_date).toBe('2026-11-19');
    expect(data.underlying_price).toBe(data.valuation.underlying_price);
    expect(data.unit_label).toContain('per 1% rise');
    const l = data.levels;
    expect(l.gamma_flip_candidates.length).toBeGreaterThanOrEqual(0);
    expect(l.regime.net).not.toBeNull();
    expect(l.vanna_levels).not.toBeNull();
    expect(l.charm_max_absolute_strike).not.toBeNull();
    expect(l.delta_key_strike).not.toBeNull();
    expect(data.ranked!.net.length).toBe(5);
    // DAY's SPXW series settled at 16:00 and the SPX monthly at the open: the nearest is the next date.
    expect(l.max_pain!.date_of_expiry > DAY).toBe(true);
    expect(l.expected_move!.date_of_expiry).toBe(l.max_pain!.date_of_expiry);
    const without = await okLevels({});
    expect(without.levels.vanna_levels).toBeNull();
    expect(without.levels.charm_max_absolute_strike).toBeNull();
    expect(without.levels.delta_key_strike).toBeNull();
  });

  it('reproduces net gamma by strike from the open-interest and skew routes alone', async () => {
    const query = { expirations: weeklies };
    const [data, sk] = await Promise.all([okLevels({ ...query, unit: 'per_percent' }), skew(query)]);
    expect(sk.valuation).toEqual({ ...data.valuation, open_interest_date: null });
    const S = data.valuation.underlying_price!;
    const r = data.valuation.risk_free_rate!;
    const byStrike = new Map<number, number>();
    for (const e of sk.expirations) {
      const oi = await openInterest({ date_of_expiry: e.date_of_expiry });
      const T = (Date.parse(`${e.date_of_expiry}T21:00:00Z`) - data.valuation.timestamp!) / YEAR_MS;
      const q = r - Math.log(e.forward! / S) / T;
      for (const row of oi.rows) {
        const point = e.points.find((p) => p.strike === row.strike);
        expect(point?.smile_implied_volatility, `${e.date_of_expiry} ${row.strike}`).toBeGreaterThan(0);
        const g = gamma(S, row.strike!, T, r, q, point!.smile_implied_volatility!) * 100 * S * S * 0.01;
        byStrike.set(row.strike!, (byStrike.get(row.strike!) ?? 0) + g * (row.call_open_interest - row.put_open_interest));
      }
    }
    const ranked = [...byStrike]
      .filter(([, v]) => v !== 0)
      .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
      .slice(0, 5);
    expect(data.ranked!.net.map((x) => x.strike)).toEqual(ranked.map(([k]) => k));
    data.ranked!.net.forEach((x, i) => near(x.value, ranked[i]![1]));
    near(
      data.levels.regime.net,
      [...byStrike.values()].reduce((s, v) => s + v, 0),
    );
    expect(data.levels.peak_net_exposure).toMatchObject({ strike: ranked[0]![0] });
  });

  it('scales by unit and negates for the customer only', async () => {
    const query = { expirations: weeklies };
    const [pct, dollar, raw, customer] = await Promise.all([
      okLevels(query),
      okLevels({ ...query, unit: 'per_dollar' }),
      okLevels({ ...query, unit: 'raw' }),
      okLevels({ ...query, perspective: 'customer' }),
    ]);
    const S = pct.underlying_price!;
    near(dollar.levels.regime.net, (pct.levels.regime.net! * 100) / S);
    near(raw.levels.regime.net, (pct.levels.regime.net! * 100) / (S * S));
    near(customer.levels.regime.net, -pct.levels.regime.net!);
    expect(customer.levels.peak_net_exposure!.strike).toBe(pct.levels.peak_net_exposure!.strike);
    expect(customer.levels.gamma_flip).toBe(pct.levels.gamma_flip);
    expect(customer.ranked!.net.map((x) => x.value)).toEqual(pct.ranked!.net.map((x) => -x.value));
    expect(customer.unit_label).toContain('customer');
  });

  it('gatekeepers grow as the ratio falls; the ratio is bounded', async () => {
    const low = await okLevels({ gatekeeper_ratio: 0.1 });
    const high = await okLevels({ gatekeeper_ratio: 0.9 });
    expect(high.levels.gatekeepers.every((k) => low.levels.gatekeepers.includes(k))).toBe(true);
    expect((await levels({ gatekeeper_ratio: 0.05 })).response.status).toBe(400);
    expect((await levels({ include: ['gamma'] })).response.status).toBe(400);
  });

  it('adjusts the position by the customer flow of the session since the open interest date', async () => {
    const query = { expirations: weeklies, unit: 'raw', leg: 'call', strikes_around: 200, max_expirations: 64 };
    const [classic, flow, oi] = await Promise.all([
      okHeatmap(query),
      okHeatmap({ ...query, model: 'flow_adjusted' }),
      openInterest({ expirations: weeklies, group_by: 'strike' }),
    ]);
    expect(flow.positioning_model).toBe('flow_adjusted/v1');
    const prints = await sql<{ d: string; strike: number; net: number }>`
      select c.date_of_expiry::text as d, c.strike_thousandths / 1000.0 as strike,
        sum(case when p.side in ('above_ask', 'at_ask', 'near_ask') then -p.size when p.side in ('near_bid', 'at_bid', 'below_bid') then p.size else 0 end)::int8 as net
      from prints p join contracts c on c.id = p.contract_id
      where p.trading_date = ${DAY}::date and not p.cancelled and c.root in ('SPX', 'SPXW') and c.contract_type = 'call' and c.date_of_expiry = any(${weeklies}::date[])
        and p.trade_type <> 'multileg' and not ('complex' = any(p.flags)) and p.ts <= ${flow.valuation.timestamp!}::int8
      group by 1, 2`.execute(service.database.admin);
    let moved = 0;
    for (const row of prints.rows) {
      if (Number(row.net) === 0) continue;
      const perExpiration = await openInterest({ date_of_expiry: row.d });
      const callOi = perExpiration.rows.find((x) => x.strike === Number(row.strike))?.call_open_interest ?? 0;
      const c = classic.cells.find((x) => x.date_of_expiry === row.d && x.strike === Number(row.strike));
      const f = flow.cells.find((x) => x.date_of_expiry === row.d && x.strike === Number(row.strike));
      if (!c || !f || callOi === 0) continue;
      // Γ·100 per contract from the classic cell, times the flow-adjusted position.
      near(f.value, (c.value / callOi) * (callOi + Number(row.net)), 1e-9);
      moved++;
    }
    expect(oi.rows.length).toBeGreaterThan(0);
    expect(moved).toBeGreaterThan(0);
  });

  it('heat map: default window of 40 strikes and 12 expirations, offset and count, bounds instead of strikes_around', async () => {
    const data = await okHeatmap({});
    // At the close DAY's own series have settled: the expirations after it.
    const all = await sql<{ d: string }>`
      select distinct date_of_expiry::text as d from contracts where root in ('SPX', 'SPXW') and date_of_expiry > ${DAY}::date order by 1`.execute(
      service.database.admin,
    );
    const dates = all.rows.map((r) => r.d);
    expect(data.expiration_window).toEqual({ count: Math.min(12, dates.length), offset: 0, total_expirations: dates.length });
    expect([...new Set(data.cells.map((c) => c.date_of_expiry))]).toEqual(dates.slice(0, 12));
    expect(data.strike_range.total_strikes).toBeLessThanOrEqual(81);
    expect(data).toMatchObject({
      metric: 'gamma',
      greek: 'gamma',
      leg: 'net',
      unit: 'per_percent',
      model: 'classic_oi',
      roots: ['SPX', 'SPXW'],
    });
    const shifted = await okHeatmap({ expiration_offset: 2, max_expirations: 3 });
    expect(shifted.expiration_window).toEqual({ count: 3, offset: 2, total_expirations: dates.length });
    expect([...new Set(shifted.cells.map((c) => c.date_of_expiry))]).toEqual(dates.slice(2, 5));
    const bounded = await okHeatmap({ min_strike: 6000, max_strike: 6100 });
    expect(bounded.cells.every((c) => c.strike >= 6000 && c.strike <= 6100)).toBe(true);
    expect(bounded.strike_range.lowest_strike).toBeGreaterThanOrEqual(6000);

    const both = await heatmap({ strikes_around: 10, min_strike: 6000 });
    expect(both.response.status).toBe(400);
    const named = (both.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter);
    expect(named).toEqual(expect.arrayContaining(['strikes_around', 'min_strike']));
    expect((await heatmap({ strikes_around: 201 })).response.status).toBe(400);
    expect((await heatmap({ max_expirations: 65 })).response.status).toBe(400);
    expect((await heatmap({ metric: 'theta' })).response.status).toBe(400);
  });

  it('heat map: observed metrics from the open interest and the session prints, net as calls minus puts', async () => {
    const query = { date_of_expiry: weeklies[0], min_strike: 1 };
    const oi = await openInterest({ date_of_expiry: weeklies[0] });
    const cells = await okHeatmap({ ...query, metric: 'open_interest' });
    for (const row of oi.rows) {
      expect(cells.cells.find((c) => c.strike === row.strike)?.value).toBe(row.call_open_interest - row.put_open_interest);
    }
    const volume = await okHeatmap({ ...query, metric: 'volume', leg: 'put' });
    const trades = await okHeatmap({ ...query, metric: 'trades' });
    const stored = await sql<{ strike: number; type: string; size: number; n: number }>`
      select c.strike_thousandths / 1000.0 as strike, c.contract_type as type, sum(p.size)::int8 as size, count(*)::int8 as n
      from prints p join contracts c on c.id = p.contract_id
      where p.trading_date = ${DAY}::date and not p.cancelled and c.root in ('SPX', 'SPXW') and c.date_of_expiry = ${weeklies[0]}::date
        and p.ts >= ${Date.parse('2026-11-20T14:30:00Z')}::int8 and p.ts <= ${volume.valuation.timestamp!}::int8
      group by 1, 2`.execute(service.database.admin);
    expect(stored.rows.length).toBeGreaterThan(0);
    for (const row of stored.rows) {
      const k = Number(row.strike);
      if (row.type === 'put') expect(volume.cells.find((c) => c.strike === k)?.value).toBe(Number(row.size));
      const calls = Number(stored.rows.find((x) => Number(x.strike) === k && x.type === 'call')?.n ?? 0);
      const puts = Number(stored.rows.find((x) => Number(x.strike) === k && x.type === 'put')?.n ?? 0);
      expect(trades.cells.find((c) => c.strike === k)?.value).toBe(calls - puts);
    }
    expect(trades.unit_label).toContain('Prints');
  });

  it('agrees with the levels on the same request: cells summed by strike are the net by strike, the largest cell is the same', async () => {
    const query = { expirations: weeklies };
    const [lv, hm] = await Promise.all([okLevels(query), okHeatmap({ ...query, min_strike: 1, max_expirations: 64 })]);
    expect(hm.valuation).toEqual(lv.valuation);
    const byStrike = new Map<number, number>();
    for (const c of hm.cells) byStrike.set(c.strike, (byStrike.get(c.strike) ?? 0) + c.value);
    for (const x of lv.ranked!.net) near(byStrike.get(x.strike), x.value);
    near(lv.levels.peak_net_exposure!.value, byStrike.get(lv.levels.peak_net_exposure!.strike)!);
    near(
      lv.levels.regime.net,
      hm.cells.reduce((s, c) => s + c.value, 0),
    );
    expect(hm.largest_cell).toEqual(lv.levels.largest_cell);
    const top = [...byStrike].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0]!;
    expect(lv.levels.peak_net_exposure!.strike).toBe(top[0]);
  });

  it('values each contract at the volatility the skew points show: a single call cell is Γ(σ_smile) × open interest × 100', async () => {
    const e = weeklies[1]!;
    const [hm, sk, oi] = await Promise.all([
      okHeatmap({ date_of_expiry: e, unit: 'raw', leg: 'call', min_strike: 1 }),
      skew({ date_of_expiry: e }),
      openInterest({ date_of_expiry: e }),
    ]);
    expect(hm.valuation).toEqual({ ...sk.valuation, open_interest_date: '2026-11-19' });
    const S = sk.valuation.underlying_price!;
    const r = sk.valuation.risk_free_rate!;
    const x = sk.expirations[0]!;
    const T = (Date.parse(`${e}T21:00:00Z`) - sk.valuation.timestamp!) / YEAR_MS;
    const q = r - Math.log(x.forward! / S) / T;
    let checked = 0;
    for (const cell of hm.cells) {
      const point = x.points.find((p) => p.strike === cell.strike)!;
      const callOi = oi.rows.find((row) => row.strike === cell.strike)?.call_open_interest ?? 0;
      near(cell.value, gamma(S, cell.strike, T, r, q, point.smile_implied_volatility!) * callOi * 100, 1e-9);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('leaves out an expiration settled by the valuation instant from levels and greeks: no column of zeros, 422 for 0dte alone (issue 33 §10)', async () => {
    // At the 16:15 close DAY's SPXW series has settled (16:00) and the SPX monthly at the open.
    const settled = await levels({ expiry_mode: '0dte' });
    expect(settled.response.status).toBe(422);
    expect((await heatmap({ expiry_mode: '0dte', metric: 'gamma', min_strike: 1 })).response.status).toBe(422);
    const map = await okHeatmap({ metric: 'gamma' });
    expect(map.cells.length).toBeGreaterThan(0);
    expect(map.cells.filter((c) => c.date_of_expiry === DAY)).toEqual([]);
    // Its open interest and its prints of the day are facts of the date: the observed metrics keep it.
    const oi = await okHeatmap({ expiry_mode: '0dte', metric: 'open_interest', min_strike: 1 });
    const stored = await openInterest({ expiry_mode: '0dte' });
    expect(oi.cells.reduce((sum, c) => sum + c.value, 0)).toBe(stored.totals.call - stored.totals.put);
  });

  it('overnight needs the entitlement and a root with an overnight session', async () => {
    expect((await levels({ session: 'gth' }, basic)).response.status).toBe(403);
    expect((await heatmap({ session: 'gth' }, basic)).response.status).toBe(403);
    expect((await levels({ underlying_symbol: 'AAPL', session: 'gth' })).response.status).toBe(422);
    expect((await heatmap({ date: '2026-11-21' })).response.status).toBe(422);
    expect((await levels({ date_of_expiry: '2026-11-22' })).response.status).toBe(422);
  });

  it('exports levels and the heat map as the routes answer them, and refuses an export the route would refuse', async () => {
    const exported = async (path: string, query: Record<string, unknown>): Promise<unknown> => {
      const created = await createExport({ client: pro, body: { path, query: query } });
      expect(created.response.status, JSON.stringify(created.error)).toBe(202);
      const id = created.data!.data.id;
      await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 60_000 });
      const file = await downloadExport({ client: pro, path: { id }, parseAs: 'text' });
      expect(file.response.status).toBe(200);
      return (JSON.parse(file.data as unknown as string) as { data: unknown }).data;
    };
    const query = { ...base, expirations: weeklies, model: 'flow_adjusted' };
    expect(await exported('/v1/options/levels', query)).toEqual(await okLevels(query));
    expect(await exported('/v1/options/exposure/heatmap', { ...query, metric: 'volume' })).toEqual(
      await okHeatmap({ ...query, metric: 'volume' }),
    );
    const refused = await createExport({
      client: pro,
      body: { path: '/v1/options/exposure/heatmap', query: { ...base, strikes_around: 5, max_strike: 6000 } },
    });
    expect(refused.response.status).toBe(400);
  });

  // The time of a repeated request is measured by bench/positioning; here, that what it sends is right.
  it('answers a repeated SPX request from its memos exactly as it computes it afresh', async () => {
    const query = { include: ['vanna', 'charm', 'delta'] };
    service.deps.memos.clear();
    const levelsFresh = await okLevels(query);
    const heatmapFresh = await okHeatmap({});
    for (let i = 0; i < 3; i++) {
      expect(await okLevels(query)).toEqual(levelsFresh);
      expect(await okHeatmap({})).toEqual(heatmapFresh);
    }
    // Another view of the kept book (another unit) is what a fresh book gives it.
    const perDollar = await okLevels({ ...query, unit: 'per_dollar' });
    service.deps.memos.clear();
    expect(await okLevels({ ...query, unit: 'per_dollar' })).toEqual(perDollar);
  });

  // Last: it changes one contract's open interest (and puts it back).
  it('answers from the data loaded: a load of open interest for the date is seen by the next request of a kept answer', async () => {
    const query = { date_of_expiry: weeklies[0], min_strike: 1, metric: 'open_interest' };
    const before = await okHeatmap(query);
    expect(await okHeatmap(query)).toEqual(before);
    const levelsBefore = await okLevels({ date_of_expiry: weeklies[0] });
    // A call of the expiration with open interest stored for the date the routes read.
    const stored = await sql<{ option_symbol: string; strike: number; date: string; open_interest: number }>`
      select c.option_symbol, c.strike_thousandths / 1000.0 as strike, o.date::text as date, o.open_interest
      from contracts c join open_interest o on o.contract_id = c.id
      where c.root = 'SPXW' and c.date_of_expiry = ${weeklies[0]}::date and c.contract_type = 'call'
        and o.date = (select max(date) from open_interest where date <= ${DAY}::date)
      order by abs(c.strike_thousandths / 1000.0 - ${before.valuation.underlying_price!}) limit 1`.execute(service.database.admin);
    const contract = stored.rows[0]!;
    const strike = Number(contract.strike);
    const cellBefore = before.cells.find((c) => c.strike === strike)!.value;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-oi-'));
    const load = async (openInterest: number): Promise<void> => {
      const file = path.join(dir, `open_interest-${openInterest}.csv`);
      fs.writeFileSync(file, `option_symbol,date,open_interest\n${contract.option_symbol},${contract.date},${openInterest}\n`);
      expect((await loadMarketFile(service.database.admin, 'open_interest', file)).loaded).toBe(1);
    };
    try {
      await load(contract.open_interest + 1234);
      const after = await okHeatmap(query);
      expect(after.cells.find((c) => c.strike === strike)!.value).toBe(cellBefore + 1234);
      // More calls held by customers near the money: the dealers' net gamma moves.
      expect((await okLevels({ date_of_expiry: weeklies[0] })).levels.regime.net).not.toBe(levelsBefore.levels.regime.net);
      await load(contract.open_interest);
      expect(await okHeatmap(query)).toEqual(before);
      expect(await okLevels({ date_of_expiry: weeklies[0] })).toEqual(levelsBefore);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
