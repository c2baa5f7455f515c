/**
 * Which listed expirations a volatility index of a tenor uses (the route /v1/indices/volatility
 * states the rule): the white paper's VIX and VIX9D use the SPX standard (AM-settled, third Friday)
 * and weekly (PM-settled, Friday) expirations; the VIX1D uses every PM-settled SPXW expiration,
 * dailies included.
 *
 * - 30d and 9d: for each calendar week (Monday to Sunday), the last listed expiration date in it (the
 *   Friday, or the Thursday when the Friday is a holiday); on that date the AM-settled root when one
 *   is listed (the standard monthly), else the PM root (the later-settling, then the first by name).
 * - 1d: every listed date; on a date with two roots the later-settling (PM) one.
 */
import { addDays, dayOfWeek } from '../new-york-time.js';
import { settlementInstant, settlementStyle } from '../settlement.js';
import { expirationsByDate, type ChosenExpiration, type ListedExpiration } from './valuation.js';

export type IndexTenorName = '1d' | '9d' | '30d';

/** The Monday of a date's week (Monday to Sunday). */
function weekOf(date: string): string {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

/** The expirations an index of the tenor counts, by date ascending (module comment), with their settlement instants. */
export function indexExpirations(listed: readonly ListedExpiration[], tenor: IndexTenorName): ChosenExpiration[] {
  if (tenor === '1d') return expirationsByDate(listed);
  const lastOfWeek = new Map<string, string>();
  for (const e of listed) {
    const week = weekOf(e.dateOfExpiry);
    const held = lastOfWeek.get(week);
    if (held === undefined || e.dateOfExpiry > held) lastOfWeek.set(week, e.dateOfExpiry);
  }
  const dates = new Set(lastOfWeek.values());
  const onDates = listed.filter((e) => dates.has(e.dateOfExpiry));
  return expirationsByDate(onDates).map((chosen) => {
    const standard = onDates
      .filter((e) => e.dateOfExpiry === chosen.dateOfExpiry && settlementStyle(e.root) === 'am')
      .sort((a, b) => (a.root < b.root ? -1 : 1))[0];
    return standard === undefined ? chosen : { ...standard, settlement: settlementInstant(standard.root, standard.dateOfExpiry) };
  });
}
