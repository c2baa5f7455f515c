import { describe, expect, it } from 'vitest';
import { MS_PER_YEAR, settlementInstant, settlementStyle, yearsToSettlement } from './settlement.js';

describe('settlementStyle', () => {
  it('AM for the SPX, NDX, RUT and VIX standard roots (Cboe product specifications)', () => {
    for (const root of ['SPX', 'NDX', 'RUT', 'VIX', 'spx', 'SPX   ']) expect(settlementStyle(root), root).toBe('am');
  });

  it('AM for VIX Weeklys too: all VIX options settle to the VRO opening quotation', () => {
    expect(settlementStyle('VIXW')).toBe('am');
  });

  it('PM for index Weeklys/PM roots and for equity and ETF options', () => {
    for (const root of ['SPXW', 'NDXP', 'RUTW', 'XSP', 'SPY', 'QQQ', 'IWM', 'AAPL', 'TSLA', 'BRKB', 'AAPL1']) {
      expect(settlementStyle(root), root).toBe('pm');
    }
  });
});

describe('settlementInstant', () => {
  it('AM: 09:30 New York time on the expiry date, in winter (EST) and summer (EDT)', () => {
    expect(settlementInstant('SPX', '2024-12-20')).toBe(Date.parse('2024-12-20T14:30:00Z'));
    expect(settlementInstant('SPX', '2024-06-21')).toBe(Date.parse('2024-06-21T13:30:00Z'));
    expect(settlementInstant('VIX', '2024-12-18')).toBe(Date.parse('2024-12-18T14:30:00Z')); // a Wednesday
  });

  it('PM: 16:00 New York time on the expiry date', () => {
    expect(settlementInstant('SPXW', '2024-12-20')).toBe(Date.parse('2024-12-20T21:00:00Z'));
    expect(settlementInstant('SPY', '2024-06-21')).toBe(Date.parse('2024-06-21T20:00:00Z'));
    expect(settlementInstant('AAPL', '2025-11-07')).toBe(Date.parse('2025-11-07T21:00:00Z'));
  });

  it("PM on an early-close day: the calendar's 13:00 ET close, not 16:00 (the day after Thanksgiving, Christmas Eve)", () => {
    // 2026-11-27: NYSE closes at 13:00 ET (18:00Z); SPXW settle to the SPX close, SPY exercise on its close.
    for (const root of ['SPXW', 'SPY', 'QQQ', 'AAPL'])
      expect(settlementInstant(root, '2026-11-27'), root).toBe(Date.parse('2026-11-27T18:00:00Z'));
    expect(settlementInstant('SPY', '2026-12-24')).toBe(Date.parse('2026-12-24T18:00:00Z'));
    // A 0DTE SPY at 12:59:58 ET has two seconds to run, not three hours and two seconds.
    expect(yearsToSettlement(Date.parse('2026-11-27T17:59:58Z'), 'SPY', '2026-11-27') * MS_PER_YEAR).toBe(2000);
  });

  it("AM at the calendar's open of the expiry date (a delayed open strikes later), the nominal 09:30 ET outside the calendar", () => {
    expect(settlementInstant('SPX', '2002-09-11')).toBe(Date.parse('2002-09-11T16:00:00Z')); // 12:00 EDT
    expect(settlementInstant('SPX', '1999-12-17')).toBe(Date.parse('1999-12-17T14:30:00Z'));
    expect(settlementInstant('SPXW', '2036-01-04')).toBe(Date.parse('2036-01-04T21:00:00Z'));
  });

  it('follows daylight-saving changes around the March switch', () => {
    // US DST began 2024-03-10: the Friday before is EST, the Friday after EDT.
    expect(settlementInstant('SPXW', '2024-03-08')).toBe(Date.parse('2024-03-08T21:00:00Z'));
    expect(settlementInstant('SPXW', '2024-03-15')).toBe(Date.parse('2024-03-15T20:00:00Z'));
  });

  it('maps pre-2015 Saturday expiration dates to the Friday settlement', () => {
    // January 2013 monthlies carried the date 2013-01-19 (Saturday) in OCC symbols.
    expect(settlementInstant('AAPL', '2013-01-19')).toBe(Date.parse('2013-01-18T21:00:00Z'));
    expect(settlementInstant('SPX', '2013-01-19')).toBe(Date.parse('2013-01-18T14:30:00Z'));
  });

  it('rejects malformed dates', () => {
    for (const bad of ['2024-13-01', '2024-02-30', '20241220', '2024-12-20T00:00', '']) {
      expect(() => settlementInstant('SPX', bad), bad).toThrow(RangeError);
    }
  });
});

describe('yearsToSettlement', () => {
  it('counts ACT/365 calendar time to the settlement instant', () => {
    expect(MS_PER_YEAR).toBe(31_536_000_000);
    const settle = Date.parse('2024-12-20T21:00:00Z');
    expect(yearsToSettlement(settle - 86_400_000, 'SPXW', '2024-12-20')).toBeCloseTo(1 / 365, 15);
    // A 0DTE SPXW at 10:00 ET has six hours left.
    expect(yearsToSettlement(Date.parse('2024-12-20T15:00:00Z'), 'SPXW', '2024-12-20')).toBeCloseTo(6 / 8760, 15);
  });

  it('is zero at and negative after settlement', () => {
    const am = Date.parse('2024-12-20T14:30:00Z');
    expect(yearsToSettlement(am, 'SPX', '2024-12-20')).toBe(0);
    // Same date, same instant: at noon ET the AM root has settled while the PM weekly has four hours left.
    const noon = Date.parse('2024-12-20T17:00:00Z');
    expect(yearsToSettlement(noon, 'SPX', '2024-12-20')).toBeLessThan(0);
    expect(yearsToSettlement(noon, 'SPXW', '2024-12-20')).toBeCloseTo(4 / 8760, 15);
  });
});
