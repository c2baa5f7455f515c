/**
 * One definition of which prints a session holds (issue 33 §5): on a simulated day with SPX
 * overnight, regular and curb prints, the volume, premium and net premium (ask side minus bid side)
 * of each session add up to the same figures by the trades feed, the flow leaders, premium drift
 * and the exposure heat map (which takes rth and gth only). The feed's own prints are the oracle:
 * each print carries its session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getExposureHeatmap, getPremiumDrift, listFlowLeaders, listOptionTrades } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { OptionPrint } from '../../generated/client/types.gen.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
const SYMBOL = 'SPX';
const ASK = new Set(['above_ask', 'at_ask', 'near_ask']);
const BID = new Set(['near_bid', 'at_bid', 'below_bid']);
type Session = 'rth' | 'gth' | 'all';

interface Totals {
  volume: number;
  premium: number;
  net: number;
}

const totalsOf = (prints: readonly OptionPrint[]): Totals => ({
  volume: prints.reduce((a, p) => a + p.size, 0),
  premium: prints.reduce((a, p) => a + p.premium, 0),
  net: prints.reduce((a, p) => a + (ASK.has(p.side) ? p.premium : BID.has(p.side) ? -p.premium : 0), 0),
});

describe('session totals across routes', () => {
  let service: TestService;
  let pro: Client;
  const feed = new Map<Session, OptionPrint[]>();

  beforeAll(async () => {
    service = await startTestService({
      // The date before too: the overnight session values SPX at its last regular close (an index has no
      // price overnight), the previous date's.
      market: { dates: ['2026-11-19', DAY] },
      clock: () => MARKET_NOW,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
    for (const session of ['rth', 'gth', 'all'] as const) {
      const rows: OptionPrint[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 1000; i += 1) {
        const page = await listOptionTrades({
          client: pro,
          query: { underlying_symbol: SYMBOL, date: DAY, session, limit: 500, cursor_id: cursor },
        });
        expect(page.response.status, JSON.stringify(page.error)).toBe(200);
        rows.push(...page.data!.data);
        cursor = page.data!.pagination.next_cursor_id ?? undefined;
        if (!cursor) break;
      }
      feed.set(session, rows);
    }
  }, 300_000);
  afterAll(async () => service.stop());

  it('serves each session its own prints: rth no curb print, all every print of the date', () => {
    const rth = feed.get('rth')!;
    const gth = feed.get('gth')!;
    const all = feed.get('all')!;
    expect(new Set(rth.map((p) => p.session))).toEqual(new Set(['rth']));
    expect(new Set(gth.map((p) => p.session))).toEqual(new Set(['gth']));
    // The simulated day has curb prints: all holds them, rth does not.
    expect(all.filter((p) => p.session === 'curb').length).toBeGreaterThan(0);
    expect(all.length).toBe(rth.length + gth.length + all.filter((p) => p.session === 'curb' || p.session === 'other').length);
  });

  it('adds up to the same volume and premium by the trades feed and the flow leaders', async () => {
    for (const session of ['rth', 'gth', 'all'] as const) {
      const want = totalsOf(feed.get(session)!);
      const r = await listFlowLeaders({
        client: pro,
        query: { grain: 'root', sort: 'premium', date: DAY, session, include_complex: true, limit: 100 },
      });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      const row = (r.data!.data as { underlying_symbol: string; premium: number; volume: number }[]).find(
        (x) => x.underlying_symbol === SYMBOL,
      );
      expect(row, session).toBeDefined();
      expect(row!.volume, session).toBe(want.volume);
      expect(row!.premium, session).toBeCloseTo(want.premium, 2);
    }
  });

  it('adds up to the same net premium by the trades feed and premium drift', async () => {
    for (const session of ['rth', 'gth', 'all'] as const) {
      const want = totalsOf(feed.get(session)!);
      const r = await getPremiumDrift({
        client: pro,
        query: { underlying_symbol: SYMBOL, date: DAY, session, include_complex: true, interval: '1h' },
      });
      expect(r.response.status, JSON.stringify(r.error)).toBe(200);
      const last = r.data!.data.at(-1)!;
      expect(last.call_drift! + last.put_drift!, session).toBeCloseTo(want.net, 2);
    }
  });

  it('adds up to the same volume, premium and net premium by the trades feed and the heat map (rth and gth)', async () => {
    for (const session of ['rth', 'gth'] as const) {
      const want = totalsOf(feed.get(session)!);
      const sum = async (metric: 'volume' | 'premium' | 'net_premium'): Promise<number> => {
        let total = 0;
        for (const leg of ['call', 'put'] as const) {
          const r = await getExposureHeatmap({
            client: pro,
            query: {
              underlying_symbol: SYMBOL,
              date: DAY,
              session,
              metric,
              leg,
              min_strike: 1,
              max_strike: 1_000_000,
              max_expirations: 64,
            },
          });
          expect(r.response.status, JSON.stringify(r.error)).toBe(200);
          const map = r.data!.data;
          expect(map.expiration_window.count).toBe(map.expiration_window.total_expirations);
          total += map.cells.reduce((a, c) => a + c.value, 0);
        }
        return total;
      };
      expect(await sum('volume'), session).toBe(want.volume);
      expect(await sum('premium'), session).toBeCloseTo(want.premium, 2);
      expect(await sum('net_premium'), session).toBeCloseTo(want.net, 2);
    }
  });
});
