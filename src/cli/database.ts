/**
 * Opens the database for a command-line tool as the service would (the same configuration:
 * DATABASE_URL, or the embedded server of the data directory) and migrates it first, so a tool run
 * against a fresh data directory finds the schema. The request pool is kept to two connections with
 * no statement time-out; the tools work through the admin pool.
 */
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';

export async function openForCli(): Promise<DatabaseHandle> {
  const config = loadConfig();
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    embeddedDir: path.join(config.dataDir, 'pg'),
    embeddedPort: config.embeddedPostgresPort,
    poolSize: 2,
    statementTimeoutMs: 0,
  });
  await migrateToLatest(handle.admin);
  return handle;
}
