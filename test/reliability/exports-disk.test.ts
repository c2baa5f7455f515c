/**
 * Export disk (issue 34, section 5): an account's export files may hold at most its plan's cap of
 * bytes (429 export_limit naming the cap's setting, until the soonest file expires), and below the
 * service's floor of free disk exports wait: a new one is refused 503 upstream_busy, an accepted one
 * stays queued until the disk is above the floor again, and /v1/status shows `exports: paused`.
 * The floor is set above the disk's free space rather than the disk filled; the caps are lowered.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, getAccountLimits, getExport, getStatus } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ExportJob } from '../../generated/client/types.gen.js';
import { findExport, insertExportWithinLimit } from '../../src/db/exports.js';
import { newId } from '../../src/ids.js';
import { EXPORT_FILE_RETENTION_MS } from '../../src/jobs/export-policy.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

async function settledExport(client: Client, id: string): Promise<ExportJob> {
  return await settled(
    async () => (await getExport({ client, path: { id } })).data?.data,
    (j) => j?.status === 'ready' || j?.status === 'failed',
    { what: `export ${id}`, timeoutMs: 20_000 },
  ).then((j) => j!);
}

const CALENDAR = { path: '/v1/market/calendar', query: { date: '2026-11-27' } };

describe('export disk', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-disk-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  describe("an account's bytes held", () => {
    let service: TestService;
    let nowMs = MARKET_NOW;
    beforeAll(async () => {
      service = await startTestService({
        jobs: true,
        clock: () => nowMs,
        // One small file reaches the basic cap; the pro cap holds many.
        limits: { exportBytesHeld: { basic: 200, pro: 1_000_000 } },
        env: { DATA_DIR: dataDir, LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
      });
    });
    afterAll(async () => service.stop());

    it('refuses a new export 429 export_limit, naming the plan cap, until the soonest file expires', async () => {
      nowMs = MARKET_NOW;
      const basic = await service.newAccount({ plan: 'basic' });
      const first = await createExport({ client: basic.client, body: CALENDAR });
      expect(first.response.status).toBe(202);
      const ready = await settledExport(basic.client, first.data?.data.id ?? '');
      expect(ready.status).toBe('ready');
      expect(ready.bytes).toBeGreaterThanOrEqual(200);

      const limits = (await getAccountLimits({ client: basic.client })).data?.data;
      expect(limits?.export_bytes_held).toBe(ready.bytes);
      expect(limits?.limits.export_bytes_held_max).toBe(200);

      const refused = await createExport({ client: basic.client, body: CALENDAR });
      expect(refused.response.status).toBe(429);
      expect(refused.error?.error.code).toBe('export_limit');
      expect(refused.error?.error.message).toContain('LIMIT_EXPORT_BYTES_BASIC');
      expect(refused.error?.error.message).toContain(`${ready.bytes} bytes`);
      // Retry-After: until the file expires, a day after it was ready.
      expect(Number(refused.response.headers.get('retry-after'))).toBe(Math.ceil((ready.expires_timestamp! - nowMs) / 1000));

      // A pro account of the same service is under its own cap.
      const pro = await service.newAccount({ plan: 'pro' });
      for (let i = 0; i < 2; i += 1) {
        const made = await createExport({ client: pro.client, body: CALENDAR });
        expect(made.response.status).toBe(202);
        expect((await settledExport(pro.client, made.data?.data.id ?? '')).status).toBe('ready');
      }
      expect((await getAccountLimits({ client: pro.client })).data?.data.limits.export_bytes_held_max).toBe(1_000_000);

      // Once the file has expired it no longer counts.
      nowMs = MARKET_NOW + EXPORT_FILE_RETENTION_MS;
      expect((await getAccountLimits({ client: basic.client })).data?.data.export_bytes_held).toBe(0);
      const again = await createExport({ client: basic.client, body: CALENDAR });
      expect(again.response.status).toBe(202);
    });
  });

  describe('the floor of free disk', () => {
    let service: TestService;
    let client: Client;
    let accountId: string;
    beforeAll(async () => {
      const stats = fs.statfsSync(dataDir);
      service = await startTestService({
        jobs: true,
        // Far above the disk's free space: exports are paused from the start.
        limits: { exportDiskFloorBytes: stats.bavail * stats.bsize * 2 + 1024 ** 4 },
        env: { DATA_DIR: dataDir, LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
      });
      ({ client, id: accountId } = await service.newAccount());
    });
    afterAll(async () => service.stop());

    it('refuses new exports 503, keeps accepted ones waiting, and says so in /v1/status; they run once above it', async () => {
      expect((await getStatus({ client })).data?.data.exports).toBe('paused');
      const refused = await createExport({ client, body: CALENDAR });
      expect(refused.response.status).toBe(503);
      expect(refused.error?.error.code).toBe('upstream_busy');
      expect(refused.error?.error.message).toContain('EXPORT_DISK_FLOOR_BYTES');
      expect(refused.response.headers.get('retry-after')).toBe('10');

      // An export accepted before the disk ran low: its run finds the disk below the floor and waits.
      const inserted = await insertExportWithinLimit(
        service.database.admin,
        { id: newId('exp', 20), account_id: accountId, operation_id: 'getMarketCalendarDay', path: CALENDAR.path, query: CALENDAR.query },
        { activeLimit: 5, bytesLimit: Number.MAX_SAFE_INTEGER, now: new Date() },
      );
      if (inserted.outcome !== 'inserted') throw new Error(`not inserted: ${inserted.outcome}`);
      const id = inserted.row.id;
      await service.deps.jobs!.submitExport(id);
      const waiting = await settled(
        () => findExport(service.database.admin, id),
        (row) => row?.pending_since != null,
        { what: 'the export to wait for disk', timeoutMs: 15_000 },
      );
      expect(waiting).toMatchObject({ status: 'queued', attempts: 0, file_path: null });
      expect((await getExport({ client, path: { id } })).data?.data.status).toBe('queued');

      // The operator lowers the floor (here in the running service's settings): the export runs.
      service.config.limits.exportDiskFloorBytes = 0;
      expect((await getStatus({ client })).data?.data.exports).toBe('ok');
      expect(await settledExport(client, id)).toMatchObject({ status: 'ready', rows: 1 });
      expect((await createExport({ client, body: CALENDAR })).response.status).toBe(202);
    });
  });
});
