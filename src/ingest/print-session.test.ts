import { describe, expect, it } from 'vitest';
import { optionRoot } from '../analytics/roots.js';
import { readBounds, sessionSpan } from '../analytics/print-filters.js';
import { PrintSessionResolver, type SessionRoot } from './print-session.js';

const et = (iso: string): number => Date.parse(`${iso}-05:00`); // November 2026: EST
const spxw = optionRoot('SPXW')!;
const spy = optionRoot('SPY')!;
const aapl = optionRoot('AAPL')!;

describe('print session and trading date', () => {
  const r = new PrintSessionResolver();
  it('places regular-hours prints, index and ETF options to 16:15 and equity options to 16:00', () => {
    expect(r.place(et('2026-11-20T09:30:00'), spy)).toEqual({ tradingDate: '2026-11-20', session: 'rth' });
    expect(r.place(et('2026-11-20T16:15:00'), spy)).toEqual({ tradingDate: '2026-11-20', session: 'rth' });
    expect(r.place(et('2026-11-20T16:10:00'), aapl)).toEqual({ tradingDate: '2026-11-20', session: 'other' });
    expect(r.place(et('2026-11-20T16:15:00.001'), spy)).toEqual({ tradingDate: '2026-11-20', session: 'other' });
  });
  it('places the curb after the index close until 17:00, only for curb roots', () => {
    expect(r.place(et('2026-11-20T16:30:00'), spxw)).toEqual({ tradingDate: '2026-11-20', session: 'curb' });
    expect(r.place(et('2026-11-20T17:00:00'), spxw)).toEqual({ tradingDate: '2026-11-20', session: 'other' });
  });
  it('gives overnight prints to the NEXT trading date, over weekends too', () => {
    expect(r.place(et('2026-11-19T21:00:00'), spxw)).toEqual({ tradingDate: '2026-11-20', session: 'gth' });
    expect(r.place(et('2026-11-20T03:00:00'), spxw)).toEqual({ tradingDate: '2026-11-20', session: 'gth' });
    expect(r.place(et('2026-11-20T09:26:00'), spxw)).toEqual({ tradingDate: '2026-11-20', session: 'other' });
    expect(r.place(et('2026-11-22T20:30:00'), spxw)).toEqual({ tradingDate: '2026-11-23', session: 'gth' });
    // Not an overnight root: the evening print is an 'other' print of its own date.
    expect(r.place(et('2026-11-19T21:00:00'), spy)).toEqual({ tradingDate: '2026-11-19', session: 'other' });
  });
  it('puts weekend reports on the last session and knows the cash close', () => {
    expect(r.place(et('2026-11-21T10:00:00'), spy)).toEqual({ tradingDate: '2026-11-20', session: 'other' });
    expect(r.cashCloseMs('2026-11-20')).toBe(et('2026-11-20T16:00:00'));
    expect(r.cashCloseMs('2026-11-27')).toBe(et('2026-11-27T13:00:00'));
  });
});

describe('the read bounds of a session', () => {
  it('every print placed in a session lies in the bounds a feed reads it by (print-filters.ts readBounds) (regular and overnight, every kind of root, a normal and an early-close day)', () => {
    const resolver = new PrintSessionResolver();
    const roots: SessionRoot[] = [
      { kind: 'index', overnight: true, curb: true },
      { kind: 'etf', overnight: true, curb: true },
      { kind: 'equity', overnight: false, curb: false },
    ];
    let placed = 0;
    for (const date of ['2026-11-20', '2026-11-27']) {
      const start = Date.parse(`${date}T00:00:00Z`) - 86_400_000;
      // Every 7 seconds over three days, and the millisecond either side of each session edge.
      const instants: number[] = [];
      for (let ts = start; ts < start + 3 * 86_400_000; ts += 7_000) instants.push(ts);
      for (const session of ['rth', 'gth'] as const) {
        const span = sessionSpan(date, session);
        if (span) instants.push(span.start - 1, span.start, span.end - 1, span.end);
      }
      for (const session of ['rth', 'gth'] as const) {
        const { from, to } = readBounds(date, session, { from: null, to: null });
        for (const root of roots)
          for (const ts of instants) {
            const place = resolver.place(ts, root);
            if (place.tradingDate !== date || place.session !== session) continue;
            placed++;
            expect(ts >= (from as number) && ts < (to as number), `${root.kind} ${session} print at ${new Date(ts).toISOString()}`).toBe(
              true,
            );
          }
      }
    }
    expect(placed).toBeGreaterThan(10_000);
  });
});
