/**
 * Read replicas (DATABASE_REPLICA_URLS): the `reads` handle beside `db`. The services' reads that
 * tolerate replica lag (services/repositories.ts says which) run on `reads`; everything else
 * (accounts and keys, usage, limits, exports, ingest, the live runner, every write) stays on `db`,
 * the primary. Without replicas `reads` is `db` itself.
 *
 * The rule (the freshness floor). Every API request runs in a read scope (app.ts dispatch); a read
 * outside one (a job, an export, a stream) goes to the primary. A scope has a floor, a WAL position
 * of the primary:
 * - a request whose cursor carries a floor keeps it (the floor its first page was read at);
 * - any other takes the primary's pg_current_wal_lsn() when it first reads: everything committed
 *   before the request's first read (a print loaded just before, the change log a memo's stamp
 *   counted) lies below it.
 * A replica serves the read only when its replay position (pg_last_wal_replay_lsn()) has reached
 * the floor. Otherwise the read waits for one to reach it, polling every WAIT_POLL_MS, at most
 * REPLICA_WAIT_MS, then goes to the primary. So no read sees older data than the primary held when
 * the request (or its first page) began: a cursor's next page on a replica sees every row its first
 * page saw, and a print committed before the request is in its answer. The next cursor carries the
 * scope's floor.
 *
 * Health: each replica's replay position, its seconds behind (pg_last_xact_replay_timestamp(); 0 when
 * it has replayed all the primary wrote) and whether its replay is paused are polled every POLL_MS
 * beside the primary's position. A poll that fails, or a connection error in a read, takes the
 * replica out at once; a read that failed on it is run again on the primary (no 5xx for a replica
 * lost). A poll that succeeds with at most MAX_LAG_SECONDS behind takes it back.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Logger } from '../logging.js';
import { rawClient, registerPool, SESSION_SETTINGS, type Database } from './connection.js';
import type { DB } from './schema.js';

/** The longest a read waits for a replica to reach its floor before it goes to the primary. */
export const REPLICA_WAIT_MS = 250;
/** How often a waiting read asks the replicas' replay positions again. */
const WAIT_POLL_MS = 10;
/** How often each replica's health and lag are polled. */
export const POLL_MS = 1_000;
/** A replica further behind than this (seconds) is left out until it catches up. */
export const MAX_LAG_SECONDS = 30;
/** A poll's connect and statement time-out. */
const POLL_TIMEOUT_MS = 500;

/** A WAL position ('16/B374D848') as a number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  if (high === undefined || low === undefined || !/^[0-9A-Fa-f]+$/.test(high) || !/^[0-9A-Fa-f]+$/.test(low)) {
    throw new Error(`not a WAL position: ${text}`);
  }
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

export function formatLsn(lsn: bigint): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** The read scope of one request: its floor, once known. */
interface ReadScope {
  floor: bigint | null;
  /** The primary's position being read for the floor (shared by the scope's concurrent reads). */
  pending: Promise<bigint> | null;
}

const scopes = new AsyncLocalStorage<ReadScope>();

/** Runs `fn` in a read scope (an API request): its reads may go to a replica, by the floor rule. */
export function inReadScope<T>(fn: () => T): T {
  return scopes.run({ floor: null, pending: null }, fn);
}

/**
 * Raises the current scope's floor to a cursor's (its text, as readFloor gave it); ignored outside a
 * scope or when the text is not a position.
 */
export function raiseReadFloor(text: unknown): void {
  const scope = scopes.getStore();
  if (scope === undefined || typeof text !== 'string') return;
  let lsn: bigint;
  try {
    lsn = parseLsn(text);
  } catch {
    return;
  }
  if (scope.floor === null || lsn > scope.floor) scope.floor = lsn;
}

/** The current scope's floor as text (for the next cursor); null when none was needed. */
export function readFloor(): string | null {
  const floor = scopes.getStore()?.floor ?? null;
  return floor === null ? null : formatLsn(floor);
}

/** What the choice of one read is, given the replicas' known positions (pure: the unit tests ask it). */
export function chooseReplica<R extends { up: boolean; replay: bigint | null }>(
  replicas: readonly R[],
  floor: bigint,
  start = 0,
): R | null {
  for (let i = 0; i < replicas.length; i++) {
    const r = replicas[(start + i) % replicas.length] as R;
    if (r.up && r.replay !== null && r.replay >= floor) return r;
  }
  return null;
}

/** Whether an error of a read on a replica means the replica (not the statement) failed: run it again on the primary. */
export function isReplicaFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const severity = (error as { severity?: unknown } | null)?.severity;
  // Not an answer of the server (a refused or reset connection, a time-out of the client).
  if (severity === undefined) return true;
  if (typeof code !== 'string') return true;
  // Connection exceptions, the server shutting down or starting, too many connections, and a
  // statement cancelled by a conflict with the replay (40001 on a standby).
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || code === '40001';
}

export interface ReplicaStatus {
  /** host:port/database (no credentials). */
  name: string;
  state: 'up' | 'down';
  /** Bytes of WAL the primary has written that the replica has not replayed (null: unknown). */
  lagBytes: number | null;
  /** Seconds since the last transaction it replayed, while behind (0 when caught up; null: unknown). */
  lagSeconds: number | null;
  replayPaused: boolean | null;
  /** Reads served by it in this process. */
  reads: number;
}

interface Replica {
  name: string;
  pool: pg.Pool;
  probe: pg.Pool;
  up: boolean;
  replay: bigint | null;
  lagBytes: number | null;
  lagSeconds: number | null;
  paused: boolean | null;
  reads: number;
  /** A refresh of the replay position in flight (shared by the reads waiting on it). */
  refreshing: Promise<void> | null;
}

export interface ReplicaOptions {
  urls: readonly string[];
  poolSize: number;
  statementTimeoutMs: number;
  logger?: Logger;
}

/** A postgres URL without its credentials: host:port/database. */
export function replicaName(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'replica';
  }
}

/** Counters of the routing, for the metrics. */
export interface RoutingCounts {
  /** Reads sent to the primary because no replica had reached the floor within REPLICA_WAIT_MS. */
  fallbackLag: number;
  /** Reads run again on the primary after their replica failed. */
  fallbackFailure: number;
  /** Reads of a scope sent to the primary because no replica was up. */
  fallbackDown: number;
}

export class ReplicaSet {
  readonly reads: Database;
  private readonly replicas: Replica[];
  private readonly timer: NodeJS.Timeout;
  private next = 0;
  private primaryLsn: bigint | null = null;
  readonly counts: RoutingCounts = { fallbackLag: 0, fallbackFailure: 0, fallbackDown: 0 };
  private closed = false;

  constructor(
    private readonly primary: Database,
    private readonly options: ReplicaOptions,
  ) {
    this.replicas = options.urls.map((url) => {
      const pool = new pg.Pool({
        connectionString: url,
        max: options.poolSize,
        statement_timeout: options.statementTimeoutMs,
        connectionTimeoutMillis: 2_000,
        application_name: 'oads-api-replica',
        options: SESSION_SETTINGS,
      });
      const probe = new pg.Pool({
        connectionString: url,
        max: 1,
        statement_timeout: POLL_TIMEOUT_MS,
        connectionTimeoutMillis: POLL_TIMEOUT_MS,
        application_name: 'oads-replica-probe',
      });
      const replica: Replica = {
        name: replicaName(url),
        pool,
        probe,
        up: false,
        replay: null,
        lagBytes: null,
        lagSeconds: null,
        paused: null,
        reads: 0,
        refreshing: null,
      };
      // Every client has an error handler: a replica lost never ends the process.
      for (const p of [pool, probe]) {
        p.on('error', (error) => this.lost(replica, error));
        p.on('connect', (client) => client.on('error', (error) => this.lost(replica, error)));
      }
      return replica;
    });
    const routed: PostgresPool = {
      connect: () => this.connect(),
      end: async () => undefined,
    };
    this.reads = new Kysely<DB>({ dialect: new PostgresDialect({ pool: routed }) });
    // db/prepared.ts asks the routed connection of a read as it asks the primary's.
    registerPool(this.reads, { connect: async () => (await this.connect()) as unknown as pg.PoolClient });
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
  }

  /** Polls once now (the service's start waits for it, so that the replicas serve from the first request). */
  async start(): Promise<void> {
    await this.poll();
  }

  status(): ReplicaStatus[] {
    return this.replicas.map((r) => ({
      name: r.name,
      state: r.up ? 'up' : 'down',
      lagBytes: r.lagBytes,
      lagSeconds: r.lagSeconds,
      replayPaused: r.paused,
      reads: r.reads,
    }));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await Promise.all(this.replicas.flatMap((r) => [r.pool.end().catch(() => undefined), r.probe.end().catch(() => undefined)]));
  }

  private lost(replica: Replica, error: unknown): void {
    if (replica.up) this.options.logger?.error('read replica left out', { replica: replica.name, error: String(error) });
    replica.up = false;
  }

  /** The primary's WAL position now (a floor). */
  private async currentPrimaryLsn(): Promise<bigint> {
    const result = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(this.primary);
    const lsn = parseLsn(result.rows[0]?.lsn ?? '0/0');
    if (this.primaryLsn === null || lsn > this.primaryLsn) this.primaryLsn = lsn;
    return lsn;
  }

  /** One health poll of every replica, with the primary's position for their lag. */
  private async poll(): Promise<void> {
    if (this.closed) return;
    await this.currentPrimaryLsn().catch(() => undefined);
    await Promise.all(this.replicas.map((r) => this.pollReplica(r)));
  }

  private async pollReplica(r: Replica): Promise<void> {
    try {
      const result = await r.probe.query<{ replay: string | null; recovery: boolean; since: number | null; paused: boolean }>(
        `select pg_last_wal_replay_lsn()::text as replay, pg_is_in_recovery() as recovery,
                extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as since,
                case when pg_is_in_recovery() then pg_is_wal_replay_paused() else false end as paused`,
      );
      const row = result.rows[0];
      if (row === undefined || !row.recovery || row.replay === null) throw new Error('not a standby in replay');
      const replay = parseLsn(row.replay);
      this.noteReplay(r, replay);
      const behind = this.primaryLsn === null ? null : this.primaryLsn > replay ? this.primaryLsn - replay : 0n;
      r.lagBytes = behind === null ? null : Number(behind);
      r.lagSeconds = behind === 0n ? 0 : row.since === null ? null : Math.max(0, row.since);
      r.paused = row.paused;
      const acceptable = r.lagSeconds === null || r.lagSeconds <= MAX_LAG_SECONDS;
      if (acceptable && !r.up) this.options.logger?.info('read replica taken in', { replica: r.name, lagBytes: r.lagBytes });
      if (!acceptable && r.up)
        this.options.logger?.error('read replica left out: too far behind', { replica: r.name, lagSeconds: r.lagSeconds });
      r.up = acceptable;
    } catch (error) {
      this.lost(r, error);
      r.lagBytes = null;
      r.lagSeconds = null;
      r.paused = null;
    }
  }

  private noteReplay(r: Replica, replay: bigint): void {
    if (r.replay === null || replay > r.replay) r.replay = replay;
  }

  /** Asks a replica its replay position again (one request in flight per replica). */
  private async refresh(r: Replica): Promise<void> {
    r.refreshing ??= (async () => {
      try {
        const result = await r.probe.query<{ replay: string | null }>('select pg_last_wal_replay_lsn()::text as replay');
        const text = result.rows[0]?.replay;
        if (text) this.noteReplay(r, parseLsn(text));
      } catch (error) {
        this.lost(r, error);
      } finally {
        r.refreshing = null;
      }
    })();
    await r.refreshing;
  }

  private async primaryClient(): Promise<PostgresPoolClient> {
    const client = await rawClient(this.primary);
    if (client === null) throw new Error('the primary pool was not opened by openDatabase()');
    return client;
  }

  /** The connection of one read: a replica that has reached the scope's floor, else the primary. */
  private async connect(): Promise<PostgresPoolClient> {
    const scope = scopes.getStore();
    if (scope === undefined || this.replicas.length === 0) return await this.primaryClient();
    if (!this.replicas.some((r) => r.up)) {
      this.counts.fallbackDown++;
      return await this.primaryClient();
    }
    if (scope.floor === null) {
      scope.pending ??= this.currentPrimaryLsn();
      const lsn = await scope.pending;
      if (scope.floor === null || lsn > scope.floor) scope.floor = lsn;
    }
    const floor = scope.floor;
    const deadline = Date.now() + REPLICA_WAIT_MS;
    for (let asked = 0; ; asked++) {
      const replica = chooseReplica(this.replicas, floor, this.next++);
      if (replica !== null) {
        const client = await this.replicaClient(replica);
        if (client !== null) return client;
        continue;
      }
      const waiting = this.replicas.filter((r) => r.up);
      if (waiting.length === 0) {
        this.counts.fallbackDown++;
        return await this.primaryClient();
      }
      if (Date.now() >= deadline) {
        this.counts.fallbackLag++;
        return await this.primaryClient();
      }
      // The positions known are the last poll's (up to POLL_MS old) and the floor is newer than
      // any write before the request: ask the replicas at once, then every WAIT_POLL_MS.
      if (asked > 0) await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      await Promise.all(waiting.map((r) => this.refresh(r)));
    }
  }

  /** A client of the replica whose failed statements run again on the primary; null when it cannot connect (then left out). */
  private async replicaClient(replica: Replica): Promise<PostgresPoolClient | null> {
    let client: pg.PoolClient;
    try {
      client = await replica.pool.connect();
    } catch (error) {
      this.lost(replica, error);
      return null;
    }
    let routed = routedClients.get(client);
    if (routed === undefined) {
      routed = this.routedClient(replica, client);
      routedClients.set(client, routed);
    }
    routed.broken = false;
    return routed.client;
  }

  /**
   * The face of a replica's pooled connection: each statement (a text and values, or a named
   * prepared statement of db/prepared.ts) that fails with the replica is run again on the primary,
   * unnamed. One per connection, so that what db/prepared.ts keeps per connection stays true.
   */
  private routedClient(replica: Replica, client: pg.PoolClient): RoutedClient {
    const routed: RoutedClient = { broken: false, client: null as unknown as pg.PoolClient };
    const query = async (first: unknown, values?: unknown): Promise<unknown> => {
      try {
        const result = await (client.query as (a: unknown, b?: unknown) => Promise<unknown>)(first, values);
        replica.reads++;
        return result;
      } catch (error) {
        if (!isReplicaFailure(error)) throw error;
        routed.broken = true;
        this.lost(replica, error);
        this.counts.fallbackFailure++;
        const primary = await this.primaryClient();
        try {
          if (typeof first === 'string') return await primary.query(first, values as unknown[]);
          const { text, values: bound } = first as { text: string; values?: unknown[] };
          return await primary.query(text, bound ?? []);
        } finally {
          primary.release();
        }
      }
    };
    routed.client = {
      query,
      release: (error?: Error | boolean) => client.release(error ?? (routed.broken ? true : undefined)),
    } as unknown as pg.PoolClient;
    return routed;
  }
}

interface RoutedClient {
  /** Whether a statement of this checkout failed with the replica (the connection is then discarded). */
  broken: boolean;
  client: pg.PoolClient;
}

const routedClients = new WeakMap<pg.PoolClient, RoutedClient>();
