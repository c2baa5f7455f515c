import { describe, expect, it } from 'vitest';
import { optionRoot } from '../analytics/roots.js';
import { PrintSessionResolver } from './print-session.js';

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
