/**
 * Leases of the deployment's once-only duties (migration 20261128T100000, src/live/duty.ts). Time is
 * the database's own (now()), so machines whose clocks differ agree on when a lease expired.
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Queryable } from './connection.js';

/**
 * Takes or renews the lease of a duty for `holder` until `leaseMs` from now: renewed when it holds
 * it, taken when nobody does or the holder's lease expired. True when `holder` holds it afterwards.
 */
export async function claimDuty(db: Queryable, name: string, holder: string, leaseMs: number): Promise<boolean> {
  const result = await sql<{ holder: string }>`
    insert into duties (name, holder, taken_at, expires_at)
    values (${name}, ${holder}, now(), now() + make_interval(secs => ${leaseMs / 1000}))
    on conflict (name) do update
      set holder = excluded.holder,
          expires_at = excluded.expires_at,
          taken_at = case when duties.holder = excluded.holder then duties.taken_at else excluded.taken_at end
      where duties.holder = excluded.holder or duties.expires_at < now()
    returning holder`.execute(db);
  return result.rows.length === 1;
}

/** Gives the duty's lease up if `holder` holds it, so that another process takes it at its next look. */
export async function releaseDuty(db: Queryable, name: string, holder: string): Promise<void> {
  await sql`delete from duties where name = ${name} and holder = ${holder}`.execute(db);
}

export interface DutyLease {
  name: string;
  holder: string;
  takenAt: number;
  expiresAt: number;
}

/** Every duty's lease, expired ones included. */
export async function dutyLeases(db: Queryable): Promise<DutyLease[]> {
  const result = await sql<{ name: string; holder: string; taken_at: Date; expires_at: Date }>`
    select name, holder, taken_at, expires_at from duties order by name`.execute(db);
  return result.rows.map((r) => ({ name: r.name, holder: r.holder, takenAt: r.taken_at.getTime(), expiresAt: r.expires_at.getTime() }));
}

/**
 * Holds a lock of the deployment named `name` for a step that must run once however many machines
 * start together (the first start's market seeding): a PostgreSQL advisory lock on a connection of
 * its own, taken at once or, after `onWait` is told, when its holder releases it or dies (its
 * session ends). The returned function ends the session, which releases the lock.
 */
export async function holdDeploymentLock(connectionString: string, name: string, onWait: () => void): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString, application_name: 'oads-deployment-lock' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const key = `oads-deployment:${name}`;
    const tried = await client.query<{ held: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as held', [key]);
    if (tried.rows[0]?.held !== true) {
      onWait();
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [key]);
    }
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return async () => {
    await client.end().catch(() => undefined);
  };
}
