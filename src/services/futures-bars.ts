/**
 * GET /v1/futures/bars and GET /v1/futures/continuous: a contract's or a continuous symbol's bars,
 * aggregated in the database from the stored one-minute bars of the contract each trade date maps
 * to, back-adjusted at the rolls; and the mapping intervals themselves with the figures that chose
 * them and the prices of each roll. The rules are analytics/futures/continuous.ts's; the contract
 * states them.
 */
import {
  continuousMapping,
  parseContinuousSymbol,
  rollPriceDate,
  segmentAdjustments,
  tradeDatesBetween,
  type ContractFigures,
  type DailyFigures,
  type MappingBasis,
  type PriceAdjustment,
  type SegmentAdjustment,
} from '../analytics/futures/continuous.js';
import { contractBySymbol, type FuturesContract } from '../analytics/futures/contracts.js';
import { globexTradeDate, globexTradeDateAt, previousGlobexTradeDate } from '../analytics/futures/globex-calendar.js';
import { calculationWindow, INDEX_BUCKET_MS, INDEX_RANGE_DAYS } from '../analytics/indices.js';
import { CALENDAR_LAST_DATE } from '../analytics/calendar.js';
import { addDays, daysBetween, newYorkDate } from '../analytics/new-york-time.js';
import type { StoredFuturesContract } from '../db/futures-contracts.js';
import type { FuturesBarWindow } from '../db/futures-continuous.js';
import { invalidParameters, noData } from '../errors.js';
import { openPaging, takePage } from './paging.js';
import type { FuturesBarsRepository } from './repositories.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type Interval = NonNullable<QueryOf<'listFuturesBars'>['interval']>;
type Session = NonNullable<QueryOf<'listFuturesBars'>['session']>;
type MappingEntry = DataOf<'listFuturesContinuous'>[number];
type RollSource = NonNullable<MappingEntry['roll']>['price_source'];

const DAY_MS = 86_400_000;
/** Calendar days read before a range for the roll rules' figures: five trade dates back, holidays included. */
const FIGURE_DAYS = 14;
/** The continuous route's default and longest ranges, in days. */
const CONTINUOUS_DEFAULT_DAYS = 91;
const CONTINUOUS_MAX_DAYS = 366;

/** A run of trade dates read from one contract. */
interface Segment {
  startDate: string;
  endDate: string;
  contract: FuturesContract;
  stored: StoredFuturesContract | undefined;
  basis: MappingBasis | null;
}

/** A roll price of one contract and where it came from. */
interface RollPrice {
  price: number | null;
  source: RollSource;
}

interface Roll {
  priceDate: string;
  previous: RollPrice;
  next: RollPrice;
}

/** What the routes read of a root over a range of trade dates: figures, settlements and the stored contracts. */
interface RootData {
  figures: DailyFigures;
  settlements: Map<string, number>;
  stored: Map<string, StoredFuturesContract>;
}

async function rootData(repo: FuturesBarsRepository, root: string, first: string, last: string): Promise<RootData> {
  const [rows, contracts] = await Promise.all([repo.figuresOfRoot(root, addDays(first, -FIGURE_DAYS), last), repo.contractsOfRoot(root)]);
  const figures = new Map<string, Map<string, ContractFigures>>();
  const settlements = new Map<string, number>();
  for (const r of rows) {
    const day = figures.get(r.tradeDate) ?? new Map<string, ContractFigures>();
    figures.set(r.tradeDate, day);
    day.set(r.contractMonth, { volume: r.clearedVolume, openInterest: r.openInterest });
    if (r.settlementPrice !== null) settlements.set(`${r.contractMonth}|${r.tradeDate}`, r.settlementPrice);
  }
  const stored = new Map<string, StoredFuturesContract>();
  for (const c of contracts) if (!stored.has(c.contractMonth)) stored.set(c.contractMonth, c);
  return { figures, settlements, stored };
}

/** A trade date's Globex session [first window's start, last window's end); null when it does not trade. */
function globexSpan(date: string): { start: number; end: number } | null {
  const session = globexTradeDate(date);
  if (session === null || session.windows.length === 0) return null;
  return { start: session.windows[0]!.start_time, end: session.windows.at(-1)!.end_time };
}

/** The price of each roll between consecutive segments: settlements of the eve, else the last close of that trade date. */
async function rollPrices(repo: FuturesBarsRepository, data: RootData, segments: readonly Segment[]): Promise<Roll[]> {
  const priceOf = async (segment: Segment, date: string): Promise<RollPrice> => {
    const settlement = data.settlements.get(`${segment.contract.contract_month}|${date}`);
    if (settlement !== undefined) return { price: settlement, source: 'settlement' };
    const span = globexSpan(date);
    if (segment.stored === undefined || span === null) return { price: null, source: 'missing' };
    const close = await repo.closeBefore(segment.stored.id, span.start, span.end);
    return close === null ? { price: null, source: 'missing' } : { price: close, source: 'last_close' };
  };
  return await Promise.all(
    segments.slice(1).map(async (segment, i) => {
      const priceDate = rollPriceDate(segment.startDate);
      const [previous, next] = await Promise.all([priceOf(segments[i]!, priceDate), priceOf(segment, priceDate)]);
      return { priceDate, previous, next };
    }),
  );
}

/** The trade date of the newest Globex session begun by `now` (after the 17:00 ET close, the one that closed). */
function newestBegunTradeDate(now: number): string {
  const at = globexTradeDateAt(now);
  if (at === null) return CALENDAR_LAST_DATE;
  return at.trading ? at.trade_date : previousGlobexTradeDate(at.trade_date);
}

/** The range [start, end) of a bars query (the contract's Range paragraph); null when `date` does not trade. */
function barRange(q: QueryOf<'listFuturesBars'>, interval: Interval, now: number): { start: number; end: number } | null {
  const longest = INDEX_RANGE_DAYS[interval] * DAY_MS;
  if (q.start_time !== undefined || q.end_time !== undefined) {
    const start = q.start_time ?? q.end_time! - longest;
    return { start, end: q.end_time ?? start + longest };
  }
  if (q.date === undefined && interval === '1d') return { start: now - longest, end: now };
  return globexSpan(q.date ?? newestBegunTradeDate(now));
}

/** The trade dates a range [start, end) meets, first and last. */
function tradeDateSpan(range: { start: number; end: number }): { first: string; last: string } {
  const first = globexTradeDateAt(range.start)?.trade_date ?? CALENDAR_LAST_DATE;
  const last = globexTradeDateAt(range.end - 1)?.trade_date ?? CALENDAR_LAST_DATE;
  return { first, last };
}

/** The segments of a bars query: the continuous mapping, or the one contract over the whole span. */
function segmentsOf(symbol: string, span: { first: string; last: string }, data: RootData): Segment[] {
  const continuous = parseContinuousSymbol(symbol);
  if (continuous !== null) {
    return continuousMapping(continuous, span.first, span.last, data.figures).map((i) => ({
      startDate: i.startDate,
      endDate: i.endDate,
      contract: i.contract,
      stored: data.stored.get(i.contract.contract_month),
      basis: i.basis,
    }));
  }
  // The contract's pattern is the parser's: a symbol that passed validation parses.
  const contract = contractBySymbol(symbol, span.last)!;
  return [{ startDate: span.first, endDate: span.last, contract, stored: data.stored.get(contract.contract_month), basis: null }];
}

/** The session windows of a trade date: every Globex window, or the index's regular session. */
function sessionWindows(date: string, session: Session): { start: number; end: number }[] {
  if (session === 'rth') {
    const w = calculationWindow(date);
    return w === null ? [] : [{ start: w.start, end: w.end }];
  }
  return (globexTradeDate(date)?.windows ?? []).map((w) => ({ start: w.start_time, end: w.end_time }));
}

interface BarPosition {
  /** The last bar's bucket. */
  b: number;
  /** Its contract (canonical symbol). */
  c: string;
}

/** The windows each segment's contract is read in, cut to the range and to after the cursor's bucket. */
function barWindows(
  segments: readonly Segment[],
  session: Session,
  range: { start: number; end: number },
  bucketMs: number | null,
  after: BarPosition | null,
): FuturesBarWindow[] {
  const from = Math.max(range.start, after !== null && bucketMs !== null ? after.b + bucketMs : -Infinity);
  const windows: FuturesBarWindow[] = [];
  for (const segment of segments) {
    if (segment.stored === undefined) continue;
    for (const date of tradeDatesBetween(segment.startDate, segment.endDate)) {
      const spans = sessionWindows(date, session);
      const open = spans[0]?.start;
      if (open === undefined || (bucketMs === null && after !== null && open <= after.b)) continue;
      for (const span of spans) {
        const start = Math.max(span.start, from);
        const end = Math.min(span.end, range.end);
        if (start < end) windows.push({ contractId: segment.stored.id, tradeDate: date, start, end, open });
      }
    }
  }
  return windows;
}

export async function listFuturesBars(ctx: ServiceContext, q: QueryOf<'listFuturesBars'>): Promise<Result<'listFuturesBars'>> {
  const interval = withDefault(q.interval, 'interval');
  const session = withDefault(q.session, 'session');
  const adjust: PriceAdjustment = withDefault(q.adjust, 'adjust');
  const continuous = parseContinuousSymbol(q.symbol);
  // A contract symbol is one segment without a roll: any adjust leaves its prices as they are.
  const range = barRange(q, interval, ctx.now);
  if (range === null) throw noData(`${q.date ?? 'The date'} is not a CME trade date.`);
  // The contract's range_at_most_days rules refuse a bad range before the service runs; this guards a caller that skipped them.
  if (!(range.start < range.end)) {
    throw invalidParameters(
      (['start_time', 'end_time'] as const)
        .filter((p) => q[p] !== undefined)
        .map((parameter) => ({ parameter, message: 'start_time must be before end_time' })),
    );
  }
  const repo = ctx.deps.repositories.futuresBars;
  const root = continuous?.root ?? contractBySymbol(q.symbol, newYorkDate(range.end))!.root;
  const span = tradeDateSpan(range);
  const data = await rootData(repo, root, span.first, span.last);
  const segments = segmentsOf(q.symbol, span, data);
  const adjustments: SegmentAdjustment[] =
    adjust === 'none'
      ? segments.map(() => ({ offset: 0, factor: 1 }))
      : segmentAdjustments(
          (await rollPrices(repo, data, segments)).map((r) => ({ oldPrice: r.previous.price, newPrice: r.next.price })),
          adjust,
        );
  const paging = openPaging<BarPosition>(ctx, q);
  const bucketMs = interval === '1d' ? null : INDEX_BUCKET_MS[interval];
  const windows = barWindows(segments, session, range, bucketMs, paging.after);
  const rows = await repo.barBuckets(windows, bucketMs, paging.limit + 1);
  if (rows.length === 0 && paging.after === null) throw noData(`No bar of ${q.symbol} is stored in the requested range.`);
  const segmentOfDate = new Map<string, number>();
  segments.forEach((s, k) => {
    for (const date of tradeDatesBetween(s.startDate, s.endDate)) segmentOfDate.set(date, k);
  });
  let previous = paging.after?.c ?? null;
  const bars = rows.map((r) => {
    const k = segmentOfDate.get(r.tradeDate)!;
    const { offset, factor } = adjustments[k]!;
    const contract = segments[k]!.contract.symbol;
    const roll = previous !== null && previous !== contract;
    const bar = {
      timestamp: r.bucket,
      trade_date: r.tradeDate,
      contract_symbol: contract,
      open: r.open * factor + offset,
      high: r.high * factor + offset,
      low: r.low * factor + offset,
      close: r.close * factor + offset,
      volume: r.volume,
      minutes: r.minutes,
      close_timestamp: r.lastMinute,
      roll,
      previous_contract_symbol: roll ? previous : null,
      price_offset: offset,
      price_factor: factor,
    };
    previous = contract;
    return bar;
  });
  const { page, next } = takePage(bars, paging.limit, (b): BarPosition => ({ b: b.timestamp, c: b.contract_symbol }));
  return { data: page, source: 'derived', pagination: paging.pagination(page.length, next) };
}

export async function listFuturesContinuous(
  ctx: ServiceContext,
  q: QueryOf<'listFuturesContinuous'>,
): Promise<Result<'listFuturesContinuous'>> {
  // The contract's pattern is the parser's: a symbol that passed validation parses.
  const symbol = parseContinuousSymbol(q.symbol)!;
  // end_date's default, the current trade date, is kept within the range's bounds after a given start_date.
  const today = globexTradeDateAt(ctx.now)?.trade_date ?? CALENDAR_LAST_DATE;
  const end =
    q.end_date ?? (q.start_date === undefined ? today : [q.start_date, today, addDays(q.start_date, CONTINUOUS_MAX_DAYS)].sort()[1]!);
  const start = q.start_date ?? addDays(end, -CONTINUOUS_DEFAULT_DAYS);
  const named = (['start_date', 'end_date'] as const).filter((p) => q[p] !== undefined);
  if (start > end) throw invalidParameters(named.map((parameter) => ({ parameter, message: 'start_date must not be after end_date' })));
  if (daysBetween(start, end) > CONTINUOUS_MAX_DAYS) {
    throw invalidParameters(named.map((parameter) => ({ parameter, message: `the range is at most ${CONTINUOUS_MAX_DAYS} days` })));
  }
  const repo = ctx.deps.repositories.futuresBars;
  const data = await rootData(repo, symbol.root, start, end);
  const segments: Segment[] = continuousMapping(symbol, start, end, data.figures).map((i) => ({
    ...i,
    stored: data.stored.get(i.contract.contract_month),
  }));
  const rolls = await rollPrices(repo, data, segments);
  return {
    data: segments.map((s, k): MappingEntry => {
      const roll = k === 0 ? null : rolls[k - 1]!;
      const both = roll !== null && roll.previous.price !== null && roll.next.price !== null;
      return {
        symbol: symbol.symbol,
        rule: symbol.rule,
        rank: symbol.rank,
        start_date: s.startDate,
        end_date: s.endDate,
        start_time: globexSpan(s.startDate)!.start,
        end_time: globexSpan(s.endDate)!.end,
        contract_symbol: s.contract.symbol,
        globex_symbol: s.contract.globex_symbol,
        contract_month: s.contract.contract_month,
        last_trade_date: s.contract.last_trade_date,
        roll_date: s.contract.roll_date,
        basis: {
          figure_date: s.basis!.figureDate,
          fallback: s.basis!.fallback,
          figures: s.basis!.figures.flatMap((f) => (f.value === null ? [] : [{ contract_symbol: f.contract.symbol, value: f.value }])),
        },
        roll:
          roll === null
            ? null
            : {
                price_date: roll.priceDate,
                previous_contract_symbol: segments[k - 1]!.contract.symbol,
                previous_price: roll.previous.price,
                previous_price_source: roll.previous.source,
                price: roll.next.price,
                price_source: roll.next.source,
                difference: both ? roll.next.price! - roll.previous.price! : null,
                ratio: both && roll.previous.price !== 0 ? roll.next.price! / roll.previous.price! : null,
              },
      };
    }),
    source: 'derived',
  };
}
