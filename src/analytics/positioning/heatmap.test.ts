import { describe, expect, it } from 'vitest';
import { valueContracts, type ValuedContract } from './contracts.js';
import { A, B, handChain, RATE, S, TRADING_DATE } from './hand-chain.fixtures.js';
import {
  heatmapCells,
  heatmapGrid,
  heatmapSummary,
  heatmapWindow,
  metricLabel,
  type HeatmapCell,
  type HeatmapContract,
} from './heatmap.js';
import { keyLevels } from './key-levels.js';
import { SIMULATED_MARKET, simulatedChain } from './simulated-chain.fixtures.js';
import { unitLabel } from './units.js';

const measure = { unit: 'per_percent', perspective: 'dealer', spot: S } as const;

/** Activity by hand: volume = strike/5 per call and strike/10 per put; premium 1,000 × volume; net premium 100 (call) or −50 (put); one print per 10 contracts. */
function withActivity(contracts: readonly ValuedContract[]): HeatmapContract[] {
  return contracts.map((c) => {
    const volume = c.type === 'call' ? c.strike / 5 : c.strike / 10;
    return { ...c, activity: { volume, premium: 1000 * volume, netPremium: c.type === 'call' ? 100 : -50, trades: volume / 10 } };
  });
}

const hand = withActivity(valueContracts(handChain(), { spot: S, rate: RATE }, 'classic_oi'));
const cellAt = (cells: readonly HeatmapCell[], date: string, strike: number): number | undefined =>
  cells.find((c) => c.date_of_expiry === date && c.strike === strike)?.value;

function sumByStrike(cells: readonly HeatmapCell[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const c of cells) sums.set(c.strike, (sums.get(c.strike) ?? 0) + c.value);
  return sums;
}

describe('heatmapCells on the hand chain', () => {
  it('gamma net cells are the script’s cells (key-levels.test.ts)', () => {
    const cells = heatmapCells(hand, 'gamma', 'net', measure);
    expect(cells).toHaveLength(9);
    expect(cells.map((c) => [c.date_of_expiry, c.strike, c.days_to_expiry])).toEqual([
      [A, 95, 0],
      [A, 100, 0],
      [A, 105, 0],
      [B, 90, 28],
      [B, 95, 28],
      [B, 100, 28],
      [B, 102.5, 28],
      [B, 105, 28],
      [B, 110, 28],
    ]);
    const want: [string, number, number][] = [
      [A, 100, -475827.525300767],
      [B, 95, -1078757.56589597],
      [B, 102.5, 434423.709703251],
      [B, 105, 1216742.87218501],
    ];
    for (const [date, strike, value] of want)
      expect(Math.abs((cellAt(cells, date, strike) as number) - value)).toBeLessThan(1e-9 * Math.abs(value));
  });

  it('open interest, volume, premium and trades net is calls minus puts; net premium adds the two', () => {
    expect(cellAt(heatmapCells(hand, 'open_interest', 'net', measure), A, 95)).toBe(50 - 700);
    expect(cellAt(heatmapCells(hand, 'open_interest', 'call', measure), B, 105)).toBe(2500);
    expect(cellAt(heatmapCells(hand, 'open_interest', 'put', measure), B, 105)).toBe(400);
    // Strike 100: volume 20 (call) and 10 (put).
    expect(cellAt(heatmapCells(hand, 'volume', 'net', measure), B, 100)).toBe(10);
    expect(cellAt(heatmapCells(hand, 'premium', 'net', measure), B, 100)).toBe(10_000);
    expect(cellAt(heatmapCells(hand, 'trades', 'net', measure), B, 100)).toBe(1);
    expect(cellAt(heatmapCells(hand, 'net_premium', 'net', measure), B, 100)).toBe(50);
    expect(cellAt(heatmapCells(hand, 'net_premium', 'put', measure), B, 100)).toBe(-50);
  });

  it('model and perspective change the greeks, not the observed metrics', () => {
    const customer = { ...measure, perspective: 'customer' } as const;
    expect(heatmapCells(hand, 'open_interest', 'net', customer)).toEqual(heatmapCells(hand, 'open_interest', 'net', measure));
    const gamma = heatmapCells(hand, 'gamma', 'net', measure);
    heatmapCells(hand, 'gamma', 'net', customer).forEach((c, i) => expect(c.value).toBe(-(gamma[i] as HeatmapCell).value));
  });

  it('a leg’s cells are the pairs with a listed contract of that leg', () => {
    const putOnly = hand.filter((c) => !(c.strike === 110 && c.type === 'call'));
    expect(heatmapCells(putOnly, 'gamma', 'call', measure).some((c) => c.strike === 110)).toBe(false);
    expect(heatmapCells(putOnly, 'gamma', 'put', measure).some((c) => c.strike === 110)).toBe(true);
    expect(heatmapCells(putOnly, 'gamma', 'net', measure).some((c) => c.strike === 110)).toBe(true);
  });
});

describe('heat map gamma by strike equals the levels’ net exposure by strike (property)', () => {
  it('on the hand chain', () => {
    const sums = sumByStrike(heatmapCells(hand, 'gamma', 'net', measure));
    const { ranked } = keyLevels({
      contracts: hand,
      spot: S,
      rate: RATE,
      tradingDate: TRADING_DATE,
      greek: 'gamma',
      unit: 'per_percent',
      perspective: 'dealer',
      include: [],
      gatekeeperRatio: 0.4,
      nearestMarket: null,
    });
    expect(ranked.net).toHaveLength(5);
    for (const r of ranked.net) expect(Math.abs((sums.get(r.strike) as number) - r.value)).toBeLessThanOrEqual(1e-9 * Math.abs(r.value));
  });

  it('on simulated chains, in every unit and perspective', () => {
    for (const seed of [3, 11, 97]) {
      const contracts = withActivity(simulatedChain(seed));
      const spot = SIMULATED_MARKET.spot;
      for (const unit of ['per_percent', 'per_dollar', 'raw'] as const) {
        for (const perspective of ['dealer', 'customer'] as const) {
          const sums = sumByStrike(heatmapCells(contracts, 'gamma', 'net', { unit, perspective, spot }));
          const { levels, ranked } = keyLevels({
            contracts,
            spot,
            rate: SIMULATED_MARKET.rate,
            tradingDate: '2026-11-20',
            greek: 'gamma',
            unit,
            perspective,
            include: [],
            gatekeeperRatio: 0.4,
            nearestMarket: null,
          });
          for (const r of ranked.net)
            expect(Math.abs((sums.get(r.strike) as number) - r.value)).toBeLessThanOrEqual(1e-9 * Math.abs(r.value));
          const peak = levels.peak_net_exposure;
          expect(peak).not.toBeNull();
          expect(Math.abs((sums.get(peak?.strike as number) as number) - (peak?.value as number))).toBeLessThanOrEqual(
            1e-9 * Math.abs(peak?.value as number),
          );
          // The levels' net over all strikes is the regime's net: the cells add up to it too.
          const total = [...sums.values()].reduce((a, b) => a + b, 0);
          expect(Math.abs(total - (levels.regime.net as number))).toBeLessThanOrEqual(1e-9 * (levels.regime.absolute as number));
        }
      }
    }
  });
});

describe('heatmapSummary and heatmapWindow', () => {
  it('largest cell, extremes and strike range by hand', () => {
    const cells: HeatmapCell[] = [
      { date_of_expiry: A, days_to_expiry: 0, strike: 95, value: 3 },
      { date_of_expiry: A, days_to_expiry: 0, strike: 100, value: -7 },
      { date_of_expiry: B, days_to_expiry: 28, strike: 110, value: 5 },
    ];
    expect(heatmapSummary(cells)).toEqual({
      largest_cell: { date_of_expiry: A, strike: 100, value: -7 },
      maximum: 5,
      minimum: -7,
      strike_range: { highest_strike: 110, lowest_strike: 95, total_strikes: 3 },
    });
    expect(heatmapSummary([])).toEqual({
      largest_cell: null,
      maximum: null,
      minimum: null,
      strike_range: { highest_strike: null, lowest_strike: null, total_strikes: 0 },
    });
  });

  it('strikes around the strike nearest S, and the expiration window', () => {
    // Strikes 90, 95, 100, 102.5, 105, 110; nearest S = 100.5 is 100, one either side: 95 to 102.5.
    const around = heatmapWindow(hand, S, { strikesAround: 1, minStrike: null, maxStrike: null, maxExpirations: 12, expirationOffset: 0 });
    expect(around).toEqual({
      expirations: [A, B],
      expiration_window: { count: 2, offset: 0, total_expirations: 2 },
      lowestStrike: 95,
      highestStrike: 102.5,
    });
    // The second expiration alone has the 90 and 110 strikes; bounds 92 to 200 keep 95 to 110.
    const bounded = heatmapWindow(hand, S, { strikesAround: null, minStrike: 92, maxStrike: 200, maxExpirations: 1, expirationOffset: 1 });
    expect(bounded).toEqual({
      expirations: [B],
      expiration_window: { count: 1, offset: 1, total_expirations: 2 },
      lowestStrike: 95,
      highestStrike: 110,
    });
    const beyond = heatmapWindow(hand, S, { strikesAround: 40, minStrike: null, maxStrike: null, maxExpirations: 12, expirationOffset: 5 });
    expect(beyond).toEqual({
      expirations: [],
      expiration_window: { count: 0, offset: 5, total_expirations: 2 },
      lowestStrike: null,
      highestStrike: null,
    });
  });
});

describe('heatmapGrid', () => {
  it('shows the cells inside the window and summarises them', () => {
    // One strike either side of 100 (95 to 102.5), second expiration only: open interest calls minus
    // puts, 95: 300 − 3,000; 100: 1,500 − 1,800; 102.5: 900 − 300.
    const grid = heatmapGrid(hand, 'open_interest', 'net', measure, {
      strikesAround: 1,
      minStrike: null,
      maxStrike: null,
      maxExpirations: 1,
      expirationOffset: 1,
    });
    expect(grid.cells.map((c) => [c.strike, c.value])).toEqual([
      [95, -2700],
      [100, -300],
      [102.5, 600],
    ]);
    expect(grid.expiration_window).toEqual({ count: 1, offset: 1, total_expirations: 2 });
    expect(grid.largest_cell).toEqual({ date_of_expiry: B, strike: 95, value: -2700 });
    expect([grid.minimum, grid.maximum]).toEqual([-2700, 600]);
    expect(grid.strike_range).toEqual({ highest_strike: 102.5, lowest_strike: 95, total_strikes: 3 });
  });
});

describe('metricLabel', () => {
  it('is the unit label for a greek and says what is counted for an observed metric, whatever the unit', () => {
    expect(metricLabel('vanna', 'raw', 'customer')).toBe(unitLabel('vanna', 'raw', 'customer'));
    expect(metricLabel('open_interest', 'per_percent', 'dealer')).toBe(metricLabel('open_interest', 'raw', 'customer'));
    expect(metricLabel('net_premium', 'per_percent', 'dealer')).toMatch(/^USD of customer premium/);
    expect(metricLabel('trades', 'per_percent', 'dealer')).toMatch(/calls minus puts/);
  });
});
