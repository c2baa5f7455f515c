import { describe, expect, it } from 'vitest';
import { expirationSkew } from '../analytics/volatility/skew.js';
import { buildSurface } from '../analytics/volatility/surface.js';
import { CLOSE, DATE, EXPIRATIONS, fakeMarket, NOW, RATE, SPOT, SYMBOL } from './chain-market.fixtures.js';
import { unitContext, withContractDefaults } from './service-context.fixtures.js';
import { getVolatilitySkew } from './volatility-skew.js';

async function skew(query: Record<string, unknown> = {}, market = fakeMarket()) {
  const ctx = unitContext('getVolatilitySkew', { now: NOW, repositories: market.repositories });
  return (await getVolatilitySkew(ctx, withContractDefaults('getVolatilitySkew', { underlying_symbol: SYMBOL, date: DATE, ...query })))
    .data;
}

describe('the skew service (getVolatilitySkew on fake repositories)', () => {
  it('answers, per expiration, the skew analytics/volatility computes on the same chain at the close', async () => {
    const data = await skew();
    const surface = buildSurface({ spot: SPOT, rate: RATE, expirations: EXPIRATIONS.map((e) => ({ time: e.time, quotes: e.quotes })) });
    const expected = EXPIRATIONS.map((e, i) => {
      const { fit, forward, points, ...measures } = expirationSkew(surface[i]!);
      return { ...measures, date_of_expiry: e.dateOfExpiry, days_to_expiry: e.days, fit, forward, points, root: SYMBOL };
    });
    expect(data.expirations).toEqual(expected);
    expect(data.expirations[0]!.points.length).toBeGreaterThan(0);
    expect(data).toMatchObject({ underlying_symbol: SYMBOL, trading_date: DATE, roots: [SYMBOL], session: 'rth' });
    expect(data.valuation).toMatchObject({
      timestamp: CLOSE,
      underlying_price: SPOT,
      risk_free_rate: RATE,
      chain_timestamp: CLOSE - 30_000,
      open_interest_date: null,
    });
  });

  it('values only the named expiration, on a surface fitted over it alone', async () => {
    const named = EXPIRATIONS[1]!;
    const data = await skew({ date_of_expiry: named.dateOfExpiry });
    const [surface] = buildSurface({ spot: SPOT, rate: RATE, expirations: [{ time: named.time, quotes: named.quotes }] });
    expect(data.expirations.map((e) => e.date_of_expiry)).toEqual([named.dateOfExpiry]);
    expect(data.expirations[0]!.points).toEqual(expirationSkew(surface!).points);
  });

  it('answers 422 when no expiration is listed, and when the chain has no quote up to the instant', async () => {
    await expect(skew({ underlying_symbol: 'MSFT' })).rejects.toMatchObject({ status: 422, code: 'no_data' });
    const market = fakeMarket();
    market.repositories.chain.chainQuotesAt = async () => [];
    await expect(skew({}, market)).rejects.toMatchObject({ status: 422, code: 'no_data' });
  });

  it('values `at` like `date` at the close, and answers 422 for an instant no session of the calendar holds', async () => {
    // 18:00 ET on the date: its session has closed.
    const evening = Date.parse(`${DATE}T23:00:00Z`);
    expect(await skew({ date: undefined, at: evening })).toEqual(await skew());
    // 2000-01-01 00:00 UTC: the previous trading date would be in 1999, before the calendar.
    await expect(skew({ date: undefined, at: 946_684_800_000 })).rejects.toMatchObject({ status: 422, code: 'no_data' });
  });
});
