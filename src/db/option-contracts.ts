/** The option roots (reference data, seeded at start-up) and the listed contracts. */
import { sql } from 'kysely';
import { OPTION_ROOTS, type OptionRoot } from '../analytics/roots.js';
import { numberArrayLiteral, textArrayLiteral } from './array-literals.js';
import type { Queryable } from './connection.js';
import { recordMarketDataChange } from './market-data-changes.js';
import type { ContractType, OptionRootsTable } from './schema.js';

function rootRow(r: OptionRoot): OptionRootsTable {
  return {
    root: r.root,
    family: r.family,
    underlying: r.underlying,
    multiplier: r.multiplier,
    kind: r.kind,
    overnight: r.overnight,
    curb: r.curb,
    am_settled: r.amSettled,
  };
}

/** Writes the reference roots (OPTION_ROOTS), updating any that changed. Run at start-up. */
export async function seedOptionRoots(db: Queryable): Promise<void> {
  await db
    .insertInto('option_roots')
    .values(OPTION_ROOTS.map(rootRow))
    .onConflict((oc) =>
      oc.column('root').doUpdateSet((eb) => ({
        family: eb.ref('excluded.family'),
        underlying: eb.ref('excluded.underlying'),
        multiplier: eb.ref('excluded.multiplier'),
        kind: eb.ref('excluded.kind'),
        overnight: eb.ref('excluded.overnight'),
        curb: eb.ref('excluded.curb'),
        am_settled: eb.ref('excluded.am_settled'),
      })),
    )
    .execute();
}

/** Adds roots met in data; known roots are left as they are. */
export async function ensureOptionRoots(db: Queryable, roots: readonly OptionRoot[]): Promise<void> {
  if (roots.length === 0) return;
  await db
    .insertInto('option_roots')
    .values(roots.map(rootRow))
    .onConflict((oc) => oc.column('root').doNothing())
    .execute();
}

export async function listOptionRoots(db: Queryable): Promise<OptionRoot[]> {
  const rows = await db.selectFrom('option_roots').selectAll().orderBy('root').execute();
  return rows.map((r) => ({
    root: r.root,
    family: r.family,
    underlying: r.underlying,
    multiplier: r.multiplier,
    kind: r.kind,
    overnight: r.overnight,
    curb: r.curb,
    amSettled: r.am_settled,
  }));
}

export interface ContractSpec {
  symbol: string;
  root: string;
  underlying: string;
  dateOfExpiry: string;
  type: ContractType;
  strikeThousandths: number;
  multiplier: number;
}

export interface StoredContract {
  id: number;
  symbol: string;
  underlying: string;
  multiplier: number;
}

/**
 * Creates the contracts that do not exist yet (an existing contract keeps its underlying and
 * multiplier unless `overwrite`) and returns every one of them by padded OCC symbol.
 */
export async function ensureContracts(
  db: Queryable,
  specs: readonly ContractSpec[],
  options: { overwrite?: boolean } = {},
): Promise<Map<string, StoredContract>> {
  const out = new Map<string, StoredContract>();
  for (let start = 0; start < specs.length; start += 20_000) {
    const chunk = specs.slice(start, start + 20_000);
    const conflict = options.overwrite
      ? sql`on conflict (option_symbol) do update set underlying = excluded.underlying, multiplier = excluded.multiplier`
      : sql`on conflict do nothing`;
    const written = await sql`
      insert into contracts (option_symbol, root, underlying, date_of_expiry, contract_type, strike_thousandths, multiplier)
      select * from unnest(${textArrayLiteral(chunk.map((s) => s.symbol))}::text[], ${textArrayLiteral(chunk.map((s) => s.root))}::text[],
        ${textArrayLiteral(chunk.map((s) => s.underlying))}::text[], ${textArrayLiteral(chunk.map((s) => s.dateOfExpiry))}::date[],
        ${textArrayLiteral(chunk.map((s) => s.type))}::text[], ${numberArrayLiteral(chunk.map((s) => s.strikeThousandths))}::int8[],
        ${numberArrayLiteral(chunk.map((s) => s.multiplier))}::int4[])
      ${conflict}`.execute(db);
    // A contract listed or changed: every trading date lists it.
    if (Number(written.numAffectedRows ?? 0) > 0) await recordMarketDataChange(db, [null]);
    const rows = await db
      .selectFrom('contracts')
      .select(['id', 'option_symbol', 'underlying', 'multiplier'])
      .where('option_symbol', '=', sql<string>`any(${textArrayLiteral(chunk.map((s) => s.symbol))}::text[])`)
      .execute();
    for (const r of rows)
      out.set(r.option_symbol, { id: r.id, symbol: r.option_symbol, underlying: r.underlying, multiplier: r.multiplier });
  }
  return out;
}

export async function countContracts(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('contracts')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}
