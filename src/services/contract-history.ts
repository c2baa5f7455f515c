/**
 * Single-contract history: the last trade of a contract at an instant, and the contract's implied
 * volatility over time (one sample per bucket, the last quote of the bucket valued against the
 * underlying's bar; analytics/iv-samples.ts). Instants and sessions outside the regular session
 * need the overnight entitlement, as every overnight answer does.
 */
import {
  bucketEnd,
  bucketsMeeting,
  hasOvernightSession,
  type Bar,
  INTERVAL_MS,
  ivSample,
  lastQuotePerBucket,
  parityCarries,
  resolveIvRange,
  sampleWindows,
} from '../analytics/iv-samples.js';
import { thousandthsToStrike, strikeToThousandths } from '../analytics/occ.js';
import {
  defaultTradingDate,
  inRegularSession,
  SESSIONS_OF,
  SESSIONS_WITHOUT_OVERNIGHT,
  type SessionChoice,
} from '../analytics/print-filters.js';
import type { ChainQuote } from '../analytics/volatility/quotes.js';
import { settlementInstant } from '../analytics/settlement.js';
import { UNDERLYING_LOOKBACK_MS, underlyingPriceInstant } from '../analytics/volatility/valuation.js';
import { underlyingPriceAt } from '../db/chain.js';
import { expirationQuotesAt, quoteSamplesIn } from '../db/contract-history.js';
import { underlyingBarsBetween } from '../db/underlying-bars.js';
import { findContract, lastTradeAt, type ContractRecord } from '../db/trades.js';
import { ApiError, invalidParameters, noData } from '../errors.js';
import { openPaging } from './paging.js';
import { accountOf, withDefault, type QueryOf, type Result, type ServiceContext } from './types.js';

/** The strike in thousandths; one that rounds below 0.001 (5e-324 passes the schema's bounds) is 400. */
function strikeThousandthsOf(strike: number): number {
  try {
    return strikeToThousandths(strike);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw invalidParameters([{ parameter: 'strike', message: 'must be at least 0.001 with at most three decimals' }]);
  }
}

/** The listed contract a query names, or 422. */
async function namedContract(
  ctx: ServiceContext,
  q: Pick<QueryOf<'getContractTradeAtTime'>, 'underlying_symbol' | 'date_of_expiry' | 'contract_type' | 'strike'>,
): Promise<ContractRecord> {
  const root = q.underlying_symbol.toUpperCase();
  const contract = await findContract(ctx.deps.reads, {
    root,
    dateOfExpiry: q.date_of_expiry,
    contractType: q.contract_type,
    strikeThousandths: strikeThousandthsOf(q.strike),
  });
  if (!contract) throw noData(`No ${root} ${q.contract_type} of strike ${q.strike} expiring ${q.date_of_expiry} is listed.`);
  return contract;
}

/**
 * A print's price per contract in dollars: the price per share times the contract's multiplier,
 * rounded to a millionth of a dollar, which clears binary noise (1.23 x 100 is 123.00000000000001)
 * and keeps a sub-cent price exact.
 */
function pricePerContract(pricePerShare: number, multiplier: number): number {
  return Math.round(pricePerShare * multiplier * 1e6) / 1e6;
}

export async function getContractTradeAtTime(
  ctx: ServiceContext,
  q: QueryOf<'getContractTradeAtTime'>,
): Promise<Result<'getContractTradeAtTime'>> {
  const overnight = accountOf(ctx).overnight;
  if (!overnight && !inRegularSession(q.timestamp)) {
    throw new ApiError(
      403,
      'forbidden',
      'Instants outside a regular session (09:30 to 16:15 ET of a trading date, 13:15 on an early close) need the Pro plan or the overnight entitlement.',
    );
  }
  const contract = await namedContract(ctx, q);
  // Without the entitlement, overnight prints stay out of the answer too.
  const trade = await lastTradeAt(ctx.deps.reads, contract.id, q.timestamp, { overnight });
  return {
    data: {
      contract_type: contract.contractType,
      date_of_expiry: contract.dateOfExpiry,
      option_symbol: contract.optionSymbol,
      requested_timestamp: q.timestamp,
      // Without the entitlement an overnight trade after the one served may exist: the answer names what it searched.
      sessions_searched: [...(overnight ? SESSIONS_OF.all : SESSIONS_WITHOUT_OVERNIGHT)],
      strike: thousandthsToStrike(contract.strikeThousandths),
      underlying_symbol: contract.root,
      trade:
        trade === null
          ? null
          : {
              condition: trade.condition_code,
              exchange: trade.exchange_code,
              extended_conditions: trade.extended_conditions,
              price: pricePerContract(trade.price, contract.multiplier),
              price_per_share: trade.price,
              sequence: trade.sequence,
              size: trade.size,
              timestamp: trade.ts,
            },
    },
    source: 'opra',
  };
}

type IvQuery = { underlying_symbol?: string; session?: SessionChoice; date?: string; start_time?: number; end_time?: number };

function ivRange(q: IvQuery, now: number): ReturnType<typeof resolveIvRange> {
  const session = withDefault(q.session, 'session');
  return resolveIvRange({
    root: (q.underlying_symbol ?? '').toUpperCase(),
    session,
    date: q.date,
    startTime: q.start_time,
    endTime: q.end_time,
    defaultDate: defaultTradingDate(now, session),
  });
}

/** Position of a page of samples: the last bucket served. */
interface SamplePosition {
  b: number;
}

export async function listContractImpliedVolatility(
  ctx: ServiceContext,
  q: QueryOf<'listContractImpliedVolatility'>,
): Promise<Result<'listContractImpliedVolatility'>> {
  const root = q.underlying_symbol.toUpperCase();
  const session = withDefault(q.session, 'session');
  const range = ivRange(q, ctx.now);
  // The contract's range_at_most_days (src/parameters) refuses a bad range before the service runs; this guards a caller that skipped it.
  if (!range.ok) throw invalidParameters(range.problems);
  if (session === 'gth' && !hasOvernightSession(root))
    throw noData(`${root} has no overnight session: its options trade only in the regular session.`);
  const contract = await namedContract(ctx, q);

  const paging = openPaging<SamplePosition>(ctx, q);
  const interval = withDefault(q.interval, 'interval');
  const intervalMs = INTERVAL_MS[interval];
  const windows = sampleWindows(range.from, range.to, root, session);
  const from = paging.after ? Math.max(range.from, bucketEnd(paging.after.b, intervalMs, windows)) : range.from;
  // A bucket holds at most intervalMs / 1 minute samples: this many rows hold limit + 1 buckets.
  const cap = (paging.limit + 1) * (intervalMs / 60_000);
  const rows = await quoteSamplesIn(ctx.deps.reads, contract.id, windows, from, cap);
  let buckets = lastQuotePerBucket(
    rows.map((r) => ({ minute: r.minute, quoteTs: r.quote_ts, bid: r.bid, ask: r.ask })),
    intervalMs,
    windows,
  );
  const capped = rows.length === cap;
  // The last bucket of a capped read may be missing samples: it starts the next page.
  if (capped) buckets = buckets.slice(0, -1);
  const page = buckets.slice(0, paging.limit);
  if (page.length === 0 && paging.after === null)
    throw noData(`No quote of ${contract.optionSymbol.replace(/ +/, ' ')} in the requested range.`);
  const hasMore = (capped || buckets.length > paging.limit) && page.length > 0;

  const first = page[0]?.quote.minute ?? 0;
  const last = page.at(-1)?.quote.minute ?? 0;
  const bars = new Map<number, Bar>(
    (page.length > 0 ? await underlyingBarsBetween(ctx.deps.reads, [contract.underlying], first - 60_000, last) : []).map((b) => [b.ts, b]),
  );
  // An index has no bar outside its regular session: a sample there is valued at its last regular
  // close (valuation.ts underlyingPriceInstant), on the parity forward of its minute.
  const closes = new Map<number, Bar | null>();
  for (const { quote } of page) {
    if (bars.has(quote.minute) || bars.has(quote.minute - 60_000)) continue;
    const read = underlyingPriceInstant(contract.underlying, quote.minute + 60_000);
    if (read.source !== 'regular_close') continue;
    if (!closes.has(read.at)) {
      const price = await underlyingPriceAt(ctx.deps.reads, contract.underlying, read.at, UNDERLYING_LOOKBACK_MS);
      closes.set(read.at, price === null ? null : { ts: price.barStart, close: price.price });
    }
    const close = closes.get(read.at);
    if (close) bars.set(quote.minute, close);
  }
  const sampled = {
    optionSymbol: contract.optionSymbol,
    root: contract.root,
    underlying: contract.underlying,
    type: contract.contractType,
    strike: thousandthsToStrike(contract.strikeThousandths),
    dateOfExpiry: contract.dateOfExpiry,
  };
  // The expiration's quotes of the page's minutes: each sample's parity forward (iv-samples.ts parityCarries).
  const quotesByMinute = new Map<number, ChainQuote[]>();
  for (const r of await expirationQuotesAt(ctx.deps.reads, contract.root, contract.dateOfExpiry, [
    ...new Set(page.map((b) => b.quote.minute)),
  ])) {
    const minute = quotesByMinute.get(r.minute) ?? [];
    minute.push({ strike: thousandthsToStrike(r.strike_thousandths), type: r.contract_type, bid: r.bid, ask: r.ask });
    quotesByMinute.set(r.minute, minute);
  }
  const carries = parityCarries(sampled, page, quotesByMinute, bars);
  const lastBucket = page.at(-1);
  // The buckets this page answers for: from where it starts to its last bucket's end when more
  // follow, else to the range's end (none after the service's clock). A bucket without a quote
  // sample is a row missing from the series: a contract quoted only in the chain snapshots (every
  // 15 minutes) has one row in fifteen at 1m. The page says so rather than pass as complete. A
  // contract is quoted up to its settlement instant: the buckets after it (16:00 to 16:15 of a
  // same-day expiration) are not rows missing from its series.
  const settles = settlementInstant(contract.root, contract.dateOfExpiry);
  const spanEnd = Math.min(
    hasMore && lastBucket ? bucketEnd(lastBucket.bucket, intervalMs, windows) : Math.min(range.to, ctx.now),
    settles,
  );
  const expected = bucketsMeeting(windows, from, spanEnd, intervalMs);
  return {
    data: page.map((b) => ivSample(sampled, b, bars, carries.get(b.quote.minute) ?? null)),
    source: 'opra',
    pagination: paging.pagination(page.length, hasMore && lastBucket ? { b: lastBucket.bucket } : null),
    ...(page.length < expected && {
      coverage: {
        complete: false,
        reason: `${expected - page.length} of the ${expected} ${interval} buckets of this page's span hold no quote sample of the contract (it is sampled less often than every ${interval}); the rows served are the buckets that have one.`,
      },
    }),
  };
}
