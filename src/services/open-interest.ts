/**
 * Open interest of an underlying by strike or by expiration: the listed contracts of the
 * expirations the selectors keep (analytics/positioning/selection.ts), each with the newest open
 * interest published for the trading date (db/positioning.ts), narrowed by the strike selectors
 * around the underlying price, summed. Open interest is the previous close's figure published each
 * morning: a row stored for trading date D counts the positions at the close of the trading date
 * before D, which open_interest_date names.
 */
import { previousTradingDay } from '../analytics/calendar.js';
import { thousandthsToStrike } from '../analytics/occ.js';
import { rootsOf } from '../analytics/print-filters.js';
import {
  openInterestRows,
  putCallRatio,
  selectExpirationDates,
  selectStrikes,
  strikesNeedPrice,
} from '../analytics/positioning/selection.js';
import { volatilitySession } from '../analytics/volatility/valuation.js';
import { underlyingPriceAt } from '../db/chain.js';
import type { ListedContractRow } from '../db/positioning.js';
import { noData } from '../errors.js';
import { listedOf } from './listed-families.js';
import { UNDERLYING_LOOKBACK_MS } from '../analytics/volatility/valuation.js';
import { instantOfData, requestedInstant, tradingDateAt } from './chain-valuation.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type OpenInterest = DataOf<'getOpenInterest'>;

/** The newest open interest date among the contracts (the one a response uses); null without any. */
export function storedOpenInterestDate(contracts: readonly ListedContractRow[]): string | null {
  let newest: string | null = null;
  for (const c of contracts)
    if (c.openInterestDate !== null && (newest === null || c.openInterestDate > newest)) newest = c.openInterestDate;
  return newest;
}

/** The date of the close a stored open interest date's figures count (the trading date before it). */
export function openInterestCloseDate(stored: string | null): string | null {
  return stored === null ? null : previousTradingDay(stored);
}

export async function getOpenInterest(ctx: ServiceContext, q: QueryOf<'getOpenInterest'>): Promise<Result<'getOpenInterest'>> {
  const symbol = q.underlying_symbol.toUpperCase();
  const groupBy = withDefault(q.group_by, 'group_by');
  const requested = requestedInstant(ctx, q.at);
  const tradingDate = q.date ?? tradingDateAt(requested, 'rth');
  const roots = rootsOf([symbol]);
  const span = volatilitySession(tradingDate, roots[0] as string, 'rth');
  if (span === null) throw noData(`${tradingDate} is not a trading date.`);

  // The family's listed expirations and contracts with their open interest, as the books read them
  // (books.ts listedOf: kept per process while the change log shows no write that can change them).
  const family = await listedOf(ctx, roots, tradingDate);
  const dates = new Set(
    selectExpirationDates(
      family.listed.map((e) => e.dateOfExpiry),
      tradingDate,
      q,
    ),
  );
  const contracts = family.contracts.filter((c) => dates.has(c.dateOfExpiry));
  const stored = storedOpenInterestDate(contracts);
  if (stored === null) throw noData(`No open interest of ${symbol} is published for ${tradingDate} in the expirations selected.`);
  const withOpenInterest = contracts.filter((c) => c.openInterestDate === stored);

  // The underlying's price when the regular session is valued (chain-valuation.ts instantOfData:
  // its close once ended, the end of the newest minute of data while it runs; before the open, the
  // last bar before the requested instant).
  const at = requested < span.start ? requested : await instantOfData(ctx, tradingDate, span, requested);
  const price = await underlyingPriceAt(ctx.deps.reads, (withOpenInterest[0] as ListedContractRow).underlying, at, UNDERLYING_LOOKBACK_MS);
  if (strikesNeedPrice(q) && price === null)
    throw noData(`No price of ${symbol}'s underlying to centre strikes_around or strike_percent_window on.`);
  const strikes = selectStrikes(
    withOpenInterest.map((c) => thousandthsToStrike(c.strikeThousandths)),
    price?.price ?? null,
    q,
  );
  const kept = withOpenInterest
    .map((c) => ({
      root: c.root,
      dateOfExpiry: c.dateOfExpiry,
      strike: thousandthsToStrike(c.strikeThousandths),
      type: c.contractType,
      openInterest: c.openInterest as number,
    }))
    .filter((c) => strikes.has(c.strike));
  // An empty selection is no data (spec: 422 when the request is valid but nothing exists for it),
  // as an empty expiration selection already is above.
  if (kept.length === 0) throw noData(`No contract of ${symbol} on ${tradingDate} lies within the strikes selected.`);
  const { rows, call, put } = openInterestRows(kept, groupBy);

  const data: OpenInterest = {
    group_by: groupBy,
    open_interest_date: openInterestCloseDate(stored) as string,
    roots: [...new Set(kept.map((c) => c.root))].sort(),
    rows: rows.map((r) => ({
      ...(groupBy === 'strike' ? { strike: r.key as number } : { date_of_expiry: r.key as string }),
      call_open_interest: r.call,
      put_open_interest: r.put,
      total_open_interest: r.call + r.put,
    })),
    totals: { call, put, put_call_ratio: putCallRatio(call, put) },
    trading_date: tradingDate,
    underlying_price: price?.price ?? null,
    underlying_symbol: symbol,
  };
  return { data, source: 'opra' };
}
