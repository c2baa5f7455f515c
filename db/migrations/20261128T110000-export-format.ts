/**
 * An export names the format of its file (issue 36 §5): json (the only one before, the default),
 * csv (a gzip-compressed CSV file) or parquet.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table exports
      add column format text not null default 'json' constraint exports_format_check check (format in ('json', 'csv', 'parquet'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table exports drop column format`.execute(db);
}
