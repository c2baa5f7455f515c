/**
 * A file's prints as read and placed, column by column (PrintTable), and the reading: one pass
 * over the file, or for a large uncompressed file two at once, its first half here and its second
 * in a worker thread, the halves joined in file order. Parsing is most of a load's first phase,
 * when PostgreSQL has nothing to do yet: on a 2-core machine the second reader runs on the core
 * PostgreSQL uses later. Measured here on 1M prints, parse alone, one pass against two in turn:
 * 2.58-2.70 s against 2.26-2.32 s. Each half runs about a third slower than it would alone (the
 * two cores share caches and memory bandwidth), and the worker's start costs about 0.3 s.
 * A canonical CSV file's lines are read without making records (PrintReader, readPrintLine()):
 * 1M prints in one pass 1.53 s against 5.16 s before (medians of 9), 10M prints in two halves
 * 11.2 s against 40.4 s (medians of 3). At 1M prints the two halves no longer gain on a busy
 * machine: 1.95 s against 1.71 s in one pass (medians of 9).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalendarRangeError } from '../analytics/calendar.js';
import type { PrintContext } from '../analytics/classification.js';
import { contractKey } from '../analytics/print-id.js';
import { conditionTraitMask, TraitBit } from '../analytics/opra.js';
import type { OptionRoot } from '../analytics/roots.js';
import type { StoredContract } from '../db/market-data.js';
import { contractRef, parseCodes, parsePrintFields, printColumns, PrintLineValues, readPrintLine, type CanonicalPrint, type ContractRef } from './canonical.js';
import { PrintSessionResolver } from './print-session.js';
import { csvRecord, lineNumberAt, RecordError, splitForTwoReaders, type FileHead, type RecordRange } from './records.js';
import { canonicalRecordBatches, countRead, emptyResult, rootInfo, type LoadOptions, type MarketLoadResult } from './source.js';
import { VENDOR_ADAPTERS, type VendorAdapter, type VendorKind } from './vendors.js';
import { startTsWorker } from './worker-thread.js';

/** A contract met in the file: its parsed symbol, root, and once stored, its row and pricing constants. */
export interface ContractSlot {
  ref: ContractRef;
  root: OptionRoot;
  /** root:expiry:strike x 1000:C|P, the classifier's contract key. */
  key: string;
  stored: StoredContract | null;
  settlementMs: number;
  dividendYield: number;
}

export const SESSIONS: readonly PrintContext['session'][] = ['rth', 'gth', 'curb', 'other'];
export const AGGRESSOR: readonly ('buy' | 'sell' | null)[] = [null, 'buy', 'sell'];
export const BIT_HAS_QUOTE = 1;
export const BIT_CANCEL = 2;
export const NO_CODES: number[] = [];

const COLUMN_NAMES = [
  'line',
  'slot',
  'timestamp',
  'sequence',
  'price',
  'size',
  'exchangeCode',
  'conditionCode',
  'extended',
  'quoteBid',
  'quoteAsk',
  'quoteTs',
  'dateIndex',
  'bits',
  'session',
  'aggressor',
] as const;
type ColumnName = (typeof COLUMN_NAMES)[number];
type Column = Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>;

/** A PrintTable handed from a worker: `length` prints, each column at least that long. */
export interface PrintTablePart {
  length: number;
  columns: Record<ColumnName, Column>;
  slots: { ref: ContractRef; root: OptionRoot }[];
  extendedLists: number[][];
}

/**
 * The placed prints of a file, one typed array per field (null quote values as NaN): compact, off
 * the JS heap, and nothing for the garbage collector to trace or move.
 */
export class PrintTable {
  length = 0;
  private capacity = 0;
  line = new Float64Array(0);
  slot = new Int32Array(0);
  timestamp = new Float64Array(0);
  sequence = new Float64Array(0);
  price = new Float64Array(0);
  size = new Float64Array(0);
  exchangeCode = new Int32Array(0);
  conditionCode = new Int32Array(0);
  /** Index into extendedLists (0: none). */
  extended = new Int32Array(0);
  quoteBid = new Float64Array(0);
  quoteAsk = new Float64Array(0);
  quoteTs = new Float64Array(0);
  dateIndex = new Int32Array(0);
  /** BIT_HAS_QUOTE | BIT_CANCEL. */
  bits = new Uint8Array(0);
  session = new Uint8Array(0);
  aggressor = new Uint8Array(0);

  /** Distinct extended-condition lists of the file. */
  readonly extendedLists: number[][] = [NO_CODES];
  private readonly extendedIds = new Map<string, number>();
  /** Each list's condition traits, ORed. */
  private readonly extendedTraits: number[] = [0];

  readonly slots: ContractSlot[] = [];
  private readonly slotIds = new Map<string, number>();

  /** Makes room for `capacity` prints in all, at once instead of by steps. */
  reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    for (const name of COLUMN_NAMES) this.resize(name, capacity);
    this.capacity = capacity;
  }

  private grow(wanted = 0): void {
    const capacity = Math.max(1024, Math.ceil(this.capacity * 1.5), wanted);
    for (const name of COLUMN_NAMES) this.resize(name, capacity);
    this.capacity = capacity;
  }

  private resize(name: ColumnName, capacity: number): void {
    const from = this[name];
    const to = new (from.constructor as new (length: number) => typeof from)(capacity);
    to.set(from);
    (this as Record<ColumnName, Column>)[name] = to;
  }

  slotOf(ref: ContractRef, root: OptionRoot): number {
    let id = this.slotIds.get(ref.symbol);
    if (id === undefined) {
      id = this.slots.length;
      this.slotIds.set(ref.symbol, id);
      this.slots.push({
        ref,
        root,
        key: contractKey(ref),
        stored: null,
        settlementMs: 0,
        dividendYield: 0,
      });
    }
    return id;
  }

  extendedOf(codes: readonly number[]): number {
    if (codes.length === 0) return 0;
    const text = codes.join(',');
    let id = this.extendedIds.get(text);
    if (id === undefined) {
      id = this.extendedLists.length;
      this.extendedIds.set(text, id);
      this.extendedLists.push([...codes]);
      let traits = 0;
      for (const c of codes) traits |= conditionTraitMask(c);
      this.extendedTraits.push(traits);
    }
    return id;
  }

  push(p: CanonicalPrint, root: OptionRoot, dateIndex: number, session: PrintContext['session']): void {
    if (this.length === this.capacity) this.grow();
    const i = this.length++;
    this.line[i] = p.line;
    this.slot[i] = this.slotOf(p.contract, root);
    this.timestamp[i] = p.timestamp;
    this.sequence[i] = p.sequence;
    this.price[i] = p.price;
    this.size[i] = p.size;
    this.exchangeCode[i] = p.exchangeCode;
    this.conditionCode[i] = p.conditionCode;
    const extended = this.extendedOf(p.extendedConditions);
    this.extended[i] = extended;
    const quote = p.quote;
    this.quoteBid[i] = quote?.bid ?? NaN;
    this.quoteAsk[i] = quote?.ask ?? NaN;
    this.quoteTs[i] = quote?.timestamp ?? NaN;
    this.dateIndex[i] = dateIndex;
    const traits = conditionTraitMask(p.conditionCode) | (this.extendedTraits[extended] as number);
    this.bits[i] = (quote !== null ? BIT_HAS_QUOTE : 0) | ((traits & TraitBit.cancel) !== 0 ? BIT_CANCEL : 0);
    this.session[i] = SESSIONS.indexOf(session);
    this.aggressor[i] = p.aggressorSide === 'buy' ? 1 : p.aggressorSide === 'sell' ? 2 : 0;
  }

  /** push() for a print read by readPrintLine(), its contract slot and extended list found. */
  pushLine(v: PrintLineValues, line: number, slot: number, extended: number, dateIndex: number, session: number): void {
    if (this.length === this.capacity) this.grow();
    const i = this.length++;
    this.line[i] = line;
    this.slot[i] = slot;
    this.timestamp[i] = v.timestamp;
    this.sequence[i] = v.sequence;
    this.price[i] = v.price;
    this.size[i] = v.size;
    this.exchangeCode[i] = v.exchangeCode;
    this.conditionCode[i] = v.conditionCode;
    this.extended[i] = extended;
    this.quoteBid[i] = v.bid;
    this.quoteAsk[i] = v.ask;
    this.quoteTs[i] = v.quoteTs;
    this.dateIndex[i] = dateIndex;
    const traits = conditionTraitMask(v.conditionCode) | (this.extendedTraits[extended] as number);
    this.bits[i] = (v.hasQuote ? BIT_HAS_QUOTE : 0) | ((traits & TraitBit.cancel) !== 0 ? BIT_CANCEL : 0);
    this.session[i] = session;
    this.aggressor[i] = v.aggressor;
  }

  isCancel(i: number): boolean {
    return ((this.bits[i] as number) & BIT_CANCEL) !== 0;
  }
  /** The table as a worker hands it over: columns cut to length (their buffers transferable), slots and lists. */
  part(): PrintTablePart {
    const columns = {} as Record<ColumnName, Column>;
    for (const name of COLUMN_NAMES) columns[name] = this[name].subarray(0, this.length);
    return { length: this.length, columns, slots: this.slots.map(({ ref, root }) => ({ ref, root })), extendedLists: this.extendedLists };
  }

  /**
   * Appends the prints of another table of the same file (read by a worker), its contracts,
   * extended-condition lists and dates (`dateIndexes`: its date index to this table's) mapped to
   * this table's.
   */
  append(part: PrintTablePart, dateIndexes: Int32Array): void {
    const slotIds = Int32Array.from(part.slots, (s) => this.slotOf(s.ref, s.root));
    const extendedIds = Int32Array.from(part.extendedLists, (codes) => this.extendedOf(codes));
    const at = this.length;
    const n = part.length;
    if (at + n > this.capacity) this.grow(at + n);
    for (const name of COLUMN_NAMES) this[name].set(part.columns[name].subarray(0, n), at);
    const { slot, extended, dateIndex } = this;
    for (let i = at; i < at + n; i++) {
      slot[i] = slotIds[slot[i] as number] as number;
      extended[i] = extendedIds[extended[i] as number] as number;
      dateIndex[i] = dateIndexes[dateIndex[i] as number] as number;
    }
    this.length = at + n;
  }
}

/** What a file's read gives: its prints, and each trading date met with its index in the table. */
export interface ReadPrints {
  table: PrintTable;
  dateIndex: Map<string, number>;
}

/** A symbol's contract as a file's lines name it, and once a print of it is kept, its slot. */
interface SymbolEntry {
  ref: ContractRef | string;
  root: OptionRoot | null;
  slot: number;
}

/** An extended_conditions text's list, and once a print with it is kept, its id in the table. */
interface ExtendedEntry {
  codes: number[] | string;
  id: number;
}

/**
 * Validates and places records (add) or, in a canonical CSV file, lines (take) into a ReadPrints,
 * rejects and counts into `result`. A line in the plain form readPrintLine() reads is placed
 * without a record, its symbol's contract, root and slot and its extended list's id found by
 * their text; any other line is read by its record, so results are those of records alone.
 */
class PrintReader {
  /** Lines taken, and their characters with line breaks, until the table's size is reserved. */
  private linesTaken = 0;
  private charsTaken = 0;
  private header: readonly string[] | null = null;
  private values: PrintLineValues | null = null;
  private readonly symbols = new Map<string, SymbolEntry>();
  private readonly extendedTexts = new Map<string, ExtendedEntry>();

  constructor(
    private readonly file: string,
    private readonly result: MarketLoadResult,
    private readonly options: LoadOptions,
    private readonly resolver: PrintSessionResolver,
    private readonly into: ReadPrints,
    /** The bytes to read (0: unknown). */
    private readonly bytes: number,
  ) {}

  /** A record's print (the path of every record, and of a line readPrintLine() declines). */
  add(fields: Record<string, string>, line: number): void {
    const parsed = parsePrintFields(fields, line);
    if (typeof parsed === 'string') {
      this.result.rejected.push({ line, reason: parsed });
      return;
    }
    const root = rootInfo(parsed.contract.root);
    let place;
    try {
      place = this.resolver.place(parsed.timestamp, root);
    } catch (error) {
      if (error instanceof CalendarRangeError) {
        this.result.rejected.push({ line, reason: `timestamp ${parsed.timestamp} is outside the market calendar` });
        return;
      }
      throw error;
    }
    this.into.table.push(parsed, root, this.dateIndexOf(place.tradingDate), place.session);
  }

  /** A CSV data line (a CsvLineTaker). */
  readonly take = (line: string, lineNumber: number, header: readonly string[]): void => {
    countRead(this.file, this.result, this.options);
    if (this.linesTaken < RESERVE_AFTER_LINES) this.estimateSize(line);
    if (header !== this.header) {
      this.header = header;
      const columns = printColumns(header);
      this.values = columns === null ? null : new PrintLineValues(columns);
    }
    if (this.values !== null && this.addLine(line, lineNumber, this.values)) return;
    const record = csvRecord(header, line, lineNumber);
    if (record instanceof RecordError) this.result.rejected.push({ line: lineNumber, reason: record.message });
    else this.add(record.fields, lineNumber);
  };

  /** Places a line read by readPrintLine(); false (nothing done) for a line to read by its record. */
  private addLine(line: string, lineNumber: number, v: PrintLineValues): boolean {
    if (!readPrintLine(line, v)) return false;
    let symbol = this.symbols.get(v.symbol);
    if (symbol === undefined) {
      const ref = contractRef(v.symbol);
      symbol = { ref, root: typeof ref === 'string' ? null : rootInfo(ref.root), slot: -1 };
      // Bounded as contractRef()'s memo is; a slot is found again by the contract's padded symbol.
      if (this.symbols.size > 500_000) this.symbols.clear();
      this.symbols.set(v.symbol, symbol);
    }
    const { ref, root } = symbol;
    if (typeof ref === 'string' || root === null) return false;
    let extended: ExtendedEntry | undefined;
    if (v.extended !== '') {
      extended = this.extendedTexts.get(v.extended);
      if (extended === undefined) {
        extended = { codes: parseCodes(v.extended), id: -1 };
        if (this.extendedTexts.size > 500_000) this.extendedTexts.clear();
        this.extendedTexts.set(v.extended, extended);
      }
      if (typeof extended.codes === 'string') return false;
    }
    let place;
    try {
      place = this.resolver.place(v.timestamp, root);
    } catch (error) {
      if (error instanceof CalendarRangeError) return false;
      throw error;
    }
    const { table } = this.into;
    // Slots and lists are numbered as the prints kept first name them, as push() numbers them.
    if (symbol.slot < 0) symbol.slot = table.slotOf(ref, root);
    if (extended !== undefined && extended.id < 0) extended.id = table.extendedOf(extended.codes as number[]);
    table.pushLine(v, lineNumber, symbol.slot, extended?.id ?? 0, this.dateIndexOf(place.tradingDate), SESSIONS.indexOf(place.session));
    return true;
  }

  /**
   * After its first lines, reserves the table's size from their mean length and the bytes to read
   * (3% more): grown by half at a time, the columns are allocated three times over and copied
   * twice. Measured on 1M prints, one pass: 1.61 s against 1.72 s (medians of 15). A guess too
   * short (a gzip file's bytes) leaves the rest to growth.
   */
  private estimateSize(line: string): void {
    this.linesTaken += 1;
    this.charsTaken += line.length + 1;
    if (this.linesTaken === RESERVE_AFTER_LINES && this.bytes > 0) this.into.table.reserve(Math.ceil(((this.bytes / this.charsTaken) * this.linesTaken * 1.03) + 1024));
  }

  private dateIndexOf(tradingDate: string): number {
    const { dateIndex } = this.into;
    let index = dateIndex.get(tradingDate);
    if (index === undefined) dateIndex.set(tradingDate, (index = dateIndex.size));
    return index;
  }
}

/** Lines read before a table's size is guessed from their mean length. */
const RESERVE_AFTER_LINES = 4096;

/**
 * Reads, validates and places the prints of a file (or of a range of it) into `into`, rejects and
 * counts into `result`; `onBatch` after each chunk read.
 */
async function readPrintRecords(
  file: string,
  adapter: VendorAdapter | null,
  result: MarketLoadResult,
  options: LoadOptions,
  resolver: PrintSessionResolver,
  into: ReadPrints,
  range?: RecordRange,
  onBatch?: () => void,
): Promise<void> {
  const bytes = range ? range.end - range.start : (await fs.promises.stat(file)).size;
  const reader = new PrintReader(file, result, options, resolver, into, bytes);
  for await (const batch of canonicalRecordBatches(file, adapter, result, options, range, reader.take)) {
    for (const { line, fields } of batch) reader.add(fields, line);
    onBatch?.();
  }
}

/** Files of this size or more (uncompressed) are read by two readers at once. */
export const TWO_READERS_MIN_BYTES = 32 << 20;

export interface ReadOptions extends LoadOptions {
  /** Smallest file read by two readers (default TWO_READERS_MIN_BYTES). */
  twoReadersMinBytes?: number;
}

/** What the worker reading a file's second half is given. */
export interface RangeWorkerData {
  file: string;
  range: RecordRange;
  adapterKind: VendorKind | null;
}

/** What it sends: its count of records read after each chunk, then its table. */
export type RangeWorkerMessage =
  | { type: 'read'; read: number }
  | { type: 'done'; part: PrintTablePart; dates: string[]; read: number; skipped: number; rejected: MarketLoadResult['rejected'] };

/** The worker's side: reads its range and posts the table (its columns' buffers moved, not copied). */
export async function readRange(data: RangeWorkerData, post: (message: RangeWorkerMessage, transfer?: ArrayBuffer[]) => void): Promise<void> {
  const adapter = data.adapterKind === null ? null : VENDOR_ADAPTERS[data.adapterKind];
  const result = emptyResult(data.file, adapter?.kind ?? 'prints');
  const into: ReadPrints = { table: new PrintTable(), dateIndex: new Map() };
  const resolver = new PrintSessionResolver();
  // Numbered as in the whole file (a vendor adapter may take the line number as the sequence).
  data.range.firstLine = await lineNumberAt(data.file, data.range.start);
  await readPrintRecords(data.file, adapter, result, {}, resolver, into, data.range, () => post({ type: 'read', read: result.read }));
  const part = into.table.part();
  post(
    { type: 'done', part, dates: [...into.dateIndex.keys()], read: result.read, skipped: result.skipped, rejected: result.rejected },
    Object.values(part.columns).map((c) => c.buffer),
  );
}

/**
 * Reads a prints file into a PrintTable: a large uncompressed file (TWO_READERS_MIN_BYTES or
 * more) in two halves at once, the second in a worker thread, joined in file order with the same
 * line numbers, rejects and counts as one pass would give; any other file in one pass here.
 */
export async function readPrintTable(
  file: string,
  adapter: VendorAdapter | null,
  result: MarketLoadResult,
  options: ReadOptions,
  resolver: PrintSessionResolver,
): Promise<ReadPrints> {
  const into: ReadPrints = { table: new PrintTable(), dateIndex: new Map() };
  const known = adapter === null || VENDOR_ADAPTERS[adapter.kind] === adapter;
  const split = known ? await splitForTwoReaders(file, options.twoReadersMinBytes ?? TWO_READERS_MIN_BYTES) : null;
  if (split === null) await readPrintRecords(file, adapter, result, options, resolver, into);
  else await readInTwo(file, split, adapter, result, options, resolver, into);
  // A batch's unreadable lines were counted before its invalid prints: rejects in line order.
  result.rejected.sort((a, b) => a.line - b.line);
  return into;
}

async function readInTwo(
  file: string,
  split: { at: number; size: number; head: FileHead },
  adapter: VendorAdapter | null,
  result: MarketLoadResult,
  options: ReadOptions,
  resolver: PrintSessionResolver,
  into: ReadPrints,
): Promise<void> {
  // The worker numbers its first line itself (it counts the line breaks before it).
  const range: RecordRange = { start: split.at, end: split.size, head: split.head, firstLine: 0 };
  const data: RangeWorkerData = { file, range, adapterKind: adapter === null ? null : adapter.kind };
  const worker = startTsWorker(new URL(`./print-read-worker${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url), data);
  let workerRead = 0;
  const second = new Promise<Extract<RangeWorkerMessage, { type: 'done' }>>((resolve, reject) => {
    worker.on('message', (message: RangeWorkerMessage) => {
      if (message.type === 'read') workerRead = message.read;
      else resolve(message);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the second reader of ${file} stopped (exit code ${code})`)));
  });
  // A failure of the worker while the first half is read is met at `await second` below, not
  // left unhandled meanwhile.
  second.catch(() => undefined);

  const every = options.progressEvery ?? 1_000_000;
  let nextProgress = every;
  const first: RecordRange = { start: 0, end: split.at, head: null, firstLine: 1 };
  try {
    await readPrintRecords(file, adapter, result, { ...options, log: undefined }, resolver, into, first, () => {
      const read = result.read + workerRead;
      if (read >= nextProgress) {
        options.log?.(`${file}: read ${read.toLocaleString('en-US')} records`);
        nextProgress = (Math.floor(read / every) + 1) * every;
      }
    });
    const done = await second;
    const dates = Int32Array.from(done.dates, (date) => {
      let index = into.dateIndex.get(date);
      if (index === undefined) into.dateIndex.set(date, (index = into.dateIndex.size));
      return index;
    });
    into.table.append(done.part, dates);
    result.read += done.read;
    result.skipped += done.skipped;
    for (const reject of done.rejected) result.rejected.push(reject);
  } finally {
    await worker.terminate();
  }
}
