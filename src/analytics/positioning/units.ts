/**
 * What one unit of a modeled exposure is: for every greek and unit one formula, written once, and
 * the words the response's unit_label says it in. A contract's exposure is
 *   greek × position × multiplier × scale(greek, unit, S),
 * position the modeled dealer contracts (positions.ts), multiplier the shares per contract, S the
 * valuation's underlying price, and the greek as the pricing core defines it (pricing.ts Greeks:
 * delta per 1 of spot, gamma per 1 of spot per 1 of spot, vanna per 1.00 of volatility, charm per
 * year of calendar time passing). greek × position × multiplier is in shares of underlying (delta),
 * or shares of delta per driver unit (gamma: per $1 of underlying; vanna: per 1.00 of volatility;
 * charm: per year):
 *
 * With P the position and M the multiplier, per_percent / per_dollar / raw are:
 * - delta: Δ·P·M·S·0.01 USD per 1% rise of S / Δ·P·M USD per $1 rise / Δ·P·M shares;
 * - gamma: Γ·P·M·S²·0.01 USD of delta per 1% rise / Γ·P·M·S USD of delta per $1 rise /
 *   Γ·P·M shares of delta per $1 rise;
 * - vanna: vanna·P·M·S·0.01 USD of delta per volatility point (0.01) / vanna·P·M·S USD of delta
 *   per 1.00 of volatility / vanna·P·M shares of delta per 1.00 of volatility;
 * - charm: charm·P·M·S/365 USD of delta per calendar day / charm·P·M·S USD of delta per year /
 *   charm·P·M shares of delta per year.
 *
 * Gamma follows Perfiliev and SqueezeMetrics ("Gamma Exposure"): per 1% the hedge a dealer trades
 * when the underlying moves 1%, per $1 the same for a one-dollar move. Delta's per-move units are
 * the change in the position's value for the move (its dollar delta × 1%, or per $1). Vanna and
 * charm are driven by volatility and time, not by the underlying, so their per_percent takes the
 * step traders quote (one volatility point, one calendar day: the usual vanna and charm exposure),
 * and per_dollar states the delta in dollars of underlying per unit of the greek. The dealer's hedge
 * trades the opposite of the change in its option delta: a positive gamma figure is underlying the
 * dealer sells into a rise and buys into a fall.
 */
import type { components, operations } from '../../../generated/openapi.js';
import type { Perspective } from './positions.js';

export type ExposureUnit = components['schemas']['ExposureUnit'];
export type ExposureGreek = NonNullable<NonNullable<operations['getExposureLevels']['parameters']['query']>['greek']>;

export const EXPOSURE_GREEKS: readonly ExposureGreek[] = ['gamma', 'delta', 'vanna', 'charm'];
export const EXPOSURE_UNITS: readonly ExposureUnit[] = ['per_percent', 'per_dollar', 'raw'];

const DAYS_PER_YEAR = 365;

/** The factor greek × position × multiplier is multiplied by (module table). */
export function exposureScale(greek: ExposureGreek, unit: ExposureUnit, spot: number): number {
  switch (unit) {
    case 'raw':
      return 1;
    case 'per_dollar':
      return greek === 'delta' ? 1 : spot;
    case 'per_percent':
      switch (greek) {
        case 'delta':
          return spot * 0.01;
        case 'gamma':
          return spot * spot * 0.01;
        case 'vanna':
          return spot * 0.01;
        case 'charm':
          return spot / DAYS_PER_YEAR;
      }
  }
}

/** What a unit measures and per what step, per greek and unit (module table); `who` is filled in by unitLabel. */
const LABELS: Record<ExposureGreek, Record<ExposureUnit, string>> = {
  delta: {
    per_percent:
      'USD change in the value of the modeled {who} option position per 1% rise of the underlying (delta x position x multiplier x price x 0.01)',
    per_dollar:
      'USD change in the value of the modeled {who} option position per 1 USD rise of the underlying (delta x position x multiplier)',
    raw: 'Shares of underlying the modeled {who} option position is long (delta x position x multiplier)',
  },
  gamma: {
    per_percent: 'USD of modeled {who} delta change per 1% rise of the underlying (gamma x position x multiplier x price^2 x 0.01)',
    per_dollar: 'USD of modeled {who} delta change per 1 USD rise of the underlying (gamma x position x multiplier x price)',
    raw: 'Shares of modeled {who} delta change per 1 USD rise of the underlying (gamma x position x multiplier)',
  },
  vanna: {
    per_percent:
      'USD of modeled {who} delta change per 1 volatility point (0.01) rise of implied volatility (vanna x position x multiplier x price x 0.01)',
    per_dollar:
      'USD of modeled {who} delta change per 1.00 (100 volatility points) rise of implied volatility (vanna x position x multiplier x price)',
    raw: 'Shares of modeled {who} delta change per 1.00 (100 volatility points) rise of implied volatility (vanna x position x multiplier)',
  },
  charm: {
    per_percent: 'USD of modeled {who} delta change per calendar day passing (charm x position x multiplier x price / 365)',
    per_dollar: 'USD of modeled {who} delta change per year passing (charm x position x multiplier x price)',
    raw: 'Shares of modeled {who} delta change per year passing (charm x position x multiplier)',
  },
};

/**
 * The response's unit_label: one unit of the values, in words, with its formula. The customer
 * perspective negates the values (positions.ts), so its label speaks of the customers' position.
 */
export function unitLabel(greek: ExposureGreek, unit: ExposureUnit, perspective: Perspective): string {
  return LABELS[greek][unit].replace('{who}', perspective);
}
