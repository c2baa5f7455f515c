/**
 * The futures settlements and basis routes on a running service, over data loaded through the
 * ingest path from files written here (futures definitions, one-minute bars and daily statistics;
 * SPX one-minute values in the bars layout the index routes read). Settlements: each row's
 * previous trade date (written out from the CME calendar, a weekend skipped), change and open
 * interest change recomputed here, statuses, paging equal to one page, the default date. Basis:
 * the basis, days to settlement, implied carry, fair value and mispricing recomputed here with
 * Math.exp and Math.log from the stored prices, the rate of the service's table (checked against
 * TB3MS converted here) and the index's dividend yield; only minutes with both prices; front,
 * listed and one contract; the series at 1m and 1h. Entitlements and parameters.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, getExport, getFuturesBasis, listCatalog, listFuturesSettlements } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { FuturesBasis, FuturesSettlement } from '../../generated/client/types.gen.js';
import { dividendYield, riskFreeRate } from '../../src/analytics/rates.js';
import { loadMarketFile, type LoadKind } from '../../src/ingest/market.js';
import { exportJob } from '../../src/jobs/export.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const MINUTE = 60_000;
/** ESZ6 and ESH7 settle at 09:30 ET of their third Fridays (EST: 14:30 UTC). */
const ESZ6_SETTLEMENT = Date.parse('2026-12-18T14:30:00Z');
const ESH7_SETTLEMENT = Date.parse('2027-03-19T13:30:00Z');
/** Friday 2026-11-20 09:30 ET. */
const OPEN = Date.parse('2026-11-20T14:30:00Z');
/** The service clock: Friday 2026-11-20 12:30 ET (CME trade date 2026-11-20). */
const NOW = Date.parse('2026-11-20T17:30:00Z');
/** Minutes of SPX values: 09:30 to 11:59 ET, without 10:05. */
const GAP = OPEN + 35 * MINUTE;
const INDEX_MINUTES = Array.from({ length: 150 }, (_, i) => OPEN + i * MINUTE).filter((ts) => ts !== GAP);

const spx = (ts: number): number => Math.round((6000 + 5 * Math.sin((ts - OPEN) / 600_000)) * 100) / 100;
/** Futures closes on the tick grid around a carry of about 4%/yr less the dividend. */
const future = (ts: number, settlement: number): number =>
  Math.round(spx(ts) * Math.exp(0.024 * ((settlement - ts) / (365 * 86_400_000))) * 4) / 4 + ((ts / MINUTE) % 3) * 0.25;

let dir: string;
let n = 0;
function write(name: string, lines: readonly string[]): string {
  n += 1;
  const file = path.join(dir, `${n}-${name}`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('futures settlements and basis', () => {
  let service: TestService;
  let pro: Client;
  let optionsOnly: Client;
  let proKey: string;
  const load = async (kind: LoadKind, lines: readonly string[]) => {
    const result = await loadMarketFile(service.database.admin, kind, write(`${kind}.csv`, lines));
    expect(result.rejected).toEqual([]);
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'futures-basis-'));
    service = await startTestService({ jobs: true, clock: () => NOW, env: { LIMIT_PER_SECOND: '1000', LIMIT_PER_MINUTE: '100000' } });
    ({ client: pro, key: proKey } = await service.newAccount({ plan: 'pro' }));
    ({ client: optionsOnly } = await service.newAccount({ plan: 'pro', datasets: ['options'] }));
    await load('futures_definitions', [
      'symbol,root,contract_month,expiration,tick_size,multiplier,currency,instrument_id',
      `ESZ6,ES,2026-12,${ESZ6_SETTLEMENT},0.25,50,USD,1`,
      `ESH7,ES,2027-03,${ESH7_SETTLEMENT},0.25,50,USD,2`,
    ]);
    // Futures trade from 08:00 ET: the minutes before 09:30 have no index value.
    const futureMinutes = Array.from({ length: 240 }, (_, i) => OPEN - 90 * MINUTE + i * MINUTE);
    await load('futures_bars', [
      'symbol,timestamp,open,high,low,close,volume',
      ...futureMinutes.flatMap((ts) =>
        (
          [
            ['ESZ6', ESZ6_SETTLEMENT],
            ['ESH7', ESH7_SETTLEMENT],
          ] as const
        ).map(([symbol, s]) => `${symbol},${ts},${future(ts, s) - 1},${future(ts, s) + 1},${future(ts, s) - 2},${future(ts, s)},10`),
      ),
    ]);
    await load('underlying_bars', [
      'symbol,timestamp,open,high,low,close,volume',
      ...INDEX_MINUTES.map((ts) => `SPX,${ts},${spx(ts) - 0.5},${spx(ts) + 1},${spx(ts) - 1},${spx(ts)},0`),
    ]);
    await load('futures_statistics', [
      'symbol,trade_date,settlement_price,settlement_status,open_interest,cleared_volume,timestamp',
      'ESZ6,2026-11-18,5990.25,final,2000000,1500000,',
      'ESH7,2026-11-18,6020.5,final,100000,20000,',
      'ESZ6,2026-11-19,5998.5,preliminary,,,',
      'ESH7,2026-11-19,6028,final,110000,25000,',
      'ESZ6,2026-11-20,6012.25,preliminary,,1488210,',
      'ESH7,2026-11-20,6042.75,preliminary,,30000,',
      // Monday: its previous trade date is Friday.
      'ESZ6,2026-11-23,6001,final,2001000,1400000,',
    ]);
    // The final settlement and open interest of Thursday come later and replace the preliminary one.
    await load('futures_statistics', [
      'symbol,trade_date,settlement_price,settlement_status,open_interest,cleared_volume,timestamp',
      'ESZ6,2026-11-19,5999,final,2010000,1600000,1763596800000',
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  describe('settlements', () => {
    /** What the loads stored, written out: [symbol, date, price, status, open interest, volume]. */
    const STORED: [string, string, number | null, 'final' | 'preliminary' | null, number | null, number | null][] = [
      ['ESZ26', '2026-11-18', 5990.25, 'final', 2_000_000, 1_500_000],
      ['ESH27', '2026-11-18', 6020.5, 'final', 100_000, 20_000],
      ['ESZ26', '2026-11-19', 5999, 'final', 2_010_000, 1_600_000],
      ['ESH27', '2026-11-19', 6028, 'final', 110_000, 25_000],
      ['ESZ26', '2026-11-20', 6012.25, 'preliminary', null, 1_488_210],
      ['ESH27', '2026-11-20', 6042.75, 'preliminary', null, 30_000],
      ['ESZ26', '2026-11-23', 6001, 'final', 2_001_000, 1_400_000],
    ];
    /** CME trade dates before each: Wednesday's Tuesday, and Monday's Friday. */
    const PREVIOUS: Record<string, string> = {
      '2026-11-18': '2026-11-17',
      '2026-11-19': '2026-11-18',
      '2026-11-20': '2026-11-19',
      '2026-11-23': '2026-11-20',
    };
    const expected = (symbol: string, date: string): Partial<FuturesSettlement> => {
      const row = STORED.find((r) => r[0] === symbol && r[1] === date)!;
      const before = STORED.find((r) => r[0] === symbol && r[1] === PREVIOUS[date]);
      const change = before?.[2] == null || row[2] === null ? null : Math.round((row[2] - before[2]) * 1e6) / 1e6;
      return {
        trade_date: date,
        symbol,
        root: 'ES',
        contract_month: symbol.startsWith('ESZ') ? '2026-12' : '2027-03',
        settlement_price: row[2],
        settlement_status: row[3],
        previous_trade_date: PREVIOUS[date],
        previous_settlement_price: before?.[2] ?? null,
        previous_settlement_status: before?.[3] ?? null,
        change,
        change_percent: change === null ? null : Math.round(((100 * change) / before![2]!) * 1e6) / 1e6,
        open_interest: row[4],
        previous_open_interest: before?.[4] ?? null,
        open_interest_change: row[4] === null || before?.[4] == null ? null : row[4] - before[4],
        cleared_volume: row[5],
      };
    };

    it('answers a date with each contract beside its previous trade date, final replacing preliminary', async () => {
      const r = await listFuturesSettlements({ client: pro, query: { root: 'ES', date: '2026-11-20' } });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      expect(r.data!.data).toEqual([
        expect.objectContaining(expected('ESZ26', '2026-11-20')),
        expect.objectContaining(expected('ESH27', '2026-11-20')),
      ]);
      expect(r.data!.data[0]).toMatchObject({
        globex_symbol: 'ESZ6',
        final_settlement_time: ESZ6_SETTLEMENT,
        previous_settlement_price: 5999,
      });
      // Change from Thursday's final settlement (5999, not the preliminary 5998.5).
      expect(r.data!.data[0]!.change).toBe(13.25);
      const monday = await listFuturesSettlements({ client: pro, query: { symbol: 'ESZ6', date: '2026-11-23' } });
      expect(monday.data!.data).toEqual([expect.objectContaining(expected('ESZ26', '2026-11-23'))]);
      expect(monday.data!.data[0]!.change).toBe(-11.25);
    });

    it('defaults to the newest stored trade date at or before the current one', async () => {
      const r = await listFuturesSettlements({ client: pro, query: { root: 'ES' } });
      expect(r.data!.data.map((s) => [s.symbol, s.trade_date])).toEqual([
        ['ESZ26', '2026-11-20'],
        ['ESH27', '2026-11-20'],
      ]);
    });

    it('pages a range by trade date then expiration, the pages together equal to one page', async () => {
      const query = { root: 'ES' as const, start_date: '2026-11-16', end_date: '2026-11-23' };
      const whole = await listFuturesSettlements({ client: pro, query });
      expect(whole.data!.data).toEqual(STORED.map(([symbol, date]): unknown => expect.objectContaining(expected(symbol, date))));
      const walked: FuturesSettlement[] = [];
      let cursor: string | undefined;
      do {
        const page = await listFuturesSettlements({ client: pro, query: { ...query, limit: 3, cursor_id: cursor } });
        walked.push(...page.data!.data);
        cursor = page.data!.pagination.next_cursor_id ?? undefined;
      } while (cursor !== undefined);
      expect(walked).toEqual(whole.data!.data);
      const one = await listFuturesSettlements({
        client: pro,
        query: { symbol: 'ESH27', start_date: '2026-11-16', end_date: '2026-11-23' },
      });
      expect(one.data!.data.map((s) => s.trade_date)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
    });

    it('exports the rows as the route answers them', async () => {
      const query = { root: 'ES', start_date: '2026-11-18', end_date: '2026-11-20' };
      const created = await createExport({ client: pro, body: { path: '/v1/futures/settlements', query, format: 'json' } });
      expect(created.response.status, JSON.stringify(created.error)).toBe(202);
      const id = created.data!.data.id;
      await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
      const job = (await getExport({ client: pro, path: { id } })).data!.data;
      const response = await fetch(`${service.url}${job.download_url}`, { headers: { authorization: `Bearer ${proKey}` } });
      const body = (await response.json()) as { data: unknown[]; pages: number; truncated: boolean };
      const route = await listFuturesSettlements({ client: pro, query: { ...query, root: 'ES' } });
      expect(body).toMatchObject({ pages: 1, truncated: false });
      expect(body.data).toEqual(route.data!.data);
      expect(body.data).toHaveLength(6);
    });

    it('answers 422 for dates without rows, 400 for bad parameters', async () => {
      const none = await listFuturesSettlements({ client: pro, query: { root: 'NQ', date: '2026-11-20' } });
      expect(none.response.status).toBe(422);
      const bad = await listFuturesSettlements({ client: pro, query: { root: 'ES', symbol: 'ESZ6' } });
      expect(bad.response.status).toBe(400);
      const reversed = await listFuturesSettlements({
        client: pro,
        query: { root: 'ES', start_date: '2026-11-20', end_date: '2026-11-18' },
      });
      expect(reversed.response.status).toBe(400);
      const long = await listFuturesSettlements({ client: pro, query: { root: 'ES', start_date: '2025-01-01', end_date: '2026-11-20' } });
      expect(long.response.status).toBe(400);
      // end_date alone reads the 30 days before it and the date: the same rows as the range written out.
      const alone = await listFuturesSettlements({ client: pro, query: { root: 'ES', end_date: '2026-11-20' } });
      expect(alone.response.status).toBe(200);
      const written = await listFuturesSettlements({
        client: pro,
        query: { root: 'ES', start_date: '2026-10-21', end_date: '2026-11-20' },
      });
      expect(alone.data!.data).toEqual(written.data!.data);
      expect(alone.data!.data.length).toBeGreaterThan(0);
    });
  });

  describe('basis', () => {
    const YEAR_MS = 365 * 86_400_000;
    /** TB3MS for November 2026 is past the table's last month: May 2026's 3.60%, converted from discount to continuous here. */
    const RATE = (-Math.log(1 - (0.036 * 91) / 360) * 365) / 91;
    const Q = 0.013;

    /** The point recomputed here from the prices written in the files. */
    function point(symbol: string, ts: number, settlement: number): Partial<FuturesBasis> {
      const F = future(ts, settlement);
      const S = spx(ts);
      const T = (settlement - (ts + MINUTE)) / YEAR_MS;
      const fair = S * Math.exp((RATE - Q) * T);
      return {
        symbol,
        index_symbol: 'SPX',
        timestamp: ts,
        future_price: F,
        index_value: S,
        final_settlement_time: settlement,
        basis: F - S,
        basis_percent: (100 * (F - S)) / S,
        days_to_expiry: (settlement - ts - MINUTE) / 86_400_000,
        years_to_expiry: T,
        rate: RATE,
        dividend_yield: Q,
        implied_carry: Math.log(F / S) / T,
        implied_rate: Math.log(F / S) / T + Q,
        fair_value: fair,
        mispricing: F - fair,
      };
    }
    const ROUNDED = new Set(['basis', 'basis_percent', 'fair_value', 'fair_basis', 'mispricing']);
    function expectPoint(actual: FuturesBasis, expected: Partial<FuturesBasis>): void {
      for (const [key, value] of Object.entries(expected)) {
        // The prices' differences are rounded to 6 decimals (the contract says), the rest not.
        if (typeof value === 'number') expect(actual[key as keyof FuturesBasis], key).toBeCloseTo(value, ROUNDED.has(key) ? 5 : 9);
        else expect(actual[key as keyof FuturesBasis], key).toBe(value);
      }
    }

    it('uses the rate of the service table and the index dividend yield', () => {
      expect(riskFreeRate('2026-11-20')).toBeCloseTo(RATE, 12);
      expect(dividendYield('SPX')).toBe(Q);
    });

    it('answers the front contract at the newest minute with both prices', async () => {
      const r = await getFuturesBasis({ client: pro, query: { root: 'ES' } });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      expect(r.data!.data).toHaveLength(1);
      // The last minute of both is 11:59 ET (the futures' minutes from 08:00 ET have no index value before 09:30).
      expectPoint(r.data!.data[0]!, point('ESZ26', INDEX_MINUTES.at(-1)!, ESZ6_SETTLEMENT));
      expect(r.data!.data[0]!.globex_symbol).toBe('ESZ6');
    });

    it('answers at an instant, skipping a minute without an index value', async () => {
      // At 10:06 ET the newest ended minute is 10:05, which has no SPX value: 10:04 is used.
      const r = await getFuturesBasis({ client: pro, query: { root: 'ES', contracts: 'listed', at: GAP + MINUTE + 30_000 } });
      expect(r.data!.data.map((p) => [p.symbol, p.timestamp])).toEqual([
        ['ESZ26', GAP - MINUTE],
        ['ESH27', GAP - MINUTE],
      ]);
      expectPoint(r.data!.data[0]!, point('ESZ26', GAP - MINUTE, ESZ6_SETTLEMENT));
      expectPoint(r.data!.data[1]!, point('ESH27', GAP - MINUTE, ESH7_SETTLEMENT));
      const one = await getFuturesBasis({ client: pro, query: { symbol: 'ESH27', at: GAP + MINUTE + 30_000 } });
      expect(one.data!.data).toEqual([r.data!.data[1]]);
    });

    it('answers a series at 1m and 1h over the minutes with both prices', async () => {
      const start = OPEN + 30 * MINUTE;
      const r = await getFuturesBasis({ client: pro, query: { symbol: 'ESZ6', start_time: start, end_time: start + 10 * MINUTE } });
      const minutes = INDEX_MINUTES.filter((ts) => ts >= start && ts < start + 10 * MINUTE);
      expect(minutes).toHaveLength(9);
      expect(r.data!.data.map((p) => p.timestamp)).toEqual(minutes);
      r.data!.data.forEach((p, i) => expectPoint(p, point('ESZ26', minutes[i]!, ESZ6_SETTLEMENT)));
      const hourly = await getFuturesBasis({
        client: pro,
        query: { root: 'ES', contracts: 'listed', start_time: OPEN - 2 * 3_600_000, end_time: NOW, interval: '1h' },
      });
      expect(hourly.response.status, JSON.stringify(hourly.error)).toBe(200);
      // Clock hours (UTC) 14:00, 15:00 and 16:00: their last minutes with both prices.
      const lasts = [Date.parse('2026-11-20T14:59:00Z'), Date.parse('2026-11-20T15:59:00Z'), Date.parse('2026-11-20T16:59:00Z')];
      expect(hourly.data!.data.map((p) => [p.symbol, p.timestamp])).toEqual([
        ...lasts.map((ts) => ['ESZ26', ts]),
        ...lasts.map((ts) => ['ESH27', ts]),
      ]);
      expectPoint(hourly.data!.data[5]!, point('ESH27', lasts[2]!, ESH7_SETTLEMENT));
    });

    it('answers 422 without data, 400 for bad parameters, 403 without the futures dataset', async () => {
      expect((await getFuturesBasis({ client: pro, query: { root: 'NQ' } })).response.status).toBe(422);
      expect((await getFuturesBasis({ client: pro, query: { root: 'ES', at: OPEN - 3_600_000 } })).response.status).toBe(422);
      expect((await getFuturesBasis({ client: pro, query: { root: 'ES', symbol: 'ESZ6' } })).response.status).toBe(400);
      expect((await getFuturesBasis({ client: pro, query: { symbol: 'ESZ6', contracts: 'listed' } })).response.status).toBe(400);
      // end_time alone reads the 24 hours before it; a range after the newest minute holds no data.
      const alone = await getFuturesBasis({ client: pro, query: { root: 'ES', end_time: NOW } });
      expect(alone.response.status).toBe(200);
      const written = await getFuturesBasis({ client: pro, query: { root: 'ES', start_time: NOW - 86_400_000, end_time: NOW } });
      expect(alone.data!.data).toEqual(written.data!.data);
      expect((await getFuturesBasis({ client: pro, query: { root: 'ES', start_time: NOW + 3_600_000 } })).response.status).toBe(422);
      const long = await getFuturesBasis({ client: pro, query: { root: 'ES', start_time: NOW - 8 * 86_400_000, end_time: NOW } });
      expect(long.response.status).toBe(400);
      for (const r of [
        await getFuturesBasis({ client: optionsOnly, query: { root: 'ES' } }),
        await listFuturesSettlements({ client: optionsOnly, query: { root: 'ES' } }),
      ]) {
        expect(r.response.status).toBe(403);
        const body = r.error as { error: { code: string; message: string } };
        expect(body.error.code).toBe('forbidden');
        expect(body.error.message).toContain('futures dataset');
      }
    });

    it('lists both routes in the catalog under futures', async () => {
      const r = await listCatalog({ client: pro, query: { family: 'futures' } });
      const entries = r.data!.data.map((e) => [e.id, e.path, e.dataset, e.paginated, e.mcp]);
      expect(entries).toContainEqual(['listFuturesSettlements', '/v1/futures/settlements', 'futures', true, true]);
      expect(entries).toContainEqual(['getFuturesBasis', '/v1/futures/basis', 'futures', false, true]);
    });
  });
});
