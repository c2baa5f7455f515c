/**
 * Key levels and the exposure heat map on a simulated session loaded through ingest. Figures are
 * reproduced from the open-interest and skew routes alone with formulas written out here (the
 * Black-Scholes-Merton gamma at the skew point's smile volatility, the carry of the skew's forward),
 * the heat map and the levels are checked against each other on the same request, and the observed
 * metrics against the stored prints.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getExposureLevels, getOpenInterest, getVolatilitySkew } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { GetExposureLevelsResponse, GetOpenInterestResponse, GetVolatilitySkewResponse } from '../../generated/client/types.gen.js';
import { loadSimulatedMarket, MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
const YEAR_MS = 365 * 86_400_000;
type Levels = GetExposureLevelsResponse['data'];
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
    service = await startTestService({ clock: () => MARKET_NOW, env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' } });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
    await loadSimulatedMarket(service.database.admin, { dates: [DAY] });
    const listed = await sql<{ d: string }>`
      select date_of_expiry::text as d from contracts where root in ('SPX', 'SPXW') and date_of_expiry > ${DAY}::date group by 1
      having bool_and(root = 'SPXW') and bool_or(root = 'SPXW') order by 1 limit 2`.execute(service.database.admin);
    weeklies = listed.rows.map((r) => r.d);
    expect(weeklies).toHaveLength(2);
  });
  afterAll(async () => service.stop());

  const base = { underlying_symbol: 'SPX', date: DAY };
  const levels = async (query: Record<string, unknown>, client = pro) => await getExposureLevels({ client, query: { ...base, ...query } });
  const okLevels = async (query: Record<string, unknown>): Promise<Levels> => {
    const r = await levels(query);
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };
  const openInterest = async (query: Record<string, unknown>): Promise<OpenInterest> => (await getOpenInterest({ client: pro, query: { ...base, ...query } })).data!.data;
  const skew = async (query: Record<string, unknown>): Promise<Skew> => (await getVolatilitySkew({ client: pro, query: { ...base, ...query } })).data!.data;

  it('values the SPX family at the close: both roots, the previous close open interest, the model named', async () => {
    const started = performance.now();
    const data = await okLevels({ include: ['vanna', 'charm', 'delta'] });
    const elapsed = performance.now() - started;
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
    console.info(`levels SPX (family, every expiration, include=vanna,charm,delta): ${elapsed.toFixed(0)} ms first call`);
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
    const ranked = [...byStrike].filter(([, v]) => v !== 0).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 5);
    expect(data.ranked!.net.map((x) => x.strike)).toEqual(ranked.map(([k]) => k));
    data.ranked!.net.forEach((x, i) => near(x.value, ranked[i]![1]));
    near(data.levels.regime.net, [...byStrike.values()].reduce((s, v) => s + v, 0));
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

  it('overnight needs the entitlement and a root with an overnight session', async () => {
    expect((await levels({ session: 'gth' }, basic)).response.status).toBe(403);
    expect((await levels({ underlying_symbol: 'AAPL', session: 'gth' })).response.status).toBe(422);
    expect((await levels({ date_of_expiry: '2026-11-22' })).response.status).toBe(422);
  });

});
