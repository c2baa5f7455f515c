/**
 * The chain snapshot route's reads (GET /v1/options/chain) for one page of contracts: each
 * contract's OCC symbol, its newest quote sample in a window of minutes (bid, ask and their sizes),
 * and its last print of the session before an instant. The valuation itself (chain minute, forward,
 * underlying price, open interest, session volume) is the family's valued book (services/books.ts).
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

export interface ChainSnapshotRow {
  contractId: number;
  optionSymbol: string;
  /** The newest sample in the window; all null without one. */
  bid: number | null;
  ask: number | null;
  bidSize: number | null;
  askSize: number | null;
  quoteTs: number | null;
  /** The last print before the instant, not cancelled, of the sessions asked; all null without one. */
  lastPrice: number | null;
  lastSize: number | null;
  lastTs: number | null;
}

/**
 * Per contract id (in the order given): its symbol, its newest quote sample of the trading date
 * with minute in [quotes.from, quotes.to] and quote_ts ≤ quotes.to (chain-valuation.ts chainAt's
 * rule), and its last print of the trading date in `sessions` before `before` (by time, then
 * sequence), cancelled prints left out.
 */
export async function chainSnapshot(
  db: Queryable,
  tradingDate: string,
  contractIds: readonly number[],
  quotes: { from: number; to: number },
  prints: { before: number; sessions: readonly string[] },
): Promise<ChainSnapshotRow[]> {
  if (contractIds.length === 0) return [];
  const result = await sql<{
    contract_id: string;
    option_symbol: string;
    bid: number | null;
    ask: number | null;
    bid_size: number | null;
    ask_size: number | null;
    quote_ts: string | null;
    last_price: number | null;
    last_size: number | null;
    last_ts: string | null;
  }>`
    select c.id as contract_id, c.option_symbol, q.bid, q.ask, q.bid_size, q.ask_size, q.quote_ts,
      p.price as last_price, p.size as last_size, p.ts as last_ts
    from unnest(${[...contractIds]}::int8[]) with ordinality as w(id, n)
    join contracts c on c.id = w.id
    left join lateral (
      select s.bid, s.ask, s.bid_size, s.ask_size, s.quote_ts from quote_samples s
      where s.trading_date = ${tradingDate}::date and s.contract_id = c.id
        and s.minute >= ${quotes.from}::int8 and s.minute <= ${quotes.to}::int8 and s.quote_ts <= ${quotes.to}::int8
      order by s.minute desc limit 1
    ) q on true
    left join lateral (
      select t.price, t.size, t.ts from prints t
      where t.trading_date = ${tradingDate}::date and t.contract_id = c.id and not t.cancelled
        and t.session = any(${[...prints.sessions]}::text[]) and t.ts < ${prints.before}::int8
      order by t.ts desc, t.sequence desc limit 1
    ) p on true
    order by w.n`.execute(db);
  return result.rows.map((r) => ({
    contractId: Number(r.contract_id),
    optionSymbol: r.option_symbol,
    bid: r.bid,
    ask: r.ask,
    bidSize: r.bid_size,
    askSize: r.ask_size,
    quoteTs: r.quote_ts === null ? null : Number(r.quote_ts),
    lastPrice: r.last_price,
    lastSize: r.last_size,
    lastTs: r.last_ts === null ? null : Number(r.last_ts),
  }));
}
