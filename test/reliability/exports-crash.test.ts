/**
 * An export whose process dies mid-run (issue #20, section 5): the service (`src/main.ts`, one
 * process) runs an export whose route waits on a locked table, and is killed with SIGKILL. A service
 * started afterwards on the same database finds the dead run by its stale heartbeat within a
 * minute, shows the export `retrying` with its revision increased, runs it again, and it finishes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createExport, downloadExport, getExport, listStockSplits } from '../../generated/client/index.js';
import { createClient, createConfig, type Client } from '../../generated/client/client/index.js';
import type { ExportJob } from '../../generated/client/types.gen.js';
import { createAccount, createKey } from '../../src/accounts.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/db-server/embedded.js';
import { openDatabase } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { EXPORT_HEARTBEAT_MS } from '../../src/jobs/export-policy.js';
import { createLogger } from '../../src/logging.js';
import { seedSplits } from '../../src/seed.js';
import { startService, type RunningService } from '../../src/server.js';
import { createDatabase } from '../support/service.js';
import { nodeArgsOf } from '../support/service-process.js';
import { settled } from '../support/settled.js';

/** The test polls the export many times a second; the account's rate windows must not refuse it. */
const POLLING_LIMITS = { LIMIT_PER_SECOND: '100000', LIMIT_PER_MINUTE: '1000000' };

describe('an export interrupted by a crash', () => {
  let databaseUrl: string;
  let dataDir: string;
  let key: string;
  let child: ChildProcess | null = null;
  let output = '';
  let recovered: RunningService | null = null;
  const lock = { client: null as pg.Client | null };

  beforeAll(async () => {
    databaseUrl = await createDatabase(inject('postgresUrl'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-crash-'));
    const database = await openDatabase({ databaseUrl, embeddedDir: '', embeddedPort: 0, poolSize: 1, statementTimeoutMs: 10_000 });
    try {
      await migrateToLatest(database.admin);
      await seedSplits(database.admin);
      key = (await createKey(database.admin, await createAccount(database.admin, { name: 'crash', plan: 'pro' }), 'crash')).key;
    } finally {
      await database.close();
    }
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await lock.client?.end().catch(() => undefined);
    await recovered?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const clientOf = (url: string): Client => createClient(createConfig({ baseUrl: url, auth: () => key }));
  const job = async (client: Client, id: string): Promise<ExportJob> => {
    const r = await getExport({ client, path: { id } });
    if (!r.data) throw new Error(`GET /v1/exports/${id} answered ${r.response.status}`);
    return r.data.data;
  };

  it('is found within a minute of the kill, shows retrying with its revision increased, and finishes', async () => {
    const port = await freePort();
    child = spawn(process.execPath, nodeArgsOf('src/main.ts'), {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        EXPORT_STORE: 'disk',
        PORT: String(port),
        WEB_WORKERS: '1',
        SEED_ON_START: 'false',
        LOG_LEVEL: 'silent',
        ENDPOINT_TIMEOUT_MS: '120000',
        ...POLLING_LIMITS,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    await settled(
      () => output,
      (text) => /listening on/.test(text) || child?.exitCode !== null,
      { what: 'the service to listen', timeoutMs: 60_000 },
    );
    expect(output).toMatch(/listening on/);
    const first = clientOf(`http://127.0.0.1:${port}`);

    // The route's first read waits on this lock, so the run is in flight when the process dies.
    lock.client = new pg.Client({ connectionString: databaseUrl });
    await lock.client.connect();
    await lock.client.query('begin');
    await lock.client.query('lock table stock_splits in access exclusive mode');
    const created = await createExport({ client: first, body: { path: '/v1/stocks/splits', query: { limit: 100000 } } });
    expect(created.response.status).toBe(202);
    const id = created.data?.data.id ?? '';
    const running = await settled(
      () => job(first, id),
      (j) => j.last_attempt_timestamp !== undefined,
      { what: 'the export to start' },
    );
    expect(running.status).toBe('queued');
    // Let one heartbeat pass, so the run is seen alive before it dies.
    const { rows: before } = await lock.client.query<{ heartbeat_at: Date }>('select heartbeat_at from exports where id = $1', [id]);
    await settled(
      async () =>
        (
          await lock.client!.query<{ heartbeat_at: Date }>('select heartbeat_at from exports where id = $1', [id])
        ).rows[0]?.heartbeat_at.getTime(),
      (t) => t !== undefined && t > (before[0]?.heartbeat_at.getTime() ?? 0),
      { what: 'a heartbeat of the run', timeoutMs: EXPORT_HEARTBEAT_MS * 3 },
    );

    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const killedAt = performance.now();

    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      EXPORT_STORE: 'disk',
      PORT: '0',
      LOG_LEVEL: 'silent',
      VALIDATE_RESPONSES: 'true',
      SEED_ON_START: 'false',
      ENDPOINT_TIMEOUT_MS: '120000',
      ...POLLING_LIMITS,
    });
    recovered = await startService(config, { jobs: true, logger: createLogger('silent') });
    const second = clientOf(recovered.url);
    const retrying = await settled(
      () => job(second, id),
      (j) => j.status !== 'queued',
      { what: 'the export to be found interrupted', timeoutMs: 60_000 },
    );
    const foundMs = performance.now() - killedAt;
    expect(retrying.status).toBe('retrying');
    expect(retrying.revision).toBeGreaterThan(running.revision);
    expect(foundMs).toBeLessThan(60_000);
    // It runs again (a new attempt, waiting on the lock as the first did), still showing retrying.
    const resumed = await settled(
      () => job(second, id),
      (j) => (j.last_attempt_timestamp ?? 0) > (running.last_attempt_timestamp ?? 0),
      { what: 'the export to run again' },
    );
    expect(resumed.status).toBe('retrying');
    console.log(
      `the interrupted export showed retrying ${Math.round(foundMs)} ms after its process was killed, and ran again ${Math.round(performance.now() - killedAt)} ms after it`,
    );

    await lock.client.query('commit');
    const ready = await settled(
      () => job(second, id),
      (j) => j.status === 'ready' || j.status === 'failed',
      { what: 'the resumed export', timeoutMs: 30_000 },
    );
    expect(ready.status).toBe('ready');
    expect(ready.revision).toBeGreaterThan(resumed.revision);
    const splits = (await listStockSplits({ client: second, query: { limit: 999 } })).data?.data ?? [];
    const file = (await downloadExport({ client: second, path: { id }, parseAs: 'text' })).data as unknown as string;
    expect((JSON.parse(file) as { data: unknown[] }).data).toEqual(splits);
    // One file for the export: the finished one.
    expect(fs.readdirSync(path.join(dataDir, 'exports')).filter((f) => f.startsWith(id))).toHaveLength(1);
  });
});
