/**
 * The valued books of the positioning and volatility routes (migration 20261128T020000): a book's
 * summary and its expirations' columns are written once, in one transaction, and never changed; a
 * minute of data is mapped to the book that answers it, with the position of the market data change
 * log at the time (market-data-changes.ts), and the mapping holds while no later change of the dates
 * the book reads reaches before the minute's end.
 */
import { sql } from 'kysely';
import { boolArray, dateArray, float8Array, int4Array, int8Array, textArray } from './binary-arrays.js';
import type { Database, Queryable } from './connection.js';
import { changedSince } from './market-data-changes.js';

/** A book's identity: the underlying's family in one session of one trading date. */
export interface BookFamily {
  symbol: string;
  session: string;
  tradingDate: string;
}

/** One listed expiration date of a book, as columns (one element per chain quote, per contract). */
export interface BookExpirationColumns {
  dateOfExpiry: string;
  /** The fitted surface as JSON text; null for a date not valued (settled before the valuation). */
  surface: string | null;
  chain: {
    contractIds: number[];
    bid: (number | null)[];
    ask: (number | null)[];
    quoteTs: number[];
    minute: number[];
  };
  contracts: {
    ids: number[];
    roots: string[];
    strikeThousandths: number[];
    isCall: boolean[];
    multipliers: number[];
    openInterest: (number | null)[];
    openInterestDates: (string | null)[];
    flowBought: number[];
    flowSold: number[];
    volume: number[];
    premium: number[];
    netPremium: number[];
    trades: number[];
  };
}

export interface StoredBook {
  id: number;
  valuedAt: number;
  summary: unknown;
  expirations: BookExpirationColumns[];
}

/** The newest row of the change log (0 when empty): a book valued after reading it reflects every change up to it. */
export async function changeLogPosition(db: Queryable): Promise<number> {
  const result = await sql<{ id: number | null }>`select max(id) as id from market_data_changes`.execute(db);
  return Number(result.rows[0]?.id ?? 0);
}

/**
 * The book answering a minute of data (its end, `instant`), if one is mapped that no later change
 * makes stale: a change of a date in [from, to] (or of every date) committed after the mapping's
 * log position that reaches before the instant (or whose extent is unknown).
 */
export async function bookOfMinute(
  db: Queryable,
  family: BookFamily,
  instant: number,
  dates: { from: string; to: string },
): Promise<{ bookId: number; instant: number } | null> {
  const result = await sql<{ book_id: number; instant: number }>`
    select m.book_id, m.instant from position_book_minutes m
    where m.underlying_symbol = ${family.symbol} and m.session = ${family.session} and m.trading_date = ${family.tradingDate}::date
      and m.instant = ${instant}::int8
      and not ${changedSince(sql.ref('m.change_id'), sql.ref('m.instant'), dates)}
    order by m.change_id desc limit 1`.execute(db);
  const row = result.rows[0];
  return row ? { bookId: Number(row.book_id), instant: Number(row.instant) } : null;
}

/** The newest minute before `before` of the family's session that a book still answers (the previous minute's, while one is valued). */
export async function newestBookBefore(
  db: Queryable,
  family: BookFamily,
  before: number,
  dates: { from: string; to: string },
): Promise<{ bookId: number; instant: number } | null> {
  const result = await sql<{ book_id: number; instant: number }>`
    select m.book_id, m.instant from position_book_minutes m
    where m.underlying_symbol = ${family.symbol} and m.session = ${family.session} and m.trading_date = ${family.tradingDate}::date
      and m.instant < ${before}::int8
      and not ${changedSince(sql.ref('m.change_id'), sql.ref('m.instant'), dates)}
    order by m.instant desc, m.change_id desc limit 1`.execute(db);
  const row = result.rows[0];
  return row ? { bookId: Number(row.book_id), instant: Number(row.instant) } : null;
}

/**
 * A stored book of the family valued at `valuedAt` on a chain of this digest (migration
 * 20261129T010000) that a mapping still vouches for: no change logged after the position the
 * mapping was made at (its inputs read then) that concerns the dates and reaches before
 * `valuedAt`, before which every input of such a book lies. Its inputs are those of a book of the
 * same chain read now (services/books.ts ensureBook).
 */
export async function bookOfChain(
  db: Queryable,
  family: BookFamily,
  valuedAt: number,
  chainDigest: string,
  dates: { from: string; to: string },
): Promise<number | null> {
  const result = await sql<{ id: number }>`
    select b.id from position_books b
    where b.underlying_symbol = ${family.symbol} and b.session = ${family.session} and b.trading_date = ${family.tradingDate}::date
      and b.valued_at = ${valuedAt}::int8 and b.chain_digest = ${chainDigest}
      and exists (
        select 1 from position_book_minutes m
        where m.underlying_symbol = b.underlying_symbol and m.session = b.session and m.trading_date = b.trading_date
          and m.book_id = b.id and not ${changedSince(sql.ref('m.change_id'), sql`${valuedAt}::int8`, dates)})
    order by b.id desc limit 1`.execute(db);
  const row = result.rows[0];
  return row ? Number(row.id) : null;
}

/** The stored book of the family valued on inputs of this digest, if any. */
export async function bookOfDigest(db: Queryable, family: BookFamily, digest: string): Promise<number | null> {
  const result = await sql<{ id: number }>`
    select id from position_books
    where underlying_symbol = ${family.symbol} and session = ${family.session} and trading_date = ${family.tradingDate}::date
      and inputs_digest = ${digest}`.execute(db);
  const row = result.rows[0];
  return row ? Number(row.id) : null;
}

/** A new book id from the books' identity, for a book stored later under it (storeBook's `id`). */
export async function reserveBookId(db: Queryable): Promise<number> {
  const result = await sql<{ id: string }>`select nextval(pg_get_serial_sequence('position_books', 'id')) as id`.execute(db);
  return Number(result.rows[0]?.id);
}

/** A valued book as storeBook writes it: its valuation time, the digests of its inputs and of its chain, its columns. */
export interface BookToStore {
  valuedAt: number;
  digest: string;
  /** Older callers and books have none (migration 20261129T010000). */
  chainDigest?: string;
  summary: unknown;
  expirations: readonly BookExpirationColumns[];
}

/**
 * Stores a book (summary and expirations in one transaction) unless one of the same inputs is
 * stored already (another process valued it meanwhile); returns the stored book's id: `id` when
 * given (reserveBookId) and stored, else the identity's next.
 */
export async function storeBook(db: Database, family: BookFamily, book: BookToStore, id: number | null = null): Promise<number> {
  return await db.transaction().execute(async (trx) => {
    const inserted = await sql<{ id: number }>`
      insert into position_books (${sql.raw(id === null ? '' : 'id, ')}underlying_symbol, session, trading_date, valued_at, inputs_digest, chain_digest, summary)
      ${sql.raw(id === null ? '' : 'overriding system value')}
      values (${id === null ? sql.raw('') : sql`${id}::int8, `}${family.symbol}, ${family.session}, ${family.tradingDate}::date, ${book.valuedAt}::int8, ${book.digest}, ${book.chainDigest ?? null}::text, ${JSON.stringify(book.summary)}::json)
      on conflict (underlying_symbol, session, trading_date, inputs_digest) do nothing
      returning id`.execute(trx);
    const stored = inserted.rows[0]?.id;
    if (stored === undefined) return (await bookOfDigest(trx, family, book.digest)) as number;
    for (const e of book.expirations) {
      const c = e.contracts;
      await sql`
        insert into position_book_expirations (book_id, date_of_expiry, surface, chain_contract_ids, chain_bid, chain_ask, chain_quote_ts,
          chain_minute, contract_ids, roots, strike_thousandths, is_call, multipliers, open_interest, open_interest_dates, flow_bought,
          flow_sold, volume, premium, net_premium, trades)
        values (${stored}::int8, ${e.dateOfExpiry}::date, ${e.surface}::json, ${int8Array(e.chain.contractIds)}::int8[],
          ${float8Array(e.chain.bid)}::float8[], ${float8Array(e.chain.ask)}::float8[], ${int8Array(e.chain.quoteTs)}::int8[],
          ${int8Array(e.chain.minute)}::int8[], ${int8Array(c.ids)}::int8[], ${textArray(c.roots)}::text[],
          ${int8Array(c.strikeThousandths)}::int8[], ${boolArray(c.isCall)}::boolean[],
          ${int4Array(c.multipliers)}::int4[], ${int4Array(c.openInterest)}::int4[],
          ${dateArray(c.openInterestDates)}::date[], ${int8Array(c.flowBought)}::int8[],
          ${int8Array(c.flowSold)}::int8[], ${int8Array(c.volume)}::int8[], ${float8Array(c.premium)}::float8[],
          ${float8Array(c.netPremium)}::float8[], ${int8Array(c.trades)}::int8[])`.execute(trx);
    }
    return Number(stored);
  });
}

/**
 * Whether nothing logged after the position can have changed a book of the minute (`instant`, its
 * end) reading the dates: bookOfMinute's rule for a mapping made at the position.
 */
export async function minuteUnchangedSince(
  db: Queryable,
  position: number,
  instant: number,
  dates: { from: string; to: string },
): Promise<boolean> {
  const result = await sql<{ changed: boolean }>`
    select ${changedSince(sql`${position}::int8`, sql`${instant}::int8`, dates)} as changed`.execute(db);
  return result.rows[0]?.changed !== true;
}

/** Maps a minute of data to the book that answers it, at the change log's position read before the book's inputs were. */
export async function mapBookMinute(db: Queryable, family: BookFamily, instant: number, bookId: number, changeId: number): Promise<void> {
  await sql`
    insert into position_book_minutes (underlying_symbol, session, trading_date, instant, book_id, change_id)
    values (${family.symbol}, ${family.session}, ${family.tradingDate}::date, ${instant}::int8, ${bookId}::int8, ${changeId}::int8)
    on conflict do nothing`.execute(db);
}

type Floats = (number | null)[];

/** A stored book, whole; null when it is gone (its session archived meanwhile). */
export async function readBook(db: Queryable, bookId: number): Promise<StoredBook | null> {
  const head = await sql<{
    valued_at: number;
    summary: unknown;
  }>`select valued_at, summary from position_books where id = ${bookId}::int8`.execute(db);
  const row = head.rows[0];
  if (!row) return null;
  // The columns as one JSON array per expiration, parsed natively: node-pg parses a text array
  // element by element in JavaScript, several times slower on a book of tens of thousands of
  // contracts. PostgreSQL writes a float8 in JSON as its shortest exact text, so every number reads
  // back as stored (int8 values are below 2^53); dates are JSON strings.
  const result = await sql<{ date_of_expiry: string; surface: string | null; columns: string }>`
    select date_of_expiry::text as date_of_expiry, surface::text as surface,
      json_build_array(chain_contract_ids, chain_bid, chain_ask, chain_quote_ts, chain_minute, contract_ids, roots, strike_thousandths,
        is_call, multipliers, open_interest, open_interest_dates, flow_bought, flow_sold, volume, premium, net_premium, trades)::text as columns
    from position_book_expirations where book_id = ${bookId}::int8 order by date_of_expiry`.execute(db);
  type Columns = [
    number[],
    Floats,
    Floats,
    number[],
    number[],
    number[],
    string[],
    number[],
    boolean[],
    number[],
    Floats,
    (string | null)[],
    number[],
    number[],
    number[],
    number[],
    number[],
    number[],
  ];
  const rows = result.rows.map((r) => ({ dateOfExpiry: r.date_of_expiry, surface: r.surface, c: JSON.parse(r.columns) as Columns }));
  return {
    id: bookId,
    valuedAt: Number(row.valued_at),
    summary: row.summary,
    expirations: rows.map(({ dateOfExpiry, surface, c }) => ({
      dateOfExpiry,
      surface,
      chain: { contractIds: c[0], bid: c[1], ask: c[2], quoteTs: c[3], minute: c[4] },
      contracts: {
        ids: c[5],
        roots: c[6],
        strikeThousandths: c[7],
        isCall: c[8],
        multipliers: c[9],
        openInterest: c[10],
        openInterestDates: c[11],
        flowBought: c[12],
        flowSold: c[13],
        volume: c[14],
        premium: c[15],
        netPremium: c[16],
        trades: c[17],
      },
    })),
  };
}

/** One answer of a book at a minute (migration 20261128T070000): a route's query, canonical, and its data as JSON text. */
export interface BookAnswerRow {
  operation: string;
  queryKey: string;
  body: string;
}

/** Stores answers of a book at a minute (another process's same answers, already stored, are kept). */
export async function storeBookAnswers(db: Queryable, bookId: number, instant: number, answers: readonly BookAnswerRow[]): Promise<void> {
  if (answers.length === 0) return;
  await sql`
    insert into position_book_answers (book_id, instant, operation, query_key, body)
    select ${bookId}::int8, ${instant}::int8, a.operation, a.query_key, a.body
    from unnest(${answers.map((a) => a.operation)}::text[], ${answers.map((a) => a.queryKey)}::text[], ${answers.map((a) => a.body)}::text[])
      as a(operation, query_key, body)
    on conflict do nothing`.execute(db);
}

/** The stored answer of a book at a minute to a route's query; null when none is stored. */
export async function readBookAnswer(
  db: Queryable,
  bookId: number,
  instant: number,
  operation: string,
  queryKey: string,
): Promise<string | null> {
  const result = await sql<{ body: string }>`
    select body from position_book_answers
    where book_id = ${bookId}::int8 and instant = ${instant}::int8 and operation = ${operation} and query_key = ${queryKey}`.execute(db);
  return result.rows[0]?.body ?? null;
}

/** Deletes the books of a trading date (its session archived: they are valued again after a reload). */
export async function deleteBooksOf(db: Queryable, tradingDate: string): Promise<void> {
  await sql`delete from position_book_minutes where trading_date = ${tradingDate}::date`.execute(db);
  await sql`delete from position_books where trading_date = ${tradingDate}::date`.execute(db);
}

/** Bytes the books and their answers take on disk (tables, indexes and TOAST), for the benches. */
export async function booksBytes(db: Queryable): Promise<number> {
  const result = await sql<{ bytes: number }>`
    select (pg_total_relation_size('position_books') + pg_total_relation_size('position_book_expirations')
      + pg_total_relation_size('position_book_minutes') + pg_total_relation_size('position_book_answers'))::float8 as bytes`.execute(db);
  return Number(result.rows[0]?.bytes ?? 0);
}

/** How long a claim to value a minute holds when its process does not end it (it may have died). */
export const BOOK_CLAIM_MS = 60_000;

/**
 * Runs `value` if no process of the deployment holds the claim of `key` (position_book_claims),
 * holding it meanwhile; returns whether it ran. The claim holds `claimMs` and is renewed every third
 * of that while `value` runs, so a valuation or fill that outlasts it (a whole session's volatility
 * index minutes take longer than a minute on a busy machine) is never run a second time beside it by
 * another process; a process that dies stops renewing, and its claim lapses after `claimMs`.
 */
export async function whileClaimed(db: Queryable, key: string, value: () => Promise<void>, claimMs = BOOK_CLAIM_MS): Promise<boolean> {
  const until = sql`now() + ${`${claimMs} milliseconds`}::interval`;
  const claimed = await sql<{ key: string }>`
    insert into position_book_claims (key, until) values (${key}, ${until})
    on conflict (key) do update set until = excluded.until where position_book_claims.until < now()
    returning key`.execute(db);
  if (claimed.rows.length === 0) return false;
  // A renewal that fails (the database lost) leaves the claim to lapse; the value meets the loss itself.
  const renewal = setInterval(() => {
    sql`update position_book_claims set until = ${until} where key = ${key}`.execute(db).catch(() => undefined);
  }, claimMs / 3);
  renewal.unref();
  try {
    await value();
  } finally {
    clearInterval(renewal);
    await sql`delete from position_book_claims where key = ${key}`.execute(db);
  }
  return true;
}

/**
 * Whether no write committed after the log's `position` can have changed the listed contracts or
 * the open interest of the dates from `from` through `to`: those writes (and partition attaches and
 * drops) are logged without `earliest`, while quote samples, bars and prints always carry one.
 */
export async function contractsUnchangedSince(db: Queryable, position: number, dates: { from: string; to: string }): Promise<boolean> {
  const result = await sql<{ changed: boolean }>`
    select exists (
      select 1 from market_data_changes
      where id > ${position}::int8 and earliest is null
        and (trading_date is null or (trading_date >= ${dates.from}::date and trading_date <= ${dates.to}::date))
    ) as changed`.execute(db);
  return result.rows[0]?.changed !== true;
}
