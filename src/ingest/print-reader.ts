/**
 * The reading of a prints file into a PrintTable (print-table.ts): one pass over the file, or for
 * a large uncompressed file two at once, its first half here and its second in a worker thread,
 * the halves joined in file order. Parsing is most of a load's first phase, when PostgreSQL has
 * nothing to do yet: on a machine of two cores the second reader runs on the core PostgreSQL uses
 * later (each half runs slower than it would alone, the cores sharing caches and memory
 * bandwidth, and the worker takes time to start, so a small file is read in one pass).
 * Each half's records, or a canonical CSV file's lines, are validated, placed on the calendar and
 * pushed, each rejected with its reason. A line in the plain form readPrintLine() reads
 * (canonical.ts) is placed without a record, which spares the record object and the per-field
 * strings that most of a read would otherwise cost; every other line goes through its record, so
 * what is kept, rejected and counted is what records alone give (print-table.test.ts proves the
 * two paths equal on seeded files).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CalendarRangeError } from '../analytics/calendar.js';
import type { OptionRoot } from '../analytics/roots.js';
import { contractRef, parseCodes, parsePrintFields, printColumns, PrintLineValues, readPrintLine, type ContractRef } from './canonical.js';
import { PrintSessionResolver } from './print-session.js';
import { PrintTable, type PrintTablePart } from './print-table.js';
import { csvRecord, lineNumberAt, RecordError, splitForTwoReaders, type FileHead, type RecordRange } from './records.js';
import { canonicalRecordBatches, countRead, emptyResult, rootInfo, type LoadOptions, type MarketLoadResult } from './source.js';
import { VENDOR_ADAPTERS, type VendorAdapter, type VendorKind } from './vendors.js';
import { startTsWorker } from './worker-thread.js';

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
    let codes: number[] | null = null;
    if (v.extended !== '') {
      extended = this.extendedTexts.get(v.extended);
      if (extended === undefined) {
        extended = { codes: parseCodes(v.extended), id: -1 };
        if (this.extendedTexts.size > 500_000) this.extendedTexts.clear();
        this.extendedTexts.set(v.extended, extended);
      }
      if (typeof extended.codes === 'string') return false;
      codes = extended.codes;
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
    if (extended !== undefined && codes !== null && extended.id < 0) extended.id = table.extendedOf(codes);
    table.pushLine(v, lineNumber, symbol.slot, extended?.id ?? 0, this.dateIndexOf(place.tradingDate), place.session);
    return true;
  }

  /**
   * After its first lines, reserves the table's size from their mean length and the bytes to read
   * (3% more): grown by half at a time, the columns would be allocated three times over and
   * copied twice. A guess too short (a gzip file's bytes) leaves the rest to growth.
   */
  private estimateSize(line: string): void {
    this.linesTaken += 1;
    this.charsTaken += line.length + 1;
    if (this.linesTaken === RESERVE_AFTER_LINES && this.bytes > 0)
      this.into.table.reserve(Math.ceil((this.bytes / this.charsTaken) * this.linesTaken * 1.03 + 1024));
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
export async function readPrintRecords(
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

/** What a file's read gives: its prints, and each trading date met with its index in the table. */
export interface ReadPrints {
  table: PrintTable;
  dateIndex: Map<string, number>;
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
export async function readRange(
  data: RangeWorkerData,
  post: (message: RangeWorkerMessage, transfer?: ArrayBuffer[]) => void,
): Promise<void> {
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
