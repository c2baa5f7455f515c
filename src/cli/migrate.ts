/** `make migrate`: applies pending migrations and exits. */
import { migrateToLatest } from '../db/migrate.js';
import { openForCli } from './database.js';

const handle = await openForCli();
try {
  const applied = await migrateToLatest(handle.admin);
  process.stdout.write(applied.length > 0 ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
} finally {
  await handle.close();
}
