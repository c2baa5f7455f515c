/**
 * GET /v1/status answers within a second whatever the data tables do (issue #20, section 1): with
 * a lock held on a table its freshness figures read, it answered 504 after the endpoint's 20 s.
 * Now it answers in time with the figures of the last read and when that was: degraded when it
 * cannot tell whether they still hold, ok when the data stamp it reads first says nothing was
 * written since; once the lock is gone it is ok again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockTable } from '../support/service-process.js';
import { startTestService, type TestService } from '../support/service.js';

interface Status {
  status: string;
  database: { status: string; latency_ms: number | null };
  datasets: { dataset: string; rows: number | null }[];
  datasets_timestamp: number | null;
}

describe('GET /v1/status with a data table locked', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });

  afterAll(async () => {
    await service?.stop();
  });

  async function status(): Promise<{ ms: number; httpStatus: number; data: Status }> {
    const started = performance.now();
    const response = await fetch(`${service.url}/v1/status`);
    const body = (await response.json()) as { data: Status };
    return { ms: performance.now() - started, httpStatus: response.status, data: body.data };
  }

  it('answers within a second, degraded with the last figures read, and ok again once the lock is gone', async () => {
    const before = await status();
    expect(before.httpStatus).toBe(200);
    expect(before.data).toMatchObject({ status: 'ok', database: { status: 'ok' } });
    expect(before.data.datasets.find((d) => d.dataset === 'equities.splits')?.rows).toBeGreaterThanOrEqual(50);

    const databaseUrl = service.config.databaseUrl as string;
    // A table the data stamp reads (db/status.ts datasetStamp): the figures cannot be confirmed,
    // degraded. A table only the figures read: the stamp says nothing was written since they were
    // read, so they still hold and are served, ok, without reading the locked table.
    for (const [table, expected] of [
      ['stock_splits', 'degraded'],
      ['underlying_bars', 'ok'],
      ['open_interest', 'ok'],
    ] as const) {
      const lock = await lockTable(databaseUrl, table);
      try {
        const during = await status();
        expect(during.ms, table).toBeLessThan(1_000);
        expect(during.httpStatus).toBe(200);
        expect(during.data, table).toMatchObject({ status: expected, database: { status: 'ok' } });
        expect(during.data.datasets).toEqual(before.data.datasets);
        expect(during.data.datasets_timestamp).toBe(before.data.datasets_timestamp);
      } finally {
        await lock.release();
      }
    }

    expect(before.data.datasets_timestamp).toEqual(expect.any(Number));
    const after = await status();
    expect(after.data).toMatchObject({ status: 'ok', database: { status: 'ok' } });
    expect(after.data.datasets).toEqual(before.data.datasets);
    expect(after.data.datasets_timestamp).toBeGreaterThanOrEqual(before.data.datasets_timestamp as number);
  });
});
