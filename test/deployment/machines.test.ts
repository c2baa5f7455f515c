/**
 * Several service machines on one PostgreSQL (issue 37 §2 and §4): each machine is src/main.ts as
 * `make run` starts it, a cluster of a primary and two HTTP workers with its own port and DATA_DIR
 * (test/support/machines.ts), all on one database of the test cluster.
 *
 * - Three machines started at the same instant on an empty database all come up, the migrations
 *   applied once (under the migrator's lock). Each is one process (WEB_WORKERS=1: src/main.ts
 *   serves from the process that migrates and starts the jobs, through the same startService as a
 *   cluster's primary): the race is between the machines' primaries, which migrate and create the
 *   job queues; the HTTP workers a cluster forks take no part in it, and each would cost its own
 *   start (about a second of CPU: the contract parsed, the validators compiled).
 * The two-machine cases run the issue's deployment: a primary, its streaming replica
 * (test/support/replica-set.ts) and two machines with DATABASE_REPLICA_URLS, so their trades pages
 * read from the replica by the freshness floor (db/replicas.ts).
 *
 * - A print loaded on the primary appears through both machines' trades route and streams, once;
 *   a cursor of one machine's trades pages continues on the other.
 * - An export's file (held in the database: EXPORT_STORE's default with DATABASE_URL) downloads
 *   from either machine.
 * - The machine holding the live runner's duty is killed (SIGKILL, all its processes) with an export
 *   in flight: the other takes the duty over within 30 s (the defaults: a lease of 20 s looked at
 *   every 4 s), and its export sweep resumes the export, which finishes and downloads from it.
 *
 * Waits are polls with deadlines (settled) or the stream client's events, never fixed sleeps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount, createKey } from '../../src/accounts.js';
import { formatOccSymbol } from '../../src/analytics/occ.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { dutyLeases } from '../../src/db/duties.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { seedSplits } from '../../src/seed.js';
import { killMachine, pausePrimary, startMachine, startMachines, stopMachine, type Machine } from '../support/machines.js';
import { loadSimulatedMarket, MARKET_NOW } from '../support/market.js';
import { startReplicaSet, type ReplicaSet } from '../support/replica-set.js';
import { createDatabase } from '../support/service.js';
import { settled } from '../support/settled.js';
import { StreamClient, type StreamMessage } from '../support/stream-client.js';

const DAY = '2026-11-20';

/** Settings of every machine: the market's clock (Friday evening: no options session, so the live runner idles), limits out of the way. */
const MACHINE_ENV = {
  CLOCK_START: String(MARKET_NOW),
  // As `make run`: each machine seeds the market unless the store holds prints (it does: the
  // machines take the first start's lock in turn, db/duties.ts holdDeploymentLock, and skip it).
  SEED_ON_START: 'true',
  LIVE_MODE: 'live',
  LIMIT_PER_SECOND: '100000',
  LIMIT_PER_MINUTE: '1000000',
  LIMIT_IN_FLIGHT: '1000',
};

interface Print {
  id: string;
  timestamp: number;
  underlying_symbol: string;
  contract_type: 'call' | 'put';
  strike: number;
  date_of_expiry: string;
  price: number;
  exchange_code: string;
}

async function getJson<T>(url: string, key: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  return { status: response.status, body: (await response.json()) as T };
}

/** Every print of a trades query, following the cursor; page i through machines[i % machines.length]. */
async function walkTrades(machines: Machine | Machine[], key: string, query: string): Promise<Print[]> {
  const through = Array.isArray(machines) ? machines : [machines];
  const rows: Print[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i += 1) {
    const machine = through[i % through.length]!;
    const answer: { status: number; body: { data: Print[]; pagination: { next_cursor_id: string | null } } } = await getJson(
      `${machine.base}/v1/options/trades?${query}${cursor ? `&cursor_id=${encodeURIComponent(cursor)}` : ''}`,
      key,
    );
    expect(answer.status).toBe(200);
    rows.push(...answer.body.data);
    cursor = answer.body.pagination.next_cursor_id;
    if (cursor === null) return rows;
  }
  throw new Error('the trades pages did not end');
}

const holderPid = (holder: string | undefined): number => Number(holder?.split(':')[1]);

describe('machines started together on an empty database', () => {
  const machines: Machine[] = [];
  afterAll(async () => {
    await Promise.all(machines.map((m) => stopMachine(m)));
  });

  it('all come up, each migration applied once', async () => {
    const databaseUrl = await createDatabase(inject('postgresUrl'));
    machines.push(...(await startMachines(3, { databaseUrl, webWorkers: 1 })));
    expect(machines.every((m) => m.alive())).toBe(true);
    const files = fs
      .readdirSync(path.resolve('db/migrations'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -'.ts'.length))
      .sort();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>('select name from kysely_migration order by name');
      expect(rows.map((r) => r.name)).toEqual(files);
    } finally {
      await client.end();
    }
  });
});

describe('two machines on one primary with a streaming replica', () => {
  let set: ReplicaSet;
  let databaseUrl: string;
  let machineEnv: Record<string, string>;
  let database: DatabaseHandle;
  let key: string;
  let first: Machine;
  let second: Machine;
  const streams: StreamClient[] = [];

  beforeAll(async () => {
    // The deployment of the issue: a primary, its streaming replica, two machines reading from both.
    set = await startReplicaSet();
    databaseUrl = set.primary.url;
    machineEnv = { ...MACHINE_ENV, DATABASE_REPLICA_URLS: set.replica.url };
    database = await openDatabase({ databaseUrl, embeddedDir: '', embeddedPort: 0, poolSize: 2, statementTimeoutMs: 60_000 });
    await migrateToLatest(database.admin);
    await loadSimulatedMarket(database.admin, { dates: [DAY] });
    await seedSplits(database.admin);
    key = (await createKey(database.admin, await createAccount(database.admin, { name: 'machines', plan: 'pro' }), 'machines')).key;
    // The first machine takes the live runner's duty before the second starts.
    first = await startMachine({ databaseUrl, env: machineEnv });
    await settled(
      () => dutyLeases(database.admin),
      (leases) => holderPid(leases.find((l) => l.name === 'live-market')?.holder) === first.pid,
      { what: 'the first machine to hold the live runner', timeoutMs: 30_000 },
    );
    second = await startMachine({ databaseUrl, env: machineEnv });
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    await Promise.all([first, second].filter(Boolean).map((m) => stopMachine(m)));
    await database?.close();
    await set?.close();
  });

  it("shows a print loaded on the database through both machines' trades route and streams, once", async () => {
    const subscribed = async (machine: Machine): Promise<{ client: StreamClient; subscription: string }> => {
      const client = await StreamClient.open(machine.base, { key });
      streams.push(client);
      await client.next((m) => m.type === 'welcome');
      client.send({ type: 'subscribe', id: 'spy', channel: 'prints', params: { underlying_symbols: 'SPY' } });
      const answer = await client.next((m) => m.request === 'spy');
      expect(answer.type, JSON.stringify(answer)).toBe('subscribed');
      return { client, subscription: String(answer.subscription) };
    };
    const onFirst = await subscribed(first);
    const onSecond = await subscribed(second);

    const query = `underlying_symbol=SPY&date=${DAY}&limit=100`;
    const before = await walkTrades(first, key, query);
    expect(before.length).toBeGreaterThan(100);
    expect((await walkTrades(second, key, query)).map((p) => p.id)).toEqual(before.map((p) => p.id));
    // A cursor of one machine continues on the other (one cursor secret for the deployment).
    expect((await walkTrades([first, second], key, query)).map((p) => p.id)).toEqual(before.map((p) => p.id));
    const model = before.find((p) => p.id.split(':').length > 4);
    if (!model) throw new Error('the market has no SPY print');
    const occ = formatOccSymbol({
      root: model.underlying_symbol,
      dateOfExpiry: model.date_of_expiry,
      type: model.contract_type,
      strike: model.strike,
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-machines-'));
    const file = path.join(dir, 'one-print.csv');
    fs.writeFileSync(
      file,
      [
        'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp',
        `${occ},${model.timestamp + 2},900000007,${model.price},1,${model.exchange_code},209,,,,,`,
      ].join('\n'),
    );
    expect(await loadMarketFile(database.admin, 'prints', file)).toMatchObject({ loaded: 1 });
    fs.rmSync(dir, { recursive: true, force: true });
    const isNew = (p: Print): boolean => p.id.endsWith(':900000007');

    // The very next walk on each machine has it: its pages read from the replica only once the
    // replica has replayed what the primary held when the walk began (the freshness floor).
    for (const machine of [first, second]) {
      const after = await walkTrades(machine, key, query);
      expect(after.filter(isNew)).toHaveLength(1);
      expect(after).toHaveLength(before.length + 1);
      const status = (await (await fetch(`${machine.base}/v1/status`)).json()) as {
        data: { replicas: { status: string; reads: number }[] };
      };
      expect(status.data.replicas).toHaveLength(1);
      expect(status.data.replicas[0]?.reads, `${machine.name} read from the replica`).toBeGreaterThan(0);
    }
    for (const { client, subscription } of [onFirst, onSecond]) {
      const live = (messages: StreamMessage[]): Print[] =>
        messages
          .filter((m) => m.type === 'prints' && m.subscription === subscription && m.replay === false)
          .flatMap((m) => m.data as Print[]);
      await client.next(() => live(client.messages).some(isNew));
      // Once, and the stream's numbering without a gap.
      expect(live(client.messages).filter(isNew)).toHaveLength(1);
      expect(client.messages.map((m) => m.seq)).toEqual(client.messages.map((_, i) => i + 1));
      client.close();
    }
  });

  it('downloads a file written by one machine through the other', async () => {
    // The second machine's primary (its job workers) paused: the first runs the export.
    const resume = pausePrimary(second);
    let id: string;
    try {
      const created = await getJson<{ data: { id: string } }>(`${first.base}/v1/exports`, key, {
        method: 'POST',
        body: JSON.stringify({ path: '/v1/stocks/splits', query: { limit: 100000 } }),
      });
      expect(created.status).toBe(202);
      id = created.body.data.id;
      await settled(
        async () => (await getJson<{ data: { status: string } }>(`${first.base}/v1/exports/${id}`, key)).body.data.status,
        (status) => status === 'ready' || status === 'failed',
        { what: 'the export on the first machine', timeoutMs: 60_000 },
      );
    } finally {
      resume();
    }
    const row = await database.admin.selectFrom('exports').select(['status', 'file_path']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ready', file_path: expect.stringMatching(/^database:/) as unknown });
    const fromFirst = await fetch(`${first.base}/v1/exports/${id}/download`, { headers: { authorization: `Bearer ${key}` } });
    const fromSecond = await fetch(`${second.base}/v1/exports/${id}/download`, { headers: { authorization: `Bearer ${key}` } });
    expect([fromFirst.status, fromSecond.status]).toEqual([200, 200]);
    expect(fromSecond.headers.get('etag')).toBe(fromFirst.headers.get('etag'));
    const text = await fromSecond.text();
    expect(text).toBe(await fromFirst.text());
    const splits = (await getJson<{ data: unknown[] }>(`${second.base}/v1/stocks/splits?limit=999`, key)).body.data;
    expect(splits.length).toBeGreaterThan(0);
    expect((JSON.parse(text) as { data: unknown[] }).data).toEqual(splits);
  });

  it('hands the live runner and an export in flight to the other machine when the machine holding them is killed', async () => {
    expect(holderPid((await dutyLeases(database.admin)).find((l) => l.name === 'live-market')?.holder)).toBe(first.pid);
    // The route's first read waits on this lock, so the run is in flight when its machine dies.
    const lock = new pg.Client({ connectionString: databaseUrl });
    lock.on('error', () => undefined);
    await lock.connect();
    let id = '';
    try {
      await lock.query('begin');
      await lock.query('lock table stock_splits in access exclusive mode');
      const resume = pausePrimary(second);
      try {
        const created = await getJson<{ data: { id: string } }>(`${first.base}/v1/exports`, key, {
          method: 'POST',
          body: JSON.stringify({ path: '/v1/stocks/splits', query: { limit: 100000 } }),
        });
        expect(created.status).toBe(202);
        id = created.body.data.id;
        await settled(
          async () => (await lock.query<{ run_id: string | null }>('select run_id from exports where id = $1', [id])).rows[0]?.run_id,
          (runId) => typeof runId === 'string',
          { what: 'the export to run on the first machine', timeoutMs: 30_000 },
        );
      } finally {
        resume();
      }

      await killMachine(first);
      const killedAt = performance.now();
      const lease = await settled(
        () => dutyLeases(database.admin),
        (leases) => holderPid(leases.find((l) => l.name === 'live-market')?.holder) === second.pid,
        { what: 'the second machine to take the live runner over', timeoutMs: 30_000 },
      );
      const tookMs = performance.now() - killedAt;
      expect(tookMs).toBeLessThan(30_000);
      expect(lease.find((l) => l.name === 'live-market')).toBeDefined();
      await settled(
        () => second.output(),
        (text) =>
          text.split('\n').some((line) => {
            if (!line.startsWith('{')) return false;
            const entry = JSON.parse(line) as { msg?: string; duty?: string; pid?: number };
            return entry.msg === 'duty taken' && entry.duty === 'live-market' && entry.pid === second.pid;
          }),
        { what: 'the second machine to start the live runner', timeoutMs: 5_000 },
      );
      console.log(`the live runner's duty was taken over ${Math.round(tookMs)} ms after its machine was killed`);
    } finally {
      await lock.query('commit').catch(() => undefined);
      await lock.end().catch(() => undefined);
    }

    const done = await settled(
      async () => (await getJson<{ data: { status: string; attempts?: number } }>(`${second.base}/v1/exports/${id}`, key)).body.data,
      (job) => job.status === 'ready' || job.status === 'failed',
      { what: 'the export to be resumed by the second machine and finish', timeoutMs: 90_000 },
    );
    expect(done.status).toBe('ready');
    const row = await database.admin.selectFrom('exports').select(['attempts', 'file_path']).where('id', '=', id).executeTakeFirstOrThrow();
    // Run twice: on the killed machine, then on the survivor.
    expect(row.attempts).toBe(2);
    expect(row.file_path).toMatch(/^database:/);
    const download = await fetch(`${second.base}/v1/exports/${id}/download`, { headers: { authorization: `Bearer ${key}` } });
    expect(download.status).toBe(200);
    const splits = (await getJson<{ data: unknown[] }>(`${second.base}/v1/stocks/splits?limit=999`, key)).body.data;
    expect((JSON.parse(await download.text()) as { data: unknown[] }).data).toEqual(splits);
  });
});
