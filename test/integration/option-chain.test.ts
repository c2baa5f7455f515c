/**
 * GET /v1/options/chain (issue 36 §4) on a small simulated market loaded through ingest, each answer
 * checked against a recomputation from the stored rows: plain SQL over contracts, quote_samples,
 * prints and open_interest, written here; the volatility checked by repricing the served mid with
 * Black-76 at the served forward (pricing.ts bsmPrice with spot = F, q = r), the forward against the
 * skew route's, the valuation against the levels route's of the same instant.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExport,
  downloadExport,
  getExport,
  getExposureLevels,
  getOptionChain,
  getVolatilitySkew,
} from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { GetOptionChainData, OptionChainContract } from '../../generated/client/types.gen.js';
import { bsmGreeks, bsmPrice } from '../../src/analytics/pricing.js';
import { MS_PER_YEAR, settlementInstant } from '../../src/analytics/settlement.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';
/** 11:00 ET on DAY: a session in progress at that instant. */
const AT = Date.parse(`${DAY}T16:00:00Z`);

type Query = NonNullable<GetOptionChainData['query']>;

describe('GET /v1/options/chain', () => {
  let service: TestService;
  let client: Client;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [PREVIOUS, DAY] },
      clock: () => MARKET_NOW,
      jobs: true,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client } = await service.newAccount({ plan: 'pro' }));
  });
  afterAll(async () => service.stop());

  /** Every page of the query, followed by its cursor. */
  async function walk(query: Query): Promise<{ rows: OptionChainContract[]; pages: number }> {
    const rows: OptionChainContract[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await getOptionChain({ client, query: { ...query, ...(cursor ? { cursor_id: cursor } : {}) } });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      const body = r.data!;
      pages += 1;
      expect(body.pagination.count).toBe(body.data.length);
      rows.push(...body.data);
      if (body.pagination.next_cursor_id === null) return { rows, pages };
      cursor = body.pagination.next_cursor_id;
    }
  }

  interface StoredRow {
    id: string;
    option_symbol: string;
    root: string;
    contract_type: 'call' | 'put';
    date_of_expiry: string;
    strike: number;
    bid: number | null;
    ask: number | null;
    bid_size: number | null;
    ask_size: number | null;
    quote_ts: string | null;
    volume: string;
    last_price: number | null;
    last_size: number | null;
    last_ts: string | null;
    open_interest: string | null;
  }

  /**
   * The family's listed contracts with, at valuation time T (a minute's end): the newest sample of
   * the minutes [T − 1 min − 30 min, T), the session's regular prints before T and the open interest
   * of the newest date the family has one for, up to the trading date.
   */
  async function stored(roots: string[], t: number): Promise<StoredRow[]> {
    const result = await sql<StoredRow>`
      with oi_date as (
        select max(o.date) as d from open_interest o join contracts c on c.id = o.contract_id
        where c.root = any(${roots}::text[]) and o.date <= ${DAY}::date and o.date >= ${DAY}::date - 10
      )
      select c.id::text as id, c.option_symbol, c.root, c.contract_type, c.date_of_expiry::text as date_of_expiry,
        (c.strike_thousandths::numeric / 1000)::float8 as strike,
        q.bid, q.ask, q.bid_size, q.ask_size, q.quote_ts::text as quote_ts,
        (select coalesce(sum(p.size), 0) from prints p where p.trading_date = ${DAY}::date and p.contract_id = c.id
          and p.session = 'rth' and not p.cancelled and p.ts < ${t}::int8)::text as volume,
        l.price as last_price, l.size as last_size, l.ts::text as last_ts,
        (select o.open_interest from open_interest o where o.contract_id = c.id and o.date = (select d from oi_date))::text as open_interest
      from contracts c
      left join lateral (
        select s.bid, s.ask, s.bid_size, s.ask_size, s.quote_ts from quote_samples s
        where s.trading_date = ${DAY}::date and s.contract_id = c.id
          and s.minute >= ${t - 60_000 - 30 * 60_000}::int8 and s.minute < ${t}::int8 and s.quote_ts < ${t}::int8
        order by s.minute desc limit 1
      ) q on true
      left join lateral (
        select p.price, p.size, p.ts from prints p where p.trading_date = ${DAY}::date and p.contract_id = c.id
          and p.session = 'rth' and not p.cancelled and p.ts < ${t}::int8
        order by p.ts desc, p.sequence desc limit 1
      ) l on true
      where c.root = any(${roots}::text[]) and c.date_of_expiry >= ${DAY}::date
      order by c.root, c.date_of_expiry, c.contract_type, c.strike_thousandths`.execute(service.database.admin);
    return result.rows;
  }

  it('serves every listed contract of the family at the minute of `at`, equal to the stored rows, across pages', async () => {
    const { rows, pages } = await walk({ underlying_symbol: 'spy', at: AT, limit: 97 });
    expect(pages).toBeGreaterThan(1);
    const valuation = rows[0]!.valuation;
    for (const r of rows) expect(r.valuation).toEqual(valuation);
    const t = valuation.timestamp!;
    expect(t).toBeLessThanOrEqual(AT);
    expect(t % 60_000).toBe(0);
    expect(AT - t).toBeLessThan(30 * 60_000);

    // The same book as the levels route of the instant.
    const levels = await getExposureLevels({ client, query: { underlying_symbol: 'SPY', at: AT } });
    expect(levels.response.status, JSON.stringify(levels.error)).toBe(200);
    expect(valuation).toEqual(levels.data!.data.valuation);

    const want = await stored(['SPY'], t);
    expect(want.length).toBeGreaterThan(100);
    expect(rows.map((r) => r.option_symbol)).toEqual(want.map((w) => w.option_symbol));
    let quoted = 0;
    let traded = 0;
    for (const [i, w] of want.entries()) {
      const r = rows[i]!;
      expect({ root: r.root, type: r.contract_type, date: r.date_of_expiry, strike: r.strike }).toEqual({
        root: w.root,
        type: w.contract_type,
        date: w.date_of_expiry,
        strike: w.strike,
      });
      expect([r.bid, r.ask, r.bid_size, r.ask_size, r.quote_timestamp]).toEqual([
        w.bid,
        w.ask,
        w.bid_size,
        w.ask_size,
        w.quote_ts === null ? null : Number(w.quote_ts),
      ]);
      expect(r.volume).toBe(Number(w.volume));
      expect(r.open_interest).toBe(w.open_interest === null ? null : Number(w.open_interest));
      expect(r.last_trade).toEqual(w.last_ts === null ? null : { price: w.last_price, size: w.last_size, timestamp: Number(w.last_ts) });
      if (w.last_ts !== null) traded += 1;
      const mid = w.bid !== null && w.ask !== null && w.bid > 0 && w.ask >= w.bid ? (w.bid + w.ask) / 2 : null;
      expect(r.mid).toBe(mid);
      if (r.implied_volatility === null) continue;
      quoted += 1;
      // Black-76 on the served forward: the volatility reprices the mid.
      const F = r.forward!;
      const rate = valuation.risk_free_rate!;
      const time = (settlementInstant(w.root, w.date_of_expiry) - t) / MS_PER_YEAR;
      const spot = valuation.underlying_price!;
      const price = bsmPrice({
        type: w.contract_type,
        spot: F,
        strike: w.strike,
        time,
        rate,
        dividendYield: rate,
        volatility: r.implied_volatility,
      });
      expect(Math.abs(price - mid!)).toBeLessThan(1e-6 * Math.max(1, mid!));
      // Spot greeks on the carry the forward implies.
      const q = rate - Math.log(F / spot) / time;
      const input = { type: w.contract_type, spot, strike: w.strike, time, rate, dividendYield: q, volatility: r.implied_volatility };
      const g = bsmGreeks(input);
      expect(r.delta).toBeCloseTo(g.delta, 12);
      expect(r.gamma).toBeCloseTo(g.gamma, 12);
      expect(r.vega).toBeCloseTo(g.vega / 100, 12);
      expect(r.theta).toBeCloseTo(bsmPrice({ ...input, time: time - 1 / 365 }) - g.price, 10);
      expect(Math.sign(r.delta!)).toBe(w.contract_type === 'call' ? 1 : -1);
    }
    expect(quoted).toBeGreaterThan(want.length / 2);
    expect(traded).toBeGreaterThan(0);

    // The forward of a date is the skew route's for the same instant.
    const date = rows.find((r) => r.forward !== null)!.date_of_expiry;
    const skew = await getVolatilitySkew({ client, query: { underlying_symbol: 'SPY', at: AT, date_of_expiry: date } });
    expect(skew.response.status, JSON.stringify(skew.error)).toBe(200);
    expect(rows.find((r) => r.date_of_expiry === date)!.forward).toBe(skew.data!.data.expirations[0]!.forward);
  });

  it('filters by expiration, strike, type and moneyness, and pages the filtered rows', async () => {
    const all = (await walk({ underlying_symbol: 'SPY', at: AT, limit: 1000 })).rows;
    const date = all.find((r) => r.forward !== null)!.date_of_expiry;
    const strikes = [...new Set(all.filter((r) => r.date_of_expiry === date).map((r) => r.strike))].sort((a, b) => a - b);
    const lo = strikes[Math.floor(strikes.length / 4)]!;
    const hi = strikes[Math.floor((3 * strikes.length) / 4)]!;
    const query = { underlying_symbol: 'SPY', at: AT, date_of_expiry: date, min_strike: lo, max_strike: hi } as const;
    const filtered = all.filter((r) => r.date_of_expiry === date && r.strike >= lo && r.strike <= hi);
    expect((await walk({ ...query, limit: 7 })).rows).toEqual(filtered);
    expect((await walk({ ...query, contract_type: 'put' })).rows).toEqual(filtered.filter((r) => r.contract_type === 'put'));
    const otm = (r: OptionChainContract): boolean => (r.contract_type === 'call' ? r.strike >= r.forward! : r.strike <= r.forward!);
    const otmRows = (await walk({ ...query, moneyness: 'otm' })).rows;
    expect(otmRows).toEqual(filtered.filter(otm));
    expect(otmRows.length).toBeGreaterThan(0);
    expect((await walk({ ...query, moneyness: 'itm' })).rows).toEqual(filtered.filter((r) => !otm(r)));
    const later = all.filter((r) => r.date_of_expiry > date).map((r) => r.date_of_expiry)[0]!;
    expect((await walk({ underlying_symbol: 'SPY', at: AT, min_date_of_expiry: later, limit: 1000 })).rows).toEqual(
      all.filter((r) => r.date_of_expiry >= later),
    );
  });

  it('refuses what the rules refuse and answers 422 when nothing matches', async () => {
    const status = async (query: Query) => (await getOptionChain({ client, query })).response.status;
    expect(await status({ at: AT } as Query)).toBe(400);
    expect(await status({ underlying_symbol: 'SPY', date_of_expiry: DAY, min_date_of_expiry: DAY })).toBe(400);
    expect(await status({ underlying_symbol: 'SPY', min_strike: 600, max_strike: 500 })).toBe(400);
    expect(await status({ underlying_symbol: 'SPY', moneyness: 'deep' as 'otm' })).toBe(400);
    expect(await status({ underlying_symbol: 'SPY', at: AT, root: 'SPXW' })).toBe(422);
    expect(await status({ underlying_symbol: 'SPY', at: AT, min_strike: 999_999 })).toBe(422);
    expect(await status({ underlying_symbol: 'ZZZ', at: AT })).toBe(422);
    // Before the regular session's open: the previous session's close, as the levels route reads it.
    const early = Date.parse(`${DAY}T14:00:00Z`);
    const before = await getOptionChain({ client, query: { underlying_symbol: 'SPY', at: early, limit: 1 } });
    const levels = await getExposureLevels({ client, query: { underlying_symbol: 'SPY', at: early } });
    expect(before.data!.data[0]!.valuation).toEqual(levels.data!.data.valuation);
    expect(before.data!.data[0]!.valuation.timestamp).toBeLessThan(Date.parse(`${PREVIOUS}T23:59:59Z`));
    expect(before.data!.data[0]!.valuation.timestamp).toBeGreaterThan(Date.parse(`${PREVIOUS}T14:30:00Z`));
  });

  it('exports the whole chain of an instant into one file, every page at the same minute', async () => {
    const want = (await walk({ underlying_symbol: 'SPY', at: AT, limit: 1000 })).rows;
    const created = await createExport({
      client,
      body: { path: '/v1/options/chain', query: { underlying_symbol: 'SPY', at: AT, limit: 100_000 } },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 60_000 });
    expect((await getExport({ client, path: { id } })).data!.data).toMatchObject({ status: 'ready', rows: want.length, truncated: false });
    const file = await downloadExport({ client, path: { id }, parseAs: 'json' });
    expect((file.data as { data: OptionChainContract[] }).data).toEqual(want);
  });
});
