import { describe, expect, it } from 'vitest';
import type { StoredFuturesContract } from '../db/futures-contracts.js';
import type { FuturesBasisRepository } from './repositories.js';
import { finalSettlementTime, getFuturesBasis } from './futures-basis.js';
import { unitContext, withContractDefaults } from './service-context.fixtures.js';

const MINUTE = 60_000;
/** ESZ6's final settlement: Friday 2026-12-18 09:30 ET (14:30 UTC). */
const ESZ6_SETTLEMENT = Date.parse('2026-12-18T14:30:00Z');

const contract = (id: number, symbol: string, contractMonth: string): StoredFuturesContract => ({
  id,
  symbol,
  root: 'ES',
  contractMonth,
  expiration: 0,
  tickSize: 0.25,
  multiplier: 50,
  currency: 'USD',
  instrumentId: null,
});

/** Every contract has a bar and SPX a value at every minute: F = 6000 + id, S = 6000. */
function repository(asked: [number, number, number][]): FuturesBasisRepository {
  return {
    contractsOfRoot: async () => [contract(2, 'ESH7', '2027-03'), contract(1, 'ESZ6', '2026-12')],
    settlementsPage: async () => [],
    newestStatisticsDate: async () => null,
    newestBasisMinute: async (id, _index, _from, to) => ({ ts: to, future: 6000 + id, index: 6000 }),
    basisMinutes: async (id, _index, from, to) => {
      asked.push([id, from, to]);
      const out = [];
      for (let ts = Math.ceil(from / MINUTE) * MINUTE; ts < to; ts += MINUTE) out.push({ ts, future: 6000 + id, index: 6000 });
      return out;
    },
  };
}

describe('futures basis service', () => {
  it('settles at 09:30 ET of the last trade date', () => {
    expect(finalSettlementTime('2026-12')).toBe(ESZ6_SETTLEMENT);
    // June 2027: the third Friday is 2027-06-18, Juneteenth observed, so the contract ends Thursday 2027-06-17 (EDT).
    expect(finalSettlementTime('2027-06')).toBe(Date.parse('2027-06-17T13:30:00Z'));
  });

  it('moves the front series to the next contract at the settlement minute', async () => {
    const asked: [number, number, number][] = [];
    const start = ESZ6_SETTLEMENT - 3 * MINUTE;
    const ctx = unitContext('getFuturesBasis', { now: ESZ6_SETTLEMENT + 3_600_000, repositories: { futuresBasis: repository(asked) } });
    const r = await getFuturesBasis(
      ctx,
      withContractDefaults('getFuturesBasis', { root: 'ES', start_time: start, end_time: ESZ6_SETTLEMENT + 2 * MINUTE }),
    );
    // ESZ6's minutes end by 09:30 (its last, 09:29, at 0 days); ESH7 is the front from the 09:30 minute.
    expect(r.data.map((p) => [p.symbol, p.timestamp])).toEqual([
      ['ESZ26', start],
      ['ESZ26', start + MINUTE],
      ['ESZ26', start + 2 * MINUTE],
      ['ESH27', ESZ6_SETTLEMENT],
      ['ESH27', ESZ6_SETTLEMENT + MINUTE],
    ]);
    const last = r.data[2]!;
    expect(last.days_to_expiry).toBe(0);
    expect(last.implied_carry).toBeNull();
    expect(last.fair_value).toBe(6000);
    expect(last.mispricing).toBe(1);
    expect(r.data[3]!.final_settlement_time).toBe(Date.parse('2027-03-19T13:30:00Z'));
    // Each contract was read only over the minutes it is the front.
    expect(asked).toEqual([
      [1, start, ESZ6_SETTLEMENT - MINUTE + 1],
      [2, ESZ6_SETTLEMENT - MINUTE + 1, ESZ6_SETTLEMENT + 2 * MINUTE],
    ]);
  });

  it('answers the next contract at an instant after the settlement, and both with listed before it', async () => {
    const repo = repository([]);
    const after = unitContext('getFuturesBasis', { now: ESZ6_SETTLEMENT + 30 * MINUTE, repositories: { futuresBasis: repo } });
    const front = await getFuturesBasis(after, withContractDefaults('getFuturesBasis', { root: 'ES' }));
    expect(front.data.map((p) => p.symbol)).toEqual(['ESH27']);
    const before = unitContext('getFuturesBasis', { now: ESZ6_SETTLEMENT - 30 * MINUTE, repositories: { futuresBasis: repo } });
    const listed = await getFuturesBasis(before, withContractDefaults('getFuturesBasis', { root: 'ES', contracts: 'listed' }));
    expect(listed.data.map((p) => p.symbol)).toEqual(['ESZ26', 'ESH27']);
  });
});
