/**
 * The open-interest route on a simulated session loaded through ingest: every selector checked
 * against the stored open interest filtered and summed here, by the spec's definitions, not with the
 * route's own code.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getOpenInterest } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { GetOpenInterestResponse } from '../../generated/client/types.gen.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
/** 16:15 ET on DAY, the close of SPX options. */
const CLOSE = Date.parse('2026-11-20T21:15:00Z');
type OpenInterest = GetOpenInterestResponse['data'];

interface Stored {
  root: string;
  d: string;
  type: 'call' | 'put';
  strike: number;
  oi: number;
}

const dte = (d: string): number => Math.round((Date.parse(d) - Date.parse(DAY)) / 86_400_000);

describe('open interest', () => {
  let service: TestService;
  let client: Client;
  let stored: Stored[];
  let spot: number;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      clock: () => MARKET_NOW,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client } = await service.newAccount({ plan: 'pro' }));
    const rows = await sql<Stored>`
      select c.root, c.date_of_expiry::text as d, c.contract_type as type, c.strike_thousandths / 1000.0 as strike, o.open_interest as oi
      from contracts c join open_interest o on o.contract_id = c.id and o.date = ${DAY}::date
      where c.root in ('SPX', 'SPXW') and c.date_of_expiry >= ${DAY}::date`.execute(service.database.admin);
    stored = rows.rows.map((r) => ({ ...r, strike: Number(r.strike), oi: Number(r.oi) }));
    const bar = await sql<{ close: number }>`
      select close from underlying_bars where symbol = 'SPX' and ts <= ${CLOSE - 60_000}::int8 order by ts desc limit 1`.execute(
      service.database.admin,
    );
    spot = bar.rows[0]!.close;
  });
  afterAll(async () => service.stop());

  const ask = async (query: Record<string, unknown>) =>
    await getOpenInterest({ client, query: { underlying_symbol: 'SPX', date: DAY, ...query } });
  const ok = async (query: Record<string, unknown>): Promise<OpenInterest> => {
    const r = await ask(query);
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };

  /** The rows and totals the spec defines, from the stored contracts kept. */
  const expected = (kept: readonly Stored[], groupBy: 'strike' | 'expiration' = 'strike') => {
    const by = new Map<string | number, { call: number; put: number }>();
    for (const c of kept) {
      const key = groupBy === 'strike' ? c.strike : c.d;
      const row = by.get(key) ?? { call: 0, put: 0 };
      row[c.type] += c.oi;
      by.set(key, row);
    }
    const keys = [...by.keys()].sort((a, b) => (typeof a === 'number' ? a - (b as number) : a < b ? -1 : 1));
    const rows = keys.map((k) => ({
      ...(groupBy === 'strike' ? { strike: k } : { date_of_expiry: k }),
      call_open_interest: by.get(k)!.call,
      put_open_interest: by.get(k)!.put,
      total_open_interest: by.get(k)!.call + by.get(k)!.put,
    }));
    const call = kept.filter((c) => c.type === 'call').reduce((s, c) => s + c.oi, 0);
    const put = kept.filter((c) => c.type === 'put').reduce((s, c) => s + c.oi, 0);
    return { rows, totals: { call, put, put_call_ratio: call > 0 ? put / call : null } };
  };
  const dates = (): string[] => [...new Set(stored.map((c) => c.d))].sort();

  it('sums the family by strike: SPX and SPXW, every listed expiration, the previous close named', async () => {
    const data = await ok({});
    expect(data).toMatchObject({
      group_by: 'strike',
      trading_date: DAY,
      underlying_symbol: 'SPX',
      open_interest_date: '2026-11-19',
      underlying_price: spot,
    });
    expect(data.roots).toEqual([...new Set(stored.map((c) => c.root))].sort());
    expect(data.roots).toContain('SPXW');
    expect({ rows: data.rows, totals: data.totals }).toEqual(expected(stored));
    expect(data.totals.call).toBeGreaterThan(0);
  });

  it('groups by expiration, and a weekly root alone covers only itself', async () => {
    const data = await ok({ group_by: 'expiration' });
    expect({ rows: data.rows, totals: data.totals }).toEqual(expected(stored, 'expiration'));
    expect(data.rows.every((r) => r.strike === undefined)).toBe(true);
    const weekly = await ok({ underlying_symbol: 'spxw', group_by: 'expiration' });
    expect(weekly.roots).toEqual(['SPXW']);
    expect({ rows: weekly.rows, totals: weekly.totals }).toEqual(
      expected(
        stored.filter((c) => c.root === 'SPXW'),
        'expiration',
      ),
    );
  });

  it('keeps the expirations of each expiry_mode', async () => {
    const all = dates();
    const modes: [string, (d: string) => boolean][] = [
      ['0dte', (d) => d === DAY],
      ['1dte', (d) => d === all.find((x) => x > DAY)],
      ['weekly', (d) => dte(d) <= 7],
      // Third Fridays (2026-11-20 is DAY), but Friday 2027-06-18 is Juneteenth: June's is Thursday the 17th.
      [
        'monthly',
        (d) =>
          d === '2027-06-17' ||
          (d !== '2027-06-18' && new Date(`${d}T00:00:00Z`).getUTCDay() === 5 && Number(d.slice(8)) >= 15 && Number(d.slice(8)) <= 21),
      ],
      ['lte30', (d) => dte(d) <= 30],
      ['lte90', (d) => dte(d) <= 90],
    ];
    for (const [mode, keep] of modes) {
      const data = await ok({ expiry_mode: mode, group_by: 'expiration' });
      const kept = stored.filter((c) => keep(c.d));
      expect(kept.length, mode).toBeGreaterThan(0);
      expect(
        data.rows.map((r) => r.date_of_expiry),
        mode,
      ).toEqual([...new Set(kept.map((c) => c.d))].sort());
      expect(data.totals, mode).toEqual(expected(kept).totals);
    }
  });

  it('applies date_of_expiry, expirations (unlisted ignored) and dte bounds together', async () => {
    const all = dates();
    const one = await ok({ date_of_expiry: all[2] });
    expect({ rows: one.rows, totals: one.totals }).toEqual(expected(stored.filter((c) => c.d === all[2])));
    const listed = await ok({ expirations: [all[1], '2026-11-22', all[3]], group_by: 'expiration' });
    expect(listed.rows.map((r) => r.date_of_expiry)).toEqual([all[1], all[3]]);
    const bounded = await ok({ min_dte: 1, max_dte: 10 });
    expect({ rows: bounded.rows, totals: bounded.totals }).toEqual(expected(stored.filter((c) => dte(c.d) >= 1 && dte(c.d) <= 10)));
    const both = await ok({ expiry_mode: 'lte30', min_dte: 5, group_by: 'expiration' });
    expect(both.rows.map((r) => r.date_of_expiry)).toEqual(all.filter((d) => dte(d) >= 5 && dte(d) <= 30));
  });

  it('narrows strikes by bounds, strikes_around the nearest strike and a percent window, all together', async () => {
    const strikes = [...new Set(stored.map((c) => c.strike))].sort((a, b) => a - b);
    const bounded = await ok({ min_strike: 6000, max_strike: 6500 });
    expect({ rows: bounded.rows, totals: bounded.totals }).toEqual(expected(stored.filter((c) => c.strike >= 6000 && c.strike <= 6500)));

    let centre = 0;
    strikes.forEach((k, i) => {
      if (Math.abs(k - spot) < Math.abs(strikes[centre]! - spot)) centre = i;
    });
    const around = strikes.slice(Math.max(0, centre - 5), centre + 6);
    const five = await ok({ strikes_around: 5 });
    expect(five.rows.map((r) => r.strike)).toEqual(around);
    expect(five.totals).toEqual(expected(stored.filter((c) => around.includes(c.strike))).totals);

    const window = await ok({ strike_percent_window: 2 });
    const inside = stored.filter((c) => Math.abs(c.strike - spot) <= 0.02 * spot);
    expect({ rows: window.rows, totals: window.totals }).toEqual(expected(inside));

    const all = await ok({ strikes_around: 20, strike_percent_window: 1, max_strike: spot });
    const near = strikes.slice(Math.max(0, centre - 20), centre + 21);
    expect(all.rows.map((r) => r.strike)).toEqual(near.filter((k) => Math.abs(k - spot) <= 0.01 * spot && k <= spot));
  });

  it('refuses crossed bounds and values out of range (400), answers 422 where nothing is published', async () => {
    expect((await ask({ min_dte: 9, max_dte: 2 })).response.status).toBe(400);
    expect((await ask({ min_strike: 6500, max_strike: 6000 })).response.status).toBe(400);
    expect((await ask({ strikes_around: 501 })).response.status).toBe(400);
    expect((await ask({ strike_percent_window: 0.05 })).response.status).toBe(400);
    expect((await ask({ session: 'rth' })).response.status).toBe(400);
    expect((await ask({ date: '2026-11-19' })).response.status).toBe(422);
    expect((await ask({ date: '2026-11-21' })).response.status).toBe(422);
    expect((await ask({ underlying_symbol: 'ZZZZ' })).response.status).toBe(422);
    expect((await ask({ date_of_expiry: '2026-11-22' })).response.status).toBe(422);
    // A strike selection that keeps no contract is an empty selection too (issue 33 §7).
    const noStrike = await ask({ min_strike: 1_000_000 });
    expect(noStrike.response.status).toBe(422);
    expect(noStrike.error?.error.code).toBe('no_data');
    expect((await ask({ max_strike: 1 })).response.status).toBe(422);
  });
});
