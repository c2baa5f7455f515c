/**
 * The export pool as two accounts meet it (issue #20, section 5): one account queues five exports
 * that cannot finish (the table their route reads is locked), and another account's small export
 * still finishes at once; the first account runs two at a time while its others wait, and all five
 * finish once the lock goes. Then an export of an archived session waits for the load its route
 * asked for and finishes with the session's rows, instead of failing with data_pending.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExport, downloadExport, getExport, listOptionTrades, listStockSplits } from '../../generated/client/index.js';
import type { Client } from '../../generated/client/client/index.js';
import type { ExportJob, OptionPrint as Print } from '../../generated/client/types.gen.js';
import { sessionState } from '../../src/db/archive.js';
import { enforceRetention } from '../../src/ingest/archive.js';
import { EXPORT_RUNS_PER_ACCOUNT } from '../../src/jobs/export-policy.js';
import { MARKET_NOW } from '../support/market.js';
import { startTestService, type TestService } from '../support/service.js';
import { settled } from '../support/settled.js';

const DAY = '2026-11-20';
const PREVIOUS = '2026-11-19';

describe('the export pool', () => {
  let service: TestService;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'exports-pool-'));
    service = await startTestService({
      // The second test's market, loaded here under the set-up's time limit: loaded in the test (the
      // first file of a run to need it simulates it), it took most of the test's 120 s on a busy machine.
      market: { dates: [PREVIOUS, DAY] },
      jobs: true,
      clock: () => MARKET_NOW,
      env: {
        DATA_DIR: dataDir,
        LIMIT_PER_SECOND: '100000',
        LIMIT_PER_MINUTE: '1000000',
        LIMIT_IN_FLIGHT: '100',
        ENDPOINT_TIMEOUT_MS: '120000',
      },
    });
  });
  afterAll(async () => {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const job = async (client: Client, id: string): Promise<ExportJob> => {
    const r = await getExport({ client, path: { id } });
    if (!r.data) throw new Error(`GET /v1/exports/${id} answered ${r.response.status}`);
    return r.data.data;
  };
  const jobs = async (client: Client, ids: string[]): Promise<ExportJob[]> => Promise.all(ids.map((id) => job(client, id)));
  const create = async (client: Client, body: { path: string; query?: Record<string, string | number> }): Promise<string> => {
    const r = await createExport({ client, body });
    expect(r.response.status, JSON.stringify(r.error)).toBe(202);
    return r.data?.data.id ?? '';
  };

  it("finishes another account's export while one account's five cannot finish, running two of them at a time", async () => {
    const busy = await service.newAccount();
    const other = await service.newAccount();
    const lock = new pg.Client({ connectionString: service.database.connectionString });
    await lock.connect();
    try {
      // Every run of the busy account's exports waits on this lock in its first query.
      await lock.query('begin');
      await lock.query('lock table stock_splits in access exclusive mode');
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.push(await create(busy.client, { path: '/v1/stocks/splits', query: { limit: 20 + i } }));
      // Two runs start (the account's share); the other three are parked, never attempted.
      const started = await settled(
        () => jobs(busy.client, ids),
        (list) => list.filter((j) => j.last_attempt_timestamp !== undefined).length >= EXPORT_RUNS_PER_ACCOUNT,
        { what: 'two of the busy account exports to start' },
      );
      expect(started.every((j) => j.status === 'queued')).toBe(true);

      const t0 = performance.now();
      const small = await create(other.client, { path: '/v1/market/calendar', query: { date: '2026-11-27' } });
      const ready = await settled(
        () => job(other.client, small),
        (j) => j.status !== 'queued',
        { what: "the other account's export", timeoutMs: 15_000 },
      );
      const waitedMs = performance.now() - t0;
      expect(ready).toMatchObject({ status: 'ready', rows: 1 });
      console.log(`the other account's export was ready in ${Math.round(waitedMs)} ms while the busy account's five could not finish`);

      const meanwhile = await jobs(busy.client, ids);
      expect(meanwhile.map((j) => j.status)).toEqual(['queued', 'queued', 'queued', 'queued', 'queued']);
      expect(meanwhile.filter((j) => j.last_attempt_timestamp !== undefined)).toHaveLength(EXPORT_RUNS_PER_ACCOUNT);
      const waiting = await lock.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%stock_splits%'",
      );
      expect(waiting.rows[0]?.n).toBe(EXPORT_RUNS_PER_ACCOUNT);

      await lock.query('commit');
      const done = await settled(
        () => jobs(busy.client, ids),
        (list) => list.every((j) => j.status !== 'queued'),
        { what: 'the busy account exports', timeoutMs: 30_000 },
      );
      expect(done.map((j) => j.status)).toEqual(['ready', 'ready', 'ready', 'ready', 'ready']);
      const splits = (await listStockSplits({ client: busy.client, query: { limit: 100 } })).data?.data ?? [];
      for (const [i, id] of ids.entries()) {
        const file = (await downloadExport({ client: busy.client, path: { id }, parseAs: 'text' })).data as unknown as string;
        expect((JSON.parse(file) as { data: unknown[] }).data).toEqual(splits.slice(0, 20 + i));
      }
    } finally {
      await lock.query('rollback').catch(() => undefined);
      await lock.end();
    }
  });

  it('waits for an archived session to be loaded and exports it, instead of failing with data_pending', async () => {
    const { client } = await service.newAccount();
    const query = { underlying_symbol: 'SPY', date: PREVIOUS };
    const rows: Print[] = [];
    for (let cursor: string | undefined; ;) {
      const page = await listOptionTrades({ client, query: { ...query, limit: 500, cursor_id: cursor } });
      rows.push(...(page.data?.data ?? []));
      cursor = page.data?.pagination.next_cursor_id ?? undefined;
      if (!cursor) break;
    }
    expect(rows.length).toBeGreaterThan(100);
    // The Friday after Thanksgiving, evening: the hot window is Nov 20 to 27; Nov 19 is archived.
    expect(
      await enforceRetention(service.database.admin, {
        archiveRoot: path.join(dataDir, 'archive'),
        now: Date.parse('2026-11-28T03:00:00Z'),
      }),
    ).toEqual([PREVIOUS]);
    expect(await sessionState(service.database.admin, PREVIOUS)).toBe('archived');

    const t0 = performance.now();
    const id = await create(client, { path: '/v1/options/trades', query: { ...query, limit: 100000 } });
    const seen = new Set<string>();
    const finished = await settled(
      async () => {
        const j = await job(client, id);
        seen.add(j.status);
        return j;
      },
      (j) => j.status === 'ready' || j.status === 'failed',
      { what: 'the export of the archived session', timeoutMs: 60_000 },
    );
    console.log(
      `the export of the archived session was ${finished.status} ${Math.round(performance.now() - t0)} ms after it was created (statuses seen: ${[...seen].join(', ')})`,
    );
    expect(finished).toMatchObject({ status: 'ready', rows: rows.length, truncated: false });
    expect([...seen]).not.toContain('retrying');
    expect(await sessionState(service.database.admin, PREVIOUS)).toBe('hot');
    const file = (await downloadExport({ client, path: { id }, parseAs: 'text' })).data as unknown as string;
    expect((JSON.parse(file) as { data: Print[] }).data.map((p) => p.id)).toEqual(rows.map((p) => p.id));
  });
});
