/**
 * GET /v1/futures/bars and GET /v1/futures/continuous on a running service, with two ES contracts
 * (ESZ6, ESH7) loaded through the ingest path from files written here, over the five trade dates
 * of the December 2026 roll week (Monday 12-07 to Friday 12-11): one-minute bars of both and
 * their daily statistics (settlements, cleared volume, open interest).
 *
 * The oracle: the mapping intervals are written out by hand from the figures in the files (the
 * calendar roll on CME's roll date 12-10, the volume roll on 12-09, the open-interest roll on
 * 12-11); the continuous series is rebuilt here from the written one-minute bars, those intervals,
 * the Globex windows (18:00 ET the evening before to 17:00 ET, written as UTC instants: December is
 * EST) and the roll prices read from the written settlements, for each roll rule and adjustment,
 * and must equal the route's at 1m, 1h and 1d, under both sessions, whole or paged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, getExport, listCatalog, listFuturesBars, listFuturesContinuous } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { FuturesBar } from '../../generated/client/types.gen.js';
import { exportJob } from '../../src/jobs/export.js';
import { loadMarketFile, type LoadKind } from '../../src/ingest/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settledJob } from '../support/settled.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** Saturday 2026-12-12 12:00 ET: after the week. */
const NOW = Date.parse('2026-12-12T17:00:00Z');
const DATES = ['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11'];
/** The evening each trade date's Globex session opens, 18:00 ET = 23:00 UTC (EST). */
const EVE: Record<string, string> = {
  '2026-12-07': '2026-12-06',
  '2026-12-08': '2026-12-07',
  '2026-12-09': '2026-12-08',
  '2026-12-10': '2026-12-09',
  '2026-12-11': '2026-12-10',
};
const globexOpen = (date: string): number => Date.parse(`${EVE[date]}T23:00:00Z`);
const globexClose = (date: string): number => Date.parse(`${date}T22:00:00Z`);
const rthOpen = (date: string): number => Date.parse(`${date}T14:30:00Z`);
const rthClose = (date: string): number => Date.parse(`${date}T21:00:00Z`);
/** Minutes after 18:00 ET of each stored bar: the open, the night, 09:30, midday, 15:59, 16:00, 16:59, and 17:00 (in the halt). */
const OFFSETS = [0, 1, 2, 60, 61, 540, 930, 931, 990, 1319, 1320, 1379, 1380];

type Contract = 'ESZ26' | 'ESH27';
const FILE_SYMBOL: Record<Contract, string> = { ESZ26: 'ESZ6', ESH27: 'ESH7' };

interface Minute {
  contract: Contract;
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** The bars written: quarter-point prices, ESH7 about 50 points over ESZ6. */
const minutes: Minute[] = DATES.flatMap((date, d) =>
  (['ESZ26', 'ESH27'] as const).flatMap((contract) =>
    OFFSETS.map((offset, i) => {
      const p = 6000 + d * 5 + i * 0.25 + (contract === 'ESH27' ? 50.5 : 0) + ((i * 7 + d * 3) % 5) * 0.5;
      return {
        contract,
        ts: globexOpen(date) + offset * MINUTE,
        open: p,
        high: p + 1,
        low: p - 0.75,
        close: p + 0.25,
        volume: 10 + i + d,
      };
    }),
  ),
);

/** [cleared volume, open interest] by trade date (12-04 the Friday before the week). */
const FIGURES: Record<string, Record<Contract, [number, number]>> = {
  '2026-12-04': { ESZ26: [1_000_000, 2_000_000], ESH27: [100_000, 500_000] },
  '2026-12-07': { ESZ26: [900_000, 1_900_000], ESH27: [300_000, 800_000] },
  '2026-12-08': { ESZ26: [500_000, 1_600_000], ESH27: [1_200_000, 1_200_000] },
  '2026-12-09': { ESZ26: [300_000, 1_500_000], ESH27: [1_400_000, 1_400_000] },
  '2026-12-10': { ESZ26: [100_000, 900_000], ESH27: [1_500_000, 2_000_000] },
  '2026-12-11': { ESZ26: [50_000, 800_000], ESH27: [1_600_000, 2_100_000] },
};
/** Settlements: ESZ6 6002.5 + 5/day, ESH7 48.75 over it; ESH7 has none on 12-08 (its roll price is then its last close). */
const settlement = (contract: Contract, date: string): number | null => {
  if (contract === 'ESH27' && date === '2026-12-08') return null;
  const d = Math.max(0, DATES.indexOf(date));
  return 6002.5 + d * 5 + (contract === 'ESH27' ? 48.75 : 0);
};
/** A contract's last bar of a trade date starting before its 17:00 close (offset 1379). */
const lastClose = (contract: Contract, date: string): number =>
  minutes.filter((m) => m.contract === contract && m.ts >= globexOpen(date) && m.ts < globexClose(date)).at(-1)!.close;
const rollPrice = (contract: Contract, date: string): number => settlement(contract, date) ?? lastClose(contract, date);

/** The intervals of each rule, by hand from FIGURES and CME's roll date (ESZ26's: Thursday 12-10). */
const EXPECTED: Record<string, { from: string; to: string; contract: Contract }[]> = {
  'ES.c.0': [
    { from: '2026-12-07', to: '2026-12-09', contract: 'ESZ26' },
    { from: '2026-12-10', to: '2026-12-11', contract: 'ESH27' },
  ],
  // 12-09 reads 12-08's volume: ESH7 1.2M > ESZ6 0.5M.
  'ES.v.0': [
    { from: '2026-12-07', to: '2026-12-08', contract: 'ESZ26' },
    { from: '2026-12-09', to: '2026-12-11', contract: 'ESH27' },
  ],
  // 12-10 reads 12-09's open interest: ESZ6 1.5M > 1.4M; 12-11 reads 12-10's: ESH7 2.0M.
  'ES.n.0': [
    { from: '2026-12-07', to: '2026-12-10', contract: 'ESZ26' },
    { from: '2026-12-11', to: '2026-12-11', contract: 'ESH27' },
  ],
};

type Adjust = 'none' | 'difference' | 'ratio';
type Interval = '1m' | '1h' | '1d';
type Session = 'globex' | 'rth';

/** The series rebuilt here from the written minutes and the intervals. */
function rebuilt(intervals: { from: string; to: string; contract: Contract }[], adjust: Adjust, interval: Interval, session: Session) {
  // Adjustment of each interval: the later rolls' gaps (difference) or ratios (ratio), at the eve's prices.
  const adjustments = intervals.map((_, k) => {
    let offset = 0;
    let factor = 1;
    for (let j = intervals.length - 1; j > k; j -= 1) {
      const eve = DATES[DATES.indexOf(intervals[j]!.from) - 1]!;
      const gap = [rollPrice(intervals[j - 1]!.contract, eve), rollPrice(intervals[j]!.contract, eve)] as const;
      if (adjust === 'difference') offset += gap[1] - gap[0];
      if (adjust === 'ratio') factor *= gap[1] / gap[0];
    }
    return { offset, factor };
  });
  const bars: FuturesBar[] = [];
  let previous: string | null = null;
  intervals.forEach((iv, k) => {
    for (const date of DATES.filter((d) => d >= iv.from && d <= iv.to)) {
      const [start, end] = session === 'globex' ? [globexOpen(date), globexClose(date)] : [rthOpen(date), rthClose(date)];
      const own = minutes.filter((m) => m.contract === iv.contract && m.ts >= start && m.ts < end);
      const groups = new Map<number, Minute[]>();
      for (const m of own) {
        const key = interval === '1d' ? start : interval === '1h' ? Math.floor(m.ts / HOUR) * HOUR : m.ts;
        groups.set(key, [...(groups.get(key) ?? []), m]);
      }
      const { offset, factor } = adjustments[k]!;
      const adjusted = (x: number) => x * factor + offset;
      for (const [timestamp, ms] of groups) {
        const roll = previous !== null && previous !== iv.contract;
        bars.push({
          timestamp,
          trade_date: date,
          contract_symbol: iv.contract,
          open: adjusted(ms[0]!.open),
          high: adjusted(Math.max(...ms.map((m) => m.high))),
          low: adjusted(Math.min(...ms.map((m) => m.low))),
          close: adjusted(ms.at(-1)!.close),
          volume: ms.reduce((s, m) => s + m.volume, 0),
          minutes: ms.length,
          close_timestamp: ms.at(-1)!.ts,
          roll,
          previous_contract_symbol: roll ? previous : null,
          price_offset: offset,
          price_factor: factor,
        });
        previous = iv.contract;
      }
    }
  });
  return bars;
}

/** Prices to 1e-9: a ratio's product is rounded differently when multiplied in another order. */
const rounded = (bars: readonly FuturesBar[]) =>
  bars.map((b) => ({
    ...b,
    open: Number(b.open.toFixed(9)),
    high: Number(b.high.toFixed(9)),
    low: Number(b.low.toFixed(9)),
    close: Number(b.close.toFixed(9)),
    price_offset: Number(b.price_offset.toFixed(9)),
    price_factor: Number(b.price_factor.toFixed(12)),
  }));

describe('futures bars and continuous contracts', () => {
  let service: TestService;
  let pro: Client;
  let proKey: string;
  let optionsOnly: Client;
  let dir: string;

  beforeAll(async () => {
    service = await startTestService({ jobs: true, clock: () => NOW, env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' } });
    ({ client: pro, key: proKey } = await service.newAccount({ plan: 'pro' }));
    ({ client: optionsOnly } = await service.newAccount({ plan: 'pro', datasets: ['options'] }));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'futures-bars-'));
    const load = async (kind: LoadKind, name: string, lines: string[]) => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      const result = await loadMarketFile(service.database.admin, kind, file);
      expect(result.rejected, name).toEqual([]);
    };
    await load('futures_definitions', 'definitions.csv', [
      'symbol,root,contract_month,expiration,tick_size,multiplier',
      `ESZ6,ES,2026-12,${Date.parse('2026-12-18T14:30:00Z')},0.25,50`,
      `ESH7,ES,2027-03,${Date.parse('2027-03-19T13:30:00Z')},0.25,50`,
    ]);
    await load('futures_bars', 'bars.csv', [
      'symbol,timestamp,open,high,low,close,volume',
      ...minutes.map((m) => [FILE_SYMBOL[m.contract], m.ts, m.open, m.high, m.low, m.close, m.volume].join(',')),
    ]);
    await load('futures_statistics', 'statistics.csv', [
      'symbol,trade_date,settlement_price,settlement_status,open_interest,cleared_volume',
      ...Object.entries(FIGURES).flatMap(([date, of]) =>
        (['ESZ26', 'ESH27'] as const).map((c) => {
          const price = settlement(c, date);
          return [FILE_SYMBOL[c], date, price ?? '', price === null ? '' : 'final', of[c][1], of[c][0]].join(',');
        }),
      ),
    ]);
  });
  afterAll(async () => {
    await service?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const week = { start_time: globexOpen('2026-12-07'), end_time: globexClose('2026-12-11') };

  it('maps each rule to the intervals worked by hand, with the figures that chose them and the roll prices', async () => {
    for (const [symbol, expected] of Object.entries(EXPECTED)) {
      const r = await listFuturesContinuous({ client: pro, query: { symbol, start_date: '2026-12-07', end_date: '2026-12-11' } });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      const data = r.data!.data;
      expect(data.map((i) => ({ from: i.start_date, to: i.end_date, contract: i.contract_symbol }))).toEqual(expected);
      expect(data[0]!.roll).toBeNull();
      expect(data[0]!.start_time).toBe(globexOpen('2026-12-07'));
      expect(data.at(-1)!.end_time).toBe(globexClose('2026-12-11'));
      const eve = DATES[DATES.indexOf(expected[1]!.from) - 1]!;
      const [old, next] = [rollPrice('ESZ26', eve), rollPrice('ESH27', eve)];
      expect(data[1]!.roll).toEqual({
        price_date: eve,
        previous_contract_symbol: 'ESZ26',
        previous_price: old,
        previous_price_source: 'settlement',
        price: next,
        price_source: settlement('ESH27', eve) === null ? 'last_close' : 'settlement',
        difference: next - old,
        ratio: next / old,
      });
    }
    const v = (await listFuturesContinuous({ client: pro, query: { symbol: 'ES.v.0', start_date: '2026-12-07', end_date: '2026-12-11' } }))
      .data!.data;
    expect(v[1]!.basis).toEqual({
      figure_date: '2026-12-08',
      fallback: false,
      figures: [
        { contract_symbol: 'ESH27', value: 1_200_000 },
        { contract_symbol: 'ESZ26', value: 500_000 },
      ],
    });
    expect(v[1]!.roll!.price_source).toBe('last_close');
    const c = (await listFuturesContinuous({ client: pro, query: { symbol: 'ES.c.0', start_date: '2026-12-07', end_date: '2026-12-11' } }))
      .data!.data;
    expect(c.map((i) => [i.roll_date, i.basis.figure_date, i.basis.figures])).toEqual([
      ['2026-12-10', null, []],
      ['2027-03-11', null, []],
    ]);
  });

  it('equals the series rebuilt from the contracts bars and the intervals, for each rule and adjustment, at 1m, 1h and 1d', async () => {
    for (const [symbol, intervals] of Object.entries(EXPECTED)) {
      for (const adjust of ['none', 'difference', 'ratio'] as const) {
        for (const interval of ['1m', '1h', '1d'] as const) {
          const r = await listFuturesBars({ client: pro, query: { symbol, adjust, interval, ...week, limit: 10_000 } });
          expect(r.response.status, JSON.stringify(r.error)).toBe(200);
          const expected = rebuilt(intervals, adjust, interval, 'globex');
          expect(rounded(r.data!.data), `${symbol} ${adjust} ${interval}`).toEqual(rounded(expected));
          expect(r.data!.pagination.has_more).toBe(false);
        }
      }
    }
    // The adjustment is not empty: the volume roll's gap is ESH7's last close of 12-08 less ESZ6's settlement.
    const v = rebuilt(EXPECTED['ES.v.0']!, 'difference', '1d', 'globex');
    expect(v[0]!.price_offset).toBe(lastClose('ESH27', '2026-12-08') - 6007.5);
    expect(v.filter((b) => b.roll).map((b) => [b.trade_date, b.previous_contract_symbol, b.contract_symbol])).toEqual([
      ['2026-12-09', 'ESZ26', 'ESH27'],
    ]);
  });

  it('reads the regular session only under rth, and a contract symbol unadjusted over the whole range', async () => {
    for (const interval of ['1m', '1d'] as const) {
      const r = await listFuturesBars({ client: pro, query: { symbol: 'ES.n.0', adjust: 'ratio', interval, session: 'rth', ...week } });
      expect(rounded(r.data!.data)).toEqual(rounded(rebuilt(EXPECTED['ES.n.0']!, 'ratio', interval, 'rth')));
    }
    const all = [{ from: DATES[0]!, to: DATES.at(-1)!, contract: 'ESH27' as const }];
    for (const symbol of ['ESH7', 'ESH27']) {
      const r = await listFuturesBars({ client: pro, query: { symbol, interval: '1h', ...week } });
      expect(r.data!.data).toEqual(rebuilt(all, 'none', '1h', 'globex'));
    }
    // A contract has no roll: adjust leaves its bars as they are (unit factor, no offset).
    for (const adjust of ['difference', 'ratio'] as const) {
      const r = await listFuturesBars({ client: pro, query: { symbol: 'ESH7', adjust, interval: '1h', ...week } });
      expect(r.data!.data).toEqual(rebuilt(all, 'none', '1h', 'globex'));
    }
  });

  it('pages by cursor to the same bars as one page, the roll flagged across a page boundary', async () => {
    const query = { symbol: 'ES.v.0', adjust: 'difference' as const, interval: '1m' as const, ...week };
    const whole = (await listFuturesBars({ client: pro, query: { ...query, limit: 10_000 } })).data!.data;
    const rollAt = whole.findIndex((b) => b.roll);
    expect(rollAt).toBeGreaterThan(0);
    for (const limit of [7, rollAt]) {
      const walked: FuturesBar[] = [];
      let cursor: string | undefined;
      do {
        const page = await listFuturesBars({ client: pro, query: { ...query, limit, cursor_id: cursor } });
        expect(page.response.status, JSON.stringify(page.error)).toBe(200);
        walked.push(...page.data!.data);
        cursor = page.data!.pagination.next_cursor_id ?? undefined;
      } while (cursor !== undefined);
      expect(walked).toEqual(whole);
    }
  });

  it('answers a trade date by `date`, 422 where nothing is stored, and 400 on a range too long', async () => {
    const day = await listFuturesBars({ client: pro, query: { symbol: 'ES.c.0', date: '2026-12-10', interval: '1d' } });
    expect(day.data!.data).toEqual(rebuilt([{ from: '2026-12-10', to: '2026-12-10', contract: 'ESH27' }], 'none', '1d', 'globex'));
    const none = await listFuturesBars({ client: pro, query: { symbol: 'NQ.c.0', ...week } });
    expect(none.response.status).toBe(422);
    const long = await listFuturesBars({
      client: pro,
      query: { symbol: 'ES.c.0', start_time: week.start_time, end_time: week.start_time + 8 * 86_400_000 },
    });
    expect(long.response.status).toBe(400);
    const wide = await listFuturesContinuous({
      client: pro,
      query: { symbol: 'ES.c.0', start_date: '2025-01-01', end_date: '2026-12-11' },
    });
    expect(wide.response.status).toBe(400);
  });

  it('refuses an account without the futures dataset with the error body', async () => {
    for (const r of [
      await listFuturesBars({ client: optionsOnly, query: { symbol: 'ES.c.0', ...week } }),
      await listFuturesContinuous({ client: optionsOnly, query: { symbol: 'ES.c.0' } }),
    ]) {
      expect(r.response.status).toBe(403);
      const body = r.error as { error: { code: string; message: string } };
      expect(body.error.code).toBe('forbidden');
      expect(body.error.message).toContain('futures dataset');
    }
  });

  it('lists both routes in the catalog, the bars paginated, and exports the bars as the route pages them', async () => {
    const catalog = (await listCatalog({ client: pro, query: { family: 'futures' } })).data!.data;
    expect(
      catalog
        .filter((e) => e.id === 'listFuturesBars' || e.id === 'listFuturesContinuous')
        .map((e) => [e.id, e.dataset, e.paginated, e.mcp]),
    ).toEqual([
      ['listFuturesBars', 'futures', true, true],
      ['listFuturesContinuous', 'futures', false, true],
    ]);
    const query = { symbol: 'ES.v.0', adjust: 'ratio', interval: '1h', ...week };
    const created = await createExport({ client: pro, body: { path: '/v1/futures/bars', query, format: 'json' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(202);
    const id = created.data!.data.id;
    await settledJob(service.database.admin, exportJob.name, id, { timeoutMs: 30_000 });
    const job = (await getExport({ client: pro, path: { id } })).data!.data;
    const response = await fetch(`${service.url}${job.download_url}`, { headers: { authorization: `Bearer ${proKey}` } });
    expect(response.status).toBe(200);
    const served = (await listFuturesBars({ client: pro, query: { ...query, adjust: 'ratio', interval: '1h', limit: 10_000 } })).data!.data;
    expect((JSON.parse(Buffer.from(await response.arrayBuffer()).toString('utf8')) as { data: unknown }).data).toEqual(served);
  });
});
