/** Classified prints as stored: cancels applied to them, counts, day volumes and bodies. */
import { sql } from 'kysely';
import type { Queryable } from './connection.js';
import { recordMarketDataChange } from './market-data-changes.js';

/**
 * Marks stored prints cancelled (a cancel record arrived after they were written), and logs the
 * change of each date from its earliest print cancelled on: what was derived from the prints before
 * that (a book valued at an earlier minute) still holds.
 */
export async function markPrintsCancelled(
  db: Queryable,
  keys: readonly { tradingDate: string; contractId: number; sequence: number }[],
): Promise<number> {
  if (keys.length === 0) return 0;
  const result = await sql<{ trading_date: string; earliest: string; marked: string }>`
    with marked as (
      update prints p set cancelled = true, flags = case when 'cancelled' = any(p.flags) then p.flags else p.flags || '{cancelled}'::text[] end
      from unnest(${keys.map((k) => k.tradingDate)}::date[], ${keys.map((k) => k.contractId)}::int8[], ${keys.map((k) => k.sequence)}::int8[]) as k(d, c, s)
      where p.trading_date = k.d and p.contract_id = k.c and p.sequence = k.s and not p.cancelled
      returning p.trading_date, p.ts
    )
    select trading_date::text, min(ts)::text as earliest, count(*)::text as marked from marked group by trading_date`.execute(db);
  let marked = 0;
  for (const r of result.rows) {
    marked += Number(r.marked);
    await recordMarketDataChange(db, [r.trading_date], Number(r.earliest));
  }
  return marked;
}

/**
 * Stored volume of a trading date per contract id, less cancelled prints (day volume so far), read
 * from the date's flow totals (db/flow-aggregates.ts), which every load of prints keeps in its own
 * transaction: a contract's rows there (one per session, complexity and underlying) hold the
 * volume of all its uncancelled prints of the date between them. (Summed from the prints, a live
 * minute's contracts read about half a full-scale day's prints.)
 */
export async function storedDayVolumes(db: Queryable, tradingDate: string, contractIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (contractIds.length === 0) return out;
  const result = await sql<{ contract_id: number; volume: number }>`
    select contract_id, sum(volume)::int8 as volume from flow_totals_by_contract
    where trading_date = ${tradingDate}::date and contract_id = any(${[...contractIds]}::int8[])
    group by contract_id`.execute(db);
  for (const r of result.rows) out.set(Number(r.contract_id), Number(r.volume));
  return out;
}

/** A cancel record looking for its print among the stored prints of its trading date. */
export interface StoredCancelProbe {
  contractId: number;
  /** The cancel record's own sequence. */
  sequence: number;
  exchangeCode: number;
  price: number;
  size: number;
  ts: number;
}

export interface StoredCancelCandidate {
  /** Index of the probe. */
  probe: number;
  sequence: number;
  cancelled: boolean;
  /** This cancel record already cancelled this print (an earlier load of its file). */
  applied: boolean;
}

/**
 * Stored prints each cancel record could cancel: same trading date, contract, exchange, size and
 * price (within priceEpsilon), at or before the record and at most lookbackMs earlier; newest first
 * per probe, cancelled ones included (marked), with the cancels already recorded for the record.
 */
export async function storedCancelCandidates(
  db: Queryable,
  tradingDate: string,
  probes: readonly StoredCancelProbe[],
  options: { lookbackMs: number; priceEpsilon: number },
): Promise<StoredCancelCandidate[]> {
  if (probes.length === 0) return [];
  const result = await sql<{ probe: number; sequence: number; cancelled: boolean; applied: boolean }>`
    select (k.i - 1)::int as probe, p.sequence, p.cancelled,
      exists (select 1 from print_cancels c where c.trading_date = p.trading_date and c.contract_id = k.c
        and c.cancel_sequence = k.q and c.sequence = p.sequence) as applied
    from unnest(${probes.map((p) => p.contractId)}::int8[], ${probes.map((p) => p.sequence)}::int8[], ${probes.map((p) => p.exchangeCode)}::int4[],
      ${probes.map((p) => p.price)}::float8[], ${probes.map((p) => p.size)}::int4[], ${probes.map((p) => p.ts)}::int8[]) with ordinality as k(c, q, e, pr, s, t, i)
    join prints p on p.trading_date = ${tradingDate} and p.contract_id = k.c and p.ts <= k.t and p.ts >= k.t - ${options.lookbackMs}::int8
      and p.exchange_code = k.e and p.size = k.s and abs(p.price - k.pr) <= ${options.priceEpsilon}::float8
    order by k.i, p.ts desc, p.sequence desc`.execute(db);
  return result.rows.map((r) => ({ probe: r.probe, sequence: Number(r.sequence), cancelled: r.cancelled, applied: r.applied }));
}

/** Remembers which stored print a cancel record of a later file cancelled (so a reload finds it applied). */
export async function recordPrintCancels(
  db: Queryable,
  rows: readonly { tradingDate: string; contractId: number; cancelSequence: number; sequence: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into print_cancels (trading_date, contract_id, cancel_sequence, sequence)
    select * from unnest(${rows.map((r) => r.tradingDate)}::date[], ${rows.map((r) => r.contractId)}::int8[], ${rows.map((r) => r.cancelSequence)}::int8[],
      ${rows.map((r) => r.sequence)}::int8[])
    on conflict (trading_date, contract_id, cancel_sequence) do update set sequence = excluded.sequence`.execute(db);
}

export async function countPrints(db: Queryable, tradingDate?: string): Promise<number> {
  let q = db.selectFrom('prints').select(sql<number>`count(*)::int`.as('n'));
  if (tradingDate !== undefined) q = q.where('trading_date', '=', tradingDate);
  return (await q.executeTakeFirstOrThrow()).n;
}

export async function hasAnyPrint(db: Queryable): Promise<boolean> {
  const row = await db.selectFrom('prints').select('trading_date').limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Bodies of the prints of one trading date in (timestamp, sequence) order; tests and archive checks. */
export async function printBodies(db: Queryable, tradingDate: string, options: { includeCancelled?: boolean } = {}): Promise<string[]> {
  let q = db.selectFrom('prints').select('body').where('trading_date', '=', tradingDate);
  if (!options.includeCancelled) q = q.where('cancelled', '=', false);
  const rows = await q.orderBy('ts').orderBy('sequence').orderBy('contract_id').execute();
  return rows.map((r) => r.body);
}
