/**
 * OCC option symbology (OCC "Symbology Initiative", 2010): a 21-character key made of the option root
 * left-aligned and space-padded to 6 characters, the expiration date as YYMMDD, C or P, and the
 * strike in thousandths of a dollar as 8 digits (5 integer + 3 decimal).
 * Example: 'SPXW  241220C05900000' is the SPXW 2024-12-20 5900 call.
 * Vendors also use the unpadded form ('SPXW241220C05900000'), Polygon/Massive with an 'O:' prefix.
 */

import type { OptionType } from './pricing.js';

export interface OccContract {
  /** Option root (1-6 upper-case letters or digits), e.g. 'SPXW', 'AAPL', 'AAPL1' after an adjustment. */
  root: string;
  /** YYYY-MM-DD, years 2000-2099. */
  dateOfExpiry: string;
  type: OptionType;
  /** Strike in dollars, at most 3 decimals. */
  strike: number;
}

const MAX_THOUSANDTHS = 99_999_999;
/** Strikes are typed in as decimals; allow float noise from arithmetic such as 0.1 + 0.2. */
const STRIKE_NOISE = 1e-6;

/**
 * Strike in dollars → exact integer thousandths (4.5 → 4500, 0.001 → 1). Throws RangeError when the
 * strike has more than 3 decimals (beyond 1e-6 of float noise), is not positive or exceeds 99999.999.
 */
export function strikeToThousandths(strike: number): number {
  if (!Number.isFinite(strike)) throw new RangeError(`strike must be a finite number, got ${strike}`);
  const thousandths = Math.round(strike * 1000);
  if (Math.abs(strike - thousandths / 1000) > STRIKE_NOISE) {
    throw new RangeError(`strike ${strike} has more than 3 decimals`);
  }
  if (thousandths < 1 || thousandths > MAX_THOUSANDTHS) {
    throw new RangeError(`strike ${strike} is outside 0.001..99999.999`);
  }
  return thousandths;
}

/** Integer thousandths → strike in dollars, the double nearest the exact decimal (4500 → 4.5). */
export function thousandthsToStrike(t: number): number {
  if (!Number.isSafeInteger(t) || t < 1 || t > MAX_THOUSANDTHS) {
    throw new RangeError(`strike thousandths must be an integer in 1..${MAX_THOUSANDTHS}, got ${t}`);
  }
  // Integer division by 1000 is correctly rounded, so 1234500 / 1000 is exactly the double 1234.5.
  return t / 1000;
}

const ROOT = /^[A-Z0-9]{1,6}$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** 'SPXW  241220C05900000': root padded to 6, YYMMDD, C/P, strike·1000 as 8 digits. Throws RangeError on invalid fields. */
export function formatOccSymbol(c: OccContract): string {
  if (!ROOT.test(c.root)) throw new RangeError(`invalid OCC root ${JSON.stringify(c.root)}`);
  const m = ISO_DATE.exec(c.dateOfExpiry);
  const year = Number(m?.[1]);
  const month = Number(m?.[2]);
  const day = Number(m?.[3]);
  if (m === null || year < 2000 || year > 2099 || !isCalendarDate(year, month, day)) {
    throw new RangeError(`invalid expiry ${JSON.stringify(c.dateOfExpiry)}: expected YYYY-MM-DD in 2000-2099`);
  }
  if (c.type !== 'call' && c.type !== 'put') throw new RangeError(`invalid option type ${JSON.stringify(c.type)}`);
  const strike = String(strikeToThousandths(c.strike)).padStart(8, '0');
  return `${c.root.padEnd(6, ' ')}${String(year - 2000).padStart(2, '0')}${m[2]}${m[3]}${c.type === 'call' ? 'C' : 'P'}${strike}`;
}

// Root, then either spaces padding it to 6 characters or nothing, then the 15-character tail.
const SYMBOL = /^([A-Z0-9]{1,6})( *)(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;

/**
 * Parses the padded OCC form, the unpadded form and either with an 'O:' prefix. The padding, when
 * present, must bring the root to exactly 6 characters. Throws RangeError on anything else, including
 * impossible dates and a zero strike.
 */
export function parseOccSymbol(s: string): OccContract {
  const body = s.startsWith('O:') ? s.slice(2) : s;
  const m = SYMBOL.exec(body);
  if (m === null) throw new RangeError(`malformed OCC symbol ${JSON.stringify(s)}`);
  const [, root = '', padding = '', yy = '', mm = '', dd = '', cp, digits = ''] = m;
  if (padding.length > 0 && root.length + padding.length !== 6) {
    throw new RangeError(`malformed OCC symbol ${JSON.stringify(s)}: root must be padded to 6 characters`);
  }
  const year = 2000 + Number(yy);
  if (!isCalendarDate(year, Number(mm), Number(dd))) throw new RangeError(`invalid expiry date in OCC symbol ${JSON.stringify(s)}`);
  const thousandths = Number(digits);
  if (thousandths === 0) throw new RangeError(`zero strike in OCC symbol ${JSON.stringify(s)}`);
  return {
    root,
    dateOfExpiry: `${year}-${mm}-${dd}`,
    type: cp === 'C' ? 'call' : 'put',
    strike: thousandthsToStrike(thousandths),
  };
}
