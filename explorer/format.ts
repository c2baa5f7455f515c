/** Numbers and times as a trader reads them: New York time, compact magnitudes, volatility in %. */

export const NEW_YORK = 'America/New_York';

const timeFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: NEW_YORK,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: NEW_YORK,
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZoneName: 'short',
});

const clockFormat = new Intl.DateTimeFormat('en-US', { timeZone: NEW_YORK, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: NEW_YORK, month: 'short', day: 'numeric' });

/**
 * Labels of a time axis's ticks (Unix ms): New York 24-hour time (`09:30`, `14:05`), with the date
 * beneath on the first tick and on each tick of a new day (an overnight session crosses midnight).
 */
export function timeTicks(splits: readonly number[]): string[] {
  return splits.map((ms, i) => {
    const day = dayFormat.format(ms);
    const newDay = i === 0 || dayFormat.format(splits[i - 1]) !== day;
    return newDay ? `${clockFormat.format(ms)}\n${day}` : clockFormat.format(ms);
  });
}

export function timeOf(ms: number): string {
  return timeFormat.format(ms);
}

export function dateTimeOf(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '–' : dateTimeFormat.format(ms);
}

/** 1.25B, −830M, 12.4K: magnitudes for premiums, exposures, volumes. */
export function compact(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const sign = value < 0 ? '−' : '';
  const v = Math.abs(value);
  const [scaled, suffix] =
    v >= 1e12 ? [v / 1e12, 'T'] : v >= 1e9 ? [v / 1e9, 'B'] : v >= 1e6 ? [v / 1e6, 'M'] : v >= 1e3 ? [v / 1e3, 'K'] : [v, ''];
  return `${sign}${Number(scaled.toPrecision(digits))}${suffix}`;
}

export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return value < 0 ? `−$${compact(-value)}` : `$${compact(value)}`;
}

/** A decimal volatility (0.182) as 18.2%. */
export function vol(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? '–' : `${(value * 100).toFixed(digits)}%`;
}

export function num(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined
    ? '–'
    : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function strike(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : value.toLocaleString('en-US', { maximumFractionDigits: 3 });
}

/** Signed percent (change_percent is already in percent). */
export function percent(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined ? '–' : `${value > 0 ? '+' : value < 0 ? '−' : ''}${Math.abs(value).toFixed(digits)}%`;
}
