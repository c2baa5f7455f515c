import { describe, expect, it } from 'vitest';
import { keysUnique, sortPrints } from './print-order.js';
import { CANCEL_CONDITION, OPEN, printTable, type PrintSpec } from './prints.fixtures.js';

const SPY = 'SPY   261120P00660000';

/** Read prints of two trading dates, met in the file the later one first (date index 0: 2026-11-21). */
function read(specs: PrintSpec[]): Parameters<typeof sortPrints>[0] {
  return {
    table: printTable(specs),
    dateIndex: new Map([
      ['2026-11-21', 0],
      ['2026-11-20', 1],
    ]),
  };
}

describe('sortPrints', () => {
  it('keeps a file already in order as it is, by trading date in calendar order', () => {
    const sorted = sortPrints(
      read([
        { date: 1, timestamp: OPEN, sequence: 1 },
        { date: 1, timestamp: OPEN, sequence: 2 },
        { date: 0, timestamp: OPEN + 86_400_000, sequence: 1 },
      ]),
    );
    expect([...sorted.order]).toEqual([0, 1, 2]);
    expect(sorted.days).toEqual([
      { tradingDate: '2026-11-20', start: 0, end: 2, uniqueKeys: true },
      { tradingDate: '2026-11-21', start: 2, end: 3, uniqueKeys: true },
    ]);
    // Renumbered: date index d is now the rank of its date.
    expect([0, 1, 2].map((i) => sorted.table.dateAt(i))).toEqual([0, 0, 1]);
    expect(sorted.duplicates).toBe(0);
  });

  it('orders by trading date, timestamp, sequence and line', () => {
    const sorted = sortPrints(
      read([
        { date: 0, timestamp: OPEN + 86_400_000, sequence: 1 },
        { date: 1, timestamp: OPEN + 5, sequence: 9 },
        { date: 1, timestamp: OPEN + 5, sequence: 3, symbol: SPY },
        { date: 1, timestamp: OPEN, sequence: 7 },
        { date: 1, timestamp: OPEN + 5, sequence: 3 },
      ]),
    );
    expect([...sorted.order]).toEqual([3, 2, 4, 1, 0]);
    expect(sorted.days.map((d) => [d.tradingDate, d.start, d.end])).toEqual([
      ['2026-11-20', 0, 4],
      ['2026-11-21', 4, 5],
    ]);
  });

  it('drops a print repeating the one before it (date, contract, timestamp, sequence), never a cancel record', () => {
    const sorted = sortPrints(
      read([
        { date: 1, timestamp: OPEN, sequence: 1 },
        { date: 1, timestamp: OPEN, sequence: 1 },
        { date: 1, timestamp: OPEN, sequence: 1, symbol: SPY },
        { date: 1, timestamp: OPEN + 1, sequence: 2, conditionCode: CANCEL_CONDITION },
        { date: 1, timestamp: OPEN + 1, sequence: 2, conditionCode: CANCEL_CONDITION },
        { date: 0, timestamp: OPEN, sequence: 1 },
      ]),
    );
    expect([...sorted.order]).toEqual([0, 2, 3, 4, 5]);
    expect(sorted.duplicates).toBe(1);
  });
});

describe('keysUnique', () => {
  const unique = (specs: PrintSpec[]): boolean => {
    const table = printTable(specs);
    return keysUnique(
      table,
      Int32Array.from(specs, (_, i) => i),
    );
  };

  it('holds when each contract sequence comes once, rising or not', () => {
    expect(unique([{ sequence: 1 }, { sequence: 2 }, { sequence: 1, symbol: SPY }])).toBe(true);
    expect(unique([{ sequence: 5 }, { sequence: 2 }, { sequence: 9 }, { sequence: 5, symbol: SPY }])).toBe(true);
  });

  it('fails when a contract repeats a sequence, at any time, cancel records aside', () => {
    expect(unique([{ sequence: 5 }, { sequence: 2 }, { sequence: 5, timestamp: OPEN + 60_000 }])).toBe(false);
    expect(unique([{ sequence: 1 }, { sequence: 2 }, { sequence: 2, conditionCode: CANCEL_CONDITION }])).toBe(true);
    expect(unique([{ sequence: 3 }, { sequence: 2, symbol: SPY }, { sequence: 1 }, { sequence: 3, conditionCode: CANCEL_CONDITION }])).toBe(
      true,
    );
  });
});
