import { describe, expect, it } from 'vitest';
import type { IndexBarRow, IndexBarWindow } from '../db/index-values.js';
import { getIndexSnapshot, listIndexBars, listIndices } from './indices.js';
import type { IndexRepository } from './repositories.js';
import { unitContext, withContractDefaults } from './service-context.fixtures.js';

const at = (iso: string): number => Date.parse(iso);
/** Monday 2026-11-23, 11:00:20 ET: the session runs; the previous trading date is Friday the 20th. */
const NOW = at('2026-11-23T16:00:20Z');

/** A repository that records the reads and answers day bars of its own. */
function fakeIndices(origins = { simulated: true, loaded: false }) {
  const reads: { symbol: string; windows: readonly IndexBarWindow[]; bucketMs: number | null; limit: number }[] = [];
  const valueReads: { symbol: string; lastMinute: number }[] = [];
  const day = (tradingDate: string, open: number, close: number): IndexBarRow => ({
    bucket: 0,
    tradingDate,
    open,
    high: Math.max(open, close) + 1,
    low: Math.min(open, close) - 1,
    close,
    minutes: 10,
    lastMinute: 0,
  });
  const repository: IndexRepository = {
    indexCoverage: async (symbols) =>
      symbols.map((symbol) => (symbol === 'SPX' ? { symbol, first: 1, last: 2 } : { symbol, first: null, last: null })),
    barFileOrigins: async () => origins,
    indexBars: async (symbol, windows, bucketMs, limit) => {
      reads.push({ symbol, windows, bucketMs, limit });
      return symbol === 'SPX' ? [day('2026-11-20', 5800, 5850), day('2026-11-23', 5851, 5900)] : [];
    },
    indexValueAt: async (symbol, lastMinute) => {
      valueReads.push({ symbol, lastMinute });
      return symbol === 'SPX' ? { ts: lastMinute, close: 5880.5 } : null;
    },
  };
  return { repository, reads, valueReads };
}

describe('the index services on a fake repository', () => {
  it('lists the store origin only for indices with values, and the session calculating now', async () => {
    const fake = fakeIndices({ simulated: true, loaded: true });
    const { data } = await listIndices(unitContext('listIndices', { now: NOW, repositories: { indices: fake.repository } }));
    expect(data.map((i) => [i.symbol, i.source, i.first_timestamp])).toEqual([
      ['SPX', 'mixed', 1],
      ['NDX', 'none', null],
      ['RUT', 'none', null],
    ]);
    expect(data[0]!.session).toEqual({
      trading_date: '2026-11-23',
      start_time: at('2026-11-23T14:30:00Z'),
      end_time: at('2026-11-23T21:00:00Z'),
      status: 'regular',
      calculating: true,
    });
  });

  it('quotes from the minute known at the instant, the session cut there, and the previous date whole', async () => {
    const fake = fakeIndices();
    const ctx = unitContext('getIndexSnapshot', { now: NOW, repositories: { indices: fake.repository } });
    const { data } = await getIndexSnapshot(ctx, withContractDefaults('getIndexSnapshot', { symbols: ['spx', 'NDX'] }));
    // 11:00:20 ET: the minute 10:59 is the newest ended.
    const last = at('2026-11-23T15:59:00Z');
    expect(fake.valueReads).toEqual([
      { symbol: 'SPX', lastMinute: last },
      { symbol: 'NDX', lastMinute: last },
    ]);
    expect(fake.reads[0]).toEqual({
      symbol: 'SPX',
      bucketMs: null,
      limit: 2,
      windows: [
        { tradingDate: '2026-11-20', start: at('2026-11-20T14:30:00Z'), end: at('2026-11-20T21:00:00Z'), open: at('2026-11-20T14:30:00Z') },
        { tradingDate: '2026-11-23', start: at('2026-11-23T14:30:00Z'), end: last + 1, open: at('2026-11-23T14:30:00Z') },
      ],
    });
    expect(data[0]).toEqual({
      symbol: 'SPX',
      value: 5880.5,
      timestamp: last,
      trading_date: '2026-11-23',
      open: 5851,
      high: 5901,
      low: 5850,
      previous_close: 5850,
      previous_close_date: '2026-11-20',
      change: 30.5,
      change_percent: 0.521368,
      calculating: true,
    });
    expect(data[1]).toMatchObject({ symbol: 'NDX', value: null, open: null, previous_close: null, change: null });
    // An instant after the clock is the clock's.
    const later = fakeIndices();
    const laterCtx = unitContext('getIndexSnapshot', { now: NOW, repositories: { indices: later.repository } });
    await getIndexSnapshot(laterCtx, withContractDefaults('getIndexSnapshot', { symbols: ['SPX'], at: NOW + 3_600_000 }));
    expect(later.valueReads[0]!.lastMinute).toBe(last);
  });

  it('reads 1h buckets of the date window, one more than the limit (to tell whether a page follows)', async () => {
    const fake = fakeIndices();
    const ctx = unitContext('listIndexBars', { now: NOW, repositories: { indices: fake.repository } });
    await listIndexBars(ctx, withContractDefaults('listIndexBars', { symbol: 'SPX', interval: '1h', date: '2026-11-20', limit: 1 }));
    expect(fake.reads[0]).toMatchObject({
      bucketMs: 3_600_000,
      limit: 2,
      windows: [{ tradingDate: '2026-11-20', start: at('2026-11-20T14:30:00Z') }],
    });
  });

  it('answers 422 no_data naming the indices for a symbol outside them', async () => {
    const ctx = unitContext('listIndexBars', { now: NOW, repositories: { indices: fakeIndices().repository } });
    await expect(listIndexBars(ctx, withContractDefaults('listIndexBars', { symbol: 'DJX' }))).rejects.toMatchObject({
      status: 422,
      code: 'no_data',
      message: expect.stringContaining('the indices: SPX, NDX, RUT') as unknown,
    });
  });
});
