/**
 * The contracts a levels or heat map request covers, valued (analytics/positioning), and the key
 * levels route. Both routes read and value the same way, so that on the same request they agree:
 *
 * - session, trading date, instant and chain as the skew route (chain-valuation.ts): the chain of
 *   the selected expirations that settle after the instant, one per date (a family's later-settling
 *   root: SPXW on a date SPX also expires), at one minute, and its surface fitted over exactly those
 *   expirations, memoized; a skew request naming the same expirations reads the same chain and gets
 *   the same surface;
 * - the contracts: every listed contract of every root of the selected dates (SPX monthlies and SPXW
 *   weeklies of one date are both counted), each with the open interest published for the trading
 *   date (open-interest.ts; 0 for a contract without it), its own time to settlement from the
 *   valuation time, and its date's smile volatility at its strike and the carry of its forward
 *   (contracts.ts onSurface): the skew point's smile_implied_volatility;
 * - flow_adjusted: the customer flow of the prints of the trading dates from the open interest's
 *   publication date through the trading date, up to the valuation time (positions.ts).
 */
import { thousandthsToStrike } from '../analytics/occ.js';
import { atmStraddle, atmVolatility, nearestExpiration } from '../analytics/positioning/expiration-levels.js';
import { keyLevels, DEFAULT_GATEKEEPER_RATIO } from '../analytics/positioning/key-levels.js';
import { onSurface, valueContracts, type ValuedContract } from '../analytics/positioning/contracts.js';
import { POSITIONING_MODEL_VERSIONS, type PositioningModelName } from '../analytics/positioning/positions.js';
import { selectExpirationDates, type ExpirationSelectors } from '../analytics/positioning/selection.js';
import { unitLabel } from '../analytics/positioning/units.js';
import type { ContractActivity } from '../analytics/positioning/heatmap.js';
import type { Span } from '../analytics/print-filters.js';
import { MS_PER_YEAR, settlementInstant } from '../analytics/settlement.js';
import type { ExpirationSurface } from '../analytics/volatility/surface.js';
import { daysBetween, expirationsByDate, type ChosenExpiration, type VolatilitySession } from '../analytics/volatility/valuation.js';
import type { ListedContractRow } from '../db/positioning.js';
import { noData } from '../errors.js';
import { expirationChain, rowsOf, valuationObject, type Valuation, type ValuedChain } from './chain-valuation.js';
import { openInterestCloseDate, storedOpenInterestDate } from './open-interest.js';
import { bookAnswer, type BookAnswer } from './books.js';
import { canonicalQuery } from './response-memo.js';
import { explainMissingPrints } from './session-data.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

/** What the levels and heat map requests share. */
export interface PositioningRequest extends ExpirationSelectors {
  underlying_symbol: string;
  date?: string;
  session?: VolatilitySession;
  contract_type?: 'call' | 'put';
  model?: PositioningModelName;
}

/** The valued contracts of a request and what the response says of them. */
export interface PositioningBook {
  symbol: string;
  session: VolatilitySession;
  tradingDate: string;
  span: Span;
  /** Roots whose contracts are counted, sorted. */
  roots: string[];
  model: PositioningModelName;
  spot: number;
  chain: ValuedChain;
  /** The chain's expirations, ascending, each with its surface. */
  expirations: { chosen: ChosenExpiration; surface: ExpirationSurface }[];
  contracts: ValuedContract[];
  /** The contract rows the valued contracts came from, same order. */
  rows: ListedContractRow[];
  /** The session activity of the book's contracts up to the valuation time, by contract id. */
  activity: ReadonlyMap<number, ContractActivity>;
  valuation: Valuation;
}

/**
 * Every member of a book request, so that a view's key names all positioningView can read of
 * its query (the type makes a member added to PositioningRequest a compile error here until listed).
 */
const BOOK_QUERY_MEMBERS: Record<keyof PositioningRequest, true> = {
  underlying_symbol: true,
  date: true,
  session: true,
  contract_type: true,
  model: true,
  date_of_expiry: true,
  expirations: true,
  expiry_mode: true,
  min_dte: true,
  max_dte: true,
};

/** The view's members of a request (what the view is a function of, besides the book and the instant). */
function bookMembers(q: PositioningRequest): Partial<PositioningRequest> {
  return Object.fromEntries(Object.keys(BOOK_QUERY_MEMBERS).map((k) => [k, q[k as keyof PositioningRequest]]));
}

/**
 * The request's contracts, valued on the family's book (module comment); 422 when there is nothing
 * to value, 503 while its session loads. Kept per process for a stored book (a view of an
 * immutable book), shared by the requests that differ only in what they show of it: readers must
 * not change it.
 */
export async function positioningBook(
  ctx: ServiceContext,
  q: PositioningRequest,
  at: BookAnswer,
  settled: 'left_out' | 'kept' = 'left_out',
): Promise<PositioningBook> {
  if (at.book.id === null) return await positioningView(ctx, q, at, settled);
  const key = JSON.stringify([at.book.id, at.window.instant, at.pendingInstant, settled, canonicalQuery(bookMembers(q))]);
  return (await ctx.deps.memos.books.get(key, async () => await positioningView(ctx, q, at, settled))) as PositioningBook;
}

/**
 * The view (positioningBook). An expiration settled by the valuation instant holds no position any
 * more: `left_out` (levels, the heat map's greeks) gives it no column and no level, so a 0dte request
 * after the settlement selects nothing (422); `kept` (the heat map's observed metrics: its open
 * interest and the day's prints are facts of the date) keeps it, its greeks none.
 */
async function positioningView(
  ctx: ServiceContext,
  q: PositioningRequest,
  at: BookAnswer,
  settled: 'left_out' | 'kept',
): Promise<PositioningBook> {
  const session: VolatilitySession = withDefault(q.session, 'session');
  const model = withDefault(q.model, 'model');
  const { book, window } = at;
  const { symbol, tradingDate, span, instant } = window;

  const dates = new Set(
    selectExpirationDates(
      book.listed.map((e) => e.dateOfExpiry),
      tradingDate,
      q,
    ),
  );
  const selected = book.listed.filter(
    (e) => dates.has(e.dateOfExpiry) && (settled === 'kept' || settlementInstant(e.root, e.dateOfExpiry) > instant),
  );
  const kept = new Set(selected.map((e) => `${e.root}|${e.dateOfExpiry}`));
  const rows = book.contracts.filter(
    (c) => kept.has(`${c.root}|${c.dateOfExpiry}`) && (q.contract_type === undefined || c.contractType === q.contract_type),
  );
  if (rows.length === 0) throw noData(`No contract of ${symbol} is listed in the expirations selected on ${tradingDate}.`);

  const chosen = expirationsByDate(selected).filter((e) => e.settlement > instant);
  const chainRows = chosen.flatMap((e) => book.dates.get(e.dateOfExpiry)?.chain ?? []);
  if (chosen.length > 0 && chainRows.length === 0) {
    await explainMissingPrints(ctx, tradingDate);
    throw noData(`No quote of ${symbol}'s chain in the ${session} session of ${tradingDate} up to the valuation instant.`);
  }
  const chain: ValuedChain = {
    rows: chainRows,
    valuedAt: book.valuedAt,
    price: book.price,
    priceRead: book.priceRead,
    rate: book.rate,
    surface: chosen.map((e) => book.dates.get(e.dateOfExpiry)?.surface ?? null).filter((x): x is ExpirationSurface => x !== null),
  };
  const spot = chain.price?.price ?? null;
  if (spot === null) throw noData(`No price of ${symbol}'s underlying up to the valuation instant: the contracts cannot be valued.`);

  const stored = storedOpenInterestDate(rows);
  const surfaceOf = new Map(chosen.map((e) => [e.dateOfExpiry, book.dates.get(e.dateOfExpiry)?.surface ?? null]));
  // Per expiration, not per contract: a settlement instant is a time-zone conversion.
  const years = new Map(
    selected.map((e) => [`${e.root}|${e.dateOfExpiry}`, (settlementInstant(e.root, e.dateOfExpiry) - chain.valuedAt) / MS_PER_YEAR]),
  );
  const days = new Map(selected.map((e) => [e.dateOfExpiry, daysBetween(tradingDate, e.dateOfExpiry)]));
  const contracts = valueContracts(
    rows.map((r) =>
      onSurface(
        {
          dateOfExpiry: r.dateOfExpiry,
          daysToExpiry: days.get(r.dateOfExpiry) as number,
          strike: thousandthsToStrike(r.strikeThousandths),
          type: r.contractType,
          multiplier: r.multiplier,
          openInterest: r.openInterestDate === stored && r.openInterest !== null ? r.openInterest : 0,
          time: years.get(`${r.root}|${r.dateOfExpiry}`) as number,
          ...(model === 'flow_adjusted' && book.flows.has(r.contractId) ? { flow: book.flows.get(r.contractId) } : {}),
        },
        surfaceOf.get(r.dateOfExpiry) ?? null,
        spot,
        chain.rate,
      ),
    ),
    { spot, rate: chain.rate },
    model,
  );
  return {
    symbol,
    session,
    tradingDate,
    span,
    roots: [...new Set(rows.map((r) => r.root))].sort(),
    model,
    spot,
    chain,
    expirations: chosen.flatMap((e) => {
      const surface = book.dates.get(e.dateOfExpiry)?.surface ?? null;
      return surface === null ? [] : [{ chosen: e, surface }];
    }),
    contracts,
    rows,
    activity: book.activity,
    valuation: valuationObject(chain, openInterestCloseDate(stored), at.pendingInstant),
  };
}

type KeyLevelsData = DataOf<'getExposureLevels'>;

export async function getExposureLevels(ctx: ServiceContext, q: QueryOf<'getExposureLevels'>): Promise<Result<'getExposureLevels'>> {
  return await bookAnswer(ctx, 'getExposureLevels', q, async (at) => await exposureLevels(ctx, q, at));
}

/** The levels answer of the request on its book (exported for the test of stored against fresh books). */
export async function exposureLevels(ctx: ServiceContext, q: QueryOf<'getExposureLevels'>, at: BookAnswer): Promise<KeyLevelsData> {
  const book = await positioningBook(ctx, q, at);
  const greek = withDefault(q.greek, 'greek');
  const unit = withDefault(q.unit, 'unit');
  const perspective = withDefault(q.perspective, 'perspective');
  const { spot, chain } = book;

  // The expected move's expiration: the nearest with contracts still to settle, on its own surface.
  const nearest = nearestExpiration(book.contracts);
  const market = book.expirations.find((e) => e.chosen.dateOfExpiry === nearest);
  const nearestMarket =
    market === undefined
      ? null
      : {
          time: market.surface.time,
          atmVolatility: atmVolatility(market.surface.smile),
          straddle: atmStraddle(expirationChain(market.chosen, rowsOf(chain.rows, market.chosen), chain.valuedAt).quotes, spot),
        };
  const { levels, ranked } = keyLevels({
    contracts: book.contracts,
    spot,
    rate: chain.rate,
    tradingDate: book.tradingDate,
    greek,
    unit,
    perspective,
    include: q.include ?? [],
    gatekeeperRatio: q.gatekeeper_ratio ?? DEFAULT_GATEKEEPER_RATIO,
    nearestMarket,
  });
  const data: KeyLevelsData = {
    greek,
    levels,
    model: book.model,
    perspective,
    positioning_model: POSITIONING_MODEL_VERSIONS[book.model],
    ranked,
    roots: book.roots,
    session: book.session,
    trading_date: book.tradingDate,
    underlying_price: spot,
    underlying_symbol: book.symbol,
    unit,
    unit_label: unitLabel(greek, unit, perspective),
    valuation: book.valuation,
  };
  return data;
}
