/**
 * A hand-made market for the unit tests of the routes that value a chain (skew, levels): AAPL on
 * Friday 2026-11-20, asked after the close, so valued at the close (16:00 ET, 21:00 UTC). Two
 * expirations, each quoted from a known SVI smile (analytics/volatility/chain.fixtures.ts) at the
 * minute before the close, every contract with its open interest published for the trading date.
 * The fake repositories serve exactly these rows and count their reads.
 */
import { riskFreeRate } from '../analytics/rates.js';
import { MS_PER_YEAR } from '../analytics/settlement.js';
import { QUARTER_SMILE_CHAIN, sviChain, strikeRange } from '../analytics/volatility/chain.fixtures.js';
import type { ChainQuote } from '../analytics/volatility/quotes.js';
import type { ChainQuoteRow } from '../db/chain.js';
import type { ListedContractRow } from '../db/positioning.js';
import type { Repositories } from './repositories.js';

export const SYMBOL = 'AAPL';
export const DATE = '2026-11-20';
export const NOW = Date.parse('2026-11-21T01:00:00Z');
/** The close: the valuation instant and, the chain being of the minute before it, the valuation time. */
export const CLOSE = Date.parse('2026-11-20T21:00:00Z');
export const SPOT = 100;
export const RATE = riskFreeRate(DATE);

export interface MarketExpiration {
  dateOfExpiry: string;
  days: number;
  /** Years from the close to the PM settlement (16:00 ET). */
  time: number;
  quotes: ChainQuote[];
}

const expiration = (dateOfExpiry: string, days: number, settlement: string): MarketExpiration => {
  const time = (Date.parse(settlement) - CLOSE) / MS_PER_YEAR;
  return {
    dateOfExpiry,
    days,
    time,
    quotes: sviChain({ ...QUARTER_SMILE_CHAIN, spot: SPOT, rate: RATE, time, strikes: strikeRange(80, 120, 5) }),
  };
};

export const EXPIRATIONS: readonly MarketExpiration[] = [
  expiration('2026-12-18', 28, '2026-12-18T21:00:00Z'),
  expiration('2027-01-15', 56, '2027-01-15T21:00:00Z'),
];

/** Open interest of a contract: more puts below the money, more calls above it. */
export function openInterestOf(type: 'call' | 'put', strike: number, days: number): number {
  const away = Math.abs(strike - SPOT);
  return Math.round((type === 'put' ? (strike < SPOT ? 3000 : 800) : strike > SPOT ? 2500 : 600) / (1 + away / 20) / (days / 28));
}

interface MarketRow {
  id: number;
  e: MarketExpiration;
  quote: ChainQuote;
}

const ROWS: readonly MarketRow[] = EXPIRATIONS.flatMap((e, i) => e.quotes.map((quote, j) => ({ id: 1000 * (i + 1) + j, e, quote })));

export interface FakeMarket {
  repositories: Pick<Repositories, 'chain' | 'positioning' | 'marketData' | 'sessions'>;
  /** Reads made, by method. */
  reads: Map<string, number>;
}

/** Repositories serving the market (the chain at the close, the listed contracts, no prints). */
export function fakeMarket(): FakeMarket {
  const reads = new Map<string, number>();
  const read = (name: string): void => void reads.set(name, (reads.get(name) ?? 0) + 1);
  const chainRow = ({ id, e, quote }: MarketRow): ChainQuoteRow => ({
    contractId: id,
    root: SYMBOL,
    underlying: SYMBOL,
    dateOfExpiry: e.dateOfExpiry,
    contractType: quote.type,
    strikeThousandths: Math.round(quote.strike * 1000),
    bid: quote.bid,
    ask: quote.ask,
    quoteTs: CLOSE - 30_000,
    minute: CLOSE - 60_000,
  });
  const listedRow = ({ id, e, quote }: MarketRow): ListedContractRow => ({
    contractId: id,
    root: SYMBOL,
    underlying: SYMBOL,
    dateOfExpiry: e.dateOfExpiry,
    contractType: quote.type,
    strikeThousandths: Math.round(quote.strike * 1000),
    multiplier: 100,
    openInterestDate: DATE,
    openInterest: openInterestOf(quote.type, quote.strike, e.days),
  });
  const wanted = (expirations: readonly { root: string; dateOfExpiry: string }[]) => (r: MarketRow) =>
    expirations.some((x) => x.root === SYMBOL && x.dateOfExpiry === r.e.dateOfExpiry);
  return {
    reads,
    repositories: {
      chain: {
        listedExpirations: async (roots, onOrAfter) => {
          read('listedExpirations');
          return roots.includes(SYMBOL)
            ? EXPIRATIONS.filter((e) => e.dateOfExpiry >= onOrAfter).map((e) => ({ root: SYMBOL, dateOfExpiry: e.dateOfExpiry }))
            : [];
        },
        chainQuotesAt: async (expirations, tradingDate, window, contractIds = null) => {
          read('chainQuotesAt');
          if (tradingDate !== DATE || window.from > CLOSE - 60_000 || window.to < CLOSE - 60_000) return [];
          return ROWS.filter(wanted(expirations))
            .filter((r) => contractIds === null || contractIds.includes(r.id))
            .map(chainRow);
        },
        underlyingPriceAt: async (symbol, at) => {
          read('underlyingPriceAt');
          return symbol === SYMBOL && at >= CLOSE ? { price: SPOT, barStart: CLOSE - 60_000 } : null;
        },
        newestQuoteMinute: async (tradingDate, from, to) => {
          read('newestQuoteMinute');
          // The one minute quoted: the close's last.
          return tradingDate === DATE && from <= CLOSE - 60_000 && CLOSE - 60_000 <= to ? CLOSE - 60_000 : null;
        },
      },
      positioning: {
        listedContracts: async (expirations, tradingDate) => {
          read('listedContracts');
          return tradingDate === DATE ? ROWS.filter(wanted(expirations)).map(listedRow) : [];
        },
        bookPrints: async () => {
          read('bookPrints');
          return { flows: [], activity: [] };
        },
      },
      marketData: {
        marketDataStamp: async () => {
          read('marketDataStamp');
          return 1;
        },
      },
      sessions: { sessionState: async () => 'hot' },
    },
  };
}
