/**
 * The simulated markets written into this store: one row per run of the market simulator that
 * loaded its files here (first start, `npm run simulate`, and each start of the live simulated
 * market, `live`), with its seed, scale and the folder its files were written to. GET /v1/status reads it with the ingest ledger (ingest_files) to tell
 * simulated data from loaded files: a ledger row whose file lies in one of these folders is a
 * simulated file.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table simulated_markets (
      id bigint generated always as identity primary key,
      seed bigint not null,
      scale text not null,
      out_dir text not null,
      live boolean not null default false,
      started_at timestamptz not null default now()
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists simulated_markets`.execute(db);
}
