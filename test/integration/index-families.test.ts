/**
 * The NDX and RUT families on the simulated session loaded through ingest: the positioning levels,
 * the heat map, the volatility skew and the volatility index answer on them as on SPX, from their
 * own roots (NDX/NDXP, RUT/RUTW), the index's own one-minute values and their own chains.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getExposureHeatmap, getExposureLevels, getIndexVolatility, getVolatilitySkew } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

const DAY = '2026-11-20';
/** 16:00 ET on DAY: the index's last value is the minute before. */
const REGULAR_CLOSE = Date.parse('2026-11-20T21:00:00Z');

const FAMILIES = [
  { family: 'NDX', roots: ['NDX', 'NDXP'], level: 20_900 },
  { family: 'RUT', roots: ['RUT', 'RUTW'], level: 2250 },
] as const;

describe('the NDX and RUT families on the simulated day', () => {
  let service: TestService;
  let pro: Client;

  beforeAll(async () => {
    service = await startTestService({
      market: { dates: [DAY] },
      jobs: true,
      clock: () => MARKET_NOW,
      env: { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client: pro } = await service.newAccount({ plan: 'pro' }));
  });
  afterAll(async () => service.stop());

  /** The index's stored close of its last regular minute of DAY. */
  const lastValue = async (symbol: string): Promise<number> => {
    const r = await sql<{ close: string }>`
      select close::text from underlying_bars where symbol = ${symbol} and ts < ${REGULAR_CLOSE}::int8 order by ts desc limit 1`.execute(
      service.database.admin,
    );
    return Number(r.rows[0]!.close);
  };

  for (const { family, roots, level } of FAMILIES) {
    it(`serves levels, the heat map, the skew and the volatility index on ${family} from its own roots and values`, async () => {
      const spot = await lastValue(family);
      expect(Math.abs(spot / level - 1)).toBeLessThan(0.2);

      const levels = await getExposureLevels({ client: pro, query: { underlying_symbol: family, date: DAY } });
      expect(levels.response.status, JSON.stringify(levels.error)).toBe(200);
      const l = levels.data!.data;
      expect(l).toMatchObject({ underlying_symbol: family, roots: [...roots], trading_date: DAY });
      // Valued on the family's own index, not another underlying's (its value at the close, or the
      // forward-implied level after it: within a percent of the last stored value).
      expect(Math.abs(l.underlying_price! / spot - 1)).toBeLessThan(0.01);
      expect(l.ranked!.net.length).toBeGreaterThan(0);

      const heatmap = await getExposureHeatmap({ client: pro, query: { underlying_symbol: family, date: DAY } });
      expect(heatmap.response.status, JSON.stringify(heatmap.error)).toBe(200);

      const skew = await getVolatilitySkew({ client: pro, query: { underlying_symbol: family, date: DAY } });
      expect(skew.response.status, JSON.stringify(skew.error)).toBe(200);
      const expirations = skew.data!.data.expirations;
      expect(expirations.length).toBeGreaterThan(0);
      for (const e of expirations) {
        expect(roots as readonly string[]).toContain(e.root);
        // The parity forward of its chain sits on the index (carry of a year at most some 4%).
        expect(Math.abs(e.forward! / spot - 1), `${e.root} ${e.date_of_expiry}`).toBeLessThan(0.05);
      }

      const index = await getIndexVolatility({ client: pro, query: { underlying_symbol: family } });
      expect(index.response.status, JSON.stringify(index.error)).toBe(200);
      const v = index.data!.data;
      expect(v).toMatchObject({ underlying_symbol: family, roots: [...roots], published_index: false, tenor: '30d' });
      // The simulated at-the-money volatility of NDX and RUT is about 20 to 25%.
      expect(v.value).toBeGreaterThan(10);
      expect(v.value).toBeLessThan(45);
    });
  }
});
