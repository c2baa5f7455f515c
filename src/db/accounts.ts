/**
 * Accounts and their API keys. A key is found by its visible prefix (live keys only) and the caller
 * compares the whole key with the stored SHA-256 (api-keys.ts keyMatches), so the database never
 * holds a key itself. The request path caches the lookup (middleware/auth.ts KeyCache): a revocation
 * takes effect within that cache's TTL. Updates answer whether a row changed, for the accounts CLI.
 */
import type { Queryable } from './connection.js';
import type { AccountStatus, DatasetRelease, Plan } from './schema.js';

export interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  datasets: DatasetRelease[];
  overnight_entitlement: boolean;
  status: AccountStatus;
  created_at: Date;
}

export interface KeyWithAccount {
  key_id: string;
  key_name: string | null;
  key_created_at: Date;
  secret_hash: Buffer;
  account: AccountRow;
}

export async function insertAccount(
  db: Queryable,
  account: { id: string; name: string; plan: Plan; datasets: DatasetRelease[]; overnight_entitlement?: boolean },
): Promise<void> {
  await db.insertInto('accounts').values(account).execute();
}

export async function insertApiKey(
  db: Queryable,
  key: { id: string; account_id: string; prefix: string; secret_hash: Buffer; name: string | null },
): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export async function findAccount(db: Queryable, id: string): Promise<AccountRow | null> {
  return (await db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The live (not revoked) key with this prefix, and its account. */
export async function findKeyByPrefix(db: Queryable, prefix: string): Promise<KeyWithAccount | null> {
  const row = await db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .select([
      'k.id as key_id',
      'k.name as key_name',
      'k.created_at as key_created_at',
      'k.secret_hash',
      'a.id',
      'a.name',
      'a.plan',
      'a.datasets',
      'a.overnight_entitlement',
      'a.status',
      'a.created_at',
    ])
    .where('k.prefix', '=', prefix)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const { key_id, key_name, key_created_at, secret_hash, ...account } = row;
  return { key_id, key_name, key_created_at, secret_hash, account };
}

export async function listAccountsWithKeys(db: Queryable) {
  return await db
    .selectFrom('accounts as a')
    .leftJoin('api_keys as k', 'k.account_id', 'a.id')
    .select([
      'a.id',
      'a.name',
      'a.plan',
      'a.datasets',
      'a.overnight_entitlement',
      'a.status',
      'k.id as key_id',
      'k.prefix',
      'k.name as key_name',
      'k.revoked_at',
    ])
    .orderBy('a.created_at')
    .orderBy('k.created_at')
    .execute();
}

export async function revokeKey(db: Queryable, keyIdOrPrefix: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: new Date() })
    .where((eb) => eb.or([eb('id', '=', keyIdOrPrefix), eb('prefix', '=', keyIdOrPrefix)]))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setAccountStatus(db: Queryable, accountId: string, status: AccountStatus): Promise<boolean> {
  const result = await db.updateTable('accounts').set({ status }).where('id', '=', accountId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setAccountPlan(
  db: Queryable,
  accountId: string,
  changes: { plan?: Plan; datasets?: DatasetRelease[]; overnight_entitlement?: boolean },
): Promise<boolean> {
  const result = await db.updateTable('accounts').set(changes).where('id', '=', accountId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
