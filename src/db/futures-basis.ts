/**
 * The basis route's reads (GET /v1/futures/basis; services/futures-basis.ts): a contract's
 * one-minute closes (futures_bars) beside its index's one-minute values of the same minute
 * (underlying_bars, an index's rows). Each goes by the two tables' primary keys: a backward range
 * scan of (contract_id, ts) with one probe of (symbol, ts) per minute.
 */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';

export interface BasisMinute {
  /** Start of the minute, Unix ms. */
  ts: number;
  /** The contract's close of the minute. */
  future: number;
  /** The index's close of the same minute. */
  index: number;
}

/** The newest minute in [from, to] (starts) with both a bar of the contract and a value of the index; null when none. */
export async function newestBasisMinute(
  db: Queryable,
  contractId: number,
  indexSymbol: string,
  from: number,
  to: number,
): Promise<BasisMinute | null> {
  const result = await sql<{ ts: string; future: number; index: number }>`
    select f.ts, f.close as future, u.close as index
    from futures_bars f
    join underlying_bars u on u.symbol = ${indexSymbol} and u.ts = f.ts
    where f.contract_id = ${contractId} and f.ts >= ${from}::int8 and f.ts <= ${to}::int8
    order by f.ts desc
    limit 1`.execute(db);
  const r = result.rows[0];
  return r === undefined ? null : { ts: Number(r.ts), future: r.future, index: r.index };
}

/**
 * The minutes with starts in [from, to) having both prices, ascending; with `bucketMs`, only the
 * last such minute of each bucket (ts − ts mod bucketMs, the clock's grid).
 */
export async function basisMinutes(
  db: Queryable,
  contractId: number,
  indexSymbol: string,
  from: number,
  to: number,
  bucketMs: number | null,
): Promise<BasisMinute[]> {
  const result =
    bucketMs === null
      ? await sql<{ ts: string; future: number; index: number }>`
          select f.ts, f.close as future, u.close as index
          from futures_bars f
          join underlying_bars u on u.symbol = ${indexSymbol} and u.ts = f.ts
          where f.contract_id = ${contractId} and f.ts >= ${from}::int8 and f.ts < ${to}::int8
          order by f.ts`.execute(db)
      : await sql<{ ts: string; future: number; index: number }>`
          select distinct on (m.bucket) m.ts, m.future, m.index from (
            select f.ts - mod(f.ts, ${bucketMs}::int8) as bucket, f.ts, f.close as future, u.close as index
            from futures_bars f
            join underlying_bars u on u.symbol = ${indexSymbol} and u.ts = f.ts
            where f.contract_id = ${contractId} and f.ts >= ${from}::int8 and f.ts < ${to}::int8
          ) m
          order by m.bucket, m.ts desc`.execute(db);
  return result.rows.map((r) => ({ ts: Number(r.ts), future: r.future, index: r.index }));
}
