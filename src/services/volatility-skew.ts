/**
 * Volatility skew of an underlying at an instant: the chain of each expiration the request covers,
 * read from the store at the valuation instant (db/chain.ts), valued on a surface (analytics/
 * volatility: parity forward, quote volatilities, SVI smiles with their arbitrage checks) and
 * reported per expiration with its delta measures and points. The rules of the session, instant,
 * expirations and freshness are analytics/volatility/valuation.ts's; the contract states them.
 */
import { hasOvernightSession } from '../analytics/iv-samples.js';
import { thousandthsToStrike } from '../analytics/occ.js';
import { defaultTradingDate, rootsOf, type Span } from '../analytics/print-filters.js';
import { riskFreeRate } from '../analytics/rates.js';
import { MS_PER_YEAR } from '../analytics/settlement.js';
import { expirationSkew } from '../analytics/volatility/skew.js';
import type { ExpirationChain } from '../analytics/volatility/surface.js';
import {
  CHAIN_MAX_AGE_MS,
  chainMinute,
  chainValuationTime,
  daysBetween,
  skewExpirations,
  underlyingStale,
  valuationInstant,
  volatilitySession,
  type ChosenExpiration,
  type VolatilitySession,
} from '../analytics/volatility/valuation.js';
import { chainQuotesAt, listedExpirations, underlyingPriceAt, type ChainQuoteRow } from '../db/chain.js';
import { noData } from '../errors.js';
import { explainMissingPrints } from './session-data.js';
import { memoizedSurface } from './surface-memo.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

/** How far back the underlying's last bar is looked for (a long weekend's closure). */
const UNDERLYING_LOOKBACK_MS = 5 * 86_400_000;

type Skew = DataOf<'getVolatilitySkew'>;

/**
 * The chain of the expirations at one minute (valuation.ts chainMinute): every contract's newest
 * sample up to the instant, then those sampled after the chain's minute read again up to its end.
 */
async function chainAt(ctx: ServiceContext, chosen: readonly ChosenExpiration[], tradingDate: string, span: Span, instant: number): Promise<ChainQuoteRow[]> {
  const sessionStart = span.start;
  // The close's own minute belongs to the next session (the curb's first quotes).
  const newest = await chainQuotesAt(ctx.deps.db, chosen, tradingDate, { from: Math.max(sessionStart, instant - CHAIN_MAX_AGE_MS), to: Math.min(instant, span.end - 1) });
  const minute = chainMinute(newest.map((r) => r.minute));
  if (minute === null) return [];
  const end = chainValuationTime(minute, instant);
  const later = newest.filter((r) => r.minute > minute).map((r) => r.contractId);
  const again = new Map((await chainQuotesAt(ctx.deps.db, chosen, tradingDate, { from: Math.max(sessionStart, minute - CHAIN_MAX_AGE_MS), to: end - 1 }, later)).map((r) => [r.contractId, r]));
  return newest.flatMap((r) => (r.minute <= minute ? (r.minute >= minute - CHAIN_MAX_AGE_MS ? [r] : []) : (again.has(r.contractId) ? [again.get(r.contractId) as ChainQuoteRow] : [])));
}

/** The chain of one chosen expiration: its quotes (strikes from thousandths) and years to settlement at the instant. */
function expirationChain(e: ChosenExpiration, rows: readonly ChainQuoteRow[], instant: number): ExpirationChain {
  return {
    time: (e.settlement - instant) / MS_PER_YEAR,
    quotes: rows.map((r) => ({ strike: thousandthsToStrike(r.strikeThousandths), type: r.contractType, bid: r.bid, ask: r.ask })),
  };
}

export async function getVolatilitySkew(ctx: ServiceContext, q: QueryOf<'getVolatilitySkew'>): Promise<Result<'getVolatilitySkew'>> {
  const symbol = q.underlying_symbol.toUpperCase();
  const session: VolatilitySession = withDefault(q.session, 'session');
  const tradingDate = q.date ?? defaultTradingDate(ctx.now, session);
  const roots = rootsOf([symbol]).filter((r) => session === 'rth' || hasOvernightSession(r));
  if (roots.length === 0) throw noData(`${symbol} has no overnight session: its options trade only in the regular session.`);
  const span = volatilitySession(tradingDate, roots[0] as string, session);
  if (span === null) throw noData(`${tradingDate} is not a trading date.`);
  const instant = valuationInstant(span, ctx.now);
  if (instant === null) throw noData(`The ${session} session of ${tradingDate} has not begun.`);

  const named = q.date_of_expiry !== undefined ? [q.date_of_expiry] : (q.expirations ?? null);
  const chosen = skewExpirations(await listedExpirations(ctx.deps.db, roots, tradingDate), instant, named);
  if (chosen.length === 0) {
    throw noData(named ? `No named expiration of ${symbol} is listed and unsettled at the valuation instant.` : `No expiration of ${symbol} is listed after ${tradingDate}.`);
  }
  const rows = await chainAt(ctx, chosen, tradingDate, span, instant);
  if (rows.length === 0) {
    await explainMissingPrints(ctx, tradingDate);
    throw noData(`No quote of ${symbol}'s chain in the ${session} session of ${tradingDate} up to the valuation instant.`);
  }
  const valuedAt = chainValuationTime(chainMinute(rows.map((r) => r.minute)) as number, instant);

  const underlying = (rows[0] as ChainQuoteRow).underlying;
  const price = await underlyingPriceAt(ctx.deps.db, underlying, valuedAt, UNDERLYING_LOOKBACK_MS);
  const rate = riskFreeRate(tradingDate);
  const rowsOf = (e: ChosenExpiration): ChainQuoteRow[] => rows.filter((r) => r.root === e.root && r.dateOfExpiry === e.dateOfExpiry);
  const surface = memoizedSurface({ spot: price?.price ?? null, rate, expirations: chosen.map((e) => expirationChain(e, rowsOf(e), valuedAt)) });

  const data: Skew = {
    expirations: chosen.map((e, i) => {
      const { fit, forward, points, ...measures } = expirationSkew(surface[i]!);
      return { ...measures, date_of_expiry: e.dateOfExpiry, days_to_expiry: daysBetween(tradingDate, e.dateOfExpiry), fit, forward, points, root: e.root };
    }),
    roots: [...new Set(chosen.map((e) => e.root))].sort(),
    session,
    trading_date: tradingDate,
    underlying_symbol: symbol,
    valuation: {
      chain_timestamp: Math.max(...rows.map((r) => r.quoteTs)),
      open_interest_date: null,
      risk_free_rate: rate,
      timestamp: valuedAt,
      underlying_price: price?.price ?? null,
      underlying_stale: underlyingStale(price?.barStart ?? null, valuedAt),
      underlying_timestamp: price?.barStart ?? null,
    },
  };
  return { data, source: 'opra' };
}
