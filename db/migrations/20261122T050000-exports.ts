import { sql, type Kysely } from 'kysely';

// Export jobs: the request, its state (revision increases at every change) and the file once ready.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('exports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('query', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued', 'retrying', 'awaiting_configuration', 'failed', 'ready')`))
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('failed_at', 'timestamptz')
    .addColumn('error_code', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('file_path', 'text')
    .addColumn('etag', 'text')
    .addColumn('bytes', 'bigint')
    .addColumn('rows', 'integer')
    .addColumn('pages', 'integer')
    .addColumn('truncated', 'boolean')
    .addColumn('resolution', 'text')
    .execute();
  await db.schema.createIndex('exports_account_status_idx').on('exports').columns(['account_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('exports').ifExists().execute();
}
