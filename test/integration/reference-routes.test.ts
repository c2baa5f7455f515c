/**
 * The reference routes of issue 36 §4 on a small simulated market loaded through ingest, each answer
 * checked against a recomputation from the stored rows: plain SQL over the tables, written here, not
 * the services' code.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getExport, listOptionContracts } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ListOptionContractsData, OptionContract } from '../../generated/client/types.gen.js';
import { exportJob } from '../../src/jobs/export.js';
import { loadSimulatedMarket, MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';

describe('reference routes', () => {
  let service: TestService;
  let client: Client;

  beforeAll(async () => {
    service = await startTestService({
      clock: () => MARKET_NOW,
      jobs: true,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client } = await service.newAccount({ plan: 'pro' }));
    await loadSimulatedMarket(service.database.admin, { dates: [PREVIOUS, DAY] });
  });
  afterAll(async () => service.stop());

  describe('GET /v1/options/contracts', () => {
    type Query = NonNullable<ListOptionContractsData['query']>;

    /** The contracts the query selects, straight from the contracts and option_roots tables. */
    async function expected(where: ReturnType<typeof sql<boolean>>): Promise<OptionContract[]> {
      const result = await sql<OptionContract>`
        select c.option_symbol, c.root, c.underlying as underlying_symbol, c.contract_type, c.date_of_expiry::text as date_of_expiry,
          (c.strike_thousandths::numeric / 1000)::float8 as strike, c.multiplier,
          case when r.kind = 'index' then 'european' else 'american' end as exercise_style,
          case when r.am_settled then 'am' else 'pm' end as settlement
        from contracts c left join option_roots r on r.root = c.root
        where ${where}
        order by c.root, c.date_of_expiry, c.contract_type, c.strike_thousandths`.execute(service.database.admin);
      return result.rows;
    }

    /** Every page of the query, followed by its cursor. */
    async function walk(query: Query): Promise<{ rows: OptionContract[]; pages: number }> {
      const rows: OptionContract[] = [];
      let cursor: string | undefined;
      let pages = 0;
      for (;;) {
        const r = await listOptionContracts({ client, query: { ...query, ...(cursor ? { cursor_id: cursor } : {}) } });
        expect(r.response.status, JSON.stringify(r.error)).toBe(200);
        const body = r.data!;
        pages += 1;
        expect(body.pagination.count).toBe(body.data.length);
        expect(body.data.length).toBeLessThanOrEqual(query.limit ?? 250);
        rows.push(...body.data);
        if (body.pagination.next_cursor_id === null) {
          expect(body.pagination.has_more).toBe(false);
          return { rows, pages };
        }
        cursor = body.pagination.next_cursor_id;
      }
    }

    it('pages through a family listed on the current session, equal to the stored contracts', async () => {
      const want = await expected(sql<boolean>`c.root in ('SPX', 'SPXW') and c.date_of_expiry >= ${DAY}::date`);
      expect(want.length).toBeGreaterThan(100);
      expect(new Set(want.map((c) => c.root))).toEqual(new Set(['SPX', 'SPXW']));
      for (const limit of [37, 1000]) {
        const got = await walk({ underlying_symbol: 'spx', limit });
        expect(got.rows).toEqual(want);
        expect(got.pages).toBe(Math.max(1, Math.ceil(want.length / limit)));
      }
      const am = want.find((c) => c.root === 'SPX');
      expect(am).toMatchObject({ exercise_style: 'european', settlement: 'am' });
    });

    it('with as_of, keeps the contracts that have expired since', async () => {
      const want = await expected(sql<boolean>`c.root = 'SPY' and c.date_of_expiry >= ${PREVIOUS}::date`);
      const expiredSince = want.filter((c) => c.date_of_expiry < DAY);
      expect(expiredSince.length).toBeGreaterThan(0);
      expect((await walk({ underlying_symbol: 'SPY', as_of: PREVIOUS, limit: 500 })).rows).toEqual(want);
      const current = (await walk({ underlying_symbol: 'SPY', limit: 500 })).rows;
      expect(current).toEqual(want.filter((c) => c.date_of_expiry >= DAY));
      expect(current.every((c) => c.exercise_style === 'american' && c.settlement === 'pm')).toBe(true);
    });

    it('applies root, type, expiration and strike filters together, bounds inclusive', async () => {
      const spxw = await expected(sql<boolean>`c.root = 'SPXW' and c.date_of_expiry >= ${DAY}::date`);
      const expiries = [...new Set(spxw.map((c) => c.date_of_expiry))].sort();
      expect(expiries.length).toBeGreaterThanOrEqual(3);
      const strikes = [...new Set(spxw.map((c) => c.strike))].sort((a, b) => a - b);
      const low = strikes[Math.floor(strikes.length / 4)]!;
      const high = strikes[Math.floor((strikes.length * 3) / 4)]!;
      const [from, to] = [expiries[1]!, expiries[2]!];
      const query: Query = {
        underlying_symbol: 'SPX',
        root: 'SPXW',
        contract_type: 'put',
        min_date_of_expiry: from,
        max_date_of_expiry: to,
        min_strike: low,
        max_strike: high,
        limit: 50,
      };
      const want = await expected(
        sql<boolean>`c.root = 'SPXW' and c.contract_type = 'put' and c.date_of_expiry between ${from}::date and ${to}::date
          and c.strike_thousandths between ${Math.round(low * 1000)} and ${Math.round(high * 1000)}`,
      );
      expect(want.length).toBeGreaterThan(0);
      expect(want.some((c) => c.strike === low) && want.some((c) => c.strike === high)).toBe(true);
      expect((await walk(query)).rows).toEqual(want);

      const one = await walk({ root: 'spxw', date_of_expiry: from, limit: 1000 });
      expect(one.rows).toEqual(await expected(sql<boolean>`c.root = 'SPXW' and c.date_of_expiry = ${from}::date`));
    });

    it('answers 422 when nothing matches and 400 for rules between parameters', async () => {
      const mismatch = await listOptionContracts({ client, query: { underlying_symbol: 'SPY', root: 'SPXW' } });
      expect(mismatch.response.status).toBe(422);
      expect(mismatch.error).toMatchObject({ error: { code: 'no_data' } });
      const none = await listOptionContracts({ client, query: { underlying_symbol: 'ZZZZ' } });
      expect(none.response.status).toBe(422);
      const crossed = await listOptionContracts({ client, query: { min_strike: 600, max_strike: 500 } });
      expect(crossed.response.status).toBe(400);
      expect((crossed.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort()).toEqual([
        'max_strike',
        'min_strike',
      ]);
      const both = await listOptionContracts({ client, query: { date_of_expiry: DAY, min_date_of_expiry: DAY } });
      expect(both.response.status).toBe(400);
      const big = await listOptionContracts({ client, query: { limit: 1001 } });
      expect(big.response.status).toBe(400);
    });

    it('exports every page of a query into one file', async () => {
      const want = await expected(sql<boolean>`c.root = 'QQQ' and c.date_of_expiry >= ${DAY}::date`);
      expect(want.length).toBeGreaterThan(0);
      const created = await createExport({
        client,
        body: { path: '/v1/options/contracts', query: { underlying_symbol: 'QQQ', as_of: DAY, limit: 100_000 } },
      });
      expect(created.response.status, JSON.stringify(created.error)).toBe(202);
      const id = created.data!.data.id;
      await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
      const job = (await getExport({ client, path: { id } })).data!.data;
      expect(job).toMatchObject({ status: 'ready', rows: want.length, truncated: false });
      const file = await downloadExport({ client, path: { id }, parseAs: 'json' });
      expect((file.data as { data: OptionContract[] }).data).toEqual(want);
    });
  });
});
