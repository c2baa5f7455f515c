/**
 * What the soak bench computes from the exchanges it saw, pure: quantiles, and the checks of a
 * rolling window's count from the client's side. The client does not see when the server admitted a
 * request, only that it happened between the send and the answer; so a count is proven too high
 * only with admissions certainly inside one window (sent after its start, answered before its end),
 * and a refusal is proven wrong only when too few admissions could have been in its window (the
 * server refuses a request only with the whole limit admitted in the window before it).
 */

/** One request as the client saw it: wall-clock milliseconds of the send and of the whole answer. */
export interface Exchange {
  sent: number;
  received: number;
}

/** The q-quantile (nearest rank) of some values; 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * The most admissions certainly inside one rolling window (end - spanMs, end]: an admission lies
 * between its send and its answer, so those sent after the window's start and answered by its end
 * are in it whatever the server's clock said. More than the limit proves an over-admission. The
 * best window ends at some answer, so those are the ends tried.
 */
export function mostCertainInWindow(admitted: readonly Exchange[], spanMs: number): number {
  const byReceived = [...admitted].sort((a, b) => a.received - b.received);
  let most = 0;
  for (let i = 0; i < byReceived.length; i++) {
    const end = (byReceived[i] as Exchange).received;
    let last = i;
    while (last + 1 < byReceived.length && (byReceived[last + 1] as Exchange).received === end) last += 1;
    let count = 0;
    // sent <= received, so an exchange sent after the start was also answered after it.
    for (let j = last; j >= 0 && (byReceived[j] as Exchange).received > end - spanMs; j--) {
      if ((byReceived[j] as Exchange).sent > end - spanMs) count += 1;
    }
    most = Math.max(most, count);
  }
  return most;
}

/** How many sorted values are <= x. */
function countAtMost(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The refusals that the limit does not explain: at a refusal (some instant between its send and its
 * answer) the server held `limit` admissions in the window before it, and each of them was sent by
 * the refusal's answer and answered after the window's earliest possible start. Fewer such
 * admissions than the limit prove that the server refused a request the limit allowed.
 */
export function unjustifiedRefusals(admitted: readonly Exchange[], refused: readonly Exchange[], spanMs: number, limit: number): number {
  const sent = admitted.map((e) => e.sent).sort((a, b) => a - b);
  const received = admitted.map((e) => e.received).sort((a, b) => a - b);
  // Admissions with sent <= refusal.received and received > refusal.sent - spanMs; one answered by
  // the window's start was also sent by then, so the second count removes exactly those.
  return refused.filter((r) => countAtMost(sent, r.received) - countAtMost(received, r.sent - spanMs) < limit).length;
}

/** Admissions per consecutive whole window from `start` (by send), the last partial window left out. */
export function countsPerWindow(admitted: readonly Exchange[], start: number, end: number, spanMs: number): number[] {
  const windows = Math.floor((end - start) / spanMs);
  const counts = Array<number>(windows).fill(0);
  for (const e of admitted) {
    const index = Math.floor((e.sent - start) / spanMs);
    if (index >= 0 && index < windows) counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}
