/**
 * Sessions moved out of the hot store: their archive folders, and the rows they are written from.
 * ingest/archive.ts writes a session to files from the text PostgreSQL writes of its rows here,
 * chunk by chunk (a session is never held in memory whole), then in one transaction
 * records it and drops its date's partitions. A print row keeps the quote and aggressor side the
 * classifier was given, so a session loaded back is classified as it was.
 */
import { sql } from 'kysely';
import type { PoolClient } from 'pg';
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

/** A date given to a COPY statement, which takes no parameters: checked, then quoted. */
function dateLiteral(client: { escapeLiteral(value: string): string }, tradingDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(tradingDate)) throw new RangeError(`bad trading date ${tradingDate}`);
  return `${client.escapeLiteral(tradingDate)}::date`;
}

/**
 * The rows of `select` as CSV text in chunks, written by PostgreSQL (COPY ... TO STDOUT): no row is
 * decoded here, which was most of an archive's time when the rows were read page by page through
 * node-pg (the small test market's day: 1,378,518 quote samples, 8.5-9.5 s against 3.0-3.3 s now).
 * A missing value is an empty field, as the loader reads it; a float8 is written as its shortest
 * exact decimal, as JavaScript writes a number, so a reload reads back the value stored. One
 * read-only snapshot (repeatable read) holds `count`, run first, and the COPY, without the pool's
 * statement time-out (a full-scale day is millions of rows). Returns `count`'s n, or without it the
 * number of lines.
 */
async function* copyCsv(
  db: Database,
  what: string,
  statements: (client: PoolClient) => { select: string; count?: string },
): AsyncGenerator<Buffer, number> {
  const client = await rawClient(db);
  if (client === null) throw new Error(`the ${what} archive needs a database handle opened by openDatabase()`);
  let done = false;
  try {
    const { select, count } = statements(client);
    await client.query('begin isolation level repeatable read read only');
    await client.query('set local statement_timeout = 0');
    // PostgreSQL's default since 12, set here against a server configured otherwise: a float8 as
    // its shortest exact decimal (at 0 it would be rounded to 15 significant digits).
    await client.query('set local extra_float_digits = 1');
    const counted = count === undefined ? null : Number((await client.query<{ n: number }>(count)).rows[0]?.n ?? 0);
    const text = client.query(copyTo(`copy (${select}) to stdout (format csv)`));
    let lines = 0;
    for await (const chunk of text as AsyncIterable<Buffer>) {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
      yield chunk;
    }
    await client.query('commit');
    done = true;
    return counted ?? lines;
  } finally {
    // Cut short (a failed read, or a write of the file that failed and stopped the reading): the
    // connection may be in the middle of the COPY, so it is closed rather than given back.
    client.release(done ? undefined : new Error(`${what} archive read cut short`));
  }
}

/**
 * A date's prints as the lines of the archive's prints file (the canonical prints layout, no
 * header), in (ts, sequence, contract) order, each cancelled print followed by a cancel record of
 * it (condition `cancelCondition`, its fields after the condition empty); returns how many prints.
 * A print keeps the quote and aggressor side the classifier was given.
 */
export async function* printsCsvForArchive(db: Database, tradingDate: string, cancelCondition: number): AsyncGenerator<Buffer, number> {
  if (!Number.isInteger(cancelCondition)) throw new RangeError(`bad cancel condition ${cancelCondition}`);
  return yield* copyCsv(db, 'prints', (client) => {
    const date = dateLiteral(client, tradingDate);
    // An empty text is written as a quoted "" by COPY's CSV and NULL as nothing: the empty fields are NULLs.
    const unlessCancel = (value: string): string => `case when k.cancel then null else ${value} end`;
    return {
      select: `
        select c.option_symbol, p.ts, p.sequence, p.price, p.size, p.exchange_code,
               case when k.cancel then ${cancelCondition} else p.condition_code end,
               ${unlessCancel(`nullif(array_to_string(p.extended_conditions, '|'), '')`)},
               ${unlessCancel(`nullif(p.aggressor_side, '')`)},
               ${unlessCancel('p.quote_bid')}, ${unlessCancel('p.quote_ask')}, ${unlessCancel('p.quote_ts')}
          from prints p join contracts c on c.id = p.contract_id
         cross join lateral (values (false), (true)) as k (cancel)
         where p.trading_date = ${date} and (not k.cancel or p.cancelled)
         order by p.ts, p.sequence, p.contract_id, k.cancel`,
      count: `select count(*)::int as n from prints where trading_date = ${date}`,
    };
  });
}

/**
 * A date's quote samples as the lines of the archive's quotes file (option_symbol, timestamp, bid,
 * ask, bid_size, ask_size; no header), in (contract, minute) order; returns how many.
 */
export async function* quotesCsvForArchive(db: Database, tradingDate: string): AsyncGenerator<Buffer, number> {
  return yield* copyCsv(db, 'quotes', (client) => ({
    select: `
      select c.option_symbol, q.quote_ts, q.bid, q.ask, q.bid_size, q.ask_size
        from quote_samples q join contracts c on c.id = q.contract_id
       where q.trading_date = ${dateLiteral(client, tradingDate)}
       order by q.contract_id, q.minute`,
  }));
}
