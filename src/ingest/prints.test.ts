import { describe, expect, it } from 'vitest';
import { printId } from '../analytics/print-id.js';
import { cancelledKeys } from './prints.js';
import { printTable, storeContracts } from './prints.fixtures.js';

describe('cancelledKeys', () => {
  const table = printTable([{ symbol: 'SPXW  261120C06612500' }, { symbol: 'SPY   261120P00660000' }]);
  storeContracts(table, 30);

  it("finds each cancelled print's contract, trading date and sequence from its id", () => {
    const [spxw, spy] = table.storedSlots.map((s) => s.ref);
    const ids = [spy, spxw].map((ref, k) => (ref === undefined ? '' : printId({ ...ref, tradingDate: '2026-11-20', sequence: 100 + k })));
    expect(cancelledKeys(table, ids)).toEqual([
      { contractId: 31, tradingDate: '2026-11-20', sequence: 100 },
      { contractId: 30, tradingDate: '2026-11-20', sequence: 101 },
    ]);
  });

  it('skips an id of another contract, or one that is not a print id', () => {
    expect(
      cancelledKeys(table, [
        'QQQ:2026-11-20:500000:C:2026-11-20:1',
        'SPY:2026-11-20:660000:P:2026-11-20',
        'SPY:2026-11-20:660000:P:2026-11-20:x',
        '',
      ]),
    ).toEqual([]);
  });
});
