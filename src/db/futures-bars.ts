/** One-minute bars of futures contracts (futures_bars, migration 20261128T150000). */
import { sql } from 'kysely';
import { numberArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';
import { recordMarketDataChange, utcDate } from './market-data-changes.js';

export interface FuturesBarRow {
  contractId: number;
  /** Start of the minute, Unix ms. */
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** Writes bars, each replacing the stored bar of its contract and minute. Returns the rows written. */
export async function upsertFuturesBars(db: Queryable, rows: readonly FuturesBarRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into futures_bars (contract_id, ts, open, high, low, close, volume)
      select * from unnest(${numberArrayLiteral(c.map((r) => r.contractId))}::int8[], ${numberArrayLiteral(c.map((r) => r.ts))}::int8[],
        ${numberArrayLiteral(c.map((r) => r.open))}::float8[], ${numberArrayLiteral(c.map((r) => r.high))}::float8[],
        ${numberArrayLiteral(c.map((r) => r.low))}::float8[], ${numberArrayLiteral(c.map((r) => r.close))}::float8[],
        ${numberArrayLiteral(c.map((r) => r.volume))}::int8[])
      on conflict (contract_id, ts) do update set open = excluded.open, high = excluded.high, low = excluded.low,
        close = excluded.close, volume = excluded.volume`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0) {
    const days = new Set<number>();
    let earliest = Infinity;
    for (const r of rows) {
      days.add(Math.floor(r.ts / 86_400_000));
      if (r.ts < earliest) earliest = r.ts;
    }
    await recordMarketDataChange(
      db,
      [...days].map((d) => utcDate(d * 86_400_000)),
      earliest,
    );
  }
  return written;
}

/** A contract's bars with from <= ts < to, ascending. */
export async function futuresBarsBetween(db: Queryable, contractId: number, from: number, to: number): Promise<FuturesBarRow[]> {
  const rows = await db
    .selectFrom('futures_bars')
    .select(['contract_id', 'ts', 'open', 'high', 'low', 'close', 'volume'])
    .where('contract_id', '=', contractId)
    .where('ts', '>=', from)
    .where('ts', '<', to)
    .orderBy('ts')
    .execute();
  return rows.map((r) => ({
    contractId: r.contract_id,
    ts: r.ts,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    volume: r.volume,
  }));
}
