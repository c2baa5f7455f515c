import { describe, expect, it } from 'vitest';
import { onSurface, valueContracts } from '../analytics/positioning/contracts.js';
import { atmStraddle, atmVolatility } from '../analytics/positioning/expiration-levels.js';
import { DEFAULT_GATEKEEPER_RATIO, keyLevels } from '../analytics/positioning/key-levels.js';
import { buildSurface } from '../analytics/volatility/surface.js';
import { CLOSE, DATE, EXPIRATIONS, fakeMarket, NOW, openInterestOf, RATE, SPOT, SYMBOL } from './chain-market.fixtures.js';
import { ServiceMemos } from './memos.js';
import { memoryBooks } from './memory-books.fixtures.js';
import { getExposureLevels } from './positioning.js';
import { unitContext, withContractDefaults } from './service-context.fixtures.js';

type Levels = Awaited<ReturnType<typeof getExposureLevels>>['data'];

async function levels(
  market = fakeMarket(),
  memos = new ServiceMemos(),
  query: Record<string, unknown> = {},
  books = memoryBooks(),
): Promise<Levels> {
  const ctx = unitContext('getExposureLevels', { now: NOW, repositories: { ...market.repositories, books }, memos });
  return (await getExposureLevels(ctx, withContractDefaults('getExposureLevels', { underlying_symbol: SYMBOL, date: DATE, ...query })))
    .data;
}

/** The key levels of the market computed from analytics/positioning directly, on the same chain. */
type KeyLevelsInput = Parameters<typeof keyLevels>[0];
function expectedLevels(
  greek: KeyLevelsInput['greek'],
  unit: KeyLevelsInput['unit'],
  perspective: KeyLevelsInput['perspective'],
  model: Parameters<typeof valueContracts>[2],
) {
  const surface = buildSurface({ spot: SPOT, rate: RATE, expirations: EXPIRATIONS.map((e) => ({ time: e.time, quotes: e.quotes })) });
  const contracts = valueContracts(
    EXPIRATIONS.flatMap((e, i) =>
      e.quotes.map((q) =>
        onSurface(
          {
            dateOfExpiry: e.dateOfExpiry,
            daysToExpiry: e.days,
            strike: q.strike,
            type: q.type,
            multiplier: 100,
            openInterest: openInterestOf(q.type, q.strike, e.days),
            time: e.time,
          },
          surface[i]!,
          SPOT,
          RATE,
        ),
      ),
    ),
    { spot: SPOT, rate: RATE },
    model,
  );
  const near = EXPIRATIONS[0]!;
  return keyLevels({
    contracts,
    spot: SPOT,
    rate: RATE,
    tradingDate: DATE,
    greek,
    unit,
    perspective,
    include: [],
    gatekeeperRatio: DEFAULT_GATEKEEPER_RATIO,
    nearestMarket: { time: near.time, atmVolatility: atmVolatility(surface[0]!.smile), straddle: atmStraddle(near.quotes, SPOT) },
  });
}

describe('the levels service (getExposureLevels on fake repositories)', () => {
  it('answers the key levels analytics/positioning computes on the same chain, open interest and valuation', async () => {
    const data = await levels();
    expect(data).toMatchObject({ greek: 'gamma', model: 'classic_oi' });
    const expected = expectedLevels('gamma', data.unit, data.perspective, data.model);
    expect(data.levels).toEqual(expected.levels);
    expect(data.ranked).toEqual(expected.ranked);
    expect(data.ranked?.net.length).toBeGreaterThan(0);
    expect(data).toMatchObject({ underlying_symbol: SYMBOL, trading_date: DATE, roots: [SYMBOL], underlying_price: SPOT, session: 'rth' });
    expect(data.valuation).toMatchObject({
      timestamp: CLOSE,
      underlying_price: SPOT,
      risk_free_rate: RATE,
      chain_timestamp: CLOSE - 30_000,
      open_interest_date: '2026-11-19',
    });
  });

  it('values another greek, unit and perspective of the same book the same way', async () => {
    const data = await levels(fakeMarket(), new ServiceMemos(), { greek: 'delta', unit: 'per_dollar', perspective: 'customer' });
    expect(data.levels).toEqual(expectedLevels('delta', 'per_dollar', 'customer', data.model).levels);
  });

  it("values a completed session's book once for the store, and reads it back in another process's memos", async () => {
    const market = fakeMarket();
    const books = memoryBooks();
    const memos = new ServiceMemos();
    const first = await levels(market, memos, {}, books);
    expect(await levels(market, memos, { perspective: 'customer' }, books)).not.toEqual(first);
    expect(market.reads.get('listedContracts')).toBe(1);
    expect(await levels(market, memos, {}, books)).toEqual(first);
    // Another process (fresh memos) reads the stored book: the same answer, nothing valued again.
    expect(await levels(market, new ServiceMemos(), {}, books)).toEqual(first);
    expect(market.reads.get('listedContracts')).toBe(1);
    // Another deployment (another store) values it again.
    await levels(market, new ServiceMemos(), {}, memoryBooks());
    expect(market.reads.get('listedContracts')).toBe(2);
  });

  it('answers 422 for an underlying with no contract listed', async () => {
    const ctx = unitContext('getExposureLevels', { now: NOW, repositories: fakeMarket().repositories });
    await expect(
      getExposureLevels(ctx, withContractDefaults('getExposureLevels', { underlying_symbol: 'MSFT', date: DATE })),
    ).rejects.toMatchObject({ status: 422, code: 'no_data' });
  });
});
