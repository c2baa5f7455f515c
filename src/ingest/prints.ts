/**
 * Prints: parse, place on the calendar, sort, classify, bulk write; the one path for vendor files,
 * canonical files, the simulator and archive reloads.
 *
 * For each print the pipeline gives the classifier (analytics/classification.ts):
 * - the quote in force: the print's own bid/ask/quote_timestamp when the file carries them, else the
 *   latest one-minute NBBO sample of the contract at or before the print (quotes files loaded
 *   earlier for that trading date). Samples hold a minute's last update, so a print more than 30 s
 *   after it gets side unknown, as the classifier's staleness rule requires;
 * - the underlying price: the close of the underlying's one-minute bar of the print's minute, else
 *   of the previous minute (null when neither is loaded), and that bar's start as its time;
 * - open interest at the start of the trading date (the open_interest row of that date);
 * - trading date and session from the calendar (print-session.ts), the cash close of the date;
 * - time to settlement (settlement.ts), the risk-free rate of the date and the dividend yield of
 *   the underlying (rates.ts).
 * Prints are sorted by (trading date, timestamp, sequence, line) in memory per file. A print whose
 * trading date, contract and sequence repeat an earlier one in the file is a duplicate and skipped;
 * one already stored is left as stored (ON CONFLICT DO NOTHING). Running day volume starts at zero
 * with each file: a trading date's prints belong in one file.
 *
 * Writing: batches of PRINT_BATCH_ROWS rows, one written while the next is classified. A trading
 * date without a partition yet is loaded into a standalone table holding only the primary key and
 * attached as the date's partition at the end of the transaction, when PostgreSQL builds the other
 * indexes in bulk; a date already present takes its rows through the indexed partition. The write
 * is INSERT … SELECT FROM unnest() by default, COPY through a staging table when the caller gives
 * the connection string (measured slower here on these wide rows, see bench/ingest).
 */
import { CalendarRangeError } from '../analytics/calendar.js';
import {
  PrintClassifier,
  type ClassifiedPrintRecord,
  type PrintContext,
  type PrintSink,
  type QuoteInForce,
  type RawPrint,
} from '../analytics/classification.js';
import { conditionTraitMask, TraitBit } from '../analytics/opra.js';
import type { OptionRoot } from '../analytics/roots.js';
import { dividendYield, riskFreeRate } from '../analytics/rates.js';
import { MS_PER_YEAR, settlementInstant } from '../analytics/settlement.js';
import type { Database, Queryable } from '../db/connection.js';
import {
  bulkInsertPrints,
  ensureContracts,
  ensureOptionRoots,
  attachPrintsPartition,
  createStandalonePrintsPartition,
  partitionDates,
  findIngestedFile,
  intArrayLiteral,
  markPrintsCancelled,
  openInterestOn,
  PrintColumns,
  quoteSamplesOn,
  recordIngestedFile,
  underlyingBarsBetween,
  wordArrayLiteral,
  type StoredContract,
} from '../db/market-data.js';
import { openCopySession } from '../db/bulk-copy.js';
import { parsePrintFields, type CanonicalPrint } from './canonical.js';
import { PrintSessionResolver } from './print-session.js';
import { canonicalRecords, emptyResult, fileChecksum, rootInfo, type LoadOptions, type MarketLoadResult } from './source.js';
import type { VendorAdapter } from './vendors.js';

/** Rows per bulk write. */
export const PRINT_BATCH_ROWS = 10_000;

/** A validated print placed on the calendar, held in memory until its file is sorted. */
class PlacedPrint {
  readonly line: number;
  readonly contract: CanonicalPrint['contract'];
  readonly timestamp: number;
  readonly sequence: number;
  readonly price: number;
  readonly size: number;
  readonly exchangeCode: number;
  readonly conditionCode: number;
  readonly extendedConditions: number[];
  readonly aggressorSide: 'buy' | 'sell' | null;
  /** The file's own quote (hasQuote), then the quote in force given to the classifier. */
  hasQuote: boolean;
  quoteBid: number | null;
  quoteAsk: number | null;
  quoteTs: number | null;
  readonly tradingDate: string;
  /** Position of tradingDate among the file's dates, for sorting. */
  dateIndex: number;
  readonly session: PrintContext['session'];
  readonly root: OptionRoot;
  readonly cancel: boolean;
  info: ContractInfo | null = null;

  constructor(p: CanonicalPrint, tradingDate: string, dateIndex: number, session: PrintContext['session'], root: OptionRoot, cancel: boolean) {
    this.line = p.line;
    this.contract = p.contract;
    this.timestamp = p.timestamp;
    this.sequence = p.sequence;
    this.price = p.price;
    this.size = p.size;
    this.exchangeCode = p.exchangeCode;
    this.conditionCode = p.conditionCode;
    this.extendedConditions = p.extendedConditions;
    this.aggressorSide = p.aggressorSide;
    this.hasQuote = p.quote !== null;
    this.quoteBid = p.quote?.bid ?? null;
    this.quoteAsk = p.quote?.ask ?? null;
    this.quoteTs = p.quote?.timestamp ?? null;
    this.tradingDate = tradingDate;
    this.dateIndex = dateIndex;
    this.session = session;
    this.root = root;
    this.cancel = cancel;
  }
}

/** Per contract, resolved once per file: its stored row and pricing constants. */
interface ContractInfo {
  stored: StoredContract;
  settlementMs: number;
  dividendYield: number;
}

/** The print as served: the JSON object of the specification's 31 fields, in its order. */
export function printBody(r: ClassifiedPrintRecord): string {
  return (
    `{"ask":${r.ask === null ? 'null' : r.ask},"bid":${r.bid === null ? 'null' : r.bid},"condition_code":${r.condition_code}` +
    `,"contract_type":"${r.contract_type}","date_of_expiry":"${r.date_of_expiry}","day_volume":${r.day_volume}` +
    `,"days_to_expiry":${r.days_to_expiry},"delta":${r.delta === null ? 'null' : r.delta},"exchange":${JSON.stringify(r.exchange)}` +
    `,"exchange_code":${r.exchange_code},"flags":${JSON.stringify(r.flags)},"group_id":${r.group_id === null ? 'null' : JSON.stringify(r.group_id)}` +
    `,"id":${JSON.stringify(r.id)},"implied_volatility":${r.implied_volatility === null ? 'null' : r.implied_volatility}` +
    `,"is_block":${r.is_block},"is_golden":${r.is_golden},"is_unusual":${r.is_unusual}` +
    `,"open_interest":${r.open_interest === null ? 'null' : r.open_interest},"otm_percent":${r.otm_percent === null ? 'null' : r.otm_percent}` +
    `,"premium":${r.premium},"price":${r.price},"sentiment":"${r.sentiment}","session":"${r.session}","side":"${r.side}"` +
    `,"side_confidence":${r.side_confidence},"size":${r.size},"strike":${r.strike},"timestamp":${r.timestamp}` +
    `,"trade_type":"${r.trade_type}","underlying_price":${r.underlying_price === null ? 'null' : r.underlying_price}` +
    `,"underlying_symbol":${JSON.stringify(r.underlying_symbol)}}`
  );
}

function isCancelRecord(p: CanonicalPrint): boolean {
  let traits = conditionTraitMask(p.conditionCode);
  for (const c of p.extendedConditions) traits |= conditionTraitMask(c);
  return (traits & TraitBit.cancel) !== 0;
}

/**
 * Reads, validates and places the prints of a file; sorted for the classifier. Repeats of a print
 * (same trading date, time, sequence and contract) are counted as duplicates and dropped.
 */
async function readPrints(file: string, adapter: VendorAdapter | null, result: MarketLoadResult, options: LoadOptions, resolver: PrintSessionResolver): Promise<PlacedPrint[]> {
  const prints: PlacedPrint[] = [];
  const dateIndex = new Map<string, number>();
  for await (const { line, fields } of canonicalRecords(file, adapter, result, options)) {
    const parsed = parsePrintFields(fields, line);
    if (typeof parsed === 'string') {
      result.rejected.push({ line, reason: parsed });
      continue;
    }
    const root = rootInfo(parsed.contract.root);
    let place;
    try {
      place = resolver.place(parsed.timestamp, root);
    } catch (error) {
      if (error instanceof CalendarRangeError) {
        result.rejected.push({ line, reason: `timestamp ${parsed.timestamp} is outside the market calendar` });
        continue;
      }
      throw error;
    }
    let index = dateIndex.get(place.tradingDate);
    if (index === undefined) dateIndex.set(place.tradingDate, (index = dateIndex.size));
    prints.push(new PlacedPrint(parsed, place.tradingDate, index, place.session, root, isCancelRecord(parsed)));
  }
  // Dates in calendar order, then (timestamp, sequence, line) within each.
  const order = [...dateIndex.keys()].sort();
  const rank = new Map(order.map((d, i) => [d, i]));
  for (const p of prints) p.dateIndex = rank.get(p.tradingDate) as number;
  prints.sort((a, b) => a.dateIndex - b.dateIndex || a.timestamp - b.timestamp || a.sequence - b.sequence || a.line - b.line);
  let kept = 0;
  let previous: PlacedPrint | undefined;
  for (const p of prints) {
    if (
      previous !== undefined &&
      !p.cancel &&
      !previous.cancel &&
      p.sequence === previous.sequence &&
      p.timestamp === previous.timestamp &&
      p.dateIndex === previous.dateIndex &&
      p.contract.symbol === previous.contract.symbol
    ) {
      result.duplicates += 1;
      continue;
    }
    prints[kept++] = p;
    previous = p;
  }
  prints.length = kept;
  return prints;
}

/** Latest-at-or-before lookups over one contract's minute samples. */
interface SampleSeries {
  ts: number[];
  bid: (number | null)[];
  ask: (number | null)[];
}

interface Bar {
  ts: number;
  close: number;
}

/** What the classifier needs about the market of one trading date. */
interface DateContext {
  samples: Map<number, SampleSeries>;
  bars: Map<string, Map<number, Bar>>;
  openInterest: Map<number, number>;
  rate: number;
  cashCloseMs: number;
}

async function loadDateContext(db: Queryable, tradingDate: string, prints: readonly PlacedPrint[], resolver: PrintSessionResolver): Promise<DateContext> {
  const lookupIds = new Set<number>();
  const allIds = new Set<number>();
  const underlyings = new Set<string>();
  let minTs = Infinity;
  let maxTs = -Infinity;
  for (const p of prints) {
    const c = (p.info as ContractInfo).stored;
    allIds.add(c.id);
    if (!p.hasQuote) lookupIds.add(c.id);
    underlyings.add(c.underlying);
    if (p.timestamp < minTs) minTs = p.timestamp;
    if (p.timestamp > maxTs) maxTs = p.timestamp;
  }
  const samples = new Map<number, SampleSeries>();
  for (const s of await quoteSamplesOn(db, tradingDate, [...lookupIds])) {
    let series = samples.get(s.contractId);
    if (series === undefined) samples.set(s.contractId, (series = { ts: [], bid: [], ask: [] }));
    series.ts.push(s.quoteTs);
    series.bid.push(s.bid);
    series.ask.push(s.ask);
  }
  const bars = new Map<string, Map<number, Bar>>();
  for (const b of await underlyingBarsBetween(db, [...underlyings], Math.floor(minTs / 60_000) * 60_000 - 60_000, maxTs)) {
    let m = bars.get(b.symbol);
    if (m === undefined) bars.set(b.symbol, (m = new Map<number, Bar>()));
    m.set(b.ts, { ts: b.ts, close: b.close });
  }
  return {
    samples,
    bars,
    openInterest: await openInterestOn(db, tradingDate, [...allIds]),
    rate: riskFreeRate(tradingDate),
    cashCloseMs: resolver.cashCloseMs(tradingDate),
  };
}

function sampleAt(series: SampleSeries | undefined, ts: number, out: QuoteInForce): QuoteInForce | null {
  if (series === undefined) return null;
  const times = series.ts;
  let lo = 0;
  let hi = times.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) <= ts) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return null;
  out.bid = series.bid[found] ?? null;
  out.ask = series.ask[found] ?? null;
  out.timestamp = times[found] as number;
  return out;
}

/** Receives classified prints in input order and lays them out as insert columns. */
class ColumnSink implements PrintSink {
  rows = new PrintColumns();
  /** Inputs of the prints pushed and not yet output, in order (output order is input order). */
  private pending: (PlacedPrint | undefined)[] = [];
  private pendingHead = 0;
  readonly cancelledIds: string[] = [];
  output = 0;

  expect(print: PlacedPrint): void {
    this.pending.push(print);
  }

  print(r: ClassifiedPrintRecord): void {
    const print = this.pending[this.pendingHead];
    if (print === undefined || print.sequence !== r.sequence) throw new Error(`classifier output out of order at print ${r.id}`);
    this.pending[this.pendingHead] = undefined;
    this.pendingHead += 1;
    if (this.pendingHead > 65_536 && this.pendingHead * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.pendingHead);
      this.pendingHead = 0;
    }
    const contract = (print.info as ContractInfo).stored;
    const c = this.rows.columns;
    c.trading_date.push(r.trading_date);
    c.contract_id.push(contract.id);
    c.sequence.push(r.sequence);
    c.id.push(r.id);
    c.root.push(print.root.root);
    c.family.push(print.root.family);
    c.underlying.push(contract.underlying);
    c.ts.push(r.timestamp);
    c.session.push(r.session);
    c.contract_type.push(r.contract_type);
    c.date_of_expiry.push(r.date_of_expiry);
    c.strike.push(r.strike);
    c.price.push(r.price);
    c.size.push(r.size);
    c.premium.push(r.premium);
    c.exchange_code.push(r.exchange_code);
    c.exchange.push(r.exchange);
    c.condition_code.push(r.condition_code);
    c.extended_conditions.push(intArrayLiteral(print.extendedConditions));
    c.side.push(r.side);
    c.side_confidence.push(r.side_confidence);
    c.sentiment.push(r.sentiment);
    c.trade_type.push(r.trade_type);
    c.flags.push(wordArrayLiteral(r.flags));
    c.group_id.push(r.group_id);
    c.is_block.push(r.is_block);
    c.is_golden.push(r.is_golden);
    c.is_unusual.push(r.is_unusual);
    c.day_volume.push(r.day_volume);
    c.open_interest.push(r.open_interest);
    c.days_to_expiry.push(r.days_to_expiry);
    c.otm_percent.push(r.otm_percent);
    c.implied_volatility.push(r.implied_volatility);
    c.delta.push(r.delta);
    c.underlying_price.push(r.underlying_price);
    c.bid.push(r.bid);
    c.ask.push(r.ask);
    c.quote_bid.push(print.quoteBid);
    c.quote_ask.push(print.quoteAsk);
    c.quote_ts.push(print.quoteTs);
    c.aggressor_side.push(print.aggressorSide);
    c.cancelled.push(r.cancelled);
    c.body.push(printBody(r));
    this.rows.length += 1;
    this.output += 1;
  }

  cancel(id: string): void {
    this.cancelledIds.push(id);
  }
}

/** The bulk write a pipeline uses; the benchmark swaps in its bare table. */
export type PrintWriter = (db: Queryable, rows: PrintColumns, table: string) => Promise<number>;

export interface PrintLoadOptions extends LoadOptions {
  adapter?: VendorAdapter | null;
  /** Replaces the bulk write (benchmarks). */
  writer?: PrintWriter;
}

/**
 * Loads a prints file (canonical or a vendor layout) in one transaction: contracts created from
 * their OCC symbols when unknown, prints classified and bulk-written, cancels applied, the file
 * recorded in the ledger.
 */
export async function loadPrintsFile(db: Database, file: string, options: PrintLoadOptions = {}): Promise<MarketLoadResult> {
  if (options.writer !== undefined || options.connectionString === undefined) {
    return await loadPrints(db, file, options, options.writer ?? ((q, rows, table) => bulkInsertPrints(q, rows, { table })));
  }
  const session = await openCopySession(options.connectionString);
  try {
    return await loadPrints(session.db, file, options, (q, rows, table) => session.copyPrints(q, rows, { table }));
  } finally {
    await session.close();
  }
}

async function loadPrints(db: Database, file: string, options: PrintLoadOptions, write: PrintWriter): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  const kind = adapter?.kind ?? 'prints';
  const result = emptyResult(file, kind);
  const checksum = await fileChecksum(file);
  if (!options.force) {
    const before = await findIngestedFile(db, checksum, kind);
    if (before !== null) return { ...result, read: before.read, duplicates: before.loaded, alreadyLoaded: true };
  }
  const resolver = new PrintSessionResolver();
  const prints = await readPrints(file, adapter, result, options, resolver);
  const existing = new Set(await partitionDates(db, 'prints'));
  const every = options.progressEvery ?? 1_000_000;

  await db.transaction().execute(async (trx) => {
    const roots = new Map(prints.map((p) => [p.root.root, p.root]));
    await ensureOptionRoots(trx, [...roots.values()]);
    const specs = new Map<string, Parameters<typeof ensureContracts>[1][number]>();
    for (const p of prints) {
      if (specs.has(p.contract.symbol)) continue;
      specs.set(p.contract.symbol, {
        symbol: p.contract.symbol,
        root: p.contract.root,
        underlying: p.root.underlying,
        dateOfExpiry: p.contract.dateOfExpiry,
        type: p.contract.type,
        strikeThousandths: p.contract.strikeThousandths,
        multiplier: p.root.multiplier,
      });
    }
    const contracts = await ensureContracts(trx, [...specs.values()]);

    const infos = new Map<string, ContractInfo>();
    for (const p of prints) {
      let info = infos.get(p.contract.symbol);
      if (info === undefined) {
        const stored = contracts.get(p.contract.symbol) as StoredContract;
        info = { stored, settlementMs: settlementInstant(p.contract.root, p.contract.dateOfExpiry), dividendYield: dividendYield(stored.underlying) };
        infos.set(p.contract.symbol, info);
      }
      p.info = info;
    }

    const classifier = new PrintClassifier();
    const sink = new ColumnSink();
    const quote: QuoteInForce = { bid: null, ask: null, timestamp: 0 };
    const raw = {} as RawPrint;
    const context = {} as PrintContext;
    let written = 0;
    let nextProgress = every;
    // One batch written while the next is classified: PostgreSQL and node work at the same time.
    let inFlight: Promise<void> = Promise.resolve();
    const outcome: { failure: Error | null } = { failure: null };
    // Rows go to the prints table, or to a new date's standalone table until it is attached.
    let target = 'prints';
    const attach: string[] = [];
    const flush = async (): Promise<void> => {
      if (sink.rows.length === 0) return;
      const rows = sink.rows;
      sink.rows = new PrintColumns();
      await inFlight;
      if (outcome.failure !== null) throw outcome.failure;
      inFlight = write(trx, rows, target).then(
        (n) => {
          written += n;
        },
        (error: unknown) => {
          outcome.failure = error instanceof Error ? error : new Error(String(error));
        },
      );
      if (sink.output >= nextProgress) {
        options.log?.(`${file}: classified ${sink.output.toLocaleString('en-US')} prints`);
        nextProgress += every;
      }
    };

    let start = 0;
    while (start < prints.length) {
      const tradingDate = (prints[start] as PlacedPrint).tradingDate;
      let end = start;
      while (end < prints.length && (prints[end] as PlacedPrint).tradingDate === tradingDate) end++;
      const day = prints.slice(start, end);
      await inFlight;
      if (existing.has(tradingDate)) target = 'prints';
      else {
        target = await createStandalonePrintsPartition(trx, tradingDate);
        attach.push(tradingDate);
      }
      const market = await loadDateContext(trx, tradingDate, day, resolver);
      for (const p of day) {
        const info = p.info as ContractInfo;
        const contract = info.stored;
        raw.root = p.contract.root;
        raw.underlying = contract.underlying;
        raw.dateOfExpiry = p.contract.dateOfExpiry;
        raw.type = p.contract.type;
        raw.strike = p.contract.strike;
        raw.multiplier = contract.multiplier;
        raw.timestamp = p.timestamp;
        raw.sequence = p.sequence;
        raw.price = p.price;
        raw.size = p.size;
        raw.exchangeCode = p.exchangeCode;
        raw.conditionCode = p.conditionCode;
        raw.extendedConditions = p.extendedConditions;
        raw.aggressorSide = p.aggressorSide;

        let inForce: QuoteInForce | null = quote;
        if (p.hasQuote) {
          quote.bid = p.quoteBid;
          quote.ask = p.quoteAsk;
          quote.timestamp = p.quoteTs as number;
        } else {
          inForce = sampleAt(market.samples.get(contract.id), p.timestamp, quote);
          p.quoteBid = inForce?.bid ?? null;
          p.quoteAsk = inForce?.ask ?? null;
          p.quoteTs = inForce?.timestamp ?? null;
        }

        const minute = p.timestamp - (p.timestamp % 60_000);
        const bars = market.bars.get(contract.underlying);
        const bar = bars === undefined ? undefined : (bars.get(minute) ?? bars.get(minute - 60_000));

        context.tradingDate = tradingDate;
        context.session = p.session;
        context.quote = inForce;
        context.underlyingPrice = bar?.close ?? null;
        context.underlyingTimestamp = bar?.ts ?? null;
        context.openInterest = market.openInterest.get(contract.id) ?? null;
        context.yearsToSettlement = (info.settlementMs - p.timestamp) / MS_PER_YEAR;
        context.rate = market.rate;
        context.dividendYield = info.dividendYield;
        context.cashCloseMs = market.cashCloseMs;

        if (!p.cancel) sink.expect(p);
        classifier.pushTo(raw, context, sink);
        if (sink.rows.length >= PRINT_BATCH_ROWS) await flush();
      }
      // The date's last groups close here, so its rows all reach its own table.
      classifier.flushTo(sink);
      await flush();
      start = end;
    }
    await inFlight;
    if (outcome.failure !== null) throw outcome.failure;
    for (const date of attach) await attachPrintsPartition(trx, date);

    if (sink.cancelledIds.length > 0) {
      const byKey = new Map<string, StoredContract>();
      for (const p of prints) {
        const c = (p.info as ContractInfo).stored;
        byKey.set(`${p.contract.root}:${p.contract.dateOfExpiry}:${p.contract.strikeThousandths}:${p.contract.type === 'call' ? 'C' : 'P'}`, c);
      }
      const keys = sink.cancelledIds.flatMap((id) => {
        const parts = id.split(':');
        const contract = byKey.get(parts.slice(0, 4).join(':'));
        return contract === undefined ? [] : [{ contractId: contract.id, tradingDate: parts[4] ?? '', sequence: Number(parts[5]) }];
      });
      await markPrintsCancelled(trx, keys);
    }
    result.loaded = written;
    result.duplicates += sink.output - written;
    await recordIngestedFile(trx, { checksum, kind, fileName: file, read: result.read, loaded: result.loaded, rejected: result.rejected.length, duplicates: result.duplicates });
  });
  if (prints.length >= every) options.log?.(`${file}: loaded ${result.loaded.toLocaleString('en-US')} prints`);
  return result;
}
