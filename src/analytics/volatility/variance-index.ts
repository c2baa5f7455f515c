/**
 * A volatility index at any tenor by the method of Cboe's VIX white paper: the model-free variance
 * of each expiration from its out-of-the-money option midpoints, interpolated in minutes to the
 * tenor. Sources: Cboe, "VIX White Paper" (2003, revised through 2019) and its successors "Cboe
 * Volatility Index Methodology" and "Cboe Volatility Index Mathematics Methodology"; the replication
 * argument is K. Demeterfi, E. Derman, M. Kamal and J. Zou, "More than you ever wanted to know about
 * volatility swaps", Goldman Sachs Quantitative Strategies Research Notes (1999). The result is a
 * model computed from the quotes it is given, never Cboe's published index.
 *
 * To reproduce a figure from what a result carries, for each expiration used:
 * 1. Minutes N from the valuation instant to the expiration's settlement instant, counted on the New
 *    York wall clock as the white paper counts them: N = M_current_day + M_settlement_day +
 *    M_other_days (minutes left in today, minutes from midnight to settlement on the expiration date,
 *    1,440 for each day between). Across a daylight-saving change this differs by 60 from the elapsed
 *    minutes. T = N / 525,600. The settlement instant is an input: AM-settled SPX monthlies settle at
 *    the 09:30 ET open, PM-settled SPXW at the 16:00 ET close (settlement.ts settlementInstant).
 *    N may be fractional (a valuation at 10:45:15); Cboe's examples count whole minutes.
 * 2. Mid of a quote: (bid + ask)/2 when the bid is above zero, the ask present and not below the
 *    bid (quotes.ts midPrice); any other quote has no mid and counts as "a zero bid" (the white paper
 *    names zero bids; a missing or crossed ask is treated the same).
 * 3. Forward: at the strike K* where |C − P| of the call and put mids is smallest (the lowest such
 *    strike on a tie), F = K* + e^{RT}(C − P). K0 is the greatest listed strike at or below F.
 * 4. Strikes: K0 with Q(K0) = (C + P)/2 of its mids (both required); below K0 the puts, walking
 *    down, above K0 the calls, walking up, each listed quote of that side taken in strike order. A
 *    quote without a mid is skipped; after two consecutive such quotes the walk stops and no further
 *    strike on that side is used, whatever its quote. Q(K) is the included quote's mid.
 * 5. ΔK_i = (K_{i+1} − K_{i−1})/2 over the included strikes (a skipped strike leaves a wider gap);
 *    at the lowest and highest included strike, the distance to the one neighbour.
 * 6. σ² = (2/T) Σ ΔK_i/K_i² e^{RT} Q(K_i) − (1/T)(F/K0 − 1)². Each strike's contribution is
 *    ΔK_i/K_i² e^{RT} Q(K_i); `sum` is their total.
 * 7. At a tenor of N_tenor minutes, with the near term N_T1 < N_tenor ≤ N_T2:
 *    index = 100 × sqrt{[T1σ1²(N_T2 − N_tenor)/(N_T2 − N_T1) + T2σ2²(N_tenor − N_T1)/(N_T2 − N_T1)]
 *    × N_year/N_tenor}, N_year = 525,600 (30d is 43,200, 9d 12,960, 1d 1,440 minutes).
 *
 * Which expirations. The caller passes the expirations the index may use; the white paper's are the
 * SPX standard (AM, third Friday) and weekly (PM) expirations, which a tenor of 30 days brackets with
 * a near term of more than 23 and a next term of less than 37 days because one expires every week.
 * The near term is the latest expiration settling before the tenor, the next term the first at or
 * after it (a term exactly at the tenor takes the whole weight). Expirations settled, or closer than
 * `minimumMinutes`, are not used. Short tenors (1d, 9d) bracket the same way among the daily
 * expirations the caller includes. Where no expiration settles before the tenor (a 1d index on a
 * Friday evening: the next expiration is Monday's), the index uses the nearest term alone, its
 * variance held flat from now: this is the formula with a near term of zero minutes and zero
 * variance, and the result says `method: 'nearest_term'`. Where no expiration settles at or after
 * the tenor, there is nothing to interpolate towards and the index is refused
 * (`no_expiration_beyond_tenor`): the method does not extrapolate past its longest term.
 *
 * Rates. R is a continuously compounded rate per expiration, an input. Cboe uses U.S. Treasury
 * constant-maturity bond-equivalent yields, interpolated by a cubic spline to each expiration and
 * converted to continuous compounding; this service passes the continuous rate of its own rate table
 * (rates.ts riskFreeRate: one rate per month, the same for every expiration) instead. The rate enters through e^{RT} (the sum and F): a rate 0.25% apart
 * moves a 30-day index by about 1e-4 of itself (0.002 points at 20).
 *
 * Refusals are values, not exceptions: every failure names its reason.
 */
import { newYorkOffsetMs } from '../new-york-time.js';
import { MINUTES_PER_YEAR } from './constant-maturity.js';
import { midPrice, type ChainQuote } from './quotes.js';

export { MINUTES_PER_YEAR };

/** The named tenors in minutes. */
export const TENOR_MINUTES = { '1d': 1_440, '9d': 12_960, '30d': 43_200 } as const;

const TENOR = /^(\d{1,7})(d|m)$/;

/** Minutes of a tenor written `<n>d` (calendar days) or `<n>m` (minutes), n a positive integer; null otherwise. */
export function parseTenor(text: string): number | null {
  const m = TENOR.exec(text.trim());
  if (m === null) return null;
  const n = Number(m[1]);
  if (!(n > 0)) return null;
  return m[2] === 'd' ? n * 1_440 : n;
}

/** One expiration's quotes and what discounts them. */
export interface VarianceExpiration {
  /** The caller's name for the expiration (e.g. 'SPXW 2026-12-18'), carried into the result. */
  id: string;
  /** Unix ms of the settlement instant (09:30 ET for an AM-settled monthly, the close for PM). */
  settlesAt: number;
  /** Continuously compounded rate to settlement, ACT/365. */
  rate: number;
  quotes: readonly ChainQuote[];
}

export type VarianceRefusalReason =
  | 'invalid_input'
  | 'settled'
  | 'no_parity_strike'
  | 'forward_below_strikes'
  | 'k0_unpriced'
  | 'empty_wing'
  | 'negative_variance'
  | 'no_expiration_beyond_tenor';

export interface VarianceRefusal {
  ok: false;
  reason: VarianceRefusalReason;
  /** A sentence naming the expiration and what was missing. */
  detail: string;
}

/** One included strike of the sum. */
export interface StrikeContribution {
  strike: number;
  /** Which quote priced it: the put below K0, the call above, their average at K0. */
  option: 'put' | 'call' | 'put_call_average';
  /** Q(K): the mid (the average of both mids at K0). */
  price: number;
  deltaK: number;
  /** ΔK/K² · e^{RT} · Q(K). */
  contribution: number;
}

/** The model-free variance of one expiration, with every input to reproduce it. */
export interface TermVariance {
  ok: true;
  id: string;
  settlesAt: number;
  /** N: wall-clock minutes to settlement (see the module comment). */
  minutes: number;
  /** T = N / 525,600. */
  time: number;
  rate: number;
  /** e^{RT}. */
  growth: number;
  /** The strike where |C − P| is smallest, and its call and put mids. */
  forwardStrike: number;
  forwardCall: number;
  forwardPut: number;
  /** F = K* + e^{RT}(C − P). */
  forward: number;
  k0: number;
  /** Included strikes in ascending order. */
  strikes: StrikeContribution[];
  /** Quotes the walks skipped (no mid) before they stopped or ran out, ascending. */
  skipped: { strike: number; type: ChainQuote['type'] }[];
  /** Where each walk stopped on its second consecutive zero bid (that strike); null when it ran off the chain. */
  putWalkStoppedAt: number | null;
  callWalkStoppedAt: number | null;
  /** Σ contributions. */
  sum: number;
  /** (1/T)(F/K0 − 1)². */
  forwardTerm: number;
  /** σ² = (2/T)·sum − forwardTerm (annualised). */
  variance: number;
  /** 100 × sqrt(σ²): the expiration's own index value. */
  value: number;
}

/** Wall-clock minutes in New York from one instant to another: the white paper's M_current + M_settlement + M_other. */
export function wallClockMinutes(fromMs: number, toMs: number): number {
  return (toMs + newYorkOffsetMs(toMs) - (fromMs + newYorkOffsetMs(fromMs))) / 60_000;
}

interface StrikeQuotes {
  strike: number;
  /** undefined: no quote of that side at the strike; null: a quote without a mid. */
  call: number | null | undefined;
  put: number | null | undefined;
}

/** The chain by strike, ascending; the last quote of a side at a strike wins. */
function byStrike(quotes: readonly ChainQuote[]): StrikeQuotes[] {
  const rows = new Map<number, StrikeQuotes>();
  for (const q of quotes) {
    if (!(q.strike > 0) || !Number.isFinite(q.strike)) continue;
    let row = rows.get(q.strike);
    if (row === undefined) {
      row = { strike: q.strike, call: undefined, put: undefined };
      rows.set(q.strike, row);
    }
    row[q.type] = midPrice(q.bid, q.ask);
  }
  return [...rows.values()].sort((a, b) => a.strike - b.strike);
}

function refuse(reason: VarianceRefusalReason, detail: string): VarianceRefusal {
  return { ok: false, reason, detail };
}

interface Walk {
  included: { strike: number; price: number }[];
  skipped: number[];
  stoppedAt: number | null;
}

/** Walks one side's quotes in the given order: skip a quote without a mid, stop at the second in a row. */
function walk(rows: readonly StrikeQuotes[], side: 'call' | 'put'): Walk {
  const included: Walk['included'] = [];
  const skipped: number[] = [];
  let run = 0;
  for (const row of rows) {
    const mid = row[side];
    if (mid === undefined) continue;
    if (mid === null) {
      run += 1;
      if (run === 2) return { included, skipped, stoppedAt: row.strike };
      skipped.push(row.strike);
      continue;
    }
    run = 0;
    included.push({ strike: row.strike, price: mid });
  }
  return { included, skipped, stoppedAt: null };
}

/** The strike where |C − P| is smallest among strikes with both mids (the lowest on a tie). */
function parityStrike(rows: readonly StrikeQuotes[]): { strike: number; call: number; put: number } | null {
  let best: { strike: number; call: number; put: number } | null = null;
  for (const r of rows) {
    if (typeof r.call !== 'number' || typeof r.put !== 'number') continue;
    if (best === null || Math.abs(r.call - r.put) < Math.abs(best.call - best.put)) best = { strike: r.strike, call: r.call, put: r.put };
  }
  return best;
}

/** ΔK over the included strikes: half the distance between the neighbours, one-sided at the ends. */
export function strikeIntervals(strikes: readonly number[]): number[] {
  const n = strikes.length;
  return strikes.map((k, i) => {
    if (n === 1) return 0;
    const below = i === 0 ? k : (strikes[i - 1] as number);
    const above = i === n - 1 ? k : (strikes[i + 1] as number);
    return i === 0 || i === n - 1 ? above - below : (above - below) / 2;
  });
}

/** The model-free variance of one expiration valued at `valuedAt` (unix ms); steps 1 to 6 of the module comment. */
export function termVariance(expiration: VarianceExpiration, valuedAt: number): TermVariance | VarianceRefusal {
  const { id, settlesAt, rate } = expiration;
  if (![valuedAt, settlesAt, rate].every(Number.isFinite))
    return refuse('invalid_input', `${id}: valuation instant, settlement instant and rate must be finite`);
  const minutes = wallClockMinutes(valuedAt, settlesAt);
  if (!(minutes > 0)) return refuse('settled', `${id}: settled at or before the valuation instant`);
  const time = minutes / MINUTES_PER_YEAR;
  const growth = Math.exp(rate * time);
  const rows = byStrike(expiration.quotes);

  const parity = parityStrike(rows);
  if (parity === null) return refuse('no_parity_strike', `${id}: no strike has both a call and a put mid`);
  const forward = parity.strike + growth * (parity.call - parity.put);
  const k0Index = rows.findLastIndex((r) => r.strike <= forward);
  if (k0Index < 0) return refuse('forward_below_strikes', `${id}: the forward ${forward} is below every listed strike`);
  const k0Row = rows[k0Index] as StrikeQuotes;
  const k0 = k0Row.strike;
  if (typeof k0Row.call !== 'number' || typeof k0Row.put !== 'number')
    return refuse('k0_unpriced', `${id}: K0 ${k0} lacks a call or a put mid`);

  const puts = walk(rows.slice(0, k0Index).reverse(), 'put');
  const calls = walk(rows.slice(k0Index + 1), 'call');
  if (puts.included.length === 0 || calls.included.length === 0)
    return refuse('empty_wing', `${id}: no out-of-the-money ${puts.included.length === 0 ? 'put' : 'call'} with a bid`);

  const chosen = [
    ...puts.included.reverse().map((p) => ({ ...p, option: 'put' as const })),
    { strike: k0, price: (k0Row.call + k0Row.put) / 2, option: 'put_call_average' as const },
    ...calls.included.map((c) => ({ ...c, option: 'call' as const })),
  ];
  const intervals = strikeIntervals(chosen.map((c) => c.strike));
  let sum = 0;
  const strikes: StrikeContribution[] = chosen.map((c, i) => {
    const deltaK = intervals[i] as number;
    const contribution = (deltaK / (c.strike * c.strike)) * growth * c.price;
    sum += contribution;
    return { strike: c.strike, option: c.option, price: c.price, deltaK, contribution };
  });
  const forwardTerm = (forward / k0 - 1) ** 2 / time;
  const variance = (2 / time) * sum - forwardTerm;
  if (!(variance > 0)) return refuse('negative_variance', `${id}: the variance ${variance} is not positive`);

  const skipped = [
    ...puts.skipped.map((strike) => ({ strike, type: 'put' as const })),
    ...calls.skipped.map((strike) => ({ strike, type: 'call' as const })),
  ].sort((a, b) => a.strike - b.strike);
  return {
    ok: true,
    id,
    settlesAt,
    minutes,
    time,
    rate,
    growth,
    forwardStrike: parity.strike,
    forwardCall: parity.call,
    forwardPut: parity.put,
    forward,
    k0,
    strikes,
    skipped,
    putWalkStoppedAt: puts.stoppedAt,
    callWalkStoppedAt: calls.stoppedAt,
    sum,
    forwardTerm,
    variance,
    value: 100 * Math.sqrt(variance),
  };
}

/** The weights of the near and next term at a tenor (step 7): (N_T2 − N)/(N_T2 − N_T1) and (N − N_T1)/(N_T2 − N_T1). */
export function interpolationWeights(nearMinutes: number, nextMinutes: number, tenorMinutes: number): { near: number; next: number } {
  const span = nextMinutes - nearMinutes;
  return { near: (nextMinutes - tenorMinutes) / span, next: (tenorMinutes - nearMinutes) / span };
}

/** The annualised variance at the tenor from two terms' (minutes, σ²); a null near term is one of zero minutes and variance. */
export function interpolatedVariance(
  near: { minutes: number; variance: number } | null,
  next: { minutes: number; variance: number },
  tenorMinutes: number,
): number {
  const n1 = near?.minutes ?? 0;
  const w = interpolationWeights(n1, next.minutes, tenorMinutes);
  const t1 = n1 / MINUTES_PER_YEAR;
  const t2 = next.minutes / MINUTES_PER_YEAR;
  const totalNear = near === null ? 0 : t1 * near.variance;
  return (totalNear * w.near + t2 * next.variance * w.next) * (MINUTES_PER_YEAR / tenorMinutes);
}

export interface VarianceIndexInput {
  /** Unix ms of the valuation instant (the quotes' snapshot). */
  valuedAt: number;
  /** Tenor in minutes (TENOR_MINUTES, parseTenor). */
  tenorMinutes: number;
  /** The expirations the index may use (see the module comment: which expirations). */
  expirations: readonly VarianceExpiration[];
  /** Expirations settling fewer than this many minutes away are not used (default 0). */
  minimumMinutes?: number;
}

export interface VarianceIndex {
  ok: true;
  tenorMinutes: number;
  /** bracket: a near and a next term; nearest_term: no expiration settles before the tenor. */
  method: 'bracket' | 'nearest_term';
  near: TermVariance | null;
  next: TermVariance;
  weights: { near: number; next: number };
  /** Annualised variance at the tenor. */
  variance: number;
  /** 100 × sqrt(variance). */
  value: number;
}

/** Which expirations bracket the tenor: the latest settling before it and the first at or after it. */
export function bracketExpirations(
  valuedAt: number,
  tenorMinutes: number,
  expirations: readonly VarianceExpiration[],
  minimumMinutes = 0,
): { near: VarianceExpiration | null; next: VarianceExpiration | null } {
  let near: { e: VarianceExpiration; n: number } | null = null;
  let next: { e: VarianceExpiration; n: number } | null = null;
  for (const e of expirations) {
    const n = wallClockMinutes(valuedAt, e.settlesAt);
    if (!(n > 0) || n < minimumMinutes) continue;
    if (n < tenorMinutes && (near === null || n > near.n)) near = { e, n };
    if (n >= tenorMinutes && (next === null || n < next.n)) next = { e, n };
  }
  return { near: near?.e ?? null, next: next?.e ?? null };
}

/** The volatility index at a tenor (module comment, steps 1 to 7). */
export function varianceIndex(input: VarianceIndexInput): VarianceIndex | VarianceRefusal {
  const { valuedAt, tenorMinutes } = input;
  if (!Number.isFinite(valuedAt) || !(tenorMinutes > 0) || !Number.isFinite(tenorMinutes))
    return refuse('invalid_input', 'the valuation instant must be finite and the tenor positive');
  const pair = bracketExpirations(valuedAt, tenorMinutes, input.expirations, input.minimumMinutes ?? 0);
  if (pair.next === null)
    return refuse('no_expiration_beyond_tenor', `no expiration settles ${tenorMinutes} minutes or more after the valuation instant`);
  const next = termVariance(pair.next, valuedAt);
  if (!next.ok) return next;
  let near: TermVariance | null = null;
  if (pair.near !== null) {
    const computed = termVariance(pair.near, valuedAt);
    if (!computed.ok) return computed;
    near = computed;
  }
  const weights = interpolationWeights(near?.minutes ?? 0, next.minutes, tenorMinutes);
  const variance = interpolatedVariance(near, next, tenorMinutes);
  return {
    ok: true,
    tenorMinutes,
    method: near === null ? 'nearest_term' : 'bracket',
    near,
    next,
    weights,
    variance,
    value: 100 * Math.sqrt(variance),
  };
}

/** One point of the term structure: an expiration's own index 100 × sqrt(σ²), or why it has none. */
export type TermStructurePoint =
  | { id: string; settlesAt: number; minutes: number; ok: true; variance: number; value: number }
  | { id: string; settlesAt: number; minutes: number; ok: false; reason: VarianceRefusalReason; detail: string };

/** Every unsettled expiration's own value, nearest first (settled ones are left out). */
export function varianceTermStructure(valuedAt: number, expirations: readonly VarianceExpiration[]): TermStructurePoint[] {
  return expirations
    .map((e) => ({ e, minutes: wallClockMinutes(valuedAt, e.settlesAt) }))
    .filter(({ minutes }) => minutes > 0)
    .sort((a, b) => a.minutes - b.minutes)
    .map(({ e, minutes }) => {
      const term = termVariance(e, valuedAt);
      const head = { id: e.id, settlesAt: e.settlesAt, minutes };
      return term.ok
        ? { ...head, ok: true as const, variance: term.variance, value: term.value }
        : { ...head, ok: false as const, reason: term.reason, detail: term.detail };
    });
}
