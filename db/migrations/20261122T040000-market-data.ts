import { sql, type Kysely } from 'kysely';

// The market data store: option roots, contracts, classified prints (partitioned by trading date,
// one partition per date created by the loader), one-minute NBBO samples (partitioned the same
// way), underlying one-minute bars, open interest per contract and date, the ledger of loaded
// files and the sessions moved to the archive. Times are Unix epoch milliseconds (bigint).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('option_roots')
    .addColumn('root', 'text', (c) => c.primaryKey())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('underlying', 'text', (c) => c.notNull())
    .addColumn('multiplier', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('index', 'etf', 'equity')`))
    .addColumn('overnight', 'boolean', (c) => c.notNull())
    .addColumn('curb', 'boolean', (c) => c.notNull())
    .addColumn('am_settled', 'boolean', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('option_roots_family_idx').on('option_roots').column('family').execute();

  await db.schema
    .createTable('contracts')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('option_symbol', 'text', (c) => c.notNull().unique())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('underlying', 'text', (c) => c.notNull())
    .addColumn('date_of_expiry', 'date', (c) => c.notNull())
    .addColumn('contract_type', 'text', (c) => c.notNull().check(sql`contract_type in ('call', 'put')`))
    .addColumn('strike_thousandths', 'bigint', (c) => c.notNull().check(sql`strike_thousandths > 0`))
    .addColumn('multiplier', 'integer', (c) => c.notNull().defaultTo(100))
    .execute();
  await db.schema
    .createIndex('contracts_chain_idx')
    .on('contracts')
    .columns(['root', 'date_of_expiry', 'contract_type', 'strike_thousandths'])
    .unique()
    .execute();
  await db.schema.createIndex('contracts_underlying_idx').on('contracts').columns(['underlying', 'date_of_expiry']).execute();

  await sql`
    create table prints (
      trading_date date not null,
      contract_id bigint not null,
      sequence bigint not null,
      id text not null,
      root text not null,
      family text not null,
      underlying text not null,
      ts bigint not null,
      session text not null,
      contract_type text not null,
      date_of_expiry date not null,
      strike double precision not null,
      price double precision not null,
      size integer not null,
      premium double precision not null,
      exchange_code integer not null,
      exchange text not null,
      condition_code integer not null,
      extended_conditions integer[] not null default '{}',
      side text not null,
      side_confidence double precision not null,
      sentiment text not null,
      trade_type text not null,
      flags text[] not null,
      group_id text,
      is_block boolean not null,
      is_golden boolean not null,
      is_unusual boolean not null,
      day_volume integer not null,
      open_interest integer,
      days_to_expiry integer not null,
      otm_percent double precision,
      implied_volatility double precision,
      delta double precision,
      underlying_price double precision,
      bid double precision,
      ask double precision,
      quote_bid double precision,
      quote_ask double precision,
      quote_ts bigint,
      aggressor_side text,
      cancelled boolean not null default false,
      body text not null,
      primary key (trading_date, contract_id, sequence)
    ) partition by list (trading_date)
  `.execute(db);
  // Newest first by root and session (the trades endpoint, one root or a family's roots merged),
  // newest first across the market (the flow feed), and the last trade of one contract at an
  // instant (trade-at-time). Cancelled prints are never served, so they stay out of the first two.
  // (ts, sequence, contract_id) orders a trading date's prints totally: a cursor position.
  await sql`create index prints_root_newest_idx on prints (root, session, ts desc, sequence desc, contract_id desc) where not cancelled`.execute(db);
  await sql`create index prints_market_newest_idx on prints (session, ts desc, sequence desc, contract_id desc) where not cancelled`.execute(db);
  await sql`create index prints_contract_ts_idx on prints (contract_id, ts desc)`.execute(db);

  await sql`
    create table quote_samples (
      trading_date date not null,
      contract_id bigint not null,
      minute bigint not null,
      bid double precision,
      ask double precision,
      bid_size integer,
      ask_size integer,
      quote_ts bigint not null,
      primary key (contract_id, minute, trading_date)
    ) partition by list (trading_date)
  `.execute(db);

  await db.schema
    .createTable('underlying_bars')
    .addColumn('symbol', 'text', (c) => c.notNull())
    .addColumn('ts', 'bigint', (c) => c.notNull())
    .addColumn('open', 'float8', (c) => c.notNull())
    .addColumn('high', 'float8', (c) => c.notNull())
    .addColumn('low', 'float8', (c) => c.notNull())
    .addColumn('close', 'float8', (c) => c.notNull())
    .addColumn('volume', 'bigint')
    .addPrimaryKeyConstraint('underlying_bars_pk', ['symbol', 'ts'])
    .execute();
  await sql`create index underlying_bars_ts_idx on underlying_bars (ts desc)`.execute(db);

  await db.schema
    .createTable('open_interest')
    .addColumn('contract_id', 'bigint', (c) => c.notNull().references('contracts.id'))
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('open_interest', 'integer', (c) => c.notNull().check(sql`open_interest >= 0`))
    .addPrimaryKeyConstraint('open_interest_pk', ['contract_id', 'date'])
    .execute();
  await db.schema.createIndex('open_interest_date_idx').on('open_interest').column('date').execute();

  await db.schema
    .createTable('ingest_files')
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('loaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('read', 'integer', (c) => c.notNull())
    .addColumn('loaded', 'integer', (c) => c.notNull())
    .addColumn('rejected', 'integer', (c) => c.notNull())
    .addColumn('duplicates', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ingest_files_pk', ['checksum', 'kind'])
    .execute();

  await db.schema
    .createTable('archived_sessions')
    .addColumn('trading_date', 'date', (c) => c.primaryKey())
    .addColumn('archive_dir', 'text', (c) => c.notNull())
    .addColumn('prints', 'integer', (c) => c.notNull())
    .addColumn('quotes', 'integer', (c) => c.notNull())
    .addColumn('archived_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('restored_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['archived_sessions', 'ingest_files', 'open_interest', 'underlying_bars', 'quote_samples', 'prints', 'contracts', 'option_roots']) {
    await db.schema.dropTable(table).ifExists().cascade().execute();
  }
}
