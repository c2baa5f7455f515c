/**
 * Order flow: order events drawn per minute (Poisson, intensity following the activity profile of
 * paths.ts), each emitting one or more raw prints priced against the NBBO in force. What each
 * kind emits (condition codes are Massive ids, opra.ts):
 * - single: one print, 209 (automatic execution) or no condition, at a location against the NBBO
 *   (model.ts PRICE_LOCATION);
 * - split: one order in 2–6 pieces on one exchange, 10–120 ms apart, at the same price;
 * - sweep: one order across 2–7 exchanges within a few milliseconds, Intermarket Sweep (219), at
 *   the ask (buyer) or bid (seller), sometimes walking one tick on the last legs; single-listed
 *   roots (SPX, SPXW, RUT, RUTW on Cboe; NDX, NDXP on Nasdaq PHLX) cannot sweep and emit a split
 *   instead;
 * - multileg: a vertical, straddle or calendar (two legs) or iron condor (four legs), same
 *   exchange and instant, legs priced inside their spreads (net-priced), 232/233/234/235/236;
 * - auction (227/228), cross (229/230) and floor (231, floor venues only) prints, larger sizes,
 *   priced inside the spread; block: one large print (Pareto from 250 contracts);
 * - late: a print reported minutes after it traded (204 Late, 202 Late and Out of Sequence) at a
 *   price of the quote in force when it traded; the bid/ask written are those at the report time;
 * - cancel: a 201 record repeating an earlier print's contract, exchange, price and size (no
 *   quote), which the classifier uses to remove that print: one of the last five minutes when one
 *   is held (the classifier looks back 10 minutes), else an older one it counts unmatched;
 * - golden sweep: scheduled sweeps of multi-listed contracts of at least $1.1M premium.
 * Sizes are Pareto (model.ts). The NBBO written on a print is the model quote at a quote time
 * 0–2 s before the order (quadratically skewed to recent; the later pieces of a split or sweep
 * and the legs of a multi-leg order keep their order's quote), so bid, ask and quote_timestamp are
 * what a tbbo-style feed would carry.
 */
import { daysBetween } from '../../analytics/new-york-time.js';
import { MS_PER_YEAR } from '../../analytics/settlement.js';
import type { OptionType } from '../../analytics/pricing.js';
import { contractId, nearestStrike, type Chain, type Expiration } from './chain.js';
import { type RootSpec } from './model.js';
import {
  BLOCK_CAP,
  BLOCK_MIN,
  EVENT_MIX,
  EXCHANGE_SHARES,
  FLOOR_EXCHANGES,
  PRICE_LOCATION,
  SIZE_ALPHA,
  SIZE_CAP,
  type EventKind,
} from './activity.js';
import { cumulative, type Prng } from './prng.js';
import { priceAt, varianceAt, type SegmentPath } from './paths.js';
import { nbboOf, quoteBounds, tickAt, valueOption, widening, type Nbbo } from './surface.js';

export interface PrintRow {
  contract: number;
  timestamp: number;
  /** Cents. */
  price: number;
  size: number;
  exchange: number;
  condition: number | null;
  /** NBBO in force (cents) and its time; null on cancel records. */
  bid: number | null;
  ask: number | null;
  quoteTimestamp: number | null;
}

export const CONDITION = {
  auto: 209,
  iso: 219,
  cancel: 201,
  late: 204,
  lateOutOfSequence: 202,
  auction: 227,
  auctionIso: 228,
  cross: 229,
  crossIso: 230,
  floor: 231,
  multiLeg: 232,
  multiLegAuction: 233,
  multiLegCross: 234,
  multiLegFloor: 235,
  multiLegAgainstSingle: 236,
} as const;

const EVENT_KINDS = Object.keys(EVENT_MIX) as EventKind[];
const EVENT_CUMULATIVE = cumulative(EVENT_KINDS.map((k) => EVENT_MIX[k]));
const LOCATIONS = Object.keys(PRICE_LOCATION) as (keyof typeof PRICE_LOCATION)[];
const LOCATION_CUMULATIVE = cumulative(LOCATIONS.map((k) => PRICE_LOCATION[k]));
const EXCHANGE_CUMULATIVE = cumulative(EXCHANGE_SHARES.map((e) => e.share));
const RESERVOIR = 512;
/**
 * How far back a cancel record reaches for its print: a feed's cancels follow their prints within
 * minutes, and the classifier matches one only within its look-back (classification.ts
 * cancelLookbackMs, 10 minutes), beyond which it is counted unmatched.
 */
const CANCEL_REACH_MS = 5 * 60_000;

export interface MarketContext {
  chain: Chain;
  tradingDate: string;
  rate: number;
  /** Dividend yield per underlying index. */
  dividends: readonly number[];
}

interface Picked {
  e: Expiration;
  strikeIndex: number;
  type: OptionType;
  id: number;
}

interface Quoted extends Picked {
  nbbo: Nbbo;
  quoteTimestamp: number;
}

/** Draws the order events of one segment, minute by minute. */
export class FlowGenerator {
  private readonly reservoir: PrintRow[] = [];
  private expiryWeights = new Map<number, { list: Expiration[]; cumulative: Float64Array }>();

  constructor(
    private readonly market: MarketContext,
    private readonly path: SegmentPath,
    private readonly rng: Prng,
  ) {}

  get session(): 'gth' | 'rth' | 'curb' {
    return this.path.segment.kind;
  }

  /** Tradeable expirations of a root at the segment start, with their event weights. */
  private expirations(rootIndex: number): { list: Expiration[]; cumulative: Float64Array } {
    let w = this.expiryWeights.get(rootIndex);
    if (w) return w;
    const start = this.path.segment.start;
    const list = this.market.chain.byRoot[rootIndex]!.filter((e) => e.date >= this.market.tradingDate && e.lastTradeMs > start);
    const hasZero = list.some((e) => e.date === this.market.tradingDate);
    const root = list[0]?.root;
    const decay = root?.expiryDecayDays ?? 10;
    const raw = list.map((e) => {
      const dte = daysBetween(this.market.tradingDate, e.date);
      return dte === 0 ? 0 : Math.exp(-dte / decay) * (e.monthly ? 1.6 : 1) + 0.004;
    });
    const rest = raw.reduce((a, b) => a + b, 0);
    const zero = hasZero && root ? root.zeroDteShare : 0;
    const weights = list.map((e, i) => (e.date === this.market.tradingDate ? zero : rest > 0 ? ((1 - zero) * raw[i]!) / rest : 0));
    w = { list, cumulative: cumulative(weights) };
    this.expiryWeights.set(rootIndex, w);
    return w;
  }

  /** A contract of the root near the money (OTM-biased), tradeable at t, or null. */
  private pick(rootIndex: number, t: number, root: RootSpec): Picked | null {
    const { list, cumulative: cw } = this.expirations(rootIndex);
    if (list.length === 0) return null;
    const e = list[this.rng.weightedIndex(cw)]!;
    if (t >= e.lastTradeMs) return null;
    const type: OptionType = this.rng.chance(root.callShare) ? 'call' : 'put';
    const otm = this.rng.chance(0.8);
    const zabs = Math.abs(this.rng.normal()) * (otm ? 0.9 : 0.45);
    const sign = (type === 'call') === otm ? 1 : -1;
    return this.pickStrike(e, type, t, sign * zabs);
  }

  private pickStrike(e: Expiration, type: OptionType, t: number, z: number): Picked {
    const u = e.underlyingIndex;
    const spot = priceAt(this.path, u, t);
    const years = Math.max((e.settleMs - t) / MS_PER_YEAR, 1 / (365 * 24 * 60));
    const sd = Math.sqrt(varianceAt(this.path, u, t) * years) * e.underlying.vrp;
    const forward = spot * Math.exp((this.market.rate - this.market.dividends[u]!) * years);
    const strikeIndex = nearestStrike(e.strikes, forward * Math.exp(z * sd));
    return { e, strikeIndex, type, id: contractId(e, strikeIndex, type) };
  }

  /** NBBO of a contract at an instant (quote noise drawn from the generator's stream). */
  nbboAt(p: Picked, t: number): { nbbo: Nbbo; z: number } {
    const u = p.e.underlyingIndex;
    const priced = {
      type: p.type,
      spot: priceAt(this.path, u, t),
      strike: p.e.strikes[p.strikeIndex]!,
      years: (p.e.settleMs - t) / MS_PER_YEAR,
      rate: this.market.rate,
      dividendYield: this.market.dividends[u]!,
    };
    const v = valueOption({
      spec: p.e.underlying,
      type: priced.type,
      spot: priced.spot,
      strike: priced.strike,
      years: priced.years,
      rate: priced.rate,
      dividendYield: priced.dividendYield,
      variance: varianceAt(this.path, u, t),
    });
    const nbbo = nbboOf(
      v.value,
      {
        rule: p.e.root.tick,
        spreadRelative: p.e.root.spreadRelative,
        spreadAbsolute: p.e.root.spreadAbsolute,
        widen: widening(this.session, v.z),
        lean: this.rng.between(-0.3, 0.3),
      },
      quoteBounds(priced),
    );
    return { nbbo, z: v.z };
  }

  private quoted(p: Picked, t: number): Quoted | null {
    const lag = Math.floor(this.rng.uniform() ** 2 * 2000);
    const quoteTimestamp = Math.max(t - lag, this.path.segment.start);
    const { nbbo } = this.nbboAt(p, quoteTimestamp);
    if (nbbo.bid <= 0) return null;
    return { ...p, nbbo, quoteTimestamp };
  }

  /** A contract with a live bid: tries the draw, then closer to the money. */
  private pickQuoted(rootIndex: number, root: RootSpec, t: number): Quoted | null {
    const first = this.pick(rootIndex, t, root);
    if (!first) return null;
    const q = this.quoted(first, t);
    if (q) return q;
    return this.quoted(this.pickStrike(first.e, first.type, t, this.rng.normal() * 0.3), t);
  }

  private exchange(root: RootSpec): number {
    if (root.venue !== null) return root.venue;
    return EXCHANGE_SHARES[this.rng.weightedIndex(EXCHANGE_CUMULATIVE)]!.code;
  }

  private distinctExchanges(n: number): number[] {
    const out: number[] = [];
    for (let tries = 0; out.length < n && tries < 50; tries += 1) {
      const code = EXCHANGE_SHARES[this.rng.weightedIndex(EXCHANGE_CUMULATIVE)]!.code;
      if (!out.includes(code)) out.push(code);
    }
    return out;
  }

  private size(): number {
    return Math.min(SIZE_CAP, Math.floor(this.rng.pareto(1, SIZE_ALPHA)));
  }

  private largeSize(min: number, alpha: number, cap: number): number {
    return Math.min(cap, Math.floor(this.rng.pareto(min, alpha)));
  }

  /** Price (cents) of a one-sided order of direction dir against an NBBO. */
  private locate(n: Nbbo, dir: 1 | -1, rule: RootSpec['tick']): number {
    const spread = n.ask - n.bid;
    const aggressive = dir > 0 ? n.ask : n.bid;
    const passive = dir > 0 ? n.bid : n.ask;
    const loc = LOCATIONS[this.rng.weightedIndex(LOCATION_CUMULATIVE)]!;
    switch (loc) {
      case 'at':
        return aggressive;
      case 'near':
        return spread <= 2 ? aggressive : aggressive - dir * Math.max(1, Math.round(spread * this.rng.between(0.1, 0.38)));
      case 'mid':
        return this.mid(n);
      case 'far_near':
        return spread <= 2 ? passive : passive + dir * Math.max(1, Math.round(spread * this.rng.between(0.1, 0.38)));
      case 'far_at':
        return passive;
      case 'outside': {
        const out = aggressive + dir * tickAt(rule, aggressive);
        return out > 0 ? out : n.ask + tickAt(rule, n.ask);
      }
    }
  }

  private mid(n: Nbbo): number {
    const sum = n.bid + n.ask;
    return sum % 2 === 0 ? sum / 2 : (sum + (this.rng.chance(0.5) ? 1 : -1)) / 2;
  }

  private inside(n: Nbbo, lo: number, hi: number): number {
    return Math.max(1, n.bid + Math.round((n.ask - n.bid) * this.rng.between(lo, hi)));
  }

  private row(q: Quoted, timestamp: number, price: number, size: number, exchange: number, condition: number | null): PrintRow {
    return {
      contract: q.id,
      timestamp,
      price: Math.max(1, price),
      size: Math.max(1, size),
      exchange,
      condition,
      bid: q.nbbo.bid,
      ask: q.nbbo.ask,
      quoteTimestamp: q.quoteTimestamp,
    };
  }

  private regularCondition(): number | null {
    return this.rng.chance(0.72) ? CONDITION.auto : null;
  }

  /** Splits a total into n positive pieces. */
  private pieces(total: number, n: number): number[] {
    const count = Math.max(1, Math.min(n, total));
    const w = Array.from({ length: count }, () => this.rng.between(0.3, 1));
    const sum = w.reduce((a, b) => a + b, 0);
    const out = w.map((x) => Math.max(1, Math.floor((total * x) / sum)));
    out[0]! += total - out.reduce((a, b) => a + b, 0);
    if (out[0]! < 1) out[0] = 1;
    return out;
  }

  /** One order event of the given root at instant t, appended to out. */
  event(rootIndex: number, root: RootSpec, t: number, out: PrintRow[]): void {
    let kind = EVENT_KINDS[this.rng.weightedIndex(EVENT_CUMULATIVE)]!;
    if (kind === 'sweep' && root.venue !== null) kind = 'split';
    if (kind === 'floor' && this.session === 'gth') kind = 'single';
    const q = this.pickQuoted(rootIndex, root, t);
    if (!q) return;
    const dir: 1 | -1 = this.rng.chance(0.5) ? 1 : -1;
    switch (kind) {
      case 'single':
        out.push(
          this.row(
            q,
            t,
            this.locate(q.nbbo, dir, root.tick),
            this.size(),
            this.exchange(root),
            this.rng.chance(0.04) ? CONDITION.iso : this.regularCondition(),
          ),
        );
        return;
      case 'split': {
        const exchange = this.exchange(root);
        const price = this.rng.chance(0.8) ? (dir > 0 ? q.nbbo.ask : q.nbbo.bid) : this.locate(q.nbbo, dir, root.tick);
        const condition = this.regularCondition();
        let ts = t;
        for (const size of this.pieces(this.largeSize(4, 1.2, 3000), this.rng.intBetween(2, 6))) {
          out.push(this.row(q, ts, price, size, exchange, condition));
          ts += this.rng.intBetween(10, 120);
        }
        return;
      }
      case 'sweep':
        this.sweep(q, dir, t, this.largeSize(8, 1.1, 4000), this.rng.intBetween(2, 7), out);
        return;
      case 'multileg':
        this.multileg(q, root, t, out);
        return;
      case 'auction':
        out.push(
          this.row(
            q,
            t,
            this.inside(q.nbbo, 0.25, 0.75),
            this.largeSize(10, 1.3, 5000),
            this.exchange(root),
            this.rng.chance(0.85) ? CONDITION.auction : CONDITION.auctionIso,
          ),
        );
        return;
      case 'cross':
        out.push(
          this.row(
            q,
            t,
            this.inside(q.nbbo, 0.2, 0.8),
            this.largeSize(50, 1.3, BLOCK_CAP),
            this.exchange(root),
            this.rng.chance(0.85) ? CONDITION.cross : CONDITION.crossIso,
          ),
        );
        return;
      case 'floor': {
        const exchange = root.venue ?? this.rng.pick(FLOOR_EXCHANGES);
        out.push(this.row(q, t, this.inside(q.nbbo, 0.1, 0.9), this.largeSize(50, 1.3, BLOCK_CAP), exchange, CONDITION.floor));
        return;
      }
      case 'block': {
        const price = this.rng.chance(0.5) ? this.mid(q.nbbo) : this.locate(q.nbbo, dir, root.tick);
        out.push(this.row(q, t, price, this.largeSize(BLOCK_MIN, 1.6, BLOCK_CAP), this.exchange(root), this.regularCondition()));
        return;
      }
    }
  }

  private sweep(q: Quoted, dir: 1 | -1, t: number, total: number, legs: number, out: PrintRow[]): void {
    const exchanges = this.distinctExchanges(legs);
    const sizes = this.pieces(total, exchanges.length);
    const base = dir > 0 ? q.nbbo.ask : q.nbbo.bid;
    const walk = this.rng.chance(0.3);
    let ts = t;
    sizes.forEach((size, i) => {
      const step = walk && i >= sizes.length - 2 && sizes.length > 2 ? dir * tickAt(q.e.root.tick, base) : 0;
      const price = base + step > 0 ? base + step : base;
      out.push(this.row(q, ts, price, size, exchanges[i]!, CONDITION.iso));
      ts += this.rng.intBetween(0, 2);
    });
  }

  private multileg(q: Quoted, root: RootSpec, t: number, out: PrintRow[]): void {
    const legs: Picked[] = [q];
    const shape = this.rng.uniform();
    const n = q.e.strikes.length;
    const shifted = (d: number): number => Math.max(0, Math.min(n - 1, q.strikeIndex + d));
    const other = (strikeIndex: number, type: OptionType, e = q.e): Picked => ({
      e,
      strikeIndex,
      type,
      id: contractId(e, strikeIndex, type),
    });
    if (shape < 0.45) legs.push(other(shifted((q.type === 'call' ? 1 : -1) * this.rng.intBetween(1, 4)), q.type));
    else if (shape < 0.65) legs.push(other(q.strikeIndex, q.type === 'call' ? 'put' : 'call'));
    else if (shape < 0.8) {
      const later = this.expirations(q.e.rootIndex).list.find((e) => e.date > q.e.date && e.strikes.includes(q.e.strikes[q.strikeIndex]!));
      if (later) legs.push(other(later.strikes.indexOf(q.e.strikes[q.strikeIndex]!), q.type, later));
      else legs.push(other(shifted(1), q.type));
    } else {
      const w = this.rng.intBetween(1, 3);
      legs.push(other(shifted(w), q.type));
      legs.push(other(shifted(-2 * w), q.type === 'call' ? 'put' : 'call'));
      legs.push(other(shifted(-3 * w), q.type === 'call' ? 'put' : 'call'));
    }
    const exchange = this.exchange(root);
    const c = this.rng.uniform();
    let condition: number =
      c < 0.6
        ? CONDITION.multiLeg
        : c < 0.75
          ? CONDITION.multiLegAgainstSingle
          : c < 0.87
            ? CONDITION.multiLegAuction
            : c < 0.95
              ? CONDITION.multiLegCross
              : CONDITION.multiLegFloor;
    if (condition === CONDITION.multiLegFloor && (this.session === 'gth' || !FLOOR_EXCHANGES.includes(exchange)))
      condition = CONDITION.multiLeg;
    const size = this.largeSize(2, 1.2, 2000);
    const ratio = this.rng.chance(0.15) ? 2 : 1;
    legs.forEach((leg, i) => {
      const lq = i === 0 ? q : this.quotedAt(leg, q.quoteTimestamp);
      if (!lq) return;
      out.push(
        this.row(
          lq,
          t + (i === 0 ? 0 : this.rng.intBetween(0, 1)),
          this.inside(lq.nbbo, 0.1, 0.9),
          i === 1 ? size * ratio : size,
          exchange,
          condition,
        ),
      );
    });
  }

  private quotedAt(p: Picked, quoteTimestamp: number): Quoted | null {
    if (quoteTimestamp >= p.e.lastTradeMs) return null;
    const { nbbo } = this.nbboAt(p, quoteTimestamp);
    if (nbbo.bid <= 0) return null;
    return { ...p, nbbo, quoteTimestamp };
  }

  /** A print reported late: traded minutes ago at that time's quote, reported at t. */
  late(rootIndex: number, root: RootSpec, t: number, out: PrintRow[]): void {
    const traded = Math.max(this.path.segment.start, t - this.rng.intBetween(30_000, 900_000));
    const then = this.pickQuoted(rootIndex, root, traded);
    if (!then) return;
    const now = this.quotedAt(then, Math.max(t - this.rng.intBetween(0, 1500), this.path.segment.start));
    if (!now) return;
    const price = this.rng.chance(0.5) ? this.mid(then.nbbo) : this.locate(then.nbbo, this.rng.chance(0.5) ? 1 : -1, root.tick);
    out.push(
      this.row(now, t, price, this.size(), this.exchange(root), this.rng.chance(0.8) ? CONDITION.late : CONDITION.lateOutOfSequence),
    );
  }

  /**
   * A cancel record of an earlier print of this trading date, or nothing when none is held: one of
   * the held prints of the last CANCEL_REACH_MS, else (none so recent) any held print, which the
   * classifier then counts unmatched. One draw either way, so the flow's other draws are as before.
   */
  cancel(t: number, out: PrintRow[]): void {
    if (this.reservoir.length === 0) return;
    const draw = this.rng.int(this.reservoir.length);
    const recent: number[] = [];
    for (let j = 0; j < this.reservoir.length; j += 1) if (this.reservoir[j]!.timestamp >= t - CANCEL_REACH_MS) recent.push(j);
    const i = recent.length > 0 ? recent[draw % recent.length]! : draw;
    const victim = this.reservoir[i]!;
    this.reservoir[i] = this.reservoir[this.reservoir.length - 1]!;
    this.reservoir.pop();
    out.push({
      ...victim,
      timestamp: Math.max(t, victim.timestamp + 1),
      condition: CONDITION.cancel,
      bid: null,
      ask: null,
      quoteTimestamp: null,
    });
  }

  /** A sweep of at least $1.1M premium on a multi-listed root, at the ask. */
  golden(roots: readonly { rootIndex: number; root: RootSpec }[], t: number, out: PrintRow[]): void {
    const choices = roots.filter((r) => r.root.venue === null);
    // Premium = size × ask (cents) since the multiplier is 100; contracts of at least $2 keep
    // the size realistic (a $1.1M–$3M sweep of $2–$20 options is 550 to 15,000 contracts).
    for (let tries = 0; tries < 30 && choices.length > 0; tries += 1) {
      const { rootIndex, root } = this.rng.pick(choices);
      const q = this.pickQuoted(rootIndex, root, t);
      if (!q || q.nbbo.ask < 200) continue;
      const total = Math.ceil(this.rng.between(1.1e6, 3e6) / q.nbbo.ask);
      // Every leg is at the ask or one tick above, so the premium is at least the target.
      this.sweep(q, 1, t, total, this.rng.intBetween(3, 6), out);
      return;
    }
  }

  /** Prints of finished minutes become candidates for later cancels. */
  remember(rows: readonly PrintRow[]): void {
    for (const r of rows) {
      if (r.condition === CONDITION.cancel || r.condition === CONDITION.late || r.condition === CONDITION.lateOutOfSequence) continue;
      if (this.reservoir.length < RESERVOIR) this.reservoir.push(r);
      else if (this.rng.chance(0.05)) this.reservoir[this.rng.int(RESERVOIR)] = r;
    }
  }
}
