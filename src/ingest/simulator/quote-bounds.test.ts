/**
 * A property of every quote of a whole simulated day: its midpoint (its ask when it has no bid)
 * lies within the static no-arbitrage bounds of a European option at the close of the
 * underlying's bar of its minute, the price the service pairs a minute's sample with
 * (iv-samples.ts ivSample): at or above the discounted intrinsic value max(0, ±(S·e^{−qT} −
 * K·e^{−rT})), at or below S·e^{−qT} (call) or K·e^{−rT} (put), with T from the quote's timestamp
 * to the contract's settlement, r and q those of rates.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseOccSymbol } from '../../analytics/occ.js';
import { dividendYield, riskFreeRate } from '../../analytics/rates.js';
import { MS_PER_YEAR, settlementInstant } from '../../analytics/settlement.js';
import { buildChain } from './chain.js';
import { simulateDay } from './day.js';
import { UNDERLYINGS } from './model.js';
import { SCALES } from './activity.js';
import { segmentsOf, simulatePaths } from './paths.js';
import { Prng } from './prng.js';

interface Breach {
  line: string;
  spot: number;
  lower: number;
  upper: number;
}

interface Contract {
  type: 'call' | 'put';
  strike: number;
  settleMs: number;
  underlying: string;
  dividendYield: number;
}

/** Every quote of one simulated trading date (chain snapshots included) checked against its bounds. */
async function checkDay(date: string, seed: number): Promise<{ checked: number; breaches: Breach[] }> {
  const rng = new Prng(seed);
  const scale = SCALES.default;
  const chain = buildChain([date], scale);
  const paths = simulatePaths(segmentsOf(date), rng.fork('paths'));
  const contracts = new Map<string, Contract>();
  for (const e of chain.expirations) {
    for (let id = e.firstId; id < e.firstId + 2 * e.strikes.length; id += 1) {
      const c = parseOccSymbol(chain.symbols[id]!);
      contracts.set(chain.symbols[id]!, {
        type: c.type,
        strike: c.strike,
        settleMs: settlementInstant(c.root, c.dateOfExpiry),
        underlying: e.underlying.symbol,
        dividendYield: dividendYield(e.underlying.symbol),
      });
    }
  }
  const rate = riskFreeRate(date);
  const breaches: Breach[] = [];
  let checked = 0;
  const day = simulateDay({
    chain,
    scale,
    rng,
    tradingDate: date,
    paths,
    rate,
    dividends: UNDERLYINGS.map((u) => dividendYield(u.symbol)),
    now: Number.MAX_SAFE_INTEGER,
    snapshots: true,
    quotes: true,
    volume: new Int32Array(chain.count),
  });
  for (const minute of day) {
    const closes = new Map<string, number>();
    for (const b of minute.bars) {
      const v = b.split(',');
      closes.set(v[0]!, Number(v[5]));
    }
    for (const line of minute.quotes) {
      const [symbol, ts, bidText, askText] = line.split(',') as [string, string, string, string];
      const c = contracts.get(symbol)!;
      const spot = closes.get(c.underlying);
      if (spot === undefined) continue; // no bar this minute (an index outside its hours)
      const years = Math.max(0, (c.settleMs - Number(ts)) / MS_PER_YEAR);
      const s = spot * Math.exp(-c.dividendYield * years);
      const k = c.strike * Math.exp(-rate * years);
      const lower = Math.max(0, c.type === 'call' ? s - k : k - s);
      const upper = c.type === 'call' ? s : k;
      const ask = Number(askText);
      const centre = bidText === '' ? ask : (Number(bidText) + ask) / 2;
      checked += 1;
      if (centre < lower - 1e-9 || centre > upper + 1e-9) breaches.push({ line, spot, lower, upper });
    }
    // Lets the test runner's messages through between minutes.
    if (minute.minute % 60 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return { checked, breaches };
}

describe('simulated quotes over a whole day', async () => {
  it('keep every midpoint within the no-arbitrage bounds at the bar close of their minute (a regular day)', async () => {
    const { checked, breaches } = await checkDay('2026-11-25', 11);
    expect(checked).toBeGreaterThan(100_000);
    expect(breaches.slice(0, 5)).toEqual([]);
  }, 120_000);

  it('keep every midpoint within the bounds on an early-close day (2026-11-27)', async () => {
    const { checked, breaches } = await checkDay('2026-11-27', 12);
    expect(checked).toBeGreaterThan(50_000);
    expect(breaches.slice(0, 5)).toEqual([]);
  }, 120_000);
});
