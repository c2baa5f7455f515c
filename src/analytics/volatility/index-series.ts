/**
 * The bars of a computed volatility index's per-minute series (GET /v1/indices/volatility/bars):
 * each minute of data has one value (the index at the minute's end); a bar's open is its first
 * minute's value, high and low the greatest and least, close the last minute's. Buckets are on the
 * clock's grid (1m, 5m, 1h: New York is a whole number of hours off UTC, so the grid is the same in
 * both) by the minute's start; 1d is one bar per trading date, stamped with its session's start.
 */
import { CALENDAR_FIRST_DATE, CALENDAR_LAST_DATE, tradingDaysBetween } from '../calendar.js';
import { newYorkDate, newYorkTimeToMs } from '../new-york-time.js';
import type { Span } from '../print-filters.js';

export type IndexSeriesInterval = '1m' | '5m' | '1h' | '1d';

const MINUTE_MS = 60_000;

/** Bucket lengths of the grid intervals. */
export const SERIES_BUCKET_MS: Readonly<Record<Exclude<IndexSeriesInterval, '1d'>, number>> = {
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '1h': 60 * MINUTE_MS,
};

/** One minute of a series with a value: its start (the minute of data) and the index at its end. */
export interface SeriesMinute {
  minute: number;
  value: number;
}

export interface SeriesBar {
  /** The bucket's start (1d: the session's start). */
  bucket: number;
  open: number;
  high: number;
  low: number;
  close: number;
  minutes: number;
  /** The start of the minute whose value is the close. */
  closeMinute: number;
}

/** The bars of one trading date's minutes (oldest first); `sessionStart` stamps its 1d bar. */
export function seriesBars(minutes: readonly SeriesMinute[], interval: IndexSeriesInterval, sessionStart: number): SeriesBar[] {
  const bars: SeriesBar[] = [];
  for (const m of minutes) {
    const bucket = interval === '1d' ? sessionStart : Math.floor(m.minute / SERIES_BUCKET_MS[interval]) * SERIES_BUCKET_MS[interval];
    const bar = bars.at(-1);
    if (bar !== undefined && bar.bucket === bucket) {
      bar.high = Math.max(bar.high, m.value);
      bar.low = Math.min(bar.low, m.value);
      bar.close = m.value;
      bar.closeMinute = m.minute;
      bar.minutes += 1;
    } else {
      bars.push({ bucket, open: m.value, high: m.value, low: m.value, close: m.value, minutes: 1, closeMinute: m.minute });
    }
  }
  return bars;
}

/** Where a trading date's minutes are read from: its session, cut to the range. */
export interface SeriesWindow {
  tradingDate: string;
  /** The session's start, uncut (the 1d bar's stamp). */
  open: number;
  /** [start, end) on the minutes' starts. */
  start: number;
  end: number;
}

/**
 * The sessions (by `sessionOf`, the family's regular session of a date) meeting the range, cut to
 * it, ascending; only the exchange calendar's dates (2000 through 2035).
 */
export function seriesWindows(range: { start: number; end: number }, sessionOf: (date: string) => Span | null): SeriesWindow[] {
  const first = Math.max(range.start, newYorkTimeToMs(CALENDAR_FIRST_DATE, '00:00'));
  const last = Math.min(range.end, newYorkTimeToMs(CALENDAR_LAST_DATE, '23:59'));
  if (!(first < last)) return [];
  const out: SeriesWindow[] = [];
  for (const date of tradingDaysBetween(newYorkDate(first), newYorkDate(last - 1))) {
    const span = sessionOf(date);
    if (span === null || !(span.start < range.end && range.start < span.end)) continue;
    out.push({ tradingDate: date, open: span.start, start: Math.max(span.start, range.start), end: Math.min(span.end, range.end) });
  }
  return out;
}

/** The windows a next page reads, after the last bar served. */
export function seriesWindowsAfter(
  windows: readonly SeriesWindow[],
  interval: IndexSeriesInterval,
  lastBucket: number | null,
): SeriesWindow[] {
  if (lastBucket === null) return [...windows];
  if (interval === '1d') return windows.filter((w) => w.open > lastBucket);
  const from = lastBucket + SERIES_BUCKET_MS[interval];
  return windows.filter((w) => w.end > from).map((w) => ({ ...w, start: Math.max(w.start, from) }));
}
