import { describe, expect, it } from 'vitest';
import {
  dayDateOf,
  defaultTradingDate,
  inRegularSession,
  overnightDateOf,
  readBounds,
  resolveWindow,
  rootsOf,
  selectSides,
  sessionSpan,
} from './print-filters.js';

const at = (iso: string): number => Date.parse(iso);

describe('sessions of a trading date', () => {
  it('gives the overnight window (20:15 ET the evening before, to 09:25 ET) and the day', () => {
    expect(sessionSpan('2026-11-20', 'gth')).toEqual({ start: at('2026-11-20T01:15:00Z'), end: at('2026-11-20T14:25:00Z') });
    // The regular session: 09:30 ET to the 16:15 ET close, the close included (issue 33 §6).
    expect(sessionSpan('2026-11-20', 'rth')).toEqual({ start: at('2026-11-20T14:30:00Z'), end: at('2026-11-20T21:15:00Z') + 1 });
    // 13:15 ET on an early close (the day after Thanksgiving).
    expect(sessionSpan('2026-11-27', 'rth')).toEqual({ start: at('2026-11-27T14:30:00Z'), end: at('2026-11-27T18:15:00Z') + 1 });
    // Every print of Friday's date runs to midnight before Monday (curb, late reports over the weekend).
    expect(sessionSpan('2026-11-20', 'all')).toEqual({ start: at('2026-11-20T01:15:00Z'), end: at('2026-11-23T05:00:00Z') });
    // Monday's overnight session starts Sunday evening; none on a holiday.
    expect(sessionSpan('2026-11-23', 'gth')?.start).toBe(at('2026-11-23T01:15:00Z'));
    expect(sessionSpan('2026-11-26', 'rth')).toBeNull();
  });

  it('places instants in their overnight session and day', () => {
    expect(overnightDateOf(at('2026-11-20T02:00:00Z'))).toBe('2026-11-20'); // Thursday 21:00 ET
    expect(overnightDateOf(at('2026-11-20T13:00:00Z'))).toBe('2026-11-20'); // Friday 08:00 ET
    expect(overnightDateOf(at('2026-11-20T15:00:00Z'))).toBeNull();
    expect(overnightDateOf(at('2026-11-22T12:00:00Z'))).toBeNull(); // Sunday noon
    expect(dayDateOf(at('2026-11-22T12:00:00Z'))).toBe('2026-11-20');
    expect(dayDateOf(at('2026-11-20T15:00:00Z'))).toBe('2026-11-20');
  });

  it('defaults to the current session, else the last completed one; an overnight session in progress for gth', () => {
    expect(defaultTradingDate(at('2026-11-20T15:00:00Z'), 'rth')).toBe('2026-11-20');
    expect(defaultTradingDate(at('2026-11-20T13:00:00Z'), 'rth')).toBe('2026-11-19');
    expect(defaultTradingDate(at('2026-11-20T13:00:00Z'), 'gth')).toBe('2026-11-20');
    expect(defaultTradingDate(at('2026-11-23T02:00:00Z'), 'gth')).toBe('2026-11-23');
    expect(defaultTradingDate(at('2026-11-23T02:00:00Z'), 'all')).toBe('2026-11-20');
    expect(defaultTradingDate(at('2026-11-20T23:00:00Z'), 'gth')).toBe('2026-11-20');
  });
});

describe('readBounds', () => {
  const none = { from: null, to: null };
  it('bounds an overnight read by the overnight window, keeping a bound the request gives', () => {
    expect(readBounds('2026-11-20', 'gth', none)).toEqual({ from: at('2026-11-20T01:15:00Z'), to: at('2026-11-20T14:25:00Z') });
    expect(readBounds('2026-11-20', 'gth', { from: at('2026-11-20T03:00:00Z'), to: null })).toEqual({
      from: at('2026-11-20T03:00:00Z'),
      to: at('2026-11-20T14:25:00Z'),
    });
    expect(readBounds('2026-11-20', 'gth', { from: null, to: at('2026-11-20T04:00:00Z') })).toEqual({
      from: at('2026-11-20T01:15:00Z'),
      to: at('2026-11-20T04:00:00Z'),
    });
  });

  it("bounds a regular-session read by the open and the options' regular close (inclusive), early closes too", () => {
    expect(readBounds('2026-11-20', 'rth', none)).toEqual({ from: at('2026-11-20T14:30:00Z'), to: at('2026-11-20T21:15:00Z') + 1 });
    // The day after Thanksgiving closes at 13:00 ET; index and ETF options trade to 13:15 ET.
    expect(readBounds('2026-11-27', 'rth', none)).toEqual({ from: at('2026-11-27T14:30:00Z'), to: at('2026-11-27T18:15:00Z') + 1 });
    // A window the request gives is intersected with the session's span.
    expect(readBounds('2026-11-20', 'rth', { from: at('2026-11-20T12:00:00Z'), to: at('2026-11-20T15:00:00Z') })).toEqual({
      from: at('2026-11-20T14:30:00Z'),
      to: at('2026-11-20T15:00:00Z'),
    });
    expect(readBounds('2026-11-20', 'rth', { from: at('2026-11-20T16:00:00Z'), to: at('2026-11-20T23:00:00Z') })).toEqual({
      from: at('2026-11-20T16:00:00Z'),
      to: at('2026-11-20T21:15:00Z') + 1,
    });
  });

  it("leaves a whole-date read, a closed day's and a date outside the calendar as asked", () => {
    expect(readBounds('2026-11-20', 'all', { from: 5, to: null })).toEqual({ from: 5, to: null });
    expect(readBounds('2026-11-26', 'gth', none)).toEqual(none);
    expect(readBounds('1990-01-02', 'gth', none)).toEqual(none);
  });
});

describe('resolveWindow', () => {
  const now = at('2026-11-20T23:00:00Z');
  const t = at('2026-11-20T15:00:00Z');

  it('passes no window through, with the default date', () => {
    expect(resolveWindow({ session: 'rth', now })).toEqual({ ok: true, tradingDate: '2026-11-20', from: null, to: null });
    expect(resolveWindow({ session: 'rth', date: '2026-11-18', now })).toEqual({
      ok: true,
      tradingDate: '2026-11-18',
      from: null,
      to: null,
    });
  });

  it('takes the session from the window when no date is given', () => {
    expect(resolveWindow({ session: 'rth', startTime: t, now })).toEqual({ ok: true, tradingDate: '2026-11-20', from: t, to: null });
    expect(resolveWindow({ session: 'gth', endTime: at('2026-11-20T03:00:00Z'), now })).toMatchObject({
      ok: true,
      tradingDate: '2026-11-20',
    });
    expect(resolveWindow({ session: 'all', startTime: at('2026-11-20T03:00:00Z'), endTime: t, now })).toMatchObject({
      ok: true,
      tradingDate: '2026-11-20',
    });
  });

  it('names start_time and end_time when the window is empty or leaves the session', () => {
    const bad = (r: ReturnType<typeof resolveWindow>): string[] => (r.ok ? [] : r.problems.map((p) => p.parameter));
    expect(bad(resolveWindow({ session: 'rth', startTime: t, endTime: t, now }))).toEqual(['start_time', 'end_time']);
    expect(bad(resolveWindow({ session: 'rth', date: '2026-11-19', startTime: t, now }))).toEqual(['start_time']);
    expect(bad(resolveWindow({ session: 'rth', startTime: t, endTime: t + 4 * 86_400_000, now }))).toEqual(['start_time', 'end_time']);
    expect(bad(resolveWindow({ session: 'gth', startTime: t, now }))).toEqual(['start_time']);
    expect(bad(resolveWindow({ session: 'gth', date: '2026-11-20', endTime: t, now }))).toEqual(['end_time']);
    expect(bad(resolveWindow({ session: 'rth', date: '2026-11-21', endTime: t, now }))).toEqual(['end_time']);
    // The issue 33 §6 windows: 08:00 to 12:00 ET, a window over two dates, one after the 16:15 close.
    expect(bad(resolveWindow({ session: 'rth', startTime: at('2026-11-20T13:00:00Z'), endTime: at('2026-11-20T17:00:00Z'), now }))).toEqual(
      ['start_time', 'end_time'],
    );
    expect(bad(resolveWindow({ session: 'rth', startTime: at('2026-11-19T15:00:00Z'), endTime: at('2026-11-20T15:00:00Z'), now }))).toEqual(
      ['start_time', 'end_time'],
    );
    expect(bad(resolveWindow({ session: 'rth', startTime: at('2026-11-20T21:30:00Z'), endTime: at('2026-11-20T22:00:00Z'), now }))).toEqual(
      ['start_time', 'end_time'],
    );
    expect(bad(resolveWindow({ session: 'rth', date: '2026-11-20', endTime: at('2026-11-20T21:30:00Z'), now }))).toEqual(['end_time']);
    // After the close is inside all (curb and late reports), and the whole regular session is a window of rth.
    expect(resolveWindow({ session: 'all', startTime: at('2026-11-20T21:30:00Z'), endTime: at('2026-11-20T22:00:00Z'), now }).ok).toBe(
      true,
    );
    const rth = sessionSpan('2026-11-20', 'rth')!;
    expect(resolveWindow({ session: 'rth', startTime: rth.start, endTime: rth.end, now }).ok).toBe(true);
    // The end is exclusive: it may sit on the session's end.
    const span = sessionSpan('2026-11-20', 'gth')!;
    expect(resolveWindow({ session: 'gth', date: '2026-11-20', startTime: span.start, endTime: span.end, now }).ok).toBe(true);
  });
});

describe('roots and sides', () => {
  it('expands families and keeps weekly roots and unknown symbols as they are', () => {
    expect(rootsOf(['spx'])).toEqual(['SPX', 'SPXW']);
    expect(rootsOf(['SPXW'])).toEqual(['SPXW']);
    expect(rootsOf(['SPX', 'SPXW', 'qqq', 'ZZZ'])).toEqual(['SPX', 'SPXW', 'QQQ', 'ZZZ']);
  });

  it('reads ask and bid as their at/near pairs and marks an at/near split for the post-read filter', () => {
    expect(selectSides(['ask', 'mid'])).toEqual({ stored: ['at_ask', 'near_ask', 'mid'], exact: null });
    expect(selectSides(['bid'])).toEqual({ stored: ['near_bid', 'at_bid'], exact: null });
    expect(selectSides(['at_ask', 'near_ask', 'unknown'])).toEqual({ stored: ['at_ask', 'near_ask', 'unknown'], exact: null });
    expect(selectSides(['at_ask', 'below_bid'])).toEqual({ stored: ['at_ask', 'near_ask', 'below_bid'], exact: ['at_ask', 'below_bid'] });
    expect(selectSides(['near_bid', 'ask'])).toEqual({
      stored: ['at_ask', 'near_ask', 'near_bid', 'at_bid'],
      exact: ['at_ask', 'near_ask', 'near_bid'],
    });
  });
});

describe('inRegularSession', () => {
  it('holds from 09:30 to 16:15 ET inclusive on a trading date', () => {
    expect(inRegularSession(at('2026-11-20T14:30:00Z'))).toBe(true);
    expect(inRegularSession(at('2026-11-20T21:15:00Z'))).toBe(true);
    expect(inRegularSession(at('2026-11-20T21:15:00.001Z'))).toBe(false);
    expect(inRegularSession(at('2026-11-20T14:29:59.999Z'))).toBe(false);
    expect(inRegularSession(at('2026-07-20T13:30:00Z'))).toBe(true);
  });

  it('leaves out weekends, holidays and the hours after an early close (issue 33 §8)', () => {
    expect(inRegularSession(at('2026-11-21T15:00:00Z'))).toBe(false); // Saturday 10:00 ET
    expect(inRegularSession(at('2026-11-26T15:00:00Z'))).toBe(false); // Thanksgiving 10:00 ET
    expect(inRegularSession(at('2026-11-27T18:15:00Z'))).toBe(true); // Friday after Thanksgiving, 13:15 ET close
    expect(inRegularSession(at('2026-11-27T18:15:00.001Z'))).toBe(false);
    expect(inRegularSession(at('2026-11-27T20:00:00Z'))).toBe(false); // 15:00 ET, after the early close
    expect(inRegularSession(946684800000)).toBe(false); // outside the calendar: not a regular session
  });
});
