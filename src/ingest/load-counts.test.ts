import { describe, expect, it } from 'vitest';
import { accountedRecords, checkLoadCounts, countsSummary, LOAD_OUTCOMES, LoadCountError, outcomesOf } from './load-counts.js';
import { alreadyLoadedResult, emptyResult, type MarketLoadResult } from './source.js';

const rejects = (n: number): MarketLoadResult['rejected'] => Array.from({ length: n }, (_, k) => ({ line: k + 2, reason: 'bad' }));

/** A prints load of 20 records, each in one outcome. */
const PRINTS: MarketLoadResult = {
  ...emptyResult('day.csv', 'prints'),
  read: 20,
  loaded: 11,
  rejected: rejects(2),
  duplicates: 1,
  cancels: 3,
  cancelsOfStored: 1,
  cancelsAlreadyApplied: 1,
  cancelsUnmatched: 1,
};

describe('load counts', () => {
  it('accepts a result whose outcomes add up to the records read, whatever the outcomes', () => {
    expect(accountedRecords(PRINTS)).toBe(20);
    expect(() => checkLoadCounts(PRINTS)).not.toThrow();
    expect(() => checkLoadCounts(emptyResult('empty.csv', 'quotes'))).not.toThrow();
    expect(() =>
      checkLoadCounts({ ...emptyResult('q.csv', 'massive-quotes'), read: 6, loaded: 2, skipped: 1, superseded: 2, rejected: rejects(1) }),
    ).not.toThrow();
  });

  it('counts every record of a file loaded before as a duplicate of that load', () => {
    const again = alreadyLoadedResult('day.csv', 'prints', 20);
    expect(again).toMatchObject({ read: 20, loaded: 0, duplicates: 20, alreadyLoaded: true });
    expect(() => checkLoadCounts(again)).not.toThrow();
  });

  it('throws a LoadCountError naming every count when records are unexplained or invented', () => {
    const short = { ...PRINTS, cancels: 0 };
    expect(() => checkLoadCounts(short)).toThrow(LoadCountError);
    expect(() => checkLoadCounts(short)).toThrow(
      "day.csv: the load's counts do not add up, nothing was written: read 20, loaded 11, rejected 2, duplicates 1, cancels 0, cancels_of_stored 1, " +
        'cancels_already_applied 1, cancels_unmatched 1 (the outcomes sum to 17: 3 records unexplained)',
    );
    expect(() => checkLoadCounts({ ...PRINTS, loaded: 12 })).toThrow(/\(the outcomes sum to 21: 1 more than read\)$/);
  });

  it('throws when a count is negative or not whole, even if the sum comes right', () => {
    expect(() => checkLoadCounts({ ...PRINTS, cancelsUnmatched: -1, cancels: 5 })).toThrow(/\(not a count: cancels_unmatched\)$/);
    expect(() => checkLoadCounts({ ...PRINTS, loaded: 10.5, duplicates: 1.5 })).toThrow(/not a count: loaded, duplicates/);
    expect(() => checkLoadCounts({ ...emptyResult('x.csv', 'prints'), read: NaN })).toThrow(LoadCountError);
  });

  it("names the outcomes a file's kind can have, zeros included, and any other that is not zero", () => {
    expect(countsSummary(PRINTS)).toBe(
      'read 20, loaded 11, rejected 2, duplicates 1, cancels 3, cancels_of_stored 1, cancels_already_applied 1, cancels_unmatched 1',
    );
    expect(countsSummary({ ...emptyResult('t.csv', 'databento-tbbo'), read: 3, loaded: 2, rejected: rejects(1) })).toBe(
      'read 3, loaded 2, rejected 1, duplicates 0, skipped 0, cancels 0, cancels_of_stored 0, cancels_already_applied 0, cancels_unmatched 0',
    );
    expect(
      countsSummary({ ...emptyResult('q.ndjson', 'quotes'), read: 5, loaded: 2, rejected: rejects(1), duplicates: 1, superseded: 1 }),
    ).toBe('read 5, loaded 2, rejected 1, duplicates 1, superseded 1');
    // The command's line for a splits file keeps its earlier form (test/integration/cli.test.ts).
    expect(countsSummary({ ...emptyResult('s.csv', 'splits'), read: 2, loaded: 1, rejected: rejects(1) })).toBe(
      'read 2, loaded 1, rejected 1, duplicates 0',
    );
    expect(countsSummary({ ...emptyResult('b.csv', 'underlying_bars'), read: 4, loaded: 3, cancels: 1 })).toBe(
      'read 4, loaded 3, rejected 0, duplicates 0, cancels 1',
    );
  });

  it('declares each outcome of the result once, with a distinct name', () => {
    const fields = LOAD_OUTCOMES.map((o) => o.field);
    const counted = Object.keys(emptyResult('x', 'prints')).filter((k) => !['file', 'kind', 'read', 'alreadyLoaded'].includes(k));
    expect([...fields].sort()).toEqual(counted.sort());
    expect(new Set(LOAD_OUTCOMES.map((o) => o.name)).size).toBe(LOAD_OUTCOMES.length);
    expect(outcomesOf('contracts')).toEqual(['loaded', 'rejected', 'duplicates']);
    expect(outcomesOf('massive-quotes')).toEqual(['loaded', 'rejected', 'duplicates', 'skipped', 'superseded']);
  });
});
