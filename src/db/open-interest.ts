/** Open interest of the contracts at the start of each trading date. */
import { sql } from 'kysely';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';
import { recordMarketDataChange } from './market-data-changes.js';

export interface OpenInterestRow {
  contractId: number;
  date: string;
  openInterest: number;
}

export async function upsertOpenInterest(db: Queryable, rows: readonly OpenInterestRow[]): Promise<number> {
  let written = 0;
  for (let start = 0; start < rows.length; start += 20_000) {
    const c = rows.slice(start, start + 20_000);
    const result = await sql`
      insert into open_interest (contract_id, date, open_interest)
      select * from unnest(${numberArrayLiteral(c.map((r) => r.contractId))}::int8[], ${textArrayLiteral(c.map((r) => r.date))}::date[],
        ${numberArrayLiteral(c.map((r) => r.openInterest))}::int4[])
      on conflict (contract_id, date) do update set open_interest = excluded.open_interest`.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  if (written > 0)
    await recordMarketDataChange(
      db,
      rows.map((r) => r.date),
    );
  return written;
}

/** Open interest at the start of a trading date, by contract id. */
export async function openInterestOn(db: Queryable, date: string, contractIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (contractIds.length === 0) return out;
  const rows = await db
    .selectFrom('open_interest')
    .select(['contract_id', 'open_interest'])
    .where('date', '=', date)
    .where('contract_id', '=', sql<number>`any(${[...contractIds]}::int8[])`)
    .execute();
  for (const r of rows) out.set(r.contract_id, r.open_interest);
  return out;
}
