/**
 * Prints: the one load path for vendor files, canonical files, the simulator and archive reloads.
 * A file is read into a PrintTable (print-reader.ts into print-table.ts, column by column outside
 * the JS heap, a large file by two readers at once), put in classification order (print-order.ts), and loaded in one
 * transaction: its contracts stored, then trading date by trading date, each print is given to the
 * classifier (analytics/classification.ts) with what it needs (the quote in force: the file's own,
 * else the latest one-minute NBBO sample at or before the print, date-context.ts; the underlying's
 * bar of the minute or the one before; open interest at the start of the date; the session and
 * cash close from the calendar; time to the settlement instant, rate, and the carry of the parity
 * forward of its expiration's chain minute in force at it, date-context.ts carryAt, else the
 * underlying's fixed dividend yield) and its row streamed
 * by COPY while the following prints are classified (print-copy-sink.ts, db/bulk-copy.ts). A
 * trading date without a partition yet is loaded into a standalone table created in the load and
 * attached as the date's partition at the end, when PostgreSQL builds its indexes in bulk; a date
 * already stored takes its rows through a staging table, a print it repeats (same date, contract
 * and sequence) left as stored, and continues the stored day (stored-day.ts): each contract's
 * day_volume starts from its stored volume, and a cancel record that matches no print of its own
 * file cancels the most recent matching stored print, which the store remembers (print_cancels),
 * so that loading the file again changes nothing. Files of one date are meant to come in time
 * order (a full OPRA day in chronological parts); the file itself is recorded in the ledger, and a
 * file loaded before is skipped unless forced. Each record read ends in one outcome of the result
 * (source.ts MarketLoadResult), counted where it is decided (a rejected record by the reader, a
 * repeat by the sort, a cancel record by what it cancelled) and checked to add up before the load
 * commits (load-counts.ts). The flow totals of the dates the load changed (db/flow-aggregates.ts)
 * are written last, in the same transaction, so a reader sees a session's prints and its totals
 * together. Its last statement announces each date's new prints (db/print-events.ts: a NOTIFY that
 * PostgreSQL sends at the commit), for the streams to read them.
 */
import { groupBy } from '../collections.js';
import { PrintClassifier, type PrintContext, type RawPrint } from '../analytics/classification.js';
import { parsePrintId } from '../analytics/print-id.js';
import type { QuoteInForce } from '../analytics/print-side.js';
import { dividendYield } from '../analytics/rates.js';
import { MS_PER_YEAR, settlementInstant } from '../analytics/settlement.js';
import { openCopySession, printsAddedStaged, type PrintCopy } from '../db/bulk-copy.js';
import type { Database, Queryable } from '../db/connection.js';
import { addFlowTotals, refreshFlowTotals } from '../db/flow-aggregates.js';
import { findIngestedFile, recordIngestedFile } from '../db/ingest-files.js';
import { ensureContracts, ensureOptionRoots } from '../db/option-contracts.js';
import { attachPrintsPartition, createStandalonePrintsPartition, partitionDates } from '../db/partitions.js';
import { markPrintsCancelled, recordPrintCancels } from '../db/stored-prints.js';
import { recordMarketDataChange } from '../db/market-data-changes.js';
import { notifyPrintsLoaded, type LoadedDate } from '../db/print-events.js';
import { loadDateContext, type DateContext } from './date-context.js';
import { CopySink } from './print-copy-sink.js';
import { sortPrints, type PrintDay, type SortedPrints } from './print-order.js';
import { PrintSessionResolver } from './print-session.js';
import { readPrintTable, type ReadOptions } from './print-reader.js';
import { NO_CODES, type PrintTable } from './print-table.js';
import { checkLoadCounts } from './load-counts.js';
import { fileLoaded } from './ledger.js';
import { alreadyLoadedResult, emptyResult, fileChecksum, type MarketLoadResult } from './source.js';
import { loadStoredDay, type CancelledKey, type StoredDay } from './stored-day.js';
import type { VendorAdapter } from './vendors.js';

/** Opens where a trading date's rows go: `fresh` when `table` was created in this load. */
export type PrintOutput = (trx: Queryable, table: string, options: { fresh: boolean }) => Promise<PrintCopy>;

export interface PrintLoadOptions extends ReadOptions {
  adapter?: VendorAdapter | null;
  /** Receives the binary COPY data instead of the database (benchmarks). */
  output?: PrintOutput;
}

/**
 * Loads a prints file (canonical or a vendor layout) in one transaction: contracts created from
 * their OCC symbols when unknown, prints classified and written by COPY, cancels applied, the file
 * recorded in the ledger. `db` must be a handle opened by openDatabase() (COPY takes a client of
 * its pool for the load).
 */
export async function loadPrintsFile(db: Database, file: string, options: PrintLoadOptions = {}): Promise<MarketLoadResult> {
  const session = await openCopySession(db);
  try {
    return await loadPrints(session.db, file, options, options.output ?? ((trx, table, o) => session.copyPrints(trx, table, o)));
  } finally {
    await session.close();
  }
}

/** Stores the file's option roots and contracts and gives the table their rows and pricing constants. */
async function storeContracts(trx: Queryable, table: PrintTable): Promise<void> {
  const roots = new Map(table.slots.map((s) => [s.root.root, s.root]));
  await ensureOptionRoots(trx, [...roots.values()]);
  const contracts = await ensureContracts(
    trx,
    table.slots.map((s) => ({
      symbol: s.ref.symbol,
      root: s.ref.root,
      underlying: s.root.underlying,
      dateOfExpiry: s.ref.dateOfExpiry,
      type: s.ref.type,
      strikeThousandths: s.ref.strikeThousandths,
      multiplier: s.root.multiplier,
    })),
  );
  table.storeContracts(
    table.slots.map((s) => {
      const contract = contracts.get(s.ref.symbol);
      if (contract === undefined) throw new Error(`contract ${s.ref.symbol} was not stored`);
      return {
        ...s,
        contract,
        settlementMs: settlementInstant(s.ref.root, s.ref.dateOfExpiry),
        expiration: `${s.ref.root} ${s.ref.dateOfExpiry}`,
        dividendYield: dividendYield(contract.underlying),
      };
    }),
  );
}

/**
 * The keys of the prints the classifier cancelled by id (prints it output earlier in this load),
 * for the file's contracts; an id that is not a print id, or names another contract, is skipped.
 */
export function cancelledKeys(table: PrintTable, ids: readonly string[]): CancelledKey[] {
  const byKey = new Map(table.storedSlots.map((s) => [s.key, s]));
  const keys: CancelledKey[] = [];
  for (const id of ids) {
    const parsed = parsePrintId(id);
    const slot = parsed === null ? undefined : byKey.get(parsed.contractKey);
    if (parsed !== null && slot !== undefined)
      keys.push({ contractId: slot.contract.id, tradingDate: parsed.tradingDate, sequence: parsed.sequence });
  }
  return keys;
}

/** The contract ids of some of the table's records (an order's slice). */
function contractIdsOf(table: PrintTable, records: Iterable<number>): Set<number> {
  const ids = new Set<number>();
  for (const i of records) ids.add(table.storedSlotAt(i).contract.id);
  return ids;
}

async function loadPrints(db: Database, file: string, options: PrintLoadOptions, output: PrintOutput): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  const kind = adapter?.kind ?? 'prints';
  const started = performance.now();
  const result = emptyResult(file, kind);
  const checksum = await fileChecksum(file);
  if (!options.force) {
    const before = await findIngestedFile(db, checksum, kind);
    if (before !== null) return alreadyLoadedResult(file, kind, before.read);
  }
  const resolver = new PrintSessionResolver();
  const prints = sortPrints(await readPrintTable(file, adapter, result, options, resolver));
  result.duplicates += prints.duplicates;
  const existing = new Set(await partitionDates(db, 'prints'));
  const every = options.progressEvery ?? 1_000_000;

  await db.transaction().execute(async (trx) => {
    await storeContracts(trx, prints.table);
    const load = new PrintLoad(trx, file, prints, resolver, output, result, options.log, every);
    for (const day of prints.days) await load.loadDay(day, !existing.has(day.tradingDate));
    await attachNewDates(trx, prints, load.attach);
    const keys = await applyCancels(trx, prints.table, load.sink, load.storedDays);
    await refreshChangedTotals(trx, prints, load.attach, keys);
    countOutcomes(result, load);
    checkLoadCounts(result);
    await recordIngestedFile(trx, {
      checksum,
      kind,
      fileName: file,
      read: result.read,
      loaded: result.loaded,
      rejected: result.rejected.length,
      duplicates: result.duplicates,
    });
    // Last: PostgreSQL sends it at the commit, so a stream reads only committed prints.
    await notifyPrintsLoaded(trx, load.loaded);
  });
  if (prints.table.length >= every) options.log?.(`${file}: loaded ${result.loaded.toLocaleString('en-US')} prints`);
  fileLoaded(result, started);
  return result;
}

/**
 * The classifier's input for one print of the table, refilled per print (pushTo copies what it
 * keeps): one of each object for the whole load, none per row.
 */
class PrintInput {
  private readonly quote: QuoteInForce = { bid: null, ask: null, timestamp: 0 };
  readonly raw: RawPrint = {
    root: '',
    contractKey: '',
    underlying: '',
    dateOfExpiry: '',
    type: 'call',
    strike: 0,
    multiplier: 0,
    timestamp: 0,
    sequence: 0,
    price: 0,
    size: 0,
    exchangeCode: 0,
    conditionCode: 0,
    extendedConditions: NO_CODES,
    aggressorSide: null,
  };
  readonly context: PrintContext = {
    tradingDate: '',
    session: 'rth',
    quote: null,
    underlyingPrice: null,
    underlyingTimestamp: null,
    valuationPrice: null,
    openInterest: null,
    yearsToSettlement: 0,
    rate: 0,
    dividendYield: 0,
    cashCloseMs: 0,
    stored: null,
  };

  /** What is the same for every print of the trading date. */
  startDate(tradingDate: string, market: DateContext, stored: StoredDay | null): void {
    const context = this.context;
    context.tradingDate = tradingDate;
    context.rate = market.rate;
    context.cashCloseMs = market.cashCloseMs;
    context.stored = stored;
  }

  /**
   * Print i of the table, and what the market knew at it. A print without a quote of its own is
   * given the date's sample in force, which is stored with it as its quote.
   */
  fill(table: PrintTable, i: number, market: DateContext): void {
    const { raw, context, quote } = this;
    const slot = table.storedSlotAt(i);
    const { contract, ref } = slot;
    const ts = table.timestampAt(i);
    raw.root = ref.root;
    raw.contractKey = slot.key;
    raw.underlying = contract.underlying;
    raw.dateOfExpiry = ref.dateOfExpiry;
    raw.type = ref.type;
    raw.strike = ref.strike;
    raw.multiplier = contract.multiplier;
    raw.timestamp = ts;
    raw.sequence = table.sequenceAt(i);
    raw.price = table.priceAt(i);
    raw.size = table.sizeAt(i);
    raw.exchangeCode = table.exchangeCodeAt(i);
    raw.conditionCode = table.conditionCodeAt(i);
    raw.extendedConditions = table.extendedConditionsAt(i);
    raw.aggressorSide = table.aggressorSideAt(i);

    let inForce: QuoteInForce | null = quote;
    if (table.hasQuote(i)) {
      quote.bid = table.quoteBidAt(i);
      quote.ask = table.quoteAskAt(i);
      quote.timestamp = table.quoteTsAt(i) ?? NaN;
    } else {
      inForce = market.quoteAt(contract.id, ts, quote);
      table.setQuote(i, inForce);
    }
    const bar = market.ownBarAt(contract.underlying, ts);

    context.session = table.sessionAt(i);
    context.quote = inForce;
    context.underlyingPrice = bar?.close ?? null;
    context.underlyingTimestamp = bar?.ts ?? null;
    // An index outside its calculation hours has no price of its own: the print is valued at its
    // regular close (date-context.ts valuationBarAt), as its contract's history is.
    context.valuationPrice = bar === null ? (market.valuationBarAt(contract.underlying, ts)?.close ?? null) : null;
    context.openInterest = market.openInterestOf(contract.id);
    context.yearsToSettlement = (slot.settlementMs - ts) / MS_PER_YEAR;
    // One forward for every volatility: the print's implied volatility and delta are solved on the
    // put-call parity forward of its expiration's quotes in its minute (else of the latest earlier
    // minute with one, within 30 minutes), as its carry at the print's underlying price; only
    // when parity cannot be solved there (no strike quoted on both legs, no underlying price) on
    // the underlying's fixed dividend yield (rates.ts).
    context.dividendYield = market.carryAt(slot.expiration, ts) ?? slot.dividendYield;
  }
}

/** The trading dates of one load, one after the other, and what they leave for the load's end. */
class PrintLoad {
  readonly classifier = new PrintClassifier();
  readonly sink: CopySink;
  private readonly input = new PrintInput();
  /** Rows the dates' copies stored. */
  written = 0;
  /** New dates' standalone tables, attached at the end, and the rows each received. */
  readonly attach = new Map<string, number>();
  readonly storedDays: StoredDay[] = [];
  /** Each date's time range and rows, announced to the streams at the end (db/print-events.ts). */
  readonly loaded: LoadedDate[] = [];
  private nextProgress: number;

  constructor(
    private readonly trx: Queryable,
    private readonly file: string,
    private readonly prints: SortedPrints,
    private readonly resolver: PrintSessionResolver,
    private readonly output: PrintOutput,
    private readonly result: MarketLoadResult,
    private readonly log: ((message: string) => void) | undefined,
    private readonly every: number,
  ) {
    this.sink = new CopySink(prints.table);
    this.nextProgress = every;
  }

  /**
   * Loads one trading date: a standalone table when the date is new (`fresh`), the date's market
   * context and, for a stored date, its stored day; then its prints classified and copied.
   */
  async loadDay(day: PrintDay, fresh: boolean): Promise<void> {
    const { trx, prints, sink } = this;
    const tradingDate = day.tradingDate;
    let target = 'prints';
    if (fresh) {
      target = await createStandalonePrintsPartition(trx, tradingDate, { primaryKey: !day.uniqueKeys });
      this.attach.set(tradingDate, 0);
    }
    const market = await loadDateContext(trx, prints, day, this.resolver);
    const stored = fresh ? null : await loadStoredDay(trx, prints, day);
    if (stored !== null) this.storedDays.push(stored);
    // Straight into the new table: every row sent is stored. Else through a staging table, where a
    // row whose key the store (or an earlier row) holds is left out.
    const direct = fresh && day.uniqueKeys;
    const copy = await this.output(trx, target, { fresh: direct });
    const outputBefore = sink.output;
    sink.start(copy);
    try {
      await this.classifyDay(day, market, stored, copy);
      const rows = await copy.end();
      this.written += rows;
      // The date's prints output and not stored repeat a key the store held. A direct COPY has none,
      // so a row it did not store stays unexplained and fails the count at the end.
      if (!direct) this.result.duplicates += sink.output - outputBefore - rows;
      if (this.attach.has(tradingDate)) this.attach.set(tradingDate, rows);
      if (rows > 0) {
        const { from, to } = timeRange(prints, day);
        this.loaded.push({ tradingDate, from, to, rows });
      }
    } catch (error) {
      await copy.abort(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  /** Gives each print of the date to the classifier, its rows to the date's copy. */
  private async classifyDay(day: PrintDay, market: DateContext, stored: StoredDay | null, copy: PrintCopy): Promise<void> {
    const { classifier, sink, input } = this;
    const { table, order } = this.prints;
    input.startDate(day.tradingDate, market, stored);
    for (const i of order.subarray(day.start, day.end)) {
      input.fill(table, i, market);
      if (table.isCancel(i)) {
        if (stored !== null) stored.current = i;
      } else sink.expect(i);
      classifier.pushTo(input.raw, input.context, sink);
      if (sink.blocked) {
        sink.blocked = false;
        await copy.drained();
      }
      if (sink.output >= this.nextProgress) {
        this.log?.(`${this.file}: classified ${sink.output.toLocaleString('en-US')} prints`);
        this.nextProgress += this.every;
      }
    }
    // The date's last groups close here, so its rows all reach its own table.
    classifier.flushTo(sink);
    sink.finish();
  }
}

/** The first and last timestamps of a date's prints. */
function timeRange({ table, order }: SortedPrints, day: PrintDay): { from: number; to: number } {
  let from = Infinity;
  let to = -Infinity;
  for (const i of order.subarray(day.start, day.end)) {
    const ts = table.timestampAt(i);
    if (ts < from) from = ts;
    if (ts > to) to = ts;
  }
  return { from, to };
}

/** Attaches the new dates' tables as partitions, and records the change of the dates stored already. */
async function attachNewDates(trx: Queryable, prints: SortedPrints, attach: ReadonlyMap<string, number>): Promise<void> {
  for (const [date, rows] of attach) await attachPrintsPartition(trx, date, rows);
  // Dates stored already took their prints through the staging table (attached ones are recorded by the attach).
  // Each from its first print's time: a print changes nothing derived from the data before it.
  for (const day of prints.days)
    if (!attach.has(day.tradingDate)) await recordMarketDataChange(trx, [day.tradingDate], timeRange(prints, day).from);
}

/**
 * Marks cancelled the prints the file's cancel records matched, those the classifier output
 * earlier in this load and stored ones (whose cancels the store remembers); returns their keys.
 */
async function applyCancels(trx: Queryable, table: PrintTable, sink: CopySink, storedDays: readonly StoredDay[]): Promise<CancelledKey[]> {
  const keys = cancelledKeys(table, sink.cancelledIds);
  for (const stored of storedDays) {
    keys.push(...stored.cancelled);
    await recordPrintCancels(trx, stored.records);
  }
  await markPrintsCancelled(trx, keys);
  return keys;
}

/**
 * The flow totals of what changed: a new date's whole, a stored date's contracts that took prints
 * or cancels. Called after the cancels, so that cancelled prints are left out.
 */
async function refreshChangedTotals(
  trx: Queryable,
  { table, order, days }: SortedPrints,
  attach: ReadonlyMap<string, number>,
  keys: readonly CancelledKey[],
): Promise<void> {
  const changed = new Map<string, Set<number> | null>([...attach.keys()].map((date) => [date, null]));
  for (const day of days)
    if (!changed.has(day.tradingDate)) changed.set(day.tradingDate, contractIdsOf(table, order.subarray(day.start, day.end)));
  for (const key of keys) {
    const contracts = changed.get(key.tradingDate);
    if (contracts === undefined) changed.set(key.tradingDate, new Set([key.contractId]));
    else contracts?.add(key.contractId);
  }
  // A stored date's prints went through the staging table, whose inserted rows prints_added holds
  // (db/bulk-copy.ts): their totals are added to the stored ones, and only the contracts a cancel
  // touched are recomputed from their prints (flow-aggregates.ts addFlowTotals). A load whose
  // output kept no such table (one given in options.output) recomputes each contract it touched.
  const added = await printsAddedStaged(trx);
  const cancelledOf = groupBy(keys, (k) => k.tradingDate);
  // In date order: each takes its date's lock, and two loads lock their dates in the same order.
  for (const [date, contracts] of [...changed].sort(([a], [b]) => a.localeCompare(b))) {
    if (contracts === null) await refreshFlowTotals(trx, date, null);
    else if (added) await addFlowTotals(trx, date, [...contracts], new Set((cancelledOf.get(date) ?? []).map((k) => k.contractId)));
    else await refreshFlowTotals(trx, date, [...contracts]);
  }
}

/** The rows loaded and the cancel records' outcomes, into the result (checked by checkLoadCounts). */
function countOutcomes(result: MarketLoadResult, { written, sink, storedDays, classifier }: PrintLoad): void {
  result.loaded = written;
  // Each cancel record once: it cancelled a print of this file (one output before it, or one held
  // and output marked), or a stored one, or found one an earlier load of this file cancelled, or none.
  result.cancels = sink.cancelledIds.length + sink.cancelledPrints;
  for (const stored of storedDays) {
    result.cancelsOfStored += stored.records.length;
    result.cancelsAlreadyApplied += stored.alreadyApplied;
  }
  result.cancelsUnmatched = classifier.unmatchedCancels - result.cancelsAlreadyApplied;
}
