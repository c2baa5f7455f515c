/**
 * Sessions moved out of the hot store: their archive folders, and the rows they are written from.
 * ingest/archive.ts writes a session to files from what is read here, never holding a session in
 * memory whole (prints page by page, each page after the last row of the one before; quotes as the
 * text PostgreSQL writes of them, chunk by chunk), then in one transaction
 * records it and drops its date's partitions. A print row keeps the quote and aggressor side the
 * classifier was given, so a session loaded back is classified as it was.
 */
import { sql } from 'kysely';
import { to as copyTo } from 'pg-copy-streams';
import { rawClient, type Database, type Queryable } from './connection.js';
import { dropFuturesTradesPartition, futuresTradeDates } from './futures-trades.js';
import { dropPartition, partitionDates } from './partitions.js';

export interface ArchivedSession {
  tradingDate: string;
  archiveDir: string;
  prints: number;
  quotes: number;
  restoredAt: Date | null;
}

export async function findArchivedSession(db: Queryable, tradingDate: string): Promise<ArchivedSession | null> {
  const row = await db.selectFrom('archived_sessions').selectAll().where('trading_date', '=', tradingDate).executeTakeFirst();
  return row
    ? { tradingDate: row.trading_date, archiveDir: row.archive_dir, prints: row.prints, quotes: row.quotes, restoredAt: row.restored_at }
    : null;
}

/** Records a session as archived and drops its partitions (futures trades' too, and its cross-file cancels), in the caller's transaction. */
export async function archiveSessionRows(db: Queryable, session: Omit<ArchivedSession, 'restoredAt'>): Promise<void> {
  await db
    .insertInto('archived_sessions')
    .values({
      trading_date: session.tradingDate,
      archive_dir: session.archiveDir,
      prints: session.prints,
      quotes: session.quotes,
      restored_at: null,
    })
    .onConflict((oc) =>
      oc.column('trading_date').doUpdateSet({
        archive_dir: session.archiveDir,
        prints: session.prints,
        quotes: session.quotes,
        archived_at: new Date(),
        restored_at: null,
      }),
    )
    .execute();
  await dropPartition(db, 'prints', session.tradingDate);
  await dropPartition(db, 'quote_samples', session.tradingDate);
  await dropFuturesTradesPartition(db, session.tradingDate);
  // The cross-file cancels of the date name prints that are no longer stored.
  await sql`delete from print_cancels where trading_date = ${session.tradingDate}::date`.execute(db);
}

export async function markSessionRestored(db: Queryable, tradingDate: string, at: Date): Promise<void> {
  await db.updateTable('archived_sessions').set({ restored_at: at }).where('trading_date', '=', tradingDate).execute();
}

/** Trading dates held in the hot store (a prints, quotes or futures trades partition exists), ascending. */
export async function hotDates(db: Queryable): Promise<string[]> {
  const dates = new Set([
    ...(await partitionDates(db, 'prints')),
    ...(await partitionDates(db, 'quote_samples')),
    ...(await futuresTradeDates(db)),
  ]);
  return [...dates].sort();
}

export async function isDateHot(db: Queryable, tradingDate: string): Promise<boolean> {
  return (await partitionDates(db, 'prints')).includes(tradingDate);
}

/** Where a trading date's prints are: in the hot store, archived (a load can bring them back), or nowhere. */
export type SessionState = 'hot' | 'archived' | 'absent';

export async function sessionState(db: Queryable, tradingDate: string): Promise<SessionState> {
  if (await isDateHot(db, tradingDate)) return 'hot';
  return (await findArchivedSession(db, tradingDate)) === null ? 'absent' : 'archived';
}

/** A print as the canonical prints layout writes it, with its cancelled mark. */
export interface ArchivedPrintRow {
  option_symbol: string;
  ts: number;
  sequence: number;
  contract_id: number;
  price: number;
  size: number;
  exchange_code: number;
  condition_code: number;
  extended_conditions: number[];
  aggressor_side: string | null;
  quote_bid: number | null;
  quote_ask: number | null;
  quote_ts: number | null;
  cancelled: boolean;
}

/** One page of a date's prints in (ts, sequence, contract) order, after `after`. */
export async function printsPageForArchive(
  db: Queryable,
  tradingDate: string,
  after: { ts: number; sequence: number; contractId: number } | null,
  limit: number,
): Promise<ArchivedPrintRow[]> {
  let q = db
    .selectFrom('prints as p')
    .innerJoin('contracts as c', 'c.id', 'p.contract_id')
    .select([
      'c.option_symbol',
      'p.ts',
      'p.sequence',
      'p.contract_id',
      'p.price',
      'p.size',
      'p.exchange_code',
      'p.condition_code',
      'p.extended_conditions',
      'p.aggressor_side',
      'p.quote_bid',
      'p.quote_ask',
      'p.quote_ts',
      'p.cancelled',
    ])
    .where('p.trading_date', '=', tradingDate);
  if (after !== null) q = q.where(sql<boolean>`(p.ts, p.sequence, p.contract_id) > (${after.ts}, ${after.sequence}, ${after.contractId})`);
  return await q.orderBy('p.ts').orderBy('p.sequence').orderBy('p.contract_id').limit(limit).execute();
}

/**
 * A date's quote samples as the lines of the archive's quotes file (option_symbol, timestamp, bid,
 * ask, bid_size, ask_size; no header), in (contract, minute) order, as chunks of text; returns how
 * many lines it gave. PostgreSQL writes the text (COPY ... TO STDOUT, CSV): no row is decoded here,
 * which was most of an archive's time when the rows were read page by page (the small test market's
 * two days: 1,378,518 samples). A missing value is an empty field, as the loader reads it; a float8
 * is written as its shortest exact decimal, as JavaScript writes a number, so a reload reads back
 * the value stored. One statement reads the whole date in a read-only transaction, without the
 * pool's statement time-out (a session of a full-scale day is millions of samples).
 */
export async function* quotesCsvForArchive(db: Database, tradingDate: string): AsyncGenerator<Buffer, number> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(tradingDate)) throw new RangeError(`bad trading date ${tradingDate}`);
  const client = await rawClient(db);
  if (client === null) throw new Error('the quotes archive needs a database handle opened by openDatabase()');
  let done = false;
  try {
    await client.query('begin read only');
    await client.query('set local statement_timeout = 0');
    const text = client.query(
      copyTo(`copy (
        select c.option_symbol, q.quote_ts, q.bid, q.ask, q.bid_size, q.ask_size
          from quote_samples q join contracts c on c.id = q.contract_id
         where q.trading_date = ${client.escapeLiteral(tradingDate)}::date
         order by q.contract_id, q.minute
      ) to stdout (format csv)`),
    );
    let lines = 0;
    for await (const chunk of text as AsyncIterable<Buffer>) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
      yield chunk;
    }
    await client.query('commit');
    done = true;
    return lines;
  } finally {
    // Cut short (a failed read, or a write of the file that failed and stopped the reading): the
    // connection may be in the middle of the COPY, so it is closed rather than given back.
    client.release(done ? undefined : new Error('quotes archive read cut short'));
  }
}

export async function countQuoteSamples(db: Queryable, tradingDate: string): Promise<number> {
  const row = await db
    .selectFrom('quote_samples')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('trading_date', '=', tradingDate)
    .executeTakeFirstOrThrow();
  return row.n;
}
