/**
 * Premium drift: cumulative customer premium bought on the ask side (ASK_SIDES of sides.ts: above_ask,
 * at_ask, near_ask) minus premium sold on the bid side (BID_SIDES), for calls and puts, by bucket
 * of a grid that starts at the session's start; sentiment drift is call drift minus put drift
 * (rising when premium flows into calls or out of puts). Mid and unknown prints add nothing.
 */
import { newYorkTimeToMs } from './new-york-time.js';
import { optionRoot } from './roots.js';
import { optionsOvernightWindow, optionsRegularClose } from './sessions.js';
import type { SessionChoice, Span } from './print-filters.js';
import { calendarDay } from './calendar.js';

export const DRIFT_INTERVAL_MS: Readonly<Record<'1m' | '5m' | '15m' | '30m' | '1h', number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
};

/**
 * The bucket grid of a trading date's session for some roots, where the prints the session holds
 * (print-filters.ts SESSIONS_OF) lie: gth is the overnight window; rth runs from 09:30 ET to the
 * latest regular close among the roots (16:00 equity, 16:15 index and ETF; 13:00 and 13:15 on
 * early-close days); all from the overnight window's start to the latest close, 17:00 ET for a
 * root with a curb session (none on early-close days). Null when the date does not trade. A print
 * of the session after the grid's end (one at the close itself, a late report) extends it:
 * gridCovering.
 */
export function driftGrid(date: string, session: SessionChoice, roots: readonly string[]): Span | null {
  const overnight = optionsOvernightWindow(date);
  if (!overnight) return null;
  const early = calendarDay(date).status === 'early_close';
  let close = 0;
  let curbEnd = 0;
  for (const root of roots) {
    const ref = optionRoot(root);
    const regular = optionsRegularClose(date, ref?.kind === 'equity' ? 'equity' : 'index_or_etf') ?? 0;
    close = Math.max(close, regular);
    curbEnd = Math.max(curbEnd, ref?.curb && !early ? newYorkTimeToMs(date, '17:00') : regular);
  }
  const open = newYorkTimeToMs(date, '09:30');
  if (session === 'gth') return { start: overnight.start_time, end: overnight.end_time };
  if (session === 'rth') return { start: open, end: Math.max(close, open) };
  return { start: overnight.start_time, end: Math.max(curbEnd, open) };
}

/**
 * The grid extended to the last bucket holding a net: every print the session holds is counted,
 * one at the regular close itself (an rth print, placed in the bucket that starts at the close)
 * or a late report after the curb included.
 */
export function gridCovering(grid: Span, intervalMs: number, nets: readonly BucketNet[]): Span {
  let end = grid.end;
  for (const n of nets) end = Math.max(end, grid.start + (n.index + 1) * intervalMs);
  return { start: grid.start, end };
}

/** Net signed premium of one bucket (index from the grid start). */
export interface BucketNet {
  index: number;
  call: number;
  put: number;
}

export interface DriftBar {
  ts: number;
  close: number;
}

export interface PremiumDriftBucket {
  call_drift: number | null;
  put_drift: number | null;
  sentiment_drift: number | null;
  timestamp: number;
  underlying_price: number | null;
}

/**
 * The cumulative series over the grid, clipped to [from, to) (buckets partly inside included),
 * without buckets that start after `now`. The underlying price of a bucket is the close of its last
 * one-minute bar (bars ascending), null when none.
 */
export function driftSeries(
  grid: Span,
  intervalMs: number,
  window: { from: number | null; to: number | null },
  nets: readonly BucketNet[],
  bars: readonly DriftBar[],
  now: number,
): PremiumDriftBucket[] {
  const start = Math.max(grid.start, window.from ?? grid.start);
  const end = Math.min(grid.end, window.to ?? grid.end, now + 1);
  if (!(start < end)) return [];
  const first = Math.floor((start - grid.start) / intervalMs);
  const last = Math.ceil((end - grid.start) / intervalMs) - 1;
  const byIndex = new Map(nets.map((n) => [n.index, n]));
  const closes = new Map<number, number>();
  for (const b of bars) {
    if (b.ts < grid.start) continue;
    closes.set(Math.floor((b.ts - grid.start) / intervalMs), b.close);
  }
  const out: PremiumDriftBucket[] = [];
  let call = 0;
  let put = 0;
  for (let i = first; i <= last; i += 1) {
    const n = byIndex.get(i);
    if (n) {
      call += n.call;
      put += n.put;
    }
    out.push({
      call_drift: call,
      put_drift: put,
      sentiment_drift: call - put,
      timestamp: grid.start + i * intervalMs,
      underlying_price: closes.get(i) ?? null,
    });
  }
  return out;
}
