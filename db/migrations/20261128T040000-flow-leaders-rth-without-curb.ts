/**
 * The rth choice of the print routes holds the regular session's prints only (issue 33 §5): curb
 * prints and late reports (sessions curb and other) are served with `all`, no longer with `rth`.
 * flow_leaders_by_contract keeps each contract's row per session choice, computed from
 * flow_totals_by_contract when a session loads; its rth rows of the sessions already stored are
 * computed again here with the new membership (the same statement as src/db/flow-aggregates.ts).
 */
import { sql, type Kysely } from 'kysely';

async function rebuildRth(db: Kysely<any>, members: readonly string[]): Promise<void> {
  await sql`delete from flow_leaders_by_contract where sessions = 'rth'`.execute(db);
  await sql`
    insert into flow_leaders_by_contract
    select t.trading_date, 'rth', i.include_complex, t.contract_id, min(t.root), min(t.contract_type), min(t.date_of_expiry), min(t.strike),
      sum(t.premium)::float8, sum(t.volume)::int8,
      (array_agg(t.last_price order by t.last_ts desc, t.last_sequence desc))[1],
      (array_agg(t.last_implied_volatility order by t.last_ts desc, t.last_sequence desc))[1],
      (array_agg(t.last_open_interest order by t.last_ts desc, t.last_sequence desc))[1],
      (select r.last_price from flow_totals_by_contract r where r.trading_date = t.trading_date and r.contract_id = t.contract_id and r.session = 'rth'
        order by r.last_ts desc, r.last_sequence desc limit 1)
    from flow_totals_by_contract t
    join (values (true), (false)) as i(include_complex) on i.include_complex or not t.complex
    where t.session = any(${[...members]}::text[])
    group by 1, 2, 3, 4
  `.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  await rebuildRth(db, ['rth']);
}

export async function down(db: Kysely<any>): Promise<void> {
  await rebuildRth(db, ['rth', 'curb', 'other']);
}
