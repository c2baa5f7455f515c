import { describe, expect, it } from 'vitest';
import { loadApiContract } from '../api-contract/openapi.js';
import { addDays } from '../analytics/new-york-time.js';
import { QueryValidator } from './query-validator.js';

const contract = loadApiContract();
const validator = new QueryValidator(contract);

/** Every query parameter of the contract that takes a date (or a list of dates), with the range its description states. */
const dateParameters = contract.operations.flatMap((op) =>
  op.parameters
    .filter(
      (p) => p.in === 'query' && (p.schema.format === 'date' || (p.schema.items as { format?: string } | undefined)?.format === 'date'),
    )
    .map((p) => {
      const stated = /(\d{4}-\d{2}-\d{2}) through (\d{4}-\d{2}-\d{2})/.exec(p.description);
      return { operationId: op.operationId, name: p.name, list: p.schema.type === 'array', first: stated?.[1], last: stated?.[2] };
    }),
);

/** The problems the validator finds with one date parameter set to `date` (other parameters' findings left out). */
function problems(p: (typeof dateParameters)[number], date: string): string[] {
  const check = validator.check(p.operationId, { [p.name]: p.list ? [date] : date });
  return check.ok ? [] : check.details.filter((d) => d.parameter === p.name).map((d) => d.message);
}

describe('date parameters', () => {
  it('each states its range in its description, and the validator holds exactly that range', () => {
    expect(dateParameters.length).toBeGreaterThan(15);
    for (const p of dateParameters) {
      const where = `${p.operationId} ${p.name}`;
      expect(p.first, where).toBeDefined();
      expect(p.last, where).toBeDefined();
      const first = p.first!;
      const last = p.last!;
      expect(problems(p, first), `${where} ${first}`).toEqual([]);
      expect(problems(p, last), `${where} ${last}`).toEqual([]);
      expect(problems(p, addDays(first, -1)), `${where} before ${first}`).not.toEqual([]);
      expect(problems(p, addDays(last, 1)), `${where} after ${last}`).not.toEqual([]);
    }
  });

  it('keeps the exchange calendar span where the calendar is read, lifts it for expirations and for split history', () => {
    const range = (operationId: string, name: string) => {
      const found = dateParameters.find((p) => p.operationId === operationId && p.name === name);
      return found ? [found.first, found.last] : undefined;
    };
    const calendar = ['2000-01-01', '2035-12-31'];
    expect(range('getMarketCalendarDay', 'date')).toEqual(calendar);
    expect(range('listMarketSessions', 'date')).toEqual(calendar);
    expect(range('listOptionOvernightSessions', 'date')).toEqual(calendar);
    expect(range('listOptionTrades', 'date')).toEqual(calendar);
    expect(range('listFlowLeaders', 'date')).toEqual(calendar);
    expect(range('listContractImpliedVolatility', 'date')).toEqual(calendar);
    // A contract traded in the calendar's last years may expire after it; OCC symbols name 2000 to 2099.
    expect(range('listOptionTrades', 'date_of_expiry')).toEqual(['2000-01-01', '2099-12-31']);
    expect(range('getContractTradeAtTime', 'date_of_expiry')).toEqual(['2000-01-01', '2099-12-31']);
    // Split history is older than the calendar.
    expect(range('listStockSplits', 'start_execution_date')).toEqual(['1970-01-01', '2099-12-31']);
    expect(range('listStockSplits', 'end_execution_date')).toEqual(['1970-01-01', '2099-12-31']);
  });

  it('refuses a date that is not a calendar day whatever its range', () => {
    for (const p of dateParameters) {
      for (const date of ['2024-02-30', '2023-02-29', '2024-7-5', '20240705'])
        expect(problems(p, date), `${p.operationId} ${p.name} ${date}`).not.toEqual([]);
    }
  });
});

describe('parameters whose rules an export overrides', () => {
  const cap = { limit: { minimum: 1, maximum: 100_000 } };
  const query = { underlying_symbol: 'SPX', date: '2026-11-20' };

  it('take the route default when not overridden, and none when overridden and not sent', () => {
    const route = validator.check('listOptionTrades', query);
    expect(route.ok && route.query.limit).toBe(100);
    const exported = validator.check('listOptionTrades', query, cap);
    expect(exported.ok).toBe(true);
    expect(exported.ok && 'limit' in exported.query).toBe(false);
  });

  it('keep a sent value, checked against the override instead of the route bound', () => {
    const exported = validator.check('listOptionTrades', { ...query, limit: '50000' }, cap);
    expect(exported.ok && exported.query.limit).toBe(50_000);
    const refused = validator.check('listOptionTrades', { ...query, limit: '100001' }, cap);
    expect(refused.ok ? [] : refused.details.map((d) => d.parameter)).toEqual(['limit']);
  });
});
