/**
 * Export files (issue #20, section 5): the byte cap holds for every answer, not only paginated rows
 * (rows of a paginated route and of a route answering one array are cut to fit; an answer that is
 * one object and does not fit fails the export), and a ready export's file is kept until its
 * `expires_timestamp`, after which the download answers 410 and the file is deleted (files on the
 * local disk: EXPORT_STORE=disk; test/deployment/machines.test.ts downloads files held in the
 * database from any machine). The cap is
 * lowered for the test (the service's limits), the clock is the service's own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getExport, listOptionOvernightSessions, listStockSplits } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ExportJob } from '../../generated/client/types.gen.js';
import { findExport } from '../../src/db/exports.js';
import { EXPORT_FILE_RETENTION_MS } from '../../src/jobs/export-policy.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

const CAP = 1500;

async function settledExport(client: Client, id: string): Promise<ExportJob> {
  return await settled(
    async () => (await getExport({ client, path: { id } })).data?.data,
    (j) => j?.status === 'ready' || j?.status === 'failed',
    { what: `export ${id}`, timeoutMs: 20_000 },
  ).then((j) => j!);
}

async function exported(
  client: Client,
  body: { path: string; query?: Record<string, string | number> },
): Promise<{ job: ExportJob; text: string | null }> {
  const created = await createExport({ client, body });
  expect(created.response.status, JSON.stringify(created.error)).toBe(202);
  const job = await settledExport(client, created.data?.data.id ?? '');
  if (job.status !== 'ready') return { job, text: null };
  const file = await downloadExport({ client, path: { id: job.id }, parseAs: 'text' });
  return { job, text: file.data as unknown as string };
}

describe('export files', () => {
  let service: TestService;
  let client: Client;
  let dataDir: string;
  let nowMs = MARKET_NOW;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-files-'));
    service = await startTestService({
      jobs: true,
      clock: () => nowMs,
      limits: { exportMaxBytes: CAP },
      env: { DATA_DIR: dataDir, EXPORT_STORE: 'disk', LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    ({ client } = await service.newAccount());
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('cuts the rows of a paginated route at the byte cap, as many as fit', async () => {
    const all = (await listStockSplits({ client, query: { limit: 999 } })).data?.data ?? [];
    const { job, text } = await exported(client, { path: '/v1/stocks/splits', query: { limit: 100000 } });
    expect(job).toMatchObject({ status: 'ready', truncated: true });
    const file = JSON.parse(text!) as { data: unknown[]; meta: unknown; pages: number; truncated: boolean };
    expect(job.bytes).toBe(Buffer.byteLength(text!));
    expect(job.bytes).toBeLessThanOrEqual(CAP);
    expect(file.data.length).toBeGreaterThan(3);
    expect(file.data).toEqual(all.slice(0, file.data.length));
    // The next row would not have fitted (with the room kept for the end's page count).
    expect(Buffer.byteLength(JSON.stringify({ ...file, data: all.slice(0, file.data.length + 1) })) + 16).toBeGreaterThan(CAP);
  });

  it('cuts an array answered by a route without pages at the byte cap too', async () => {
    const all = (await listOptionOvernightSessions({ client })).data?.data ?? [];
    expect(Buffer.byteLength(JSON.stringify(all))).toBeGreaterThan(CAP);
    const { job, text } = await exported(client, { path: '/v1/options/sessions' });
    expect(job).toMatchObject({ status: 'ready', truncated: true });
    expect(job.bytes).toBeLessThanOrEqual(CAP);
    const file = JSON.parse(text!) as { data: unknown[] };
    expect(file.data.length).toBeGreaterThan(0);
    expect(file.data.length).toBe(job.rows);
    expect(file.data).toEqual(all.slice(0, file.data.length));
  });

  it('fails an export whose answer is one object larger than the cap (export_too_large), writing nothing', async () => {
    const small = await startTestService({ jobs: true, limits: { exportMaxBytes: 300 }, env: { DATA_DIR: dataDir, EXPORT_STORE: 'disk' } });
    try {
      const account = await small.newAccount();
      const { job } = await exported(account.client, { path: '/v1/market/calendar', query: { date: '2026-11-27' } });
      expect(job).toMatchObject({ status: 'failed', error_code: 'export_too_large' });
      expect(job.failure_reason).toMatch(/300 bytes/);
      expect(fs.readdirSync(path.join(dataDir, 'exports')).filter((f) => f.startsWith(job.id))).toEqual([]);
    } finally {
      await small.stop();
    }
  });

  it('keeps the file until expires_timestamp, then answers 410 and deletes it', async () => {
    nowMs = MARKET_NOW;
    const { job } = await exported(client, { path: '/v1/market/calendar', query: { date: '2026-11-27' } });
    expect(job.status).toBe('ready');
    expect(job.expires_timestamp).toBe(MARKET_NOW + EXPORT_FILE_RETENTION_MS);
    const file = (await findExport(service.database.admin, job.id))?.file_path ?? '';
    expect(fs.existsSync(file)).toBe(true);

    nowMs = job.expires_timestamp! - 1;
    expect((await downloadExport({ client, path: { id: job.id } })).response.status).toBe(200);

    nowMs = job.expires_timestamp!;
    const gone = await downloadExport({ client, path: { id: job.id } });
    expect(gone.response.status).toBe(410);
    expect(gone.error?.error.code).toBe('export_expired');
    expect((await getExport({ client, path: { id: job.id } })).data?.data).toMatchObject({
      status: 'ready',
      expires_timestamp: job.expires_timestamp,
    });

    // An export made now keeps its file while the expired one's is deleted by the sweep.
    const fresh = await exported(client, { path: '/v1/market/calendar', query: { date: '2026-11-26' } });
    // The sweep deletes the file, then forgets it in the store: both, in that order, before it is done.
    await settled(
      async () => ({ exists: fs.existsSync(file), path: (await findExport(service.database.admin, job.id))?.file_path }),
      ({ exists, path }) => !exists && path === null,
      { what: 'the expired file to be deleted and forgotten' },
    );
    expect((await downloadExport({ client, path: { id: job.id } })).response.status).toBe(410);
    expect(fresh.job.expires_timestamp).toBe(nowMs + EXPORT_FILE_RETENTION_MS);
    expect((await downloadExport({ client, path: { id: fresh.job.id } })).response.status).toBe(200);
  });
});
