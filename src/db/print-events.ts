/**
 * The store's side of the streams: a prints load announces what it wrote (a NOTIFY on
 * PRINTS_CHANNEL, sent by PostgreSQL at commit, in commit order to every listener), and a stream
 * reads those prints back by the load's transaction id, in the trades route's order (ts, sequence,
 * contract id) read forward, as their stored bodies (the bodies GET /v1/options/trades serves).
 *
 * A load's rows carry its transaction id as xmin (COPY and INSERT in one transaction, no
 * savepoint); a print the load repeated was left as stored and keeps its older xmin, a print it
 * cancelled is left out by `not cancelled`. The payload's time range (the load's first and last
 * print of the date) bounds the read to the index range of the new rows.
 *
 * A load can also cancel prints stored (and streamed) by earlier loads: a cancel record of its file
 * that matched no print of the file cancels the newest matching stored print, and the load records
 * which in print_cancels (ingest/prints.ts). Those rows carry the load's transaction id as xmin too,
 * so the payload counts them per date (`cancelled`; a load that only cancelled still announces its
 * date, with 0 rows) and a stream reads them back by the same transaction id (streamCancelledPrints).
 */
import { sql, type RawBuilder } from 'kysely';
import pg from 'pg';
import { SESSIONS_OF } from '../analytics/print-filters.js';
import type { Queryable } from './connection.js';
import { FUTURES_TRADES_CHANNEL, parseFuturesTradesLoaded, type FuturesTradesLoaded } from './futures-trade-events.js';
import { printConditions, type PrintFilter } from './trades.js';

/** The LISTEN/NOTIFY channel of committed prints loads. */
export const PRINTS_CHANNEL = 'oads_prints';

/** What a load wrote for one trading date. */
export interface LoadedDate {
  tradingDate: string;
  /** The earliest and latest print time of the date in the load, Unix ms. */
  from: number;
  to: number;
  rows: number;
}

/** The payload of a notification (JSON). */
export interface PrintsLoaded {
  trading_date: string;
  /** The load's transaction id, as PostgreSQL's 32-bit xid (the rows' xmin). */
  xid: string;
  from: number;
  to: number;
  rows: number;
  /** Prints stored by earlier loads that this load cancelled (print_cancels rows it wrote). */
  cancelled: number;
  /** PostgreSQL's clock when the load announced itself, just before its commit, Unix ms. */
  loaded_at: number;
}

export function parsePrintsLoaded(payload: string): PrintsLoaded | null {
  try {
    const value = JSON.parse(payload) as Partial<PrintsLoaded>;
    if (
      typeof value.trading_date !== 'string' ||
      typeof value.xid !== 'string' ||
      typeof value.from !== 'number' ||
      typeof value.to !== 'number'
    )
      return null;
    return {
      trading_date: value.trading_date,
      xid: value.xid,
      from: value.from,
      to: value.to,
      rows: Number(value.rows ?? 0),
      cancelled: Number(value.cancelled ?? 0),
      loaded_at: Number(value.loaded_at ?? 0),
    };
  } catch {
    return null;
  }
}

/** A connection of its own that LISTENs on PRINTS_CHANNEL (streams: one a process). */
export interface PrintsListener {
  end(): Promise<void>;
}

/**
 * Opens a connection that LISTENs for committed prints loads: each announcement, parsed, goes to
 * `onLoaded` in the order PostgreSQL delivers them; the futures trades loads' announcements
 * (db/futures-trade-events.ts) come on the same connection, in the same commit order, to
 * `onFuturesTrades`. A lost connection is ended and reported to `onLost` (the caller listens again
 * when it wants to).
 */
export async function listenForPrintsLoads(
  connectionString: string,
  handlers: { onLoaded(loaded: PrintsLoaded): void; onFuturesTrades?(loaded: FuturesTradesLoaded): void; onLost(error: Error): void },
): Promise<PrintsListener> {
  const client = new pg.Client({ connectionString, application_name: 'oads-streams' });
  client.on('notification', (message) => {
    if (message.channel === FUTURES_TRADES_CHANNEL && message.payload) {
      const futures = parseFuturesTradesLoaded(message.payload);
      if (futures !== null) handlers.onFuturesTrades?.(futures);
      return;
    }
    if (message.channel !== PRINTS_CHANNEL || !message.payload) return;
    const loaded = parsePrintsLoaded(message.payload);
    if (loaded === null) return;
    handlers.onLoaded(loaded);
  });
  client.on('error', (error) => {
    handlers.onLost(error);
    client.end().catch(() => undefined);
  });
  await client.connect();
  await client.query(`listen ${PRINTS_CHANNEL}`);
  await client.query(`listen ${FUTURES_TRADES_CHANNEL}`);
  return client;
}

/**
 * Announces the dates a load wrote or cancelled stored prints of, inside its transaction (the last
 * statement before the commit): PostgreSQL delivers the notifications when, and only if, the
 * transaction commits. The cancels are the print_cancels rows this transaction wrote (a read of that
 * small table, which holds only cancels of prints stored by an earlier load).
 */
export async function notifyPrintsLoaded(trx: Queryable, dates: readonly LoadedDate[]): Promise<void> {
  const cancels = await sql<{ trading_date: string; n: number }>`
    select to_char(trading_date, 'YYYY-MM-DD') as trading_date, count(*)::int4 as n from print_cancels
    where xmin = (txid_current() % 4294967296)::text::xid group by trading_date order by trading_date`.execute(trx);
  const cancelled = new Map(cancels.rows.map((r) => [r.trading_date, Number(r.n)]));
  const announced: (LoadedDate & { cancelled: number })[] = dates
    .filter((d) => d.rows > 0)
    .map((d) => ({ ...d, cancelled: cancelled.get(d.tradingDate) ?? 0 }));
  for (const [tradingDate, n] of cancelled)
    if (!announced.some((d) => d.tradingDate === tradingDate)) announced.push({ tradingDate, from: 0, to: 0, rows: 0, cancelled: n });
  for (const d of announced) {
    await sql`select pg_notify(${PRINTS_CHANNEL}::text, json_build_object(
        'trading_date', ${d.tradingDate}::text, 'xid', (txid_current() % 4294967296)::text,
        'from', ${d.from}::int8, 'to', ${d.to}::int8, 'rows', ${d.rows}::int4, 'cancelled', ${d.cancelled}::int4,
        'loaded_at', floor(extract(epoch from clock_timestamp()) * 1000)::int8)::text)`.execute(trx);
  }
}

/** Which prints of a date to read: those one load wrote, or a window of the stored ones (a replay). */
export type PrintSelection = { kind: 'load'; xid: string; from: number; to: number } | { kind: 'window'; from: number; to: number };

/** A print read for a stream: its stored body and its place in the trades order. */
export interface StreamPrint {
  body: string;
  ts: number;
  sequence: number;
  contract_id: number;
}

/** The scan filter of a stream's subscription: exchanges and exact sides, null for any. */
export interface ScanFilter {
  exchanges: readonly string[] | null;
  sides: readonly string[] | null;
}

/** The conditions on prints of the trades filter `f` and the scan filter for a date, after `state`; null when nothing can pass. */
function streamConditions(f: PrintFilter, scan: ScanFilter, state: RawBuilder<boolean>): RawBuilder<boolean>[] | null {
  if (f.sessions.length === 0 || f.roots?.length === 0) return null;
  const c: RawBuilder<boolean>[] = [sql<boolean>`trading_date = ${f.tradingDate}::date`, state, ...printConditions(f)];
  if (!SESSIONS_OF.all.every((s) => f.sessions.includes(s))) c.push(sql<boolean>`session = any(${[...f.sessions]}::text[])`);
  if (f.roots !== null) c.push(sql<boolean>`root = any(${[...f.roots]}::text[])`);
  if (scan.exchanges) c.push(sql<boolean>`exchange = any(${[...scan.exchanges]}::text[])`);
  if (scan.sides) c.push(sql<boolean>`side = any(${[...scan.sides]}::text[])`);
  return c;
}

/**
 * The prints of `selection` that pass the trades filter `f` and the scan filter (exchange, exact
 * side), oldest first by (ts, sequence, contract id).
 */
export async function streamPrints(db: Queryable, f: PrintFilter, selection: PrintSelection, scan: ScanFilter): Promise<StreamPrint[]> {
  const c = streamConditions(f, scan, sql<boolean>`not cancelled`);
  if (c === null) return [];
  if (selection.kind === 'load') {
    c.push(sql<boolean>`ts between ${selection.from}::int8 and ${selection.to}::int8`, sql<boolean>`xmin = ${selection.xid}::text::xid`);
  } else {
    c.push(sql<boolean>`ts >= ${selection.from}::int8`, sql<boolean>`ts < ${selection.to}::int8`);
  }
  const result =
    await sql<StreamPrint>`select body, ts, sequence, contract_id from prints where ${sql.join(c, sql` and `)} order by ts, sequence, contract_id`.execute(
      db,
    );
  return result.rows.map((r) => ({ body: r.body, ts: Number(r.ts), sequence: Number(r.sequence), contract_id: Number(r.contract_id) }));
}

/** What a print_cancelled message says of each print: the fields that identify it on a tape. */
export const CANCELLED_PRINT_FIELDS = [
  'id',
  'timestamp',
  'session',
  'underlying_symbol',
  'contract_type',
  'strike',
  'date_of_expiry',
  'exchange',
  'price',
  'size',
  'premium',
] as const;

/**
 * The stored prints of `tradingDate` that the load `xid` cancelled (print_cancels rows it wrote)
 * and that pass the trades filter `f` and the scan filter, oldest first by (ts, sequence, contract
 * id): each as the identifying fields of its stored body, as JSON. A cancel does not change what a
 * filter reads (it sets `cancelled` and adds the cancelled flag, which no filter reads), so these
 * are the prints the subscription was sent.
 */
export async function streamCancelledPrints(db: Queryable, f: PrintFilter, xid: string, scan: ScanFilter): Promise<string[]> {
  const c = streamConditions(f, scan, sql<boolean>`cancelled`);
  if (c === null) return [];
  c.push(
    sql<boolean>`(contract_id, sequence) in (select contract_id, sequence from print_cancels where trading_date = ${f.tradingDate}::date and xmin = ${xid}::text::xid)`,
  );
  const result = await sql<{
    body: string;
  }>`select body from prints where ${sql.join(c, sql` and `)} order by ts, sequence, contract_id`.execute(db);
  return result.rows.map((r) => {
    const body = JSON.parse(r.body) as Record<string, unknown>;
    return JSON.stringify(Object.fromEntries(CANCELLED_PRINT_FIELDS.map((k) => [k, body[k]])));
  });
}
