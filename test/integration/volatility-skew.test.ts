/**
 * The volatility skew route on a simulated session loaded through ingest: which chain, instant and
 * expirations it values, and its figures checked against the stored quotes and bars with formulas
 * written out here (Black-76 repricing, put-call parity, spot delta, interpolation in delta), not
 * with the route's own code.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getVolatilitySkew } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { GetVolatilitySkewResponse } from '../../generated/client/types.gen.js';
import { bsmPrice, normCdf } from '../../src/analytics/pricing.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const YEAR_MS = 365 * 86_400_000;
/** 16:15 ET on DAY, the close of SPX options; the session's last snapshot is the minute before. */
const CLOSE = Date.parse('2026-11-20T21:15:00Z');
/** 16:00 ET on DAY, the index's regular close. */
const REGULAR_CLOSE = Date.parse('2026-11-20T21:00:00Z');
type Skew = GetVolatilitySkewResponse['data'];
type Expiration = Skew['expirations'][number];

interface StoredQuote {
  strike: number;
  type: 'call' | 'put';
  bid: number | null;
  ask: number | null;
  quote_ts: number;
}

describe('volatility skew', () => {
  let service: TestService;
  let pro: Client;
  let basic: Client;
  let now = MARKET_NOW;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      jobs: true,
      clock: () => now,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
  });
  afterAll(async () => service.stop());

  const skew = async (query: Record<string, unknown>, at = MARKET_NOW, client = pro) => {
    now = at;
    return await getVolatilitySkew({ client, query: query as never });
  };
  const ok = async (query: Record<string, unknown>, at = MARKET_NOW): Promise<Skew> => {
    const r = await skew(query, at);
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };

  /** Each contract's last sample at or before a minute, as the route should read the chain. */
  const storedChain = async (root: string, expiry: string, minute: number): Promise<StoredQuote[]> => {
    const result = await sql<StoredQuote>`
      select distinct on (c.id) c.strike_thousandths / 1000.0 as strike, c.contract_type as type, q.bid, q.ask, q.quote_ts
      from contracts c join quote_samples q on q.contract_id = c.id and q.trading_date = ${DAY}::date
      where c.root = ${root} and c.date_of_expiry = ${expiry}::date and q.minute <= ${minute}::int8 and q.minute >= ${minute - 30 * 60_000}::int8
      order by c.id, q.minute desc`.execute(service.database.admin);
    return result.rows.map((r) => ({ ...r, strike: Number(r.strike), quote_ts: Number(r.quote_ts) }));
  };
  const midOf = (q: StoredQuote | undefined): number | null =>
    q && q.bid !== null && q.ask !== null && q.bid > 0 && q.ask >= q.bid ? (q.bid + q.ask) / 2 : null;
  /** Years from the valuation to a PM settlement at 16:00 ET (EST, UTC−5). */
  const yearsToPm = (expiry: string, from: number): number => (Date.parse(`${expiry}T21:00:00Z`) - from) / YEAR_MS;

  it('values the close of a completed session: the nearest four expirations settling an hour after it, SPXW chains, SPX bars', async () => {
    const data = await ok({ underlying_symbol: 'spx' });
    const listed = await sql<{ d: string }>`
      select distinct date_of_expiry::text as d from contracts where root in ('SPX', 'SPXW') and date_of_expiry > ${DAY}::date order by 1 limit 4`.execute(
      service.database.admin,
    );
    // DAY's own SPXW series settled at 16:00, before the 16:15 close: it is not among them.
    expect(data.expirations.map((e) => e.date_of_expiry)).toEqual(listed.rows.map((r) => r.d));
    expect(data.expirations.every((e) => e.root === 'SPXW')).toBe(true);
    expect(data).toMatchObject({ underlying_symbol: 'SPX', session: 'rth', trading_date: DAY, roots: ['SPXW'] });
    expect(data.expirations.map((e) => e.days_to_expiry)).toEqual(
      listed.rows.map((r) => Math.round((Date.parse(r.d) - Date.parse(DAY)) / 86_400_000)),
    );

    // The index has no price after its 16:00 close: none of its bars is stored after it, and the
    // 16:15 valuation reads the close (the 15:59 bar), saying so.
    const bar = await sql<{ ts: number; close: number }>`
      select ts, close from underlying_bars where symbol = 'SPX' and ts <= ${CLOSE - 60_000}::int8 order by ts desc limit 1`.execute(
      service.database.admin,
    );
    expect(Number(bar.rows[0]!.ts)).toBe(REGULAR_CLOSE - 60_000);
    expect(data.valuation).toMatchObject({
      timestamp: CLOSE,
      underlying_price: bar.rows[0]!.close,
      underlying_source: 'regular_close',
      underlying_timestamp: REGULAR_CLOSE - 60_000,
      underlying_stale: false,
      open_interest_date: null,
    });
    expect(data.valuation.risk_free_rate).toBeGreaterThan(0.01);
    const chain = await storedChain('SPXW', data.expirations[0]!.date_of_expiry, CLOSE - 60_000);
    expect(data.valuation.chain_timestamp).toBeLessThanOrEqual(CLOSE);
    expect(data.valuation.chain_timestamp).toBeGreaterThanOrEqual(Math.max(...chain.map((q) => q.quote_ts)));
  });

  describe('figures of an expiration, against the stored chain', () => {
    let data: Skew;
    let e: Expiration;
    let chain: StoredQuote[];
    let T: number;
    let r: number;
    let F: number;
    let S: number;

    beforeAll(async () => {
      data = await ok({ underlying_symbol: 'SPX' });
      e = data.expirations[1]!;
      chain = await storedChain('SPXW', e.date_of_expiry, CLOSE - 60_000);
      T = yearsToPm(e.date_of_expiry, data.valuation.timestamp!);
      r = data.valuation.risk_free_rate!;
      F = e.forward!;
      S = data.valuation.underlying_price!;
    });

    const quoted = (strike: number, type: 'call' | 'put'): StoredQuote | undefined =>
      chain.find((q) => q.strike === strike && q.type === type);

    it('lists every quoted strike once, ascending, with moneyness ln(K/F)', () => {
      const strikes = [...new Set(chain.map((q) => q.strike))].sort((a, b) => a - b);
      expect(e.points.map((p) => p.strike)).toEqual(strikes);
      for (const p of e.points) expect(p.moneyness).toBeCloseTo(Math.log(p.strike / F), 12);
    });

    it('solves each leg so that Black-76 on the forward reprices the stored mid', () => {
      let checked = 0;
      for (const p of e.points) {
        for (const [type, vol] of [
          ['call', p.call_implied_volatility],
          ['put', p.put_implied_volatility],
        ] as const) {
          const mid = midOf(quoted(p.strike, type));
          if (vol === null) continue;
          expect(mid).not.toBeNull();
          const price = bsmPrice({ type, spot: F, strike: p.strike, time: T, rate: r, dividendYield: r, volatility: vol });
          expect(Math.abs(price - mid!)).toBeLessThan(1e-6 * Math.max(1, mid!));
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(100);
    });

    it('gives spot deltas with the dividend yield the forward implies, and the out-of-the-money leg', () => {
      const carry = (F * Math.exp(-r * T)) / S; // e^{−qT}
      for (const p of e.points) {
        if (p.call_implied_volatility !== null) {
          const v = p.call_implied_volatility * Math.sqrt(T);
          expect(p.call_delta).toBeCloseTo(carry * normCdf(Math.log(F / p.strike) / v + v / 2), 9);
        }
        if (p.put_implied_volatility !== null) {
          const v = p.put_implied_volatility * Math.sqrt(T);
          expect(p.put_delta).toBeCloseTo(-carry * normCdf(-(Math.log(F / p.strike) / v + v / 2)), 9);
        }
        expect(p.otm_implied_volatility).toBe(p.strike < F ? p.put_implied_volatility : p.call_implied_volatility);
      }
    });

    it('has a forward that put-call parity gives at the strikes nearest it', () => {
      const near = e.points
        .filter((p) => midOf(quoted(p.strike, 'call')) !== null && midOf(quoted(p.strike, 'put')) !== null)
        .sort((a, b) => Math.abs(a.strike - F) - Math.abs(b.strike - F))
        .slice(0, 3);
      expect(near.length).toBe(3);
      for (const p of near) {
        const parity = p.strike + Math.exp(r * T) * (midOf(quoted(p.strike, 'call'))! - midOf(quoted(p.strike, 'put'))!);
        expect(Math.abs(parity - F) / F).toBeLessThan(2e-4);
      }
    });

    it('has delta measures that the points interpolated in delta reproduce', () => {
      // Linear interpolation of the quoted volatilities in delta, independent of the smile.
      const interpolate = (pairs: [number, number][], x: number): number => {
        const sorted = pairs.sort((a, b) => a[0] - b[0]);
        const i = sorted.findIndex((p) => p[0] >= x);
        const [x0, y0] = sorted[i - 1]!;
        const [x1, y1] = sorted[i]!;
        return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
      };
      const calls = e.points
        .filter((p) => p.strike >= F && p.call_delta !== null)
        .map((p) => [p.call_delta!, p.call_implied_volatility!] as [number, number]);
      const puts = e.points
        .filter((p) => p.strike < F && p.put_delta !== null)
        .map((p) => [p.put_delta!, p.put_implied_volatility!] as [number, number]);
      const c25 = interpolate(calls, 0.25);
      const p25 = interpolate(puts, -0.25);
      const c10 = interpolate(calls, 0.1);
      const p10 = interpolate(puts, -0.1);
      const atm = interpolate(
        e.points.map((p) => [p.moneyness!, p.otm_implied_volatility!] as [number, number]).filter((p) => p[1] !== null),
        0,
      );
      // Within a fifth of a volatility point: the smile passes through the quotes to about that.
      expect(Math.abs(e.atm_implied_volatility! - atm)).toBeLessThan(0.002);
      expect(Math.abs(e.risk_reversal_25d! - (c25 - p25))).toBeLessThan(0.002);
      expect(Math.abs(e.butterfly_25d! - ((c25 + p25) / 2 - atm))).toBeLessThan(0.002);
      expect(Math.abs(e.risk_reversal_10d! - (c10 - p10))).toBeLessThan(0.003);
      expect(Math.abs(e.butterfly_10d! - ((c10 + p10) / 2 - atm))).toBeLessThan(0.003);
      expect(e.normalized_skew).toBeCloseTo(e.risk_reversal_25d! / e.atm_implied_volatility!, 12);
      // The simulated index smile slopes down: puts over calls.
      expect(e.risk_reversal_25d!).toBeLessThan(0);
      expect(e.slope!).toBeLessThan(0);
    });

    it('says how its smile was fitted, within the quoted spreads where it fits', () => {
      for (const x of data.expirations) {
        expect(x.fit).not.toBeNull();
        const fit = x.fit!;
        const otm = x.points.filter((p) => p.otm_implied_volatility !== null).length;
        expect(fit.quotes_used).toBe(otm);
        expect(fit.quotes_within_spread).toBeLessThanOrEqual(fit.quotes_used);
        expect(fit.rmse_vol_points).toBeLessThanOrEqual(fit.max_abs_error_vol_points + 1e-12);
        expect(fit.fallback_reason === null).toBe(fit.method === 'svi');
        if (fit.method === 'svi') {
          expect(fit.butterfly_ok).toBe(true);
          expect(fit.rmse_vol_points).toBeLessThan(1);
          expect(fit.quotes_within_spread / fit.quotes_used).toBeGreaterThan(0.8);
        }
      }
      expect(data.expirations.some((x) => x.fit?.method === 'svi')).toBe(true);
    });
  });

  it('values a running session at the last whole-chain minute before now, the 0DTE series while it has an hour left', async () => {
    // 11:07:30 ET: the 11:00 snapshot is the last of the whole chain; strikes near the money have later samples.
    const at = Date.parse('2026-11-20T16:07:30Z');
    const data = await ok({ underlying_symbol: 'SPX', date: DAY }, at);
    expect(data.valuation.timestamp).toBe(Date.parse('2026-11-20T16:01:00Z'));
    expect(data.valuation.chain_timestamp).toBeLessThanOrEqual(data.valuation.timestamp!);
    expect(data.valuation.underlying_timestamp).toBe(Date.parse('2026-11-20T16:00:00Z'));
    expect(data.expirations[0]).toMatchObject({ date_of_expiry: DAY, days_to_expiry: 0, root: 'SPXW' });
    // 15:01 ET: 59 minutes to the 16:00 settlement, the series gives way.
    const late = await ok({ underlying_symbol: 'SPX', date: DAY }, Date.parse('2026-11-20T20:01:30Z'));
    expect(late.expirations[0]!.date_of_expiry).not.toBe(DAY);
    expect(late.expirations).toHaveLength(4);
  });

  it('names expirations: one, a list with unlisted dates left out, the later-settling root of a shared date', async () => {
    const all = await ok({ underlying_symbol: 'SPX' });
    const second = all.expirations[1]!.date_of_expiry;
    const one = await ok({ underlying_symbol: 'SPX', date_of_expiry: second });
    expect(one.expirations.map((e) => e.date_of_expiry)).toEqual([second]);
    expect(one.expirations[0]!.points).toEqual(all.expirations[1]!.points);

    const monthly = await sql<{ d: string }>`
      select date_of_expiry::text as d from contracts where root = 'SPX' and date_of_expiry > ${DAY}::date
      intersect select date_of_expiry::text from contracts where root = 'SPXW' order by 1 limit 1`.execute(service.database.admin);
    const shared = monthly.rows[0]!.d;
    const list = await ok({ underlying_symbol: 'SPX', expirations: [shared, '2099-01-02', second] });
    expect(list.expirations.map((e) => [e.date_of_expiry, e.root])).toEqual([
      [second, 'SPXW'],
      [shared, 'SPXW'],
    ]);
    // A weekly root named alone covers only itself.
    expect((await ok({ underlying_symbol: 'SPXW', expirations: [shared] })).roots).toEqual(['SPXW']);

    const settled = await skew({ underlying_symbol: 'SPX', date_of_expiry: DAY });
    expect(settled.response.status).toBe(422);
    const unlisted = await skew({ underlying_symbol: 'SPX', expirations: ['2099-01-02'] });
    expect(unlisted.response.status).toBe(422);
  });

  it('refuses date_of_expiry with expirations, and a ninth expiration, naming the parameters', async () => {
    const both = await skew({ underlying_symbol: 'SPX', date_of_expiry: '2026-11-23', expirations: ['2026-11-24'] });
    expect(both.response.status).toBe(400);
    expect((both.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort()).toEqual([
      'date_of_expiry',
      'expirations',
    ]);
    const nine = await skew({ underlying_symbol: 'SPX', expirations: Array.from({ length: 9 }, (_, i) => `2026-12-0${i + 1}`) });
    expect(nine.response.status).toBe(400);
  });

  it('serves the overnight session with the entitlement, refuses it without, and answers 422 for a root without one', async () => {
    const gth = await ok({ underlying_symbol: 'SPX', session: 'gth' });
    // The overnight session of DAY ended at 09:25 ET.
    expect(gth).toMatchObject({ session: 'gth', trading_date: DAY });
    expect(gth.valuation.timestamp).toBe(Date.parse('2026-11-20T14:25:00Z'));
    expect(gth.expirations[0]!.date_of_expiry).toBe(DAY);
    expect((await skew({ underlying_symbol: 'SPX', session: 'gth' }, MARKET_NOW, basic)).response.status).toBe(403);
    expect((await skew({ underlying_symbol: 'SPX' }, MARKET_NOW, basic)).response.status).toBe(200);
    expect((await skew({ underlying_symbol: 'AAPL', session: 'gth' })).response.status).toBe(422);
  });

  it('answers 422 before the session opens, on a day without trading, and for a date with no chain', async () => {
    expect((await skew({ underlying_symbol: 'SPX', date: '2026-11-23' })).response.status).toBe(422);
    expect((await skew({ underlying_symbol: 'SPX', date: '2026-11-21' })).response.status).toBe(422);
    expect((await skew({ underlying_symbol: 'SPX', date: '2026-11-19' })).response.status).toBe(422);
    expect((await skew({ underlying_symbol: 'ZZZZ' })).response.status).toBe(422);
  });

  it('exports the skew object as the route answers it', async () => {
    now = MARKET_NOW;
    const query = { underlying_symbol: 'SPX', expirations: ['2026-11-23', '2026-11-24'] };
    const created = await createExport({ client: pro, body: { path: '/v1/options/volatility/skew', query } });
    expect(created.response.status).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
    const file = await downloadExport({ client: pro, path: { id }, parseAs: 'text' });
    expect(file.response.status).toBe(200);
    const exported = (JSON.parse(file.data as unknown as string) as { data: Skew }).data;
    expect(exported).toEqual(await ok(query));
  });
});
