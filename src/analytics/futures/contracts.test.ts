import { describe, expect, it } from 'vitest';
import { contractBySymbol, contractsAt, lastTradeDate, parseFuturesSymbol } from './contracts.js';
import { FUTURES_PRODUCTS, futuresProduct } from './products.js';

describe('the products', () => {
  it("carry CME's contract units and ticks (E-mini S&P 500 $50 and 0.25 = $12.50, Nasdaq-100 $20 and 0.25 = $5, Russell 2000 $50 and 0.10 = $5)", () => {
    const rows = FUTURES_PRODUCTS.map((p) => [
      p.root,
      p.underlying_index,
      p.multiplier,
      p.tick_size,
      p.tick_value,
      p.listing_cycle.listed_contracts,
    ]);
    expect(rows).toEqual([
      ['ES', 'SPX', 50, 0.25, 12.5, 21],
      ['NQ', 'NDX', 20, 0.25, 5, 5],
      ['RTY', 'RUT', 50, 0.1, 5, 5],
      ['MES', 'SPX', 5, 0.25, 1.25, 5],
      ['MNQ', 'NDX', 2, 0.25, 0.5, 5],
      ['M2K', 'RUT', 5, 0.1, 0.5, 5],
    ]);
    expect(futuresProduct('ES')?.listing_cycle.months).toEqual(['H', 'M', 'U', 'Z']);
    expect(futuresProduct('ZN')).toBeUndefined();
  });
});

describe('last trade dates', () => {
  it('are the third Friday, or the trade date before it when that Friday does not trade', () => {
    expect(lastTradeDate(2026, 12)).toBe('2026-12-18');
    expect(lastTradeDate(2025, 3)).toBe('2025-03-21');
    expect(lastTradeDate(2008, 3)).toBe('2008-03-20'); // Good Friday 2008-03-21
    expect(lastTradeDate(2027, 6)).toBe('2027-06-17'); // Juneteenth observed on Friday 2027-06-18
    expect(lastTradeDate(2040, 3)).toBe('2040-03-16'); // beyond the calendar: the third Friday as is
  });
});

describe('one contract', () => {
  it('ESZ26: listed 2021-09-20 after ESU21 expired (21 quarters), expires 2026-12-18 at 09:30 ET, rolls 2026-12-10', () => {
    const c = contractBySymbol('ESZ26', '2026-11-27')!;
    expect(c).toMatchObject({
      symbol: 'ESZ26',
      globex_symbol: 'ESZ6',
      root: 'ES',
      month_code: 'Z',
      contract_month: '2026-12',
      first_trade_date: '2021-09-20',
      last_trade_date: '2026-12-18',
      expiration_date: '2026-12-18',
      final_settlement_date: '2026-12-18',
      roll_date: '2026-12-10',
      status: 'listed',
      active: true,
      rank: 0,
      lead: true,
    });
    expect(new Date(c.last_trade_time).toISOString()).toBe('2026-12-18T14:30:00.000Z');
  });

  it('NQZ26 lists the trade date after NQU25 expired (five quarters)', () => {
    expect(contractBySymbol('NQZ6', '2025-10-01')).toMatchObject({ first_trade_date: '2025-09-22', status: 'listed', rank: 4 });
    expect(contractBySymbol('NQZ26', '2025-09-19')).toMatchObject({ status: 'not_listed', active: false, rank: null });
    expect(contractBySymbol('NQZ26', '2026-12-21')).toMatchObject({ status: 'expired', active: false });
  });

  it("rolls on the Thursday before the third Friday's week even when expiration moves to Thursday", () => {
    expect(contractBySymbol('ESM27', '2027-01-04')).toMatchObject({ last_trade_date: '2027-06-17', roll_date: '2027-06-10' });
  });
});

describe('symbols', () => {
  it('take the two-digit year as is and resolve a one-digit year from four years back to five ahead', () => {
    expect(parseFuturesSymbol('ESZ26', '2026-11-27')).toEqual({ root: 'ES', year: 2026, month: 12 });
    expect(parseFuturesSymbol('ESZ6', '2026-11-27')).toEqual({ root: 'ES', year: 2026, month: 12 });
    expect(parseFuturesSymbol('ESZ6', '2031-01-02')).toEqual({ root: 'ES', year: 2036, month: 12 });
    expect(parseFuturesSymbol('ESH7', '2031-01-02')).toEqual({ root: 'ES', year: 2027, month: 3 });
    expect(parseFuturesSymbol('MESH7', '2026-11-27')).toEqual({ root: 'MES', year: 2027, month: 3 });
    expect(parseFuturesSymbol('M2KU27', '2026-11-27')).toEqual({ root: 'M2K', year: 2027, month: 9 });
    expect(parseFuturesSymbol('ESX6', '2026-11-27')).toBeNull();
    expect(parseFuturesSymbol('ZNZ6', '2026-11-27')).toBeNull();
    expect(parseFuturesSymbol('ESZ', '2026-11-27')).toBeNull();
  });
});

describe('the listing at a date', () => {
  it('lists 21 ES quarters, nearest first; the lead moves at the roll date', () => {
    const listed = contractsAt('ES', '2026-11-27');
    expect(listed.map((c) => c.symbol).slice(0, 3)).toEqual(['ESZ26', 'ESH27', 'ESM27']);
    expect(listed).toHaveLength(21);
    expect(listed.at(-1)).toMatchObject({ symbol: 'ESZ31', first_trade_date: '2026-09-21' }); // after ESU26 expired
    expect(listed.map((c) => c.rank)).toEqual([...Array(21).keys()]);
    expect(
      contractsAt('ES', '2026-12-09')
        .filter((c) => c.lead)
        .map((c) => c.symbol),
    ).toEqual(['ESZ26']);
    expect(
      contractsAt('ES', '2026-12-10')
        .filter((c) => c.lead)
        .map((c) => c.symbol),
    ).toEqual(['ESH27']);
  });

  it('keeps the expiring contract on its last trade date and lists the new quarter the next trade date', () => {
    expect(contractsAt('RTY', '2026-12-18').map((c) => c.symbol)).toEqual(['RTYZ26', 'RTYH27', 'RTYM27', 'RTYU27', 'RTYZ27']);
    expect(contractsAt('RTY', '2026-12-19').map((c) => c.symbol)).toEqual(['RTYH27', 'RTYM27', 'RTYU27', 'RTYZ27']);
    const monday = contractsAt('RTY', '2026-12-21');
    expect(monday.map((c) => c.symbol)).toEqual(['RTYH27', 'RTYM27', 'RTYU27', 'RTYZ27', 'RTYH28']);
    expect(monday.at(-1)?.first_trade_date).toBe('2026-12-21');
  });

  it('adds the most recently expired contracts when asked, oldest first, unranked', () => {
    const withExpired = contractsAt('NQ', '2026-11-27', 2);
    expect(withExpired.map((c) => [c.symbol, c.status, c.rank])).toEqual([
      ['NQM26', 'expired', null],
      ['NQU26', 'expired', null],
      ['NQZ26', 'listed', 0],
      ['NQH27', 'listed', 1],
      ['NQM27', 'listed', 2],
      ['NQU27', 'listed', 3],
      ['NQZ27', 'listed', 4],
    ]);
  });
});
