/**
 * Reads of classified prints for the print feeds (trades, flow, flow/overnight) and the last trade
 * of one contract at an instant. Prints are served as their stored `body` text (the 31 fields).
 *
 * A page is newest first by (ts, sequence, contract_id), the order of the partial indexes
 * prints_root_newest_idx (root, …) and prints_market_newest_idx (the whole market). Each root, or
 * the whole market, is read as its own ordered, limited index scan and the branches are merged:
 * PostgreSQL cannot keep the index order across an IN list. The sessions asked do not lead the
 * index: a root's overnight (gth) prints of a trading date all precede its day's (rth, curb, other)
 * in time, so a day read newest first meets them only at its end, and a read of one session is
 * bounded by that session's span (the caller gives it as from/to: print-filters.ts readBounds), so
 * that its scan starts at the session's end, not at the date's last print. Session, then side, size,
 * premium and contract type, are the indexes' last keys, so the scan checks them on the index entry
 * and passes the prints of other sessions (a day's curb and late prints, met first newest first) and
 * the prints those filters drop without fetching their rows.
 *
 * The feed reads run as named prepared statements (prepared.ts executePrepared): parsed once per
 * connection and, once PostgreSQL finds a generic plan as cheap, not planned again. Nothing a
 * request gives is written into the text: roots, sessions, dates, positions, filter bounds and row
 * limits are all bound, so a statement's text depends only on the shape of the filter (how many
 * roots, which conditions), and one statement serves every root and page size. A bound LIMIT is
 * one PostgreSQL cannot see when it plans generically (it assumes a tenth of the rows), so each
 * limited read is written as an inner LIMIT of a constant (planRows: a fixed step at or above the
 * limit, not the limit) under the bound one: a tenth of that constant is about a page, the generic
 * plan is the ordered index scan of a page. The root is compared with `(select $n::text)`, a value
 * no plan can see: a custom plan would see the root itself, estimate its rows from the root's
 * statistics below the generic plan's estimate, and PostgreSQL would keep planning every execution
 * (planning would then be a large share of a page read); seen by neither, both plans cost the same
 * and the generic one is kept after five executions.
 */
import { sql, type RawBuilder } from 'kysely';
import { SESSIONS_OF } from '../analytics/print-filters.js';
import type { Queryable } from './connection.js';
import { executePrepared } from './prepared.js';
import type { ContractType } from './schema.js';

export interface PrintFilter {
  tradingDate: string;
  /** Option roots; null for the whole market. */
  roots: readonly string[] | null;
  sessions: readonly string[];
  /** Window: from <= ts < to. */
  from: number | null;
  to: number | null;
  contractType?: ContractType;
  dateOfExpiry?: string;
  minDte?: number;
  maxDte?: number;
  minPremium?: number;
  maxPremium?: number;
  minSize?: number;
  maxSize?: number;
  /** Any of: sweep, block, split, single, golden, multileg, cross, floor, auction, iso. */
  tradeTypes?: readonly string[];
  sides?: readonly string[];
  sentiments?: readonly string[];
  otmOnly?: boolean;
  includeComplex: boolean;
  unusualOnly?: boolean;
  minStrike?: number;
  maxStrike?: number;
}

/** Total order of a trading date's prints; the position a cursor holds. */
export interface PrintPosition {
  ts: number;
  sequence: number;
  contractId: number;
}

export interface PrintRow {
  body: string;
  ts: number;
  sequence: number;
  contract_id: number;
  exchange: string;
  side: string;
}

function tradeTypeCondition(type: string): RawBuilder<boolean> {
  switch (type) {
    case 'block':
      return sql<boolean>`is_block`;
    case 'golden':
      return sql<boolean>`is_golden`;
    case 'auction':
    case 'iso':
      return sql<boolean>`${type}::text = any(flags)`;
    default:
      return sql<boolean>`trade_type = ${type}::text`;
  }
}

/** The filter as SQL conditions (besides trading date, root, session and position). */
export function printConditions(f: PrintFilter): RawBuilder<boolean>[] {
  const c: RawBuilder<boolean>[] = [];
  if (f.from !== null) c.push(sql<boolean>`ts >= ${f.from}::int8`);
  if (f.to !== null) c.push(sql<boolean>`ts < ${f.to}::int8`);
  if (f.contractType) c.push(sql<boolean>`contract_type = ${f.contractType}::text`);
  if (f.dateOfExpiry) c.push(sql<boolean>`date_of_expiry = ${f.dateOfExpiry}::date`);
  if (f.minDte !== undefined) c.push(sql<boolean>`days_to_expiry >= ${f.minDte}::int4`);
  if (f.maxDte !== undefined) c.push(sql<boolean>`days_to_expiry <= ${f.maxDte}::int4`);
  if (f.minPremium !== undefined) c.push(sql<boolean>`premium >= ${f.minPremium}::float8`);
  if (f.maxPremium !== undefined) c.push(sql<boolean>`premium <= ${f.maxPremium}::float8`);
  if (f.minSize !== undefined) c.push(sql<boolean>`size >= ${f.minSize}::int4`);
  if (f.maxSize !== undefined) c.push(sql<boolean>`size <= ${f.maxSize}::int4`);
  if (f.minStrike !== undefined) c.push(sql<boolean>`strike >= ${f.minStrike}::float8`);
  if (f.maxStrike !== undefined) c.push(sql<boolean>`strike <= ${f.maxStrike}::float8`);
  if (f.tradeTypes && f.tradeTypes.length > 0) c.push(sql<boolean>`(${sql.join(f.tradeTypes.map(tradeTypeCondition), sql` or `)})`);
  if (f.sides && f.sides.length > 0) c.push(sql<boolean>`side = any(${[...f.sides]}::text[])`);
  if (f.sentiments && f.sentiments.length > 0) c.push(sql<boolean>`sentiment = any(${[...f.sentiments]}::text[])`);
  if (f.otmOnly) c.push(sql<boolean>`underlying_price is not null and otm_percent > 0`);
  if (!f.includeComplex) c.push(sql<boolean>`trade_type <> 'multileg' and not ('complex' = any(flags))`);
  if (f.unusualOnly) c.push(sql<boolean>`is_unusual`);
  return c;
}

const NEWEST_FIRST = sql`order by ts desc, sequence desc, contract_id desc`;

const PAGE_COLUMNS = sql`body, ts, sequence, contract_id, exchange, side`;
/** What the position where a bounded scan ends needs of each print. */
const POSITION_COLUMNS = sql`ts, sequence, contract_id`;

/**
 * The constant written into a limited read's text in place of its limit: the first step at or
 * above it. Every page (at most 501 rows) plans as 1,024 rows and the default scan budget (20,000)
 * as 32,768, whatever the request asks; a larger read still gets a step above it, so the constant
 * never cuts a read short.
 */
export function planRows(limit: number): number {
  let rows = 1024;
  while (rows < limit) rows *= 32;
  return rows;
}

/** The first `limit` rows of `ordered` (a query ending in ORDER BY), the limit bound (see the header). */
function limitedTo<R>(ordered: RawBuilder<unknown>, limit: number): RawBuilder<R> {
  return sql<R>`select * from (${ordered} limit ${sql.lit(planRows(limit))}) as limited ${NEWEST_FIRST} limit ${limit}::int8`;
}

/**
 * The prints of the filter newest first, strictly older than `after`, as one ordered query of at
 * most `limit` rows (null when no root or no session is asked). Each branch is an ordered, limited
 * index scan; a Merge Append pulls from them lazily, and the bound limit on top stops them all
 * (a branch's own LIMIT, the constant, is never reached first).
 */
function newestQuery(f: PrintFilter, after: PrintPosition | null, limit: number, columns = PAGE_COLUMNS): RawBuilder<PrintRow> | null {
  if (f.sessions.length === 0 || f.roots?.length === 0) return null;
  const common = [sql<boolean>`trading_date = ${f.tradingDate}::date`, sql<boolean>`not cancelled`, ...printConditions(f)];
  // A filter naming every session a print is stored under is no filter.
  if (!SESSIONS_OF.all.every((s) => f.sessions.includes(s))) common.push(sql<boolean>`session = any(${[...f.sessions]}::text[])`);
  if (after !== null)
    common.push(sql<boolean>`(ts, sequence, contract_id) < (${after.ts}::int8, ${after.sequence}::int8, ${after.contractId}::int8)`);
  const scan = (root: RawBuilder<boolean>[]) =>
    sql`select ${columns} from prints where ${sql.join([...root, ...common], sql` and `)} ${NEWEST_FIRST}`;
  if (f.roots === null || f.roots.length === 1)
    return limitedTo<PrintRow>(scan(f.roots === null ? [] : [sql<boolean>`root = (select ${f.roots[0]}::text)`]), limit);
  const branches = f.roots.map((r) => sql`(${scan([sql<boolean>`root = (select ${r}::text)`])} limit ${sql.lit(planRows(limit))})`);
  return limitedTo<PrintRow>(sql`select * from (${sql.join(branches, sql` union all `)}) as merged ${NEWEST_FIRST}`, limit);
}

/** A page of prints as the text of their stored bodies, and where it ends. */
export interface PrintsPageText {
  /** The bodies of the page, newest first, joined by commas (the inside of the data array). */
  bodies: string;
  count: number;
  /** More prints of the filter follow the page. */
  hasMore: boolean;
  /** The page's last print (null for an empty page). */
  last: PrintPosition | null;
}

/**
 * The first `limit` rows of `rows` (prints newest first, at most limit + 1 of them) as one row: the
 * bodies joined by PostgreSQL (the page's text reaches node as one value, not rows to decode and
 * join again), the count of rows read (limit + 1 tells that more follow), and the page's last
 * position. The rows reach the aggregates in page order, and the aggregates ask for nothing else:
 * string_agg's order is the page's own (PostgreSQL sees its input sorted and sorts nothing), and the
 * last position is the least (ts, sequence, contract_id) of the page, its last row in newest-first
 * order. (Aggregates ordered by row number instead would cost PostgreSQL a sort of the page each.)
 */
function pageStatement(rows: RawBuilder<PrintRow>, limit: number) {
  return sql<{ bodies: string | null; n: number; last: string[] | null }>`
      with page as (select body, ts, sequence, contract_id, row_number() over (${NEWEST_FIRST}) as rn from (${rows}) as q)
      select string_agg(body, ',' ${NEWEST_FIRST}) filter (where rn <= ${limit}::int8) as bodies, count(*)::int4 as n,
        min(array[ts, sequence, contract_id]) filter (where rn <= ${limit}::int8) as last
      from page`;
}

async function pageText(db: Queryable, rows: RawBuilder<PrintRow>, limit: number): Promise<PrintsPageText> {
  const [row] = await executePrepared(db, pageStatement(rows, limit).compile(db));
  const count = Math.min(row?.n ?? 0, limit);
  const position = row?.last ?? null;
  const last =
    count > 0 && position !== null && position.length === 3
      ? { ts: Number(position[0]), sequence: Number(position[1]), contractId: Number(position[2]) }
      : null;
  return { bodies: row?.bodies ?? '', count, hasMore: (row?.n ?? 0) > limit, last };
}

/** Up to `limit` prints of the filter, newest first, strictly older than `after`, as text (pageText). */
export async function printsPageText(db: Queryable, f: PrintFilter, after: PrintPosition | null, limit: number): Promise<PrintsPageText> {
  const query = newestQuery(f, after, limit + 1);
  if (query === null) return { bodies: '', count: 0, hasMore: false, last: null };
  return await pageText(db, query, limit);
}

/** The statement printsPageText runs for a first page (text and values), for bench/trades' pgbench ceiling. */
export function printsPageStatement(db: Queryable, f: PrintFilter, limit: number): { sql: string; parameters: readonly unknown[] } | null {
  const query = newestQuery(f, null, limit + 1);
  return query === null ? null : pageStatement(query, limit).compile(db);
}

/** Filters applied to the prints a bounded scan reads (exchange, an exact at/near side). */
export interface ScanFilter {
  exchanges: readonly string[] | null;
  sides: readonly string[] | null;
}

export interface ScannedPrints {
  /** Matching prints, at most `limit`, as text (hasMore: a further print matched within the budget). */
  page: PrintsPageText;
  /** Fewer than limit + 1 matched and the scan reached its budget: the last print scanned (the next page continues after it). */
  budgetEndedAt: PrintPosition | null;
}

/**
 * A bounded scan: of the next `budget` prints of the filter (newest first, after `after`), up to
 * `limit` (and one more, to tell whether more follow) that also pass the scan filter. PostgreSQL
 * stops reading as soon as limit + 1 match; the position where the budget ended is read only when
 * fewer matched.
 */
export async function scannedPrints(
  db: Queryable,
  f: PrintFilter,
  after: PrintPosition | null,
  scan: ScanFilter,
  limit: number,
  budget: number,
): Promise<ScannedPrints> {
  const window = newestQuery(f, after, budget);
  if (window === null) return { page: { bodies: '', count: 0, hasMore: false, last: null }, budgetEndedAt: null };
  const keep: RawBuilder<boolean>[] = [];
  if (scan.exchanges) keep.push(sql<boolean>`exchange = any(${[...scan.exchanges]}::text[])`);
  if (scan.sides) keep.push(sql<boolean>`side = any(${[...scan.sides]}::text[])`);
  const filtered = limitedTo<PrintRow>(
    sql`select * from (${window}) as scanned ${keep.length > 0 ? sql`where ${sql.join(keep, sql` and `)}` : sql``} ${NEWEST_FIRST}`,
    limit + 1,
  );
  const page = await pageText(db, filtered, limit);
  if (page.hasMore) return { page, budgetEndedAt: null };
  // Where the budget ends: the window read narrow, without bodies (a root with fewer prints than
  // the budget is read whole and sorted; small rows sort in memory).
  const narrow = newestQuery(f, after, budget, POSITION_COLUMNS) as RawBuilder<PrintRow>;
  const [last] = await executePrepared(
    db,
    sql<PrintPosition>`select ts, sequence, contract_id as "contractId" from (${narrow}) as scanned ${NEWEST_FIRST} offset ${budget - 1}::int8 limit 1`.compile(
      db,
    ),
  );
  return { page, budgetEndedAt: last ?? null };
}

export interface ContractKey {
  root: string;
  dateOfExpiry: string;
  contractType: ContractType;
  strikeThousandths: number;
}

export interface ContractRecord {
  id: number;
  optionSymbol: string;
  root: string;
  underlying: string;
  dateOfExpiry: string;
  contractType: ContractType;
  strikeThousandths: number;
  multiplier: number;
}

export async function findContract(db: Queryable, key: ContractKey): Promise<ContractRecord | null> {
  const row = await db
    .selectFrom('contracts')
    .selectAll()
    .where('root', '=', key.root)
    .where('date_of_expiry', '=', key.dateOfExpiry)
    .where('contract_type', '=', key.contractType)
    .where('strike_thousandths', '=', key.strikeThousandths)
    .executeTakeFirst();
  return row
    ? {
        id: row.id,
        optionSymbol: row.option_symbol,
        root: row.root,
        underlying: row.underlying,
        dateOfExpiry: row.date_of_expiry,
        contractType: row.contract_type,
        strikeThousandths: row.strike_thousandths,
        multiplier: row.multiplier,
      }
    : null;
}

export interface LastTrade {
  ts: number;
  sequence: number;
  price: number;
  size: number;
  exchange_code: number;
  condition_code: number;
  extended_conditions: number[];
}

/** The last uncancelled print of a contract at or before `at` (overnight prints only when allowed). */
export async function lastTradeAt(
  db: Queryable,
  contractId: number,
  at: number,
  options: { overnight: boolean },
): Promise<LastTrade | null> {
  let q = db
    .selectFrom('prints')
    .select(['ts', 'sequence', 'price', 'size', 'exchange_code', 'condition_code', 'extended_conditions'])
    .where('contract_id', '=', contractId)
    .where('ts', '<=', at)
    .where('cancelled', '=', false);
  if (!options.overnight) q = q.where('session', '<>', 'gth');
  const row = await q.orderBy('ts', 'desc').orderBy('sequence', 'desc').limit(1).executeTakeFirst();
  return row ?? null;
}

export interface BucketNetRow {
  index: number;
  call: number;
  put: number;
  prints: number;
}

/**
 * Net signed premium per bucket of a grid starting at `gridStart`: ask-side premium minus bid-side
 * premium, calls and puts apart, over the prints of the filter (all matching prints counted in
 * `prints`, mid and unknown ones included). Buckets without prints are absent.
 */
export async function premiumNetByBucket(
  db: Queryable,
  f: PrintFilter & { roots: readonly string[] },
  gridStart: number,
  intervalMs: number,
  sides: { ask: readonly string[]; bid: readonly string[] },
): Promise<BucketNetRow[]> {
  const conditions = [
    sql<boolean>`trading_date = ${f.tradingDate}::date`,
    sql<boolean>`not cancelled`,
    sql<boolean>`root = any(${[...f.roots]}::text[])`,
    sql<boolean>`session = any(${[...f.sessions]}::text[])`,
    ...printConditions(f),
  ];
  const signed = sql`case when side = any(${[...sides.ask]}::text[]) then premium when side = any(${[...sides.bid]}::text[]) then -premium else 0 end`;
  const result = await sql<BucketNetRow>`
    select floor((ts - ${gridStart}::int8)::float8 / ${intervalMs}::float8)::int4 as index,
      coalesce(sum(${signed}) filter (where contract_type = 'call'), 0)::float8 as call,
      coalesce(sum(${signed}) filter (where contract_type = 'put'), 0)::float8 as put,
      count(*)::int4 as prints
    from prints where ${sql.join(conditions, sql` and `)}
    group by 1 order by 1`.execute(db);
  return result.rows;
}

export interface LeaderFilter {
  tradingDate: string;
  sessions: readonly string[];
  includeComplex: boolean;
  /** Contract grain: only these roots (null for all). */
  roots?: readonly string[] | null;
}

function leaderConditions(f: LeaderFilter): RawBuilder<boolean>[] {
  const c = [
    sql<boolean>`trading_date = ${f.tradingDate}::date`,
    sql<boolean>`not cancelled`,
    sql<boolean>`session = any(${[...f.sessions]}::text[])`,
  ];
  if (!f.includeComplex) c.push(sql<boolean>`trade_type <> 'multileg' and not ('complex' = any(flags))`);
  if (f.roots) c.push(sql<boolean>`root = any(${[...f.roots]}::text[])`);
  return c;
}

export interface UnderlyingFlowRow {
  underlying: string;
  premium: number;
  volume: number;
  bullish: number;
  bearish: number;
  neutral: number;
  call_volume: number;
  put_volume: number;
  trades: number;
}

/**
 * Session totals per underlying (an index family's roots together), aggregated from the prints:
 * the flow aggregates' oracle (flow-aggregates.ts reads the same totals from a few rows). Premiums
 * are summed as numeric, exactly: a float sum depends on the order PostgreSQL meets the prints
 * in (a parallel plan's order varies), the exact sum does not, so both reads give the same number.
 */
export async function flowByUnderlying(db: Queryable, f: LeaderFilter): Promise<UnderlyingFlowRow[]> {
  const result = await sql<UnderlyingFlowRow>`
    select underlying, sum(premium::numeric)::float8 as premium, sum(size)::int8 as volume,
      coalesce(sum(premium::numeric) filter (where sentiment = 'bullish'), 0)::float8 as bullish,
      coalesce(sum(premium::numeric) filter (where sentiment = 'bearish'), 0)::float8 as bearish,
      coalesce(sum(premium::numeric) filter (where sentiment = 'neutral'), 0)::float8 as neutral,
      coalesce(sum(size) filter (where contract_type = 'call'), 0)::int8 as call_volume,
      coalesce(sum(size) filter (where contract_type = 'put'), 0)::int8 as put_volume,
      count(*)::int8 as trades
    from prints where ${sql.join(leaderConditions(f), sql` and `)}
    group by underlying`.execute(db);
  return result.rows;
}

export interface ContractFlowRow {
  root: string;
  contract_type: ContractType;
  date_of_expiry: string;
  strike: number;
  premium: number;
  volume: number;
  last_price: number;
  implied_volatility: number | null;
  open_interest: number | null;
  previous_close: number | null;
}

/**
 * Session totals per contract with its last print (price, implied volatility, open interest) and
 * the last regular-session price of the previous trading date (null when not held, or when there
 * is no previous date), aggregated from the prints: the flow aggregates' oracle, premiums summed
 * exactly (flowByUnderlying).
 */
export async function flowByContract(db: Queryable, f: LeaderFilter, previousDate: string | null): Promise<ContractFlowRow[]> {
  const result = await sql<ContractFlowRow>`
    with day as (
      select contract_id, min(root) as root, min(contract_type) as contract_type, min(date_of_expiry) as date_of_expiry, min(strike) as strike,
        sum(premium::numeric)::float8 as premium, sum(size)::int8 as volume,
        (array_agg(price order by ts desc, sequence desc))[1] as last_price,
        (array_agg(implied_volatility order by ts desc, sequence desc))[1] as implied_volatility,
        (array_agg(open_interest order by ts desc, sequence desc))[1] as open_interest
      from prints where ${sql.join(leaderConditions(f), sql` and `)}
      group by contract_id
    ), previous as (
      select distinct on (contract_id) contract_id, price from prints
      where trading_date = ${previousDate}::date and not cancelled and session = 'rth' and contract_id in (select contract_id from day)
      order by contract_id, ts desc, sequence desc
    )
    select d.root, d.contract_type, d.date_of_expiry, d.strike, d.premium, d.volume, d.last_price, d.implied_volatility, d.open_interest, p.price as previous_close
    from day d left join previous p using (contract_id)`.execute(db);
  return result.rows;
}
