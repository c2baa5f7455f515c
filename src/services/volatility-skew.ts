/**
 * Volatility skew of an underlying at an instant: the chain of each expiration the request covers,
 * read at the valuation instant through the chain repository (db/chain.ts), valued on a surface (analytics/
 * volatility: parity forward, quote volatilities, SVI smiles with their arbitrage checks) and
 * reported per expiration with its delta measures and points. The rules of the session, instant,
 * expirations and freshness are analytics/volatility/valuation.ts's (read and fitted by
 * chain-valuation.ts, as the positioning routes do); the contract states them.
 */
import { expirationSkew } from '../analytics/volatility/skew.js';
import { daysBetween, skewExpirations, type VolatilitySession } from '../analytics/volatility/valuation.js';
import type { ExpirationSurface } from '../analytics/volatility/surface.js';
import { noData } from '../errors.js';
import { bookAnswer, type BookAnswer } from './books.js';
import { valuationObject, type ValuedChain } from './chain-valuation.js';
import { explainMissingPrints } from './session-data.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type Skew = DataOf<'getVolatilitySkew'>;

/** The skew: a view of the family's book at the request's minute (books.ts), kept per process with it. */
export async function getVolatilitySkew(ctx: ServiceContext, q: QueryOf<'getVolatilitySkew'>): Promise<Result<'getVolatilitySkew'>> {
  return await bookAnswer(ctx, 'getVolatilitySkew', q, async (at) => await volatilitySkew(ctx, q, at), 'opra');
}

/** The skew answer of the request on its book (exported for the test of stored against fresh books). */
export async function volatilitySkew(ctx: ServiceContext, q: QueryOf<'getVolatilitySkew'>, at: BookAnswer): Promise<Skew> {
  const session: VolatilitySession = withDefault(q.session, 'session');
  const { book, window } = at;
  const { symbol, tradingDate, instant } = window;

  const named = q.date_of_expiry !== undefined ? [q.date_of_expiry] : (q.expirations ?? null);
  const chosen = skewExpirations(book.listed, instant, named);
  if (chosen.length === 0) {
    throw noData(
      named
        ? `No named expiration of ${symbol} is listed and unsettled at the valuation instant.`
        : `No expiration of ${symbol} is listed after ${tradingDate}.`,
    );
  }
  const rows = chosen.flatMap((e) => book.dates.get(e.dateOfExpiry)?.chain ?? []);
  if (rows.length === 0) {
    await explainMissingPrints(ctx, tradingDate);
    throw noData(`No quote of ${symbol}'s chain in the ${session} session of ${tradingDate} up to the valuation instant.`);
  }
  const surface = chosen.map((e) => book.dates.get(e.dateOfExpiry)?.surface as ExpirationSurface);
  const valued: ValuedChain = { rows, valuedAt: book.valuedAt, price: book.price, priceRead: book.priceRead, rate: book.rate, surface };

  const data: Skew = {
    expirations: chosen.map((e, i) => {
      const { fit, forward, points, ...measures } = expirationSkew(surface[i]!);
      return {
        ...measures,
        date_of_expiry: e.dateOfExpiry,
        days_to_expiry: daysBetween(tradingDate, e.dateOfExpiry),
        fit,
        forward,
        points,
        root: e.root,
      };
    }),
    roots: [...new Set(chosen.map((e) => e.root))].sort(),
    session,
    trading_date: tradingDate,
    underlying_symbol: symbol,
    valuation: valuationObject(valued, null, at.pendingInstant),
  };
  return data;
}
