/**
 * The flow aggregates against the prints they add up (an oracle test): on a small simulated market
 * of two sessions, the totals the leaders route reads (db/flow-aggregates.ts) equal the direct
 * aggregation of the stored prints (db/trades.ts flowByUnderlying, flowByContract) for every
 * session choice (and two other sets of sessions), with and without complex prints, whole market
 * and narrowed by roots; and still do after a later file of a stored date adds prints and cancels
 * stored ones (last prints among them: the added prints' totals are added to the stored rows, the
 * contracts a cancel touched recomputed), after the session is archived (its totals dropped with
 * it) and after it is loaded back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSIONS_OF } from '../../src/analytics/print-filters.js';
import type { Queryable } from '../../src/db/connection.js';
import { contractFlowTotals, refreshFlowTotals, underlyingFlowTotals } from '../../src/db/flow-aggregates.js';
import { storedDayVolumes } from '../../src/db/stored-prints.js';
import { flowByContract, flowByUnderlying, type ContractFlowRow, type LeaderFilter, type UnderlyingFlowRow } from '../../src/db/trades.js';
import { archiveSession, reloadSession } from '../../src/ingest/archive.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';

const byUnderlying = (rows: UnderlyingFlowRow[]): UnderlyingFlowRow[] => [...rows].sort((a, b) => a.underlying.localeCompare(b.underlying));
const contractKey = (r: ContractFlowRow): string => `${r.root}|${r.date_of_expiry}|${r.contract_type}|${r.strike}`;
const byContract = (rows: ContractFlowRow[]): ContractFlowRow[] => [...rows].sort((a, b) => contractKey(a).localeCompare(contractKey(b)));

/** A stored print as a later file's line repeats or cancels it. */
interface PrintOfContract {
  option_symbol: string;
  ts: number;
  sequence: number;
  price: number;
  size: number;
  exchange_code: number;
}

/** The canonical prints file's header (the later files written here). */
const PRINTS_HEADER =
  'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp';

/** The filters compared: session sets, with and without complex prints, the market and some roots. */
function filters(date: string): LeaderFilter[] {
  const out: LeaderFilter[] = [];
  // The route's session choices, and two other sets (read from the rows per session).
  for (const sessions of [...Object.values(SESSIONS_OF), ['rth'], ['curb', 'other']]) {
    for (const includeComplex of [false, true]) {
      for (const roots of [null, ['SPX', 'SPXW'], ['IWM'], ['NOSUCHROOT']])
        out.push({ tradingDate: date, sessions, includeComplex, roots });
    }
  }
  return out;
}

/** Compares the aggregates with the prints for every filter of the date; returns how many rows were compared. */
async function expectTotalsEqualPrints(db: Queryable, date: string, previous: string | null): Promise<number> {
  let compared = 0;
  for (const f of filters(date)) {
    const label = JSON.stringify(f);
    if (f.roots === null) {
      const want = byUnderlying(await flowByUnderlying(db, f));
      expect(byUnderlying(await underlyingFlowTotals(db, { ...f, roots: null })), label).toEqual(want);
      compared += want.length;
    }
    const want = byContract(await flowByContract(db, f, previous));
    expect(byContract(await contractFlowTotals(db, f, previous)), label).toEqual(want);
    compared += want.length;
  }
  return compared;
}

async function totalsRows(db: Queryable, date: string): Promise<unknown[]> {
  const contracts =
    await sql`select * from flow_totals_by_contract where trading_date = ${date}::date order by contract_id, session, complex, underlying`.execute(
      db,
    );
  const underlyings =
    await sql`select * from flow_totals_by_underlying where trading_date = ${date}::date order by underlying, session, complex`.execute(db);
  const leaders =
    await sql`select * from flow_leaders_by_contract where trading_date = ${date}::date order by sessions, include_complex, contract_id`.execute(
      db,
    );
  return [...contracts.rows, ...underlyings.rows, ...leaders.rows];
}

/**
 * A date's quote samples, every column, as PostgreSQL writes them (a float8 as its shortest exact
 * decimal: equal text is an equal value): their count, and a digest of them in key order.
 */
async function quoteSamplesDigest(db: Queryable, date: string): Promise<{ samples: number; digest: string }> {
  const result = await sql<{ samples: number; digest: string }>`
    select count(*)::int as samples,
           md5(string_agg(concat_ws(',', contract_id, minute, quote_ts, bid, ask, bid_size, ask_size), E'\n' order by contract_id, minute)) as digest
      from quote_samples where trading_date = ${date}::date`.execute(db);
  return result.rows[0]!;
}

describe('flow aggregates', () => {
  let service: TestService;
  let dataDir: string;
  beforeAll(async () => {
    service = await startTestService({ market: { dates: [PREVIOUS, DAY] } });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flow-aggregates-'));
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('equal the prints aggregated, for every session set, with and without complex prints, by roots', async () => {
    const db = service.database.admin;
    expect(await expectTotalsEqualPrints(db, DAY, PREVIOUS)).toBeGreaterThan(1000);
    expect(await expectTotalsEqualPrints(db, PREVIOUS, null)).toBeGreaterThan(1000);
    // The previous close is read from the previous date's totals: some contracts have one.
    const rows = await contractFlowTotals(
      db,
      { tradingDate: DAY, sessions: SESSIONS_OF.rth, includeComplex: false, roots: null },
      PREVIOUS,
    );
    expect(rows.filter((r) => r.previous_close !== null).length).toBeGreaterThan(10);
    expect(rows.filter((r) => r.previous_close === null).length).toBeGreaterThan(0);
    // The day volume so far a later file of the date continues (db/stored-prints.ts storedDayVolumes,
    // read from the totals) is every contract's uncancelled prints' volume.
    const direct = await sql<{ contract_id: string; volume: string }>`
      select contract_id, sum(size)::int8 as volume from prints where trading_date = ${DAY}::date and not cancelled group by contract_id`.execute(
      db,
    );
    expect(direct.rows.length).toBeGreaterThan(100);
    const volumes = await storedDayVolumes(
      db,
      DAY,
      direct.rows.map((r) => Number(r.contract_id)),
    );
    expect(volumes).toEqual(new Map(direct.rows.map((r) => [Number(r.contract_id), Number(r.volume)])));
  });

  it('follow a later file of a stored date: new prints, new last prints and cancels of stored prints', async () => {
    const db = service.database.admin;
    // Regular-session prints of DAY: the last print of some contracts (a cancel of it changes the
    // contract's last price), and others anywhere in the day.
    const stored = await sql<PrintOfContract & { is_last: boolean }>`
      select c.option_symbol, p.ts, p.sequence, p.price, p.size, p.exchange_code,
        array[p.ts, p.sequence] = (select max(array[q.ts, q.sequence]) from prints q where q.trading_date = p.trading_date and q.contract_id = p.contract_id and not q.cancelled) as is_last
      from prints p join contracts c on c.id = p.contract_id
      where p.trading_date = ${DAY}::date and p.session = 'rth' and not p.cancelled
      order by p.contract_id, p.ts, p.sequence`.execute(db);
    const lasts = stored.rows.filter((r) => r.is_last).slice(0, 12);
    const others = stored.rows
      .filter((r) => !r.is_last)
      .filter((_, i) => i % 97 === 0)
      .slice(0, 12);
    expect(lasts.length).toBe(12);
    expect(others.length).toBe(12);
    const lines: string[] = [];
    let sequence = 900_000_000;
    // A cancel record 1 ms after each chosen print (same exchange, price and size).
    for (const p of [...lasts, ...others])
      lines.push(`${p.option_symbol},${Number(p.ts) + 1},${(sequence += 1)},${p.price},${p.size},${p.exchange_code},201,,,,,`);
    // New prints: a later last print of other contracts, priced apart from their last.
    for (const p of stored.rows.filter((r) => r.is_last).slice(20, 26)) {
      lines.push(
        `${p.option_symbol},${Number(p.ts) + 2},${(sequence += 1)},${(Number(p.price) + 0.05).toFixed(2)},${p.size + 3},${p.exchange_code},209,,,,,`,
      );
    }
    const file = path.join(dataDir, 'later-prints.csv');
    fs.writeFileSync(file, [PRINTS_HEADER, ...lines].join('\n'));
    const before = await totalsRows(db, DAY);
    const result = await loadMarketFile(db, 'prints', file);
    expect(result).toMatchObject({ loaded: 6, cancelsOfStored: 24 });
    expect(await totalsRows(db, DAY)).not.toEqual(before);
    expect(await expectTotalsEqualPrints(db, DAY, PREVIOUS)).toBeGreaterThan(1000);
  });

  it("add a later file's prints to the stored totals, and recompute from the prints only the contracts its cancels touched", async () => {
    const db = service.database.admin;
    // Two contracts with regular-session prints: A takes a new print only, B a new print and a cancel of a stored print.
    const picked = await sql<PrintOfContract & { contract_id: string }>`
      select distinct on (p.contract_id) p.contract_id, c.option_symbol, p.ts, p.sequence, p.price, p.size, p.exchange_code
      from prints p join contracts c on c.id = p.contract_id
      where p.trading_date = ${DAY}::date and p.session = 'rth' and not p.cancelled and p.trade_type <> 'multileg' and not ('complex' = any(p.flags))
      order by p.contract_id, p.ts, p.sequence limit 2`.execute(db);
    expect(picked.rows).toHaveLength(2);
    const [a, b] = picked.rows as [(typeof picked.rows)[0], (typeof picked.rows)[0]];
    // A mark on each contract's stored row: kept by an addition to the row, gone when the row is recomputed.
    const mark = async (contractId: string, by: number) =>
      await sql`update flow_totals_by_contract set trades = trades + ${by}::int8
        where trading_date = ${DAY}::date and contract_id = ${contractId}::int8 and session = 'rth' and not complex`.execute(db);
    const tradesOf = async (contractId: string): Promise<number> =>
      Number(
        (
          await sql<{ trades: string }>`select trades from flow_totals_by_contract
            where trading_date = ${DAY}::date and contract_id = ${contractId}::int8 and session = 'rth' and not complex`.execute(db)
        ).rows[0]?.trades,
      );
    const before = { a: await tradesOf(a.contract_id), b: await tradesOf(b.contract_id) };
    await mark(a.contract_id, 1000);
    await mark(b.contract_id, 1000);
    const lines = [
      `${a.option_symbol},${Number(a.ts) + 3},950000001,${a.price},${a.size},${a.exchange_code},209,,,,,`,
      `${b.option_symbol},${Number(b.ts) + 3},950000002,${b.price},${b.size},${b.exchange_code},209,,,,,`,
      // The cancel of B's first stored print.
      `${b.option_symbol},${Number(b.ts) + 1},950000003,${b.price},${b.size},${b.exchange_code},201,,,,,`,
    ];
    const file = path.join(dataDir, 'added-prints.csv');
    fs.writeFileSync(file, [PRINTS_HEADER, ...lines].join('\n'));
    expect(await loadMarketFile(db, 'prints', file)).toMatchObject({ loaded: 2, cancelsOfStored: 1 });
    // A: its stored row plus the new print (the mark kept); B: recomputed from its prints (the mark gone).
    expect(await tradesOf(a.contract_id)).toBe(before.a + 1 + 1000);
    expect(await tradesOf(b.contract_id)).toBe(before.b + 1 - 1);
    await mark(a.contract_id, -1000);
    await refreshFlowTotals(db, DAY, [Number(a.contract_id)]);
    expect(await expectTotalsEqualPrints(db, DAY, PREVIOUS)).toBeGreaterThan(1000);
  });

  it('leave with an archived session and come back with it', async () => {
    const db = service.database.admin;
    const before = await totalsRows(db, DAY);
    expect(before.length).toBeGreaterThan(0);
    const quotesBefore = await quoteSamplesDigest(db, DAY);
    expect(quotesBefore.samples).toBeGreaterThan(100_000);
    expect(await archiveSession(db, path.join(dataDir, 'archive'), DAY)).toMatchObject({ quotes: quotesBefore.samples });
    expect(await quoteSamplesDigest(db, DAY)).toMatchObject({ samples: 0 });
    expect(await totalsRows(db, DAY)).toEqual([]);
    expect(await underlyingFlowTotals(db, { tradingDate: DAY, sessions: SESSIONS_OF.all, includeComplex: true })).toEqual([]);
    // The previous date keeps its totals.
    expect(await expectTotalsEqualPrints(db, PREVIOUS, null)).toBeGreaterThan(1000);
    expect(await reloadSession(db, DAY, { now: MARKET_NOW })).toBe('loaded');
    // Every quote sample back as it was stored, to the last digit.
    expect(await quoteSamplesDigest(db, DAY)).toEqual(quotesBefore);
    expect(await totalsRows(db, DAY)).toEqual(before);
    expect(await expectTotalsEqualPrints(db, DAY, PREVIOUS)).toBeGreaterThan(1000);
  });
});
