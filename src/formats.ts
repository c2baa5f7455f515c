/**
 * The contract's own string and number formats (`format: date`, `format: strike`), checked the
 * same way by the request validator and by the query validator of exports.
 */

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** A strike in dollars with at most three decimals (float noise tolerated). */
export function hasAtMostThreeDecimals(value: number): boolean {
  return Math.abs(value * 1000 - Math.round(value * 1000)) < 1e-6;
}
