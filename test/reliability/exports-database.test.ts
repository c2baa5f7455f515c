/**
 * Export files held in the database (EXPORT_STORE=database, the default with DATABASE_URL; issue 37
 * §2): a ready export's file is in `export_chunks` under the run that wrote it and nowhere on the
 * disk, and its download streams the chunks in order (HEAD reads none); a chunk is added only by the run holding the
 * export's lease; the sweep deletes the chunks of a run that died and those of an expired file. The
 * service's clock is the test's own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getExport } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ExportJob } from '../../generated/client/types.gen.js';
import { addExportChunk, runOfDatabaseFile } from '../../src/db/export-chunks.js';
import { findExport } from '../../src/db/exports.js';
import { EXPORT_CHUNK_BYTES } from '../../src/jobs/export.js';
import { sweepExports } from '../../src/jobs/export-sweep.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

const DAY = '2026-11-20';

describe('export files held in the database', () => {
  let service: TestService;
  let client: Client;
  let key: string;
  let dataDir: string;
  let nowMs = MARKET_NOW;

  const chunks = async (id: string): Promise<{ run_id: string; seq: number; bytes: number }[]> =>
    (
      await sql<{ run_id: string; seq: number; bytes: number }>`
        select run_id, seq, length(bytes) as bytes from export_chunks where export_id = ${id} order by run_id, seq`.execute(
        service.database.admin,
      )
    ).rows;

  const exported = async (body: { path: string; query?: Record<string, unknown> }): Promise<ExportJob> => {
    const created = await createExport({ client, body });
    expect(created.response.status).toBe(202);
    const id = created.data?.data.id ?? '';
    return await settled(
      async () => (await getExport({ client, path: { id } })).data?.data,
      (j) => j?.status === 'ready' || j?.status === 'failed',
      { what: `export ${id}`, timeoutMs: 60_000 },
    ).then((j) => j!);
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-database-'));
    service = await startTestService({
      market: { dates: [DAY] },
      jobs: true,
      clock: () => nowMs,
      env: { DATA_DIR: dataDir, LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' },
    });
    expect(service.config.exportStore).toBe('database');
    ({ client, key } = await service.newAccount());
  });
  afterAll(async () => {
    await service?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a ready file in chunks under its run, none on the disk, and streams it in order', async () => {
    const job = await exported({ path: '/v1/options/flow', query: { date: DAY, session: 'all', limit: 100000 } });
    expect(job.status).toBe('ready');
    const row = await findExport(service.database.admin, job.id);
    const runId = runOfDatabaseFile(row?.file_path ?? '');
    expect(runId).not.toBeNull();
    const held = await chunks(job.id);
    // More than one chunk, each full but the last, all of the one run, numbered from 0.
    expect(held.length).toBeGreaterThan(1);
    expect(held.map((c) => c.run_id)).toEqual(held.map(() => runId));
    expect(held.map((c) => c.seq)).toEqual(held.map((_, i) => i));
    expect(held.slice(0, -1).every((c) => c.bytes === EXPORT_CHUNK_BYTES)).toBe(true);
    expect(held.reduce((sum, c) => sum + c.bytes, 0)).toBe(job.bytes);
    expect(fs.readdirSync(path.join(dataDir, 'exports')).filter((f) => f.startsWith(job.id))).toEqual([]);

    const started = performance.now();
    const download = await downloadExport({ client, path: { id: job.id }, parseAs: 'text' });
    console.log(
      `downloaded ${job.bytes} bytes in ${held.length} chunks from the database in ${Math.round(performance.now() - started)} ms`,
    );
    expect(download.response.status).toBe(200);
    const text = download.data as unknown as string;
    expect(Buffer.byteLength(text)).toBe(job.bytes);
    const file = JSON.parse(text) as { data: { id: string }[]; truncated: boolean };
    expect(file.data).toHaveLength(job.rows ?? -1);
    expect(file.truncated).toBe(false);
    // HEAD: the same headers, no body.
    const head = await fetch(`${service.url}/v1/exports/${job.id}/download`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(job.bytes));
    expect(head.headers.get('etag')).toBe(download.response.headers.get('etag'));
    expect(await head.text()).toBe('');
  });

  it('adds a chunk only for the run holding the lease; the sweep deletes the chunks of a run that died and runs the export again', async () => {
    const job = await exported({ path: '/v1/market/calendar', query: { date: '2026-11-27' } });
    const id = job.id;
    // The export made active again, held by a run whose heartbeat is an hour old (its machine died while storing its file).
    await sql`
      update exports set status = 'queued', run_id = 'dead-run', heartbeat_at = now() - interval '1 hour', file_path = null
      where id = ${id}`.execute(service.database.admin);
    await sql`delete from export_chunks where export_id = ${id}`.execute(service.database.admin);
    expect(await addExportChunk(service.database.admin, id, 'other-run', 0, Buffer.from('not the holder'))).toBe(false);
    expect(await addExportChunk(service.database.admin, id, 'dead-run', 0, Buffer.from('half a file'))).toBe(true);
    const before = (await chunks(id)).filter((c) => c.run_id === 'dead-run');
    expect(before).toHaveLength(1);

    const outcome = await sweepExports(service.deps, service.deps.jobs!);
    expect(outcome.resumed).toBe(1);
    expect((await chunks(id)).filter((c) => c.run_id === 'dead-run')).toEqual([]);
    const again = await settled(
      async () => (await getExport({ client, path: { id } })).data?.data,
      (j) => j?.status === 'ready' || j?.status === 'failed',
      { what: `export ${id} run again`, timeoutMs: 30_000 },
    );
    expect(again?.status).toBe('ready');
    const stored = runOfDatabaseFile((await findExport(service.database.admin, id))?.file_path ?? '');
    expect(new Set((await chunks(id)).map((c) => c.run_id))).toEqual(new Set([stored]));
    expect((await downloadExport({ client, path: { id }, parseAs: 'text' })).response.status).toBe(200);
  });

  it("deletes an expired file's chunks at the next sweep; the download answers 410", async () => {
    nowMs = MARKET_NOW;
    const job = await exported({ path: '/v1/market/calendar', query: { date: '2026-11-26' } });
    expect((await chunks(job.id)).length).toBeGreaterThan(0);
    nowMs = job.expires_timestamp!;
    const outcome = await sweepExports(service.deps, service.deps.jobs!);
    expect(outcome.filesDeleted).toBeGreaterThanOrEqual(1);
    expect(await chunks(job.id)).toEqual([]);
    expect((await findExport(service.database.admin, job.id))?.file_path).toBeNull();
    expect((await downloadExport({ client, path: { id: job.id } })).response.status).toBe(410);
  });
});
