/**
 * What the export pool needs to know of each export beyond its served state. A running export
 * holds a lease: `run_id` names the run and `heartbeat_at` is renewed while it lives, so a run
 * whose process died is found by its stale heartbeat and resumed (jobs/export-sweep.ts).
 * `parked_at` marks an export put aside because its account already runs its share of the
 * workers; `sent_at` is when a job for it was last sent to the queue (an export with no run and
 * no job sent for a while lost its job, and is sent again); `pending_since` when the target
 * route first answered data_pending (the export waits for the load, within a bound). `expires_at`
 * is when a ready export's file is deleted (its download then answers 410); files already made
 * get the stated retention of 24 hours from this upgrade.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('exports')
    .addColumn('run_id', 'text')
    .addColumn('heartbeat_at', 'timestamptz')
    .addColumn('parked_at', 'timestamptz')
    .addColumn('sent_at', 'timestamptz')
    .addColumn('pending_since', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await sql`update exports set expires_at = now() + interval '24 hours' where status = 'ready'`.execute(db);
  await sql`update exports set sent_at = created_at where status in ('queued', 'retrying')`.execute(db);
  await sql`create index exports_running_idx on exports (heartbeat_at) where run_id is not null`.execute(db);
  await sql`create index exports_parked_idx on exports (account_id, created_at) where parked_at is not null`.execute(db);
  await sql`create index exports_waiting_idx on exports (sent_at) where run_id is null and status in ('queued', 'retrying')`.execute(db);
  await sql`create index exports_expiring_idx on exports (expires_at) where file_path is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists exports_expiring_idx`.execute(db);
  await sql`drop index if exists exports_waiting_idx`.execute(db);
  await sql`drop index if exists exports_parked_idx`.execute(db);
  await sql`drop index if exists exports_running_idx`.execute(db);
  await db.schema
    .alterTable('exports')
    .dropColumn('run_id')
    .dropColumn('heartbeat_at')
    .dropColumn('parked_at')
    .dropColumn('sent_at')
    .dropColumn('pending_since')
    .dropColumn('expires_at')
    .execute();
}
