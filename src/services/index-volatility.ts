/**
 * A volatility index of an option family at a tenor, computed from the service's stored chains by
 * the method of Cboe's VIX white paper (analytics/volatility/variance-index.ts): the family's listed
 * expirations read at the request's valuation instant as the skew route reads them (chain-valuation.ts:
 * the window and instant, one chain minute), the expirations the tenor counts
 * (analytics/volatility/index-expirations.ts), the rate table's rate, and every input reported. A
 * model, never Cboe's published index; the contract states the rules.
 */
import { riskFreeRate } from '../analytics/rates.js';
import { thousandthsToStrike } from '../analytics/occ.js';
import { settlementInstant, settlementStyle } from '../analytics/settlement.js';
import { indexExpirations, type IndexTenorName } from '../analytics/volatility/index-expirations.js';
import { chainMinute, chainValuationTime, type ChosenExpiration } from '../analytics/volatility/valuation.js';
import {
  TENOR_MINUTES,
  varianceIndex,
  varianceTermStructure,
  type TermVariance,
  type VarianceExpiration,
} from '../analytics/volatility/variance-index.js';
import type { ChainQuoteRow } from '../db/chain.js';
import { noData } from '../errors.js';
import { groupBy } from '../collections.js';
import { chainAt, valuationAt, type ValuationWindow } from './chain-valuation.js';
import { explainMissingPrints } from './session-data.js';
import { withDefault, type DataOf, type QueryOf, type Result, type ServiceContext } from './types.js';

type IndexVolatility = DataOf<'getIndexVolatility'>;
type Term = IndexVolatility['next_term'];

const PUBLISHED: Record<IndexTenorName, string> = { '30d': 'VIX', '9d': 'VIX9D', '1d': 'VIX1D' };

/** The id of an expiration in the analytics' inputs and results. */
const idOf = (e: { root: string; dateOfExpiry: string }): string => `${e.root} ${e.dateOfExpiry}`;

function termOf(t: TermVariance, e: ChosenExpiration): Term {
  return {
    root: e.root,
    date_of_expiry: e.dateOfExpiry,
    settlement_style: settlementStyle(e.root),
    settles_at: t.settlesAt,
    minutes: t.minutes,
    years: t.time,
    rate: t.rate,
    growth: t.growth,
    forward_strike: t.forwardStrike,
    forward_call: t.forwardCall,
    forward_put: t.forwardPut,
    forward: t.forward,
    k0: t.k0,
    strikes: t.strikes.map((s) => ({
      strike: s.strike,
      side: s.option === 'put_call_average' ? 'average' : s.option,
      price: s.price,
      delta_k: s.deltaK,
      contribution: s.contribution,
    })),
    skipped: t.skipped.map((s) => ({ strike: s.strike, side: s.type })),
    put_walk_stopped_at: t.putWalkStoppedAt,
    call_walk_stopped_at: t.callWalkStoppedAt,
    sum: t.sum,
    forward_term: t.forwardTerm,
    variance: t.variance,
    value: t.value,
  };
}

/** The index of the request (module comment). */
export async function getIndexVolatility(ctx: ServiceContext, q: QueryOf<'getIndexVolatility'>): Promise<Result<'getIndexVolatility'>> {
  const tenor: IndexTenorName = withDefault(q.tenor, 'tenor');
  const window = await valuationAt(ctx, { underlying_symbol: q.underlying_symbol, date: q.date, at: q.at, session: 'rth' });
  const inputs = await indexInputs(ctx, window, q.root);
  const index = indexAtTenor(inputs, tenor);
  if ('refused' in index) throw noData(index.refused);
  return { data: index, source: 'opra' };
}

/** A family's (or one root's) chain at a window's instant, read once for every tenor (indexAtTenor). */
export interface IndexInputs {
  symbol: string;
  /** The root asked for, upper-cased; null for the whole family. */
  root: string | null;
  roots: string[];
  tradingDate: string;
  unsettled: ChosenExpiration[];
  rows: ChainQuoteRow[];
  valuedAt: number;
  rate: number;
}

/**
 * Reads the chain a window's instant values (the route's rules, module comment); 422 no_data for a
 * root outside the family, nothing listed and unsettled, or no quote.
 */
export async function indexInputs(ctx: ServiceContext, window: ValuationWindow, root: string | undefined): Promise<IndexInputs> {
  const { symbol, tradingDate, span, instant } = window;
  let roots = window.roots;
  if (root !== undefined) {
    const asked = root.toUpperCase();
    // 422, not 400: the value is well formed, the family just has no such root (as an unknown symbol has no chain).
    if (!roots.includes(asked))
      throw noData(`${asked} is not a root of ${symbol} (its roots: ${roots.join(', ')}): root names no chain of it.`);
    roots = [asked];
  }

  const listed = await ctx.deps.repositories.chain.listedExpirations(roots, tradingDate);
  const unsettled: ChosenExpiration[] = listed
    .map((e) => ({ ...e, settlement: settlementInstant(e.root, e.dateOfExpiry) }))
    .filter((e) => e.settlement > instant);
  if (unsettled.length === 0) throw noData(`No expiration of ${roots.join(', ')} is listed and unsettled at the valuation instant.`);
  const rows = await chainAt(ctx, unsettled, tradingDate, span, instant);
  if (rows.length === 0) {
    await explainMissingPrints(ctx, tradingDate);
    throw noData(`No quote of ${roots.join(', ')}'s chain in the regular session of ${tradingDate} up to the valuation instant.`);
  }
  const minute = chainMinute(rows.map((r) => r.minute)) as number;
  return {
    symbol,
    root: root === undefined ? null : (roots[0] as string),
    roots,
    tradingDate,
    unsettled,
    rows,
    valuedAt: chainValuationTime(minute, instant),
    rate: riskFreeRate(tradingDate),
  };
}

/**
 * The index at a tenor on inputs read once (the route's answer), or why there is none (the route's
 * 422 message). `termStructure: false` leaves the term structure empty (the per-minute series keeps
 * none): every other figure is the same computation.
 */
export function indexAtTenor(inputs: IndexInputs, tenor: IndexTenorName, termStructure = true): IndexVolatility | { refused: string } {
  const { symbol, roots, tradingDate, unsettled, rows, valuedAt, rate } = inputs;
  const byId = groupBy(rows, idOf);
  const inputOf = (e: ChosenExpiration): VarianceExpiration => ({
    id: idOf(e),
    settlesAt: e.settlement,
    rate,
    quotes: (byId.get(idOf(e)) ?? []).map((r) => ({
      strike: thousandthsToStrike(r.strikeThousandths),
      type: r.contractType,
      bid: r.bid,
      ask: r.ask,
    })),
  });
  const counted = indexExpirations(unsettled, tenor);
  const countedIds = new Set(counted.map(idOf));
  const tenorMinutes = TENOR_MINUTES[tenor];
  const index = varianceIndex({ valuedAt, tenorMinutes, expirations: counted.map(inputOf) });
  if (!index.ok)
    return { refused: `No ${tenor} index of ${roots.join(', ')} at the valuation instant (${index.reason}): ${index.detail}.` };

  const expirationOf = new Map(unsettled.map((e) => [idOf(e), e]));
  const structure = termStructure ? varianceTermStructure(valuedAt, unsettled.map(inputOf)) : [];
  const data: IndexVolatility = {
    label: `${symbol}${inputs.root === null ? '' : ` (${inputs.root})`} ${tenor} volatility index: a model computed by this service from its stored option chains by the method of Cboe's VIX white paper; not Cboe's published ${PUBLISHED[tenor]}.`,
    published_index: false,
    method_source: 'Cboe, VIX White Paper; Cboe Volatility Index Mathematics Methodology',
    underlying_symbol: symbol,
    roots,
    trading_date: tradingDate,
    tenor,
    tenor_minutes: tenorMinutes,
    value: index.value,
    variance: index.variance,
    method: index.method === 'bracket' ? 'interpolated' : 'nearest_term',
    weights: index.weights,
    near_term: index.near === null ? null : termOf(index.near, expirationOf.get(index.near.id) as ChosenExpiration),
    next_term: termOf(index.next, expirationOf.get(index.next.id) as ChosenExpiration),
    valuation: {
      timestamp: valuedAt,
      chain_timestamp: rows.reduce<number | null>((m, r) => (m === null || r.quoteTs > m ? r.quoteTs : m), null),
      risk_free_rate: rate,
    },
    term_structure: structure.map((p) => {
      const e = expirationOf.get(p.id) as ChosenExpiration;
      return {
        root: e.root,
        date_of_expiry: e.dateOfExpiry,
        settles_at: p.settlesAt,
        minutes: p.minutes,
        counts_for_tenor: countedIds.has(p.id),
        value: p.ok ? p.value : null,
        variance: p.ok ? p.variance : null,
        refusal: p.ok ? null : { reason: p.reason, detail: p.detail },
      };
    }),
  };
  return data;
}
