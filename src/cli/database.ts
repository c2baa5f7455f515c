/** Opens the configured database for a command-line tool and migrates it. */
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
