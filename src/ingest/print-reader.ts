/**
 * The reading of a prints file's records, or of a canonical CSV file's lines, into a PrintTable
 * (print-table.ts): each validated, placed on the calendar and pushed, each rejected with its
 * reason. A line in the plain form readPrintLine() reads (canonical.ts) is placed without a record,
 * which spares the record object and the per-field strings that most of a read would otherwise
 * cost; every other line goes through its record, so what is kept, rejected and counted is what
 * records alone give (print-table.test.ts proves the two paths equal on seeded files).
 */
import fs from 'node:fs';
import { CalendarRangeError } from '../analytics/calendar.js';
import type { OptionRoot } from '../analytics/roots.js';
import { contractRef, parseCodes, parsePrintFields, printColumns, PrintLineValues, readPrintLine, type ContractRef } from './canonical.js';
import type { PrintSessionResolver } from './print-session.js';
import type { ReadPrints } from './print-table.js';
import { csvRecord, RecordError, type RecordRange } from './records.js';
import { canonicalRecordBatches, countRead, rootInfo, type LoadOptions, type MarketLoadResult } from './source.js';
import type { VendorAdapter } from './vendors.js';

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
