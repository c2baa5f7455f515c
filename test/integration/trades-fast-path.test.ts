/**
 * The print feeds' fast path: with response validation off (as in production), rows are written
 * into the envelope as their stored JSON text. The body must be the same valid envelope, row for
 * row, as the stored prints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOptionTrades } from '../../generated/client/index.js';
import { printBodies } from '../../src/db/stored-prints.js';
import { loadSimulatedMarket } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';

describe('trades without response validation', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ env: { VALIDATE_RESPONSES: 'false', LIMIT_PER_SECOND: '1000' } });
    await loadSimulatedMarket(service.database.admin, { dates: ['2026-11-20'] });
  });
  afterAll(async () => service.stop());

  it('serves the stored print bodies in the envelope, newest first', async () => {
    const { client } = await service.newAccount();
    const r = await listOptionTrades({ client, query: { underlying_symbol: 'SPY', date: '2026-11-20', limit: 40 } });
    expect(r.response.status).toBe(200);
    expect(r.response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.data?.meta).toMatchObject({
      source: 'opra',
      request_id: r.response.headers.get('x-request-id'),
      coverage: { complete: true },
    });
    expect(r.data?.pagination).toMatchObject({ count: 40, limit: 40, has_more: true });
    const stored = (await printBodies(service.database.admin, '2026-11-20'))
      .map((b) => JSON.parse(b) as { underlying_symbol: string; session: string; timestamp: number; id: string })
      .filter((p) => p.underlying_symbol === 'SPY' && p.session !== 'gth')
      .reverse();
    expect(r.data?.data.map((p) => p.id)).toEqual(stored.slice(0, 40).map((p) => p.id));
    expect(r.data?.data[0]).toEqual(stored[0]);
  });
});
