import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../api-contract/openapi.js';
import { DATE, fakeMarket, NOW, SYMBOL } from './chain-market.fixtures.js';
import { getExposureHeatmap } from './exposure-heatmap.js';
import { ServiceMemos } from './memos.js';
import { memoryBooks } from './memory-books.fixtures.js';
import { getExposureLevels } from './positioning.js';
import type { BookRepository } from './repositories.js';
import { unitContext, withContractDefaults } from './service-context.fixtures.js';
import type { QueryOf, Result, ServiceContext } from './types.js';
import { ValuationPool } from './valuation-pool.js';
import { getVolatilitySkew } from './volatility-skew.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

type Valued = 'getExposureLevels' | 'getExposureHeatmap' | 'getVolatilitySkew';
const ROUTES: { [Op in Valued]: (ctx: ServiceContext, q: QueryOf<Op>) => Promise<Result<Op>> } = {
  getExposureLevels,
  getExposureHeatmap,
  getVolatilitySkew,
};

/** Requests of the three routes, the defaults and others (another model, greek, metric, expirations, a 422). */
const REQUESTS: [Valued, Record<string, unknown>][] = [
  ['getExposureLevels', {}],
  ['getExposureLevels', { model: 'flow_adjusted', greek: 'vanna', include: ['charm', 'delta'] }],
  ['getExposureLevels', { expiry_mode: 'front', perspective: 'customer', unit: 'per_dollar' }],
  ['getExposureHeatmap', {}],
  ['getExposureHeatmap', { metric: 'open_interest', strikes_around: 3 }],
  ['getExposureHeatmap', { metric: 'volume', leg: 'calls' }],
  ['getVolatilitySkew', {}],
  ['getExposureLevels', { min_dte: 900 }],
];

/** The route's answer as the JSON text it sends, or its error's status, code and message. */
async function answer(op: Valued, query: Record<string, unknown>, books: BookRepository, pool: ValuationPool | null): Promise<unknown> {
  const ctx = unitContext(op, { now: NOW, repositories: { ...fakeMarket().repositories, books }, memos: new ServiceMemos() });
  ctx.deps.valuation = pool;
  const route = ROUTES[op] as (ctx: ServiceContext, q: unknown) => Promise<Result<OperationId>>;
  try {
    const result = await route(ctx, withContractDefaults(op, { underlying_symbol: SYMBOL, date: DATE, ...query }));
    return { text: result.dataJson ?? JSON.stringify(result.data) };
  } catch (error) {
    const e = error as { status?: number; code?: string; message: string };
    return { status: e.status, code: e.code, message: e.message };
  }
}

describe('the valuation threads (valuation-pool.ts)', () => {
  let pool: ValuationPool;

  beforeAll(async () => {
    pool = ValuationPool.create(1, silent) as ValuationPool;
    expect(await pool.ready()).toBe(true);
  });

  afterAll(async () => {
    await pool.stop();
  });

  it('answer every request as the event loop does, to the last digit: the book fitted and the views computed in a thread', async () => {
    const inline = memoryBooks();
    const threaded = memoryBooks();
    const before = pool.state.completed;
    for (const [op, query] of REQUESTS) {
      const expected = await answer(op, query, inline, null);
      expect(await answer(op, query, threaded, pool), `${op} ${JSON.stringify(query)}`).toStrictEqual(expected);
    }
    // The book was fitted in the thread (one `fit`) and every answer computed there (the first with the book's columns, which the thread keeps).
    expect(pool.state.completed).toBe(before + 1 + REQUESTS.length);
    // The stored books are the same, fitted surfaces included (JSON text of numbers: NaN and -0 are written as such, books.ts).
    const first = async (books: BookRepository) => structuredClone(await books.readBook(1));
    expect(await first(threaded)).toStrictEqual(await first(inline));
    expect((await answer('getExposureLevels', { min_dte: 900 }, threaded, pool)) as object).toMatchObject({ status: 422, code: 'no_data' });
  });

  it("answers from a stored book a thread does not hold (another process's): it is read and sent with the task again", async () => {
    const inline = memoryBooks();
    const threaded = memoryBooks();
    const query = { greek: 'charm', model: 'flow_adjusted' };
    await answer('getVolatilitySkew', {}, inline, null);
    await answer('getVolatilitySkew', {}, threaded, null);
    const fresh = ValuationPool.create(1, silent) as ValuationPool;
    try {
      expect(await answer('getExposureLevels', query, threaded, fresh)).toStrictEqual(
        await answer('getExposureLevels', query, inline, null),
      );
      // `missing`, then the task with the columns read from the store.
      expect(fresh.state.completed).toBe(2);
    } finally {
      await fresh.stop();
    }
  });

  it('rejects what is queued or running once stopped, and a stopped pool runs nothing', async () => {
    const other = ValuationPool.create(1, silent) as ValuationPool;
    expect(await other.ready()).toBe(true);
    const queued = other.run('A', 'no-such-task', null);
    await expect(queued).rejects.toThrow('no valuation task is named no-such-task');
    const pending = Promise.allSettled([other.run('A', 'fit', { spot: 100, rate: 0.04, expirations: [] }), other.run('B', 'fit', null)]);
    await other.stop();
    expect((await pending).map((p) => p.status)).toEqual(['rejected', 'rejected']);
    await expect(other.run('A', 'fit', null)).rejects.toThrow('stopped');
  });
});
