/**
 * A file's prints as read and placed, column by column (PrintTable). The reading that fills it,
 * one pass over the file or two halves at once, is print-reader.ts.
 * The pipeline reads a print's values through the table's accessors (timestampAt(i) and the like),
 * typed as the classifier takes them, and its contract through storedSlotAt(i) once the file's
 * contracts are stored (storeContracts).
 */
import type { PrintContext } from '../analytics/classification.js';
import type { QuoteInForce } from '../analytics/print-side.js';
import { contractKey } from '../analytics/print-id.js';
import { conditionTraitMask, TraitBit } from '../analytics/opra.js';
import type { OptionRoot } from '../analytics/roots.js';
import type { StoredContract } from '../db/option-contracts.js';
import type { CanonicalPrint, ContractRef, PrintLineValues } from './canonical.js';

/** A contract met in the file: its parsed symbol and root. */
export interface ContractSlot {
  ref: ContractRef;
  root: OptionRoot;
  /** root:expiry:strike x 1000:C|P, the classifier's contract key. */
  key: string;
}

/** A contract slot once its contract is stored: its row, and the pricing constants of its prints. */
export interface StoredSlot extends ContractSlot {
  contract: StoredContract;
  /** The contract's settlement instant, Unix ms. */
  settlementMs: number;
  /** root and expiration date, space-separated: the expiration whose parity forward values its prints (date-context.ts carryAt). */
  expiration: string;
  /**
   * The underlying's fixed dividend yield (rates.ts dividendYield), continuously compounded: what
   * a print is valued on only when no parity forward of its expiration is in force at it.
   */
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
  /** `slots` once stored, in the same order (storeContracts). */
  private stored: readonly StoredSlot[] = [];

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
    // A new column of the same typed-array class, in the same field: TypeScript types the
    // constructor only as Function, and a field chosen by name as the union of the columns.
    const to = new (from.constructor as new (length: number) => typeof from)(capacity);
    to.set(from);
    (this as Record<ColumnName, Column>)[name] = to;
  }

  slotOf(ref: ContractRef, root: OptionRoot): number {
    let id = this.slotIds.get(ref.symbol);
    if (id === undefined) {
      id = this.slots.length;
      this.slotIds.set(ref.symbol, id);
      this.slots.push({ ref, root, key: contractKey(ref) });
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
    const traits = conditionTraitMask(p.conditionCode) | (this.extendedTraits[extended] ?? 0);
    this.bits[i] = (quote !== null ? BIT_HAS_QUOTE : 0) | ((traits & TraitBit.cancel) !== 0 ? BIT_CANCEL : 0);
    this.session[i] = SESSIONS.indexOf(session);
    this.aggressor[i] = p.aggressorSide === 'buy' ? 1 : p.aggressorSide === 'sell' ? 2 : 0;
  }

  /** push() for a print read by readPrintLine(), its contract slot and extended list found. */
  pushLine(v: PrintLineValues, line: number, slot: number, extended: number, dateIndex: number, session: PrintContext['session']): void {
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
    const traits = conditionTraitMask(v.conditionCode) | (this.extendedTraits[extended] ?? 0);
    this.bits[i] = (v.hasQuote ? BIT_HAS_QUOTE : 0) | ((traits & TraitBit.cancel) !== 0 ? BIT_CANCEL : 0);
    this.session[i] = SESSIONS.indexOf(session);
    this.aggressor[i] = v.aggressor;
  }

  /** Gives each slot its stored contract: `stored[s]` is `slots[s]` stored. */
  storeContracts(stored: readonly StoredSlot[]): void {
    if (stored.length !== this.slots.length || stored.some((s, k) => s.key !== this.slots[k]?.key))
      throw new Error("storeContracts: the stored slots are not the table's");
    this.stored = stored;
  }

  /** The slots, stored (empty before storeContracts). */
  get storedSlots(): readonly StoredSlot[] {
    return this.stored;
  }

  // The accessors of print `i`, for 0 <= i < length as the columns are. Where a column has no
  // element (a negative index, or past its capacity) they give NaN, -1 for an index, or throw.

  /** The index of the print's contract slot. */
  slotAt(i: number): number {
    return this.slot[i] ?? -1;
  }

  /** The print's contract, stored. */
  storedSlotAt(i: number): StoredSlot {
    const slot = this.stored[this.slot[i] ?? -1];
    if (slot === undefined) throw new Error(`print ${i} has no stored contract (storeContracts first)`);
    return slot;
  }

  timestampAt(i: number): number {
    return this.timestamp[i] ?? NaN;
  }

  sequenceAt(i: number): number {
    return this.sequence[i] ?? NaN;
  }

  priceAt(i: number): number {
    return this.price[i] ?? NaN;
  }

  sizeAt(i: number): number {
    return this.size[i] ?? NaN;
  }

  exchangeCodeAt(i: number): number {
    return this.exchangeCode[i] ?? NaN;
  }

  conditionCodeAt(i: number): number {
    return this.conditionCode[i] ?? NaN;
  }

  extendedConditionsAt(i: number): number[] {
    return this.extendedLists[this.extended[i] ?? 0] ?? NO_CODES;
  }

  /** The index of the print's trading date (see ReadPrints.dateIndex, and sortPrints's renumbering). */
  dateAt(i: number): number {
    return this.dateIndex[i] ?? -1;
  }

  sessionAt(i: number): PrintContext['session'] {
    const session = SESSIONS[this.session[i] ?? -1];
    if (session === undefined) throw new Error(`print ${i} has no session`);
    return session;
  }

  aggressorSideAt(i: number): 'buy' | 'sell' | null {
    return AGGRESSOR[this.aggressor[i] ?? 0] ?? null;
  }

  /** Whether the file gave the print's quote in force (else it is looked up, then set by setQuote). */
  hasQuote(i: number): boolean {
    return ((this.bits[i] ?? 0) & BIT_HAS_QUOTE) !== 0;
  }

  quoteBidAt(i: number): number | null {
    return orNull(this.quoteBid[i]);
  }

  quoteAskAt(i: number): number | null {
    return orNull(this.quoteAsk[i]);
  }

  quoteTsAt(i: number): number | null {
    return orNull(this.quoteTs[i]);
  }

  /** Stores `quote` as the print's quote in force (null values as NaN). */
  setQuote(i: number, quote: QuoteInForce | null): void {
    this.quoteBid[i] = quote?.bid ?? NaN;
    this.quoteAsk[i] = quote?.ask ?? NaN;
    this.quoteTs[i] = quote?.timestamp ?? NaN;
  }

  isCancel(i: number): boolean {
    return ((this.bits[i] ?? 0) & BIT_CANCEL) !== 0;
  }

  /** Renumbers the prints' trading dates: date index d becomes rank[d]. */
  renumberDates(rank: Int32Array): void {
    const dateIndex = this.dateIndex;
    for (let i = 0; i < this.length; i++) dateIndex[i] = rank[dateIndex[i] ?? -1] ?? -1;
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
      slot[i] = slotIds[slot[i] ?? -1] ?? -1;
      extended[i] = extendedIds[extended[i] ?? -1] ?? 0;
      dateIndex[i] = dateIndexes[dateIndex[i] ?? -1] ?? -1;
    }
    this.length = at + n;
  }
}

/** A stored value, null for NaN (a column's null) or past the table. */
function orNull(value: number | undefined): number | null {
  return value === undefined || Number.isNaN(value) ? null : value;
}
