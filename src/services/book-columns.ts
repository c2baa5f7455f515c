/**
 * What a valued book is (books.ts): its summary, and its content as columns, one set per listed
 * expiration, as db/position-books.ts stores it; read back into maps by bookFromColumns. The fitted
 * surfaces are kept as JSON text that writes NaN, ±Infinity and -0 exactly.
 */
import type { ContractActivity } from '../analytics/positioning/heatmap.js';
import type { CustomerFlow } from '../analytics/positioning/positions.js';
import type { Span } from '../analytics/print-filters.js';
import { buildSurface, type ExpirationSurface, type SurfaceInput } from '../analytics/volatility/surface.js';
import { expirationsByDate, type UnderlyingSource, type VolatilitySession } from '../analytics/volatility/valuation.js';
import type { ChainQuoteRow, ListedExpirationRow, UnderlyingPrice } from '../db/chain.js';
import type { BookExpirationColumns } from '../db/position-books.js';
import type { ListedContractRow } from '../db/positioning.js';

/** What a book's row holds besides its expirations' columns. */
export interface BookSummary {
  symbol: string;
  session: VolatilitySession;
  tradingDate: string;
  span: Span;
  /** The session's roots of the family. */
  roots: string[];
  /** The underlying the contracts are on; null without a listed contract. */
  underlying: string | null;
  /** The end of the chain's minute (the instant without a chain). */
  valuedAt: number;
  price: UnderlyingPrice | null;
  /** The instant the price stands for and what it is (valuation.ts underlyingPriceInstant: an index outside its session, its regular close). */
  priceRead: { at: number; source: UnderlyingSource };
  rate: number;
  /** Every listed expiration of the roots on or after the trading date. */
  listed: ListedExpirationRow[];
}

/** A family valued at one minute (module comment): its summary and its columns read into maps. Shared by the requests that read it: readers must not change it. */
export interface FamilyBook extends BookSummary {
  /** The stored book's id; null for one valued and not stored (nothing to keep). */
  id: number | null;
  /** Per listed date: its fitted surface (null when not valued: settled before the minute, or no chain) and its chain. */
  dates: Map<string, { surface: ExpirationSurface | null; chain: ChainQuoteRow[] }>;
  /** Every listed contract of the listed expirations, by date ascending. */
  contracts: ListedContractRow[];
  /** Customer flow of the contracts with prints up to the valuation time (from the family's open interest date). */
  flows: Map<number, CustomerFlow>;
  /** The contracts' activity in the session up to the valuation time. */
  activity: Map<number, ContractActivity>;
}

/** A book's content as stored: its summary and one set of columns per listed date. */
export interface BookColumns {
  summary: BookSummary;
  expirations: BookExpirationColumns[];
}

// JSON cannot write NaN, ±Infinity or -0, which a fitted surface may hold (a calendar check of two
// smiles without common moneyness): they are written as {"$n": text} and read back as the number.
const surfaceReplacer = (_key: string, value: unknown): unknown =>
  typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))
    ? { $n: Object.is(value, -0) ? '-0' : String(value) }
    : value;
const surfaceReviver = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 && '$n' in value
    ? Number((value as { $n: string }).$n)
    : value;

/** A surface as the JSON text a book keeps, exactly (surfaceReplacer). */
export function surfaceText(surface: ExpirationSurface): string {
  return JSON.stringify(surface, surfaceReplacer);
}

/**
 * A surface from the JSON text a book keeps. The reviver is called for every value of the text (a
 * surface holds thousands): a text without the key `"$n"` holds no value it changes, and is parsed
 * without it, to the same object.
 */
export function parseSurface(text: string): ExpirationSurface {
  return (text.includes('"$n"') ? JSON.parse(text, surfaceReviver) : JSON.parse(text)) as ExpirationSurface;
}

/** The fitted surface of each expiration of the input, in its order, as the JSON text a book keeps (the valuation threads' `fit` task). */
export function surfaceTexts(input: SurfaceInput): string[] {
  return buildSurface(input).map(surfaceText);
}

/** A family's book from its columns (as stored, or as just read and valued). */
export function bookFromColumns(id: number | null, columns: BookColumns): FamilyBook {
  const s = columns.summary;
  const chosen = new Map(expirationsByDate(s.listed).map((e) => [e.dateOfExpiry, e]));
  const dates = new Map<string, { surface: ExpirationSurface | null; chain: ChainQuoteRow[] }>();
  const contracts: ListedContractRow[] = [];
  const flows = new Map<number, CustomerFlow>();
  const activity = new Map<number, ContractActivity>();
  for (const e of columns.expirations) {
    const c = e.contracts;
    const byId = new Map<number, number>();
    for (let i = 0; i < c.ids.length; i += 1) {
      const id = c.ids[i] as number;
      byId.set(id, i);
      contracts.push({
        contractId: id,
        root: c.roots[i] as string,
        underlying: s.underlying as string,
        dateOfExpiry: e.dateOfExpiry,
        contractType: c.isCall[i] ? 'call' : 'put',
        strikeThousandths: c.strikeThousandths[i] as number,
        multiplier: c.multipliers[i] as number,
        openInterestDate: c.openInterestDates[i] ?? null,
        openInterest: c.openInterest[i] ?? null,
      });
      const bought = c.flowBought[i] as number;
      const sold = c.flowSold[i] as number;
      if (bought !== 0 || sold !== 0) flows.set(id, { bought, sold });
      const trades = c.trades[i] as number;
      if (trades !== 0)
        activity.set(id, { volume: c.volume[i] as number, premium: c.premium[i] as number, netPremium: c.netPremium[i] as number, trades });
    }
    const root = chosen.get(e.dateOfExpiry)?.root;
    const chain: ChainQuoteRow[] = e.chain.contractIds.map((id, j) => {
      const i = byId.get(id) as number;
      return {
        contractId: id,
        root: root ?? (c.roots[i] as string),
        underlying: s.underlying as string,
        dateOfExpiry: e.dateOfExpiry,
        contractType: c.isCall[i] ? 'call' : 'put',
        strikeThousandths: c.strikeThousandths[i] as number,
        bid: e.chain.bid[j] ?? null,
        ask: e.chain.ask[j] ?? null,
        quoteTs: e.chain.quoteTs[j] as number,
        minute: e.chain.minute[j] as number,
      };
    });
    dates.set(e.dateOfExpiry, { surface: e.surface === null ? null : parseSurface(e.surface), chain });
  }
  return { ...s, id, dates, contracts, flows, activity };
}
