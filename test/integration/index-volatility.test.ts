/**
 * The volatility index route on a simulated session loaded through ingest: the served index
 * recomputed here by a direct summation written out in this file (mids, the parity strike, F, K0,
 * the two-zero-bid walks, ΔK, σ², the interpolation in minutes), not with variance-index.ts, from
 * the stored quote samples of the served chain minute, with the served rate and settlement
 * instants; the expirations each tenor counts picked here from the listed contracts by the
 * contract's rule; entitlements, parameters and the catalog.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getIndexVolatility, listCatalog } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { GetIndexVolatilityResponse } from '../../generated/client/types.gen.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
/** 16:15 ET on DAY, the close of SPX options: a completed session is valued there. */
const CLOSE = Date.parse('2026-11-20T21:15:00Z');
const MINUTES_PER_YEAR = 525_600;
type Index = GetIndexVolatilityResponse['data'];
type Term = Index['next_term'];

interface StoredQuote {
  strike: number;
  type: 'call' | 'put';
  bid: number | null;
  ask: number | null;
}

/** One expiration's variance by the white paper's steps, written out here. */
function directVariance(quotes: readonly StoredQuote[], minutes: number, rate: number) {
  const mid = (q: StoredQuote | undefined): number | null =>
    q !== undefined && q.bid !== null && q.ask !== null && q.bid > 0 && q.ask >= q.bid ? (q.bid + q.ask) / 2 : null;
  const strikes = [...new Set(quotes.map((q) => q.strike))].sort((a, b) => a - b);
  const call = new Map(quotes.filter((q) => q.type === 'call').map((q) => [q.strike, q]));
  const put = new Map(quotes.filter((q) => q.type === 'put').map((q) => [q.strike, q]));
  const T = minutes / MINUTES_PER_YEAR;
  const growth = Math.exp(rate * T);
  // K*: the smallest |C − P| among strikes with both mids, the lowest strike on a tie.
  let kStar: number | null = null;
  let gap = Infinity;
  for (const k of strikes) {
    const c = mid(call.get(k));
    const p = mid(put.get(k));
    if (c === null || p === null) continue;
    if (Math.abs(c - p) < gap) {
      gap = Math.abs(c - p);
      kStar = k;
    }
  }
  const F = kStar! + growth * (mid(call.get(kStar!))! - mid(put.get(kStar!))!);
  const k0 = strikes.filter((k) => k <= F).at(-1)!;
  const used: { strike: number; side: 'put' | 'call' | 'average'; price: number }[] = [
    { strike: k0, side: 'average', price: (mid(call.get(k0))! + mid(put.get(k0))!) / 2 },
  ];
  for (const [side, order] of [
    ['put', strikes.filter((k) => k < k0).reverse()],
    ['call', strikes.filter((k) => k > k0)],
  ] as const) {
    let zeros = 0;
    for (const k of order) {
      const q = (side === 'put' ? put : call).get(k);
      if (q === undefined) continue;
      const m = mid(q);
      if (m === null) {
        zeros += 1;
        if (zeros === 2) break;
        continue;
      }
      zeros = 0;
      used.push({ strike: k, side, price: m });
    }
  }
  used.sort((a, b) => a.strike - b.strike);
  let sum = 0;
  const contributions = used.map((u, i) => {
    const below = used[i - 1]?.strike;
    const above = used[i + 1]?.strike;
    const dK = below === undefined ? above! - u.strike : above === undefined ? u.strike - below : (above - below) / 2;
    const c = (dK / (u.strike * u.strike)) * growth * u.price;
    sum += c;
    return { ...u, delta_k: dK, contribution: c };
  });
  const variance = (2 / T) * sum - (F / k0 - 1) ** 2 / T;
  return { F, k0, kStar, contributions, variance, T };
}

describe('volatility index', () => {
  let service: TestService;
  let pro: Client;
  let optionsOnly: Client;
  let now = MARKET_NOW;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      jobs: true,
      clock: () => now,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: optionsOnly } = await service.newAccount({ plan: 'pro', datasets: ['options'] }));
  });
  afterAll(async () => service.stop());

  const call = async (query: Record<string, unknown>, at = MARKET_NOW, client = pro) => {
    now = at;
    return await getIndexVolatility({ client, query: query as never });
  };
  const ok = async (query: Record<string, unknown>, at = MARKET_NOW): Promise<Index> => {
    const r = await call(query, at);
    expect(r.response.status, JSON.stringify(r.error)).toBe(200);
    return r.data!.data;
  };

  /** Each contract's last sample of the chain minute or before it (at most 30 minutes old), quoted before the valuation time. */
  const storedChain = async (root: string, expiry: string, valuedAt: number): Promise<StoredQuote[]> => {
    const minute = valuedAt - 60_000;
    const result = await sql<StoredQuote>`
      select distinct on (c.id) c.strike_thousandths / 1000.0 as strike, c.contract_type as type, q.bid, q.ask
      from contracts c join quote_samples q on q.contract_id = c.id and q.trading_date = ${DAY}::date
      where c.root = ${root} and c.date_of_expiry = ${expiry}::date and q.minute <= ${minute}::int8
        and q.minute >= ${minute - 30 * 60_000}::int8 and q.quote_ts < ${valuedAt}::int8
      order by c.id, q.minute desc`.execute(service.database.admin);
    return result.rows.map((r) => ({ ...r, strike: Number(r.strike) }));
  };

  /** The served term checked against a direct summation on the stored chain; its variance recomputed. */
  const checkTerm = async (term: Term, valuedAt: number, rate: number): Promise<{ minutes: number; variance: number }> => {
    // No daylight-saving change between DAY and the terms: wall-clock minutes are elapsed minutes.
    const minutes = (term.settles_at - valuedAt) / 60_000;
    expect(term.minutes).toBeCloseTo(minutes, 9);
    // AM-settled at the 09:30 ET open (14:30 UTC in EST), PM-settled at 16:00 ET (21:00 UTC) or 13:00 on an early close.
    const hour = new Date(term.settles_at).toISOString().slice(11, 16);
    if (term.root === 'SPX') expect([term.settlement_style, hour]).toEqual(['am', '14:30']);
    else expect(term.settlement_style === 'pm' && ['21:00', '18:00'].includes(hour)).toBe(true);
    const direct = directVariance(await storedChain(term.root, term.date_of_expiry, valuedAt), minutes, rate);
    expect(term.forward_strike).toBe(direct.kStar);
    expect(term.forward).toBeCloseTo(direct.F, 9);
    expect(term.k0).toBe(direct.k0);
    expect(term.strikes.map((s) => [s.strike, s.side])).toEqual(direct.contributions.map((c) => [c.strike, c.side]));
    term.strikes.forEach((s, i) => {
      const c = direct.contributions[i]!;
      expect(s.price).toBeCloseTo(c.price, 12);
      expect(s.delta_k).toBeCloseTo(c.delta_k, 12);
      expect(s.contribution).toBeCloseTo(c.contribution, 15);
    });
    expect(term.variance).toBeCloseTo(direct.variance, 12);
    expect(term.value).toBeCloseTo(100 * Math.sqrt(direct.variance), 9);
    expect(term.growth).toBeCloseTo(Math.exp(rate * direct.T), 14);
    return { minutes, variance: direct.variance };
  };

  it('serves the 30-day index of SPX at the close, recomputed by direct summation from the stored chain', async () => {
    const data = await ok({ underlying_symbol: 'spx' });
    expect(data).toMatchObject({
      underlying_symbol: 'SPX',
      roots: ['SPX', 'SPXW'],
      trading_date: DAY,
      tenor: '30d',
      tenor_minutes: 43_200,
      published_index: false,
      method: 'interpolated',
    });
    expect(data.label).toMatch(/model computed by this service.*not Cboe's published VIX/);
    expect(data.valuation.timestamp).toBe(CLOSE);
    expect(data.valuation.risk_free_rate).toBeGreaterThan(0.01);

    // The expirations the 30-day rule counts, picked here: the last listed date of each week, SPX where listed.
    const listed = await sql<{ root: string; d: string }>`
      select distinct root, date_of_expiry::text as d from contracts where root in ('SPX', 'SPXW') and date_of_expiry > ${DAY}::date
      order by 2, 1`.execute(service.database.admin);
    const week = (d: string) => {
      const t = Date.parse(`${d}T00:00:00Z`);
      return new Date(t - ((new Date(t).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    };
    const lastOfWeek = new Map<string, string>();
    for (const r of listed.rows) if ((lastOfWeek.get(week(r.d)) ?? '') < r.d) lastOfWeek.set(week(r.d), r.d);
    const counted = [...new Set(lastOfWeek.values())].sort().map((d) => {
      const roots = listed.rows.filter((r) => r.d === d).map((r) => r.root);
      return `${roots.includes('SPX') ? 'SPX' : 'SPXW'} ${d}`;
    });
    expect(data.term_structure.filter((p) => p.counts_for_tenor).map((p) => `${p.root} ${p.date_of_expiry}`)).toEqual(counted);
    const near = data.near_term!;
    const next = data.next_term;
    const nearIndex = counted.indexOf(`${near.root} ${near.date_of_expiry}`);
    expect(nearIndex).toBeGreaterThanOrEqual(0);
    expect(counted[nearIndex + 1]).toBe(`${next.root} ${next.date_of_expiry}`);
    expect(near.minutes).toBeLessThan(43_200);
    expect(next.minutes).toBeGreaterThanOrEqual(43_200);

    const rate = data.valuation.risk_free_rate;
    const n1 = await checkTerm(near, CLOSE, rate);
    const n2 = await checkTerm(next, CLOSE, rate);
    const w1 = (n2.minutes - 43_200) / (n2.minutes - n1.minutes);
    const w2 = (43_200 - n1.minutes) / (n2.minutes - n1.minutes);
    expect(data.weights.near).toBeCloseTo(w1, 12);
    expect(data.weights.next).toBeCloseTo(w2, 12);
    const variance =
      (((n1.minutes / MINUTES_PER_YEAR) * n1.variance * w1 + (n2.minutes / MINUTES_PER_YEAR) * n2.variance * w2) * MINUTES_PER_YEAR) /
      43_200;
    expect(data.variance).toBeCloseTo(variance, 12);
    expect(data.value).toBeCloseTo(100 * Math.sqrt(variance), 9);
    expect(data.value).toBeGreaterThan(5);
    expect(data.value).toBeLessThan(80);

    // The term structure: every unsettled listed expiration, nearest first, each its own value.
    expect(data.term_structure.map((p) => `${p.root} ${p.date_of_expiry}`).sort()).toEqual(
      listed.rows.map((r) => `${r.root} ${r.d}`).sort(),
    );
    const minutes = data.term_structure.map((p) => p.minutes);
    expect(minutes).toEqual([...minutes].sort((a, b) => a - b));
    const point = data.term_structure.find((p) => p.root === next.root && p.date_of_expiry === next.date_of_expiry)!;
    expect(point.value).toBeCloseTo(next.value, 12);
  });

  it('uses the nearest term alone for 1d when nothing settles within a day, and a restricted root alone for 9d', async () => {
    // Friday's close: the next expiration is Monday's, three days away.
    const oneDay = await ok({ underlying_symbol: 'SPX', tenor: '1d' });
    expect(oneDay).toMatchObject({ method: 'nearest_term', near_term: null, tenor_minutes: 1_440 });
    expect(oneDay.next_term).toMatchObject({ root: 'SPXW', date_of_expiry: '2026-11-23' });
    // With a near term of zero minutes and zero variance, the index is the next term's own.
    expect(oneDay.weights.near + oneDay.weights.next).toBeCloseTo(1, 12);
    const n = await checkTerm(oneDay.next_term, CLOSE, oneDay.valuation.risk_free_rate);
    expect(oneDay.value).toBeCloseTo(100 * Math.sqrt(n.variance), 9);

    const nine = await ok({ underlying_symbol: 'SPX', tenor: '9d', root: 'spxw' });
    expect(nine.roots).toEqual(['SPXW']);
    expect([nine.near_term!.root, nine.next_term.root]).toEqual(['SPXW', 'SPXW']);
    expect(nine.term_structure.every((p) => p.root === 'SPXW')).toBe(true);
    await checkTerm(nine.near_term!, CLOSE, nine.valuation.risk_free_rate);
    await checkTerm(nine.next_term, CLOSE, nine.valuation.risk_free_rate);
  });

  it('values a running session at the last minute of data before the instant', async () => {
    const at = Date.parse('2026-11-20T16:07:30Z');
    const data = await ok({ underlying_symbol: 'SPX', date: DAY }, at);
    expect(data.valuation.timestamp).toBeLessThanOrEqual(at);
    expect(data.valuation.timestamp).toBeGreaterThan(at - 15 * 60_000);
    expect(data.valuation.chain_timestamp).toBeLessThanOrEqual(data.valuation.timestamp);
    await checkTerm(data.next_term, data.valuation.timestamp, data.valuation.risk_free_rate);
  });

  it('refuses an account without the indices dataset with the error body', async () => {
    const r = await call({ underlying_symbol: 'SPX' }, MARKET_NOW, optionsOnly);
    expect(r.response.status).toBe(403);
    const body = r.error as { error: { code: string; message: string } };
    expect(body.error.code).toBe('forbidden');
    expect(body.error.message).toContain('indices dataset');
  });

  it('answers 400 naming a bad tenor, and date with at', async () => {
    const details = (r: Awaited<ReturnType<typeof call>>) =>
      (r.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort();
    const tenor = await call({ underlying_symbol: 'SPX', tenor: '7d' });
    expect(tenor.response.status).toBe(400);
    expect(details(tenor)).toEqual(['tenor']);
    const both = await call({ underlying_symbol: 'SPX', date: DAY, at: CLOSE });
    expect(both.response.status).toBe(400);
    expect(details(both)).toEqual(['at', 'date']);
  });

  it('answers 422 no_data without a chain: an unknown symbol, a root outside the family, a date without data, a day without trading', async () => {
    for (const query of [
      { underlying_symbol: 'SPX', root: 'QQQ' },
      { underlying_symbol: 'ZZZZ' },
      { underlying_symbol: 'SPX', date: '2026-11-19' },
      { underlying_symbol: 'SPX', date: '2026-11-21' },
    ]) {
      const r = await call(query);
      expect(r.response.status, JSON.stringify(query)).toBe(422);
      expect(r.error, JSON.stringify(query)).toMatchObject({ error: { code: 'no_data' } });
      if ('root' in query) expect((r.error as { error: { message: string } }).error.message).toContain('QQQ is not a root of SPX');
    }
  });

  it('is listed in the catalog under indices, with the indices dataset (beside the cash index routes)', async () => {
    const r = await listCatalog({ client: pro, query: { family: 'indices' } });
    expect(r.response.status).toBe(200);
    expect(r.data!.data.find((e) => e.id === 'getIndexVolatility')).toEqual(
      expect.objectContaining({
        id: 'getIndexVolatility',
        path: '/v1/indices/volatility',
        dataset: 'indices',
        paginated: false,
        mcp: true,
      }),
    );
  });

  it('exports the index object as the route answers it', async () => {
    now = MARKET_NOW;
    const query = { underlying_symbol: 'SPX', tenor: '9d' };
    const created = await createExport({ client: pro, body: { path: '/v1/indices/volatility', query } });
    expect(created.response.status).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
    const file = await downloadExport({ client: pro, path: { id }, parseAs: 'text' });
    expect(file.response.status).toBe(200);
    expect((JSON.parse(file.data as unknown as string) as { data: Index }).data).toEqual(await ok(query));
  });
});
