/** Single-contract history: the last trade at an instant, and implied volatility over time. */
import { bucketEnd, hasOvernightSession, INTERVAL_MS, ivSample, lastQuotePerBucket, resolveIvRange, sampleWindows } from '../analytics/iv-samples.js';
import { thousandthsToStrike, strikeToThousandths } from '../analytics/occ.js';
import { defaultTradingDate, inRegularHours, type SessionChoice } from '../analytics/print-filters.js';
import { quoteSamplesIn } from '../db/contract-history.js';
import { underlyingBarsBetween } from '../db/market-data.js';
import { findContract, lastTradeAt } from '../db/trades.js';
import { CursorCodec } from '../middleware/cursor.js';
import { ApiError, invalidParameters, noData } from '../errors.js';
import { nextPageUrl } from './pagination.js';
import { accountOf, type Handler } from './types.js';

/** The strike in thousandths; one that rounds below 0.001 (5e-324 passes the schema's bounds) is 400. */
function strikeThousandthsOf(strike: number): number {
  try {
    return strikeToThousandths(strike);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw invalidParameters([{ parameter: 'strike', message: 'must be at least 0.001 with at most three decimals' }]);
  }
}

export const getContractTradeAtTime: Handler<'getContractTradeAtTime'> = async (ctx) => {
  const { query, deps } = ctx;
  const overnight = accountOf(ctx).overnight;
  if (!overnight && !inRegularHours(query.timestamp)) {
    throw new ApiError(403, 'forbidden', 'Instants outside the regular session (09:30 to 16:15 ET) need the Pro plan or the overnight entitlement.');
  }
  const root = query.underlying_symbol.toUpperCase();
  const contract = await findContract(deps.db, { root, dateOfExpiry: query.date_of_expiry, contractType: query.contract_type, strikeThousandths: strikeThousandthsOf(query.strike) });
  if (!contract) throw noData(`No ${root} ${query.contract_type} of strike ${query.strike} expiring ${query.date_of_expiry} is listed.`);
  // Without the entitlement, overnight prints stay out of the answer too.
  const trade = await lastTradeAt(deps.db, contract.id, query.timestamp, { overnight });
  return {
    data: {
      contract_type: contract.contractType,
      date_of_expiry: contract.dateOfExpiry,
      option_symbol: contract.optionSymbol,
      requested_timestamp: query.timestamp,
      strike: thousandthsToStrike(contract.strikeThousandths),
      underlying_symbol: contract.root,
      trade:
        trade === null
          ? null
          : {
              condition: trade.condition_code,
              exchange: trade.exchange_code,
              extended_conditions: trade.extended_conditions,
              price: trade.price,
              sequence: trade.sequence,
              size: trade.size,
              timestamp: trade.ts,
            },
    },
    source: 'opra',
  };
};

/** The cross-parameter rules of implied volatility (date or a range of at most 31 days, in any session), for a query given as data. */
export function ivQueryProblems(
  query: { underlying_symbol?: string; session?: SessionChoice; date?: string; start_time?: number; end_time?: number },
  now: number,
): { parameter: string; message: string }[] {
  const range = resolveIvRange({
    root: (query.underlying_symbol ?? '').toUpperCase(),
    session: query.session ?? 'rth',
    date: query.date,
    startTime: query.start_time,
    endTime: query.end_time,
    defaultDate: defaultTradingDate(now, query.session ?? 'rth'),
  });
  return range.ok ? [] : range.problems;
}

/** Position of a page of samples: the last bucket served. */
interface SamplePosition {
  b: number;
}

export const listContractImpliedVolatility: Handler<'listContractImpliedVolatility'> = async (ctx) => {
  const { query, deps, now, link } = ctx;
  const root = query.underlying_symbol.toUpperCase();
  const session = query.session ?? 'rth';
  const range = resolveIvRange({ root, session, date: query.date, startTime: query.start_time, endTime: query.end_time, defaultDate: defaultTradingDate(now, session) });
  if (!range.ok) throw invalidParameters(range.problems);
  if (session === 'gth' && !hasOvernightSession(root)) throw noData(`${root} has no overnight session: its options trade only in the regular session.`);
  const contract = await findContract(deps.db, { root, dateOfExpiry: query.date_of_expiry, contractType: query.contract_type, strikeThousandths: strikeThousandthsOf(query.strike) });
  if (!contract) throw noData(`No ${root} ${query.contract_type} of strike ${query.strike} expiring ${query.date_of_expiry} is listed.`);

  const limit = query.limit ?? 1000;
  const intervalMs = INTERVAL_MS[query.interval ?? '5m'];
  const windows = sampleWindows(range.from, range.to, root, session);
  const fingerprint = CursorCodec.queryFingerprint('/v1/options/contract/implied-volatility', query);
  const after = query.cursor_id ? deps.cursors.decode<SamplePosition>(query.cursor_id, fingerprint, now) : null;
  const from = after ? Math.max(range.from, bucketEnd(after.b, intervalMs, windows)) : range.from;
  // A bucket holds at most intervalMs / 1 minute samples: this many rows hold limit + 1 buckets.
  const cap = (limit + 1) * (intervalMs / 60_000);
  const rows = await quoteSamplesIn(deps.db, contract.id, windows, from, cap);
  let buckets = lastQuotePerBucket(
    rows.map((r) => ({ minute: r.minute, quoteTs: r.quote_ts, bid: r.bid, ask: r.ask })),
    intervalMs,
    windows,
  );
  const capped = rows.length === cap;
  // The last bucket of a capped read may be missing samples: it starts the next page.
  if (capped) buckets = buckets.slice(0, -1);
  const page = buckets.slice(0, limit);
  if (page.length === 0 && after === null) throw noData(`No quote of ${contract.optionSymbol.replace(/ +/, ' ')} in the requested range.`);
  const hasMore = (capped || buckets.length > limit) && page.length > 0;

  const first = page[0]?.quote.minute ?? 0;
  const last = page.at(-1)?.quote.minute ?? 0;
  const bars = new Map((page.length > 0 ? await underlyingBarsBetween(deps.db, [contract.underlying], first - 60_000, last) : []).map((b) => [b.ts, b]));
  const sampled = {
    optionSymbol: contract.optionSymbol,
    root: contract.root,
    underlying: contract.underlying,
    type: contract.contractType,
    strike: thousandthsToStrike(contract.strikeThousandths),
    dateOfExpiry: contract.dateOfExpiry,
  };
  const lastBucket = page.at(-1);
  const next = hasMore && lastBucket ? deps.cursors.encode({ b: lastBucket.bucket } satisfies SamplePosition, fingerprint, now) : null;
  return {
    data: page.map((b) => ivSample(sampled, b, bars)),
    source: 'opra',
    pagination: { count: page.length, has_more: next !== null, limit, next_cursor_id: next, next_url: nextPageUrl(link, next) },
  };
};
