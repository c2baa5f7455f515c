import { describe, expect, it } from 'vitest';
import { changePercent, rankContracts, rankRoots, type ContractFlow, type UnderlyingFlow } from './flow-leaders.js';

const flow = (underlying: string, premium: number, bullish: number, bearish: number, volume: number, trades: number): UnderlyingFlow => ({
  underlying,
  premium,
  volume,
  bullish,
  bearish,
  neutral: premium - bullish - bearish,
  callVolume: Math.round(volume / 2),
  putVolume: volume - Math.round(volume / 2),
  trades,
});

describe('rankRoots', () => {
  const flows = [flow('SPY', 1000, 600, 300, 50, 10), flow('QQQ', 3000, 500, 2000, 20, 30), flow('AAPL', 1000, 0, 900, 30, 10)];

  it('ranks by net premium by default with shares of the market and the bearish-to-bullish ratio', () => {
    const rows = rankRoots(flows, 'net', 'desc', 10);
    expect(rows.map((r) => r.underlying_symbol)).toEqual(['SPY', 'AAPL', 'QQQ']);
    expect(rows[0]).toEqual({
      underlying_symbol: 'SPY',
      premium: 1000,
      volume: 50,
      bearish_premium: 300,
      bullish_premium: 600,
      neutral_premium: 100,
      bearish_to_bullish_ratio: 0.5,
      call_volume: 25,
      put_volume: 25,
      premium_share: 0.2,
      trades: 10,
      trades_share: 0.2,
      volume_share: 0.5,
    });
    expect(rows[1]!.bearish_to_bullish_ratio).toBeNull();
  });

  it('sorts by any key in either order, ties by symbol, and cuts at the limit', () => {
    expect(rankRoots(flows, 'premium', 'desc', 2).map((r) => r.underlying_symbol)).toEqual(['QQQ', 'AAPL']);
    expect(rankRoots(flows, 'trades', 'asc', 3).map((r) => r.underlying_symbol)).toEqual(['AAPL', 'SPY', 'QQQ']);
    expect(rankRoots(flows, 'bearish', 'desc', 1).map((r) => r.underlying_symbol)).toEqual(['QQQ']);
    expect(rankRoots(flows, 'volume', 'asc', 1).map((r) => r.underlying_symbol)).toEqual(['QQQ']);
    expect(rankRoots([], 'net', 'desc', 5)).toEqual([]);
  });
});

describe('rankContracts', () => {
  const c = (strike: number, last: number, prev: number, volume: number): ContractFlow => ({
    root: 'SPY',
    contractType: 'call',
    dateOfExpiry: '2026-12-18',
    strike,
    premium: last * volume * 100,
    volume,
    lastPrice: last,
    impliedVolatility: 0.2,
    openInterest: 100,
    previousClose: prev,
  });

  it('ranks by change from the previous close and leaves out contracts without one', () => {
    const rows = rankContracts([c(590, 2, 1, 10), c(600, 1, 2, 50), c(610, 3, 0, 5)], 'change_percent', 'desc', 10);
    expect(rows.map((r) => [r.strike, r.change_percent])).toEqual([
      [590, 100],
      [600, -50],
    ]);
    expect(Object.keys(rows[0]!).sort()).toEqual(['change_percent', 'contract_type', 'date_of_expiry', 'implied_volatility', 'last_price', 'open_interest', 'premium', 'previous_close', 'strike', 'underlying_symbol', 'volume']);
    expect(rankContracts([c(590, 2, 1, 10), c(600, 1, 2, 50)], 'volume', 'desc', 1).map((r) => r.strike)).toEqual([600]);
    expect(changePercent(1.5, 1.2)).toBeCloseTo(25, 12);
  });
});
