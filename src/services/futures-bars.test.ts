/**
 * The futures bars and continuous services on rows handed to them: what they ask the store for
 * (the trade dates' figures with the lookback, the windows of each trade date's contract) and
 * what they answer when the store holds nothing of a roll (no settlement, no bar, no definition).
 */
import { describe, expect, it } from 'vitest';
import type { FuturesBarWindow } from '../db/futures-continuous.js';
import { listFuturesBars, listFuturesContinuous } from './futures-bars.js';
import type { FuturesBarsRepository } from './repositories.js';
import { unitContext, withContractDefaults } from './service-context.fixtures.js';

/** Saturday 2026-12-12 12:00 ET. */
const NOW = Date.parse('2026-12-12T17:00:00Z');

function fakeStore(stored: boolean) {
  const figureReads: [string, string, string][] = [];
  const windowReads: { windows: readonly FuturesBarWindow[]; bucketMs: number | null }[] = [];
  const contracts = [
    { id: 1, symbol: 'ESZ6', contractMonth: '2026-12' },
    { id: 2, symbol: 'ESH7', contractMonth: '2027-03' },
  ].map((c) => ({ ...c, root: 'ES', expiration: 0, tickSize: 0.25, multiplier: 50, currency: 'USD', instrumentId: null }));
  const repository: FuturesBarsRepository = {
    contractsOfRoot: async () => (stored ? contracts : []),
    figuresOfRoot: async (root, from, to) => {
      figureReads.push([root, from, to]);
      return [];
    },
    barBuckets: async (windows, bucketMs) => {
      windowReads.push({ windows, bucketMs });
      return [];
    },
    closeBefore: async () => null,
  };
  return { repository, figureReads, windowReads };
}

describe('continuous mapping service', () => {
  it('reads the figures from two weeks before the range, and answers missing roll prices and a calendar fallback as such', async () => {
    const store = fakeStore(false);
    const ctx = unitContext('listFuturesContinuous', { now: NOW, repositories: { futuresBars: store.repository } });
    const { data } = await listFuturesContinuous(ctx, { symbol: 'ES.v.0', start_date: '2026-12-07', end_date: '2026-12-11' });
    expect(store.figureReads).toEqual([['ES', '2026-11-23', '2026-12-11']]);
    // No figures at all: the calendar rule's contract, said to be a fallback.
    expect(data.map((i) => [i.start_date, i.end_date, i.contract_symbol, i.basis.fallback])).toEqual([
      ['2026-12-07', '2026-12-09', 'ESZ26', true],
      ['2026-12-10', '2026-12-11', 'ESH27', true],
    ]);
    expect(data[1]!.roll).toEqual({
      price_date: '2026-12-09',
      previous_contract_symbol: 'ESZ26',
      previous_price: null,
      previous_price_source: 'missing',
      price: null,
      price_source: 'missing',
      difference: null,
      ratio: null,
    });
  });

  it('refuses a reversed range, naming the dates given; start_date alone maps at most 367 dates', async () => {
    const ctx = unitContext('listFuturesContinuous', { now: NOW, repositories: { futuresBars: fakeStore(false).repository } });
    await expect(listFuturesContinuous(ctx, { symbol: 'ES.c.0', start_date: '2026-12-11', end_date: '2026-12-07' })).rejects.toMatchObject({
      status: 400,
      details: [
        { parameter: 'start_date', message: 'start_date must not be after end_date' },
        { parameter: 'end_date', message: 'start_date must not be after end_date' },
      ],
    });
    // end_date's default (the current trade date) is kept within 366 days of start_date.
    const long = await listFuturesContinuous(ctx, { symbol: 'ES.c.0', start_date: '2025-10-01' });
    expect(long.data.at(-1)!.end_date).toBe('2026-10-02');
    // A start_date after the current trade date maps that date alone.
    const later = await listFuturesContinuous(ctx, { symbol: 'ES.c.0', start_date: '2027-01-15' });
    expect(later.data.map((i) => [i.start_date, i.end_date])).toEqual([['2027-01-15', '2027-01-15']]);
  });
});

describe('futures bars service', () => {
  it('reads each trade date of the range from its contract, in the session windows cut to the range', async () => {
    const store = fakeStore(true);
    const ctx = unitContext('listFuturesBars', { now: NOW, repositories: { futuresBars: store.repository } });
    const start = Date.parse('2026-12-09T15:00:00Z'); // Wednesday 10:00 ET
    const end = Date.parse('2026-12-10T15:00:00Z'); // Thursday 10:00 ET, ESH27's first calendar date
    await expect(
      listFuturesBars(ctx, withContractDefaults('listFuturesBars', { symbol: 'ES.c.0', session: 'rth', start_time: start, end_time: end })),
    ).rejects.toMatchObject({ status: 422 });
    expect(store.windowReads).toEqual([
      {
        bucketMs: 60_000,
        windows: [
          {
            contractId: 1,
            tradeDate: '2026-12-09',
            start,
            end: Date.parse('2026-12-09T21:00:00Z'),
            open: Date.parse('2026-12-09T14:30:00Z'),
          },
          {
            contractId: 2,
            tradeDate: '2026-12-10',
            start: Date.parse('2026-12-10T14:30:00Z'),
            end,
            open: Date.parse('2026-12-10T14:30:00Z'),
          },
        ],
      },
    ]);
  });
});
