/**
 * Export files held in the database (issue 37 §2): with several machines, a file written on the
 * disk of the machine that ran its export cannot be downloaded through another, nor after that
 * machine died. A run stores its finished file here in chunks under its run id (fenced: only the
 * run holding the export's lease can add them), and every machine streams them back. The bytes
 * are already compressed (gzip, Snappy) or served as stored: kept out of line and not compressed
 * again (storage external).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table export_chunks (
      export_id text not null references exports (id) on delete cascade,
      run_id text not null,
      seq integer not null,
      bytes bytea not null,
      primary key (export_id, run_id, seq)
    )`.execute(db);
  await sql`alter table export_chunks alter column bytes set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists export_chunks`.execute(db);
}
