/**
 * The hand chain of the positioning tests: two expirations of a 100.5 underlying, a few strikes,
 * small enough to work by hand (key-levels.test.ts carries the independent script its figures come
 * from). The first expiration is the trading date's (0DTE), valued six hours before its close.
 */
import type { PositioningContract } from './contracts.js';

export const S = 100.5;
export const RATE = 0.04;
export const Q = 0.01;
export const TRADING_DATE = '2026-11-20';
export const A = '2026-11-20'; // 0DTE: valued at 10:00 ET, PM-settled at 16:00, 6 hours
export const B = '2026-12-18'; // 28 days and 6 hours
export const TA = 6 / 8760;
export const TB = 28.25 / 365;

// strike: [volatility, call open interest, put open interest]
const CHAIN: [string, number, number, Record<number, [number, number, number]>][] = [
  [A, 0, TA, { 95: [0.3, 50, 700], 100: [0.22, 800, 900], 105: [0.2, 50, 600] }],
  [
    B,
    28,
    TB,
    {
      90: [0.26, 100, 2000],
      95: [0.23, 300, 3000],
      100: [0.2, 1500, 1800],
      102.5: [0.19, 900, 300],
      105: [0.18, 2500, 400],
      110: [0.17, 1200, 100],
    },
  ],
];

export function handChain(): PositioningContract[] {
  const contracts: PositioningContract[] = [];
  for (const [dateOfExpiry, daysToExpiry, time, strikes] of CHAIN) {
    for (const [strike, [volatility, callOi, putOi]] of Object.entries(strikes)) {
      for (const [type, openInterest] of [
        ['call', callOi],
        ['put', putOi],
      ] as const) {
        contracts.push({
          dateOfExpiry,
          daysToExpiry,
          strike: Number(strike),
          type,
          multiplier: 100,
          openInterest,
          time,
          volatility,
          dividendYield: Q,
        });
      }
    }
  }
  return contracts;
}
