/**
 * The implied-volatility surface and the NBBO built on it.
 *
 * At-the-money term structure: the Heston expected average variance over the option's life,
 *   σ²_atm(T) = θ + (v − θ)·(1 − e^{−κT})/(κT)   (Gatheral, "The Volatility Surface", 2006, ch. 2),
 * times the variance risk premium factor vrp (implied above expected realised). v is the
 * underlying's instantaneous variance at the instant priced, so the surface moves with the path
 * (spot down, variance and implied volatility up: the leverage effect of rho < 0).
 * Smile and skew in standardised moneyness z = ln(K/F)/(σ_atm·√T), clamped to ±Z_CLAMP:
 *   σ(K, T) = σ_atm(T)·max(0.5, 1 + skew·z + curvature·z²),
 * a negative skew (index put skew) and a positive curvature (smile); because z scales with √T
 * the skew in strike terms is steep for short maturities and flattens with maturity, as observed.
 * Prices are Black-Scholes-Merton (pricing.ts bsmPrice) with the rate of rates.ts and the
 * underlying's dividend yield, on the time to the contract's settlement instant (settlement.ts).
 *
 * NBBO: half-spread h = ½(spreadRelative·value + spreadAbsolute), ×2.5 in GTH, ×1.8 in the curb,
 * ×(1 + 0.25·(|z| − 1.5)) beyond 1.5 standard deviations; bid = value − h rounded down to the tick,
 * ask = value + h rounded up, at least one tick apart; a bid below one tick is 0 (no bid).
 * No quote leaves the static no-arbitrage bounds of a European option at the spot it is priced at
 * (quoteBounds: the discounted intrinsic value max(0, ±(S·e^{−qT} − K·e^{−rT})) below, S·e^{−qT}
 * for a call and K·e^{−rT} for a put above): the lean and the rounding to the tick may not push the
 * midpoint out of them, so each quote moves by whole ticks until its midpoint (its ask, with no bid)
 * is within. Ticks follow the root's rule (model.ts TICKS_CENTS). Prices are kept in integer cents.
 */
import { bsmPrice, type OptionType } from '../../analytics/pricing.js';
import { TICKS_CENTS, Z_CLAMP, type TickRule, type UnderlyingSpec } from './model.js';

/** Shortest time priced (one minute, ACT/365): a contract in its last minute still has a value. */
export const MIN_YEARS = 1 / (365 * 24 * 60);

export function atmVolatility(spec: UnderlyingSpec, variance: number, years: number): number {
  const kt = spec.kappa * years;
  const factor = kt < 1e-8 ? 1 : (1 - Math.exp(-kt)) / kt;
  const expected = spec.theta + (variance - spec.theta) * factor;
  return spec.vrp * Math.sqrt(Math.max(expected, 1e-4));
}

export function smileVolatility(spec: UnderlyingSpec, atm: number, years: number, logMoneyness: number): number {
  const raw = logMoneyness / (atm * Math.sqrt(years));
  const z = Math.max(-Z_CLAMP, Math.min(Z_CLAMP, raw));
  return atm * Math.max(0.5, 1 + spec.skew * z + spec.curvature * z * z);
}

export interface Valuation {
  /** Model value in dollars. */
  value: number;
  /** Standardised moneyness ln(K/F)/(σ_atm·√T), unclamped. */
  z: number;
  volatility: number;
}

/** The static no-arbitrage bounds of a European option's price, in dollars. */
export interface QuoteBounds {
  /** The discounted intrinsic value: max(0, S·e^{−qT} − K·e^{−rT}) for a call, max(0, K·e^{−rT} − S·e^{−qT}) for a put. */
  lower: number;
  /** S·e^{−qT} for a call, K·e^{−rT} for a put. */
  upper: number;
}

/** The bounds of an option's price at a spot, T years before settlement (T ≤ 0 counts as 0). */
export function quoteBounds(i: {
  type: OptionType;
  spot: number;
  strike: number;
  years: number;
  rate: number;
  dividendYield: number;
}): QuoteBounds {
  const t = Math.max(i.years, 0);
  const s = i.spot * Math.exp(-i.dividendYield * t);
  const k = i.strike * Math.exp(-i.rate * t);
  return i.type === 'call' ? { lower: Math.max(0, s - k), upper: s } : { lower: Math.max(0, k - s), upper: k };
}

export interface PricingInputs {
  spec: UnderlyingSpec;
  type: OptionType;
  spot: number;
  strike: number;
  years: number;
  rate: number;
  dividendYield: number;
  variance: number;
}

export function valueOption(i: PricingInputs): Valuation {
  const years = Math.max(i.years, MIN_YEARS);
  const forward = i.spot * Math.exp((i.rate - i.dividendYield) * years);
  const atm = atmVolatility(i.spec, i.variance, years);
  const k = Math.log(i.strike / forward);
  const volatility = smileVolatility(i.spec, atm, years, k);
  const value = bsmPrice({
    type: i.type,
    spot: i.spot,
    strike: i.strike,
    time: years,
    rate: i.rate,
    dividendYield: i.dividendYield,
    volatility,
  });
  return { value, z: k / (atm * Math.sqrt(years)), volatility };
}

/** Tick in cents at a price in cents. */
export function tickAt(rule: TickRule, cents: number): number {
  const [below, above] = TICKS_CENTS[rule];
  return cents < 300 ? below : above;
}

/** True when a price in cents sits on the tick grid of its own level. */
export function onTick(rule: TickRule, cents: number): boolean {
  return cents % tickAt(rule, cents) === 0;
}

export interface Nbbo {
  /** Cents; 0 means no bid. */
  bid: number;
  ask: number;
}

export interface SpreadInputs {
  rule: TickRule;
  spreadRelative: number;
  spreadAbsolute: number;
  /** Session and moneyness widening, ≥ 1. */
  widen: number;
  /** Shift of the quote centre in half-spreads (quote noise, −0.3..0.3). */
  lean: number;
}

/** The NBBO around a value (see the header), its midpoint kept within `bounds` when given. */
export function nbboOf(value: number, s: SpreadInputs, bounds?: QuoteBounds): Nbbo {
  const half = 0.5 * (s.spreadRelative * value + s.spreadAbsolute) * s.widen;
  const centre = (value + s.lean * half) * 100;
  const lo = centre - half * 100;
  const hi = centre + half * 100;
  let bid = lo <= 0 ? 0 : Math.floor(lo / tickAt(s.rule, lo) + 1e-9) * tickAt(s.rule, lo);
  let ask = Math.max(Math.ceil(hi / tickAt(s.rule, hi) - 1e-9) * tickAt(s.rule, hi), tickAt(s.rule, 0));
  if (bid < tickAt(s.rule, 0)) bid = 0;
  if (ask <= bid) ask = bid + tickAt(s.rule, bid);
  if (!onTick(s.rule, ask)) ask = Math.ceil(ask / tickAt(s.rule, ask)) * tickAt(s.rule, ask);
  return bounds ? withinBounds({ bid, ask }, s.rule, bounds) : { bid, ask };
}

/** A price in cents one tick up, or down (0 below the smallest tick), on the grid of the level it reaches. */
function tickUp(rule: TickRule, cents: number): number {
  return cents + tickAt(rule, cents);
}
function tickDown(rule: TickRule, cents: number): number {
  const down = cents - tickAt(rule, cents - 1);
  return down < tickAt(rule, 0) ? 0 : down;
}

/**
 * Moves a quote by whole ticks until its midpoint (its ask when there is no bid) is within the
 * bounds: up while below the discounted intrinsic value, down while above the upper bound.
 */
function withinBounds(nbbo: Nbbo, rule: TickRule, bounds: QuoteBounds): Nbbo {
  let { bid, ask } = nbbo;
  const lower = bounds.lower * 100;
  const upper = bounds.upper * 100;
  const centre = (): number => (bid > 0 ? (bid + ask) / 2 : ask);
  while (centre() < lower - 1e-9) {
    if (bid > 0) bid = tickUp(rule, bid);
    ask = tickUp(rule, ask);
  }
  while (centre() > upper + 1e-9 && ask > tickAt(rule, 0)) {
    ask = tickDown(rule, ask);
    if (bid > 0) bid = tickDown(rule, bid);
    if (ask <= bid) bid = tickDown(rule, ask);
  }
  return { bid, ask };
}

/** Spread widening by session and standardised moneyness. */
export function widening(session: 'gth' | 'rth' | 'curb', z: number): number {
  const base = session === 'gth' ? 2.5 : session === 'curb' ? 1.8 : 1;
  const far = Math.abs(z) > 1.5 ? 1 + 0.25 * (Math.abs(z) - 1.5) : 1;
  return base * Math.min(far, 3);
}
