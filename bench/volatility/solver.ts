/**
 * The implied-volatility solver alone (pricing.ts), in process, against the Black price evaluation
 * it inverts, measured in the same run: a chain shaped like the simulated SPXW snapshot (43
 * expirations from 0.2 to 546 days, 191 strikes each across ±2.4 standard deviations, calls and
 * puts: 16,426 contracts) with mids on a 0.05/0.10 tick, solved one quote at a time.
 * - baseline: bsmPrice of every contract at its model volatility (one Black price each);
 * - blackImpliedVolatility of every mid (the chain's path: e^{−rT} once per expiration);
 * - impliedVolatility of every mid (the general entry point, one argument object per quote).
 * Reports wall-clock and CPU p50 per pass and the ratio of each to the baseline; the ratio is what
 * to compare across machines (the solver's cost in Black prices). BENCH_SECONDS (10) bounds the run.
 * Also checks the solver on the out-of-the-money legs' model prices: the largest relative error in σ.
 */
import os from 'node:os';
import { bsmPrice, type OptionType } from '../../src/analytics/pricing.js';
import { blackImpliedVolatility, impliedVolatility } from '../../src/analytics/implied-volatility.js';
import { DURATION, quantile } from '../support.js';

const FORWARD = 6600;
const RATE = 0.04;
const DAYS = [
  0.2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 24, 28, 31, 35, 42, 49, 56, 63, 77, 91, 105, 119, 147,
  182, 210, 245, 273, 301, 364, 455, 546,
];
const STRIKES_PER_EXPIRATION = 191;

interface Quote {
  type: OptionType;
  strike: number;
  time: number;
  discount: number;
  volatility: number;
  model: number;
  mid: number;
}

const quotes: Quote[] = [];
for (const days of DAYS) {
  const time = days / 365;
  const width = 2.4 * 2 * Math.sqrt(time + 0.01);
  for (let i = 0; i < STRIKES_PER_EXPIRATION; i++) {
    const strike = Math.round((FORWARD * Math.exp(-width / 2 + (i * width) / (STRIKES_PER_EXPIRATION - 1))) / 5) * 5;
    const k = Math.log(strike / FORWARD);
    const volatility = 0.16 - 0.25 * k + 0.8 * k * k; // a skewed smile
    for (const type of ['call', 'put'] as const) {
      const model = bsmPrice({ type, spot: FORWARD, strike, time, rate: RATE, dividendYield: RATE, volatility });
      const tick = model < 3 ? 0.05 : 0.1;
      const bid = Math.floor(model / tick) * tick;
      const ask = Math.ceil(model / tick + 0.5) * tick;
      quotes.push({ type, strike, time, discount: Math.exp(-RATE * time), volatility, model, mid: 0.5 * (bid + ask) });
    }
  }
}

let sink = 0;
const price = (): void => {
  for (const q of quotes)
    sink += bsmPrice({
      type: q.type,
      spot: FORWARD,
      strike: q.strike,
      time: q.time,
      rate: RATE,
      dividendYield: RATE,
      volatility: q.volatility,
    });
};
const solveForward = (): void => {
  for (const q of quotes) sink += blackImpliedVolatility(q.type, q.mid, FORWARD, q.strike, q.time, q.discount) ?? 0;
};
const solveGeneral = (): void => {
  for (const q of quotes)
    sink +=
      impliedVolatility({ type: q.type, price: q.mid, spot: FORWARD, strike: q.strike, time: q.time, rate: RATE, dividendYield: RATE }) ??
      0;
};

// The three passes interleaved, so that a busy machine slows them alike.
const passes = { price, solveForward, solveGeneral };
const wall: Record<keyof typeof passes, number[]> = { price: [], solveForward: [], solveGeneral: [] };
const cpu: Record<keyof typeof passes, number[]> = { price: [], solveForward: [], solveGeneral: [] };
for (let i = 0; i < 5; i++) for (const pass of Object.values(passes)) pass();
const until = performance.now() + DURATION * 1000;
while (performance.now() < until) {
  for (const [name, pass] of Object.entries(passes) as [keyof typeof passes, () => void][]) {
    const c = process.cpuUsage();
    const t = performance.now();
    pass();
    wall[name].push(performance.now() - t);
    cpu[name].push(process.cpuUsage(c).user / 1000);
  }
}

let worst = 0;
let solved = 0;
for (const q of quotes) {
  // Out-of-the-money legs with a normal-double price: an in-the-money price is mostly intrinsic value
  // and pins σ only to ε·price/vega (pricing.test.ts bounds both).
  if ((q.type === 'call') !== q.strike >= FORWARD || !(q.model > 1e-300)) continue;
  const iv = blackImpliedVolatility(q.type, q.model, FORWARD, q.strike, q.time, q.discount);
  if (iv === null) continue;
  solved++;
  worst = Math.max(worst, Math.abs(iv - q.volatility) / q.volatility);
}

const p50 = (values: number[]): number => quantile(values, 0.5);
const line = (label: string, name: keyof typeof passes): string =>
  `  ${label.padEnd(46)} wall p50 ${p50(wall[name]).toFixed(2)} ms (${((p50(wall[name]) * 1000) / quotes.length).toFixed(3)} µs each)   cpu p50 ${p50(cpu[name]).toFixed(2)} ms   ratio to the Black price ${(p50(wall[name]) / p50(wall.price)).toFixed(2)} (cpu ${(p50(cpu[name]) / p50(cpu.price)).toFixed(2)})`;
process.stdout.write(
  [
    `implied-volatility solver: node ${process.version}, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end`,
    `${quotes.length} contracts of an SPXW-shaped chain (${DAYS.length} expirations), ${wall.price.length} passes each:`,
    line('baseline: Black price of each (bsmPrice)', 'price'),
    line('blackImpliedVolatility of each mid', 'solveForward'),
    line('impliedVolatility of each mid', 'solveGeneral'),
    `  on the unrounded model prices of the out-of-the-money legs: ${solved} solved, largest relative error in σ ${worst.toExponential(1)}`,
    '',
  ].join('\n'),
);
if (!Number.isFinite(sink)) process.stdout.write('(unreachable: keeps the passes from being optimised away)\n');
