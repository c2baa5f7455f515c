import { sql, type Kysely } from 'kysely';

// Accounts, API keys (hashes only), the durable request log, service settings and stock splits.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('basic', 'pro')`))
    .addColumn('datasets', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{options,equities}'`))
    .addColumn('overnight_entitlement', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active').check(sql`status in ('active', 'suspended')`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'bytea', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_account_idx').on('api_keys').column('account_id').execute();

  await db.schema
    .createTable('request_log')
    .addColumn('ts', 'timestamptz', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('key_id', 'text')
    .addColumn('network', 'text')
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('status', 'smallint', (c) => c.notNull())
    .addColumn('duration_ms', 'real', (c) => c.notNull())
    .addColumn('bytes_out', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('request_log_account_ts_idx').on('request_log').columns(['account_id', 'ts']).execute();
  await db.schema.createIndex('request_log_ts_idx').on('request_log').column('ts').execute();

  await db.schema
    .createTable('service_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('stock_splits')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('execution_date', 'date', (c) => c.notNull())
    .addColumn('split_from', 'numeric', (c) => c.notNull().check(sql`split_from > 0`))
    .addColumn('split_to', 'numeric', (c) => c.notNull().check(sql`split_to > 0`))
    .addColumn('loaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('stock_splits_pk', ['symbol', 'execution_date'])
    .execute();
  await db.schema
    .createIndex('stock_splits_newest_idx')
    .on('stock_splits')
    .expression(sql`execution_date desc, symbol`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['stock_splits', 'service_settings', 'request_log', 'api_keys', 'accounts']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
