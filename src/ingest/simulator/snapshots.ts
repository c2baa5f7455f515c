/**
 * What the simulator quotes beyond the one-minute samples near the money (index.ts quotedContracts):
 *
 * - Chain snapshots: the NBBO of every listed contract of each root trading in a segment, at the
 *   segment's start and every SNAPSHOT_EVERY_MINUTES minutes after it, and at its last minute (the
 *   close). A root's quoting ends with its own session: equity options at the equity close (16:00
 *   ET, 13:00 on an early-close day), index and ETF options at the segment's end (16:15 ET regular,
 *   09:25 ET overnight, 17:00 ET curb). A contract stops being quoted at its last trading instant
 *   (chain.ts lastTradeMs), as the one-minute samples do. A snapshot is written as ordinary quote
 *   lines of its minute, so it loads as any vendor's quote file would.
 * - The at-the-money strikes of the two expirations that bracket 30 calendar days (T1 < 30 days <=
 *   T2, the pair of Cboe's VIX white paper) are sampled every minute: per root and per underlying's
 *   family of roots (SPX and SPXW together: an SPX monthly may sit between two SPXW weeklies), the
 *   pair of every minute of the segment, every strike the forward crosses during the segment and
 *   one more on each side.
 */
import { MS_PER_YEAR } from '../../analytics/settlement.js';
import { optionRoot } from '../../analytics/roots.js';
import { contractId, nearestStrike, type Chain, type Expiration } from './chain.js';
import type { RootSpec } from './model.js';
import { MINUTE_MS, SUB_STEPS, type SegmentPath } from './paths.js';

/** Minutes between two chain snapshots of a segment. */
export const SNAPSHOT_EVERY_MINUTES = 15;

/** 30 calendar days in ms: the constant maturity the bracketing expirations surround. */
export const THIRTY_DAYS_MS = 30 * 86_400_000;

/**
 * Minutes of a segment (from its start) with a chain snapshot, for a root quoted during the first
 * `quotedMinutes` minutes of it: every SNAPSHOT_EVERY_MINUTES minutes from the start, and the last
 * quoted minute (the close). Only minutes before `writtenMinutes` (a segment in progress) are kept.
 */
export function snapshotMinutes(quotedMinutes: number, writtenMinutes: number): number[] {
  const out: number[] = [];
  for (let m = 0; m < quotedMinutes; m += SNAPSHOT_EVERY_MINUTES) out.push(m);
  if (quotedMinutes > 0 && out[out.length - 1] !== quotedMinutes - 1) out.push(quotedMinutes - 1);
  return out.filter((m) => m < writtenMinutes);
}

/** Minutes a root's options are quoted in a segment (equity options stop at the equity close). */
export function quotedMinutesOf(root: RootSpec, segment: SegmentPath['segment']): number {
  if (segment.kind === 'rth' && optionRoot(root.root)?.kind === 'equity') return segment.equityMinutes;
  return segment.minutes;
}

/**
 * Of some expirations, the two that bracket 30 calendar days at instant `t`: the last settling
 * less than 30 days after t and the first settling 30 days or more after it (either may be
 * missing). Expirations no longer trading at t are left out.
 */
export function bracketing30Days(expirations: readonly Expiration[], t: number): Expiration[] {
  let near: Expiration | null = null;
  let next: Expiration | null = null;
  for (const e of expirations) {
    if (e.lastTradeMs <= t) continue;
    const toSettle = e.settleMs - t;
    if (toSettle < THIRTY_DAYS_MS) {
      if (near === null || e.settleMs > near.settleMs) near = e;
    } else if (next === null || e.settleMs < next.settleMs) next = e;
  }
  return [near, next].filter((e): e is Expiration => e !== null);
}

/**
 * Indexes of the strikes from the one below `low` to the one above `high` (ascending strikes),
 * with `pad` more on each side.
 */
export function strikesAcross(strikes: readonly number[], low: number, high: number, pad: number): number[] {
  if (strikes.length === 0) return [];
  let first = nearestStrike(strikes, low);
  if (strikes[first]! > low && first > 0) first -= 1;
  let last = nearestStrike(strikes, high);
  if (strikes[last]! < high && last < strikes.length - 1) last += 1;
  first = Math.max(0, first - pad);
  last = Math.min(strikes.length - 1, last + pad);
  const out: number[] = [];
  for (let i = first; i <= last; i += 1) out.push(i);
  return out;
}

/** A contract the simulator quotes: its expiration, strike index, right and chain id. */
export interface QuotedContract {
  e: Expiration;
  strikeIndex: number;
  type: 'call' | 'put';
  id: number;
}

/**
 * The contracts at the money of the expirations bracketing 30 days, for the roots trading in the
 * segment (see the header), ascending by id. `minutes` is how many minutes of the segment are
 * written; `rate` and `dividends` (per underlying index) give the forward.
 */
export function thirtyDayContracts(
  chain: Chain,
  p: SegmentPath,
  roots: readonly { rootIndex: number; root: RootSpec }[],
  minutes: number,
  rate: number,
  dividends: readonly number[],
): QuotedContract[] {
  if (minutes <= 0) return [];
  const { segment } = p;
  const first = segment.start;
  const last = segment.start + (minutes - 1) * MINUTE_MS;
  // Per root, and per family: the roots of one underlying together.
  const groups: Expiration[][] = roots.map(({ rootIndex }) => chain.byRoot[rootIndex]!);
  const byUnderlying = new Map<string, Expiration[]>();
  for (const { rootIndex, root } of roots)
    byUnderlying.set(root.underlying, [...(byUnderlying.get(root.underlying) ?? []), ...chain.byRoot[rootIndex]!]);
  for (const [underlying, expirations] of byUnderlying) {
    if (roots.filter((r) => r.root.underlying === underlying).length > 1) groups.push(expirations);
  }
  // The pair can change within a segment (an expiration's 30 days run out): every minute's pair.
  const chosen = new Set<Expiration>();
  for (const group of groups) {
    for (let t = first; t <= last; t += MINUTE_MS) for (const e of bracketing30Days(group, t)) chosen.add(e);
  }
  const ids = new Map<number, QuotedContract>();
  for (const e of chosen) {
    if (!roots.some((r) => r.rootIndex === e.rootIndex)) continue;
    const u = e.underlyingIndex;
    const points = p.points[u]!;
    let low = Infinity;
    let high = -Infinity;
    for (let k = 0; k <= minutes * SUB_STEPS && k < points.length; k += 1) {
      const s = points[k]!;
      if (s < low) low = s;
      if (s > high) high = s;
    }
    const years = Math.max((e.settleMs - first) / MS_PER_YEAR, 0);
    const carry = Math.exp((rate - dividends[u]!) * years);
    for (const strikeIndex of strikesAcross(e.strikes, low * carry, high * carry, 1)) {
      for (const type of ['call', 'put'] as const) {
        const id = contractId(e, strikeIndex, type);
        ids.set(id, { e, strikeIndex, type, id });
      }
    }
  }
  return [...ids.values()].sort((a, b) => a.id - b.id);
}

/** A root's expirations whose contracts are in a chain snapshot at `t`: expiring on or after the trading date, still trading. */
export function liveExpirations(chain: Chain, rootIndex: number, tradingDate: string, t: number): Expiration[] {
  return chain.byRoot[rootIndex]!.filter((e) => e.date >= tradingDate && e.lastTradeMs > t);
}
