/**
 * The valued books of the positioning and volatility routes, kept where every process and every
 * machine sharing the database can read them (src/db/position-books.ts, src/services/books.ts).
 *
 * - position_books: one valued book of an underlying's family in a session at one chain minute: the
 *   underlying's price, the rate and the open interest date it was valued with, and a digest of
 *   every input, so that two minutes valued on the same inputs share one book.
 * - position_book_expirations: per listed expiration date of a book, its fitted surface (JSON, null
 *   for a date that settled before the valuation), its chain at the minute and its contracts with
 *   their open interest, customer flow and session activity, each as a column of arrays (one row
 *   per date, not per contract).
 * - position_book_minutes: which book answers each minute of data (the end of the minute, the
 *   valuation instant of a request in it), and the position of the market data change log when the
 *   answer was decided: a later change of the dates it reads that reaches before the minute's end
 *   makes it stale (market_data_changes.earliest).
 *
 * - position_book_claims: a valuation under way somewhere in the deployment, by its minute's key, so
 *   that one process values it while the others answer from the previous minute; a claim lapses at
 *   `until` (its process may have died).
 *
 * market_data_changes gains `earliest`: the start of the earliest minute of data a write changed
 * (a quote sample's minute, a bar's start, a print's time); null for a change of unknown extent
 * (contracts, open interest, a partition attached or dropped, cancels), which every derived value
 * of the date takes as a change.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table market_data_changes add column earliest bigint`.execute(db);
  await sql`
    create table position_books (
      id bigint generated always as identity primary key,
      underlying_symbol text not null,
      session text not null,
      trading_date date not null,
      valued_at bigint not null,
      inputs_digest text not null,
      summary json not null,
      created_at timestamptz not null default now(),
      unique (underlying_symbol, session, trading_date, inputs_digest)
    )
  `.execute(db);
  await sql`create index position_books_date_idx on position_books (trading_date)`.execute(db);
  await sql`
    create table position_book_expirations (
      book_id bigint not null references position_books (id) on delete cascade,
      date_of_expiry date not null,
      surface json,
      chain_contract_ids int8[] not null,
      chain_bid float8[] not null,
      chain_ask float8[] not null,
      chain_quote_ts int8[] not null,
      chain_minute int8[] not null,
      contract_ids int8[] not null,
      roots text[] not null,
      strike_thousandths int8[] not null,
      is_call boolean[] not null,
      multipliers int4[] not null,
      open_interest int4[] not null,
      open_interest_dates date[] not null,
      flow_bought int8[] not null,
      flow_sold int8[] not null,
      volume int8[] not null,
      premium float8[] not null,
      net_premium float8[] not null,
      trades int8[] not null,
      primary key (book_id, date_of_expiry)
    )
  `.execute(db);
  await sql`
    create table position_book_minutes (
      underlying_symbol text not null,
      session text not null,
      trading_date date not null,
      instant bigint not null,
      book_id bigint not null references position_books (id) on delete cascade,
      change_id bigint not null,
      primary key (underlying_symbol, session, trading_date, instant, change_id)
    )
  `.execute(db);
  await sql`
    create table position_book_claims (
      key text primary key,
      until timestamptz not null
    )
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists position_book_claims`.execute(db);
  await sql`drop table if exists position_book_minutes`.execute(db);
  await sql`drop table if exists position_book_expirations`.execute(db);
  await sql`drop table if exists position_books`.execute(db);
  await sql`alter table market_data_changes drop column if exists earliest`.execute(db);
}
