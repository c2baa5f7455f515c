/**
 * Usage buckets from request-log counts: aligned to UTC hours or days, empty buckets present,
 * the per-route breakdown most requests first (ties by route).
 */
import type { components } from '../../generated/openapi.js';

export type UsageBucket = components['schemas']['UsageBucket'];
export type Granularity = 'hour' | 'day';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const RETENTION_MS = 7 * DAY_MS;

export function bucketMs(granularity: Granularity): number {
  return granularity === 'hour' ? HOUR_MS : DAY_MS;
}

export interface UsageRange {
  start: number;
  end: number;
}

/**
 * The range asked for, with the spec's defaults: end now; start 24 hours (hourly) or 7 days (daily)
 * before end; a start before the retention window is raised to it. Returns null when the range is
 * empty (start not before end).
 */
export function usageRange(now: number, granularity: Granularity, start?: number, end?: number): UsageRange | null {
  const rangeEnd = end ?? now;
  const requestedStart = start ?? rangeEnd - (granularity === 'hour' ? 24 * HOUR_MS : 7 * DAY_MS);
  const rangeStart = Math.max(requestedStart, now - RETENTION_MS);
  return rangeStart < rangeEnd ? { start: rangeStart, end: rangeEnd } : null;
}

export interface RouteCounts {
  bucket_start: number;
  route: string;
  requests: number;
  client_errors: number;
  errors: number;
  rate_limited: number;
  bytes_out: number;
}

export function usageBuckets(range: UsageRange, granularity: Granularity, rows: readonly RouteCounts[], byRoute: boolean): UsageBucket[] {
  const size = bucketMs(granularity);
  const first = Math.floor(range.start / size) * size;
  const buckets = new Map<number, UsageBucket>();
  for (let t = first; t < range.end; t += size) {
    buckets.set(t, { start_time: t, end_time: t + size, requests: 0, client_errors: 0, errors: 0, rate_limited: 0, bytes_out: 0 });
  }
  for (const row of rows) {
    const bucket = buckets.get(row.bucket_start);
    if (!bucket) continue;
    bucket.requests += row.requests;
    bucket.client_errors += row.client_errors;
    bucket.errors += row.errors;
    bucket.rate_limited += row.rate_limited;
    bucket.bytes_out += row.bytes_out;
    if (byRoute) {
      bucket.routes ??= [];
      bucket.routes.push({
        route: row.route,
        requests: row.requests,
        client_errors: row.client_errors,
        errors: row.errors,
        rate_limited: row.rate_limited,
        bytes_out: row.bytes_out,
      });
    }
  }
  for (const bucket of buckets.values()) {
    bucket.routes?.sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route));
  }
  return [...buckets.values()];
}
