/**
 * Creating accounts and keys (used by the accounts CLI, the demo seed and tests): the ids (ids.ts)
 * and the key (api-keys.ts) are made here, the SQL stays in db/accounts.ts.
 */
import type { Queryable } from './db/connection.js';
import { insertAccount, insertApiKey } from './db/accounts.js';
import type { DatasetRelease, Plan } from './db/schema.js';
import { generateApiKey } from './api-keys.js';
import { newId } from './ids.js';

export const ALL_DATASETS: DatasetRelease[] = ['options', 'futures', 'equities', 'indices'];

export async function createAccount(
  db: Queryable,
  input: { id?: string; name: string; plan: Plan; datasets?: DatasetRelease[]; overnight?: boolean },
): Promise<string> {
  const id = input.id ?? newId('acct');
  await insertAccount(db, {
    id,
    name: input.name,
    plan: input.plan,
    datasets: input.datasets ?? ALL_DATASETS,
    overnight_entitlement: input.overnight ?? false,
  });
  return id;
}

/** Creates a key and returns it: the only moment the whole key is known (only its hash is stored). */
export async function createKey(
  db: Queryable,
  accountId: string,
  name: string | null = null,
): Promise<{ id: string; key: string; prefix: string }> {
  const generated = generateApiKey();
  const id = newId('key');
  await insertApiKey(db, { id, account_id: accountId, prefix: generated.prefix, secret_hash: generated.hash, name });
  return { id, key: generated.key, prefix: generated.prefix };
}
