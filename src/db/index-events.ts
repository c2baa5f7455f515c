/**
 * The store's side of the index_values stream channel: a load of one-minute bars announces what
 * it wrote (a NOTIFY on INDEX_VALUES_CHANNEL, sent by PostgreSQL at commit, in commit order to every
 * listener, as the prints loads announce theirs: db/print-events.ts), and a stream reads back the
 * minutes that load wrote (the rows whose xmin is the load's transaction) of the symbols it follows.
 */
import pg from 'pg';
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

/** The LISTEN/NOTIFY channel of committed one-minute bar loads. */
export const INDEX_VALUES_CHANNEL = 'oads_bars';

/** A load announces at most this many symbols by name; more (a whole market's bars) announces every symbol (null). */
const MAX_ANNOUNCED_SYMBOLS = 100;

export interface BarsLoaded {
  /** The loading transaction's id (mod 2^32, as xmin holds it). */
  xid: string;
  /** The symbols written; null: too many to name (any symbol). */
  symbols: string[] | null;
  /** The earliest and latest minute written, Unix ms. */
  from: number;
  to: number;
  /** When the load committed (its last statement), Unix ms. */
  loaded_at: number;
}

export function parseBarsLoaded(payload: string): BarsLoaded | null {
  try {
    const v = JSON.parse(payload) as Partial<BarsLoaded>;
    if (typeof v.xid !== 'string' || typeof v.from !== 'number' || typeof v.to !== 'number' || typeof v.loaded_at !== 'number') return null;
    const symbols = Array.isArray(v.symbols) ? v.symbols.filter((s): s is string => typeof s === 'string') : null;
    return { xid: v.xid, symbols, from: v.from, to: v.to, loaded_at: v.loaded_at };
  } catch {
    return null;
  }
}

/** Announces a bars write inside its transaction (the notification is delivered at, and only on, commit). */
export async function notifyBarsLoaded(trx: Queryable, symbols: ReadonlySet<string>, from: number, to: number): Promise<void> {
  const named = symbols.size <= MAX_ANNOUNCED_SYMBOLS ? [...symbols].sort() : null;
  await sql`select pg_notify(${INDEX_VALUES_CHANNEL}::text, json_build_object(
      'xid', (txid_current() % 4294967296)::text, 'symbols', ${named === null ? null : JSON.stringify(named)}::json,
      'from', ${from}::int8, 'to', ${to}::int8,
      'loaded_at', floor(extract(epoch from clock_timestamp()) * 1000)::int8)::text)`.execute(trx);
}

export interface BarsListener {
  end(): Promise<void>;
}

/** Opens a connection that LISTENs for committed bar loads; a lost connection is ended and reported to `onLost`. */
export async function listenForBarsLoads(
  connectionString: string,
  handlers: { onLoaded(loaded: BarsLoaded): void; onLost(error: Error): void },
): Promise<BarsListener> {
  const client = new pg.Client({ connectionString, application_name: 'oads-streams-bars' });
  client.on('notification', (message) => {
    if (message.channel !== INDEX_VALUES_CHANNEL || !message.payload) return;
    const loaded = parseBarsLoaded(message.payload);
    if (loaded !== null) handlers.onLoaded(loaded);
  });
  client.on('error', (error) => {
    handlers.onLost(error);
    client.end().catch(() => undefined);
  });
  await client.connect();
  await client.query(`listen ${INDEX_VALUES_CHANNEL}`);
  return client;
}

export interface LoadedMinute {
  symbol: string;
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The minutes of the symbols that the load `xid` wrote between from and to, by symbol and time (the primary key's range, filtered on xmin). */
export async function minutesOfLoad(
  db: Queryable,
  symbols: readonly string[],
  xid: string,
  from: number,
  to: number,
): Promise<LoadedMinute[]> {
  if (symbols.length === 0) return [];
  const result = await sql<{ symbol: string; ts: string; open: number; high: number; low: number; close: number }>`
    select symbol, ts, open, high, low, close from underlying_bars
    where symbol = any(${[...symbols]}::text[]) and ts between ${from}::int8 and ${to}::int8 and xmin = ${xid}::text::xid
    order by symbol, ts`.execute(db);
  return result.rows.map((r) => ({ symbol: r.symbol, ts: Number(r.ts), open: r.open, high: r.high, low: r.low, close: r.close }));
}
