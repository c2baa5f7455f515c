/**
 * Underlying history before the simulated week: HISTORY_SESSIONS completed sessions of one-minute
 * bars, enough for a realized volatility over 30 sessions and its split between the regular
 * session and the rest of the day (the overnight close-to-open move, and for SPX the GTH and curb
 * bars). Only bars: no chain, quotes or prints on these dates.
 *
 * The paths are simulated exactly as the week's (paths.ts: the same Heston processes, trading
 * clock, segments and market correlation), on a generator of their own, from each underlying's
 * starting level and variance; then each underlying's whole history is multiplied by one factor so
 * that its last close equals the level the week starts from. A Heston price path's log-returns do
 * not depend on its level, so the scaled history is as likely a history as the unscaled one; the
 * instantaneous variance is not carried across the join (the week starts from v0 as before).
 */
import { completedSessions } from '../../analytics/calendar.js';
import { UNDERLYINGS } from './model.js';
import { segmentsOf, simulatePaths, type SegmentPath } from './paths.js';
import { type Prng } from './prng.js';

/** Completed sessions of underlying bars before the simulated week. */
export const HISTORY_SESSIONS = 30;

/** The HISTORY_SESSIONS completed sessions before the `weekSessions` last completed sessions at `now`, ascending. */
export function historyDates(now: number, weekSessions: number): string[] {
  return completedSessions(now, weekSessions + HISTORY_SESSIONS).slice(0, HISTORY_SESSIONS);
}

/** The history's segment paths, ending at each underlying's starting level (see the header). */
export function simulateHistoryPaths(dates: readonly string[], rng: Prng): SegmentPath[] {
  const paths = simulatePaths(dates.flatMap(segmentsOf), rng);
  const last = paths[paths.length - 1];
  if (last === undefined) return paths;
  UNDERLYINGS.forEach((spec, u) => {
    const points = last.points[u]!;
    const factor = spec.start / points[points.length - 1]!;
    for (const p of paths) {
      const series = p.points[u]!;
      for (let k = 0; k < series.length; k += 1) series[k] = series[k]! * factor;
    }
  });
  return paths;
}
