/**
 * Leases of the deployment's once-only duties (migration 20261128T100000, src/live/duty.ts). Time is
 * the database's own (now()), so machines whose clocks differ agree on when a lease expired.
 */
import { sql } from 'kysely';
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
