import { describe, expect, it } from 'vitest';
import { openInterestRows, putCallRatio, selectExpirationDates, selectStrikes } from './selection.js';

const DAY = '2026-11-20';
// Friday DAY, the next Monday, Wednesday, Friday, the December monthly, a long-dated one.
const LISTED = ['2026-11-19', DAY, '2026-11-23', '2026-11-25', '2026-11-27', '2026-12-18', '2027-03-19', '2027-06-17'];

describe('selectExpirationDates', () => {
  const pick = (s: Parameters<typeof selectExpirationDates>[2]): string[] => selectExpirationDates(LISTED, DAY, s);

  it('keeps the listed dates on or after the trading date, each mode by its definition', () => {
    expect(pick({})).toEqual(LISTED.slice(1));
    expect(pick({ expiry_mode: '0dte' })).toEqual([DAY]);
    expect(pick({ expiry_mode: '1dte' })).toEqual(['2026-11-23']);
    expect(pick({ expiry_mode: 'weekly' })).toEqual([DAY, '2026-11-23', '2026-11-25', '2026-11-27']);
    // 2027-06-17: the Thursday before Juneteenth (Friday 2027-06-18) is June's monthly.
    expect(pick({ expiry_mode: 'monthly' })).toEqual([DAY, '2026-12-18', '2027-03-19', '2027-06-17']);
    expect(pick({ expiry_mode: 'lte30' })).toEqual([DAY, '2026-11-23', '2026-11-25', '2026-11-27', '2026-12-18']);
    expect(pick({ expiry_mode: 'lte90' })).toEqual([DAY, '2026-11-23', '2026-11-25', '2026-11-27', '2026-12-18']);
  });

  it('intersects every selector; unlisted named dates are ignored', () => {
    expect(pick({ expirations: ['2026-11-23', '2026-11-24', '2026-12-18'], max_dte: 7 })).toEqual(['2026-11-23']);
    expect(pick({ min_dte: 3, max_dte: 7 })).toEqual(['2026-11-23', '2026-11-25', '2026-11-27']);
    expect(pick({ date_of_expiry: '2026-12-18', expiry_mode: 'weekly' })).toEqual([]);
  });
});

describe('selectStrikes', () => {
  const strikes = [90, 95, 100, 105, 110, 115];

  it('strikes_around counts listed strikes either side of the nearest (the lower on a tie)', () => {
    expect([...selectStrikes(strikes, 101, { strikes_around: 1 })]).toEqual([95, 100, 105]);
    expect([...selectStrikes(strikes, 102.5, { strikes_around: 1 })]).toEqual([95, 100, 105]);
    expect([...selectStrikes(strikes, 200, { strikes_around: 2 })]).toEqual([105, 110, 115]);
  });

  it('applies the percent window inclusively and with bounds', () => {
    expect([...selectStrikes(strikes, 100, { strike_percent_window: 10 })]).toEqual([90, 95, 100, 105, 110]);
    expect([...selectStrikes(strikes, 100, { strike_percent_window: 10, min_strike: 95, strikes_around: 1 })]).toEqual([95, 100, 105]);
  });
});

describe('openInterestRows', () => {
  it('sums calls and puts by strike or expiration, ascending, with totals and the put/call ratio', () => {
    const contracts = [
      { dateOfExpiry: '2026-12-18', strike: 100, type: 'call' as const, openInterest: 5 },
      { dateOfExpiry: DAY, strike: 100, type: 'put' as const, openInterest: 7 },
      { dateOfExpiry: DAY, strike: 95, type: 'call' as const, openInterest: 2 },
    ];
    expect(openInterestRows(contracts, 'strike')).toEqual({
      rows: [
        { key: 95, call: 2, put: 0 },
        { key: 100, call: 5, put: 7 },
      ],
      call: 7,
      put: 7,
    });
    expect(openInterestRows(contracts, 'expiration').rows).toEqual([
      { key: DAY, call: 2, put: 7 },
      { key: '2026-12-18', call: 5, put: 0 },
    ]);
    expect(putCallRatio(4, 6)).toBe(1.5);
    expect(putCallRatio(0, 6)).toBeNull();
  });
});
