/**
 * Futures trades written as canonical files and loaded through the ingest path (src/ingest/futures.ts):
 * the definitions of ESZ6, ESH7 and NQZ6, then trades. Used where a test needs futures trades in
 * the store and the futures simulator is not loaded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Database } from '../../src/db/connection.js';
import { loadMarketFile } from '../../src/ingest/market.js';
import type { MarketLoadResult } from '../../src/ingest/source.js';

const ESZ6_EXPIRATION = Date.parse('2026-12-18T14:30:00Z');
const ESH7_EXPIRATION = Date.parse('2027-03-19T13:30:00Z');

/** A trade as written to the canonical layout. */
export interface FuturesTradeLine {
  symbol: string;
  ts: number;
  sequence: number;
  price: number;
  size: number;
  side: 'buy' | 'sell' | 'none';
  tradeDate: string;
}

/** Loads the definitions of ESZ6 and ESH7 (multiplier 50) and NQZ6 (20); the rows written. */
export async function loadFuturesDefinitions(db: Database): Promise<number> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'futures-definitions-')), 'definitions.csv');
  fs.writeFileSync(
    file,
    [
      'symbol,root,contract_month,expiration,tick_size,multiplier',
      `ESZ6,ES,2026-12,${ESZ6_EXPIRATION},0.25,50`,
      `ESH7,ES,2027-03,${ESH7_EXPIRATION},0.25,50`,
      `NQZ6,NQ,2026-12,${ESZ6_EXPIRATION},0.25,20`,
    ].join('\n'),
  );
  try {
    return (await loadMarketFile(db, 'futures_definitions', file, {})).loaded;
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}

/** Writes the trades to a canonical trades file and loads it. */
export async function loadFuturesTrades(db: Database, trades: readonly FuturesTradeLine[]): Promise<MarketLoadResult> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'futures-trades-')), 'trades.csv');
  const line = (t: FuturesTradeLine) =>
    [t.symbol, t.ts, t.sequence, t.price, t.size, t.side === 'none' ? '' : t.side, t.tradeDate].join(',');
  fs.writeFileSync(file, ['symbol,timestamp,sequence,price,size,aggressor_side,trade_date', ...trades.map(line)].join('\n'));
  try {
    return await loadMarketFile(db, 'futures_trades', file, {});
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
