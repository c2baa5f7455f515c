/**
 * A simulated chain for property tests: two expirations (5 and 40 days) of a 100 underlying quoted
 * from known SVI smiles (volatility/chain.fixtures.ts), valued on the surface fitted to those quotes
 * (surface.ts buildSurface, contracts.ts contractVolatility), with open interest and customer flow
 * drawn from a seeded generator and positions under flow_adjusted, so the net gamma changes sign.
 */
import { strikeRange, sviChain, uniformNoise, type ChainSpec } from '../volatility/chain.fixtures.js';
import { buildSurface } from '../volatility/surface.js';
import type { SviParameters } from '../volatility/svi.js';
import { contractVolatility, impliedDividendYield, valueContracts, type PositioningContract, type ValuedContract } from './contracts.js';

export const SIMULATED_MARKET = { spot: 100, rate: 0.04, dividendYield: 0.015 } as const;

const { spot, rate, dividendYield } = SIMULATED_MARKET;

/** A two-expiration chain priced from known SVI smiles, valued on its own fitted surface, random open interest and flow. */
export function simulatedChain(seed: number): ValuedContract[] {
  const noise = uniformNoise(seed);
  const perYear: SviParameters = { a: 0.016, b: 0.2, rho: -0.5, m: 0.02, sigma: 0.1 };
  const times = [5 / 365, 40 / 365];
  const strikes = strikeRange(70, 130, 2.5);
  const spec = (time: number): ChainSpec => ({
    spot,
    rate,
    dividendYield,
    time,
    smile: { ...perYear, a: perYear.a * time, b: perYear.b * time },
    strikes,
  });
  const surface = buildSurface({ spot, rate, expirations: times.map((time) => ({ time, quotes: sviChain(spec(time)) })) });
  const contracts: PositioningContract[] = [];
  surface.forEach((e, i) => {
    const forward = e.forward?.forward ?? null;
    for (const strike of strikes) {
      for (const type of ['call', 'put'] as const) {
        contracts.push({
          dateOfExpiry: i === 0 ? '2026-11-25' : '2026-12-30',
          daysToExpiry: i === 0 ? 5 : 40,
          strike,
          type,
          multiplier: 100,
          openInterest: Math.round(2500 * (1 + noise())),
          time: e.time,
          volatility: contractVolatility(e.smile, forward, strike),
          dividendYield: forward === null ? 0 : impliedDividendYield(spot, forward, rate, e.time),
          flow: { bought: Math.round(1500 * (1 + noise())), sold: Math.round(1500 * (1 + noise())) },
        });
      }
    }
  });
  return valueContracts(contracts, { spot, rate }, 'flow_adjusted');
}
