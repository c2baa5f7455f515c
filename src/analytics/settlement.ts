/**
 * When an option's payoff is fixed, and so how much time a pricing model should count.
 *
 * Sources: Cboe product specifications for SPX (AM-settled standard options: the exercise settlement
 * value SET is computed from the opening prices of the index components on the expiration date;
 * SPXW Weeklys/EOM are PM-settled to the closing value), NDX/NDXP, RUT/RUTW, and VIX options (settled
 * to VRO, a Special Opening Quotation of VIX computed from SPX option opening prices on expiration
 * Wednesday); equity and ETF options expire at the close of trading on the expiration date (OCC).
 */

import { CALENDAR_FIRST_DATE, CALENDAR_LAST_DATE, calendarDay } from './calendar.js';
import { addDays, dayOfWeek, newYorkTimeToMs } from './new-york-time.js';

export type SettlementStyle = 'am' | 'pm';

/** Milliseconds in a 365-day year: time to expiry is measured on an ACT/365 calendar clock. */
export const MS_PER_YEAR: number = 365 * 86_400_000;

/**
 * Roots settled on a Special Opening Quotation. VIXW is included although Weeklys elsewhere are
 * PM-settled: every VIX option expiration, weekly or monthly, settles to the VRO opening quotation,
 * there being no closing-value settlement for VIX.
 */
const AM_SETTLED_ROOTS: ReadonlySet<string> = new Set(['SPX', 'NDX', 'RUT', 'VIX', 'VIXW']);

/**
 * AM settlement (Special Opening Quotation) applies to the SPX, NDX, RUT and VIX standard roots (and to
 * VIXW, see above); PM settlement to the index Weeklys/PM roots (SPXW, NDXP, RUTW, XSP, ...) and to
 * equity and ETF options. The root is compared case-insensitively, ignoring surrounding blanks (OCC
 * pads roots with spaces).
 */
export function settlementStyle(root: string): SettlementStyle {
  return AM_SETTLED_ROOTS.has(root.trim().toUpperCase()) ? 'am' : 'pm';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function checkDate(date: string): void {
  const m = DATE.exec(date);
  const valid = m !== null && new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;
  if (!valid) throw new RangeError(`invalid date ${JSON.stringify(date)}, expected YYYY-MM-DD`);
}

/**
 * Unix ms of the instant the contract's settlement value is struck, in New York time, from the
 * exchange calendar's session of the expiry date (calendar.ts calendarDay):
 * - AM: the regular open of the expiry date (09:30 ET), the opening from which the Special Opening
 *   Quotation is computed (the quotation itself is published once all components have opened,
 *   usually minutes later; trading in these series ends at the previous day's close).
 * - PM: the regular close of the expiry date: 16:00 ET, 13:00 ET on an early-close day (the day
 *   after Thanksgiving, Christmas Eve, ...). PM-settled index options settle to the index's closing
 *   value, struck at the equity close, and expiring series stop trading then, whatever later close
 *   (16:15 ET, 13:15 ET on an early-close day) their non-expiring series keep; an ETF or equity
 *   option's exercise is fixed by the closing price of its underlying, at the same close.
 * Dates on a Saturday are the pre-February-2015 OCC convention for standard monthly expirations
 * (the Saturday after the third Friday); they settle on the Friday before. A date the calendar does
 * not hold, or holds as closed (no series is listed to expire on one), settles at the nominal
 * 09:30 or 16:00 ET.
 */
export function settlementInstant(root: string, dateOfExpiry: string): number {
  checkDate(dateOfExpiry);
  const date = dayOfWeek(dateOfExpiry) === 6 ? addDays(dateOfExpiry, -1) : dateOfExpiry;
  const am = settlementStyle(root) === 'am';
  const session = date >= CALENDAR_FIRST_DATE && date <= CALENDAR_LAST_DATE ? calendarDay(date) : null;
  const scheduled = am ? session?.open_timestamp : session?.close_timestamp;
  return scheduled ?? newYorkTimeToMs(date, am ? '09:30' : '16:00');
}

/** Years (ACT/365) from `atMs` to the settlement instant; zero or negative once settlement has passed. */
export function yearsToSettlement(atMs: number, root: string, dateOfExpiry: string): number {
  return (settlementInstant(root, dateOfExpiry) - atMs) / MS_PER_YEAR;
}
