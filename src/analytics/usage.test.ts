import { describe, expect, it } from 'vitest';
import { bucketMs, DAY_MS, HOUR_MS, RETENTION_MS, usageBuckets, usageRange, type RouteCounts } from './usage.js';

/** 2025-11-20T10:37:12.345Z */
const NOW = Date.UTC(2025, 10, 20, 10, 37, 12, 345);
const H10 = Date.UTC(2025, 10, 20, 10);
const DAY20 = Date.UTC(2025, 10, 20);

function row(bucket_start: number, route: string, requests: number, extra: Partial<RouteCounts> = {}): RouteCounts {
  return { bucket_start, route, requests, client_errors: 0, errors: 0, rate_limited: 0, bytes_out: 0, ...extra };
}

describe('constants', () => {
  it('bucket sizes and retention', () => {
    expect(bucketMs('hour')).toBe(3_600_000);
    expect(bucketMs('day')).toBe(86_400_000);
    expect(HOUR_MS).toBe(3_600_000);
    expect(DAY_MS).toBe(86_400_000);
    expect(RETENTION_MS).toBe(7 * 86_400_000);
  });
});

describe('usageRange', () => {
  it('hourly default: the 24 hours before now', () => {
    expect(usageRange(NOW, 'hour')).toEqual({ start: NOW - 24 * HOUR_MS, end: NOW });
  });

  it('daily default: the 7 days before now', () => {
    expect(usageRange(NOW, 'day')).toEqual({ start: NOW - 7 * DAY_MS, end: NOW });
  });

  it('defaults start relative to a given end', () => {
    const end = NOW - 2 * DAY_MS;
    expect(usageRange(NOW, 'hour', undefined, end)).toEqual({ start: end - 24 * HOUR_MS, end });
    // 7 days before that end is before the retention window: raised to it
    expect(usageRange(NOW, 'day', undefined, end)).toEqual({ start: NOW - RETENTION_MS, end });
  });

  it('keeps an explicit start inside the retention window', () => {
    const start = NOW - 3 * DAY_MS;
    expect(usageRange(NOW, 'hour', start)).toEqual({ start, end: NOW });
    expect(usageRange(NOW, 'day', start, NOW - DAY_MS)).toEqual({ start, end: NOW - DAY_MS });
  });

  it('raises a start earlier than 7 days back to the retention window', () => {
    expect(usageRange(NOW, 'hour', NOW - 30 * DAY_MS)).toEqual({ start: NOW - RETENTION_MS, end: NOW });
    expect(usageRange(NOW, 'day', 946_684_800_000)).toEqual({ start: NOW - RETENTION_MS, end: NOW });
    expect(usageRange(NOW, 'hour', NOW - RETENTION_MS - 1)?.start).toBe(NOW - RETENTION_MS);
    expect(usageRange(NOW, 'hour', NOW - RETENTION_MS + 1)?.start).toBe(NOW - RETENTION_MS + 1);
  });

  it('is null when start is not before end', () => {
    expect(usageRange(NOW, 'hour', NOW, NOW)).toBeNull();
    expect(usageRange(NOW, 'hour', NOW + 1, NOW)).toBeNull();
    expect(usageRange(NOW, 'hour', NOW - HOUR_MS, NOW - 2 * HOUR_MS)).toBeNull();
    // an end before the retention window leaves nothing once the start is raised
    expect(usageRange(NOW, 'day', undefined, NOW - 8 * DAY_MS)).toBeNull();
    expect(usageRange(NOW, 'hour', NOW - 1, NOW)).toEqual({ start: NOW - 1, end: NOW });
  });
});

describe('usageBuckets', () => {
  it('aligns hourly buckets to UTC hours: a range starting 10:37 begins with the 10:00 bucket', () => {
    const range = { start: H10 + 37 * 60_000, end: H10 + 3 * HOUR_MS + 5 * 60_000 };
    const buckets = usageBuckets(range, 'hour', [], false);
    expect(buckets.map((b) => b.start_time)).toEqual([H10, H10 + HOUR_MS, H10 + 2 * HOUR_MS, H10 + 3 * HOUR_MS]);
  });

  it('has no bucket starting at or after the exclusive end', () => {
    const buckets = usageBuckets({ start: H10, end: H10 + 2 * HOUR_MS }, 'hour', [], false);
    expect(buckets.map((b) => b.start_time)).toEqual([H10, H10 + HOUR_MS]);
  });

  it('aligns daily buckets to UTC midnight', () => {
    const range = { start: NOW - 7 * DAY_MS, end: NOW };
    const buckets = usageBuckets(range, 'day', [], false);
    expect(buckets).toHaveLength(8);
    expect(buckets[0]?.start_time).toBe(DAY20 - 7 * DAY_MS);
    expect(buckets.at(-1)?.start_time).toBe(DAY20);
    for (const b of buckets) {
      expect(new Date(b.start_time).toISOString()).toMatch(/T00:00:00\.000Z$/);
    }
  });

  it('end_time = start_time + bucket size, and buckets are contiguous', () => {
    for (const granularity of ['hour', 'day'] as const) {
      const buckets = usageBuckets({ start: NOW - 3 * DAY_MS, end: NOW }, granularity, [], false);
      expect(buckets.length).toBeGreaterThan(1);
      buckets.forEach((b, i) => {
        expect(b.end_time - b.start_time).toBe(bucketMs(granularity));
        if (i > 0) expect(b.start_time).toBe(buckets[i - 1]?.end_time);
      });
    }
  });

  it('includes empty buckets with zero counts and no routes', () => {
    const buckets = usageBuckets({ start: NOW - 24 * HOUR_MS, end: NOW }, 'hour', [], true);
    expect(buckets).toHaveLength(25);
    for (const b of buckets) {
      expect(b).toEqual({
        start_time: b.start_time,
        end_time: b.start_time + HOUR_MS,
        requests: 0,
        client_errors: 0,
        errors: 0,
        rate_limited: 0,
        bytes_out: 0,
      });
      expect(b.routes).toBeUndefined();
    }
  });

  it('sums the counts of every route into its bucket', () => {
    const rows = [
      row(H10, '/v1/options/trades', 5, { client_errors: 2, errors: 1, rate_limited: 1, bytes_out: 1000 }),
      row(H10, '/v1/catalog', 3, { client_errors: 1, errors: 0, rate_limited: 0, bytes_out: 500 }),
      row(H10 + HOUR_MS, '/v1/catalog', 7, { bytes_out: 70 }),
    ];
    const buckets = usageBuckets({ start: H10, end: H10 + 3 * HOUR_MS }, 'hour', rows, false);
    expect(buckets).toEqual([
      { start_time: H10, end_time: H10 + HOUR_MS, requests: 8, client_errors: 3, errors: 1, rate_limited: 1, bytes_out: 1500 },
      { start_time: H10 + HOUR_MS, end_time: H10 + 2 * HOUR_MS, requests: 7, client_errors: 0, errors: 0, rate_limited: 0, bytes_out: 70 },
      {
        start_time: H10 + 2 * HOUR_MS,
        end_time: H10 + 3 * HOUR_MS,
        requests: 0,
        client_errors: 0,
        errors: 0,
        rate_limited: 0,
        bytes_out: 0,
      },
    ]);
  });

  it('adds routes only when byRoute, and only on buckets with requests', () => {
    const rows = [row(H10, '/v1/catalog', 3, { bytes_out: 30 })];
    const without = usageBuckets({ start: H10, end: H10 + 2 * HOUR_MS }, 'hour', rows, false);
    expect(without.every((b) => b.routes === undefined)).toBe(true);

    const withRoutes = usageBuckets({ start: H10, end: H10 + 2 * HOUR_MS }, 'hour', rows, true);
    expect(withRoutes[0]?.routes).toEqual([
      { route: '/v1/catalog', requests: 3, client_errors: 0, errors: 0, rate_limited: 0, bytes_out: 30 },
    ]);
    expect(withRoutes[1]?.requests).toBe(0);
    expect(withRoutes[1]).not.toHaveProperty('routes');
  });

  it('sorts routes most requests first, then by route name', () => {
    const rows = [
      row(H10, '/v1/options/trades', 2),
      row(H10, '/v1/catalog', 9),
      row(H10, '/v1/status', 5),
      row(H10, '/v1/account', 5),
      row(H10, '/v1/market/calendar', 5),
    ];
    const [bucket] = usageBuckets({ start: H10, end: H10 + HOUR_MS }, 'hour', rows, true);
    expect(bucket?.routes?.map((r) => [r.route, r.requests])).toEqual([
      ['/v1/catalog', 9],
      ['/v1/account', 5],
      ['/v1/market/calendar', 5],
      ['/v1/status', 5],
      ['/v1/options/trades', 2],
    ]);
    expect(bucket?.requests).toBe(26);
  });

  it('ignores rows outside the buckets (or not on a bucket boundary)', () => {
    const rows = [
      row(H10 - HOUR_MS, '/v1/catalog', 100),
      row(H10 + 2 * HOUR_MS, '/v1/catalog', 100),
      row(H10 + 60_000, '/v1/catalog', 100),
      row(H10, '/v1/catalog', 1),
    ];
    const buckets = usageBuckets({ start: H10 + 10 * 60_000, end: H10 + 2 * HOUR_MS }, 'hour', rows, true);
    expect(buckets.map((b) => [b.start_time, b.requests])).toEqual([
      [H10, 1],
      [H10 + HOUR_MS, 0],
    ]);
    expect(buckets[0]?.routes).toHaveLength(1);
  });

  it('works for daily buckets', () => {
    const rows = [row(DAY20, '/v1/catalog', 4), row(DAY20 - DAY_MS, '/v1/catalog', 6), row(DAY20, '/v1/status', 1)];
    const buckets = usageBuckets({ start: DAY20 - DAY_MS + 5, end: NOW }, 'day', rows, true);
    expect(buckets.map((b) => [b.start_time, b.end_time, b.requests])).toEqual([
      [DAY20 - DAY_MS, DAY20, 6],
      [DAY20, DAY20 + DAY_MS, 5],
    ]);
    expect(buckets[1]?.routes?.map((r) => r.route)).toEqual(['/v1/catalog', '/v1/status']);
  });
});
