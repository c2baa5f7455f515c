/** Kysely table types of the schema in db/migrations. */
import type { ColumnType, Generated } from 'kysely';

export type Plan = 'basic' | 'pro';
export type DatasetRelease = 'options' | 'futures' | 'equities' | 'indices';
export type AccountStatus = 'active' | 'suspended';

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

export interface DB {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  request_log: RequestLogTable;
  service_settings: ServiceSettingsTable;
  stock_splits: StockSplitsTable;
}
