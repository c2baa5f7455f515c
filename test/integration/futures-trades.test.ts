/**
 * GET /v1/futures/trades on a running service, over trades loaded through the futures ingest path
 * from files written here: every page of a contract's or a root's trade date, in both orders and at
 * several page sizes, equals the trades of the files filtered and ordered in this test (by time,
 * sequence, file order within a contract and sequence, then contract), with the notional
 * recomputed here from the definitions' multipliers; the filters, the window, the default trade
 * date, the 400s, the 403 without the futures dataset, the catalog entry, the export against the
 * pages, and the plan of a page (an index scan of the trade date's partition, no sort).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, getAsyncApiDocument, getExport, listCatalog, listFuturesTrades } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { FuturesTrade, ListFuturesTradesData } from '../../generated/client/types.gen.js';
import { futuresTradePageStatement } from '../../src/db/futures-trades.js';
import { exportJob } from '../../src/jobs/export.js';
import { loadFuturesDefinitions, loadFuturesTrades, type FuturesTradeLine as Written } from '../support/futures-trades.js';
import { startTestService, type TestService } from '../support/service.js';
import { MessageSchemas, StreamClient } from '../support/stream-client.js';
import { settledJob } from '../support/settled.js';

/** Friday 2026-11-20 17:30 ET: Globex closed, so the default trade date is that Friday's. */
const AFTER_CLOSE = Date.parse('2026-11-20T22:30:00Z');
/** The Globex session of trade date 2026-11-20: Thursday 18:00 ET to Friday 17:00 ET. */
const OPEN = Date.parse('2026-11-19T23:00:00Z');
const CLOSE = Date.parse('2026-11-20T22:00:00Z');
const MULTIPLIER: Record<string, number> = { ESZ6: 50, ESH7: 50, NQZ6: 20 };
const ROOT: Record<string, string> = { ESZ6: 'ES', ESH7: 'ES', NQZ6: 'NQ' };
const CANONICAL: Record<string, string> = { ESZ6: 'ESZ26', ESH7: 'ESH27', NQZ6: 'NQZ26' };

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The trades of a trade date: single trades, match events of several price levels (one sequence,
 * several trades of a contract), calendar spreads (ESZ6 and ESH7 legs with the same time and
 * sequence, each match 0), many trades in one millisecond, and trades without an aggressor.
 */
function tradesOf(tradeDate: string, open: number, close: number, count: number, seed: number): Written[] {
  const next = random(seed);
  const out: Written[] = [];
  let sequence = 1_000 + seed * 100_000;
  const side = (): Written['side'] => (next() < 0.1 ? 'none' : next() < 0.5 ? 'buy' : 'sell');
  for (let i = 0; i < count; i += 1) {
    const ts = open + Math.floor(next() * (close - open));
    const kind = next();
    sequence += 1 + Math.floor(next() * 3);
    const size = 1 + Math.floor(next() * (next() < 0.1 ? 400 : 20));
    if (kind < 0.15) {
      // A calendar spread's legs: one sequence, the same millisecond, match 0 in each contract.
      const s = side();
      out.push({ symbol: 'ESZ6', ts, sequence, price: 6000 + Math.floor(next() * 80) / 4, size, side: s, tradeDate });
      out.push({ symbol: 'ESH7', ts, sequence, price: 6050 + Math.floor(next() * 80) / 4, size, side: s, tradeDate });
    } else if (kind < 0.3) {
      // A match event sweeping three price levels of one contract.
      const symbol = next() < 0.5 ? 'ESZ6' : 'NQZ6';
      const base = symbol === 'NQZ6' ? 21000 : 6000;
      const s = side();
      for (let level = 0; level < 3; level += 1)
        out.push({ symbol, ts, sequence, price: base + level / 4, size: 1 + Math.floor(next() * 5), side: s, tradeDate });
    } else {
      const symbol = ['ESZ6', 'ESH7', 'NQZ6'][Math.floor(next() * 3)]!;
      const base = symbol === 'NQZ6' ? 21000 : symbol === 'ESH7' ? 6050 : 6000;
      out.push({ symbol, ts, sequence, price: base + Math.floor(next() * 80) / 4, size, side: side(), tradeDate });
    }
  }
  // Several trades in one millisecond, of different sequences.
  for (let k = 0; k < 5; k += 1)
    out.push({ symbol: 'ESZ6', ts: open + 3_600_000, sequence: sequence + 10 + k, price: 6001, size: 2, side: 'buy', tradeDate });
  return out;
}

/** The file's trades as served: canonical symbol, root, notional from the multiplier, match by file order. */
function served(trades: readonly Written[], contractIds: ReadonlyMap<string, number>): (FuturesTrade & { contractId: number })[] {
  const matches = new Map<string, number>();
  return trades.map((t) => {
    const key = `${t.symbol}|${t.tradeDate}|${t.sequence}`;
    const match = matches.get(key) ?? 0;
    matches.set(key, match + 1);
    const canonical = CANONICAL[t.symbol]!;
    return {
      symbol: canonical,
      globex_symbol: t.symbol,
      root: ROOT[t.symbol] as FuturesTrade['root'],
      contract_month: t.symbol.endsWith('Z6') ? '2026-12' : '2027-03',
      trade_date: t.tradeDate,
      timestamp: t.ts,
      price: t.price,
      size: t.size,
      aggressor_side: t.side,
      multiplier: MULTIPLIER[t.symbol]!,
      notional: t.price * MULTIPLIER[t.symbol]! * t.size,
      sequence: t.sequence,
      match,
      contractId: contractIds.get(t.symbol)!,
    };
  });
}

function ordered<T extends { timestamp: number; sequence: number; match: number; contractId: number }>(
  rows: T[],
  newestFirst: boolean,
): T[] {
  const sorted = [...rows].sort(
    (a, b) => a.timestamp - b.timestamp || a.sequence - b.sequence || a.match - b.match || a.contractId - b.contractId,
  );
  return newestFirst ? sorted.reverse() : sorted;
}

const strip = <T extends { contractId: number }>(rows: T[]) => rows.map(({ contractId: _, ...rest }) => rest);

describe('futures trades route', () => {
  let service: TestService;
  let pro: Client;
  let proKey: string;
  let optionsOnly: Client;
  let optionsOnlyKey: string;
  let all: (FuturesTrade & { contractId: number })[];
  let contractIds: Map<string, number>;
  let first: Written[];

  beforeAll(async () => {
    service = await startTestService({
      jobs: true,
      clock: () => AFTER_CLOSE,
      env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' },
    });
    ({ client: pro, key: proKey } = await service.newAccount({ plan: 'pro' }));
    ({ client: optionsOnly, key: optionsOnlyKey } = await service.newAccount({ plan: 'pro', datasets: ['options'] }));
    const db = service.database.admin;
    expect(await loadFuturesDefinitions(db)).toBe(3);
    const friday = tradesOf('2026-11-20', OPEN, CLOSE, 700, 1);
    const thursday = tradesOf('2026-11-19', OPEN - 86_400_000, CLOSE - 86_400_000, 50, 2);
    const loaded = await loadFuturesTrades(db, [...friday, ...thursday]);
    expect(loaded).toMatchObject({ loaded: friday.length + thursday.length, duplicates: 0, rejected: [] });
    const stored = await db.selectFrom('futures_contracts').select(['id', 'symbol']).execute();
    contractIds = new Map(stored.map((r) => [r.symbol, r.id]));
    first = friday;
    all = served(friday, contractIds);
  });
  afterAll(async () => {
    await service?.stop();
  });

  type Query = NonNullable<ListFuturesTradesData['query']>;
  async function pages(query: Query): Promise<{ rows: FuturesTrade[]; pages: number }> {
    const rows: FuturesTrade[] = [];
    let cursor: string | undefined;
    let n = 0;
    for (;;) {
      const r = await listFuturesTrades({ client: pro, query: { ...query, cursor_id: cursor } });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      n += 1;
      rows.push(...r.data!.data);
      expect(r.data!.meta.source).toBe('cme');
      const p = r.data!.pagination;
      expect(p.count).toBe(r.data!.data.length);
      if (p.next_cursor_id === null) break;
      expect(p.count).toBe(query.limit ?? 100);
      cursor = p.next_cursor_id;
    }
    return { rows, pages: n };
  }

  it('pages a root and a contract through the whole trade date, in both orders, at several page sizes', async () => {
    const es = all.filter((t) => t.root === 'ES');
    const esz6 = all.filter((t) => t.globex_symbol === 'ESZ6');
    expect(es.length).toBeGreaterThan(400);
    for (const limit of [7, 64, 500]) {
      for (const order of ['desc', 'asc'] as const) {
        const root = await pages({ root: 'ES', date: '2026-11-20', order, limit });
        expect(root.rows).toEqual(strip(ordered(es, order === 'desc')));
        expect(root.pages).toBe(Math.ceil(es.length / limit));
        const contract = await pages({ symbol: 'ESZ26', date: '2026-11-20', order, limit });
        expect(contract.rows).toEqual(strip(ordered(esz6, order === 'desc')));
      }
    }
    // The default: newest first, the Friday trade date (Globex closed at the service clock), ESZ6 the same contract as ESZ26.
    expect((await pages({ symbol: 'ESZ6', limit: 500 })).rows).toEqual(strip(ordered(esz6, true)));
  });

  it('filters on size, notional, aggressor side and a window, as the trades filtered here', async () => {
    const from = OPEN + 3 * 3_600_000;
    const to = CLOSE - 5 * 3_600_000;
    const cases: [Query, (t: FuturesTrade) => boolean][] = [
      [{ root: 'ES', min_size: 10 }, (t) => t.root === 'ES' && t.size >= 10],
      [{ root: 'NQ', max_size: 3, aggressor_side: 'buy' }, (t) => t.root === 'NQ' && t.size <= 3 && t.aggressor_side === 'buy'],
      [{ root: 'ES', aggressor_side: 'none' }, (t) => t.root === 'ES' && t.aggressor_side === 'none'],
      [
        { root: 'ES', min_notional: 3_000_000, max_notional: 30_000_000 },
        (t) => t.root === 'ES' && t.notional >= 3_000_000 && t.notional <= 30_000_000,
      ],
      [{ symbol: 'NQZ6', min_notional: 2_000_000 }, (t) => t.globex_symbol === 'NQZ6' && t.notional >= 2_000_000],
      [
        { root: 'ES', start_time: from, end_time: to, aggressor_side: 'sell' },
        (t) => t.root === 'ES' && t.timestamp >= from && t.timestamp < to && t.aggressor_side === 'sell',
      ],
    ];
    for (const [query, keep] of cases) {
      const expected = strip(ordered(all.filter(keep), true));
      expect(expected.length, JSON.stringify(query)).toBeGreaterThan(3);
      expect((await pages({ ...query, date: '2026-11-20', limit: 40 })).rows, JSON.stringify(query)).toEqual(expected);
    }
    // The other trade date holds only its own trades.
    const thursday = await pages({ root: 'ES', date: '2026-11-19', limit: 500 });
    expect(thursday.rows.length).toBeGreaterThan(0);
    expect(thursday.rows.every((t) => t.trade_date === '2026-11-19')).toBe(true);
  });

  it('answers 400 naming each bad parameter, 422 when nothing matches, 403 without the futures dataset', async () => {
    const problems = async (query: Query) => {
      const r = await listFuturesTrades({ client: pro, query });
      expect(r.response.status, JSON.stringify(query)).toBe(400);
      return (r.error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort();
    };
    expect(await problems({ symbol: 'ESZ26', root: 'ES' })).toContain('root');
    expect(await problems({ root: 'ES', min_size: 10, max_size: 5 })).toContain('max_size');
    expect(await problems({ root: 'ES', date: '2026-11-20', start_time: OPEN - 1 })).toEqual(['start_time']);
    expect(await problems({ root: 'ES', date: '2026-11-20', end_time: CLOSE + 60_000 })).toEqual(['end_time']);
    expect(await problems({ symbol: 'ESF6' })).toEqual(['symbol']);
    expect(await problems({ root: 'ES', start_time: OPEN + 1000, end_time: OPEN })).toEqual(['end_time', 'start_time']);
    // A window alone names the trade date it falls in (Thursday's, before Thursday's 17:00 ET close).
    const thursday = await pages({ root: 'ES', end_time: OPEN - 3_600_000, limit: 500 });
    expect(thursday.rows.length).toBeGreaterThan(0);
    expect(thursday.rows.every((t) => t.trade_date === '2026-11-19')).toBe(true);
    for (const query of [
      { root: 'RTY', date: '2026-11-20' },
      { root: 'ES', date: '2026-11-21' },
    ] as const) {
      const none = await listFuturesTrades({ client: pro, query });
      expect(none.response.status, JSON.stringify(query)).toBe(422);
    }
    const forbidden = await listFuturesTrades({ client: optionsOnly, query: { root: 'ES' } });
    expect(forbidden.response.status).toBe(403);
    const body = forbidden.error as { error: { code: string; message: string } };
    expect(body.error.code).toBe('forbidden');
    expect(body.error.message).toContain('futures dataset');
  });

  it('is in the catalog under futures, paginated', async () => {
    const r = await listCatalog({ client: pro, query: { family: 'futures' } });
    const entry = r.data!.data.find((e) => e.id === 'listFuturesTrades');
    expect(entry).toMatchObject({ path: '/v1/futures/trades', dataset: 'futures', paginated: true, mcp: true });
  });

  it('exports the pages of a query: the file rows equal the pages, in order', async () => {
    const query = { root: 'ES', date: '2026-11-20', min_size: 2, order: 'asc' } as const;
    const created = await createExport({ client: pro, body: { path: '/v1/futures/trades', query, format: 'json' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
    const job = (await getExport({ client: pro, path: { id } })).data!.data;
    expect(job.status).toBe('ready');
    const response = await fetch(`${service.url}${job.download_url}`, { headers: { authorization: `Bearer ${proKey}` } });
    const file = JSON.parse(Buffer.from(await response.arrayBuffer()).toString('utf8')) as { data: FuturesTrade[] };
    const paged = await pages({ ...query, limit: 100 });
    expect(paged.pages).toBeGreaterThan(1);
    expect(file.data).toEqual(paged.rows);
    expect(job.rows).toBe(paged.rows.length);
  });

  it('reads a page on an index of the trade date partition, in the index order, without a sort', async () => {
    const db = service.database.admin;
    const explain = async (statement: { sql: string; parameters: readonly unknown[] }): Promise<string[]> => {
      const literal = (v: unknown): string => (typeof v === 'number' ? String(v) : `'${String(v)}'`);
      const text = statement.sql.replace(/\$(\d+)/g, (_m, i: string) => literal(statement.parameters[Number(i) - 1]));
      const plan = await sql.raw<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off, summary off) ${text}`).execute(db);
      return plan.rows.map((row) => row['QUERY PLAN']);
    };
    const ids = new Map((await db.selectFrom('futures_contracts').select(['id', 'symbol']).execute()).map((r) => [r.symbol, r.id]));
    const base = {
      tradeDate: '2026-11-20',
      root: 'ES',
      contractId: null,
      from: OPEN,
      to: CLOSE,
      minSize: 2,
      aggressorSide: 'buy' as const,
    };
    const middle = ordered(
      all.filter((t) => t.root === 'ES'),
      true,
    )[200]!;
    const after = { ts: middle.timestamp, sequence: middle.sequence, match: middle.match, contractId: middle.contractId };
    for (const [filter, index] of [
      [base, 'futures_trades_20261120_root'],
      [{ ...base, contractId: ids.get('ESZ6')! }, 'futures_trades_20261120_contract'],
    ] as const) {
      for (const newestFirst of [true, false]) {
        const lines = await explain(futuresTradePageStatement(db, filter, after, 50, newestFirst).compile());
        const scan = lines.findIndex((line) =>
          new RegExp(`Index Scan( Backward)? using ${index}\\S* on futures_trades_20261120`).test(line),
        );
        expect(scan, lines.join('\n')).toBeGreaterThanOrEqual(0);
        // The cursor's position, the size and the side are conditions on the index entry.
        expect(lines[scan + 1], lines.join('\n')).toMatch(/Index Cond: .*ROW\(t?\.?ts.*size >= .*aggressor_side = /i);
        expect(
          lines.some((line) => /^\s*(->\s*)?(Incremental )?Sort\b/.test(line)),
          lines.join('\n'),
        ).toBe(false);
        expect(
          lines.some((line) => /futures_trades_20261119/.test(line)),
          lines.join('\n'),
        ).toBe(false);
      }
    }
  });

  it('streams the trades of a load committed while subscribed, exactly those passing the filters of each subscription', async () => {
    const { key } = await service.newAccount({ plan: 'pro' });
    const document = (await getAsyncApiDocument({ client: service.client() })).data as unknown as Record<string, unknown>;
    const stream = await StreamClient.open(service.url, { key, schemas: new MessageSchemas(document) });
    try {
      await stream.next((m) => m.type === 'welcome');
      const subscribe = async (id: string, params: Record<string, unknown>) => {
        stream.send({ type: 'subscribe', id, channel: 'futures_trades', params });
        return await stream.next((m) => m.request === id);
      };
      const queries: Record<string, [Record<string, unknown>, (t: FuturesTrade) => boolean]> = {
        es: [{ root: 'ES', min_size: 5 }, (t) => t.root === 'ES' && t.size >= 5],
        esz6: [
          { symbol: 'ESZ26', aggressor_side: 'buy', min_notional: 1_000_000 },
          (t) => t.globex_symbol === 'ESZ6' && t.aggressor_side === 'buy' && t.notional >= 1_000_000,
        ],
        nq: [{ root: 'NQ' }, (t) => t.root === 'NQ'],
      };
      const subs = new Map<string, string>();
      for (const [id, [params]] of Object.entries(queries)) {
        const answer = await subscribe(id, params);
        expect(answer.type, JSON.stringify(answer)).toBe('subscribed');
        expect(Object.keys(answer.params as object)).not.toContain('order');
        subs.set(id, String(answer.subscription));
      }
      // An account without the futures dataset is refused as the route refuses it.
      const other = await StreamClient.open(service.url, { key: optionsOnlyKey });
      try {
        await other.next((m) => m.type === 'welcome');
        other.send({ type: 'subscribe', id: 'f', channel: 'futures_trades', params: { root: 'ES' } });
        const refused = await other.next((m) => m.request === 'f');
        expect(refused).toMatchObject({ type: 'error', error: { status: 403, code: 'forbidden' } });
      } finally {
        other.close();
      }
      // The route's rules hold: one of symbol and root; a stream takes no order, date or window.
      for (const params of [
        { symbol: 'ESZ26', root: 'ES' },
        { root: 'ES', order: 'asc' },
        { root: 'ES', date: '2026-11-20' },
      ]) {
        const refused = await subscribe(`bad${JSON.stringify(params)}`, params);
        expect(refused.type, JSON.stringify(params)).toBe('error');
        expect((refused.error as { status: number }).status).toBe(400);
      }

      // New trades of the streamed trade date, one already stored (not written again, so not sent),
      // and trades of the day before (an earlier trade date: not streamed).
      const fresh = tradesOf('2026-11-20', OPEN, CLOSE, 120, 3);
      const repeated = first[0]!;
      const earlier = tradesOf('2026-11-19', OPEN - 86_400_000, CLOSE - 86_400_000, 20, 4);
      const loaded = await loadFuturesTrades(service.database.admin, [repeated, ...fresh, ...earlier]);
      expect(loaded).toMatchObject({ loaded: fresh.length + earlier.length, duplicates: 1 });

      const sent = served(fresh, contractIds);
      const received = (id: string) =>
        stream.messages
          .filter((m) => m.type === 'futures_trades' && m.subscription === subs.get(id))
          .flatMap((m) => {
            expect(m).toMatchObject({ channel: 'futures_trades', trade_date: '2026-11-20' });
            return m.data as FuturesTrade[];
          });
      for (const [id, [, keep]] of Object.entries(queries)) {
        const expected = strip(ordered(sent.filter(keep), false));
        expect(expected.length, id).toBeGreaterThan(3);
        await stream.next(() => received(id).length >= expected.length);
      }
      await service.streams?.hub.settled();
      for (const [id, [, keep]] of Object.entries(queries)) expect(received(id), id).toEqual(strip(ordered(sent.filter(keep), false)));
      expect(stream.invalid).toEqual([]);
      // The route serves what was streamed: the root's trades now include the fresh ones.
      const es = await pages({ root: 'ES', date: '2026-11-20', limit: 500, min_size: 5 });
      expect(es.rows).toEqual(strip(ordered([...all, ...sent].filter(queries.es![1]), true)));
    } finally {
      stream.close();
    }
  });
});
