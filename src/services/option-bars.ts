/**
 * Option bars (GET /v1/options/bars): one contract's OHLC, VWAP, volume, trades and premium, or an
 * underlying's options in aggregate (volume, trades, premium), per bucket of a range that may span
 * several trading dates. The range and the bars' starts are analytics/option-bars.ts; the prints
 * counted (the selected sessions, not cancelled, complex orders only when asked) and their sums are
 * read by db/option-bars.ts. Archived dates are not loaded for a range of several dates: the answer
 * says how many it left out.
 */
import { barDates, barRange, BAR_INTERVAL_MS, type BarDate } from '../analytics/option-bars.js';
import { SESSIONS_OF, rootsOf } from '../analytics/print-filters.js';
import type { BarFilter, BarPosition, BarRow } from '../db/option-bars.js';
import { invalidParameters, noData } from '../errors.js';
import { openPaging, takePage } from './paging.js';
import { explainMissingPrints } from './session-data.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type Query = QueryOf<'listOptionBars'>;

/** An OCC symbol without padding (SPY261120C00577000) as the contracts table holds it: the root padded to six characters, upper case. */
export function paddedOptionSymbol(symbol: string): string {
  const upper = symbol.toUpperCase();
  return upper.slice(0, -15).padEnd(6, ' ') + upper.slice(-15);
}

/** The prints a query is of: one listed contract, or the roots of an underlying (422 for a symbol not listed). */
async function subjectOf(ctx: ServiceContext, q: Query): Promise<BarFilter['of']> {
  if (q.option_symbol === undefined) return { roots: rootsOf([q.underlying_symbol ?? '']) };
  const symbol = paddedOptionSymbol(q.option_symbol);
  const contractId = await ctx.deps.repositories.references.contractIdOfSymbol(symbol);
  if (contractId === null) throw noData(`No listed contract has the symbol ${symbol.replace(/ +/, ' ')}.`);
  return { contractId };
}

function barOf(r: BarRow, dates: ReadonlyMap<string, BarDate>): DataOf<'listOptionBars'>[number] {
  return {
    timestamp: r.bucket === 0 ? (dates.get(r.tradingDate)?.sessionStart ?? 0) : r.bucket,
    trading_date: r.tradingDate,
    open: r.open,
    high: r.high,
    low: r.low,
    close: r.close,
    vwap: r.vwap,
    volume: r.volume,
    trades: r.trades,
    premium: r.premium,
  };
}

export async function listOptionBars(ctx: ServiceContext, q: Query): Promise<Result<'listOptionBars'>> {
  const interval = withDefault(q.interval, 'interval');
  const session = withDefault(q.session, 'session');
  const range = barRange({ interval, session, date: q.date, startTime: q.start_time, endTime: q.end_time, now: ctx.now });
  if (range === null) throw noData(`${q.date ?? 'The date'} is not a trading date.`);
  // The contract's range_at_most_days rules refuse a bad range before the service runs; this guards a caller that skipped them.
  if (!(range.start < range.end)) {
    throw invalidParameters(
      (['start_time', 'end_time'] as const)
        .filter((p) => q[p] !== undefined)
        .map((parameter) => ({ parameter, message: 'start_time must be before end_time' })),
    );
  }
  const paging = openPaging<BarPosition>(ctx, q);
  const of = await subjectOf(ctx, q);
  const dates = barDates(range, session);
  const archived = new Set(await ctx.deps.repositories.references.archivedDates(dates.map((d) => d.tradingDate)));
  // One date is loaded back as the trades route loads it (503 data_pending meanwhile); several are not.
  const [only] = dates;
  if (dates.length === 1 && only !== undefined && archived.has(only.tradingDate)) await explainMissingPrints(ctx, only.tradingDate);
  const read = dates.filter((d) => !archived.has(d.tradingDate));
  const rows = await ctx.deps.repositories.references.optionBars(
    {
      dates: read.map((d) => d.tradingDate),
      from: range.start,
      to: range.end,
      sessions: SESSIONS_OF[session],
      of,
      includeComplex: withDefault(q.include_complex, 'include_complex'),
      intervalMs: interval === '1d' ? null : BAR_INTERVAL_MS[interval],
    },
    paging.after,
    paging.limit + 1,
  );
  if (rows.length === 0 && paging.after === null && archived.size === 0) throw noData('No print counts in the requested range.');
  const { page, next } = takePage(rows, paging.limit, (r): BarPosition => ({ t: r.bucket, d: r.tradingDate }));
  const byDate = new Map(dates.map((d) => [d.tradingDate, d]));
  const left = [...archived].sort();
  return {
    data: page.map((r) => barOf(r, byDate)),
    source: 'opra',
    coverage:
      left.length === 0
        ? undefined
        : {
            complete: false,
            reason: `${left.length} of the ${dates.length} trading dates of the range are archived and not read (${left[0]}${left.length > 1 ? ` to ${left.at(-1)}` : ''}); ask for one of them with date to load it.`,
          },
    pagination: paging.pagination(page.length, next),
  };
}
