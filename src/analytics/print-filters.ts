/**
 * The rules of the print feeds (trades, flow, flow/overnight, premium drift) that are pure: which
 * trading date and session a request names, the time window inside it, the roots an underlying
 * list covers, and which sides it selects. No I/O, no clock: `now` is given.
 *
 * Sessions: which prints a requested session holds is written once, here (SESSIONS_OF), and every
 * route that reads prints by session asks it: the trades and flow feeds, flow leaders (and the flow
 * aggregates they read), premium drift, the print streams and the heat map's activity. `rth` holds
 * the regular session's prints (09:30 ET to the options close), `gth` the overnight session's
 * (20:15 ET the evening before to 09:25 ET), `all` every print of the trading date: those two, the
 * curb session's (16:15 to 17:00 ET) and late reports (`other`). A print's trading date and session
 * are fixed at ingest (src/ingest/print-session.ts): overnight prints belong to the next trading date.
 */
import type { components } from '../../generated/openapi.js';
import {
  CalendarRangeError,
  currentOrLastSessionDate,
  isTradingDay,
  nextTradingDay,
  previousTradingDay,
  REGULAR_OPEN_TIME,
} from './calendar.js';
import type { PrintSession } from './classification.js';
import { newYorkDate, newYorkTimeToMs } from './new-york-time.js';
import { expandUnderlying } from './roots.js';
import { optionsOvernightWindow, optionsRegularClose } from './sessions.js';
import { SIDES, type Side } from './sides.js';

/** The session a feed request names (the contract's SessionRthGthAll parameter). */
export type SessionChoice = components['parameters']['SessionRthGthAll'];

/** Print sessions stored under each requested session. */
export const SESSIONS_OF: Readonly<Record<SessionChoice, readonly PrintSession[]>> = {
  rth: ['rth'],
  gth: ['gth'],
  all: ['gth', 'rth', 'curb', 'other'],
};

export interface Problem {
  parameter: string;
  message: string;
}

/** [start, end) in Unix ms. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Where prints of a trading date's session lie, the span a window must stay in (the spec's "the
 * window must lie within one trading session"): gth is its overnight window; rth the options
 * regular session, 09:30 ET to the longest regular close (16:15 ET, 13:15 on early-close days;
 * sessions.ts), its close included (a print at the close is rth: src/ingest/print-session.ts);
 * all is every print of the date, from the overnight window's start to midnight before the next
 * trading date (curb prints and late reports over a weekend belong to the last session). Null when
 * the date does not trade.
 */
export function sessionSpan(date: string, session: SessionChoice): Span | null {
  const key = `${date} ${session}`;
  let span = spans.get(key);
  if (span === undefined) {
    span = computeSessionSpan(date, session);
    // A pure function of its arguments: kept, as a few hundred bytes a date, for every feed read
    // (readBounds) asks it, and the calendar's New York times cost microseconds each.
    if (spans.size >= MAX_SPANS) spans.clear();
    spans.set(key, span);
  }
  return span === null ? null : { ...span };
}

const spans = new Map<string, Span | null>();
const MAX_SPANS = 4096;

function computeSessionSpan(date: string, session: SessionChoice): Span | null {
  const overnight = optionsOvernightWindow(date);
  const close = optionsRegularClose(date, 'index_or_etf');
  if (!overnight || close === null) return null;
  if (session === 'gth') return { start: overnight.start_time, end: overnight.end_time };
  if (session === 'rth') return { start: newYorkTimeToMs(date, REGULAR_OPEN_TIME), end: close + 1 };
  return { start: overnight.start_time, end: newYorkTimeToMs(nextTradingDay(date), '00:00') };
}

/**
 * The time bounds of a feed read of a trading date's prints: the request's window, narrowed for the
 * regular and overnight sessions to the session's own span (sessionSpan), which holds every print of
 * that session on the date (src/ingest/print-session.ts places them by the same calendar). The
 * newest-first indexes do not lead with session, so the bound is where an index scan starts and
 * stops: an overnight read never meets the day's prints, and a regular-session read starts at the
 * options close instead of stepping over the day's curb prints and late reports (about 6,500 index
 * entries for SPXW on a full-scale day, 0.3 ms of a 0.45 ms page). `all` keeps the request's window.
 * A date outside the calendar keeps the request's window.
 */
export function readBounds(
  date: string,
  session: SessionChoice,
  window: { from: number | null; to: number | null },
): { from: number | null; to: number | null } {
  if (session === 'all') return window;
  let span: Span | null = null;
  try {
    span = sessionSpan(date, session);
  } catch (error) {
    if (!(error instanceof CalendarRangeError)) throw error;
  }
  if (span === null) return window;
  return {
    from: window.from === null ? span.start : Math.max(window.from, span.start),
    to: window.to === null ? span.end : Math.min(window.to, span.end),
  };
}

/** The trading date whose overnight window holds `ts`, or null. */
export function overnightDateOf(ts: number): string | null {
  const today = newYorkDate(ts);
  for (const date of [today, nextTradingDay(today)]) {
    const w = optionsOvernightWindow(date);
    if (w && ts >= w.start_time && ts < w.end_time) return date;
  }
  return null;
}

/** The trading date of the day (rth) an instant falls in: its New York date, or the last trading date before a closed day. */
export function dayDateOf(ts: number): string {
  const date = newYorkDate(ts);
  return isTradingDay(date) ? date : previousTradingDay(date);
}

/**
 * Default trading date: the current session, else the most recent completed one. For the overnight
 * session, an overnight window in progress is the current session (it belongs to the next date).
 */
export function defaultTradingDate(now: number, session: SessionChoice): string {
  if (session === 'gth') {
    const overnight = overnightDateOf(now);
    if (overnight !== null) return overnight;
  }
  return currentOrLastSessionDate(now);
}

export interface WindowRequest {
  session: SessionChoice;
  date?: string;
  startTime?: number;
  endTime?: number;
  now: number;
}

export type ResolvedWindow = { ok: true; tradingDate: string; from: number | null; to: number | null } | { ok: false; problems: Problem[] };

/**
 * The trading date a request names and its time window. start_time/end_time must lie within one
 * session: that of `date` when given, else the session the window's start (or end) falls in.
 */
export function resolveWindow(r: WindowRequest): ResolvedWindow {
  try {
    return resolveWindowIn(r);
  } catch (error) {
    if (!(error instanceof CalendarRangeError)) throw error;
    const message = 'outside the exchange calendar (2000 to 2035)';
    return {
      ok: false,
      problems: [
        ...(r.startTime !== undefined ? [{ parameter: 'start_time', message }] : []),
        ...(r.endTime !== undefined ? [{ parameter: 'end_time', message }] : []),
      ],
    };
  }
}

/** The hours of each session, for the message of a window that leaves it. */
const SESSION_HOURS: Readonly<Record<SessionChoice, string>> = {
  rth: ' (09:30 ET to the options regular close, 16:15 ET or 13:15 on an early close, inclusive)',
  gth: ' (20:15 ET the evening before to 09:25 ET)',
  all: ' (20:15 ET the evening before to midnight before the next trading date)',
};

function resolveWindowIn(r: WindowRequest): ResolvedWindow {
  const { startTime, endTime, session } = r;
  const both = (message: string): ResolvedWindow => ({
    ok: false,
    problems: [
      ...(startTime !== undefined ? [{ parameter: 'start_time', message }] : []),
      ...(endTime !== undefined ? [{ parameter: 'end_time', message }] : []),
    ],
  });
  if (startTime !== undefined && endTime !== undefined && startTime >= endTime) return both('start_time must be before end_time');
  if (startTime === undefined && endTime === undefined) {
    return { ok: true, tradingDate: r.date ?? defaultTradingDate(r.now, session), from: null, to: null };
  }
  let date = r.date;
  if (date === undefined) {
    const t = startTime ?? endTime! - 1;
    const overnight = session === 'rth' ? null : overnightDateOf(t);
    date = overnight ?? (session === 'gth' ? undefined : dayDateOf(t));
    if (date === undefined) return both('the window must lie within one overnight session (20:15 to 09:25 ET); give date to name it');
  }
  const span = sessionSpan(date, session);
  if (!span) return both(`${date} is not a trading date`);
  const inside = (t: number | undefined, isEnd: boolean): boolean =>
    t === undefined || (isEnd ? t > span.start && t <= span.end : t >= span.start && t < span.end);
  if (!inside(startTime, false) || !inside(endTime, true)) {
    return both(`the window must lie within the ${session} session of ${date}${SESSION_HOURS[session]}`);
  }
  return { ok: true, tradingDate: date, from: startTime ?? null, to: endTime ?? null };
}

/** The roots an underlying parameter (or list) covers, families expanded, without repeats. */
export function rootsOf(symbols: readonly string[]): string[] {
  return [...new Set(symbols.flatMap(expandUnderlying))];
}

/** A value of the side parameter: a side, or ask / bid for an at/near pair (the contract's SideDetailed). */
export type SideParameter = components['parameters']['SideDetailed'][number];

export interface SideSelection {
  /** Sides the store is asked for (at/near pairs together). */
  stored: Side[];
  /** When an at/near split is asked (at_ask without near_ask, …): the exact sides to keep. */
  exact: Side[] | null;
}

const GROUPS: Readonly<Record<'ask' | 'bid', readonly Side[]>> = { ask: ['at_ask', 'near_ask'], bid: ['near_bid', 'at_bid'] };
const PAIR: Partial<Record<Side, 'ask' | 'bid'>> = { at_ask: 'ask', near_ask: 'ask', at_bid: 'bid', near_bid: 'bid' };

/** ask = at_ask + near_ask, bid = near_bid + at_bid; an at/near split is filtered after the read. */
export function selectSides(sides: readonly SideParameter[]): SideSelection {
  const exact = new Set<Side>();
  for (const s of sides) {
    if (s === 'ask' || s === 'bid') for (const x of GROUPS[s]) exact.add(x);
    else exact.add(s);
  }
  const stored = new Set<Side>(exact);
  let split = false;
  for (const s of exact) {
    const pair = PAIR[s];
    if (pair === undefined) continue;
    for (const x of GROUPS[pair]) {
      if (!exact.has(x)) split = true;
      stored.add(x);
    }
  }
  return { stored: SIDES.filter((s) => stored.has(s)), exact: split ? SIDES.filter((s) => exact.has(s)) : null };
}

/**
 * Whether an instant lies in an options regular session of the exchange calendar: a trading date's
 * 09:30 ET to its 16:15 ET close inclusive (13:15 on an early close). A weekend, a holiday, the
 * hours after an early close and the overnight hours are outside it (instants outside it need the
 * overnight entitlement on trade-at-time). False outside the calendar.
 */
export function inRegularSession(ts: number): boolean {
  let span: Span | null = null;
  try {
    span = sessionSpan(newYorkDate(ts), 'rth');
  } catch (error) {
    if (!(error instanceof CalendarRangeError)) throw error;
  }
  return span !== null && ts >= span.start && ts < span.end;
}

/** The print sessions a search without overnight data reads (every one but gth). */
export const SESSIONS_WITHOUT_OVERNIGHT: readonly PrintSession[] = SESSIONS_OF.all.filter((s) => s !== 'gth');
