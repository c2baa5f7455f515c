/**
 * The key levels object's `levels` and `ranked` from valued contracts (contracts.ts): one function
 * that measures the exposures and hands them to the level rules (strike-levels.ts, gamma-flip.ts,
 * expiration-levels.ts), whose comments define each member.
 *
 * What each member is measured on:
 * - walls, majors, largest_absolute_strike, peak_net_exposure, gatekeepers, largest_cell, ranked
 *   and regime: the requested greek, in the requested unit and perspective. largest_cell is the
 *   (expiration, strike) cell of largest |net| (exposure.ts sumByCell; ties: the earlier
 *   expiration, then the lower strike).
 * - regime: net = Σ of every contract's exposure, absolute = Σ of their absolute values (so a
 *   strike's calls and puts do not offset), ratio = net/absolute; label positive at ratio ≥ 0.05,
 *   negative at ≤ −0.05, else neutral (and when ratio is null); underlying_vs_gamma_flip is above
 *   when S ≥ gamma_flip, below when S < gamma_flip, none without a flip.
 * - gamma_flip, its candidates, gamma_flip_excluding_0dte (contracts expiring on the trading date
 *   left out), gamma_flip_far_from_underlying, gamma_tilt and next_expiration_share: gamma, whatever
 *   the greek (they are ratios or prices, the same in every unit and perspective).
 * - vanna_levels (max: strike of the largest positive net vanna, min: of the most negative),
 *   charm_max_absolute_strike and delta_key_strike (largest |net| charm or delta): only when
 *   `include` names the greek, else null.
 * - max_pain and expected_move: the nearest expiration (expiration-levels.ts), its contracts not
 *   yet settled.
 */
import type { components } from '../../../generated/openapi.js';
import type { ValuedContract } from './contracts.js';
import { expectedMove, expirationShare, maxPain, nearestExpiration, type ExpectedMoveInput } from './expiration-levels.js';
import { exposureValues, sumByCell, sumByStrike, type ExposureMeasure, type StrikeExposure } from './exposure.js';
import { DEFAULT_GAMMA_SWEEP, gammaFlipWithout, type GammaSweep } from './gamma-flip.js';
import { perspectiveSign, type Perspective } from './positions.js';
import { gammaTilt, gatekeepers, peakNetExposure, rankedLevels, wallLevels, type RankedLevels } from './strike-levels.js';
import type { ExposureGreek, ExposureUnit } from './units.js';

export type Levels = components['schemas']['KeyLevels']['levels'];
export type Regime = Levels['regime'];
export type IncludedLevel = 'vanna' | 'charm' | 'delta';

export const DEFAULT_GATEKEEPER_RATIO = 0.4;
/** |ratio| at or above which the regime is labelled positive or negative. */
export const REGIME_THRESHOLD = 0.05;

export interface KeyLevelsInput {
  /** The selected contracts, valued (contracts.ts valueContracts) under the requested model. */
  contracts: readonly ValuedContract[];
  /** Underlying price and rate of the valuation. */
  spot: number;
  rate: number;
  /** YYYY-MM-DD: contracts expiring on it are the 0DTE ones. */
  tradingDate: string;
  greek: ExposureGreek;
  unit: ExposureUnit;
  perspective: Perspective;
  include: readonly IncludedLevel[];
  gatekeeperRatio: number;
  /**
   * Years to settlement, at-the-money volatility and straddle of the expiration
   * nearestExpiration(contracts) names (the time of the smile the volatility was read from); null
   * when the route has none (expected_move is then null).
   */
  nearestMarket: Omit<ExpectedMoveInput, 'dateOfExpiry'> | null;
  sweep?: GammaSweep;
}

export interface KeyLevelsResult {
  levels: Levels;
  ranked: RankedLevels;
}

/** The regime of a set of contract exposures (module comment). */
export function regimeOf(values: readonly { value: number }[], spot: number, flip: number | null): Regime {
  let net = 0;
  let absolute = 0;
  for (const v of values) {
    net += v.value;
    absolute += Math.abs(v.value);
  }
  const ratio = absolute > 0 ? net / absolute : null;
  const label = ratio === null ? 'neutral' : ratio >= REGIME_THRESHOLD ? 'positive' : ratio <= -REGIME_THRESHOLD ? 'negative' : 'neutral';
  const position = flip === null ? 'none' : spot >= flip ? 'above' : 'below';
  return {
    absolute: values.length > 0 ? absolute : null,
    label,
    net: values.length > 0 ? net : null,
    ratio,
    underlying_vs_gamma_flip: position,
  };
}

/** The strike of the largest |net| (ties: nearest S, then lower); null when every net is 0. */
function largestAbsoluteNet(rows: readonly StrikeExposure[], spot: number): number | null {
  return peakNetExposure(rows, spot)?.strike ?? null;
}

/** Strikes of the largest positive and most negative net vanna. */
function vannaLevels(rows: readonly StrikeExposure[], spot: number): Levels['vanna_levels'] {
  const { major_positive: max, major_negative: min } = wallLevels(rows, spot);
  return { max, min };
}

/** Key levels and ranked strikes (module comment). */
export function keyLevels(input: KeyLevelsInput): KeyLevelsResult {
  const { contracts, spot, rate } = input;
  const sign = perspectiveSign(input.perspective);
  // Levels pick strikes on the dealer's figures; values are served with the perspective's sign.
  const dealer = (greek: ExposureGreek): ExposureMeasure => ({ greek, unit: input.unit, perspective: 'dealer', spot });
  const values = exposureValues(contracts, dealer(input.greek));
  const rows = sumByStrike(values);
  const gammaValues = input.greek === 'gamma' ? values : exposureValues(contracts, dealer('gamma'));
  const included = (greek: IncludedLevel): StrikeExposure[] | null =>
    input.include.includes(greek) ? sumByStrike(exposureValues(contracts, dealer(greek))) : null;

  const { all: flip, without: flipExcluding0dte } = gammaFlipWithout(
    contracts,
    (c) => c.dateOfExpiry === input.tradingDate,
    spot,
    rate,
    input.sweep ?? DEFAULT_GAMMA_SWEEP,
  );
  const peak = peakNetExposure(rows, spot);
  let largestCell: Levels['largest_cell'] = null;
  for (const cell of sumByCell(values)) {
    if (cell.net !== 0 && (largestCell === null || Math.abs(cell.net) > Math.abs(largestCell.value))) {
      largestCell = { date_of_expiry: cell.dateOfExpiry, strike: cell.strike, value: cell.net };
    }
  }
  const nearest = nearestExpiration(contracts);
  // Contracts of that date already settled (an AM-settled root on the date of a PM-settled one) are out.
  const nearestContracts = contracts.filter((c) => c.dateOfExpiry === nearest && c.time > 0);
  const vanna = included('vanna');
  const charm = included('charm');
  const delta = included('delta');

  const levels: Levels = {
    ...wallLevels(rows, spot),
    charm_max_absolute_strike: charm === null ? null : largestAbsoluteNet(charm, spot),
    delta_key_strike: delta === null ? null : largestAbsoluteNet(delta, spot),
    expected_move:
      nearest === null || input.nearestMarket === null ? null : expectedMove({ ...input.nearestMarket, dateOfExpiry: nearest }, spot),
    gamma_flip: flip.flip,
    gamma_flip_candidates: flip.candidates,
    gamma_flip_excluding_0dte: flipExcluding0dte.flip,
    gamma_flip_far_from_underlying: flip.farFromUnderlying,
    gamma_tilt: gammaTilt(sumByStrike(gammaValues)),
    gatekeepers: gatekeepers(rows, spot, peak, input.gatekeeperRatio),
    largest_cell: largestCell === null ? null : { ...largestCell, value: sign * largestCell.value },
    max_pain: nearest === null ? null : maxPain(nearestContracts, nearest, spot),
    next_expiration_share: expirationShare(gammaValues, nearest),
    peak_net_exposure: peak === null ? null : { strike: peak.strike, value: sign * peak.value },
    regime: regimeOf(
      values.map((v) => ({ value: sign * v.value })),
      spot,
      flip.flip,
    ),
    vanna_levels: vanna === null ? null : vannaLevels(vanna, spot),
  };
  return { levels, ranked: rankedLevels(rows, spot, sign) };
}
