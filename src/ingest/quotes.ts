/**
 * The quotes loader: a canonical quotes file (layouts.ts), a vendor's full quote file or a
 * one-minute consolidated BBO file (vendors.ts) becomes one-minute NBBO samples, the last update of
 * each contract within each minute (quote_samples). Whatever the source's cadence (every update,
 * one a minute, a chain snapshot every 15 minutes), the rows stored are the same kind: a sample of
 * a contract's minute.
 *
 * A file's updates are kept in columns (QuoteColumns), one row per contract and minute held, so a
 * chain-wide file of millions of updates costs a few numbers a row, not an object. Of two updates
 * of a minute the later is kept (the earlier counted superseded); an update repeating the one held
 * (same time, bid and ask) is a duplicate. A canonical CSV file's lines are read straight to quotes
 * (canonical.ts readQuoteLine, tested equal to the record path), any line it does not read plain
 * going through the record reader as before.
 *
 * The rows of a trading date that has no partition yet (its first quotes file: the seeded market,
 * a restored archive, a new day's file) go by binary COPY FREEZE into a table created in the load's
 * transaction, which is then attached as the date's partition, its primary key built in one sort
 * (with wal_level=minimal such a table writes no WAL), as a new date's prints do: the simulated
 * market's chain snapshots are millions of samples a week, which the array upsert below would spend
 * much of the first start on. Rows of a date that has its partition go through the upsert, which
 * keeps the later update of a minute.
 */
import { CalendarRangeError } from '../analytics/calendar.js';
import { openCopySession, type CopySession } from '../db/bulk-copy.js';
import type { Database, Queryable } from '../db/connection.js';
import { CopyBinaryWriter } from '../db/copy-binary.js';
import { ensureContracts, ensureOptionRoots, type ContractSpec } from '../db/option-contracts.js';
import { attachQuotePartition, createStandaloneQuotePartition, partitionDates } from '../db/partitions.js';
import { QUOTE_SAMPLE_COPY_COLUMNS, recordQuoteMinutes, upsertQuoteSamples, type QuoteSampleRow } from '../db/quote-samples.js';
import type { OptionRoot } from '../analytics/roots.js';
import {
  parseQuoteFields,
  quoteColumnsAt,
  readQuoteLine,
  type CanonicalQuote,
  type ContractRef,
  type QuoteColumnsAt,
} from './canonical.js';
import { QuoteLineReader } from './quote-line-reader.js';
import { ledgered } from './ledger.js';
import { PrintSessionResolver } from './print-session.js';
import { csvRecord, RecordError } from './records.js';
import {
  canonicalRecordBatches,
  contractSpec,
  countRead,
  emptyResult,
  rootInfo,
  type LoadOptions,
  type MarketLoadResult,
} from './source.js';
import type { VendorAdapter } from './vendors.js';

const MINUTE_MS = 60_000;

/** Equal as nullable numbers, NaN standing for null. */
const same = (a: number, b: number): boolean => a === b || (Number.isNaN(a) && Number.isNaN(b));
const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/** One-minute samples held in columns: the kept update of each (contract, minute). NaN is a missing value. */
export class QuoteColumns {
  length = 0;
  contract = new Int32Array(1024);
  date = new Int32Array(1024);
  minute = new Float64Array(1024);
  ts = new Float64Array(1024);
  bid = new Float64Array(1024);
  ask = new Float64Array(1024);
  bidSize = new Float64Array(1024);
  askSize = new Float64Array(1024);

  private grow(): void {
    const n = this.contract.length * 2;
    const wider = <T extends Int32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.contract = wider(this.contract, (k) => new Int32Array(k));
    this.date = wider(this.date, (k) => new Int32Array(k));
    this.minute = wider(this.minute, (k) => new Float64Array(k));
    this.ts = wider(this.ts, (k) => new Float64Array(k));
    this.bid = wider(this.bid, (k) => new Float64Array(k));
    this.ask = wider(this.ask, (k) => new Float64Array(k));
    this.bidSize = wider(this.bidSize, (k) => new Float64Array(k));
    this.askSize = wider(this.askSize, (k) => new Float64Array(k));
  }

  /** Writes row i (i = length appends one). */
  set(
    i: number,
    contract: number,
    date: number,
    ts: number,
    bid: number | null,
    ask: number | null,
    bidSize: number | null,
    askSize: number | null,
  ): void {
    this.setValues(i, contract, date, ts, bid ?? NaN, ask ?? NaN, bidSize ?? NaN, askSize ?? NaN);
  }

  /** set() with NaN for a missing value. */
  setValues(i: number, contract: number, date: number, ts: number, bid: number, ask: number, bidSize: number, askSize: number): void {
    if (i === this.length) {
      if (this.length === this.contract.length) this.grow();
      this.length += 1;
    }
    this.contract[i] = contract;
    this.date[i] = date;
    this.minute[i] = Math.floor(ts / MINUTE_MS) * MINUTE_MS;
    this.ts[i] = ts;
    this.bid[i] = bid;
    this.ask[i] = ask;
    this.bidSize[i] = bidSize;
    this.askSize[i] = askSize;
  }
}

/**
 * The row held for each contract and minute of a file being read. Files come in time order, so each
 * contract's latest minute and its row answer almost every line without a map: a line of a later
 * minute has no row yet, one of the latest minute has that row. A line older than its contract's
 * latest minute (a file out of order) switches to a map of every row held, built from the rows.
 */
class HeldRows {
  /** Latest minute (Unix ms / 60,000) held by contract index, NaN for none; its row. */
  private latestMinute = new Float64Array(1024).fill(NaN);
  private latestRow = new Int32Array(1024);
  /** Row by minute and contract, once a line came out of order. */
  private byMinute: Map<number, Map<number, number>> | null = null;

  constructor(private readonly rows: QuoteColumns) {}

  /** The row held for contract `c` at `minute`, or -1. */
  get(c: number, minute: number): number {
    if (this.byMinute !== null) return this.byMinute.get(minute)?.get(c) ?? -1;
    if (c >= this.latestMinute.length) this.widen(c);
    const latest = this.latestMinute[c]!;
    if (latest === minute) return this.latestRow[c]!;
    if (Number.isNaN(latest) || minute > latest) return -1;
    this.byMinute = new Map();
    for (let i = 0; i < this.rows.length; i++) this.mapRow(this.rows.contract[i]!, this.rows.minute[i]! / MINUTE_MS, i);
    return this.byMinute.get(minute)?.get(c) ?? -1;
  }

  /** Holds `row` for contract `c` at `minute`, which get() just found without one. */
  add(c: number, minute: number, row: number): void {
    if (this.byMinute !== null) this.mapRow(c, minute, row);
    else {
      this.latestMinute[c] = minute;
      this.latestRow[c] = row;
    }
  }

  private mapRow(c: number, minute: number, row: number): void {
    let ofMinute = this.byMinute!.get(minute);
    if (ofMinute === undefined) this.byMinute!.set(minute, (ofMinute = new Map<number, number>()));
    ofMinute.set(c, row);
  }

  private widen(c: number): void {
    let n = this.latestMinute.length;
    while (n <= c) n *= 2;
    const minutes = new Float64Array(n).fill(NaN);
    minutes.set(this.latestMinute);
    const rows = new Int32Array(n);
    rows.set(this.latestRow);
    this.latestMinute = minutes;
    this.latestRow = rows;
  }
}

/** What a quotes file holds after reading: its samples, the contracts and roots they name, their trading dates. */
export interface ReadQuotes {
  rows: QuoteColumns;
  /** Contracts by index (QuoteColumns.contract). */
  contracts: ContractSpec[];
  roots: Map<string, OptionRoot>;
  /** Trading dates by index (QuoteColumns.date). */
  dates: string[];
}

/** Reads a quotes file into one-minute samples, counting duplicates, superseded updates and rejects into `result`. */
export async function readQuotes(
  file: string,
  adapter: VendorAdapter | null,
  result: MarketLoadResult,
  options: LoadOptions,
): Promise<ReadQuotes> {
  const reader = new QuoteReader(file, result, options);
  // A batch (a chunk of the file) at a time: one await per chunk, not per record.
  for await (const batch of canonicalRecordBatches(file, adapter, result, options, undefined, adapter === null ? reader.take : undefined)) {
    for (const { line, fields } of batch) reader.accept(line, parseQuoteFields(fields));
  }
  return reader.read();
}

/** A contract met in the file: its root, and its index in the read's contracts once a line of it is accepted (else -1). */
interface KnownContract {
  root: OptionRoot;
  index: number;
}

/**
 * Places a quotes file's records (accept) or, in a canonical CSV file, lines (take) as one-minute
 * samples, rejects and counts into `result`. A canonical CSV file's lines are read straight to
 * quotes (QuoteLineReader, readQuoteLine), any line those leave as a record; other files (NDJSON,
 * vendors) come as records.
 */
class QuoteReader {
  private readonly resolver = new PrintSessionResolver();
  private readonly rows = new QuoteColumns();
  private readonly held = new HeldRows(this.rows);
  private readonly contracts: ContractSpec[] = [];
  private readonly contractIndex = new Map<string, number>();
  /**
   * Per parsed contract (canonical.ts memoises one per symbol, so a lookup hashes no string): its
   * root, and its index in `contracts` once a line of it is accepted.
   */
  private readonly byRef = new Map<ContractRef, KnownContract>();
  private readonly roots = new Map<string, OptionRoot>();
  private readonly dates: string[] = [];
  private readonly dateIndex = new Map<string, number>();
  private lastDate = '';
  private lastDateIndex = -1;
  private header: readonly string[] | null = null;
  private at: QuoteColumnsAt | null = null;
  private lineReader: QuoteLineReader | null = null;
  /** byRef's entries by the line reader's symbol number (no map lookup a line). */
  private knownBySymbol: KnownContract[] = [];

  constructor(
    private readonly file: string,
    private readonly result: MarketLoadResult,
    private readonly options: LoadOptions,
  ) {}

  /** What the file held, once read. */
  read(): ReadQuotes {
    return { rows: this.rows, contracts: this.contracts, roots: this.roots, dates: this.dates };
  }

  /** A record's quote, or the reason it was refused. */
  accept(line: number, parsed: CanonicalQuote | string): void {
    if (typeof parsed === 'string') {
      this.result.rejected.push({ line, reason: parsed });
      return;
    }
    let known = this.byRef.get(parsed.contract);
    if (known === undefined) this.byRef.set(parsed.contract, (known = knownOf(parsed.contract)));
    this.place(
      line,
      parsed.contract,
      known,
      parsed.timestamp,
      parsed.bid ?? NaN,
      parsed.ask ?? NaN,
      parsed.bidSize ?? NaN,
      parsed.askSize ?? NaN,
    );
  }

  /** A canonical CSV file's line: read straight to its values when it can be, else by its record. */
  readonly take = (text: string, line: number, columns: readonly string[]): void => {
    countRead(this.file, this.result, this.options);
    if (columns !== this.header) {
      this.header = columns;
      this.at = quoteColumnsAt(columns);
      this.lineReader = this.at === null ? null : new QuoteLineReader(this.at);
      this.knownBySymbol = [];
    }
    const reader = this.lineReader;
    if (reader !== null && reader.read(text)) {
      const contract = reader.contract!;
      const known = (this.knownBySymbol[reader.symbol] ??= knownOf(contract));
      this.place(line, contract, known, reader.timestamp, reader.bid, reader.ask, reader.bidSize, reader.askSize);
      return;
    }
    const quote = this.at === null ? null : readQuoteLine(text, this.at);
    if (quote !== null) {
      this.accept(line, quote);
      return;
    }
    const record = csvRecord(columns, text, line);
    if (record instanceof RecordError) this.result.rejected.push({ line, reason: record.message });
    else this.accept(line, parseQuoteFields(record.fields));
  };

  /** Holds a quote's values (NaN for a null) of a contract, `known` its entry in byRef or knownBySymbol. */
  private place(
    line: number,
    contract: ContractRef,
    known: KnownContract,
    timestamp: number,
    bid: number,
    ask: number,
    bidSize: number,
    askSize: number,
  ): void {
    const tradingDate = this.tradingDateOf(line, timestamp, known.root);
    if (tradingDate === null) return;
    const c = this.contractIndexOf(contract, known);
    const d = this.dateIndexOf(tradingDate);
    this.hold(c, d, timestamp, bid, ask, bidSize, askSize);
  }

  /** The quote's trading date; null, with the line rejected, when the timestamp is outside the calendar. */
  private tradingDateOf(line: number, timestamp: number, root: OptionRoot): string | null {
    try {
      return this.resolver.place(timestamp, root).tradingDate;
    } catch (error) {
      if (error instanceof CalendarRangeError) {
        this.result.rejected.push({ line, reason: `timestamp ${timestamp} is outside the market calendar` });
        return null;
      }
      throw error;
    }
  }

  /** The contract's index in `contracts`, given one on its first accepted line. */
  private contractIndexOf(contract: ContractRef, known: KnownContract): number {
    if (known.index < 0) {
      let index = this.contractIndex.get(contract.symbol);
      if (index === undefined) {
        index = this.contracts.length;
        this.contracts.push(contractSpec(contract, known.root));
        this.contractIndex.set(contract.symbol, index);
        this.roots.set(known.root.root, known.root);
      }
      known.index = index;
    }
    return known.index;
  }

  /** The trading date's index in `dates` (a file's quotes come mostly in date order: the last one is kept at hand). */
  private dateIndexOf(tradingDate: string): number {
    if (tradingDate !== this.lastDate) {
      let index = this.dateIndex.get(tradingDate);
      if (index === undefined) {
        index = this.dates.length;
        this.dates.push(tradingDate);
        this.dateIndex.set(tradingDate, index);
      }
      this.lastDate = tradingDate;
      this.lastDateIndex = index;
    }
    return this.lastDateIndex;
  }

  /** The sample of contract `c`'s minute: a new row, or the row held, kept or replaced by this update. */
  private hold(c: number, d: number, timestamp: number, bid: number, ask: number, bidSize: number, askSize: number): void {
    const rows = this.rows;
    const minute = Math.floor(timestamp / MINUTE_MS);
    const h = this.held.get(c, minute);
    if (h < 0) {
      this.held.add(c, minute, rows.length);
      rows.setValues(rows.length, c, d, timestamp, bid, ask, bidSize, askSize);
      return;
    }
    if (rows.ts[h] === timestamp && same(rows.bid[h]!, bid) && same(rows.ask[h]!, ask)) {
      this.result.duplicates += 1;
      return;
    }
    // Of two updates of a minute one is kept: the one held, or this one when it is not older.
    this.result.superseded += 1;
    if (timestamp >= rows.ts[h]!) rows.setValues(h, c, d, timestamp, bid, ask, bidSize, askSize);
  }
}

function knownOf(contract: ContractRef): KnownContract {
  return { root: rootInfo(contract.root), index: -1 };
}

/**
 * Row indexes of one trading date whose contract is stored, in the order read (the primary key's
 * order is PostgreSQL's to make: a sort when it builds the key of a new partition).
 */
function dateRows(rows: QuoteColumns, date: number, ids: Float64Array): Uint32Array {
  let n = 0;
  for (let i = 0; i < rows.length; i += 1) if (rows.date[i] === date && !Number.isNaN(ids[i]!)) n += 1;
  const order = new Uint32Array(n);
  let k = 0;
  for (let i = 0; i < rows.length; i += 1) if (rows.date[i] === date && !Number.isNaN(ids[i]!)) order[k++] = i;
  return order;
}

/** The distinct minutes of a date's rows (in `order`; a file's rows come in time order, so runs of one minute are skipped cheaply). */
function minutesOf(rows: QuoteColumns, order: Uint32Array): Set<number> {
  const minutes = new Set<number>();
  let last = NaN;
  for (const i of order) {
    const minute = rows.minute[i]!;
    if (minute !== last) {
      minutes.add(minute);
      last = minute;
    }
  }
  return minutes;
}

/** COPY of a date's rows (in `order`) into its partition, with back-pressure. Returns the rows stored. */
async function copyDate(
  session: CopySession,
  table: string,
  options: { freeze: boolean },
  date: string,
  rows: QuoteColumns,
  ids: Float64Array,
  order: Uint32Array,
): Promise<number> {
  const copy = session.copyInto(table, QUOTE_SAMPLE_COPY_COLUMNS, options);
  let blocked = false;
  const w = new CopyBinaryWriter((chunk) => {
    if (!copy.write(chunk)) blocked = true;
  });
  try {
    w.header();
    for (const i of order) {
      // trading_date, contract_id, minute, bid, ask, bid_size, ask_size, quote_ts
      w.row(8);
      w.date(date);
      w.int8(ids[i]!);
      w.int8(rows.minute[i]!);
      w.float8OrNull(orNull(rows.bid[i]!));
      w.float8OrNull(orNull(rows.ask[i]!));
      w.int4OrNull(orNull(rows.bidSize[i]!));
      w.int4OrNull(orNull(rows.askSize[i]!));
      w.int8(rows.ts[i]!);
      w.endRow();
      if (blocked) {
        blocked = false;
        await copy.drained();
      }
    }
    w.end();
    return await copy.end();
  } catch (error) {
    await copy.abort(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/**
 * Writes the samples read: contracts first, then each trading date: a date without a partition into
 * a new standalone table (COPY FREEZE, then attached as the date's partition), any other by upsert.
 */
async function writeQuotes(session: CopySession, trx: Queryable, read: ReadQuotes, result: MarketLoadResult): Promise<void> {
  const { rows } = read;
  await ensureOptionRoots(trx, [...read.roots.values()]);
  const stored = await ensureContracts(trx, read.contracts);
  const ids = new Float64Array(read.contracts.length);
  read.contracts.forEach((c, k) => {
    ids[k] = stored.get(c.symbol)?.id ?? NaN;
  });
  const idOf = new Float64Array(rows.length);
  for (let i = 0; i < rows.length; i += 1) idOf[i] = ids[rows.contract[i]!]!;
  let written = 0;
  let sent = 0;
  const existing = new Set(await partitionDates(trx, 'quote_samples'));
  for (const [d, date] of read.dates.entries()) {
    const order = dateRows(rows, d, idOf);
    sent += order.length;
    await recordQuoteMinutes(trx, date, minutesOf(rows, order));
    if (!existing.has(date)) {
      const table = await createStandaloneQuotePartition(trx, date);
      const copied = await copyDate(session, table, { freeze: true }, date, rows, idOf, order);
      await attachQuotePartition(trx, date, copied);
      written += copied;
      continue;
    }
    const batch: QuoteSampleRow[] = [];
    for (const i of order) {
      batch.push({
        tradingDate: date,
        contractId: idOf[i]!,
        minute: rows.minute[i]!,
        bid: orNull(rows.bid[i]!),
        ask: orNull(rows.ask[i]!),
        bidSize: orNull(rows.bidSize[i]!),
        askSize: orNull(rows.askSize[i]!),
        quoteTs: rows.ts[i]!,
      });
    }
    // A sample the store holds from a later update of the minute is kept (upsertQuoteSamples).
    written += await upsertQuoteSamples(trx, batch);
  }
  result.loaded = written;
  result.superseded += sent - written;
}

/** A canonical quotes file read ahead of its load (seed-market.ts): the read under way and the counts it makes. */
export interface QuotesReadAhead {
  file: string;
  result: MarketLoadResult;
  read: Promise<ReadQuotes>;
}

/**
 * Starts reading a canonical quotes file now, to load it later (loadQuotesFile with `readAhead`):
 * the read runs while the thread would otherwise wait for PostgreSQL on the loads before it.
 */
export function readQuotesAhead(file: string, options: LoadOptions = {}): QuotesReadAhead {
  const result = emptyResult(file, 'quotes');
  const read = readQuotes(file, null, result, options);
  // Observed here; a failure surfaces when the load awaits the read.
  read.catch(() => undefined);
  return { file, result, read };
}

export async function loadQuotesFile(
  db: Database,
  file: string,
  options: LoadOptions & { adapter?: VendorAdapter | null; readAhead?: QuotesReadAhead } = {},
): Promise<MarketLoadResult> {
  const adapter = options.adapter ?? null;
  const ahead = adapter === null && options.readAhead?.file === file ? options.readAhead : null;
  const session = await openCopySession(db);
  try {
    return await ledgered(session.db, file, adapter?.kind ?? 'quotes', options, async (result) => {
      let read: ReadQuotes;
      if (ahead === null) read = await readQuotes(file, adapter, result, options);
      else {
        read = await ahead.read;
        Object.assign(result, ahead.result);
      }
      return async (trx) => await writeQuotes(session, trx, read, result);
    });
  } finally {
    await session.close();
  }
}
