/**
 * What the services read, as one small interface per use case (the way immich's services take
 * repositories): a service reaches its reads through its context (ServiceDeps.repositories), never by
 * importing src/db, so a unit test hands it rows. databaseRepositories builds them once from the
 * Kysely queries of src/db (server.ts); a test builds its own.
 */
import type { ListedExpirationRow, ChainQuoteRow, UnderlyingPrice } from '../db/chain.js';
import { chainQuotesAt, listedExpirations, underlyingPriceAt } from '../db/chain.js';
import { sessionState, type SessionState } from '../db/archive.js';
import type { Queryable } from '../db/connection.js';
import {
  bookOfChain,
  bookOfDigest,
  bookOfMinute,
  changeLogPosition,
  contractsUnchangedSince,
  mapBookMinute,
  newestBookBefore,
  minuteUnchangedSince,
  readBook,
  readBookAnswer,
  reserveBookId,
  storeBook,
  storeBookAnswers,
  whileClaimed,
  type BookAnswerRow,
  type BookToStore,
  type BookFamily,
  type StoredBook,
} from '../db/position-books.js';
import {
  contractListings,
  type ContractListingFilter,
  type ContractListingPosition,
  type ContractListingRow,
} from '../db/contract-listings.js';
import { loadUnitUnderWay, marketDataStamp } from '../db/market-data-changes.js';
import { chainSnapshot, type ChainSnapshotRow } from '../db/option-chain.js';
import { archivedDates, contractIdOfSymbol, optionBars, type BarFilter, type BarPosition, type BarRow } from '../db/option-bars.js';
import { newestQuoteMinute } from '../db/quote-samples.js';
import {
  indexMinutes,
  quoteMinutesIn,
  storeIndexMinutes,
  type IndexMinuteRow,
  type IndexSeriesKey,
} from '../db/volatility-index-series.js';
import {
  barFileOrigins,
  indexBars,
  indexCoverage,
  indexValueAt,
  type IndexBarRow,
  type IndexBarWindow,
  type IndexCoverageRow,
} from '../db/index-values.js';
import { futuresContractsOfRoot, type StoredFuturesContract } from '../db/futures-contracts.js';
import {
  futuresBarBuckets,
  futuresCloseBefore,
  futuresFiguresOfRoot,
  type FuturesBarBucket,
  type FuturesBarWindow,
  type FuturesFigureRow,
} from '../db/futures-continuous.js';
import {
  futuresTradePage,
  storedFuturesContract,
  type FuturesTradeFilter,
  type FuturesTradeKey,
  type FuturesTradeOfContract,
} from '../db/futures-trades.js';
import { bookPrints, listedContracts, type BookPrints, type ListedContractRow } from '../db/positioning.js';
import { basisMinutes, newestBasisMinute, type BasisMinute } from '../db/futures-basis.js';
import {
  newestStatisticsDate,
  settlementsPage,
  type SettlementDates,
  type SettlementPosition,
  type SettlementRow,
} from '../db/futures-settlements.js';
import {
  printsPageText,
  scannedPrints,
  type PrintFilter,
  type PrintPosition,
  type PrintsPageText,
  type ScanFilter,
  type ScannedPrints,
} from '../db/trades.js';

/** The print feeds' pages (services/print-feeds.ts; db/trades.ts). */
export interface PrintFeedRepository {
  /** Up to `limit` prints of the filter, newest first, strictly older than `after`, as the text of their bodies. */
  printsPage(filter: PrintFilter, after: PrintPosition | null, limit: number): Promise<PrintsPageText>;
  /** Of the next `budget` prints of the filter, up to `limit` (and one more) that pass the scan filter. */
  scannedPrints(filter: PrintFilter, after: PrintPosition | null, scan: ScanFilter, limit: number, budget: number): Promise<ScannedPrints>;
}

/** The chain at an instant, read the same way by skew, levels and heat map (services/chain-valuation.ts; db/chain.ts). */
export interface ChainRepository {
  /** The distinct expirations of the roots on or after a date, ascending. */
  listedExpirations(roots: readonly string[], onOrAfter: string): Promise<ListedExpirationRow[]>;
  /** Each contract of the expirations (or of `contractIds`) with its newest quote sample of the trading date in the window. */
  chainQuotesAt(
    expirations: readonly ListedExpirationRow[],
    tradingDate: string,
    window: { from: number; to: number },
    contractIds?: readonly number[] | null,
  ): Promise<ChainQuoteRow[]>;
  /** The close of the underlying's last one-minute bar ended by `at`, looking back at most `lookbackMs`. */
  underlyingPriceAt(symbol: string, at: number, lookbackMs: number): Promise<UnderlyingPrice | null>;
  /** The start of the newest minute of the trading date in [from, to] with stored quote samples; null when none. */
  newestQuoteMinute(tradingDate: string, from: number, to: number): Promise<number | null>;
}

/** The contracts of the levels and heat map books and their prints (services/positioning.ts; db/positioning.ts). */
export interface PositioningRepository {
  /** Every listed contract of the expirations with its open interest for the trading date. */
  listedContracts(expirations: readonly ListedExpirationRow[], tradingDate: string): Promise<ListedContractRow[]>;
  /** What a book reads of the roots' prints, in one scan: flows and activity (db/positioning.ts bookPrints). */
  bookPrints(
    roots: readonly string[],
    tradingDate: string,
    until: number,
    flow: { from: string },
    activity: { sessions: readonly string[]; whole: boolean },
    sides: { ask: readonly string[]; bid: readonly string[] },
  ): Promise<BookPrints>;
}

/** The valued books (services/books.ts; db/position-books.ts). */
export interface BookRepository {
  changeLogPosition(): Promise<number>;
  /** Whether a unit of loads (a live minute's files) is under way: its minute is not whole yet. */
  loadUnitUnderWay(): Promise<boolean>;
  bookOfMinute(
    family: BookFamily,
    instant: number,
    dates: { from: string; to: string },
  ): Promise<{ bookId: number; instant: number } | null>;
  newestBookBefore(
    family: BookFamily,
    before: number,
    dates: { from: string; to: string },
  ): Promise<{ bookId: number; instant: number } | null>;
  bookOfDigest(family: BookFamily, digest: string): Promise<number | null>;
  /** A stored book valued at `valuedAt` on a chain of this digest that no change since has made stale (db/position-books.ts bookOfChain). */
  bookOfChain(family: BookFamily, valuedAt: number, chainDigest: string, dates: { from: string; to: string }): Promise<number | null>;
  /** A new book id, for a book stored later under it (db/position-books.ts reserveBookId). */
  reserveBookId(): Promise<number>;
  /** Stores a book, under `id` when given (reserved), unless one of the same inputs is stored; the stored book's id. */
  storeBook(family: BookFamily, book: BookToStore, id?: number): Promise<number>;
  /** Whether nothing logged after the position can have changed a book of the minute (db/position-books.ts minuteUnchangedSince). */
  minuteUnchangedSince(position: number, instant: number, dates: { from: string; to: string }): Promise<boolean>;
  mapBookMinute(family: BookFamily, instant: number, bookId: number, changeId: number): Promise<void>;
  readBook(bookId: number): Promise<StoredBook | null>;
  /** Stores a book's answers at a minute (db/position-books.ts storeBookAnswers). */
  storeBookAnswers(bookId: number, instant: number, answers: readonly BookAnswerRow[]): Promise<void>;
  /** A book's stored answer at a minute to a route's canonical query, as JSON text; null when none. */
  readBookAnswer(bookId: number, instant: number, operation: string, queryKey: string): Promise<string | null>;
  /** Whether nothing logged after the position can have changed the listed contracts or the open interest of the dates. */
  contractsUnchangedSince(position: number, dates: { from: string; to: string }): Promise<boolean>;
  /** Runs `value` unless another process of the deployment values the same key; whether it ran. */
  whileValuing(key: string, value: () => Promise<void>): Promise<boolean>;
}

/** The stamp of the market data of some dates, which the per-process memos key on (db/market-data-changes.ts). */
export interface MarketDataRepository {
  marketDataStamp(from: string, to: string): Promise<number>;
}

/** Whether a trading date's prints are held, archived or absent (services/session-data.ts; db/archive.ts). */
export interface SessionRepository {
  sessionState(tradingDate: string): Promise<SessionState>;
}

/** The reference routes' reads (services/option-contracts.ts; db/contract-listings.ts). */
export interface ReferenceRepository {
  /** Up to `limit` listed contracts of the filter after `after`, by root, expiration, type and strike. */
  contractListings(filter: ContractListingFilter, after: ContractListingPosition | null, limit: number): Promise<ContractListingRow[]>;
  /** Up to `limit` bars of the counted prints after `after`, by start then trading date (db/option-bars.ts). */
  optionBars(filter: BarFilter, after: BarPosition | null, limit: number): Promise<BarRow[]>;
  /** The id of the contract of a padded OCC symbol; null when none is listed. */
  contractIdOfSymbol(optionSymbol: string): Promise<number | null>;
  /** Of the trading dates, those whose prints are archived and not held. */
  archivedDates(dates: readonly string[]): Promise<string[]>;
  /** A chain page's symbols, newest quotes in a window and last prints before an instant (db/option-chain.ts). */
  chainSnapshot(
    tradingDate: string,
    contractIds: readonly number[],
    quotes: { from: number; to: number },
    prints: { before: number; sessions: readonly string[] },
  ): Promise<ChainSnapshotRow[]>;
}

/** The index routes' reads of the stored one-minute values (services/indices.ts; db/index-values.ts). */
export interface IndexRepository {
  /** The first and last stored minute of each symbol, in the order given. */
  indexCoverage(symbols: readonly string[]): Promise<IndexCoverageRow[]>;
  /** Whether the store's bar files came from a simulator run, from elsewhere, or both. */
  barFileOrigins(): Promise<{ simulated: boolean; loaded: boolean }>;
  /** Up to `limit` bars of a symbol in the windows, by bucket (bucketMs null: one bar per window). */
  indexBars(symbol: string, windows: readonly IndexBarWindow[], bucketMs: number | null, limit: number): Promise<IndexBarRow[]>;
  /** The newest one-minute value starting at or before `lastMinute`; null when none. */
  indexValueAt(symbol: string, lastMinute: number): Promise<{ ts: number; close: number } | null>;
}

/** The per-minute series of the computed volatility indices (services/volatility-index-series.ts; db/volatility-index-series.ts). */
export interface VolatilityIndexRepository {
  /** The market data change log's position (a minute computed after reading it reflects every change up to it). */
  changeLogPosition(): Promise<number>;
  /** The starts of a trading date's minutes of quote samples in [from, to], oldest first. */
  quoteMinutesIn(tradingDate: string, from: number, to: number): Promise<number[]>;
  /** The stored minutes of a series and tenor in [from, to] that no later change makes stale, oldest first. */
  indexMinutes(key: IndexSeriesKey, tenor: string, from: number, to: number): Promise<IndexMinuteRow[]>;
  /** Stores computed minutes at the change log's position read before their chains were. */
  storeIndexMinutes(key: IndexSeriesKey, changeId: number, rows: readonly IndexMinuteRow[]): Promise<void>;
}

/** The futures bars and continuous routes' reads (services/futures-bars.ts; db/futures-continuous.ts). */
export interface FuturesBarsRepository {
  /** A root's stored contracts by expiration. */
  contractsOfRoot(root: string): Promise<StoredFuturesContract[]>;
  /** The statistics of a root's contracts for the trade dates from `from` through `to`. */
  figuresOfRoot(root: string, from: string, to: string): Promise<FuturesFigureRow[]>;
  /** Up to `limit` bars of the windows by bucket (bucketMs null: one bar per trade date). */
  barBuckets(windows: readonly FuturesBarWindow[], bucketMs: number | null, limit: number): Promise<FuturesBarBucket[]>;
  /** The close of a contract's last one-minute bar starting in [from, before); null when none. */
  closeBefore(contractId: number, from: number, before: number): Promise<number | null>;
}

/** The futures trades route's reads (services/futures-trades.ts; db/futures-trades.ts). */
export interface FuturesTradeRepository {
  /** The stored contract of a root and contract month (YYYY-MM); null when none is defined. */
  storedContract(root: string, contractMonth: string): Promise<{ id: number; symbol: string; multiplier: number } | null>;
  /** Up to `limit` trades of the filter after `after`, in (ts, sequence, match, contract id) order, newest first or oldest first. */
  tradePage(
    filter: FuturesTradeFilter,
    after: FuturesTradeKey | null,
    limit: number,
    newestFirst: boolean,
  ): Promise<FuturesTradeOfContract[]>;
}

/** The futures settlements and basis routes' reads (services/futures-basis.ts; db/futures-settlements.ts, db/futures-basis.ts). */
export interface FuturesBasisRepository {
  /** A root's stored contracts by expiration. */
  contractsOfRoot(root: string): Promise<StoredFuturesContract[]>;
  /** Up to `limit` statistics rows of a root (one contract month when given) on the dates, each beside its previous trade date's. */
  settlementsPage(
    root: string,
    contractMonth: string | null,
    dates: SettlementDates,
    after: SettlementPosition | null,
    limit: number,
  ): Promise<SettlementRow[]>;
  /** The newest trade date at or before a date with a statistics row of the root. */
  newestStatisticsDate(root: string, onOrBefore: string): Promise<string | null>;
  /** The newest minute in [from, to] with a bar of the contract and a value of the index. */
  newestBasisMinute(contractId: number, indexSymbol: string, from: number, to: number): Promise<BasisMinute | null>;
  /** The minutes in [from, to) with both prices (with bucketMs, the last of each bucket). */
  basisMinutes(contractId: number, indexSymbol: string, from: number, to: number, bucketMs: number | null): Promise<BasisMinute[]>;
}

export interface Repositories {
  indices: IndexRepository;
  volatilityIndex: VolatilityIndexRepository;
  futuresBars: FuturesBarsRepository;
  futuresTrades: FuturesTradeRepository;
  futuresBasis: FuturesBasisRepository;
  printFeeds: PrintFeedRepository;
  references: ReferenceRepository;
  chain: ChainRepository;
  positioning: PositioningRepository;
  marketData: MarketDataRepository;
  sessions: SessionRepository;
  books: BookRepository;
}

/**
 * The repositories as the Kysely queries of src/db. Where each read goes is decided here, once:
 * `reads` (the read replicas by the floor rule of db/replicas.ts, or the primary when none) for the
 * print feeds, the reference reads, the chain, the positioning, the index and the futures bars reads; `db` (the primary) for the
 * market-data stamp the memos key on (read before the data, so that the request's floor, taken at
 * its first replica read, covers everything the stamp counted), the session states, and the valued
 * books' lookups and writes, which interleave with the valuation claims of other processes. A
 * stored book's columns and fitted surfaces, and its stored answers, are read from `reads` (the
 * bulk of a book's bytes), with the primary asked when the replica has no such row (readOnReplica).
 * A test passes one Queryable for both.
 */
export function databaseRepositories(primary: Queryable, reads: Queryable = primary): Repositories {
  const db = reads;
  return {
    printFeeds: {
      printsPage: async (filter, after, limit) => await printsPageText(db, filter, after, limit),
      scannedPrints: async (filter, after, scan, limit, budget) => await scannedPrints(db, filter, after, scan, limit, budget),
    },
    references: {
      contractListings: async (filter, after, limit) => await contractListings(db, filter, after, limit),
      optionBars: async (filter, after, limit) => await optionBars(db, filter, after, limit),
      contractIdOfSymbol: async (optionSymbol) => await contractIdOfSymbol(db, optionSymbol),
      archivedDates: async (dates) => await archivedDates(db, dates),
      chainSnapshot: async (tradingDate, contractIds, quotes, prints) => await chainSnapshot(db, tradingDate, contractIds, quotes, prints),
    },
    chain: {
      listedExpirations: async (roots, onOrAfter) => await listedExpirations(db, roots, onOrAfter),
      chainQuotesAt: async (expirations, tradingDate, window, contractIds = null) =>
        await chainQuotesAt(db, expirations, tradingDate, window, contractIds),
      underlyingPriceAt: async (symbol, at, lookbackMs) => await underlyingPriceAt(db, symbol, at, lookbackMs),
      newestQuoteMinute: async (tradingDate, from, to) => await newestQuoteMinute(db, tradingDate, from, to),
    },
    positioning: {
      listedContracts: async (expirations, tradingDate) => await listedContracts(db, expirations, tradingDate),
      bookPrints: async (roots, tradingDate, until, flow, activity, sides) =>
        await bookPrints(db, roots, tradingDate, until, flow, activity, sides),
    },
    indices: {
      indexCoverage: async (symbols) => await indexCoverage(db, symbols),
      barFileOrigins: async () => await barFileOrigins(db),
      indexBars: async (symbol, windows, bucketMs, limit) => await indexBars(db, symbol, windows, bucketMs, limit),
      indexValueAt: async (symbol, lastMinute) => await indexValueAt(db, symbol, lastMinute),
    },
    futuresBars: {
      contractsOfRoot: async (root) => await futuresContractsOfRoot(db, root),
      figuresOfRoot: async (root, from, to) => await futuresFiguresOfRoot(db, root, from, to),
      barBuckets: async (windows, bucketMs, limit) => await futuresBarBuckets(db, windows, bucketMs, limit),
      closeBefore: async (contractId, from, before) => await futuresCloseBefore(db, contractId, from, before),
    },
    futuresTrades: {
      storedContract: async (root, contractMonth) => await storedFuturesContract(db, root, contractMonth),
      tradePage: async (filter, after, limit, newestFirst) => await futuresTradePage(db, filter, after, limit, newestFirst),
    },
    futuresBasis: {
      contractsOfRoot: async (root) => await futuresContractsOfRoot(db, root),
      settlementsPage: async (root, contractMonth, dates, after, limit) =>
        await settlementsPage(db, root, contractMonth, dates, after, limit),
      newestStatisticsDate: async (root, onOrBefore) => await newestStatisticsDate(db, root, onOrBefore),
      newestBasisMinute: async (contractId, indexSymbol, from, to) => await newestBasisMinute(db, contractId, indexSymbol, from, to),
      basisMinutes: async (contractId, indexSymbol, from, to, bucketMs) =>
        await basisMinutes(db, contractId, indexSymbol, from, to, bucketMs),
    },
    marketData: { marketDataStamp: async (from, to) => await marketDataStamp(primary, from, to) },
    sessions: { sessionState: async (tradingDate) => await sessionState(primary, tradingDate) },
    books: booksOn(primary, reads),
    // On the primary, as the books: the staleness check reads the change log where the writes commit.
    volatilityIndex: {
      changeLogPosition: async () => await changeLogPosition(primary),
      quoteMinutesIn: async (tradingDate, from, to) => await quoteMinutesIn(primary, tradingDate, from, to),
      indexMinutes: async (key, tenor, from, to) => await indexMinutes(primary, key, tenor, from, to),
      storeIndexMinutes: async (key, changeId, rows) => await storeIndexMinutes(primary, key, changeId, rows),
    },
  };
}

/**
 * A read of a row that, once written, is never changed (a stored book by its id, a stored answer by
 * its key): from the replica, else from the primary. A replica that has not yet replayed the row (a
 * book stored by this request, or by another process after the request's floor) answers nothing,
 * never an older row, so nothing stale is served and the primary is asked only for rows that new.
 */
export async function readOnReplica<T>(
  replica: Queryable,
  primary: Queryable,
  read: (on: Queryable) => Promise<T | null>,
): Promise<T | null> {
  if (replica === primary) return await read(primary);
  return (await read(replica)) ?? (await read(primary));
}

/** The valued books: lookups and writes on the primary; a stored book and its answers, read by id, from `reads` first. */
function booksOn(db: Queryable, reads: Queryable): BookRepository {
  return {
    changeLogPosition: async () => await changeLogPosition(db),
    loadUnitUnderWay: async () => await loadUnitUnderWay(db),
    bookOfMinute: async (family, instant, dates) => await bookOfMinute(db, family, instant, dates),
    newestBookBefore: async (family, before, dates) => await newestBookBefore(db, family, before, dates),
    bookOfDigest: async (family, digest) => await bookOfDigest(db, family, digest),
    bookOfChain: async (family, valuedAt, chainDigest, dates) => await bookOfChain(db, family, valuedAt, chainDigest, dates),
    // The pool's handle, never a transaction's: the book is written in one transaction of its own.
    reserveBookId: async () => await reserveBookId(db),
    storeBook: async (family, book, id) => await storeBook(db, family, book, id ?? null),
    minuteUnchangedSince: async (position, instant, dates) => await minuteUnchangedSince(db, position, instant, dates),
    mapBookMinute: async (family, instant, bookId, changeId) => await mapBookMinute(db, family, instant, bookId, changeId),
    readBook: async (bookId) => await readOnReplica(reads, db, (on) => readBook(on, bookId)),
    storeBookAnswers: async (bookId, instant, answers) => await storeBookAnswers(db, bookId, instant, answers),
    readBookAnswer: async (bookId, instant, operation, queryKey) =>
      await readOnReplica(reads, db, (on) => readBookAnswer(on, bookId, instant, operation, queryKey)),
    contractsUnchangedSince: async (position, dates) => await contractsUnchangedSince(db, position, dates),
    whileValuing: async (key, value) => await whileClaimed(db, key, value),
  };
}
