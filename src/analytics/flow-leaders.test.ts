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
    const rows = rankRoots(flows, { sort: 'net', order: 'desc', limit: 10 });
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
    expect(rankRoots(flows, { sort: 'premium', order: 'desc', limit: 2 }).map((r) => r.underlying_symbol)).toEqual(['QQQ', 'AAPL']);
    expect(rankRoots(flows, { sort: 'trades', order: 'asc', limit: 3 }).map((r) => r.underlying_symbol)).toEqual(['AAPL', 'SPY', 'QQQ']);
    expect(rankRoots(flows, { sort: 'bearish', order: 'desc', limit: 1 }).map((r) => r.underlying_symbol)).toEqual(['QQQ']);
    expect(rankRoots(flows, { sort: 'volume', order: 'asc', limit: 1 }).map((r) => r.underlying_symbol)).toEqual(['QQQ']);
    expect(rankRoots([], { sort: 'net', order: 'desc', limit: 5 })).toEqual([]);
  });

  it('keeps the rows whose own premium reaches min_premium, with shares still of the whole market', () => {
    const rows = rankRoots(flows, { sort: 'net', order: 'desc', limit: 10, minPremium: 1000 });
    expect(rows.map((r) => r.underlying_symbol)).toEqual(['SPY', 'AAPL', 'QQQ']);
    const big = rankRoots(flows, { sort: 'net', order: 'desc', limit: 10, minPremium: 1000.01 });
    expect(big.map((r) => [r.underlying_symbol, r.premium, r.premium_share, r.trades_share])).toEqual([['QQQ', 3000, 0.6, 0.6]]);
    expect(rankRoots(flows, { sort: 'net', order: 'desc', limit: 10, minPremium: 3000.01 })).toEqual([]);
  });
});

describe('rankContracts', () => {
  const c = (strike: number, last: number, prev: number | null, volume: number, openInterest: number | null = 100): ContractFlow => ({
    root: 'SPY',
    contractType: 'call',
    dateOfExpiry: '2026-12-18',
    strike,
    premium: last * volume * 100,
    volume,
    lastPrice: last,
    impliedVolatility: 0.2,
    openInterest,
    previousClose: prev,
  });

  it('ranks by change from the previous close', () => {
    const rows = rankContracts([c(590, 2, 1, 10), c(600, 1, 2, 50)], { sort: 'change_percent', order: 'desc', limit: 10 });
    expect(rows.map((r) => [r.strike, r.change_percent])).toEqual([
      [590, 100],
      [600, -50],
    ]);
    expect(Object.keys(rows[0]!).sort()).toEqual([
      'change_percent',
      'contract_type',
      'date_of_expiry',
      'implied_volatility',
      'last_price',
      'open_interest',
      'premium',
      'previous_close',
      'strike',
      'underlying_symbol',
      'volume',
    ]);
    expect(rankContracts([c(590, 2, 1, 10), c(600, 1, 2, 50)], { sort: 'volume', order: 'desc', limit: 1 }).map((r) => r.strike)).toEqual([
      600,
    ]);
    expect(changePercent(1.5, 1.2)).toBeCloseTo(25, 12);
    expect(changePercent(1.5, null)).toBeNull();
  });

  it('serves a contract without a previous close or open interest with those fields null, ranked after the others in either order', () => {
    const flows = [c(590, 2, 1, 10), c(610, 3, null, 5), c(600, 1, 2, 50, null), c(580, 4, null, 1, null)];
    const desc = rankContracts(flows, { sort: 'change_percent', order: 'desc', limit: 10 });
    expect(desc.map((r) => [r.strike, r.change_percent, r.previous_close, r.open_interest])).toEqual([
      [590, 100, 1, 100],
      [600, -50, 2, null],
      [580, null, null, null],
      [610, null, null, 100],
    ]);
    const asc = rankContracts(flows, { sort: 'change_percent', order: 'asc', limit: 10 });
    expect(asc.map((r) => r.strike)).toEqual([600, 590, 580, 610]);
    // By premium or volume every contract has a key: the missing fields do not move it.
    expect(rankContracts(flows, { sort: 'volume', order: 'desc', limit: 10 }).map((r) => r.strike)).toEqual([600, 590, 610, 580]);
    expect(rankContracts(flows, { sort: 'change_percent', order: 'desc', limit: 3 }).map((r) => r.strike)).toEqual([590, 600, 580]);
  });

  it('keeps the contracts whose own premium reaches min_premium', () => {
    const flows = [c(590, 2, 1, 10), c(600, 1, 2, 50), c(610, 3, null, 5)];
    // Premiums: 590 is 2,000, 600 is 5,000, 610 is 1,500 USD.
    expect(rankContracts(flows, { sort: 'premium', order: 'desc', limit: 10, minPremium: 2000 }).map((r) => [r.strike, r.premium])).toEqual(
      [
        [600, 5000],
        [590, 2000],
      ],
    );
    expect(rankContracts(flows, { sort: 'premium', order: 'asc', limit: 10, minPremium: 0 }).map((r) => r.strike)).toEqual([610, 590, 600]);
    expect(rankContracts(flows, { sort: 'premium', order: 'desc', limit: 10, minPremium: 5000.01 })).toEqual([]);
  });
});
