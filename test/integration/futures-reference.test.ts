/**
 * The futures reference routes and the futures sessions on a running service: the products'
 * figures and the contracts listed at dates, checked against values written out here from CME's
 * contract specifications and listing rules (not computed by the code under test); the default
 * as_of from the service clock; 400s naming each bad parameter; 403 without the futures dataset;
 * the catalog entries; exports; Globex windows of the sessions route around holidays.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExport,
  getExport,
  listCatalog,
  listFuturesContracts,
  listFuturesProducts,
  listMarketSessions,
} from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import { exportJob } from '../../src/jobs/export.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

/** Friday 2026-11-20 17:30 ET: after Globex's close, so the current CME trade date is Monday 2026-11-23. */
const AFTER_CLOSE = Date.parse('2026-11-20T22:30:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('futures reference routes', () => {
  let service: TestService;
  let pro: Client;
  let proKey: string;
  let optionsOnly: Client;

  beforeAll(async () => {
    service = await startTestService({
      jobs: true,
      clock: () => AFTER_CLOSE,
      env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' },
    });
    ({ client: pro, key: proKey } = await service.newAccount({ plan: 'pro' }));
    ({ client: optionsOnly } = await service.newAccount({ plan: 'pro', datasets: ['options'] }));
  });
  afterAll(async () => service.stop());

  const details = (error: unknown) =>
    (error as { error: { details: { parameter: string }[] } }).error.details.map((d) => d.parameter).sort();

  it('lists the six products with their contract units, ticks and listing cycles', async () => {
    const r = await listFuturesProducts({ client: pro });
    expect(r.response.status).toBe(200);
    expect(
      r.data!.data.map((p) => [p.root, p.underlying_index, p.multiplier, p.tick_size, p.tick_value, p.listing_cycle.listed_contracts]),
    ).toEqual([
      ['ES', 'SPX', 50, 0.25, 12.5, 21],
      ['NQ', 'NDX', 20, 0.25, 5, 5],
      ['RTY', 'RUT', 50, 0.1, 5, 5],
      ['MES', 'SPX', 5, 0.25, 1.25, 5],
      ['MNQ', 'NDX', 2, 0.25, 0.5, 5],
      ['M2K', 'RUT', 5, 0.1, 0.5, 5],
    ]);
    for (const p of r.data!.data) {
      expect(p).toMatchObject({
        exchange: 'CME',
        currency: 'USD',
        settlement_method: 'cash',
        session_template: 'globex',
        last_trade_time: '09:30',
      });
      expect(p.listing_cycle.months).toEqual(['H', 'M', 'U', 'Z']);
      expect(p.final_settlement).toContain('Special Opening Quotation');
    }
    const rty = await listFuturesProducts({ client: pro, query: { root: 'RTY' } });
    expect(rty.data!.data.map((p) => p.name)).toEqual(['E-mini Russell 2000']);
  });

  it('lists the contracts at a date, per root nearest first, with CME dates', async () => {
    const r = await listFuturesContracts({ client: pro, query: { as_of: '2026-11-20' } });
    expect(r.response.status).toBe(200);
    const byRoot = new Map<string, NonNullable<typeof r.data>['data']>();
    for (const c of r.data!.data) byRoot.set(c.root, [...(byRoot.get(c.root) ?? []), c]);
    expect([...byRoot.keys()]).toEqual(['ES', 'NQ', 'RTY', 'MES', 'MNQ', 'M2K']);
    expect(byRoot.get('ES')).toHaveLength(21);
    for (const root of ['NQ', 'RTY', 'MES', 'MNQ', 'M2K'] as const) {
      expect(byRoot.get(root)!.map((c) => c.symbol)).toEqual(['Z26', 'H27', 'M27', 'U27', 'Z27'].map((m) => `${root}${m}`));
    }
    // Third Fridays: 2026-12-18, 2027-03-19, 2027-06-18 (Juneteenth observed: the Thursday), 2027-09-17, 2027-12-17.
    expect(byRoot.get('NQ')!.map((c) => [c.last_trade_date, c.roll_date, c.rank, c.lead, c.status])).toEqual([
      ['2026-12-18', '2026-12-10', 0, true, 'listed'],
      ['2027-03-19', '2027-03-11', 1, false, 'listed'],
      ['2027-06-17', '2027-06-10', 2, false, 'listed'],
      ['2027-09-17', '2027-09-09', 3, false, 'listed'],
      ['2027-12-17', '2027-12-09', 4, false, 'listed'],
    ]);
    // NQZ27 was listed the trade date after the contract five quarters before it, NQU26, expired (2026-09-18).
    expect(byRoot.get('NQ')![4]!.first_trade_date).toBe('2026-09-21');
    const es = byRoot.get('ES')![0]!;
    expect(es).toMatchObject({
      symbol: 'ESZ26',
      globex_symbol: 'ESZ6',
      first_trade_date: '2021-09-20',
      final_settlement_date: '2026-12-18',
    });
    expect(iso(es.last_trade_time)).toBe('2026-12-18T14:30:00Z');
  });

  it('defaults as_of to the current CME trade date: after Friday 17:00 ET, Monday', async () => {
    const fallback = await listFuturesContracts({ client: pro, query: { root: 'RTY' } });
    const monday = await listFuturesContracts({ client: pro, query: { root: 'RTY', as_of: '2026-11-23' } });
    expect(fallback.data!.data).toEqual(monday.data!.data);
  });

  it('adds the eight most recently expired contracts when asked', async () => {
    const r = await listFuturesContracts({ client: pro, query: { root: 'MNQ', as_of: '2026-11-20', include_expired: true } });
    expect(r.data!.data.map((c) => `${c.symbol}:${c.status}`)).toEqual([
      ...['Z24', 'H25', 'M25', 'U25', 'Z25', 'H26', 'M26', 'U26'].map((m) => `MNQ${m}:expired`),
      ...['Z26', 'H27', 'M27', 'U27', 'Z27'].map((m) => `MNQ${m}:listed`),
    ]);
  });

  it('answers one contract by either symbol form, whatever its status', async () => {
    const long = await listFuturesContracts({ client: pro, query: { symbol: 'ESH27', as_of: '2026-11-20' } });
    const short = await listFuturesContracts({ client: pro, query: { symbol: 'ESH7', as_of: '2026-11-20' } });
    expect(long.data!.data).toEqual(short.data!.data);
    expect(long.data!.data).toEqual([expect.objectContaining({ symbol: 'ESH27', rank: 1, last_trade_date: '2027-03-19' })]);
    const expired = await listFuturesContracts({ client: pro, query: { symbol: 'RTYU26', as_of: '2026-11-20' } });
    expect(expired.data!.data).toEqual([
      expect.objectContaining({ status: 'expired', active: false, rank: null, last_trade_date: '2026-09-18' }),
    ]);
  });

  it('answers 400 naming each bad parameter', async () => {
    const both = await listFuturesContracts({ client: pro, query: { symbol: 'NQZ26', root: 'NQ' } });
    expect(both.response.status).toBe(400);
    expect(details(both.error)).toEqual(['root', 'symbol']);
    const conflict = await listFuturesContracts({ client: pro, query: { symbol: 'NQZ26', root: 'ES' } });
    expect(conflict.response.status).toBe(400);
    expect(details(conflict.error)).toEqual(['root', 'symbol']);
    const bad = await listFuturesContracts({
      client: pro,
      query: { symbol: 'ESX6', as_of: '2040-01-01', include_expired: 'maybe' } as never,
    });
    expect(bad.response.status).toBe(400);
    expect(details(bad.error)).toEqual(['as_of', 'include_expired', 'symbol']);
    const root = await listFuturesContracts({ client: pro, query: { root: 'ZN' } as never });
    expect(details(root.error)).toEqual(['root']);
    const products = await listFuturesProducts({ client: pro, query: { root: 'CL' } as never });
    expect(products.response.status).toBe(400);
    expect(details(products.error)).toEqual(['root']);
  });

  it('refuses an account without the futures dataset with the error body', async () => {
    for (const r of [await listFuturesProducts({ client: optionsOnly }), await listFuturesContracts({ client: optionsOnly })]) {
      expect(r.response.status).toBe(403);
      const body = r.error as { error: { code: string; message: string } };
      expect(body.error.code).toBe('forbidden');
      expect(body.error.message).toContain('futures dataset');
    }
  });

  it('lists the futures routes in the catalog under futures, with the futures dataset', async () => {
    const r = await listCatalog({ client: pro, query: { family: 'futures' } });
    // The family's other routes (settlements, basis...) are checked by their own tests.
    const entries = r.data!.data.map((e) => [e.id, e.path, e.dataset, e.paginated, e.mcp]);
    expect(entries.filter(([id]) => id === 'listFuturesContracts' || id === 'listFuturesProducts')).toEqual([
      ['listFuturesContracts', '/v1/futures/contracts', 'futures', false, true],
      ['listFuturesProducts', '/v1/futures/products', 'futures', false, true],
    ]);
  });

  it('exports the contracts as the route answers them, in JSON and as gzip-compressed CSV rows', async () => {
    const query = { root: 'ES' as const, as_of: '2026-11-20' };
    const exported = async (format: 'json' | 'csv'): Promise<Buffer> => {
      const created = await createExport({ client: pro, body: { path: '/v1/futures/contracts', query, format } });
      expect(created.response.status, JSON.stringify(created.error)).toBe(202);
      const id = created.data!.data.id;
      await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
      const job = (await getExport({ client: pro, path: { id } })).data!.data;
      const response = await fetch(`${service.url}${job.download_url}`, { headers: { authorization: `Bearer ${proKey}` } });
      expect(response.status).toBe(200);
      return Buffer.from(await response.arrayBuffer());
    };
    const served = (await listFuturesContracts({ client: pro, query })).data!.data;
    expect((JSON.parse((await exported('json')).toString('utf8')) as { data: unknown }).data).toEqual(served);
    const lines = zlib
      .gunzipSync(await exported('csv'))
      .toString('utf8')
      .trim()
      .split('\n');
    expect(lines).toHaveLength(served.length + 1);
    const header = lines[0]!.split(',');
    const column = (name: string) => lines.slice(1).map((line) => line.split(',')[header.indexOf(name)]);
    expect(column('symbol')).toEqual(served.map((c) => c.symbol));
    expect(column('last_trade_date')).toEqual(served.map((c) => c.last_trade_date));
  });

  it('serves the Globex windows of CME holidays on the sessions route', async () => {
    const windows = async (date: string) =>
      (await listMarketSessions({ client: pro, query: { date, asset: 'futures' } })).data!.data.map((s) => [
        iso(s.start_time),
        iso(s.end_time),
        s.status,
        s.trading_date,
      ]);
    // MLK Day 2026 (2026-01-19): a session to 12:00 CT that belongs to Tuesday, then Tuesday's own.
    expect(await windows('2026-01-20')).toEqual([
      ['2026-01-18T23:00:00Z', '2026-01-19T18:00:00Z', 'early_close', '2026-01-20'],
      ['2026-01-19T23:00:00Z', '2026-01-20T22:00:00Z', 'regular', '2026-01-20'],
    ]);
    expect(await windows('2026-01-19')).toEqual([]);
    // Christmas 2026 is a Friday: Thursday closes at 12:15 CT, Monday opens Sunday 17:00 CT.
    expect(await windows('2026-12-24')).toEqual([['2026-12-23T23:00:00Z', '2026-12-24T18:15:00Z', 'early_close', '2026-12-24']]);
    expect(await windows('2026-12-28')).toEqual([['2026-12-27T23:00:00Z', '2026-12-28T22:00:00Z', 'regular', '2026-12-28']]);
  });
});
