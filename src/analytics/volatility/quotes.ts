/**
 * The quotes of one expiration's chain as the surface reads them: the mid a quote has (if any), the
 * implied volatility of its bid, ask and mid, its delta, and the out-of-the-money leg at each strike
 * that the smile is fitted to.
 *
 * Volatilities are solved by the pricing core (implied-volatility.ts impliedVolatility, Black-Scholes-Merton)
 * in its Black-76 form: the underlying is the forward F implied by the chain (forward.ts), both legs
 * discounted at the rate r, i.e. spot = F and dividend yield = r, so that S·e^{−qT} = F·e^{−rT}
 * whatever the spot and dividend yield are. The result is the same σ as solving on the spot with
 * the dividend yield the forward implies, without a dividend assumption of its own.
 *
 * A side is missing when it is null, not finite or not positive: a zero bid is no bid (as Cboe's VIX
 * method treats it). A quote has a mid only when both sides are present and not crossed (ask ≥ bid).
 */
import { normCdf, type OptionType } from '../pricing.js';
import { blackImpliedVolatility, impliedVolatility } from '../implied-volatility.js';

/** One quoted contract of an expiration. */
export interface ChainQuote {
  strike: number;
  type: OptionType;
  bid: number | null;
  ask: number | null;
}

/** Where the chain is valued: the forward and discounting of one expiration, and the spot for deltas. */
export interface ExpirationMarket {
  /** Spot (underlying price at the valuation instant), for spot deltas; null when unknown (deltas are then null). */
  spot: number | null;
  /** Forward to the settlement instant (forward.ts impliedForward). */
  forward: number;
  /** Years to settlement on the ACT/365 calendar clock. */
  time: number;
  /** Continuously compounded risk-free rate. */
  rate: number;
}

/** A quote with its volatilities; every number null where it cannot be determined. */
export interface QuoteVolatility extends ChainQuote {
  mid: number | null;
  bidVolatility: number | null;
  askVolatility: number | null;
  midVolatility: number | null;
  /** Spot delta at the mid volatility (delta-measures.ts states the convention); null without a mid volatility or a spot. */
  delta: number | null;
}

/** The out-of-the-money quote at one strike: a put below the forward, a call at or above it. */
export interface SmilePoint {
  strike: number;
  /** Log-forward moneyness k = ln(K/F). */
  moneyness: number;
  type: OptionType;
  volatility: number;
  bidVolatility: number | null;
  askVolatility: number | null;
  /** Total implied variance w = σ²T. */
  totalVariance: number;
  /** Price bid-ask spread over vega at the mid volatility: the spread in volatility (decimals); weights the fit. */
  volatilitySpread: number;
}

/** A usable side of a quote: finite and positive, else null. */
export function quoteSide(price: number | null): number | null {
  return price !== null && Number.isFinite(price) && price > 0 ? price : null;
}

/** Mid of a two-sided, uncrossed quote; null when a side is missing (a zero bid is no bid) or the quote is crossed. */
export function midPrice(bid: number | null, ask: number | null): number | null {
  const b = quoteSide(bid);
  const a = quoteSide(ask);
  return b !== null && a !== null && a >= b ? 0.5 * (a + b) : null;
}

/** Black-76 implied volatility of a price on the forward (see the module comment). */
export function forwardImpliedVolatility(type: OptionType, price: number, strike: number, market: ExpirationMarket): number | null {
  return impliedVolatility({ type, price, spot: market.forward, strike, time: market.time, rate: market.rate, dividendYield: market.rate });
}

/**
 * Spot delta e^{−qT}Φ(d1) (call) or −e^{−qT}Φ(−d1) (put), with d1 = (ln(F/K) + σ²T/2)/(σ√T) and
 * e^{−qT} = F·e^{−rT}/S (Haug 2007, ch. 2, with q the yield the forward implies). Equals bsmGreeks'
 * delta at the spot and that yield.
 */
export function spotDelta(type: OptionType, strike: number, volatility: number, market: ExpirationMarket & { spot: number }): number {
  const dividendDiscount = (market.forward * Math.exp(-market.rate * market.time)) / market.spot;
  const s = volatility * Math.sqrt(market.time);
  const d1 = Math.log(market.forward / strike) / s + 0.5 * s;
  return type === 'call' ? dividendDiscount * normCdf(d1) : -dividendDiscount * normCdf(-d1);
}

/** Black-76 vega per 1.00 of volatility: F·e^{−rT}·φ(d1)·√T. */
function forwardVega(strike: number, volatility: number, market: ExpirationMarket): number {
  const sqrtT = Math.sqrt(market.time);
  const s = volatility * sqrtT;
  const d1 = Math.log(market.forward / strike) / s + 0.5 * s;
  return (market.forward * Math.exp(-market.rate * market.time) * Math.exp(-0.5 * d1 * d1) * sqrtT) / Math.sqrt(2 * Math.PI);
}

/**
 * Bid, ask and mid volatilities and the mid's delta of each quote, in the input order. With
 * sides = 'mid' the bid and ask are not solved (null), a third of the work, for callers that only
 * read mids (the drift route's buckets).
 */
export function quoteVolatilities(
  quotes: readonly ChainQuote[],
  market: ExpirationMarket,
  sides: 'all' | 'mid' = 'all',
): QuoteVolatility[] {
  const deltaMarket = market.spot !== null && market.spot > 0 ? { ...market, spot: market.spot } : null;
  const all = sides === 'all';
  // e^{−rT} once for the expiration: the same σ as forwardImpliedVolatility, without its exponentials.
  const { forward, time } = market;
  const discount = Math.exp(-market.rate * time);
  const out: QuoteVolatility[] = new Array<QuoteVolatility>(quotes.length);
  for (let i = 0; i < quotes.length; i++) {
    const q = quotes[i] as ChainQuote;
    const bid = quoteSide(q.bid);
    const ask = quoteSide(q.ask);
    const mid = midPrice(bid, ask);
    const midVolatility = mid === null ? null : blackImpliedVolatility(q.type, mid, forward, q.strike, time, discount);
    // Written field by field (not spread from q): one object shape for every quote.
    out[i] = {
      strike: q.strike,
      type: q.type,
      bid: q.bid,
      ask: q.ask,
      mid,
      bidVolatility: bid === null || !all ? null : blackImpliedVolatility(q.type, bid, forward, q.strike, time, discount),
      askVolatility: ask === null || !all ? null : blackImpliedVolatility(q.type, ask, forward, q.strike, time, discount),
      midVolatility,
      delta: midVolatility === null || deltaMarket === null ? null : spotDelta(q.type, q.strike, midVolatility, deltaMarket),
    };
  }
  return out;
}

/**
 * The out-of-the-money leg at each strike, ascending by strike: the put below the forward, the call
 * at or above it (the in-the-money leg's price is mostly intrinsic value, so its volatility is noisier).
 * Strikes whose out-of-the-money leg has no mid volatility are left out.
 */
export function outOfTheMoneyPoints(quotes: readonly QuoteVolatility[], market: ExpirationMarket): SmilePoint[] {
  const points: SmilePoint[] = [];
  for (const q of quotes) {
    const wanted: OptionType = q.strike < market.forward ? 'put' : 'call';
    if (q.type !== wanted || q.midVolatility === null || q.mid === null) continue;
    const bid = quoteSide(q.bid) ?? 0;
    const ask = quoteSide(q.ask) ?? q.mid;
    const vega = forwardVega(q.strike, q.midVolatility, market);
    points.push({
      strike: q.strike,
      moneyness: Math.log(q.strike / market.forward),
      type: q.type,
      volatility: q.midVolatility,
      bidVolatility: q.bidVolatility,
      askVolatility: q.askVolatility,
      totalVariance: q.midVolatility * q.midVolatility * market.time,
      volatilitySpread: vega > 0 ? (ask - bid) / vega : Infinity,
    });
  }
  return points.sort((x, y) => x.strike - y.strike);
}

/** One strike of the skew response's points (field names as the spec's Point). */
export interface SkewPoint {
  strike: number;
  call_implied_volatility: number | null;
  call_delta: number | null;
  put_implied_volatility: number | null;
  put_delta: number | null;
  /** ln(strike/forward); null when the forward is unknown. */
  moneyness: number | null;
  /** Mid volatility of the out-of-the-money leg (put below the forward, call at or above); null when the forward is unknown. */
  otm_implied_volatility: number | null;
}

/** The quotes grouped by strike, ascending, each leg's mid volatility and delta (null where missing). */
export function skewPoints(quotes: readonly QuoteVolatility[], forward: number | null): SkewPoint[] {
  const byStrike = new Map<number, SkewPoint>();
  for (const q of quotes) {
    let point = byStrike.get(q.strike);
    if (point === undefined) {
      point = {
        strike: q.strike,
        call_implied_volatility: null,
        call_delta: null,
        put_implied_volatility: null,
        put_delta: null,
        moneyness: forward !== null && forward > 0 ? Math.log(q.strike / forward) : null,
        otm_implied_volatility: null,
      };
      byStrike.set(q.strike, point);
    }
    if (q.type === 'call') {
      point.call_implied_volatility = q.midVolatility;
      point.call_delta = q.delta;
    } else {
      point.put_implied_volatility = q.midVolatility;
      point.put_delta = q.delta;
    }
  }
  const points = [...byStrike.values()].sort((a, b) => a.strike - b.strike);
  if (forward !== null && forward > 0) {
    for (const p of points) p.otm_implied_volatility = p.strike < forward ? p.put_implied_volatility : p.call_implied_volatility;
  }
  return points;
}
