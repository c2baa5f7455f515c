/**
 * The valuation window and instant of a request, and the chain of some expirations at an instant,
 * read one way for every route that values contracts (the books of skew, levels and heat map,
 * books.ts; drift and open interest), so that one minute gives one chain minute and one underlying
 * price. The rules are analytics/volatility/valuation.ts's; the contract states them on the skew
 * route.
 */
import { CalendarRangeError } from '../analytics/calendar.js';
import { hasOvernightSession } from '../analytics/iv-samples.js';
import { thousandthsToStrike } from '../analytics/occ.js';
import { defaultTradingDate, rootsOf, type Span } from '../analytics/print-filters.js';
import { MS_PER_YEAR } from '../analytics/settlement.js';
import type { ExpirationChain, ExpirationSurface } from '../analytics/volatility/surface.js';
import {
  CHAIN_MAX_AGE_MS,
  chainMinute,
  chainValuationTime,
  dataInstant,
  dataMinutesWindow,
  underlyingStale,
  valuationInstant,
  volatilitySession,
  type ChosenExpiration,
  type UnderlyingSource,
  type VolatilitySession,
} from '../analytics/volatility/valuation.js';
import type { ChainQuoteRow, UnderlyingPrice } from '../db/chain.js';
import type { components } from '../../generated/openapi.js';
import { noData } from '../errors.js';

/** How far back the underlying's last bar is looked for: valuation.ts UNDERLYING_LOOKBACK_MS. */
export { UNDERLYING_LOOKBACK_MS } from '../analytics/volatility/valuation.js';
import { withDefault, type ServiceContext } from './types.js';

export type Valuation = components['schemas']['Valuation'];

/** Where a request values an underlying's chain: its roots in the session, the session's window and the instant. */
export interface ValuationWindow {
  symbol: string;
  tradingDate: string;
  roots: string[];
  span: Span;
  instant: number;
}

/**
 * The window of an underlying's session on a trading date (default as everywhere) and the instant
 * in it (valuation.ts); 422 for an overnight session of a root without one, a date that does not
 * trade, or a session that has not begun.
 */
export function valuationWindow(
  requested: number,
  underlyingSymbol: string,
  session: VolatilitySession,
  date: string | undefined,
): ValuationWindow {
  const symbol = underlyingSymbol.toUpperCase();
  const tradingDate = date ?? tradingDateAt(requested, session);
  const roots = rootsOf([symbol]).filter((r) => session === 'rth' || hasOvernightSession(r));
  if (roots.length === 0) throw noData(`${symbol} has no overnight session: its options trade only in the regular session.`);
  const span = volatilitySession(tradingDate, roots[0] as string, session);
  if (span === null) throw noData(`${tradingDate} is not a trading date.`);
  const instant = valuationInstant(span, requested);
  if (instant === null) throw noData(`The ${session} session of ${tradingDate} has not begun.`);
  return { symbol, tradingDate, roots, span, instant };
}

/**
 * The trading date of a requested instant (its session's, else the last completed one's), as
 * `date` defaults; 422 for an instant whose session the exchange calendar does not hold (`at` in
 * the first days of 2000).
 */
export function tradingDateAt(requested: number, session: VolatilitySession): string {
  try {
    return defaultTradingDate(requested, session);
  } catch (error) {
    if (error instanceof CalendarRangeError)
      throw noData(
        `No ${session} session of the exchange calendar (2000 through 2035) holds the instant ${new Date(requested).toISOString()}.`,
      );
    throw error;
  }
}

/** What a valuing request says of its session and instant (the contract's underlying_symbol, date, session and at). */
export interface InstantQuery {
  underlying_symbol: string;
  date?: string;
  session?: VolatilitySession;
  at?: number;
}

/** The instant a request asks about: `at` (an instant after the service's clock is the clock's), else its arrival. */
export function requestedInstant(ctx: ServiceContext, at: number | undefined): number {
  return at === undefined ? ctx.now : Math.min(at, ctx.now);
}

/**
 * The request's valuation window (valuationWindow at its requested instant) with the instant of a
 * session in progress moved back to the end of the newest minute of data ended by it
 * (valuation.ts dataInstant): one probe of quote_minutes.
 */
export async function valuationAt(ctx: ServiceContext, q: InstantQuery): Promise<ValuationWindow> {
  const window = valuationWindow(requestedInstant(ctx, q.at), q.underlying_symbol, withDefault(q.session, 'session'), q.date);
  return { ...window, instant: await instantOfData(ctx, window.tradingDate, window.span, window.instant) };
}

/**
 * The instant a session is valued at for a requested instant in it (valuation.ts dataInstant): its
 * close once ended, else the end of the newest minute of data ended by the requested instant.
 */
export async function instantOfData(ctx: ServiceContext, tradingDate: string, span: Span, requested: number): Promise<number> {
  if (requested >= span.end) return span.end;
  const minutes = dataMinutesWindow(span, requested);
  return dataInstant(span, requested, await ctx.deps.repositories.chain.newestQuoteMinute(tradingDate, minutes.from, minutes.to));
}

/**
 * The chain of the expirations at one minute (valuation.ts chainMinute): every contract's newest
 * sample up to the instant, then those sampled after the chain's minute read again up to its end.
 */
export async function chainAt(
  ctx: ServiceContext,
  chosen: readonly ChosenExpiration[],
  tradingDate: string,
  span: Span,
  instant: number,
): Promise<ChainQuoteRow[]> {
  const sessionStart = span.start;
  // Before the instant only: the minute starting at it is after it (at the close, the curb's first quotes).
  const newest = await ctx.deps.repositories.chain.chainQuotesAt(chosen, tradingDate, {
    from: Math.max(sessionStart, instant - CHAIN_MAX_AGE_MS),
    to: Math.min(instant, span.end) - 1,
  });
  const minute = chainMinute(newest.map((r) => r.minute));
  if (minute === null) return [];
  const end = chainValuationTime(minute, instant);
  const later = newest.filter((r) => r.minute > minute).map((r) => r.contractId);
  const again = new Map(
    (
      await ctx.deps.repositories.chain.chainQuotesAt(
        chosen,
        tradingDate,
        { from: Math.max(sessionStart, minute - CHAIN_MAX_AGE_MS), to: end - 1 },
        later,
      )
    ).map((r) => [r.contractId, r]),
  );
  return newest.flatMap((r) =>
    r.minute <= minute
      ? r.minute >= minute - CHAIN_MAX_AGE_MS
        ? [r]
        : []
      : again.has(r.contractId)
        ? [again.get(r.contractId) as ChainQuoteRow]
        : [],
  );
}

/** The chain of one chosen expiration: its quotes (strikes from thousandths) and years to settlement at the instant. */
export function expirationChain(e: ChosenExpiration, rows: readonly ChainQuoteRow[], instant: number): ExpirationChain {
  return {
    time: (e.settlement - instant) / MS_PER_YEAR,
    quotes: rows.map((r) => ({ strike: thousandthsToStrike(r.strikeThousandths), type: r.contractType, bid: r.bid, ask: r.ask })),
  };
}

/** A chain read at the instant and valued: the time, underlying price, rate and surface (one per chosen expiration, in order). */
export interface ValuedChain {
  rows: ChainQuoteRow[];
  /** The end of the chain's minute, not after the instant; the instant itself without a chain. */
  valuedAt: number;
  price: UnderlyingPrice | null;
  /** The instant the price stands for and what it is (valuation.ts underlyingPriceInstant). */
  priceRead: { at: number; source: UnderlyingSource };
  rate: number;
  surface: readonly ExpirationSurface[];
}

/** The chain's rows of one chosen expiration. */
export function rowsOf(rows: readonly ChainQuoteRow[], e: ChosenExpiration): ChainQuoteRow[] {
  return rows.filter((r) => r.root === e.root && r.dateOfExpiry === e.dateOfExpiry);
}

/**
 * The response's valuation object of a valued chain: the underlying's price with its source, stale
 * when its bar started more than 15 minutes before the instant it stands for (the valuation time,
 * or an index's regular close).
 */
export function valuationObject(v: ValuedChain, openInterestDate: string | null, pendingInstant: number | null): Valuation {
  return {
    chain_timestamp: v.rows.reduce<number | null>((m, r) => (m === null || r.quoteTs > m ? r.quoteTs : m), null),
    open_interest_date: openInterestDate,
    pending_instant: pendingInstant,
    risk_free_rate: v.rate,
    timestamp: v.valuedAt,
    underlying_price: v.price?.price ?? null,
    underlying_source: v.price === null ? null : v.priceRead.source,
    underlying_stale: underlyingStale(v.price?.barStart ?? null, v.priceRead.at),
    underlying_timestamp: v.price?.barStart ?? null,
  };
}
