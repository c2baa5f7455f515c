/**
 * Flow aggregates: each stored session's flow totals (db/migrations/20261126T010000-flow-aggregates.ts),
 * written in the transaction that loads or cancels its prints and read by the flow leaders route
 * instead of the session's prints. A row of flow_totals_by_contract holds, for one trading date,
 * contract, session, underlying and complexity (multileg or flagged complex), the uncancelled
 * prints' premium (and its bullish, bearish and neutral parts), volume and count, and its last
 * print; flow_totals_by_underlying adds those up per underlying. The leaders' filters (trading
 * date, sessions, include_complex, roots) are all unions of these rows, and every total is a sum or
 * a last print, so any filter is answered from them exactly: premiums are summed as numeric (exact
 * sums of the cent values), so a total added up from rows equals the prints' own total
 * (trades.ts flowByUnderlying, flowByContract: the direct queries, kept as the oracle and for root
 * grain narrowed by roots, which the contract's rules do not allow). The contract grain reads every
 * contract of a session, so its rows are also kept added up: flow_leaders_by_contract, one row per
 * contract for each session choice of the route with and without complex prints, with the
 * contract's last regular-session price of the date (the next date's previous close); a read is
 * then an index range of rows, not a grouping of the rows per session.
 */
import { sql, type RawBuilder } from 'kysely';
import { SESSIONS_OF, type SessionChoice } from '../analytics/print-filters.js';
import type { Queryable } from './connection.js';
import type { ContractFlowRow, LeaderFilter, UnderlyingFlowRow } from './trades.js';

/** A print counted as complex: what include_complex=false leaves out (trades.ts printConditions). */
const COMPLEX = sql<boolean>`(trade_type = 'multileg' or 'complex' = any(flags))`;

/** The rows of flow_totals_by_contract of the `source` table's uncancelled prints matching `where` (prints, or a load's added rows). */
function contractTotals(source: 'prints' | 'prints_added', where: RawBuilder<boolean>): RawBuilder<unknown> {
  const from = sql.table(source);
  return sql`
    select t.trading_date, t.contract_id, t.session, t.complex, t.underlying, t.root, t.contract_type, t.date_of_expiry, t.strike,
      t.premium, t.bullish, t.bearish, t.neutral, t.volume, t.trades, l.ts, l.sequence, l.price, l.implied_volatility, l.open_interest
    from (
      select trading_date, contract_id, session, ${COMPLEX} as complex, underlying,
        min(root) as root, min(contract_type) as contract_type, min(date_of_expiry) as date_of_expiry, min(strike) as strike,
        sum(premium::numeric) as premium,
        coalesce(sum(premium::numeric) filter (where sentiment = 'bullish'), 0) as bullish,
        coalesce(sum(premium::numeric) filter (where sentiment = 'bearish'), 0) as bearish,
        coalesce(sum(premium::numeric) filter (where sentiment = 'neutral'), 0) as neutral,
        sum(size)::int8 as volume, count(*)::int8 as trades
      from ${from} where ${where} and not cancelled
      group by 1, 2, 3, 4, 5
    ) t join (
      select distinct on (contract_id, session, complex, underlying) contract_id, session, complex, underlying, ts, sequence, price, implied_volatility, open_interest
      from (select contract_id, session, ${COMPLEX} as complex, underlying, ts, sequence, price, implied_volatility, open_interest
        from ${from} where ${where} and not cancelled) p
      order by contract_id, session, complex, underlying, ts desc, sequence desc
    ) l using (contract_id, session, complex, underlying)`;
}

/** `alias`'s rows of the trading date, of the contracts given or all (null). */
function scopeOf(alias: string, tradingDate: string, contractIds: readonly number[] | null): RawBuilder<boolean> {
  const date = sql<boolean>`${sql.ref(`${alias}.trading_date`)} = ${tradingDate}::date`;
  return contractIds === null ? date : sql<boolean>`${date} and ${sql.ref(`${alias}.contract_id`)} = any(${[...contractIds]}::int8[])`;
}

/** Takes the date's lock of the totals until the transaction ends: two loads of one date write its totals one after the other. */
async function lockTotals(db: Queryable, tradingDate: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('flow_totals'), hashtext(${tradingDate}::text))`.execute(db);
}

/**
 * Recomputes the flow totals of a trading date from its stored prints: the rows per session and
 * the contract-grain rows of the contracts given, or of the whole date (null), then the date's
 * totals per underlying. Holds a lock of the date until the transaction ends, so that two loads of
 * one date write its totals one after the other (each statement then reads the prints the other
 * committed).
 */
export async function refreshFlowTotals(db: Queryable, tradingDate: string, contractIds: readonly number[] | null): Promise<void> {
  if (contractIds?.length === 0) return;
  await lockTotals(db, tradingDate);
  await recomputeContractTotals(db, tradingDate, contractIds);
  await refreshDerivedTotals(db, tradingDate, contractIds);
}

/** The rows of flow_totals_by_contract of the contracts given (or all), computed again from their stored prints. */
async function recomputeContractTotals(db: Queryable, tradingDate: string, contractIds: readonly number[] | null): Promise<void> {
  await sql`delete from flow_totals_by_contract t where ${scopeOf('t', tradingDate, contractIds)}`.execute(db);
  await sql`insert into flow_totals_by_contract ${contractTotals('prints', scopeOf('prints', tradingDate, contractIds))}`.execute(db);
}

/**
 * The flow totals of a stored date after a load that added prints (the rows it inserted, in the
 * load's temporary table prints_added: db/bulk-copy.ts) and cancelled some: the contracts of
 * `recompute` (those a cancel of the load touched: a cancelled print leaves the totals and may have
 * been a last print) are recomputed from the stored prints as refreshFlowTotals does; for the other
 * contracts of `contractIds`, the added prints' totals are added to the rows stored. Every total is
 * a sum (premiums as numeric: exact, so in any order the same), and a last print is the later of
 * the stored one and the added one, so the rows equal the recomputed ones; what a minute of a live
 * session costs is then its own prints, not every earlier print of the contracts it touched (about
 * half a full-scale day's prints each minute, 6 to 8 s at the close).
 */
export async function addFlowTotals(
  db: Queryable,
  tradingDate: string,
  contractIds: readonly number[],
  recompute: ReadonlySet<number>,
): Promise<void> {
  if (contractIds.length === 0) return;
  await lockTotals(db, tradingDate);
  const again = contractIds.filter((id) => recompute.has(id));
  const added = contractIds.filter((id) => !recompute.has(id));
  if (again.length > 0) await recomputeContractTotals(db, tradingDate, again);
  if (added.length > 0) {
    const later = sql<boolean>`(excluded.last_ts, excluded.last_sequence) > (t.last_ts, t.last_sequence)`;
    const last = (column: string) =>
      sql`${sql.id(column)} = case when ${later} then ${sql.ref(`excluded.${column}`)} else ${sql.ref(`t.${column}`)} end`;
    await sql`
      insert into flow_totals_by_contract as t ${contractTotals('prints_added', scopeOf('prints_added', tradingDate, added))}
      on conflict (trading_date, contract_id, session, complex, underlying) do update set
        premium = t.premium + excluded.premium, bullish = t.bullish + excluded.bullish, bearish = t.bearish + excluded.bearish,
        neutral = t.neutral + excluded.neutral, volume = t.volume + excluded.volume, trades = t.trades + excluded.trades,
        ${sql.join(['last_price', 'last_implied_volatility', 'last_open_interest', 'last_ts', 'last_sequence'].map(last))}`.execute(db);
  }
  await refreshDerivedTotals(db, tradingDate, contractIds);
}

/** The contract-grain rows of the contracts given (or all) and the date's totals per underlying, from flow_totals_by_contract. */
async function refreshDerivedTotals(db: Queryable, tradingDate: string, contractIds: readonly number[] | null): Promise<void> {
  // The contract grain's rows: each session choice of the route, with and without complex prints.
  await sql`delete from flow_leaders_by_contract t where ${scopeOf('t', tradingDate, contractIds)}`.execute(db);
  const choices = Object.entries(SESSIONS_OF).map(([choice, members]) => sql`(${choice}::text, ${[...members]}::text[])`);
  await sql`
    insert into flow_leaders_by_contract
    select t.trading_date, c.sessions, i.include_complex, t.contract_id, min(t.root), min(t.contract_type), min(t.date_of_expiry), min(t.strike),
      sum(t.premium)::float8, sum(t.volume)::int8,
      (array_agg(t.last_price order by t.last_ts desc, t.last_sequence desc))[1],
      (array_agg(t.last_implied_volatility order by t.last_ts desc, t.last_sequence desc))[1],
      (array_agg(t.last_open_interest order by t.last_ts desc, t.last_sequence desc))[1],
      (select r.last_price from flow_totals_by_contract r where r.trading_date = t.trading_date and r.contract_id = t.contract_id and r.session = 'rth'
        order by r.last_ts desc, r.last_sequence desc limit 1)
    from flow_totals_by_contract t
    join (values ${sql.join(choices)}) as c(sessions, members) on t.session = any(c.members)
    join (values (true), (false)) as i(include_complex) on i.include_complex or not t.complex
    where ${scopeOf('t', tradingDate, contractIds)}
    group by 1, 2, 3, 4`.execute(db);
  await sql`delete from flow_totals_by_underlying where trading_date = ${tradingDate}::date`.execute(db);
  await sql`
    insert into flow_totals_by_underlying
    select trading_date, underlying, session, complex, sum(premium), sum(bullish), sum(bearish), sum(neutral), sum(volume)::int8,
      coalesce(sum(volume) filter (where contract_type = 'call'), 0)::int8, coalesce(sum(volume) filter (where contract_type = 'put'), 0)::int8,
      sum(trades)::int8
    from flow_totals_by_contract where trading_date = ${tradingDate}::date
    group by 1, 2, 3, 4`.execute(db);
}

/** Forgets the flow totals of a trading date (its prints partition is dropped). */
export async function dropFlowTotals(db: Queryable, tradingDate: string): Promise<void> {
  for (const table of ['flow_totals_by_contract', 'flow_totals_by_underlying', 'flow_leaders_by_contract']) {
    await sql`delete from ${sql.table(table)} where trading_date = ${tradingDate}::date`.execute(db);
  }
}

function totalsConditions(f: LeaderFilter, options: { roots: boolean }): RawBuilder<boolean>[] {
  const c = [sql<boolean>`trading_date = ${f.tradingDate}::date`, sql<boolean>`session = any(${[...f.sessions]}::text[])`];
  if (!f.includeComplex) c.push(sql<boolean>`not complex`);
  if (options.roots && f.roots) c.push(sql<boolean>`root = any(${[...f.roots]}::text[])`);
  return c;
}

/** Session totals per underlying from the aggregates: equal to trades.ts flowByUnderlying for a filter without roots. */
export async function underlyingFlowTotals(db: Queryable, f: LeaderFilter & { roots?: null }): Promise<UnderlyingFlowRow[]> {
  const result = await sql<UnderlyingFlowRow>`
    select underlying, sum(premium)::float8 as premium, sum(volume)::int8 as volume,
      sum(bullish)::float8 as bullish, sum(bearish)::float8 as bearish, sum(neutral)::float8 as neutral,
      sum(call_volume)::int8 as call_volume, sum(put_volume)::int8 as put_volume, sum(trades)::int8 as trades
    from flow_totals_by_underlying where ${sql.join(totalsConditions(f, { roots: false }), sql` and `)}
    group by underlying`.execute(db);
  return result.rows;
}

/** The session choice of the route (SESSIONS_OF) whose sessions are exactly these, if any. */
function sessionChoiceOf(sessions: readonly string[]): SessionChoice | null {
  const asked = new Set(sessions);
  const choice = (Object.keys(SESSIONS_OF) as SessionChoice[]).find(
    (c) => SESSIONS_OF[c].length === asked.size && SESSIONS_OF[c].every((s) => asked.has(s)),
  );
  return choice ?? null;
}

/**
 * Session totals per contract with its last print and the previous date's last regular-session
 * price: equal to trades.ts flowByContract. The route's session choices read their rows of
 * flow_leaders_by_contract, one per contract, the previous close from the previous date's rows;
 * any other set of sessions adds up the rows per session (contractFlowTotalsBySession).
 */
export async function contractFlowTotals(db: Queryable, f: LeaderFilter, previousDate: string | null): Promise<ContractFlowRow[]> {
  const choice = sessionChoiceOf(f.sessions);
  if (choice === null) return await contractFlowTotalsBySession(db, f, previousDate);
  const conditions = [
    sql<boolean>`c.trading_date = ${f.tradingDate}::date`,
    sql<boolean>`c.sessions = ${choice}::text`,
    sql<boolean>`c.include_complex = ${f.includeComplex}::bool`,
  ];
  if (f.roots) conditions.push(sql<boolean>`c.root = any(${[...f.roots]}::text[])`);
  // A contract that traded in the regular session has a row of every session and complex print.
  const every: SessionChoice = 'all';
  const result = await sql<ContractFlowRow>`
    select c.root, c.contract_type, c.date_of_expiry, c.strike, c.premium, c.volume, c.last_price, c.implied_volatility, c.open_interest, p.regular_close as previous_close
    from flow_leaders_by_contract c
    left join flow_leaders_by_contract p on p.trading_date = ${previousDate}::date and p.sessions = ${every}::text and p.include_complex and p.contract_id = c.contract_id
    where ${sql.join(conditions, sql` and `)}`.execute(db);
  return result.rows;
}

/**
 * contractFlowTotals from the rows per session: one scan of both dates' rows grouped by contract,
 * the previous date's rows apart by filter, instead of a join: no plan of it depends on row
 * estimates (a join planned from a new table's missing statistics became a nested loop).
 */
async function contractFlowTotalsBySession(db: Queryable, f: LeaderFilter, previousDate: string | null): Promise<ContractFlowRow[]> {
  const previous = [sql<boolean>`trading_date = ${previousDate}::date`, sql<boolean>`session = 'rth'`];
  if (f.roots) previous.push(sql<boolean>`root = any(${[...f.roots]}::text[])`);
  const last = sql`order by last_ts desc, last_sequence desc`;
  const result = await sql<ContractFlowRow>`
    select min(root) as root, min(contract_type) as contract_type, min(date_of_expiry) as date_of_expiry, min(strike) as strike,
      sum(premium) filter (where day)::float8 as premium, sum(volume) filter (where day)::int8 as volume,
      (array_agg(last_price ${last}) filter (where day))[1] as last_price,
      (array_agg(last_implied_volatility ${last}) filter (where day))[1] as implied_volatility,
      (array_agg(last_open_interest ${last}) filter (where day))[1] as open_interest,
      (array_agg(last_price ${last}) filter (where not day))[1] as previous_close
    from (
      select *, trading_date = ${f.tradingDate}::date as day from flow_totals_by_contract
      where (${sql.join(totalsConditions(f, { roots: true }), sql` and `)}) or (${sql.join(previous, sql` and `)})
    ) as rows
    group by contract_id having bool_or(day)`.execute(db);
  return result.rows;
}
