/**
 * The store's side of the futures_trades stream channel, as db/print-events.ts is the prints
 * channel's: a futures trades load announces, per trade date, what it wrote (a NOTIFY on
 * FUTURES_TRADES_CHANNEL, delivered by PostgreSQL at commit, in commit order, on the streams'
 * listening connection with the prints loads), and a stream reads those trades back by the load's
 * transaction id (the rows' xmin: a COPY FREEZE or insert of the load's transaction; a trade the
 * load repeated was left as stored and keeps its older xmin), oldest first by (ts, sequence, match,
 * contract id), with the route's filters (db/futures-trades.ts). The payload's time range bounds
 * the read to the index range of the new rows.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';
import { futuresTradePageStatement, tradeOfContractRow, type FuturesTradeFilter, type FuturesTradeOfContract } from './futures-trades.js';

/** The LISTEN/NOTIFY channel of committed futures trades loads. */
export const FUTURES_TRADES_CHANNEL = 'oads_futures_trades';

/** The payload of a notification (JSON): what one load wrote for one trade date. */
export interface FuturesTradesLoaded {
  trade_date: string;
  /** The load's transaction id, as PostgreSQL's 32-bit xid (the rows' xmin). */
  xid: string;
  /** The earliest and latest trade time written, Unix ms. */
  from: number;
  to: number;
  rows: number;
  /** PostgreSQL's clock when the load announced itself, just before its commit, Unix ms. */
  loaded_at: number;
}

export function parseFuturesTradesLoaded(payload: string): FuturesTradesLoaded | null {
  try {
    const value = JSON.parse(payload) as Partial<FuturesTradesLoaded>;
    if (
      typeof value.trade_date !== 'string' ||
      typeof value.xid !== 'string' ||
      typeof value.from !== 'number' ||
      typeof value.to !== 'number'
    )
      return null;
    return {
      trade_date: value.trade_date,
      xid: value.xid,
      from: value.from,
      to: value.to,
      rows: Number(value.rows ?? 0),
      loaded_at: Number(value.loaded_at ?? 0),
    };
  } catch {
    return null;
  }
}

/**
 * Announces, inside the load's transaction, the trade dates it wrote trades of (dates with none
 * written are not announced): PostgreSQL delivers the notifications when, and only if, it commits.
 */
export async function notifyFuturesTradesLoaded(
  trx: Queryable,
  dates: readonly { tradeDate: string; from: number; to: number; rows: number }[],
): Promise<void> {
  for (const d of dates) {
    if (d.rows <= 0) continue;
    await sql`select pg_notify(${FUTURES_TRADES_CHANNEL}::text, json_build_object(
        'trade_date', ${d.tradeDate}::text, 'xid', (txid_current() % 4294967296)::text,
        'from', ${d.from}::int8, 'to', ${d.to}::int8, 'rows', ${d.rows}::int4,
        'loaded_at', floor(extract(epoch from clock_timestamp()) * 1000)::int8)::text)`.execute(trx);
  }
}

/**
 * The trades the load `xid` wrote for the filter's trade date that pass its filters, oldest first
 * by (ts, sequence, match, contract id): the route's statement, bounded by the load's time range and
 * its transaction id.
 */
export async function streamFuturesTrades(
  db: Queryable,
  f: FuturesTradeFilter,
  load: { xid: string; from: number; to: number },
): Promise<FuturesTradeOfContract[]> {
  const from = Math.max(f.from ?? load.from, load.from);
  const to = Math.min(f.to ?? load.to + 1, load.to + 1);
  if (from >= to) return [];
  const rows = await futuresTradePageStatement(db, { ...f, from, to }, null, null, false)
    .where(sql<boolean>`t.xmin = ${load.xid}::text::xid`)
    .execute();
  return rows.map(tradeOfContractRow);
}
