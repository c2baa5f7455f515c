/**
 * The reference routes of issue 36 §4 on a small simulated market loaded through ingest, each answer
 * checked against a recomputation from the stored rows: plain SQL over the tables, written here, not
 * the services' code.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getExport, listOptionBars, listOptionContracts } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ListOptionBarsData, ListOptionContractsData, OptionBar, OptionContract } from '../../generated/client/types.gen.js';
import { exportJob } from '../../src/jobs/export.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';

describe('reference routes', () => {
  let service: TestService;
  let client: Client;
  let basic: Client;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [PREVIOUS, DAY] },
      clock: () => MARKET_NOW,
      jobs: true,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
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
  describe('GET /v1/options/bars', () => {
    type Query = NonNullable<ListOptionBarsData['query']>;
    interface StoredPrint {
      trading_date: string;
      contract_id: number;
      root: string;
      ts: number;
      sequence: number;
      price: number;
      size: number;
      premium: number;
      session: string;
      complex: boolean;
      cancelled: boolean;
    }
    const SESSIONS: Record<string, string[]> = { rth: ['rth'], gth: ['gth'], all: ['gth', 'rth', 'curb', 'other'] };
    const MINUTES: Record<string, number> = { '1m': 60_000, '5m': 300_000, '1h': 3_600_000 };
    let prints: StoredPrint[];

    beforeAll(async () => {
      const result = await sql<StoredPrint>`
        select trading_date::text as trading_date, contract_id::int as contract_id, root, ts::float8 as ts, sequence::float8 as sequence,
          price, size, premium, session, (trade_type = 'multileg' or 'complex' = any(flags)) as complex, cancelled
        from prints`.execute(service.database.admin);
      prints = result.rows;
    });

    /** Where each trading date's selected session starts (the day bar's timestamp), from the stored prints' own sessions. */
    const dayStart = (date: string, session: string): number => {
      const ny = (d: string, hm: string) => {
        // New York is UTC-5 in late November (EST).
        return Date.parse(`${d}T${hm}:00-05:00`);
      };
      const previous = (d: string) => {
        let t = Date.parse(`${d}T12:00:00Z`) - 86_400_000;
        while ([0, 6].includes(new Date(t).getUTCDay())) t -= 86_400_000;
        return new Date(t).toISOString().slice(0, 10);
      };
      return session === 'rth' ? ny(date, '09:30') : ny(previous(date), '20:15');
    };

    /** The bars of the stored prints, computed here from the rows (not by the service's SQL). */
    function expectedBars(
      of: { contractId: number } | { roots: string[] },
      interval: string,
      session: string,
      from: number,
      to: number,
      includeComplex: boolean,
    ): OptionBar[] {
      const counted = prints.filter(
        (p) =>
          !p.cancelled &&
          SESSIONS[session]!.includes(p.session) &&
          p.ts >= from &&
          p.ts < to &&
          (includeComplex || !p.complex) &&
          ('contractId' in of ? p.contract_id === of.contractId : of.roots.includes(p.root)),
      );
      const groups = new Map<string, StoredPrint[]>();
      for (const p of counted) {
        const start = interval === '1d' ? dayStart(p.trading_date, session) : Math.floor(p.ts / MINUTES[interval]!) * MINUTES[interval]!;
        const key = `${String(start).padStart(15, '0')}|${p.trading_date}`;
        groups.set(key, [...(groups.get(key) ?? []), p]);
      }
      return [...groups.keys()].sort().map((key) => {
        const rows = groups.get(key)!.sort((a, b) => a.ts - b.ts || a.sequence - b.sequence);
        const volume = rows.reduce((n, p) => n + p.size, 0);
        const one = 'contractId' in of;
        return {
          timestamp: Number(key.split('|')[0]),
          trading_date: key.split('|')[1]!,
          open: one ? rows[0]!.price : null,
          high: one ? Math.max(...rows.map((p) => p.price)) : null,
          low: one ? Math.min(...rows.map((p) => p.price)) : null,
          close: one ? rows.at(-1)!.price : null,
          vwap: one ? rows.reduce((n, p) => n + p.price * p.size, 0) / volume : null,
          volume,
          trades: rows.length,
          premium: rows.reduce((n, p) => n + Math.round(p.premium * 100), 0) / 100,
        };
      });
    }

    async function walkBars(query: Query): Promise<OptionBar[]> {
      const rows: OptionBar[] = [];
      let cursor: string | undefined;
      for (;;) {
        const r = await listOptionBars({ client, query: { ...query, ...(cursor ? { cursor_id: cursor } : {}) } });
        expect(r.response.status, JSON.stringify(r.error)).toBe(200);
        expect(r.data!.meta.coverage.complete).toBe(true);
        rows.push(...r.data!.data);
        if (r.data!.pagination.next_cursor_id === null) return rows;
        cursor = r.data!.pagination.next_cursor_id;
      }
    }

    function expectSame(got: OptionBar[], want: OptionBar[]): void {
      expect(got.length).toBe(want.length);
      expect(want.length).toBeGreaterThan(0);
      got.forEach((bar, i) => {
        const w = want[i]!;
        expect({ ...bar, vwap: null }).toEqual({ ...w, vwap: null });
        if (w.vwap === null) expect(bar.vwap).toBeNull();
        else expect(Math.abs(bar.vwap! - w.vwap)).toBeLessThanOrEqual(5e-7);
      });
    }

    /** The contract with the most live regular-session prints of the date, with its OCC symbol. */
    async function busiest(date: string): Promise<{ id: number; symbol: string; compact: string }> {
      const row = await sql<{ id: number; symbol: string }>`
        select c.id::int as id, c.option_symbol as symbol from prints p join contracts c on c.id = p.contract_id
        where p.trading_date = ${date}::date and p.session = 'rth' and not p.cancelled
        group by c.id, c.option_symbol order by count(*) desc, c.id limit 1`.execute(service.database.admin);
      return { ...row.rows[0]!, compact: row.rows[0]!.symbol.replace(/ +/, '') };
    }

    it("one contract's 1m bars of a session, paged, equal to its stored prints", async () => {
      const contract = await busiest(DAY);
      const span = { from: dayStart(DAY, 'rth'), to: Date.parse(`${DAY}T16:15:00-05:00`) + 1 };
      const want = expectedBars({ contractId: contract.id }, '1m', 'rth', span.from, span.to, false);
      expect(want.length).toBeGreaterThan(7);
      const compact = contract.symbol.replace(/ +/, '');
      expectSame(await walkBars({ option_symbol: compact, interval: '1m', date: DAY, limit: 7 }), want);
      // Case-insensitive; the padded form (spaces) is refused by the pattern.
      expectSame(await walkBars({ option_symbol: compact.toLowerCase(), interval: '1m', date: DAY }), want);
      expect((await listOptionBars({ client, query: { option_symbol: contract.symbol, date: DAY } })).response.status).toBe(400);
    });

    it("a family's hourly aggregate over two trading dates and every session", async () => {
      const from = Date.parse(`${PREVIOUS}T00:00:00-05:00`);
      const to = Date.parse(`${DAY}T23:00:00-05:00`);
      const want = expectedBars({ roots: ['SPX', 'SPXW'] }, '1h', 'all', from, to, false);
      expect(new Set(want.map((b) => b.trading_date))).toEqual(new Set([PREVIOUS, DAY]));
      expect(want.some((b) => new Date(b.timestamp).getUTCHours() < 14)).toBe(true); // overnight hours
      expectSame(
        await walkBars({ underlying_symbol: 'SPX', interval: '1h', session: 'all', start_time: from, end_time: to, limit: 5 }),
        want,
      );
    });

    it('leaves cancelled prints out of the bar that held them', async () => {
      const cancels = prints.filter((p) => p.cancelled && !p.complex);
      expect(cancels.length).toBeGreaterThan(0);
      const liveBeside = (c: StoredPrint) =>
        prints.some((p) => p.contract_id === c.contract_id && p.trading_date === c.trading_date && !p.cancelled && !p.complex);
      // A contract whose only print was cancelled has no bar at all.
      const alone = cancels.find((c) => !liveBeside(c));
      if (alone !== undefined) {
        const s = (
          await sql<{ s: string }>`select option_symbol as s from contracts where id = ${alone.contract_id}`.execute(service.database.admin)
        ).rows[0]!.s;
        const r = await listOptionBars({
          client,
          query: { option_symbol: s.replace(/ +/, ''), interval: '1m', session: 'all', date: alone.trading_date },
        });
        expect(r.response.status).toBe(422);
      }
      const cancelled = cancels.find(liveBeside);
      expect(cancelled).toBeDefined();
      const { contract_id: id, trading_date: date } = cancelled!;
      const symbol = (await sql<{ s: string }>`select option_symbol as s from contracts where id = ${id}`.execute(service.database.admin))
        .rows[0]!.s;
      const from = Date.parse(`${date}T00:00:00-05:00`) - 6 * 3_600_000;
      const to = Date.parse(`${date}T23:59:00-05:00`);
      const want = expectedBars({ contractId: id }, '1m', 'all', from, to, false);
      const got = await walkBars({
        option_symbol: symbol.replace(/ +/, ''),
        interval: '1m',
        session: 'all',
        start_time: from,
        end_time: to,
      });
      expectSame(got, want);
      const start = Math.floor(cancelled!.ts / 60_000) * 60_000;
      const live = prints.filter((p) => p.contract_id === id && !p.cancelled && !p.complex && Math.floor(p.ts / 60_000) * 60_000 === start);
      expect(got.find((b) => b.timestamp === start)?.volume ?? 0).toBe(live.reduce((n, p) => n + p.size, 0));
    });

    it('day bars per trading date with complex prints, and 5m bars of one contract with every session', async () => {
      const from = Date.parse(`${PREVIOUS}T00:00:00-05:00`);
      const to = Date.parse(`${DAY}T23:59:00-05:00`);
      const days = expectedBars({ roots: ['SPY'] }, '1d', 'rth', from, to, true);
      expect(days.map((b) => b.trading_date)).toEqual([PREVIOUS, DAY]);
      expectSame(await walkBars({ underlying_symbol: 'spy', interval: '1d', start_time: from, end_time: to, include_complex: true }), days);
      const withoutComplex = expectedBars({ roots: ['SPY'] }, '1d', 'rth', from, to, false);
      expect(withoutComplex.map((b) => b.volume)).not.toEqual(days.map((b) => b.volume));

      const contract = await busiest(PREVIOUS);
      const want = expectedBars({ contractId: contract.id }, '5m', 'all', from, to, true);
      expectSame(
        await walkBars({
          option_symbol: contract.compact,
          interval: '5m',
          session: 'all',
          start_time: from,
          end_time: to,
          include_complex: true,
          limit: 11,
        }),
        want,
      );
    });

    it('refuses what the rules refuse, and answers 422 and 403 as stated', async () => {
      const t = Date.parse(`${DAY}T15:00:00Z`);
      const status = async (query: Query, as = client) => (await listOptionBars({ client: as, query })).response.status;
      expect(await status({ date: DAY })).toBe(400);
      expect(await status({ underlying_symbol: 'SPY', option_symbol: 'SPY261120C00577000', date: DAY })).toBe(400);
      const long = await listOptionBars({
        client,
        query: { underlying_symbol: 'SPY', interval: '1m', start_time: t - 8 * 86_400_000, end_time: t },
      });
      expect(long.response.status).toBe(400);
      expect((long.error as { error: { details: { parameter: string; message: string }[] } }).error.details).toEqual([
        { parameter: 'start_time', message: 'the range is at most 7 days with interval 1m' },
        { parameter: 'end_time', message: 'the range is at most 7 days with interval 1m' },
      ]);
      expect(await status({ underlying_symbol: 'SPY', interval: '5m', start_time: t - 8 * 86_400_000, end_time: t })).toBe(200);
      expect(await status({ underlying_symbol: 'SPY', date: DAY, interval: '1d', start_time: t })).toBe(400);
      expect(await status({ option_symbol: 'ZZZ261120C00577000', date: DAY })).toBe(422);
      expect(await status({ underlying_symbol: 'SPY', date: '2026-11-21' })).toBe(422);
      expect(await status({ underlying_symbol: 'SPY', date: DAY, session: 'gth' }, basic)).toBe(403);
      expect(await status({ underlying_symbol: 'SPY', date: DAY }, basic)).toBe(200);
    });

    it('exports the bars of a range into one file', async () => {
      const from = Date.parse(`${PREVIOUS}T00:00:00-05:00`);
      const to = Date.parse(`${DAY}T23:59:00-05:00`);
      const want = expectedBars({ roots: ['QQQ'] }, '5m', 'rth', from, to, false);
      const created = await createExport({
        client,
        body: { path: '/v1/options/bars', query: { underlying_symbol: 'QQQ', start_time: from, end_time: to, limit: 100_000 } },
      });
      expect(created.response.status, JSON.stringify(created.error)).toBe(202);
      const id = created.data!.data.id;
      await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
      expect((await getExport({ client, path: { id } })).data!.data).toMatchObject({
        status: 'ready',
        rows: want.length,
        truncated: false,
      });
      const file = await downloadExport({ client, path: { id }, parseAs: 'json' });
      expectSame((file.data as { data: OptionBar[] }).data, want);
    });
  });
});
