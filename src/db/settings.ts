/** Service-wide settings kept in the database (for example the cursor signing secret). */
import type { Queryable } from './connection.js';

export async function getSetting(db: Queryable, key: string): Promise<string | null> {
  const row = await db.selectFrom('service_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

/** Stores a setting unless one exists, and returns the stored value (first writer wins). */
export async function ensureSetting(db: Queryable, key: string, value: string): Promise<string> {
  await db
    .insertInto('service_settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getSetting(db, key)) ?? value;
}
