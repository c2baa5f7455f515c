/**
 * The cash index routes (GET /v1/indices, /v1/indices/bars, /v1/indices/snapshot): the indices of
 * analytics/indices.ts with what the store holds of them, their bars aggregated from the stored
 * one-minute values in the database (db/index-values.ts), and the quote board at an instant. The
 * contract states the rules; analytics/indices.ts holds the calendar arithmetic.
 */
import {
  calculationWindow,
  changeFrom,
  indexBarRange,
  indexOf,
  INDEX_BUCKET_MS,
  INDICES,
  lastKnownMinute,
  optionRootsOn,
  quoteSession,
  windowsAfter,
  windowsIn,
  type IndexDefinition,
} from '../analytics/indices.js';
import { invalidParameters, noData } from '../errors.js';
import { openPaging, takePage } from './paging.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type ListEntry = DataOf<'listIndices'>[number];
type Snapshot = DataOf<'getIndexSnapshot'>[number];

const KNOWN = INDICES.map((i) => i.symbol).join(', ');

/**
 * The index a symbol names; otherwise 422 no_data naming the indices, as the spec's other routes
 * answer an underlying they hold nothing of (the symbol is well formed; this service has no such index).
 */
function knownIndex(symbol: string): IndexDefinition {
  const index = indexOf(symbol);
  if (index === null) throw noData(`${symbol.toUpperCase()} is not an index of this service (the indices: ${KNOWN}).`);
  return index;
}

export async function listIndices(ctx: ServiceContext): Promise<Result<'listIndices'>> {
  const { indices } = ctx.deps.repositories;
  const [coverage, origins] = await Promise.all([indices.indexCoverage(INDICES.map((i) => i.symbol)), indices.barFileOrigins()]);
  const stored: ListEntry['source'] = origins.simulated ? (origins.loaded ? 'mixed' : 'simulated') : origins.loaded ? 'files' : 'none';
  const session = quoteSession(ctx.now);
  // The service's clock lies in the exchange calendar (2000 to 2035) wherever the service runs.
  if (session === null) throw new Error(`the service clock ${ctx.now} is outside the exchange calendar`);
  const data = INDICES.map((index, i): ListEntry => {
    const range = coverage[i];
    const has = range !== undefined && range.last !== null;
    return {
      symbol: index.symbol,
      name: index.name,
      calculated_by: index.calculatedBy,
      computed_here: false,
      source: has ? stored : 'none',
      vendor_tickers: { massive: index.massiveTicker },
      currency: 'USD',
      calculation_hours: { time_zone: 'America/New_York', open: '09:30', close: '16:00', early_close: '13:00' },
      session: {
        trading_date: session.tradingDate,
        start_time: session.window.start,
        end_time: session.window.end,
        status: session.window.status === 'open' ? 'regular' : 'early_close',
        calculating: session.calculating,
      },
      option_roots: optionRootsOn(index.symbol),
      first_timestamp: range?.first ?? null,
      last_timestamp: range?.last ?? null,
      computed_volatility: {
        path: '/v1/indices/volatility',
        bars_path: '/v1/indices/volatility/bars',
        underlying_symbol: index.symbol,
        tenors: ['1d', '9d', '30d'],
        computed_here: true,
        published_index: false,
        label: `${index.symbol} volatility index: a model computed by this service by the VIX white paper's method, not Cboe's published VIX`,
      },
    };
  });
  return { data, source: 'derived' };
}

export async function listIndexBars(ctx: ServiceContext, q: QueryOf<'listIndexBars'>): Promise<Result<'listIndexBars'>> {
  const index = knownIndex(q.symbol);
  const interval = withDefault(q.interval, 'interval');
  const range = indexBarRange({ interval, date: q.date, startTime: q.start_time, endTime: q.end_time, now: ctx.now });
  if (range === null) throw noData(`${q.date ?? 'The date'} is not a trading date: ${index.symbol} is not calculated on it.`);
  // The contract's range_at_most_days rules refuse a bad range before the service runs; this guards a caller that skipped them.
  if (!(range.start < range.end)) {
    throw invalidParameters(
      (['start_time', 'end_time'] as const)
        .filter((p) => q[p] !== undefined)
        .map((parameter) => ({ parameter, message: 'start_time must be before end_time' })),
    );
  }
  const paging = openPaging<number>(ctx, q);
  const windows = windowsAfter(windowsIn(range), interval, paging.after);
  const bucketMs = interval === '1d' ? null : INDEX_BUCKET_MS[interval];
  const rows = await ctx.deps.repositories.indices.indexBars(index.symbol, windows, bucketMs, paging.limit + 1);
  if (rows.length === 0 && paging.after === null) throw noData(`No value of ${index.symbol} is stored in the requested range.`);
  const { page, next } = takePage(rows, paging.limit, (r) => r.bucket);
  return {
    data: page.map((r) => ({
      timestamp: r.bucket,
      trading_date: r.tradingDate,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: null,
      minutes: r.minutes,
      close_timestamp: r.lastMinute,
    })),
    source: 'derived',
    pagination: paging.pagination(page.length, next),
  };
}

export async function getIndexSnapshot(ctx: ServiceContext, q: QueryOf<'getIndexSnapshot'>): Promise<Result<'getIndexSnapshot'>> {
  const unknown = q.symbols.filter((s) => indexOf(s) === null).map((s) => s.toUpperCase());
  if (unknown.length > 0) throw noData(`${unknown.join(', ')}: not an index of this service (the indices: ${KNOWN}).`);
  const asked = q.symbols.map((s) => knownIndex(s));
  const instant = Math.min(q.at ?? ctx.now, ctx.now);
  const last = lastKnownMinute(instant);
  const session = quoteSession(instant);
  if (session === null)
    throw noData('The instant has no session of the exchange calendar (2000-01-03 through 2035-12-31) with a previous one.');
  const previous = calculationWindow(session.previousDate)!;
  // The session's minutes ended by the instant, and the previous date's whole window: two day bars in one read.
  const windows = [
    { tradingDate: previous.tradingDate, start: previous.start, end: previous.end, open: previous.start },
    {
      tradingDate: session.tradingDate,
      start: session.window.start,
      end: Math.min(session.window.end, last + 1),
      open: session.window.start,
    },
  ].filter((w) => w.start < w.end);
  const { indices } = ctx.deps.repositories;
  const data = await Promise.all(
    asked.map(async (index): Promise<Snapshot> => {
      const [value, days] = await Promise.all([
        indices.indexValueAt(index.symbol, last),
        indices.indexBars(index.symbol, windows, null, 2),
      ]);
      const today = days.find((d) => d.tradingDate === session.tradingDate) ?? null;
      const before = days.find((d) => d.tradingDate === session.previousDate) ?? null;
      const { change, changePercent } = changeFrom(value?.close ?? null, before?.close ?? null);
      return {
        symbol: index.symbol,
        value: value?.close ?? null,
        timestamp: value?.ts ?? null,
        trading_date: session.tradingDate,
        open: today?.open ?? null,
        high: today?.high ?? null,
        low: today?.low ?? null,
        previous_close: before?.close ?? null,
        previous_close_date: session.previousDate,
        change,
        change_percent: changePercent,
        calculating: session.calculating,
      };
    }),
  );
  if (data.every((d) => d.value === null))
    throw noData(`No value of ${q.symbols.join(', ').toUpperCase()} is stored at or before the instant.`);
  return { data, source: 'derived' };
}
