import { describe, expect, it } from 'vitest';
import type { QuoteInForce } from '../analytics/print-side.js';
import { bsmPrice } from '../analytics/pricing.js';
import { MS_PER_YEAR } from '../analytics/settlement.js';
import { DateContext, dateNeeds, sampleAt } from './date-context.js';
import { sortPrints } from './print-order.js';
import { OPEN, printTable, storeContracts } from './prints.fixtures.js';

const MINUTE = 60_000;

describe('sampleAt', () => {
  const series = { ts: [OPEN, OPEN + MINUTE, OPEN + 2 * MINUTE], bid: [1, null, 3], ask: [1.1, 2.1, null] };

  it('gives the latest sample at or before the time, written into the quote given', () => {
    const out: QuoteInForce = { bid: null, ask: null, timestamp: 0 };
    expect(sampleAt(series, OPEN + MINUTE, out)).toBe(out);
    expect(out).toEqual({ bid: null, ask: 2.1, timestamp: OPEN + MINUTE });
    expect(sampleAt(series, OPEN + MINUTE - 1, out)).toEqual({ bid: 1, ask: 1.1, timestamp: OPEN });
    expect(sampleAt(series, OPEN + 9 * MINUTE, out)).toEqual({ bid: 3, ask: null, timestamp: OPEN + 2 * MINUTE });
  });

  it('gives null before the first sample, or for a contract without samples', () => {
    const out: QuoteInForce = { bid: 7, ask: 8, timestamp: 9 };
    expect(sampleAt(series, OPEN - 1, out)).toBeNull();
    expect(sampleAt(undefined, OPEN, out)).toBeNull();
    expect(out).toEqual({ bid: 7, ask: 8, timestamp: 9 });
  });
});

describe('DateContext', () => {
  const context = DateContext.fromRows(
    [
      { tradingDate: '2026-11-20', contractId: 7, minute: OPEN, bid: 5, ask: 5.2, bidSize: 1, askSize: 1, quoteTs: OPEN + 10 },
      {
        tradingDate: '2026-11-20',
        contractId: 7,
        minute: OPEN + MINUTE,
        bid: 5.1,
        ask: 5.3,
        bidSize: 1,
        askSize: 1,
        quoteTs: OPEN + MINUTE + 10,
      },
      { tradingDate: '2026-11-20', contractId: 8, minute: OPEN, bid: 1, ask: 1.5, bidSize: 1, askSize: 1, quoteTs: OPEN + 20 },
    ],
    [
      { symbol: 'SPX', ts: OPEN, open: 6590, high: 6591, low: 6589, close: 6590.5, volume: null },
      { symbol: 'SPX', ts: OPEN + 2 * MINUTE, open: 6591, high: 6592, low: 6590, close: 6591.5, volume: null },
    ],
    new Map([[7, 1200]]),
    0.0391,
    OPEN + 6.5 * 60 * MINUTE,
  );

  it("gives each contract's quote in force from its own samples", () => {
    const out: QuoteInForce = { bid: null, ask: null, timestamp: 0 };
    expect(context.quoteAt(7, OPEN + MINUTE + 10, out)).toEqual({ bid: 5.1, ask: 5.3, timestamp: OPEN + MINUTE + 10 });
    expect(context.quoteAt(8, OPEN + MINUTE + 10, out)).toEqual({ bid: 1, ask: 1.5, timestamp: OPEN + 20 });
    expect(context.quoteAt(9, OPEN + MINUTE, out)).toBeNull();
  });

  it("gives the underlying's bar of the print's minute, else of the minute before, else null", () => {
    expect(context.barAt('SPX', OPEN + 59_999)).toEqual({ ts: OPEN, close: 6590.5 });
    expect(context.barAt('SPX', OPEN + MINUTE + 5)).toEqual({ ts: OPEN, close: 6590.5 });
    expect(context.barAt('SPX', OPEN + 2 * MINUTE)).toEqual({ ts: OPEN + 2 * MINUTE, close: 6591.5 });
    expect(context.barAt('SPX', OPEN + 4 * MINUTE)).toBeNull();
    expect(context.barAt('NDX', OPEN)).toBeNull();
  });

  it('reads an index outside its calculation hours at its regular close: no price of its own, valued at the bar ended by the close', () => {
    // Friday 2026-11-20: the session closes at 16:00 ET (21:00Z); the overnight from 20:15 ET of
    // Thursday is after Thursday's close (21:00Z on 2026-11-19).
    const close = Date.parse('2026-11-20T21:00:00Z');
    const thursday = Date.parse('2026-11-19T21:00:00Z');
    const market = DateContext.fromRows(
      [],
      [
        { symbol: 'SPX', ts: close - MINUTE, open: 6600, high: 6601, low: 6599, close: 6600.25, volume: null },
        // A bar a feed holds after the close is not the index's price.
        { symbol: 'SPX', ts: close + 5 * MINUTE, open: 6610, high: 6611, low: 6609, close: 6610.5, volume: null },
        { symbol: 'SPY', ts: close + 5 * MINUTE, open: 660, high: 661, low: 659, close: 660.5, volume: null },
      ],
      new Map(),
      0.0391,
      close,
    );
    market.setCloseBar('SPX', close, { ts: close - MINUTE, close: 6600.25 });
    market.setCloseBar('SPX', thursday, { ts: thursday - MINUTE, close: 6580 });
    // Inside the session (16:00:00.000 is its last instant) the index's own bar.
    expect(market.closeInstantAt('SPX', close)).toBeNull();
    expect(market.ownBarAt('SPX', close)).toEqual({ ts: close - MINUTE, close: 6600.25 });
    expect(market.valuationBarAt('SPX', close)).toEqual({ ts: close - MINUTE, close: 6600.25 });
    // After it: no price of its own, valued at the close, whatever the feed's bars.
    for (const ts of [close + 1, close + 5 * MINUTE + 30_000, close + 59 * MINUTE]) {
      expect(market.closeInstantAt('SPX', ts)).toBe(close);
      expect(market.ownBarAt('SPX', ts)).toBeNull();
      expect(market.valuationBarAt('SPX', ts)).toEqual({ ts: close - MINUTE, close: 6600.25 });
    }
    // Overnight before Friday's open: Thursday's close.
    const night = Date.parse('2026-11-20T02:00:00Z');
    expect(market.closeInstantAt('SPX', night)).toBe(thursday);
    expect(market.valuationBarAt('SPX', night)).toEqual({ ts: thursday - MINUTE, close: 6580 });
    // A stock has its own bars at every hour.
    expect(market.closeInstantAt('SPY', close + 5 * MINUTE)).toBeNull();
    expect(market.ownBarAt('SPY', close + 5 * MINUTE)).toEqual({ ts: close + 5 * MINUTE, close: 660.5 });
    expect(market.valuationBarAt('SPY', close + 5 * MINUTE)).toEqual({ ts: close + 5 * MINUTE, close: 660.5 });
  });

  it('gives open interest by contract, null when not loaded, and the rate and cash close as given', () => {
    expect([context.openInterestOf(7), context.openInterestOf(8)]).toEqual([1200, null]);
    expect([context.rate, context.cashCloseMs]).toEqual([0.0391, OPEN + 6.5 * 60 * MINUTE]);
  });
});

describe('DateContext.carryAt', () => {
  const settlementMs = OPEN + 6.5 * 60 * MINUTE;
  const rate = 0.0391;
  // The chain minute OPEN of SPXW 2026-11-20 priced on the carry 0.045 at the bar's 6600, both legs of three strikes.
  const legs = [6575, 6600, 6625].flatMap((strike) => (['call', 'put'] as const).map((type) => ({ strike, type })));
  const value = ({ strike, type }: { strike: number; type: 'call' | 'put' }): number =>
    bsmPrice({ type, spot: 6600, strike, time: (settlementMs - OPEN) / MS_PER_YEAR, rate, dividendYield: 0.045, volatility: 0.15 });
  const chains = legs.map((l) => ({
    root: 'SPXW',
    dateOfExpiry: '2026-11-20',
    call: l.type === 'call',
    strikeThousandths: l.strike * 1000,
    minutes: [OPEN],
    bids: [value(l)],
    asks: [value(l)],
  }));
  const context = DateContext.fromRows(
    [],
    [{ symbol: 'SPX', ts: OPEN, open: 6600, high: 6600, low: 6600, close: 6600, volume: null }],
    new Map(),
    rate,
    settlementMs,
  );
  context.addChains(
    [{ key: 'SPXW 2026-11-20', root: 'SPXW', dateOfExpiry: '2026-11-20', underlying: 'SPX', settlementMs, minutes: [OPEN] }],
    chains,
  );

  it("gives the carry of the parity forward of the expiration's chain minute in force at the print", () => {
    expect(context.carryAt('SPXW 2026-11-20', OPEN + 30_000)).toBeCloseTo(0.045, 6);
    expect(context.carryAt('SPXW 2026-11-20', OPEN + 12 * MINUTE)).toBeCloseTo(0.045, 6);
  });

  it('gives null before its first chain minute and for an expiration without one', () => {
    expect(context.carryAt('SPXW 2026-11-20', OPEN - 1)).toBeNull();
    expect(context.carryAt('SPY 2026-11-20', OPEN + 30_000)).toBeNull();
  });
});

describe('dateNeeds', () => {
  it("names the date's contracts, those without a quote of their own, the underlyings and the span of time", () => {
    const table = printTable([
      { timestamp: OPEN + 5, quote: { bid: 1, ask: 2, timestamp: OPEN } },
      { timestamp: OPEN + 9, symbol: 'SPY   261120P00660000' },
      { timestamp: OPEN + 1, symbol: 'SPX   261120C06600000', date: 1 },
      { timestamp: OPEN + 7, quote: { bid: 1, ask: 2, timestamp: OPEN } },
    ]);
    storeContracts(table, 10);
    const sorted = sortPrints({
      table,
      dateIndex: new Map([
        ['2026-11-20', 0],
        ['2026-11-21', 1],
      ]),
    });
    expect(sorted.days.map((day) => dateNeeds(sorted, day))).toEqual([
      {
        contractIds: [10, 11],
        expirations: [
          { key: 'SPXW 2026-11-20', root: 'SPXW', dateOfExpiry: '2026-11-20', underlying: 'SPX', settlementMs: 0, minutes: [OPEN] },
          { key: 'SPY 2026-11-20', root: 'SPY', dateOfExpiry: '2026-11-20', underlying: 'SPY', settlementMs: 0, minutes: [OPEN] },
        ],
        sampledIds: [11],
        underlyings: ['SPX', 'SPY'],
        minTs: OPEN + 5,
        maxTs: OPEN + 9,
      },
      {
        contractIds: [12],
        expirations: [
          { key: 'SPX 2026-11-20', root: 'SPX', dateOfExpiry: '2026-11-20', underlying: 'SPX', settlementMs: 0, minutes: [OPEN] },
        ],
        sampledIds: [12],
        underlyings: ['SPX'],
        minTs: OPEN + 1,
        maxTs: OPEN + 1,
      },
    ]);
  });
});
