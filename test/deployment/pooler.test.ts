/**
 * PgBouncer in front of the primary (issue 37 §5; README, PgBouncer): a real PgBouncer
 * (test/support/pgbouncer.ts: Debian's 1.18, pool_mode = transaction, no ignore_startup_parameters,
 * fewer server connections than the service's request pools have clients) and a service machine
 * (src/main.ts, two HTTP workers) with DATABASE_URL direct and DATABASE_POOLER_URL through
 * PgBouncer. The API's statements go through PgBouncer (its statistics, and every server
 * connection of the request pools is one of PgBouncer's); trades pages walked with cursors, levels,
 * skew and an export answer as without it (no named prepared statement, no startup parameter it
 * refuses); a print loaded on the primary reaches a stream (LISTEN on a direct connection, not one
 * of PgBouncer's); an account's minute limit is exact; a statement of the request pool is cancelled
 * at its time-out though PgBouncer takes no statement_timeout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { createAccount, createKey } from '../../src/accounts.js';
import { formatOccSymbol } from '../../src/analytics/occ.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/connection.js';
import { seedSplits } from '../../src/seed.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import { databaseWithMarket, MARKET_NOW } from '../support/market.js';
import { startMachine, stopMachine, type Machine } from '../support/machines.js';
import { startPgBouncer, type PgBouncer } from '../support/pgbouncer.js';
import { request, type Answer } from '../support/service-process.js';
import { settled } from '../support/settled.js';
import { StreamClient, type StreamMessage } from '../support/stream-client.js';

const DAY = '2026-11-20';
const PER_MINUTE = 40;
/** PgBouncer's server connections per database: fewer than the clients of the two workers' request pools. */
const SERVER_CONNECTIONS = 3;

interface Print {
  id: string;
  timestamp: number;
  underlying_symbol: string;
  contract_type: 'call' | 'put';
  strike: number;
  date_of_expiry: string;
  price: number;
  exchange_code: number;
}

interface Stats {
  database: string;
  total_query_count: string;
  total_xact_count: string;
}

describe('a service machine whose request pools go through PgBouncer in transaction mode', () => {
  let databaseUrl: string;
  let dbName: string;
  let bouncer: PgBouncer;
  let database: DatabaseHandle;
  let machine: Machine;
  const streams: StreamClient[] = [];

  /** A key of a new account (each check its own: the minute limit is the account's). */
  const newKey = async (): Promise<string> =>
    (await createKey(database.admin, await createAccount(database.admin, { name: 'pooler', plan: 'pro' }), 'pooler')).key;
  const get = (pathAndQuery: string, key: string): Promise<Answer> => request(`${machine.base}${pathAndQuery}`, { key });
  const queriesThroughBouncer = async (): Promise<number> => {
    const stats = await bouncer.admin<Stats>('show stats');
    return Number(stats.find((s) => s.database === dbName)?.total_query_count ?? 0);
  };

  beforeAll(async () => {
    databaseUrl = await databaseWithMarket({ dates: [DAY] });
    dbName = new URL(databaseUrl).pathname.slice(1);
    bouncer = await startPgBouncer({ serverUrl: databaseUrl, poolSize: SERVER_CONNECTIONS });
    database = await openDatabase({ databaseUrl, embeddedDir: '', embeddedPort: 0, poolSize: 2, statementTimeoutMs: 120_000 });
    await seedSplits(database.admin);
    machine = await startMachine({
      databaseUrl,
      env: {
        DATABASE_POOLER_URL: bouncer.urlOf(databaseUrl),
        CLOCK_START: String(MARKET_NOW),
        LIVE_MODE: 'off',
        LIMIT_PER_MINUTE: String(PER_MINUTE),
        LIMIT_PER_SECOND: '100000',
        LIMIT_IN_FLIGHT: '1000',
        LIMIT_COOLDOWN_AFTER_REJECTIONS: '100000',
      },
    });
  });

  afterAll(async () => {
    for (const s of streams) s.close();
    if (machine) await stopMachine(machine);
    await database?.close();
    await bouncer?.close();
  });

  it('runs PgBouncer in transaction mode, the pooled sessions with the planner settings of its connect_query', async () => {
    onTestFailed(() => console.log(bouncer.log()));
    const config = await bouncer.admin<{ key: string; value: string }>('show config');
    expect(config.find((c) => c.key === 'pool_mode')?.value).toBe('transaction');
    expect(config.find((c) => c.key === 'ignore_startup_parameters')?.value ?? '').toBe('');
    const pools = await bouncer.admin<{ database: string; pool_mode: string }>('show pools');
    const client = new pg.Client({ connectionString: bouncer.urlOf(databaseUrl) });
    await client.connect();
    try {
      expect((await client.query<{ cost: string }>("select current_setting('random_page_cost') as cost")).rows[0]?.cost).toBe('1.1');
    } finally {
      await client.end();
    }
    expect(pools.filter((p) => p.database === dbName).every((p) => p.pool_mode === 'transaction')).toBe(true);
    expect(machine.output()).not.toMatch(/random_page_cost/);
  });

  it('answers trades pages walked with cursors, levels, skew and an export through PgBouncer', async () => {
    onTestFailed(() => console.log(`${machine.output()}\n${bouncer.log()}`));
    const key = await newKey();
    const before = await queriesThroughBouncer();
    // The walk: its pages alternate between the two workers (new connections each time), on
    // PgBouncer's three server connections shared by both workers' request pools.
    /** Every print of the day's SPY trades, `limit` at a time, following the cursor. */
    const walk = async (limit: number): Promise<{ rows: Print[]; pages: number }> => {
      const rows: Print[] = [];
      let pages = 0;
      for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
        const answer = await get(
          `/v1/options/trades?underlying_symbol=SPY&date=${DAY}&limit=${limit}${cursor === null ? '' : `&cursor_id=${encodeURIComponent(cursor)}`}`,
          key,
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        rows.push(...(answer.body.data as Print[]));
        cursor = (answer.body.pagination as { next_cursor_id: string | null }).next_cursor_id;
        pages += 1;
      }
      return { rows, pages };
    };
    const { rows, pages } = await walk(100);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    // The same prints in fewer, larger pages, in the same order.
    expect((await walk(500)).rows.map((r) => r.id)).toEqual(rows.map((r) => r.id));

    const levels = await get(`/v1/options/levels?underlying_symbol=QQQ&date=${DAY}`, key);
    expect(levels.status, JSON.stringify(levels.body)).toBe(200);
    const skew = await get(`/v1/options/volatility/skew?underlying_symbol=QQQ&date=${DAY}`, key);
    expect(skew.status, JSON.stringify(skew.body)).toBe(200);
    // The API's statements went through PgBouncer: at least one per page.
    expect((await queriesThroughBouncer()) - before).toBeGreaterThanOrEqual(pages + 3);

    const created = await request(`${machine.base}/v1/exports`, {
      key,
      method: 'POST',
      body: { path: '/v1/stocks/splits', query: { limit: 100000 } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = (created.body.data as { id: string }).id;
    // Watched in the store (the minute limit stays for the walk above).
    await settled(
      async () => (await database.admin.selectFrom('exports').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status,
      (status) => status === 'ready' || status === 'failed',
      { what: 'the export', timeoutMs: 60_000 },
    );
    const download = await fetch(`${machine.base}/v1/exports/${id}/download`, { headers: { authorization: `Bearer ${key}` } });
    expect(download.status).toBe(200);
    const splits = await get('/v1/stocks/splits?limit=999', key);
    expect(splits.status).toBe(200);
    expect((JSON.parse(await download.text()) as { data: unknown[] }).data).toEqual(splits.body.data);
  });

  it('keeps the request pools on PgBouncer and LISTEN, advisory locks and jobs on direct connections', async () => {
    // Each pooled client's last statement set application_name oads-api on the server
    // connection PgBouncer ran it on: every such backend is one of PgBouncer's.
    const servers = await bouncer.admin<{ database: string; remote_pid: string }>('show servers');
    const bouncers = new Set(servers.filter((s) => s.database === dbName).map((s) => Number(s.remote_pid)));
    expect(bouncers.size).toBeGreaterThan(0);
    expect(bouncers.size).toBeLessThanOrEqual(SERVER_CONNECTIONS);
    const activity = await sql<{ pid: number; application_name: string; query: string }>`
      select pid, application_name, query from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(
      database.admin,
    );
    const api = activity.rows.filter((a) => a.application_name === 'oads-api');
    expect(api.length).toBeGreaterThan(0);
    expect(api.filter((a) => !bouncers.has(a.pid))).toEqual([]);
    // The machine's session connections are its own, straight to the server.
    const direct = activity.rows.filter((a) => !bouncers.has(a.pid));
    expect(direct.some((a) => /^\s*listen /i.test(a.query))).toBe(true);
    expect(direct.some((a) => a.application_name.startsWith('oads-jobs'))).toBe(true);
    expect(direct.some((a) => a.application_name === 'oads-admin')).toBe(true);
  });

  it('streams a print loaded on the primary (LISTEN on a direct connection)', async () => {
    const key = await newKey();
    const client = await StreamClient.open(machine.base, { key });
    streams.push(client);
    await client.next((m) => m.type === 'welcome');
    client.send({ type: 'subscribe', id: 'spy', channel: 'prints', params: { underlying_symbols: 'SPY' } });
    const answer = await client.next((m) => m.request === 'spy');
    expect(answer.type, JSON.stringify(answer)).toBe('subscribed');
    const subscription = String(answer.subscription);

    const newest = ((await get(`/v1/options/trades?underlying_symbol=SPY&date=${DAY}&limit=1`, key)).body.data as Print[])[0];
    if (!newest) throw new Error('the market has no SPY print');
    const occ = formatOccSymbol({
      root: newest.underlying_symbol,
      dateOfExpiry: newest.date_of_expiry,
      type: newest.contract_type,
      strike: newest.strike,
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oads-pooler-'));
    const file = path.join(dir, 'one-print.csv');
    fs.writeFileSync(
      file,
      [
        'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp',
        `${occ},${newest.timestamp + 1},900000303,${newest.price},1,${newest.exchange_code},209,,,,,`,
      ].join('\n'),
    );
    expect(await loadMarketFile(database.admin, 'prints', file)).toMatchObject({ loaded: 1 });
    fs.rmSync(dir, { recursive: true, force: true });
    const isNew = (p: Print): boolean => p.id.endsWith(':900000303');
    const live = (messages: StreamMessage[]): Print[] =>
      messages
        .filter((m) => m.type === 'prints' && m.subscription === subscription && m.replay === false)
        .flatMap((m) => m.data as Print[]);
    await client.next(() => live(client.messages).some(isNew));
    expect(live(client.messages).filter(isNew)).toHaveLength(1);
    expect(client.messages.map((m) => m.seq)).toEqual(client.messages.map((_, i) => i + 1));
    // And the trades route, through PgBouncer, has it.
    const [first] = (await get(`/v1/options/trades?underlying_symbol=SPY&date=${DAY}&limit=1`, key)).body.data as Print[];
    expect(first && isNew(first)).toBe(true);
  });

  it("admits exactly an account's minute limit over both workers", async () => {
    const key = await newKey();
    const answers: Answer[] = [];
    for (let round = 0; round < 15; round += 1) {
      answers.push(...(await Promise.all(Array.from({ length: 4 }, () => request(`${machine.base}/v1/account`, { key })))));
    }
    expect(answers.filter((a) => a.status === 200)).toHaveLength(PER_MINUTE);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(60 - PER_MINUTE);
  });

  it('cancels a pooled statement at its time-out, though PgBouncer takes no statement_timeout', async () => {
    const pooled = await openDatabase({
      databaseUrl,
      poolerUrl: bouncer.urlOf(databaseUrl),
      embeddedDir: '',
      embeddedPort: 0,
      poolSize: 1,
      statementTimeoutMs: 300,
    });
    try {
      const started = performance.now();
      const error = await sql`select pg_sleep(20)`.execute(pooled.db).then(
        () => null,
        (e: unknown) => e as { code?: string },
      );
      expect(error?.code).toBe('57014');
      expect(performance.now() - started).toBeLessThan(5_000);
      // The connection (and PgBouncer's server connection) serves the next statement.
      expect((await sql<{ one: number }>`select 1 as one`.execute(pooled.db)).rows).toEqual([{ one: 1 }]);
      // The admin pool has no time-out, and goes direct.
      expect((await sql<{ t: string }>`select current_setting('statement_timeout') as t`.execute(pooled.admin)).rows[0]?.t).toBe('0');
    } finally {
      await pooled.close();
    }
  });
});
