/**
 * First-start seeding: the demo Pro account and its key, and the shipped list of real splits
 * (db/seed/splits.csv). The database keeps only a key's hash, so the demo key that `make run` prints
 * is kept in a file of the data directory, and replaced when it no longer opens the demo account (a
 * new database). Splits load only into an empty table, so a restart does not load them again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAccount, createKey } from './accounts.js';
import type { Database } from './db/connection.js';
import { findAccount, findKeyByPrefix } from './db/accounts.js';
import { countSplits } from './db/splits.js';
import { keyMatches, keyPrefix } from './api-keys.js';
import { loadSplitsFile } from './ingest/splits.js';

const DEMO_ACCOUNT = 'acct_demo';
export const SPLITS_SEED_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../db/seed/splits.csv');

/**
 * The demo key, kept in a git-ignored file: read it when it still opens the demo account,
 * otherwise create the account (first start) or a fresh key (new database) and write it.
 */
export async function ensureDemoKey(db: Database, keyFile: string): Promise<string> {
  if (fs.existsSync(keyFile)) {
    const stored = fs.readFileSync(keyFile, 'utf8').trim();
    const prefix = keyPrefix(stored);
    const found = prefix ? await findKeyByPrefix(db, prefix) : null;
    if (found && found.account.id === DEMO_ACCOUNT && keyMatches(stored, found.secret_hash)) return stored;
  }
  if ((await findAccount(db, DEMO_ACCOUNT)) === null) await createAccount(db, { id: DEMO_ACCOUNT, name: 'Demo (Pro)', plan: 'pro' });
  const { key } = await createKey(db, DEMO_ACCOUNT, 'demo');
  fs.mkdirSync(path.dirname(keyFile), { recursive: true });
  fs.writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  return key;
}

export async function seedSplits(db: Database): Promise<number> {
  if ((await countSplits(db)) > 0) return 0;
  const result = await loadSplitsFile(db, SPLITS_SEED_FILE);
  if (result.rejected.length > 0) {
    throw new Error(`The shipped splits file has bad rows: ${result.rejected.map((r) => `line ${r.line}: ${r.reason}`).join('; ')}`);
  }
  return result.loaded;
}
