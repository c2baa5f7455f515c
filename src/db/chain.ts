/**
 * Option chains as the volatility routes read them: which expirations of some roots are listed, and
 * every contract of some expirations with its last quote sample in a window (the chain at an
 * instant), and the underlying's last one-minute bar ended by an instant.
 *
 * The chain read probes the quote_samples primary key (contract_id, minute, trading_date) once per
 * contract for its newest minute in the window, so a snapshot costs one index descent per contract
 * whatever the number of one-minute samples near the money.
 */
import { sql } from 'kysely';
import type { ContractType } from './schema.js';
import type { Queryable } from './connection.js';

export interface ListedExpirationRow {
  root: string;
  dateOfExpiry: string;
}

/** The distinct expirations of the roots on or after a date, ascending. */
export async function listedExpirations(db: Queryable, roots: readonly string[], onOrAfter: string): Promise<ListedExpirationRow[]> {
  if (roots.length === 0) return [];
  const result = await sql<{ root: string; date_of_expiry: string }>`
    select distinct root, date_of_expiry::text as date_of_expiry from contracts
    where root = any(${[...roots]}::text[]) and date_of_expiry >= ${onOrAfter}::date
    order by date_of_expiry, root`.execute(db);
  return result.rows.map((r) => ({ root: r.root, dateOfExpiry: r.date_of_expiry }));
}

export interface ChainQuoteRow {
  contractId: number;
  root: string;
  underlying: string;
  dateOfExpiry: string;
  contractType: ContractType;
  strikeThousandths: number;
  bid: number | null;
  ask: number | null;
  quoteTs: number;
  /** The sample's minute (start), Unix ms. */
  minute: number;
}

/**
 * Every contract of the expirations (root and date pairs), or only those of `contractIds`, with its
 * newest quote sample of the trading date whose minute lies in [from, to] and whose quote time is
 * not after `to`; a contract without one is left out. Rows by expiration, type and strike.
 */
export async function chainQuotesAt(
  db: Queryable,
  expirations: readonly ListedExpirationRow[],
  tradingDate: string,
  window: { from: number; to: number },
  contractIds: readonly number[] | null = null,
): Promise<ChainQuoteRow[]> {
  if (expirations.length === 0 || contractIds?.length === 0) return [];
  const result = await sql<{
    contract_id: string;
    root: string;
    underlying: string;
    date_of_expiry: string;
    contract_type: ContractType;
    strike_thousandths: string;
    bid: number | null;
    ask: number | null;
    quote_ts: string;
    minute: string;
  }>`
    select c.id as contract_id, c.root, c.underlying, c.date_of_expiry::text as date_of_expiry, c.contract_type, c.strike_thousandths,
      s.bid, s.ask, s.quote_ts, s.minute
    from unnest(${expirations.map((e) => e.root)}::text[], ${expirations.map((e) => e.dateOfExpiry)}::date[]) as e(root, d)
    join contracts c on c.root = e.root and c.date_of_expiry = e.d
    cross join lateral (
      select q.bid, q.ask, q.quote_ts, q.minute from quote_samples q
      where q.trading_date = ${tradingDate}::date and q.contract_id = c.id and q.minute >= ${window.from}::int8 and q.minute <= ${window.to}::int8
        and q.quote_ts <= ${window.to}::int8
      order by q.minute desc limit 1
    ) s
    ${contractIds === null ? sql`` : sql`where c.id = any(${[...contractIds]}::int8[])`}
    order by c.date_of_expiry, c.root, c.contract_type, c.strike_thousandths`.execute(db);
  return result.rows.map((r) => ({
    contractId: Number(r.contract_id),
    root: r.root,
    underlying: r.underlying,
    dateOfExpiry: r.date_of_expiry,
    contractType: r.contract_type,
    strikeThousandths: Number(r.strike_thousandths),
    bid: r.bid,
    ask: r.ask,
    quoteTs: Number(r.quote_ts),
    minute: Number(r.minute),
  }));
}

export interface UnderlyingPrice {
  /** Close of the bar. */
  price: number;
  /** Start of the one-minute bar, Unix ms. */
  barStart: number;
}

/** The close of the underlying's last one-minute bar ended by `at` (its start at most `at` − 60 s), looking back at most `lookbackMs`. */
export async function underlyingPriceAt(db: Queryable, symbol: string, at: number, lookbackMs: number): Promise<UnderlyingPrice | null> {
  const result = await sql<{ close: number; ts: string }>`
    select close, ts from underlying_bars where symbol = ${symbol} and ts <= ${at - 60_000}::int8 and ts >= ${at - lookbackMs}::int8
    order by ts desc limit 1`.execute(db);
  const row = result.rows[0];
  return row ? { price: row.close, barStart: Number(row.ts) } : null;
}
