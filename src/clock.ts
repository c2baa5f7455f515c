/**
 * The service's clock: what every reader of "now" in the service asks for the market's time (the
 * request's arrival, the simulator's seed, the live market, the streams' replay, stamps, export
 * expiry). It is the wall clock, or with CLOCK_START one that starts at that instant and runs at
 * real speed, so that a demo, a test or a bench can show a session in progress on any day.
 *
 * Such a clock is the wall clock plus an offset, fixed once (the start less the wall clock's time
 * at which it was applied) by the process that starts the service. A cluster's primary hands the
 * offset to its HTTP workers (CLOCK_OFFSET_MS, cluster.ts), so that every process of it reads the
 * same instant to the millisecond, a worker forked later included.
 *
 * Durations and real time-outs (performance.now(), timers) stay on the machine's clocks.
 */
import type { Config } from './config.js';

export type Clock = () => number;

/** The offset of the service's clock from the wall clock at `wallNow`: a worker's is its primary's. */
export function clockOffset(config: Pick<Config, 'clockStart' | 'clockOffsetMs'>, wallNow: number = Date.now()): number {
  if (config.clockOffsetMs !== null) return config.clockOffsetMs;
  return config.clockStart === null ? 0 : config.clockStart - wallNow;
}

/** The clock `offsetMs` ahead of `wall` (behind when negative); `wall` itself at 0. */
export function offsetClock(offsetMs: number, wall: Clock = Date.now): Clock {
  return offsetMs === 0 ? wall : () => wall() + offsetMs;
}
