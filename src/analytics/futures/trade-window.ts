/**
 * The trade date and time window a futures request names (GET /v1/futures/trades), by the CME
 * Globex calendar (globex-calendar.ts), as analytics/print-filters.ts resolveWindow does for the
 * option feeds: without start_time and end_time, `date` or, without it, the trade date trading at
 * `now`, else the last one closed (the whole session is read); with a bound, the window lies within
 * the Globex session of `date`, or, without it, of the trade date the window's start (or end) falls
 * in. A trade date's session runs from 18:00 ET the evening before its first window to its last
 * window's close (after an abbreviated holiday, it holds that day's window too).
 */
import { globexTradeDate, globexTradeDateAt, previousGlobexTradeDate } from './globex-calendar.js';

export interface GlobexWindowProblem {
  parameter: 'start_time' | 'end_time';
  message: string;
}

export type ResolvedGlobexWindow =
  /** tradeDate null: none named, and the present is past the calendar's last trade date. */
  { ok: true; tradeDate: string | null; from: number | null; to: number | null } | { ok: false; problems: GlobexWindowProblem[] };

/** The trade date trading at `now`, else the last one closed; null past the calendar's last trade date. */
export function currentOrLastGlobexTradeDate(now: number): string | null {
  const at = globexTradeDateAt(now);
  if (at === null) return null;
  return at.trading ? at.trade_date : previousGlobexTradeDate(at.trade_date);
}

/** The session of a trade date, first open to last close; null when `date` is not a CME trade date. */
export function globexSessionBounds(date: string): { from: number; to: number } | null {
  const session = globexTradeDate(date);
  if (session === null || session.windows.length === 0) return null;
  return { from: session.windows[0]!.start_time, to: session.windows.at(-1)!.end_time };
}

export function resolveGlobexWindow(r: { date?: string; startTime?: number; endTime?: number; now: number }): ResolvedGlobexWindow {
  const { startTime, endTime } = r;
  const both = (message: string): ResolvedGlobexWindow => ({
    ok: false,
    problems: [
      ...(startTime !== undefined ? [{ parameter: 'start_time' as const, message }] : []),
      ...(endTime !== undefined ? [{ parameter: 'end_time' as const, message }] : []),
    ],
  });
  if (startTime !== undefined && endTime !== undefined && startTime >= endTime) return both('start_time must be before end_time');
  if (startTime === undefined && endTime === undefined) {
    return { ok: true, tradeDate: r.date ?? currentOrLastGlobexTradeDate(r.now), from: null, to: null };
  }
  let date = r.date;
  if (date === undefined) {
    const at = globexTradeDateAt(startTime ?? endTime! - 1);
    if (at === null) return both('outside the exchange calendar (2000 to 2035)');
    date = at.trade_date;
  }
  const session = globexSessionBounds(date);
  if (session === null) return both(`${date} is not a CME trade date`);
  const inside = (t: number | undefined, isEnd: boolean): boolean =>
    t === undefined || (isEnd ? t > session.from && t <= session.to : t >= session.from && t < session.to);
  if (!inside(startTime, false) || !inside(endTime, true)) {
    return both(`the window must lie within the Globex session of trade date ${date} (${session.from} to ${session.to}, Unix ms)`);
  }
  return { ok: true, tradeDate: date, from: startTime ?? null, to: endTime ?? null };
}
