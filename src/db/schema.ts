/**
 * Kysely table types of the schema in db/migrations, written by hand: migrations run on Kysely<any>
 * and import nothing from src/, so a migration that changes a table needs the same change here.
 * Words stored as they are served (plan, dataset release, account status) take their types from
 * generated/openapi.ts. Dates are YYYY-MM-DD strings and int8 columns numbers (connection.ts parsers).
 */
import type { ColumnType, Generated, RawBuilder } from 'kysely';
import type { components } from '../../generated/openapi.js';

/** The contract's vocabulary, stored as it is served. */
export type Plan = components['schemas']['Plan'];
export type DatasetRelease = components['schemas']['DatasetRelease'];
export type AccountStatus = components['schemas']['Account']['status'];
type PrintSchema = components['schemas']['OptionPrint'];
export type ContractType = components['schemas']['ContractType'];

export interface AccountsTable {
  id: string;
  name: string;
  plan: Plan;
  datasets: DatasetRelease[];
  overnight_entitlement: Generated<boolean>;
  status: Generated<AccountStatus>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  prefix: string;
  secret_hash: Buffer;
  name: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  revoked_at: Date | null;
}

export interface RequestLogTable {
  ts: Date;
  request_id: string;
  account_id: string | null;
  key_id: string | null;
  network: string | null;
  method: string;
  route: string;
  status: number;
  duration_ms: number;
  bytes_out: number;
}

export interface ServiceSettingsTable {
  key: string;
  value: string;
}

export interface StockSplitsTable {
  symbol: string;
  /** Kept as text on read: see the date type parser in connection.ts. */
  execution_date: string;
  split_from: ColumnType<string, string | number, string | number>;
  split_to: ColumnType<string, string | number, string | number>;
  loaded_at: ColumnType<Date, Date | undefined, never>;
}

export interface OptionRootsTable {
  root: string;
  family: string;
  underlying: string;
  multiplier: number;
  kind: 'index' | 'etf' | 'equity';
  overnight: boolean;
  curb: boolean;
  am_settled: boolean;
}

export interface ContractsTable {
  id: Generated<number>;
  /** Padded OCC form, e.g. 'SPXW  241220C05900000'. */
  option_symbol: string;
  root: string;
  underlying: string;
  date_of_expiry: string;
  contract_type: ContractType;
  /** Strike in exact integer thousandths of a dollar. */
  strike_thousandths: number;
  multiplier: Generated<number>;
}

/** One classified print; partitioned by trading_date (one partition per date). Times are Unix ms. */
export interface PrintsTable {
  trading_date: string;
  contract_id: number;
  sequence: number;
  id: string;
  root: string;
  family: string;
  underlying: string;
  ts: number;
  session: PrintSchema['session'];
  contract_type: ContractType;
  date_of_expiry: string;
  strike: number;
  price: number;
  size: number;
  premium: number;
  exchange_code: number;
  exchange: string;
  condition_code: number;
  extended_conditions: number[];
  side: PrintSchema['side'];
  side_confidence: number;
  sentiment: PrintSchema['sentiment'];
  trade_type: PrintSchema['trade_type'];
  flags: PrintSchema['flags'];
  group_id: string | null;
  is_block: boolean;
  is_golden: boolean;
  is_unusual: boolean;
  day_volume: number;
  open_interest: number | null;
  days_to_expiry: number;
  otm_percent: number | null;
  implied_volatility: number | null;
  delta: number | null;
  underlying_price: number | null;
  /** The bid and ask served (null when the quote in force was invalid). */
  bid: number | null;
  ask: number | null;
  /** The quote in force as given to the classifier, kept so an archived session reloads exactly. */
  quote_bid: number | null;
  quote_ask: number | null;
  quote_ts: number | null;
  aggressor_side: 'buy' | 'sell' | null;
  cancelled: Generated<boolean>;
  /** The print exactly as served: the JSON object of the specification's 31 fields. */
  body: string;
}

/** One-minute NBBO sample: the last quote update within [minute, minute + 60 s). */
export interface QuoteSamplesTable {
  trading_date: string;
  contract_id: number;
  minute: number;
  bid: number | null;
  ask: number | null;
  bid_size: number | null;
  ask_size: number | null;
  quote_ts: number;
}

/** A minute of a trading date for which quote samples are stored (quote-samples.ts recordQuoteMinutes). */
export interface QuoteMinutesTable {
  trading_date: string;
  minute: number;
}

export interface UnderlyingBarsTable {
  symbol: string;
  /** Start of the one-minute bar, Unix ms. */
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

export interface OpenInterestTable {
  contract_id: number;
  /** Trading date the figure applies to (open interest at its start). */
  date: string;
  open_interest: number;
}

/** A listed futures contract (migration 20261128T150000). */
export interface FuturesContractsTable {
  id: Generated<number>;
  /** Raw symbol, ESZ6; with contract_month the key. */
  symbol: string;
  root: string;
  /** YYYY-MM. */
  contract_month: string;
  /** Last trading instant, Unix ms. */
  expiration: number;
  tick_size: number;
  multiplier: number;
  currency: Generated<string>;
  /** The feed's instrument id (Databento), when the definition came with one. */
  instrument_id: number | null;
}

export interface FuturesTradesTable {
  trade_date: string;
  contract_id: number;
  sequence: number;
  /** The trade's place among the trades of its contract and sequence, in file order. */
  match: number;
  root: string;
  /** Unix ms. */
  ts: number;
  price: number;
  size: number;
  aggressor_side: 'buy' | 'sell' | null;
}

export interface FuturesBarsTable {
  contract_id: number;
  /** Start of the one-minute bar, Unix ms. */
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface FuturesStatisticsTable {
  contract_id: number;
  trade_date: string;
  root: string;
  settlement_price: number | null;
  settlement_final: boolean | null;
  /** When the stored settlement was published, Unix ms (null when the file did not say). */
  settlement_ts: number | null;
  open_interest: number | null;
  cleared_volume: number | null;
}

export interface IngestFilesTable {
  checksum: string;
  kind: string;
  file_name: string;
  loaded_at: ColumnType<Date, Date | undefined, never>;
  read: number;
  loaded: number;
  rejected: number;
  duplicates: number;
}

/** A run of the market simulator whose files were loaded into this store (db/data-origin.ts). */
export interface SimulatedMarketsTable {
  id: Generated<number>;
  seed: number;
  scale: string;
  /** The folder the run wrote its files to, as their ledger paths begin. */
  out_dir: string;
  /** A start of the live simulated market (src/live/), whose minutes load as files of out_dir. */
  live: Generated<boolean>;
  started_at: ColumnType<Date, Date | undefined, never>;
}

export interface ArchivedSessionsTable {
  trading_date: string;
  archive_dir: string;
  prints: number;
  quotes: number;
  archived_at: ColumnType<Date, Date | undefined, Date>;
  restored_at: Date | null;
}

/**
 * A session's flow totals of one contract, session, underlying and complexity (multileg or flagged
 * complex): its uncancelled prints' sums and last print (db/flow-aggregates.ts). Premiums are
 * numeric, read as text.
 */
export interface FlowTotalsByContractTable {
  trading_date: string;
  contract_id: number;
  session: PrintSchema['session'];
  complex: boolean;
  underlying: string;
  root: string;
  contract_type: ContractType;
  date_of_expiry: string;
  strike: number;
  premium: string;
  bullish: string;
  bearish: string;
  neutral: string;
  volume: number;
  trades: number;
  last_ts: number;
  last_sequence: number;
  last_price: number;
  last_implied_volatility: number | null;
  last_open_interest: number | null;
}

/** The flow totals of a session per underlying, session and complexity (the contracts' rows added up). */
export interface FlowTotalsByUnderlyingTable {
  trading_date: string;
  underlying: string;
  session: PrintSchema['session'];
  complex: boolean;
  premium: string;
  bullish: string;
  bearish: string;
  neutral: string;
  volume: number;
  call_volume: number;
  put_volume: number;
  trades: number;
}

export interface ExportsTable {
  id: string;
  account_id: string;
  operation_id: string;
  path: string;
  /** The query as requested, one string per parameter (JSON on write). */
  query: ColumnType<Record<string, string>, string, string>;
  status: 'queued' | 'retrying' | 'awaiting_configuration' | 'failed' | 'ready';
  revision: ColumnType<number, number | undefined, number | RawBuilder<number>>;
  created_at: ColumnType<Date, Date | undefined, never>;
  attempts: Generated<number>;
  last_attempt_at: Date | null;
  failed_at: Date | null;
  error_code: string | null;
  failure_reason: string | null;
  file_path: string | null;
  etag: string | null;
  bytes: number | null;
  rows: number | null;
  pages: number | null;
  truncated: boolean | null;
  resolution: string | null;
  /** The run holding the export (jobs/export.ts) while its heartbeat is fresh; null when none runs it. */
  run_id: string | null;
  heartbeat_at: Date | null;
  /** Set aside because its account ran its share of the workers. */
  parked_at: Date | null;
  /** When a job for it was last sent to the queue. */
  sent_at: Date | null;
  /** When the target route first answered data_pending (the export waits for the load). */
  pending_since: Date | null;
  /** A ready export's file is deleted at this time; its download answers 410 after it. */
  expires_at: Date | null;
  /** The file's format (migration 20261128T110000); json unless asked. */
  format: ColumnType<ExportFormat, ExportFormat | undefined, never>;
}

/** The formats of an export file (the contract's ExportFormat). */
export type ExportFormat = 'json' | 'csv' | 'parquet';

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  request_log: RequestLogTable;
  service_settings: ServiceSettingsTable;
  stock_splits: StockSplitsTable;
  option_roots: OptionRootsTable;
  contracts: ContractsTable;
  prints: PrintsTable;
  quote_samples: QuoteSamplesTable;
  quote_minutes: QuoteMinutesTable;
  underlying_bars: UnderlyingBarsTable;
  open_interest: OpenInterestTable;
  futures_contracts: FuturesContractsTable;
  futures_trades: FuturesTradesTable;
  futures_bars: FuturesBarsTable;
  futures_statistics: FuturesStatisticsTable;
  ingest_files: IngestFilesTable;
  simulated_markets: SimulatedMarketsTable;
  archived_sessions: ArchivedSessionsTable;
  flow_totals_by_contract: FlowTotalsByContractTable;
  flow_totals_by_underlying: FlowTotalsByUnderlyingTable;
  exports: ExportsTable;
}
