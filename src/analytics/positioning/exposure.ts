/**
 * Exposure of valued contracts (contracts.ts) in a greek and unit (units.ts), and its sums by strike
 * and by strike-expiration cell. A contract's exposure is
 *   sign × greek × position × multiplier × scale(greek, unit, S),
 * sign +1 for the dealer perspective and −1 for the customer (positions.ts). Contracts that are not
 * valued add 0. The call leg of a strike sums its calls, the put leg its puts, net is call + put
 * (every exposure already carries the dealer's long or short sign), across all expirations for a
 * strike and within one expiration for a cell.
 */
import type { OptionType } from '../pricing.js';
import type { ValuedContract } from './contracts.js';
import { perspectiveSign, type Perspective } from './positions.js';
import { exposureScale, type ExposureGreek, type ExposureUnit } from './units.js';

/** What an exposure is measured in. */
export interface ExposureMeasure {
  greek: ExposureGreek;
  unit: ExposureUnit;
  perspective: Perspective;
  /** The valuation's underlying price (the units' S). */
  spot: number;
}

/** The contract's exposure in the measure (module formula); 0 when it is not valued. */
export function contractExposure(c: ValuedContract, m: ExposureMeasure): number {
  if (c.greeks === null) return 0;
  return perspectiveSign(m.perspective) * c.greeks[m.greek] * c.position * c.multiplier * exposureScale(m.greek, m.unit, m.spot);
}

/** Call, put and net (call + put) of one strike or cell. */
export interface LegValues {
  call: number;
  put: number;
  net: number;
}

export interface StrikeExposure extends LegValues {
  strike: number;
}

export interface CellExposure extends LegValues {
  dateOfExpiry: string;
  daysToExpiry: number;
  strike: number;
}

/** A contract and a value of it, summed by the helpers below. */
export interface ContractValue {
  dateOfExpiry: string;
  daysToExpiry: number;
  strike: number;
  type: OptionType;
  value: number;
}

function addLeg(target: LegValues, type: OptionType, value: number): void {
  if (type === 'call') target.call += value;
  else target.put += value;
  target.net = target.call + target.put;
}

/** Sums by strike, ascending; every strike with a contract has an entry. */
export function sumByStrike(values: readonly ContractValue[]): StrikeExposure[] {
  const byStrike = new Map<number, StrikeExposure>();
  for (const v of values) {
    let row = byStrike.get(v.strike);
    if (row === undefined) {
      row = { strike: v.strike, call: 0, put: 0, net: 0 };
      byStrike.set(v.strike, row);
    }
    addLeg(row, v.type, v.value);
  }
  return [...byStrike.values()].sort((a, b) => a.strike - b.strike);
}

/** Sums by (expiration, strike), ascending by expiration then strike; every pair with a contract has an entry. */
export function sumByCell(values: readonly ContractValue[]): CellExposure[] {
  const byCell = new Map<string, CellExposure>();
  for (const v of values) {
    const key = `${v.dateOfExpiry}|${v.strike}`;
    let cell = byCell.get(key);
    if (cell === undefined) {
      cell = { dateOfExpiry: v.dateOfExpiry, daysToExpiry: v.daysToExpiry, strike: v.strike, call: 0, put: 0, net: 0 };
      byCell.set(key, cell);
    }
    addLeg(cell, v.type, v.value);
  }
  return [...byCell.values()].sort((a, b) =>
    a.dateOfExpiry < b.dateOfExpiry ? -1 : a.dateOfExpiry > b.dateOfExpiry ? 1 : a.strike - b.strike,
  );
}

/** Each contract's exposure in the measure, for the sums above. */
export function exposureValues(contracts: readonly ValuedContract[], m: ExposureMeasure): ContractValue[] {
  return contracts.map((c) => ({
    dateOfExpiry: c.dateOfExpiry,
    daysToExpiry: c.daysToExpiry,
    strike: c.strike,
    type: c.type,
    value: contractExposure(c, m),
  }));
}
