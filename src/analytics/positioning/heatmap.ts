/**
 * The exposure heat map: one value per (expiration, strike) cell of the listed contracts, for a
 * metric and a leg, and the window of expirations and strikes shown.
 *
 * Per contract, a metric is:
 * - gamma, delta, vanna, charm: its exposure (exposure.ts contractExposure) in the unit, model and
 *   perspective requested;
 * - open_interest: its open interest (contracts); volume: contracts traded on the trading date;
 *   premium: Σ price × size × multiplier of those prints (USD); net_premium: the customers' premium
 *   bought on the ask side minus sold on the bid side (USD, as the premium drift route counts it);
 *   trades: its prints. These are observed, not modeled: model and perspective leave them alone.
 *
 * A cell's call or put leg sums the contracts of that type; its net leg is calls minus puts for
 * open_interest, volume, premium and trades (the spec), and calls plus puts for the greeks (each
 * exposure already carries the dealer's long or short sign) and net_premium (customer buying minus
 * selling across both types). A leg's cells are the pairs with a listed contract of that leg
 * (net: of either type), so a value of 0 is a listed contract with nothing to show.
 *
 * The window: the selected expirations ascending, `count` of them from `offset`; strikes either
 * strikes_around listed strikes either side of the listed strike nearest S (the lower on a tie),
 * or those within [min_strike, max_strike]. largest_cell is the cell of largest |value| (null when
 * every value is 0), maximum and minimum the extreme values (null without a cell).
 */
import type { components, operations } from '../../../generated/openapi.js';
import type { ValuedContract } from './contracts.js';
import { contractExposure, sumByCell, type CellExposure, type ExposureMeasure } from './exposure.js';
import { unitLabel } from './units.js';

type Query = NonNullable<operations['getExposureHeatmap']['parameters']['query']>;
type Heatmap = components['schemas']['Heatmap'];
export type HeatmapMetric = NonNullable<Query['metric']>;
export type HeatmapLeg = NonNullable<Query['leg']>;
export type HeatmapCell = Heatmap['cells'][number];

/** What a contract traded on the trading date (the route sums its prints). */
export interface ContractActivity {
  volume: number;
  /** USD. */
  premium: number;
  /** USD, customer ask-side minus bid-side premium. */
  netPremium: number;
  trades: number;
}

export interface HeatmapContract extends ValuedContract {
  activity: ContractActivity;
}

/** The metric's value of one contract (module comment). */
export function metricValue(c: HeatmapContract, metric: HeatmapMetric, measure: Omit<ExposureMeasure, 'greek'>): number {
  switch (metric) {
    case 'gamma':
    case 'delta':
    case 'vanna':
    case 'charm':
      return contractExposure(c, { ...measure, greek: metric });
    case 'open_interest':
      return c.openInterest;
    case 'volume':
      return c.activity.volume;
    case 'premium':
      return c.activity.premium;
    case 'net_premium':
      return c.activity.netPremium;
    case 'trades':
      return c.activity.trades;
  }
}

/** What one unit of an observed metric is (they have no unit parameter); the greeks' labels are units.ts's. */
const OBSERVED_LABELS: Record<'open_interest' | 'volume' | 'premium' | 'net_premium' | 'trades', string> = {
  open_interest: 'Contracts of open interest (net: calls minus puts)',
  volume: 'Contracts traded in the session (net: calls minus puts)',
  premium: 'USD of premium traded in the session, price x size x multiplier (net: calls minus puts)',
  net_premium: 'USD of customer premium bought on the ask side minus sold on the bid side in the session (net: calls plus puts)',
  trades: 'Prints in the session (net: calls minus puts)',
};

/** The response's unit_label for a metric. */
export function metricLabel(metric: HeatmapMetric, unit: ExposureMeasure['unit'], perspective: ExposureMeasure['perspective']): string {
  switch (metric) {
    case 'gamma':
    case 'delta':
    case 'vanna':
    case 'charm':
      return unitLabel(metric, unit, perspective);
    case 'open_interest':
    case 'volume':
    case 'premium':
    case 'net_premium':
    case 'trades':
      return OBSERVED_LABELS[metric];
  }
}

/** Whether the net leg is calls minus puts (true) or calls plus puts. */
function netIsDifference(metric: HeatmapMetric): boolean {
  return metric === 'open_interest' || metric === 'volume' || metric === 'premium' || metric === 'trades';
}

function legValue(cell: CellExposure, metric: HeatmapMetric, leg: HeatmapLeg): number {
  switch (leg) {
    case 'call':
      return cell.call;
    case 'put':
      return cell.put;
    case 'net':
      return netIsDifference(metric) ? cell.call - cell.put : cell.call + cell.put;
  }
}

/** The cells of a metric and leg, ascending by expiration then strike (module comment). */
export function heatmapCells(
  contracts: readonly HeatmapContract[],
  metric: HeatmapMetric,
  leg: HeatmapLeg,
  measure: Omit<ExposureMeasure, 'greek'>,
): HeatmapCell[] {
  const listed = leg === 'net' ? contracts : contracts.filter((c) => c.type === leg);
  const values = listed.map((c) => ({
    dateOfExpiry: c.dateOfExpiry,
    daysToExpiry: c.daysToExpiry,
    strike: c.strike,
    type: c.type,
    value: metricValue(c, metric, measure),
  }));
  return sumByCell(values).map((cell) => ({
    date_of_expiry: cell.dateOfExpiry,
    days_to_expiry: cell.daysToExpiry,
    strike: cell.strike,
    value: legValue(cell, metric, leg),
  }));
}

export type HeatmapSummary = Pick<Heatmap, 'largest_cell' | 'maximum' | 'minimum' | 'strike_range'>;

/** Largest cell, extremes and strike range of the cells shown. */
export function heatmapSummary(cells: readonly HeatmapCell[]): HeatmapSummary {
  let largest: HeatmapCell | null = null;
  let maximum: number | null = null;
  let minimum: number | null = null;
  const strikes = new Set<number>();
  for (const c of cells) {
    strikes.add(c.strike);
    maximum = maximum === null ? c.value : Math.max(maximum, c.value);
    minimum = minimum === null ? c.value : Math.min(minimum, c.value);
    if (c.value !== 0 && (largest === null || Math.abs(c.value) > Math.abs(largest.value))) largest = c;
  }
  const sorted = [...strikes].sort((a, b) => a - b);
  return {
    largest_cell: largest === null ? null : { date_of_expiry: largest.date_of_expiry, strike: largest.strike, value: largest.value },
    maximum,
    minimum,
    strike_range: { highest_strike: sorted[sorted.length - 1] ?? null, lowest_strike: sorted[0] ?? null, total_strikes: sorted.length },
  };
}

export interface HeatmapWindowRequest {
  /** Listed strikes either side of the strike nearest S; ignored when a strike bound is given. */
  strikesAround: number | null;
  minStrike: number | null;
  maxStrike: number | null;
  maxExpirations: number;
  expirationOffset: number;
}

export interface HeatmapWindow {
  expirations: string[];
  expiration_window: Heatmap['expiration_window'];
  /** Inclusive strike bounds shown; null bounds when no strike is listed. */
  lowestStrike: number | null;
  highestStrike: number | null;
}

/** The expirations and strike bounds shown, from every selected contract's expiration and strike (module comment). */
export function heatmapWindow(
  contracts: readonly { dateOfExpiry: string; strike: number }[],
  spot: number,
  request: HeatmapWindowRequest,
): HeatmapWindow {
  const allExpirations = [...new Set(contracts.map((c) => c.dateOfExpiry))].sort();
  const expirations = allExpirations.slice(request.expirationOffset, request.expirationOffset + request.maxExpirations);
  const shown = new Set(expirations);
  const strikes = [...new Set(contracts.filter((c) => shown.has(c.dateOfExpiry)).map((c) => c.strike))].sort((a, b) => a - b);
  let lowestStrike: number | null = null;
  let highestStrike: number | null = null;
  if (request.minStrike !== null || request.maxStrike !== null || request.strikesAround === null) {
    const inside = strikes.filter(
      (k) => (request.minStrike === null || k >= request.minStrike) && (request.maxStrike === null || k <= request.maxStrike),
    );
    lowestStrike = inside[0] ?? null;
    highestStrike = inside[inside.length - 1] ?? null;
  } else if (strikes.length > 0) {
    let centre = 0;
    strikes.forEach((k, i) => {
      if (Math.abs(k - spot) < Math.abs((strikes[centre] as number) - spot)) centre = i;
    });
    lowestStrike = strikes[Math.max(0, centre - request.strikesAround)] ?? null;
    highestStrike = strikes[Math.min(strikes.length - 1, centre + request.strikesAround)] ?? null;
  }
  return {
    expirations,
    expiration_window: { count: expirations.length, offset: request.expirationOffset, total_expirations: allExpirations.length },
    lowestStrike,
    highestStrike,
  };
}

export type HeatmapGrid = Pick<Heatmap, 'cells' | 'expiration_window' | 'largest_cell' | 'maximum' | 'minimum' | 'strike_range'>;

/**
 * The grid of the heat map object: the window of the selected contracts (heatmapWindow), the cells
 * of the contracts inside it (heatmapCells) and their summary (heatmapSummary).
 */
export function heatmapGrid(
  contracts: readonly HeatmapContract[],
  metric: HeatmapMetric,
  leg: HeatmapLeg,
  measure: Omit<ExposureMeasure, 'greek'>,
  window: HeatmapWindowRequest,
): HeatmapGrid {
  const { expirations, expiration_window, lowestStrike, highestStrike } = heatmapWindow(contracts, measure.spot, window);
  const shown = new Set(expirations);
  const inside = contracts.filter(
    (c) =>
      shown.has(c.dateOfExpiry) && lowestStrike !== null && highestStrike !== null && c.strike >= lowestStrike && c.strike <= highestStrike,
  );
  const cells = heatmapCells(inside, metric, leg, measure);
  return { cells, expiration_window, ...heatmapSummary(cells) };
}
