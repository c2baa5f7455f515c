/**
 * The quotes loader's fast path over plain CSV lines (quotes.ts): a line read in place, its contract
 * found once per distinct symbol. canonical.ts keeps the general readers (readQuoteLine and the
 * record path) that give the same quotes and every reject's reason.
 */
import { contractRef, decimalAt, digitsAt, MAX_MS, MIN_MS, type ContractRef, type QuoteColumnsAt } from './canonical.js';

/**
 * Reads a plain CSV quotes line (trimmed) in place: no string per field, no array, no quote
 * object, and the contract found by a hash of the symbol's characters in an open-addressing table
 * of the symbols this reader has met, so that a line of a symbol seen before makes no string and
 * hashes none. A chain snapshot file is millions of lines of a few thousand symbols, and these
 * per-line allocations and string hashes were most of its read.
 *
 * read() is true when the line is one readQuoteLine() reads to a quote, and then the values it
 * leaves are that quote's (NaN for a null), with `symbol` the symbol's number in this reader (0, 1,
 * 2... in the order met, one per distinct text); false, with the values in any state, for anything
 * else (a reject, a quote character, spaces around a value, an exponent, a sign, a value beyond 15
 * digits, a symbol contractRef() rejects): read such a line with readQuoteLine() or as a record.
 */
export class QuoteLineReader {
  contract: ContractRef | null = null;
  symbol = -1;
  timestamp = 0;
  bid = NaN;
  ask = NaN;
  bidSize = NaN;
  askSize = NaN;
  private readonly starts: Int32Array;
  /** The symbols met: text, contract and hash by number. */
  private readonly texts: string[] = [];
  private readonly refs: ContractRef[] = [];
  private hashes = new Int32Array(256);
  /** Open addressing (linear probing): a symbol's number + 1 in the slot of its hash, 0 for empty. */
  private slots = new Int32Array(1024);

  constructor(readonly at: QuoteColumnsAt) {
    this.starts = new Int32Array(at.count + 1);
  }

  read(line: string): boolean {
    const { at, starts } = this;
    if (at.symbol < 0 || at.timestamp < 0 || line.includes('"')) return false;
    // Where each field starts, and one past the line's end after the last: exactly at.count fields.
    let from = 0;
    for (let k = 0; k < at.count - 1; k++) {
      starts[k] = from;
      const comma = line.indexOf(',', from);
      if (comma < 0) return false;
      from = comma + 1;
    }
    starts[at.count - 1] = from;
    if (line.indexOf(',', from) >= 0) return false;
    starts[at.count] = line.length + 1;

    const symbol = this.symbolAt(line, starts[at.symbol]!, starts[at.symbol + 1]! - 1);
    if (symbol < 0) return false;
    const timestamp = digitsAt(line, starts[at.timestamp]!, starts[at.timestamp + 1]! - 1, 15);
    if (timestamp < MIN_MS || timestamp >= MAX_MS) return false;
    const bid = this.decimalOrEmpty(line, at.bid);
    const ask = this.decimalOrEmpty(line, at.ask);
    const bidSize = this.integerOrEmpty(line, at.bidSize);
    const askSize = this.integerOrEmpty(line, at.askSize);
    if (bid < 0 || ask < 0 || bidSize < 0 || askSize < 0) return false;
    this.symbol = symbol;
    this.contract = this.refs[symbol]!;
    this.timestamp = timestamp;
    this.bid = bid;
    this.ask = ask;
    this.bidSize = bidSize;
    this.askSize = askSize;
    return true;
  }

  /** NaN for an empty value, the number for a plain decimal, -1 for anything else. */
  private decimalOrEmpty(line: string, column: number): number {
    const start = this.starts[column]!;
    const end = this.starts[column + 1]! - 1;
    return end === start ? NaN : decimalAt(line, start, end);
  }

  /** NaN for an absent column or an empty value, the number for 1 to 15 digits, -1 for anything else. */
  private integerOrEmpty(line: string, column: number): number {
    if (column < 0) return NaN;
    const start = this.starts[column]!;
    const end = this.starts[column + 1]! - 1;
    return end === start ? NaN : digitsAt(line, start, end, 15);
  }

  /**
   * The number of the symbol at line[start, end): printable ASCII, no space at either end (trim()
   * would change it), which contractRef() accepts; else -1.
   */
  private symbolAt(line: string, start: number, end: number): number {
    const length = end - start;
    if (length <= 0 || line.charCodeAt(start) === 32 || line.charCodeAt(end - 1) === 32) return -1;
    let hash = length;
    for (let i = start; i < end; i++) {
      const c = line.charCodeAt(i);
      if (c < 32 || c > 126) return -1;
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    const mask = this.slots.length - 1;
    let slot = (hash ^ (hash >>> 15)) & mask;
    for (let k = this.slots[slot]!; k !== 0; k = this.slots[slot]!) {
      if (this.hashes[k - 1] === hash && this.sameText(this.texts[k - 1]!, line, start, length)) return k - 1;
      slot = (slot + 1) & mask;
    }
    const text = line.slice(start, end);
    const ref = contractRef(text);
    if (typeof ref === 'string') return -1;
    const symbol = this.texts.length;
    this.texts.push(text);
    this.refs.push(ref);
    if (symbol === this.hashes.length) {
      const wider = new Int32Array(symbol * 2);
      wider.set(this.hashes);
      this.hashes = wider;
    }
    this.hashes[symbol] = hash;
    this.slots[slot] = symbol + 1;
    // At most half full, so that a probe ends soon.
    if (this.texts.length * 2 > this.slots.length) this.rehash();
    return symbol;
  }

  private sameText(text: string, line: string, start: number, length: number): boolean {
    if (text.length !== length) return false;
    for (let i = 0; i < length; i++) if (text.charCodeAt(i) !== line.charCodeAt(start + i)) return false;
    return true;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let k = 0; k < this.texts.length; k++) {
      const hash = this.hashes[k]!;
      let slot = (hash ^ (hash >>> 15)) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = k + 1;
    }
    this.slots = slots;
  }
}
