/**
 * Reads of the volatility drift route (the listed expirations are db/chain.ts's): the contracts of
 * a few expirations, the quote samples of those within a strike band in one session's minutes, and the last
 * underlying bar before an instant; and the drift answers stored for the deployment (migration
 * 20261128T080000). Everything is a bound parameter.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';
import { changedSince } from './market-data-changes.js';
import type { ContractType } from './schema.js';

export interface ExpirationContract {
  id: number;
  root: string;
  dateOfExpiry: string;
  contractType: ContractType;
  strikeThousandths: number;
}

/**
 * The contracts of a few expirations (root and date), by id. The whole chains are read (a few
 * hundred rows an expiration); the strike band is applied to the samples read, the large read.
 */
export async function expirationContracts(
  db: Queryable,
  expirations: readonly { root: string; dateOfExpiry: string }[],
): Promise<ExpirationContract[]> {
  if (expirations.length === 0) return [];
  const result = await sql<{ id: number; root: string; date_of_expiry: string; contract_type: ContractType; strike_thousandths: number }>`
    select c.id, c.root, c.date_of_expiry, c.contract_type, c.strike_thousandths
    from unnest(${expirations.map((e) => e.root)}::text[], ${expirations.map((e) => e.dateOfExpiry)}::date[]) as x(root, expiry)
    join contracts c on c.root = x.root and c.date_of_expiry = x.expiry
    order by c.id`.execute(db);
  return result.rows.map((r) => ({
    id: r.id,
    root: r.root,
    dateOfExpiry: r.date_of_expiry,
    contractType: r.contract_type,
    strikeThousandths: r.strike_thousandths,
  }));
}

export interface SessionQuoteRow {
  contract_id: number;
  minute: number;
  quote_ts: number;
  bid: number | null;
  ask: number | null;
}

/** Quote samples of some contracts on a trading date with from <= minute < to and quote_ts <= asOf. */
export async function sessionQuoteSamples(
  db: Queryable,
  tradingDate: string,
  contractIds: readonly number[],
  from: number,
  to: number,
  asOf: number,
): Promise<SessionQuoteRow[]> {
  if (contractIds.length === 0) return [];
  const result = await sql<SessionQuoteRow>`
    select contract_id, minute, quote_ts, bid, ask from quote_samples
    where trading_date = ${tradingDate}::date and contract_id = any(${[...contractIds]}::int8[])
      and minute >= ${from}::int8 and minute < ${to}::int8 and quote_ts <= ${asOf}::int8`.execute(db);
  return result.rows;
}

/** A stored drift answer (migration 20261128T080000) under its key; null when none is stored. */
export async function readDriftAnswer(db: Queryable, key: string): Promise<string | null> {
  const result = await sql<{ body: string }>`select body from drift_answers where key = ${key}`.execute(db);
  return result.rows[0]?.body ?? null;
}

/** A drift answer to store (migration 20261128T090000): its key, what it is of, and the change log's position read before it was computed. */
export interface DriftAnswerRow {
  key: string;
  symbol: string;
  session: string;
  tradingDate: string;
  /** The query, canonical, without `at`. */
  queryKey: string;
  instant: number;
  changeId: number;
  body: string;
}

/** Stores a drift answer under its key (one stored already under it is kept: the same answer). */
export async function storeDriftAnswer(db: Queryable, a: DriftAnswerRow): Promise<void> {
  await sql`
    insert into drift_answers (key, trading_date, body, underlying_symbol, session, query_key, instant, change_id)
    values (${a.key}, ${a.tradingDate}::date, ${a.body}, ${a.symbol}, ${a.session}, ${a.queryKey}, ${a.instant}::int8, ${a.changeId}::int8)
    on conflict do nothing`.execute(db);
}

/**
 * The newest stored drift of the query before `before` that no later change makes stale: none logged
 * after its position for a date in [from, to] (or every date) reaching before its instant (or of
 * unknown extent), as db/position-books.ts bookOfMinute decides for a book.
 */
export async function newestDriftBefore(
  db: Queryable,
  of: { symbol: string; session: string; tradingDate: string; queryKey: string },
  before: number,
  dates: { from: string; to: string },
): Promise<{ instant: number; body: string } | null> {
  const result = await sql<{ instant: string; body: string }>`
    select d.instant, d.body from drift_answers d
    where d.underlying_symbol = ${of.symbol} and d.session = ${of.session} and d.trading_date = ${of.tradingDate}::date
      and d.query_key = ${of.queryKey} and d.instant < ${before}::int8
      and not ${changedSince(sql.ref('d.change_id'), sql.ref('d.instant'), dates)}
    order by d.instant desc limit 1`.execute(db);
  const row = result.rows[0];
  return row ? { instant: Number(row.instant), body: row.body } : null;
}

/** Deletes the drift answers stored more than `olderThanMs` ago (superseded: a later load changed the stamp of their keys). */
export async function deleteStaleDriftAnswers(db: Queryable, olderThanMs: number): Promise<void> {
  await sql`delete from drift_answers where stored_at < now() - ${`${olderThanMs} milliseconds`}::interval`.execute(db);
}

/** Deletes the stored drift answers of a trading date (its session archived). */
export async function deleteDriftAnswersOf(db: Queryable, tradingDate: string): Promise<void> {
  await sql`delete from drift_answers where trading_date = ${tradingDate}::date`.execute(db);
}
