/**
 * Fields that are only served leave the prints columns: id, family, side_confidence, group_id,
 * day_volume, delta, bid and ask stay in the body (the served object) and no query filters, sorts,
 * aggregates or reads them back. Each column costs PostgreSQL a conversion per row on COPY; on 1M
 * stored prints read back as binary COPY data (one process), the rows without these eight loaded in
 * 5.5-5.9 s against 6.9-8.6 s with them. Dropping a column is a catalog change: stored partitions
 * keep the bytes until rewritten.
 */
import { sql, type Kysely } from 'kysely';

const COLUMNS = ['id', 'family', 'side_confidence', 'group_id', 'day_volume', 'delta', 'bid', 'ask'];

export async function up(db: Kysely<any>): Promise<void> {
  for (const column of COLUMNS) await sql`alter table prints drop column ${sql.ref(column)}`.execute(db);
}

/** The columns come back empty (null or zero): the bodies still hold each print's values. */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table prints add column id text not null default '', add column family text not null default '',
    add column side_confidence double precision not null default 0, add column group_id text, add column day_volume integer not null default 0,
    add column delta double precision, add column bid double precision, add column ask double precision`.execute(db);
}
