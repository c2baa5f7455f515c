/**
 * Levels read off the exposure by strike (exposure.ts sumByStrike: call, put and net = call + put,
 * summed over the expirations), in the spec's words:
 *
 * - call_wall: the strike of the largest positive call exposure; put_wall: of the most negative put
 *   exposure.
 * - call_wall_above: among strikes at or above the underlying price S, the largest positive net;
 *   put_wall_below: among strikes at or below S, the most negative net.
 * - major_positive / major_negative: the largest positive / most negative net, anywhere.
 * - largest_absolute_strike: the largest gross exposure |call| + |put| (the strike with the most
 *   exposure of either sign, the first of ranked.gross).
 * - peak_net_exposure: the strike of the largest |net| and its (signed) net.
 * - gatekeepers: strikes between S and the peak's strike (S's side inclusive, the peak excluded)
 *   whose |net| is at least gatekeeper_ratio × |peak net|, in the order met going from S to the peak.
 * - gamma_tilt (on gamma): Σ positive call exposure over |Σ negative put exposure| by strike; null
 *   when there is no negative put exposure.
 * - ranked: per leg the five strikes of largest absolute value (zero values left out), value the
 *   leg's exposure; gross is |call| + |put| (the spec's "calls plus absolute puts" where calls are
 *   not negative, as under classic_oi gamma; a magnitude, so not negated for the customer).
 *   distance_points = strike − S, distance_percent = 100 × (strike − S)/S.
 *
 * A level is null when no strike qualifies. Ties go to the strike nearest S, then the lower one.
 * Strikes are chosen on the dealer's figures and values served with the perspective's sign
 * (positions.ts), so the customer perspective negates values and moves no level.
 */
import type { components } from '../../../generated/openapi.js';
import type { StrikeExposure } from './exposure.js';

export type RankedStrike = components['schemas']['RankedStrike'];
export type StrikeValue = components['schemas']['StrikeValue'];

export const RANKED_COUNT = 5;

/** The row of largest score among those with a finite score (ties: nearest S, then lower strike). */
function best(rows: readonly StrikeExposure[], spot: number, score: (r: StrikeExposure) => number | null): StrikeExposure | null {
  let top: StrikeExposure | null = null;
  let topScore = -Infinity;
  for (const r of rows) {
    const s = score(r);
    if (s === null || !Number.isFinite(s)) continue;
    const closer = top !== null && Math.abs(r.strike - spot) < Math.abs(top.strike - spot);
    if (top === null || s > topScore || (s === topScore && closer)) {
      top = r;
      topScore = s;
    }
  }
  return top;
}

const strikeOf = (r: StrikeExposure | null): number | null => (r === null ? null : r.strike);
const gross = (r: StrikeExposure): number => Math.abs(r.call) + Math.abs(r.put);

export type WallLevels = Pick<
  components['schemas']['KeyLevels']['levels'],
  'call_wall' | 'put_wall' | 'call_wall_above' | 'put_wall_below' | 'major_positive' | 'major_negative' | 'largest_absolute_strike'
>;

/** Walls, majors and the largest absolute strike (module comment). */
export function wallLevels(rows: readonly StrikeExposure[], spot: number): WallLevels {
  return {
    call_wall: strikeOf(best(rows, spot, (r) => (r.call > 0 ? r.call : null))),
    put_wall: strikeOf(best(rows, spot, (r) => (r.put < 0 ? -r.put : null))),
    call_wall_above: strikeOf(best(rows, spot, (r) => (r.strike >= spot && r.net > 0 ? r.net : null))),
    put_wall_below: strikeOf(best(rows, spot, (r) => (r.strike <= spot && r.net < 0 ? -r.net : null))),
    major_positive: strikeOf(best(rows, spot, (r) => (r.net > 0 ? r.net : null))),
    major_negative: strikeOf(best(rows, spot, (r) => (r.net < 0 ? -r.net : null))),
    largest_absolute_strike: strikeOf(best(rows, spot, (r) => (gross(r) > 0 ? gross(r) : null))),
  };
}

/** The strike of largest |net| with its dealer net; null when every net is 0. */
export function peakNetExposure(rows: readonly StrikeExposure[], spot: number): StrikeValue | null {
  const peak = best(rows, spot, (r) => (r.net !== 0 ? Math.abs(r.net) : null));
  return peak === null ? null : { strike: peak.strike, value: peak.net };
}

/** Gatekeeper strikes between S and the peak (module comment). */
export function gatekeepers(rows: readonly StrikeExposure[], spot: number, peak: StrikeValue | null, ratio: number): number[] {
  if (peak === null) return [];
  const threshold = ratio * Math.abs(peak.value);
  const between = rows.filter((r) => {
    if (Math.abs(r.net) < threshold) return false;
    return peak.strike > spot ? r.strike >= spot && r.strike < peak.strike : r.strike <= spot && r.strike > peak.strike;
  });
  const strikes = between.map((r) => r.strike);
  return peak.strike > spot ? strikes : strikes.reverse();
}

/** Σ positive call gamma over |Σ negative put gamma| by strike; null without negative put gamma. */
export function gammaTilt(gammaRows: readonly StrikeExposure[]): number | null {
  let positiveCalls = 0;
  let negativePuts = 0;
  for (const r of gammaRows) {
    if (r.call > 0) positiveCalls += r.call;
    if (r.put < 0) negativePuts -= r.put;
  }
  return negativePuts > 0 ? positiveCalls / negativePuts : null;
}

export type RankedLevels = NonNullable<components['schemas']['KeyLevels']['ranked']>;

/** The five strikes of largest |value| of a leg, rank 1 the largest (ties: nearest S, then lower). */
export function rankStrikes(rows: readonly StrikeExposure[], spot: number, value: (r: StrikeExposure) => number): RankedStrike[] {
  return rows
    .map((r) => ({ strike: r.strike, value: value(r) }))
    .filter((e) => e.value !== 0)
    .sort((a, b) => Math.abs(b.value) - Math.abs(a.value) || Math.abs(a.strike - spot) - Math.abs(b.strike - spot) || a.strike - b.strike)
    .slice(0, RANKED_COUNT)
    .map((e, i) => ({
      distance_percent: spot > 0 ? (100 * (e.strike - spot)) / spot : null,
      distance_points: e.strike - spot,
      rank: i + 1,
      strike: e.strike,
      value: e.value,
    }));
}

/** Ranked calls, puts, net and gross, values with the perspective's sign (gross excepted, module comment). */
export function rankedLevels(rows: readonly StrikeExposure[], spot: number, sign: number): RankedLevels {
  return {
    calls: rankStrikes(rows, spot, (r) => sign * r.call),
    puts: rankStrikes(rows, spot, (r) => sign * r.put),
    net: rankStrikes(rows, spot, (r) => sign * r.net),
    gross: rankStrikes(rows, spot, gross),
  };
}
