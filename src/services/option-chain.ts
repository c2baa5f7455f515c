/**
 * The chain snapshot (GET /v1/options/chain): the listed contracts of an underlying's family at one
 * minute of data, each with its quote, the volatility and greeks of its mid, its open interest, its
 * session volume and its last trade. The minute and what it is valued on are the family's valued
 * book (books.ts bookFor, the book levels, heat map and skew answer from): its chain minute, the
 * forward of each expiration date, the underlying price, the rate, the contracts' open interest and
 * session activity. A page reads only what the book does not keep: its contracts' symbols, quotes
 * with their sizes (by chainAt's rule at the book's minute) and last prints (db/option-chain.ts).
 * The cursor holds the minute, so that a walk over the pages reads one book.
 */
import { blackImpliedVolatility } from '../analytics/implied-volatility.js';
import { SESSIONS_OF } from '../analytics/print-filters.js';
import { impliedDividendYield } from '../analytics/positioning/contracts.js';
import { bsmGreeks, bsmPrice, type OptionType } from '../analytics/pricing.js';
import { MS_PER_YEAR, settlementInstant } from '../analytics/settlement.js';
import { midPrice } from '../analytics/volatility/quotes.js';
import { CHAIN_MAX_AGE_MS, chainMinute } from '../analytics/volatility/valuation.js';
import type { ChainSnapshotRow } from '../db/option-chain.js';
import type { ListedContractRow } from '../db/positioning.js';
import { noData } from '../errors.js';
import type { FamilyBook } from './book-columns.js';
import { bookFor } from './books.js';
import { valuationObject, type Valuation } from './chain-valuation.js';
import { openInterestCloseDate, storedOpenInterestDate } from './open-interest.js';
import { openPaging, takePage } from './paging.js';
import { explainMissingPrints } from './session-data.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type Query = QueryOf<'getOptionChain'>;
type ChainContract = DataOf<'getOptionChain'>[number];

/** Root, expiration, type and strike (thousandths) of the last row served, and the minute of the walk (the book's instant). */
export interface ChainPosition {
  r: string;
  d: string;
  t: 'call' | 'put';
  k: number;
  v: number;
}

/** One calendar day in years: theta's step. */
const DAY_YEARS = 1 / 365;

/** Strike bounds in dollars as inclusive bounds in thousandths (option-contracts.ts). */
const atLeastThousandths = (dollars: number): number => Math.ceil(dollars * 1000 - 1e-6);
const atMostThousandths = (dollars: number): number => Math.floor(dollars * 1000 + 1e-6);

/** The parity forward of each expiration date the book valued. */
function forwardsOf(book: FamilyBook): Map<string, number> {
  const out = new Map<string, number>();
  for (const [date, d] of book.dates) {
    const forward = d.surface?.forward?.forward ?? null;
    if (forward !== null && forward > 0) out.set(date, forward);
  }
  return out;
}

/** itm: a call below its reference price or a put above it (contract description); null without a reference. */
function inTheMoney(type: OptionType, strike: number, reference: number | null): boolean | null {
  if (reference === null) return null;
  return type === 'call' ? strike < reference : strike > reference;
}

/** The book's contracts the query selects, in key order (root, expiration, type, strike). */
function selectContracts(q: Query, book: FamilyBook, forwards: ReadonlyMap<string, number>): ListedContractRow[] {
  const root = q.root?.toUpperCase();
  const from = q.date_of_expiry ?? q.min_date_of_expiry;
  const to = q.date_of_expiry ?? q.max_date_of_expiry;
  const strikeFrom = q.min_strike === undefined ? -Infinity : atLeastThousandths(q.min_strike);
  const strikeTo = q.max_strike === undefined ? Infinity : atMostThousandths(q.max_strike);
  const moneyness = withDefault(q.moneyness, 'moneyness');
  const spot = book.price?.price ?? null;
  return book.contracts
    .filter((c) => {
      if (root !== undefined && c.root !== root) return false;
      if (from !== undefined && c.dateOfExpiry < from) return false;
      if (to !== undefined && c.dateOfExpiry > to) return false;
      if (c.strikeThousandths < strikeFrom || c.strikeThousandths > strikeTo) return false;
      if (q.contract_type !== undefined && c.contractType !== q.contract_type) return false;
      if (moneyness === 'all') return true;
      const itm = inTheMoney(c.contractType, c.strikeThousandths / 1000, forwards.get(c.dateOfExpiry) ?? spot);
      return itm !== null && itm === (moneyness === 'itm');
    })
    .sort((a, b) =>
      a.root !== b.root
        ? a.root < b.root
          ? -1
          : 1
        : a.dateOfExpiry !== b.dateOfExpiry
          ? a.dateOfExpiry < b.dateOfExpiry
            ? -1
            : 1
          : a.contractType !== b.contractType
            ? a.contractType < b.contractType
              ? -1
              : 1
            : a.strikeThousandths - b.strikeThousandths,
    );
}

/** Strictly after the position in key order. */
function isAfter(c: ListedContractRow, p: ChainPosition): boolean {
  if (c.root !== p.r) return c.root > p.r;
  if (c.dateOfExpiry !== p.d) return c.dateOfExpiry > p.d;
  if (c.contractType !== p.t) return c.contractType > p.t;
  return c.strikeThousandths > p.k;
}

/** Volatility of the mid on the forward and the spot greeks at it (contract description); nulls where not determined. */
export function chainGreeks(
  type: OptionType,
  strike: number,
  mid: number | null,
  forward: number | null,
  spot: number | null,
  rate: number,
  time: number,
): { iv: number | null; delta: number | null; gamma: number | null; theta: number | null; vega: number | null } {
  const none = { iv: null, delta: null, gamma: null, theta: null, vega: null };
  if (mid === null || forward === null || !(time > 0)) return none;
  const iv = blackImpliedVolatility(type, mid, forward, strike, time, Math.exp(-rate * time));
  if (iv === null || !(iv > 0)) return none;
  if (spot === null || !(spot > 0)) return { ...none, iv };
  const input = { type, spot, strike, time, rate, dividendYield: impliedDividendYield(spot, forward, rate, time), volatility: iv };
  const g = bsmGreeks(input);
  const theta = bsmPrice({ ...input, time: time - DAY_YEARS }) - g.price;
  return { iv, delta: g.delta, gamma: g.gamma, theta, vega: g.vega / 100 };
}

function rowOf(
  c: ListedContractRow,
  s: ChainSnapshotRow,
  book: FamilyBook,
  forward: number | null,
  openInterestDate: string | null,
  valuation: Valuation,
): ChainContract {
  const strike = c.strikeThousandths / 1000;
  const mid = midPrice(s.bid, s.ask);
  const time = (settlementInstant(c.root, c.dateOfExpiry) - book.valuedAt) / MS_PER_YEAR;
  const g = chainGreeks(c.contractType, strike, mid, forward, book.price?.price ?? null, book.rate, time);
  return {
    option_symbol: s.optionSymbol,
    root: c.root,
    contract_type: c.contractType,
    strike,
    date_of_expiry: c.dateOfExpiry,
    bid: s.bid,
    ask: s.ask,
    bid_size: s.bidSize,
    ask_size: s.askSize,
    mid,
    quote_timestamp: s.quoteTs,
    forward,
    implied_volatility: g.iv,
    delta: g.delta,
    gamma: g.gamma,
    theta: g.theta,
    vega: g.vega,
    open_interest: c.openInterestDate !== null && c.openInterestDate === openInterestDate ? c.openInterest : null,
    volume: book.activity.get(c.contractId)?.volume ?? 0,
    last_trade: s.lastTs === null ? null : { price: s.lastPrice as number, size: s.lastSize as number, timestamp: s.lastTs },
    valuation,
  };
}

export async function getOptionChain(ctx: ServiceContext, q: Query): Promise<Result<'getOptionChain'>> {
  const paging = openPaging<ChainPosition>(ctx, q);
  // A following page reads the walk's minute: the cursor's instant.
  const at = paging.after?.v ?? q.at;
  const { book, window, pendingInstant } = await bookFor(
    ctx,
    { underlying_symbol: q.underlying_symbol, session: 'rth', ...(at === undefined ? {} : { at }) },
    'rth',
  );
  const chainRows = [...book.dates.values()].flatMap((d) => d.chain);
  if (chainRows.length === 0) await explainMissingPrints(ctx, window.tradingDate);
  const forwards = forwardsOf(book);
  const selected = selectContracts(q, book, forwards);
  const after = paging.after;
  const rest = after === null ? selected : selected.filter((c) => isAfter(c, after));
  if (rest.length === 0 && after === null)
    throw noData(`No contract of ${window.symbol} listed on ${window.tradingDate} matches the request.`);
  const { page, next } = takePage(rest.slice(0, paging.limit + 1), paging.limit, (c): ChainPosition => ({
    r: c.root,
    d: c.dateOfExpiry,
    t: c.contractType,
    k: c.strikeThousandths,
    v: window.instant,
  }));

  // The quotes by chainAt's rule at the book's chain minute: the newest sample up to the valuation time, at most CHAIN_MAX_AGE_MS older than the minute.
  const minute = chainMinute(chainRows.map((r) => r.minute));
  const quotes =
    minute === null
      ? { from: book.valuedAt, to: book.valuedAt - 1 }
      : { from: Math.max(book.span.start, minute - CHAIN_MAX_AGE_MS), to: book.valuedAt - 1 };
  const before = book.valuedAt >= book.span.end ? Number.MAX_SAFE_INTEGER : book.valuedAt;
  const snapshot = await ctx.deps.repositories.references.chainSnapshot(
    window.tradingDate,
    page.map((c) => c.contractId),
    quotes,
    { before, sessions: SESSIONS_OF.rth },
  );
  const byId = new Map(snapshot.map((s) => [s.contractId, s]));
  const stored = storedOpenInterestDate(book.contracts);
  const valuation = valuationObject(
    { rows: chainRows, valuedAt: book.valuedAt, price: book.price, priceRead: book.priceRead, rate: book.rate, surface: [] },
    openInterestCloseDate(stored),
    pendingInstant,
  );
  const data = page.map((c) =>
    rowOf(c, byId.get(c.contractId) as ChainSnapshotRow, book, forwards.get(c.dateOfExpiry) ?? null, stored, valuation),
  );
  return { data, source: 'derived', pagination: paging.pagination(page.length, next) };
}
