/**
 * Databento's CSV field forms, shared by the OPRA (vendors.ts) and GLBX.MDP3 (futures-vendors.ts)
 * adapters: prices as fixed-point integers of 1e-9 or, with `pretty_px`, decimals; times as integer
 * nanoseconds or, with `pretty_ts`, ISO-8601. An undefined value is the type's maximum.
 */
import { isoToMs, nanosToMs } from './canonical.js';

/** Databento price: a decimal (pretty_px) or a fixed-point integer of 1e-9; '' for undefined. */
export function databentoPrice(value: string | undefined): string | null {
  if (value === undefined || value === '') return '';
  if (value.includes('.')) return Number.isFinite(Number(value)) ? value : null;
  if (!/^-?\d+$/.test(value)) return null;
  // INT64_MAX is Databento's UNDEF_PRICE.
  if (value === '9223372036854775807') return '';
  return String(Number(value) / 1e9);
}

/** Databento time: integer nanoseconds or ISO-8601 (pretty_ts), as Unix ms text. */
export function databentoTime(value: string | undefined): string | null {
  if (value === undefined || value === '' || value === UNDEF_TIMESTAMP) return null;
  if (/^\d+$/.test(value)) {
    const ms = nanosToMs(value);
    return ms === null ? null : String(ms);
  }
  const ms = isoToMs(value);
  return Number.isFinite(ms) ? String(ms) : null;
}

/** UINT64_MAX: Databento's undefined timestamp. */
export const UNDEF_TIMESTAMP = '18446744073709551615';
