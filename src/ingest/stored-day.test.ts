import { describe, expect, it } from 'vitest';
import type { StoredCancelCandidate } from '../db/stored-prints.js';
import { sortPrints } from './print-order.js';
import { CANCEL_CONDITION, OPEN, printTable, storeContracts } from './prints.fixtures.js';
import { cancelCandidates, StoredDay, storedDayProbes } from './stored-day.js';

const DATE = '2026-11-20';
const candidate = (sequence: number, cancelled = false, applied = false): StoredCancelCandidate => ({
  probe: 0,
  sequence,
  cancelled,
  applied,
});

describe('StoredDay', () => {
  it("gives each contract's stored volume, 0 for a contract with none", () => {
    const day = new StoredDay(DATE, new Map([['SPXW:2026-11-20:6600000:C', 42]]), new Map());
    expect([day.dayVolume('SPXW:2026-11-20:6600000:C'), day.dayVolume('SPY:2026-11-20:660000:P')]).toEqual([42, 0]);
  });

  it('cancels the newest candidate not yet cancelled of the current cancel record, each stored print once', () => {
    const day = new StoredDay(
      DATE,
      new Map(),
      new Map([
        [3, { contractId: 7, cancelSequence: 90, list: [candidate(12, true), candidate(11), candidate(10)] }],
        [4, { contractId: 7, cancelSequence: 91, list: [candidate(12, true), candidate(11)] }],
        [5, { contractId: 7, cancelSequence: 92, list: [candidate(11)] }],
      ]),
    );
    day.current = 2;
    expect(day.cancel()).toBe(false);
    day.current = 3;
    expect(day.cancel()).toBe(true);
    day.current = 4;
    // Its one candidate not cancelled in the store was taken by the record before.
    expect(day.cancel()).toBe(false);
    day.current = 5;
    expect(day.cancel()).toBe(false);
    expect(day.cancelled).toEqual([{ tradingDate: DATE, contractId: 7, sequence: 11 }]);
    expect(day.records).toEqual([{ tradingDate: DATE, contractId: 7, cancelSequence: 90, sequence: 11 }]);
    expect(day.alreadyApplied).toBe(0);
  });

  it('cancels nothing for a record an earlier load of its file already applied', () => {
    const day = new StoredDay(
      DATE,
      new Map(),
      new Map([[0, { contractId: 7, cancelSequence: 90, list: [candidate(11), candidate(10, true, true)] }]]),
    );
    day.current = 0;
    expect(day.cancel()).toBe(false);
    expect(day.cancelled).toEqual([]);
    // Counted apart from a record that finds nothing to cancel (the load's cancels_already_applied).
    expect(day.alreadyApplied).toBe(1);
  });
});

describe('the stored day asked for', () => {
  const table = printTable([
    { sequence: 1 },
    { sequence: 2, symbol: 'SPY   261120P00660000' },
    { sequence: 3, conditionCode: CANCEL_CONDITION, price: 2.5, size: 4, exchangeCode: 302, timestamp: OPEN + 50 },
    { sequence: 4, date: 1 },
  ]);
  storeContracts(table, 20);
  const sorted = sortPrints({
    table,
    dateIndex: new Map([
      ['2026-11-20', 0],
      ['2026-11-21', 1],
    ]),
  });
  const today = sorted.days.find((d) => d.tradingDate === DATE);
  if (today === undefined) throw new Error(`no prints of ${DATE}`);

  it("names the date's contracts and each cancel record as a probe", () => {
    expect(storedDayProbes(sorted, today)).toEqual({
      contracts: [
        { key: 'SPXW:2026-11-20:6600000:C', id: 20 },
        { key: 'SPY:2026-11-20:660000:P', id: 21 },
      ],
      probes: [{ contractId: 20, sequence: 3, exchangeCode: 302, price: 2.5, size: 4, ts: OPEN + 50 }],
      probeIndex: [2],
    });
  });

  it("groups the candidates found by their cancel record's table index, in the order found", () => {
    const asked = storedDayProbes(sorted, today);
    expect(cancelCandidates(asked, [candidate(2), candidate(1, true)])).toEqual(
      new Map([[2, { contractId: 20, cancelSequence: 3, list: [candidate(2), candidate(1, true)] }]]),
    );
    expect(() => cancelCandidates(asked, [{ ...candidate(2), probe: 1 }])).toThrow(/names probe 1 of 1/);
  });
});
