/**
 * Stage timing of a request (config.stageTiming, STAGE_TIMING=true; off by default): each stage of
 * the request path stamps process.hrtime.bigint() when it ends, and the response carries the
 * stages' durations in a Server-Timing header (bench/trades collects them). Off, a request holds no
 * stamps and every stamp is one check of an undefined property.
 */

/** The stamps of one request: a stage's name, then the instant it ended. */
export type Stamps = (string | bigint)[];

/** Starts the stamps of a request (the instant its first middleware ran). */
export function startStamps(): Stamps {
  return ['start', process.hrtime.bigint()];
}

/** Marks the end of `stage`, when the request is timed. */
export function stamp(stamps: Stamps | undefined, stage: string): void {
  if (stamps !== undefined) stamps.push(stage, process.hrtime.bigint());
}

/** The stages as a Server-Timing value: each stage's duration in ms (from the end of the one before). */
export function serverTiming(stamps: Stamps): string {
  const parts: string[] = [];
  for (let i = 2; i + 1 < stamps.length; i += 2) {
    const microseconds = Number((stamps[i + 1] as bigint) - (stamps[i - 1] as bigint)) / 1000;
    parts.push(`${String(stamps[i])};dur=${(microseconds / 1000).toFixed(3)}`);
  }
  return parts.join(', ');
}
