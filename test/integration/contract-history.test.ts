/**
 * Single-contract routes on a small simulated session loaded through ingest: the last trade at an
 * instant and implied volatility over time (each with the overnight entitlement rule), checked
 * against the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { getContractTradeAtTime, listContractImpliedVolatility } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ImpliedVolatilitySample, OptionPrint as Print } from '../../generated/client/types.gen.js';
import { bsmPrice } from '../../src/analytics/pricing.js';
import { dividendYield, riskFreeRate } from '../../src/analytics/rates.js';
import { yearsToSettlement } from '../../src/analytics/settlement.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { upsertUnderlyingBars } from '../../src/db/underlying-bars.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
const sequenceOf = (r: Print): number => Number(r.id.split(':').at(-1));

describe('contract trade-at-time', () => {
  let service: TestService;
  let pro: Client;
  let basic: Client;
  let prints: Print[];

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      clock: () => MARKET_NOW,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
    prints = (await printBodies(service.database.admin, DAY)).map((b) => JSON.parse(b) as Print);
  });
  afterAll(async () => service.stop());

  const sameContract = (a: Print) => (b: Print) =>
    a.underlying_symbol === b.underlying_symbol &&
    a.date_of_expiry === b.date_of_expiry &&
    a.contract_type === b.contract_type &&
    a.strike === b.strike;
  const queryOf = (p: Print, timestamp: number) => ({
    underlying_symbol: p.underlying_symbol,
    contract_type: p.contract_type,
    strike: p.strike,
    date_of_expiry: p.date_of_expiry,
    timestamp,
  });
  const lastBefore = (p: Print, t: number, overnight: boolean): Print | undefined =>
    prints
      .filter((x) => sameContract(p)(x) && x.timestamp <= t && (overnight || x.session !== 'gth'))
      .sort((a, b) => b.timestamp - a.timestamp || sequenceOf(b) - sequenceOf(a))[0];

  it('answers the last trade at or before the instant, with its conditions, venue and sequence', async () => {
    const busy = prints.filter((p) => p.session === 'rth' && prints.filter(sameContract(p)).length >= 3).slice(0, 20);
    expect(busy.length).toBeGreaterThan(0);
    for (const p of busy) {
      for (const t of [p.timestamp, p.timestamp + 1, p.timestamp - 1]) {
        const r = await getContractTradeAtTime({ client: pro, query: queryOf(p, t) });
        expect(r.response.status).toBe(200);
        const want = lastBefore(p, t, true);
        const data = r.data!.data;
        expect(data).toMatchObject({
          underlying_symbol: p.underlying_symbol,
          contract_type: p.contract_type,
          strike: p.strike,
          date_of_expiry: p.date_of_expiry,
          requested_timestamp: t,
        });
        expect(data.option_symbol).toMatch(new RegExp(`^${p.underlying_symbol.padEnd(6, ' ')}\\d{6}[CP]\\d{8}$`));
        if (want === undefined) {
          expect(data.trade).toBeNull();
        } else {
          expect(data.trade).toMatchObject({
            timestamp: want.timestamp,
            price_per_share: want.price,
            size: want.size,
            sequence: sequenceOf(want),
            exchange: want.exchange_code,
            condition: want.condition_code,
          });
          expect(Array.isArray(data.trade?.extended_conditions)).toBe(true);
        }
      }
    }
    expect(r200Source(await getContractTradeAtTime({ client: pro, query: queryOf(busy[0]!, busy[0]!.timestamp) }))).toBe('opra');
  });

  it('prices the trade per contract in dollars (per share times the multiplier) and per share, as the print is', async () => {
    const p = prints.find((x) => x.session === 'rth' && x.price % 1 !== 0 && lastBefore(x, x.timestamp, true) === x)!;
    expect(p).toBeDefined();
    const { multiplier } = await service.database.admin
      .selectFrom('contracts')
      .select('multiplier')
      .where('root', '=', p.underlying_symbol)
      .where('date_of_expiry', '=', p.date_of_expiry)
      .where('contract_type', '=', p.contract_type)
      .where('strike_thousandths', '=', Math.round(p.strike * 1000))
      .executeTakeFirstOrThrow();
    // A standard contract: 100 shares.
    expect(multiplier).toBe(100);
    const r = await getContractTradeAtTime({ client: pro, query: queryOf(p, p.timestamp) });
    const trade = r.data!.data.trade!;
    expect(trade.timestamp).toBe(p.timestamp);
    expect(trade.price_per_share).toBe(p.price);
    expect(trade.price).toBeCloseTo(p.price * multiplier, 9);
    expect(trade.price).not.toBe(trade.price_per_share);
    // The print's premium is price x size x multiplier (to the cent): the per-contract price times the size.
    expect(trade.price * trade.size).toBeCloseTo(p.premium, 1);
  });

  it('answers trade null before the first trade and 422 for a contract that is not listed', async () => {
    const p = prints.find((x) => x.session === 'rth')!;
    const early = await getContractTradeAtTime({ client: pro, query: queryOf(p, Date.parse('2026-11-16T15:00:00Z')) });
    expect(early.response.status).toBe(200);
    expect(early.data?.data.trade).toBeNull();
    const missing = await getContractTradeAtTime({ client: pro, query: { ...queryOf(p, p.timestamp), strike: 0.005 } });
    expect(missing.response.status).toBe(422);
    // Monthly and weekly roots are different roots.
    const weekly = prints.find((x) => x.underlying_symbol === 'SPXW' && x.session === 'rth')!;
    const asMonthly = await getContractTradeAtTime({
      client: pro,
      query: { ...queryOf(weekly, weekly.timestamp), underlying_symbol: 'SPX' },
    });
    expect([200, 422]).toContain(asMonthly.response.status);
    if (asMonthly.response.status === 200) expect(asMonthly.data?.data.underlying_symbol).toBe('SPX');
  });

  it('needs the overnight entitlement outside 09:30 to 16:15 ET, and leaves overnight prints out without it', async () => {
    const gth = prints.find((x) => x.session === 'gth')!;
    expect(gth).toBeDefined();
    const night = await getContractTradeAtTime({ client: basic, query: queryOf(gth, gth.timestamp) });
    expect(night.response.status).toBe(403);
    const afterClose = await getContractTradeAtTime({ client: basic, query: queryOf(gth, Date.parse('2026-11-20T21:16:00Z')) });
    expect(afterClose.response.status).toBe(403);
    const proNight = await getContractTradeAtTime({ client: pro, query: queryOf(gth, gth.timestamp) });
    expect(proNight.data?.data.trade?.timestamp).toBe(lastBefore(gth, gth.timestamp, true)?.timestamp);
    // 09:30 and 16:15 ET are inside the regular session.
    for (const t of [Date.parse('2026-11-20T14:30:00Z'), Date.parse('2026-11-20T21:15:00Z')]) {
      const r = await getContractTradeAtTime({ client: basic, query: queryOf(gth, t) });
      expect(r.response.status).toBe(200);
      expect(r.data?.data.trade?.timestamp ?? null).toBe(lastBefore(gth, t, false)?.timestamp ?? null);
      const p = await getContractTradeAtTime({ client: pro, query: queryOf(gth, t) });
      expect(p.data?.data.trade?.timestamp ?? null).toBe(lastBefore(gth, t, true)?.timestamp ?? null);
      // The answer names the sessions searched: without the entitlement the overnight trade is not one of them (issue 33 §8).
      expect(r.data?.data.sessions_searched).toEqual(['rth', 'curb', 'other']);
      expect(p.data?.data.sessions_searched).toEqual(['gth', 'rth', 'curb', 'other']);
    }
    // A Saturday instant, a holiday's, and one after an early close lie outside every regular session:
    // 403 without the entitlement, as overnight instants are; 200 with it.
    for (const t of [Date.parse('2026-11-21T15:00:00Z'), Date.parse('2026-11-26T15:00:00Z'), Date.parse('2026-11-27T19:00:00Z')]) {
      const r = await getContractTradeAtTime({ client: basic, query: queryOf(gth, t) });
      expect(r.response.status, new Date(t).toISOString()).toBe(403);
      expect(r.error?.error.code).toBe('forbidden');
      expect((await getContractTradeAtTime({ client: pro, query: queryOf(gth, t) })).response.status).toBe(200);
    }
  });

  it('answers 400 for a strike with more than three decimals or a missing parameter', async () => {
    const p = prints[0]!;
    expect((await getContractTradeAtTime({ client: pro, query: { ...queryOf(p, p.timestamp), strike: 100.0005 } })).response.status).toBe(
      400,
    );
    // Within the schema's bounds yet below a thousandth (found by Schemathesis): 400, not 500.
    const tiny = await getContractTradeAtTime({ client: pro, query: { ...queryOf(p, p.timestamp), strike: 5e-324 } });
    expect(tiny.response.status).toBe(400);
    expect((tiny.error as { error: { details: { parameter: string }[] } }).error.details[0]?.parameter).toBe('strike');
    expect(
      (await getContractTradeAtTime({ client: pro, query: { ...queryOf(p, p.timestamp), underlying_symbol: 'TOOLONGX' } })).response.status,
    ).toBe(400);
    const { timestamp: _omit, ...rest } = queryOf(p, p.timestamp);
    expect((await getContractTradeAtTime({ client: pro, query: rest as never })).response.status).toBe(400);
  });
});

/** A stored quote price as served: zero (OPRA's "no bid", "no offer") is null. */
const quoted = (price: number | null): number | null => (price !== null && price > 0 ? price : null);

type QuotedContract = {
  id: number;
  root: string;
  date_of_expiry: string;
  contract_type: 'call' | 'put';
  strike: number;
  underlying: string;
  option_symbol: string;
};
type Sample = { minute: number; quote_ts: number; bid: number | null; ask: number | null };

describe('contract implied volatility', () => {
  let service: TestService;
  let pro: Client;
  let basic: Client;
  let contract: QuotedContract;
  let samples: Sample[];
  /** An SPXW or SPX contract quoted in both the overnight and the regular session of DAY, and its samples. */
  let night: QuotedContract;
  let nightSamples: Sample[];
  let equity: QuotedContract;
  const OPEN = Date.parse('2026-11-20T14:30:00Z');
  const CLOSE = Date.parse('2026-11-20T21:15:00Z');
  // The overnight session of Friday 2026-11-20: Thursday 20:15 ET to Friday 09:25 ET (EST, UTC-5).
  const GTH_OPEN = Date.parse('2026-11-20T01:15:00Z');
  const GTH_CLOSE = Date.parse('2026-11-20T14:25:00Z');
  /** The service's clock: after Friday's close, unless a test moves it. */
  let now = MARKET_NOW;

  /** The contract of these roots most quoted in both windows (the lesser of its two counts). */
  const mostQuoted = async (roots: readonly string[], windows: readonly [number, number][]): Promise<QuotedContract> => {
    const counts = windows.map(([from, to]) => sql`count(*) filter (where q.minute >= ${from}::int8 and q.minute < ${to}::int8)`);
    const best = await sql<QuotedContract>`
      select c.id, c.root, c.date_of_expiry, c.contract_type, c.strike_thousandths / 1000.0 as strike, c.underlying, c.option_symbol
      from quote_samples q join contracts c on c.id = q.contract_id
      where q.trading_date = ${DAY} and c.root in (${sql.join(roots)})
      group by c.id order by least(${sql.join(counts)}) desc, c.id limit 1`.execute(service.database.admin);
    const row = best.rows[0]!;
    return { ...row, strike: Number(row.strike) };
  };
  const samplesOf = async (c: QuotedContract): Promise<Sample[]> =>
    (
      await sql<Sample>`select minute, quote_ts, bid, ask from quote_samples where contract_id = ${c.id} order by minute`.execute(
        service.database.admin,
      )
    ).rows;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      clock: () => now,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    ({ client: basic } = await service.newAccount({ plan: 'basic', overnight: false }));
    contract = await mostQuoted(['SPY'], [[OPEN, CLOSE]]);
    samples = await samplesOf(contract);
    night = await mostQuoted(
      ['SPX', 'SPXW'],
      [
        [GTH_OPEN, GTH_CLOSE],
        [OPEN, CLOSE],
      ],
    );
    nightSamples = await samplesOf(night);
    equity = await mostQuoted(['AAPL', 'TSLA', 'NVDA', 'AMZN'], [[OPEN, CLOSE]]);
  });
  afterAll(async () => service.stop());

  const base = () => ({
    underlying_symbol: contract.root,
    contract_type: contract.contract_type,
    strike: contract.strike,
    date_of_expiry: contract.date_of_expiry,
  });
  const regular = () => samples.filter((s) => s.minute >= OPEN && s.minute < CLOSE);

  it('samples the latest regular session at 5 minutes by default, oldest first, each bucket its last quote, solved at the bar of its minute', async () => {
    const r = await listContractImpliedVolatility({ client: pro, query: base() });
    expect(r.response.status).toBe(200);
    const rows = r.data!.data;
    expect(r.data!.meta.source).toBe('opra');
    const buckets = new Map<number, (typeof samples)[number]>();
    for (const s of regular()) buckets.set(OPEN + Math.floor((s.minute - OPEN) / 300_000) * 300_000, s);
    expect(rows.map((x) => x.timestamp)).toEqual([...buckets.keys()]);
    expect(rows.length).toBeGreaterThan(10);
    let solved = 0;
    for (const row of rows) {
      const s = buckets.get(row.timestamp)!;
      expect(row.option_symbol).toBe(contract.option_symbol);
      // A zero bid or ask is stored as disseminated and served as null (no bid, no offer).
      expect(row.bid).toBe(quoted(s.bid));
      expect(row.ask).toBe(quoted(s.ask));
      if (row.bid !== null && row.ask !== null) expect(row.midpoint).toBeCloseTo((row.bid + row.ask) / 2, 12);
      else expect([row.midpoint, row.implied_volatility]).toEqual([null, null]);
      expect(row.underlying_timestamp === s.minute || row.underlying_timestamp === s.minute - 60_000).toBe(true);
      for (const [price, vol] of [
        [row.midpoint, row.implied_volatility],
        [row.bid, row.bid_implied_volatility],
        [row.ask, row.ask_implied_volatility],
      ] as const) {
        if (vol === null || price === null) continue;
        solved += 1;
        expect(vol).toBeGreaterThan(0.01);
        expect(vol).toBeLessThan(3);
        // The volatility reprices the quote, on the carry of the forward stated (else the fixed yield).
        const time = yearsToSettlement(s.quote_ts, contract.root, contract.date_of_expiry);
        const carry =
          row.forward === null
            ? dividendYield(contract.underlying)
            : riskFreeRate(DAY) - Math.log(row.forward / row.underlying_price!) / time;
        const repriced = bsmPrice({
          type: contract.contract_type,
          spot: row.underlying_price!,
          strike: contract.strike,
          time,
          rate: riskFreeRate(DAY),
          dividendYield: carry,
          volatility: vol,
        });
        expect(repriced).toBeCloseTo(price, 6);
      }
    }
    expect(solved).toBeGreaterThan(rows.length);
    const byDate = await listContractImpliedVolatility({ client: pro, query: { ...base(), date: DAY } });
    expect(byDate.data?.data).toEqual(rows);
  });

  it('gives a call and a put of the strike nearest the forward one volatility (0.1 vol points), both on the parity forward of the minute', async () => {
    const history = async (contract_type: 'call' | 'put', strike: number): Promise<Map<number, ImpliedVolatilitySample>> => {
      const r = await listContractImpliedVolatility({
        client: pro,
        query: { ...base(), contract_type, strike, interval: '1m', limit: 5000 },
      });
      expect(r.response.status).toBe(200);
      return new Map(r.data!.data.map((x) => [x.timestamp, x]));
    };
    const listed = await sql<{ s: string }>`
      select distinct strike_thousandths as s from contracts where root = ${contract.root} and date_of_expiry = ${contract.date_of_expiry}`.execute(
      service.database.admin,
    );
    const strikes = listed.rows.map((r) => Number(r.s) / 1000);
    const nearestTo = (forward: number): number => [...strikes].sort((a, b) => Math.abs(a - forward) - Math.abs(b - forward))[0]!;
    // The strikes nearest the forward at some minute of the day (the forward moves with the market).
    const own = [...(await history(contract.contract_type, contract.strike)).values()].filter((x) => x.forward !== null);
    expect(own.length).toBeGreaterThan(10);
    let compared = 0;
    for (const strike of new Set(own.map((x) => nearestTo(x.forward!)))) {
      const [calls, puts] = [await history('call', strike), await history('put', strike)];
      for (const [timestamp, call] of calls) {
        const put = puts.get(timestamp);
        if (put === undefined || call.implied_volatility === null || put.implied_volatility === null || call.forward === null) continue;
        if (nearestTo(call.forward) !== strike) continue;
        expect(put.forward).toBeCloseTo(call.forward, 9);
        expect(Math.abs(call.implied_volatility - put.implied_volatility), `${strike} ${new Date(timestamp).toISOString()}`).toBeLessThan(
          0.001,
        );
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(30);
  });

  it('pages through every interval with a cursor, and limits to start_time/end_time', async () => {
    const all = await listContractImpliedVolatility({ client: pro, query: { ...base(), interval: '1m', limit: 5000 } });
    expect(all.data!.data.map((x) => x.timestamp)).toEqual(regular().map((s) => s.minute));
    expect(all.data!.pagination).toMatchObject({ has_more: false, next_cursor_id: null, count: regular().length });
    for (const [interval, limit] of [
      ['1m', 7],
      ['10m', 3],
      ['1h', 1],
      ['30m', 5000],
    ] as const) {
      const rows: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 200; i += 1) {
        const page = await listContractImpliedVolatility({ client: pro, query: { ...base(), interval, limit, cursor_id: cursor } });
        expect(page.response.status).toBe(200);
        rows.push(...page.data!.data.map((x) => x.timestamp));
        cursor = page.data!.pagination.next_cursor_id ?? undefined;
        if (!cursor) break;
      }
      const step = { '1m': 60_000, '10m': 600_000, '1h': 3_600_000, '30m': 1_800_000 }[interval];
      expect(rows, interval).toEqual([...new Set(regular().map((s) => OPEN + Math.floor((s.minute - OPEN) / step) * step))]);
    }
    const start = OPEN + 3_600_000;
    const end = OPEN + 2 * 3_600_000;
    const window = await listContractImpliedVolatility({
      client: pro,
      query: { ...base(), interval: '1m', start_time: start, end_time: end },
    });
    expect(window.data!.data.map((x) => x.timestamp)).toEqual(
      regular()
        .filter((s) => s.minute >= start && s.minute < end)
        .map((s) => s.minute),
    );
    const fromStart = await listContractImpliedVolatility({
      client: pro,
      query: { ...base(), interval: '1m', start_time: start, limit: 5000 },
    });
    expect(fromStart.data!.data.map((x) => x.timestamp)).toEqual(
      regular()
        .filter((s) => s.minute >= start)
        .map((s) => s.minute),
    );
  });

  it('says a 1m page is not complete when the contract is sampled only in the 15-minute chain snapshots (issue 33 §9)', async () => {
    // An SPY contract with the fewest regular-session samples: quoted only in the snapshots.
    const sparse = (
      await sql<QuotedContract & { n: string }>`
        select c.id, c.root, c.date_of_expiry::text as date_of_expiry, c.contract_type, c.strike_thousandths / 1000.0 as strike,
          c.underlying, c.option_symbol, count(*) as n
        from quote_samples q join contracts c on c.id = q.contract_id
        where q.trading_date = ${DAY} and c.root = 'SPY' and q.minute >= ${OPEN}::int8 and q.minute < ${CLOSE}::int8
        group by c.id order by count(*), c.id limit 1`.execute(service.database.admin)
    ).rows[0]!;
    const stored = (await samplesOf({ ...sparse, strike: Number(sparse.strike) })).filter((s) => s.minute >= OPEN && s.minute < CLOSE);
    expect(stored.length).toBeLessThan(60);
    const query = {
      underlying_symbol: sparse.root,
      contract_type: sparse.contract_type,
      strike: Number(sparse.strike),
      date_of_expiry: sparse.date_of_expiry,
      date: DAY,
    };
    const minute = await listContractImpliedVolatility({ client: pro, query: { ...query, interval: '1m', limit: 5000 } });
    expect(minute.response.status).toBe(200);
    // The rows are the minutes that have a sample, not filled in; the page says 405 - n of them are missing.
    expect(minute.data!.data.map((x) => x.timestamp)).toEqual(stored.map((s) => s.minute));
    expect(minute.data!.meta.coverage.complete).toBe(false);
    // The session's 405 minutes, or 390 for a contract settling at 16:00 that day.
    const buckets = sparse.date_of_expiry === DAY ? 390 : 405;
    expect(minute.data!.meta.coverage.reason).toMatch(new RegExp(`^${buckets - stored.length} of the ${buckets} 1m buckets`));
    // At the snapshots' own interval nearly every one of the session's 27 buckets has its row, and
    // the page is complete exactly when all do.
    const quarter = await listContractImpliedVolatility({ client: pro, query: { ...query, interval: '15m' } });
    const rows = quarter.data!.data.length;
    expect(rows).toBe(new Set(stored.map((s) => OPEN + Math.floor((s.minute - OPEN) / 900_000) * 900_000)).size);
    expect(rows).toBeGreaterThan(20);
    const quarters = buckets / 15;
    expect(quarter.data!.meta.coverage).toEqual(
      rows === quarters
        ? { complete: true }
        : { complete: false, reason: expect.stringMatching(new RegExp(`^${quarters - rows} of the ${quarters} 15m buckets`)) as unknown },
    );
    // A contract sampled every minute has a complete 1m page.
    const dense = await listContractImpliedVolatility({ client: pro, query: { ...base(), date: DAY, interval: '1m', limit: 5000 } });
    expect(dense.data!.meta.coverage.complete).toBe(dense.data!.data.length === 405);
  });

  it('expects no sample of a same-day expiration after its settlement: a 0DTE quoted every minute to 16:00 is complete at 1m', async () => {
    // The SPY contract expiring on the date with the most regular-session samples: quoted every
    // minute it trades, 09:30 to 15:59, and settled at 16:00, so the session's last 15 buckets
    // (16:00 to 16:14) are not missing from its series.
    const dense = (
      await sql<QuotedContract>`
        select c.id, c.root, c.date_of_expiry::text as date_of_expiry, c.contract_type, c.strike_thousandths / 1000.0 as strike,
          c.underlying, c.option_symbol
        from quote_samples q join contracts c on c.id = q.contract_id
        where q.trading_date = ${DAY} and c.root = 'SPY' and c.date_of_expiry = ${DAY}::date
          and q.minute >= ${OPEN}::int8 and q.minute < ${CLOSE}::int8
        group by c.id order by count(*) desc, c.id limit 1`.execute(service.database.admin)
    ).rows[0]!;
    const stored = (await samplesOf({ ...dense, strike: Number(dense.strike) })).filter((s) => s.minute >= OPEN && s.minute < CLOSE);
    const settles = Date.parse('2026-11-20T21:00:00Z');
    expect(stored.length).toBe(390);
    expect(stored.every((s) => s.minute < settles)).toBe(true);
    const r = await listContractImpliedVolatility({
      client: pro,
      query: {
        underlying_symbol: dense.root,
        contract_type: dense.contract_type,
        strike: Number(dense.strike),
        date_of_expiry: dense.date_of_expiry,
        date: DAY,
        interval: '1m',
        limit: 5000,
      },
    });
    expect(r.response.status).toBe(200);
    expect(r.data!.data).toHaveLength(390);
    expect(r.data!.meta.coverage).toEqual({ complete: true });
  });

  it('answers 400 for a date with a range, an empty or reversed range, a range over 31 days, or an altered cursor', async () => {
    const bad = async (query: Record<string, unknown>): Promise<string[]> => {
      const r = await listContractImpliedVolatility({ client: pro, query: { ...base(), ...query } });
      expect(r.response.status, JSON.stringify(query)).toBe(400);
      return [...new Set((r.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter))].sort();
    };
    expect(await bad({ date: DAY, start_time: OPEN })).toEqual(['date', 'start_time']);
    expect(await bad({ start_time: OPEN, end_time: OPEN })).toEqual(['end_time', 'start_time']);
    expect(await bad({ start_time: OPEN, end_time: OPEN + 31 * 86_400_000 + 1 })).toEqual(['end_time', 'start_time']);
    expect(await bad({ interval: '2m', limit: 5001 })).toEqual(['interval', 'limit']);
    expect(await bad({ cursor_id: 'abc.def' })).toEqual(['cursor_id']);
    expect(await bad({ strike: 5e-324 })).toEqual(['strike']);
    const ok = await listContractImpliedVolatility({
      client: pro,
      query: { ...base(), start_time: OPEN, end_time: OPEN + 31 * 86_400_000 },
    });
    expect(ok.response.status).toBe(200);
  });

  it('answers 422 for a contract that is not listed or a range without quotes', async () => {
    for (const query of [{ strike: 0.005 }, { date: '2026-11-18' }, { date: '2026-11-21' }, { underlying_symbol: 'SPXW' }]) {
      const r = await listContractImpliedVolatility({ client: pro, query: { ...base(), ...query } });
      expect(r.response.status, JSON.stringify(query)).toBe(422);
    }
  });

  const nightBase = () => ({
    underlying_symbol: night.root,
    contract_type: night.contract_type,
    strike: night.strike,
    date_of_expiry: night.date_of_expiry,
  });
  const overnight = () => nightSamples.filter((s) => s.minute >= GTH_OPEN && s.minute < GTH_CLOSE);
  const nightRegular = () => nightSamples.filter((s) => s.minute >= OPEN && s.minute < CLOSE);
  /** Bucket starts of samples on the grid that starts at `grid`, each once, ascending. */
  const bucketsOf = (list: Sample[], grid: number, step: number): number[] => [
    ...new Set(list.map((s) => grid + Math.floor((s.minute - grid) / step) * step)),
  ];

  it('samples the overnight session with gth: from 20:15 ET the evening before to 09:25 ET, buckets aligned to 20:15 ET', async () => {
    expect(overnight().length).toBeGreaterThan(60);
    expect(nightRegular().length).toBeGreaterThan(60);
    const r = await listContractImpliedVolatility({ client: pro, query: { ...nightBase(), date: DAY, session: 'gth', limit: 5000 } });
    expect(r.response.status).toBe(200);
    const rows = r.data!.data;
    expect(rows.map((x) => x.timestamp)).toEqual(bucketsOf(overnight(), GTH_OPEN, 300_000));
    for (const row of rows) {
      expect(row.timestamp).toBeGreaterThanOrEqual(GTH_OPEN);
      expect(row.timestamp).toBeLessThan(GTH_CLOSE);
    }
    // Each bucket is its last quote. The index has no price overnight: the quotes are solved at its
    // last regular close (the 15:59 ET bar of the day before) on the parity forward of their minute.
    const last = new Map(overnight().map((s) => [GTH_OPEN + Math.floor((s.minute - GTH_OPEN) / 300_000) * 300_000, s]));
    for (const row of rows)
      expect([row.bid, row.ask]).toEqual([quoted(last.get(row.timestamp)!.bid), quoted(last.get(row.timestamp)!.ask)]);
    // Without the day before's bars loaded, no price: nothing is solved against a price the index never printed.
    expect(rows.every((x) => x.underlying_price === null && x.implied_volatility === null)).toBe(true);
    const previousClose = Date.parse('2026-11-19T21:00:00Z');
    const bar = { symbol: night.underlying, ts: previousClose - 60_000, open: 5901, high: 5902, low: 5900.5, close: 5901.25, volume: 0 };
    await upsertUnderlyingBars(service.database.admin, [bar]);
    const valued = (await listContractImpliedVolatility({ client: pro, query: { ...nightBase(), date: DAY, session: 'gth', limit: 5000 } }))
      .data!.data;
    expect(valued.every((x) => x.underlying_price === 5901.25 && x.underlying_timestamp === bar.ts)).toBe(true);
    const solved = valued.filter((x) => x.implied_volatility !== null);
    expect(solved.length).toBeGreaterThan(rows.length / 2);
    expect(solved.every((x) => x.forward !== null)).toBe(true);
    // 1h buckets are 20:15, 21:15, ... ET; the default date is the latest session's.
    const hourly = await listContractImpliedVolatility({ client: pro, query: { ...nightBase(), session: 'gth', interval: '1h' } });
    expect(hourly.data!.data.map((x) => x.timestamp)).toEqual(bucketsOf(overnight(), GTH_OPEN, 3_600_000));
    expect(hourly.data!.data.every((x) => (x.timestamp - GTH_OPEN) % 3_600_000 === 0)).toBe(true);
    // A range picks the overnight windows it meets, cut to it.
    const from = GTH_OPEN + 2 * 3_600_000;
    const ranged = await listContractImpliedVolatility({
      client: pro,
      query: { ...nightBase(), session: 'gth', interval: '1m', start_time: from, end_time: CLOSE, limit: 5000 },
    });
    expect(ranged.data!.data.map((x) => x.timestamp)).toEqual(
      overnight()
        .filter((s) => s.minute >= from)
        .map((s) => s.minute),
    );
  });

  it('defaults gth to the overnight session in progress, which belongs to the next trading date', async () => {
    // Thursday 22:00 ET: the overnight session of Friday 2026-11-20 has run since 20:15 ET. Its
    // quotes are loaded (the store was filled after Friday's close); Thursday's are not.
    now = Date.parse('2026-11-20T03:00:00Z');
    try {
      const r = await listContractImpliedVolatility({ client: pro, query: { ...nightBase(), session: 'gth', limit: 5000 } });
      expect(r.response.status).toBe(200);
      const stamps = r.data!.data.map((x) => x.timestamp);
      expect(stamps.length).toBeGreaterThan(0);
      expect(stamps[0]).toBe(bucketsOf(overnight(), GTH_OPEN, 300_000)[0]);
      for (const t of stamps) {
        expect(t).toBeGreaterThanOrEqual(GTH_OPEN);
        expect(t).toBeLessThan(GTH_CLOSE);
      }
      // The regular session's default is still the last completed one, Thursday's, which is not loaded.
      const rth = await listContractImpliedVolatility({ client: pro, query: { ...nightBase(), session: 'rth' } });
      expect(rth.response.status).toBe(422);
    } finally {
      now = MARKET_NOW;
    }
  });

  it('leaves rth as it was: the regular session alone, with or without session', async () => {
    const implicit = await listContractImpliedVolatility({ client: pro, query: { ...nightBase(), date: DAY, limit: 5000 } });
    const explicit = await listContractImpliedVolatility({
      client: pro,
      query: { ...nightBase(), date: DAY, session: 'rth', limit: 5000 },
    });
    expect(implicit.response.status).toBe(200);
    expect(implicit.data!.data.map((x) => x.timestamp)).toEqual(bucketsOf(nightRegular(), OPEN, 300_000));
    expect(explicit.data!.data).toEqual(implicit.data!.data);
    const spy = await listContractImpliedVolatility({ client: pro, query: { ...base(), session: 'rth' } });
    expect(spy.data!.data.map((x) => x.timestamp)).toEqual(bucketsOf(regular(), OPEN, 300_000));
  });

  it('answers 403 for gth and all without the overnight entitlement, and rth as before', async () => {
    for (const session of ['gth', 'all'] as const) {
      const r = await listContractImpliedVolatility({ client: basic, query: { ...nightBase(), date: DAY, session } });
      expect(r.response.status, session).toBe(403);
      expect((r.error as { error: { code: string } }).error.code).toBe('forbidden');
    }
    const rth = await listContractImpliedVolatility({ client: basic, query: { ...nightBase(), date: DAY } });
    expect(rth.response.status).toBe(200);
    expect(rth.data!.data.every((x) => x.timestamp >= OPEN)).toBe(true);
  });

  it('answers 422 for gth on a root without an overnight session, whose all is its regular session', async () => {
    const equityBase = {
      underlying_symbol: equity.root,
      contract_type: equity.contract_type,
      strike: equity.strike,
      date_of_expiry: equity.date_of_expiry,
    };
    const gth = await listContractImpliedVolatility({ client: pro, query: { ...equityBase, date: DAY, session: 'gth' } });
    expect(gth.response.status).toBe(422);
    const { error } = gth.error as { error: { code: string; message: string } };
    expect(error.code).toBe('no_data');
    expect(error.message).toMatch(/has no overnight session/);
    expect((await listContractImpliedVolatility({ client: pro, query: { ...base(), session: 'gth' } })).response.status).toBe(422);
    const all = await listContractImpliedVolatility({ client: pro, query: { ...equityBase, date: DAY, session: 'all' } });
    const rth = await listContractImpliedVolatility({ client: pro, query: { ...equityBase, date: DAY } });
    expect(all.response.status).toBe(200);
    expect(all.data!.data).toEqual(rth.data!.data);
  });

  it('pages through an all day with a cursor: every overnight then regular bucket once, in order', async () => {
    for (const [interval, limit] of [
      ['1h', 1],
      ['1h', 3],
      ['5m', 7],
      ['30m', 4],
      ['1m', 250],
    ] as const) {
      const step = { '1m': 60_000, '5m': 300_000, '30m': 1_800_000, '1h': 3_600_000 }[interval];
      const want = [...bucketsOf(overnight(), GTH_OPEN, step), ...bucketsOf(nightRegular(), OPEN, step)];
      const rows: number[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 500; i += 1) {
        const page = await listContractImpliedVolatility({
          client: pro,
          query: { ...nightBase(), date: DAY, session: 'all', interval, limit, cursor_id: cursor },
        });
        expect(page.response.status).toBe(200);
        rows.push(...page.data!.data.map((x) => x.timestamp));
        cursor = page.data!.pagination.next_cursor_id ?? undefined;
        if (!cursor) break;
      }
      expect(rows, `${interval} by ${limit}`).toEqual(want);
    }
  });
});

function r200Source(r: { response: Response; data?: { meta: { source: string } } }): string | undefined {
  expect(r.response.status).toBe(200);
  return r.data?.meta.source;
}
