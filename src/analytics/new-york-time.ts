/**
 * Wall-clock conversions for America/New_York, the exchange clock of US equity and option markets.
 * Offsets come from the platform's IANA time-zone data (Intl), never from hand-written rules, so
 * daylight-saving transitions are right for every year the data covers.
 */

const ZONE = 'America/New_York';

const partsFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClockAt(ms: number): WallClock {
  const fields: Record<string, number> = {};
  for (const part of partsFormatter.formatToParts(new Date(ms))) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year ?? NaN,
    month: fields.month ?? NaN,
    day: fields.day ?? NaN,
    hour: fields.hour ?? NaN,
    minute: fields.minute ?? NaN,
    second: fields.second ?? NaN,
  };
}

/** Offset of New York from UTC at an instant, in milliseconds (negative: -4h or -5h). */
export function newYorkOffsetMs(ms: number): number {
  const w = wallClockAt(ms);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/**
 * Unix ms of a New York wall-clock time on a date. `time` is HH:MM or HH:MM:SS.
 * Wall times that do not exist (the spring-forward gap) resolve forward; ambiguous ones (the
 * fall-back hour) resolve to the first occurrence. Market times never fall in either.
 */
export function newYorkTimeToMs(date: string, time: string): number {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi, s = 0] = time.split(':').map(Number) as [number, number, number?];
  const naive = Date.UTC(y, mo - 1, d, h, mi, s);
  // Two passes settle the offset on both sides of a transition.
  let guess = naive - newYorkOffsetMs(naive);
  guess = naive - newYorkOffsetMs(guess);
  return guess;
}

/** The New York calendar date (YYYY-MM-DD) of an instant. */
export function newYorkDate(ms: number): string {
  const w = wallClockAt(ms);
  return `${String(w.year).padStart(4, '0')}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`;
}

/** Minutes since New York midnight of an instant (0 to 1439). */
export function newYorkMinuteOfDay(ms: number): number {
  const w = wallClockAt(ms);
  return w.hour * 60 + w.minute;
}

/** Adds whole calendar days to a YYYY-MM-DD date. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Day of week of a YYYY-MM-DD date: 0 Sunday to 6 Saturday. */
export function dayOfWeek(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** Calendar days from one YYYY-MM-DD date to another (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
