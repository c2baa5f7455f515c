/**
 * Duties a deployment runs once whatever the number of its machines (src/live/duty.ts): a lease per
 * duty, held by one process and renewed while it runs the duty. A lease not renewed by its expiry
 * is taken by another process, so a machine that dies hands its duties on.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table duties (
      name text primary key,
      holder text not null,
      taken_at timestamptz not null,
      expires_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists duties`.execute(db);
}
