import { describe, expect, it } from 'vitest';
import { currentOrLastGlobexTradeDate, resolveGlobexWindow } from './trade-window.js';

const OPEN = Date.parse('2026-11-19T23:00:00Z');
const CLOSE = Date.parse('2026-11-20T22:00:00Z');
const problemsOf = (r: ReturnType<typeof resolveGlobexWindow>) => (r.ok ? [] : r.problems.map((p) => p.parameter));

describe('futures trade date and window', () => {
  it('defaults to the trade date trading now, else the last one closed', () => {
    // Friday 2026-11-20 10:00 ET, and Thursday 18:30 ET: Friday's trade date is trading.
    expect(currentOrLastGlobexTradeDate(Date.parse('2026-11-20T15:00:00Z'))).toBe('2026-11-20');
    expect(currentOrLastGlobexTradeDate(Date.parse('2026-11-19T23:30:00Z'))).toBe('2026-11-20');
    // The daily halt (Thursday 17:30 ET) and the weekend: the trade date that closed last.
    expect(currentOrLastGlobexTradeDate(Date.parse('2026-11-19T22:30:00Z'))).toBe('2026-11-19');
    expect(currentOrLastGlobexTradeDate(Date.parse('2026-11-22T12:00:00Z'))).toBe('2026-11-20');
    // Thanksgiving (Thursday 2026-11-26) after its 13:00 ET halt: Friday's trade date has not closed, Wednesday's is the last closed.
    expect(currentOrLastGlobexTradeDate(Date.parse('2026-11-26T20:00:00Z'))).toBe('2026-11-25');
    expect(resolveGlobexWindow({ now: Date.parse('2026-11-22T12:00:00Z') })).toEqual({
      ok: true,
      tradeDate: '2026-11-20',
      from: null,
      to: null,
    });
    expect(resolveGlobexWindow({ date: '2026-11-21', now: 0 })).toEqual({ ok: true, tradeDate: '2026-11-21', from: null, to: null });
  });

  it('keeps a window within the Globex session of the trade date named, or of the one its start falls in', () => {
    expect(resolveGlobexWindow({ date: '2026-11-20', startTime: OPEN, endTime: CLOSE, now: 0 })).toEqual({
      ok: true,
      tradeDate: '2026-11-20',
      from: OPEN,
      to: CLOSE,
    });
    // Without a date: Thursday 18:00 ET opens Friday's trade date; Thursday 16:59 ET is Thursday's.
    expect(resolveGlobexWindow({ startTime: OPEN, now: 0 })).toMatchObject({ ok: true, tradeDate: '2026-11-20' });
    expect(resolveGlobexWindow({ endTime: OPEN - 3_600_000, now: 0 })).toMatchObject({ ok: true, tradeDate: '2026-11-19' });
    expect(problemsOf(resolveGlobexWindow({ date: '2026-11-20', startTime: OPEN - 1, endTime: CLOSE + 1, now: 0 }))).toEqual([
      'start_time',
      'end_time',
    ]);
    expect(problemsOf(resolveGlobexWindow({ date: '2026-11-20', endTime: CLOSE + 1, now: 0 }))).toEqual(['end_time']);
    expect(problemsOf(resolveGlobexWindow({ date: '2026-11-20', startTime: OPEN + 10, endTime: OPEN + 10, now: 0 }))).toEqual([
      'start_time',
      'end_time',
    ]);
    expect(problemsOf(resolveGlobexWindow({ date: '2026-11-21', startTime: OPEN, now: 0 }))).toEqual(['start_time']);
    // After Thanksgiving, Friday's trade date holds Thursday's abbreviated window too: from Wednesday 18:00 ET to Friday's 13:15 ET close.
    const friday = { date: '2026-11-27', now: 0 };
    expect(resolveGlobexWindow({ ...friday, startTime: Date.parse('2026-11-25T23:00:00Z') }).ok).toBe(true);
    expect(problemsOf(resolveGlobexWindow({ ...friday, endTime: Date.parse('2026-11-27T18:15:00Z') + 1 }))).toEqual(['end_time']);
  });
});
