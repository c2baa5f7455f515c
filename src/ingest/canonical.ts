/**
 * Validation of records in the canonical layouts (layouts.ts) into typed rows. Each parser returns
 * the row or the reason the record is rejected; nothing here throws on bad input.
 */
import { calendarDay, CalendarRangeError } from '../analytics/calendar.js';
import { formatOccSymbol, parseOccSymbol, strikeToThousandths, type OccContract } from '../analytics/occ.js';
import { REGULAR_SALE_CONDITION } from '../analytics/opra.js';

/** A contract named by a record: the parsed OCC fields and the padded symbol the store keys on. */
export interface ContractRef extends OccContract {
  /** Padded OCC form. */
  symbol: string;
  strikeThousandths: number;
}

export interface CanonicalPrint {
  line: number;
  contract: ContractRef;
  timestamp: number;
  sequence: number;
  price: number;
  size: number;
  exchangeCode: number;
  conditionCode: number;
  extendedConditions: number[];
  aggressorSide: 'buy' | 'sell' | null;
  /** The NBBO in force when the file carries it (null: look it up). */
  quote: { bid: number | null; ask: number | null; timestamp: number } | null;
}

export interface CanonicalQuote {
  contract: ContractRef;
  timestamp: number;
  bid: number | null;
  ask: number | null;
  bidSize: number | null;
  askSize: number | null;
}

export interface CanonicalBar {
  symbol: string;
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

export interface CanonicalOpenInterest {
  contract: ContractRef;
  date: string;
  openInterest: number;
}

export interface CanonicalContract {
  contract: ContractRef;
  underlying: string | null;
  multiplier: number | null;
}

export const MIN_MS = 946_684_800_000; // 2000-01-01
export const MAX_MS = 4_102_444_800_000; // 2100-01-01
const INTEGER = /^-?\d+$/;
/** The largest exchange or condition code: they are stored as 32-bit integers. */
export const MAX_CODE = 2_147_483_647;

const contractMemo = new Map<string, ContractRef | string>();

/** Parses an OCC symbol (padded, unpadded or O:-prefixed); memoised, since files repeat symbols. */
export function contractRef(symbol: string | undefined): ContractRef | string {
  if (symbol === undefined || symbol === '') return 'option_symbol is missing';
  let ref = contractMemo.get(symbol);
  if (ref === undefined) {
    try {
      const occ = parseOccSymbol(symbol.toUpperCase().startsWith('O:') ? `O:${symbol.slice(2).toUpperCase()}` : symbol.toUpperCase());
      ref = { ...occ, symbol: formatOccSymbol(occ), strikeThousandths: strikeToThousandths(occ.strike) };
    } catch (error) {
      ref = `option_symbol: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (contractMemo.size > 500_000) contractMemo.clear();
    contractMemo.set(symbol, ref);
  }
  return ref;
}

/** Unix ms from an integer (ms) or an ISO-8601 string; null when neither or outside 2000..2100. */
export function parseTimestampMs(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  let ms: number;
  if (INTEGER.test(value)) ms = Number(value);
  else {
    if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) return null;
    ms = isoToMs(value);
  }
  return Number.isFinite(ms) && ms >= MIN_MS && ms < MAX_MS ? ms : null;
}

/** ISO-8601 with any number of fractional digits (Databento prints nanoseconds): truncated to ms. */
export function isoToMs(value: string): number {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (m === null) return NaN;
  const fraction = (m[2] ?? '').padEnd(3, '0').slice(0, 3);
  return Date.parse(`${m[1]}.${fraction}${m[3] ?? 'Z'}`);
}

/** Nanoseconds since the epoch (integer text, beyond 2^53) to whole milliseconds, truncating. */
export function nanosToMs(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  if (value.length <= 6) return 0;
  return Number(value.slice(0, -6));
}

function number(value: string | undefined): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function positiveInteger(value: string | undefined): number | null {
  if (value === undefined || !INTEGER.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function nonNegativeInteger(value: string | undefined): number | null {
  if (value === undefined || !INTEGER.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** Condition codes separated by | (or commas or spaces, as vendors write lists). */
const NO_CODES: number[] = Object.freeze([]) as unknown as number[];

export function parseCodes(value: string | undefined): number[] | string {
  if (value === undefined || value === '' || value.trim() === '') return NO_CODES;
  const out: number[] = [];
  for (const part of value.split(/[|,\s]+/)) {
    if (part === '') continue;
    const n = nonNegativeInteger(part);
    if (n === null) return `condition code "${part}" is not a non-negative integer`;
    if (n > MAX_CODE) return `condition code "${part}" is above ${MAX_CODE}`;
    out.push(n);
  }
  return out;
}

function tradingDate(value: string | undefined): string {
  const date = value ?? '';
  try {
    if (calendarDay(date).status === 'closed') return `date ${date} is not a trading day`;
  } catch (error) {
    if (error instanceof CalendarRangeError) return `date "${date}" is not a date from 2000-01-01 to 2035-12-31`;
    throw error;
  }
  return '';
}

export function parsePrintFields(fields: Record<string, string>, line: number): CanonicalPrint | string {
  const contract = contractRef(fields.option_symbol);
  if (typeof contract === 'string') return contract;
  const timestamp = parseTimestampMs(fields.timestamp);
  if (timestamp === null) return `timestamp "${fields.timestamp ?? ''}" is not Unix ms or ISO-8601 within 2000..2099`;
  const sequence = nonNegativeInteger(fields.sequence);
  if (sequence === null) return `sequence "${fields.sequence ?? ''}" is not a non-negative integer`;
  const price = number(fields.price);
  if (price === null || !(price > 0)) return `price "${fields.price ?? ''}" must be a positive number`;
  const size = positiveInteger(fields.size);
  if (size === null || size > 2_000_000_000) return `size "${fields.size ?? ''}" must be a positive integer`;
  const exchangeCode = nonNegativeInteger(fields.exchange_code);
  if (exchangeCode === null) return `exchange_code "${fields.exchange_code ?? ''}" is not a non-negative integer`;
  if (exchangeCode > MAX_CODE) return `exchange_code "${fields.exchange_code ?? ''}" is above ${MAX_CODE}`;
  let conditionCode = REGULAR_SALE_CONDITION;
  if (fields.condition_code !== undefined && fields.condition_code !== '') {
    const c = nonNegativeInteger(fields.condition_code);
    if (c === null) return `condition_code "${fields.condition_code}" is not a non-negative integer`;
    if (c > MAX_CODE) return `condition_code "${fields.condition_code}" is above ${MAX_CODE}`;
    conditionCode = c;
  }
  const extended = parseCodes(fields.extended_conditions);
  if (typeof extended === 'string') return `extended_conditions: ${extended}`;
  const hint = (fields.aggressor_side ?? '').toLowerCase();
  if (hint !== '' && hint !== 'buy' && hint !== 'sell') return `aggressor_side "${fields.aggressor_side ?? ''}" must be buy, sell or empty`;
  let quote: CanonicalPrint['quote'] = null;
  const hasBid = fields.bid !== undefined && fields.bid !== '';
  const hasAsk = fields.ask !== undefined && fields.ask !== '';
  if (hasBid || hasAsk) {
    const bid = hasBid ? number(fields.bid) : null;
    const ask = hasAsk ? number(fields.ask) : null;
    if (hasBid && bid === null) return `bid "${fields.bid ?? ''}" is not a number`;
    if (hasAsk && ask === null) return `ask "${fields.ask ?? ''}" is not a number`;
    let quoteTs = timestamp;
    if (fields.quote_timestamp !== undefined && fields.quote_timestamp !== '') {
      const q = parseTimestampMs(fields.quote_timestamp);
      if (q === null) return `quote_timestamp "${fields.quote_timestamp}" is not Unix ms or ISO-8601`;
      quoteTs = q;
    }
    quote = { bid, ask, timestamp: quoteTs };
  }
  return {
    line,
    contract,
    timestamp,
    sequence,
    price,
    size,
    exchangeCode,
    conditionCode,
    extendedConditions: extended,
    aggressorSide: hint === '' ? null : hint,
    quote,
  };
}

/** Where a print's fields are in the lines of a canonical CSV file: their column indexes. */
export interface PrintColumns {
  /** Columns a line has. */
  count: number;
  symbol: number;
  timestamp: number;
  sequence: number;
  price: number;
  size: number;
  exchangeCode: number;
  conditionCode: number;
  extended: number;
  aggressor: number;
  bid: number;
  ask: number;
  quoteTs: number;
}

/**
 * The print columns of a CSV header (each name's last column, the one its record keeps), or null
 * when one is missing: such a file is read by records only.
 */
export function printColumns(header: readonly string[]): PrintColumns | null {
  const columns: PrintColumns = {
    count: header.length,
    symbol: header.lastIndexOf('option_symbol'),
    timestamp: header.lastIndexOf('timestamp'),
    sequence: header.lastIndexOf('sequence'),
    price: header.lastIndexOf('price'),
    size: header.lastIndexOf('size'),
    exchangeCode: header.lastIndexOf('exchange_code'),
    conditionCode: header.lastIndexOf('condition_code'),
    extended: header.lastIndexOf('extended_conditions'),
    aggressor: header.lastIndexOf('aggressor_side'),
    bid: header.lastIndexOf('bid'),
    ask: header.lastIndexOf('ask'),
    quoteTs: header.lastIndexOf('quote_timestamp'),
  };
  return Object.values(columns).some((index) => index < 0) ? null : columns;
}

/** A print line's values as readPrintLine() reads them; one object, reused from line to line. */
export class PrintLineValues {
  /** The option_symbol text, for the caller to give to contractRef(). */
  symbol = '';
  timestamp = 0;
  sequence = 0;
  price = 0;
  size = 0;
  exchangeCode = 0;
  conditionCode = 0;
  /** The extended_conditions text ('' for none), for the caller to give to parseCodes(). */
  extended = '';
  /** 0 none, 1 buy, 2 sell. */
  aggressor = 0;
  hasQuote = false;
  /** NaN when the line has none. */
  bid = NaN;
  ask = NaN;
  quoteTs = NaN;
  /** Where each field starts (the first at 0, never written), and one past the line's end after the last. */
  readonly starts: Int32Array;

  constructor(readonly columns: PrintColumns) {
    this.starts = new Int32Array(columns.count + 1);
  }
}

/** 10^0..10^14, each exact. */
const POW10 = Array.from({ length: 15 }, (_, k) => 10 ** k);

/** The value of 1 to `maxDigits` (at most 15) ASCII digits at line[start, end), else -1. */
export function digitsAt(line: string, start: number, end: number, maxDigits: number): number {
  if (end <= start || end - start > maxDigits) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = line.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The value of a decimal `digits[.digits]` of 15 digits at most at line[start, end), else -1.
 * Exactly Number()'s: the digits as an integer below 2^53 and 10^k are both exact, and one
 * division of exact numbers rounds correctly (Clinger's fast path).
 */
export function decimalAt(line: string, start: number, end: number): number {
  if (end <= start || end - start > 16) return -1;
  let mantissa = 0;
  let point = -1;
  for (let i = start; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c === 46 && point < 0 && i > start && i < end - 1) point = i;
    else if (c >= 48 && c <= 57) mantissa = mantissa * 10 + (c - 48);
    else return -1;
  }
  if (point < 0) return end - start > 15 ? -1 : mantissa;
  return mantissa / (POW10[end - 1 - point] as number);
}

/**
 * Reads a canonical CSV print line (trimmed) into `into` without making a record: true when every
 * field is in the plain form it takes, and then its values are the ones parsePrintFields() gives
 * the line's record for them (parseCodes() and contractRef() on the texts left to the caller).
 * False, with `into` in any state, for anything else: quotes, a column count not the header's,
 * spaces around a value, signs, exponents, out of range or malformed values. Such a line is read
 * by its record, which gives the same result or the reason it is rejected. What it gains: no
 * record object and no string per field, which are most of the cost of csvRecord() and
 * parsePrintFields() on a line.
 */
export function readPrintLine(line: string, into: PrintLineValues): boolean {
  if (line.includes('"')) return false;
  return (
    placeFields(line, into) &&
    readSymbolText(line, into) &&
    readPrintNumbers(line, into) &&
    readConditionTexts(line, into) &&
    readLineQuote(line, into)
  );
}

/** Where each field starts (into.starts): false unless the line has exactly the header's columns. */
function placeFields(line: string, into: PrintLineValues): boolean {
  const { columns, starts } = into;
  const last = columns.count - 1;
  let field = 0;
  for (let comma = line.indexOf(','); comma >= 0; comma = line.indexOf(',', comma + 1)) {
    if (field === last) return false;
    starts[++field] = comma + 1;
  }
  if (field !== last) return false;
  starts[columns.count] = line.length + 1;
  return true;
}

/** option_symbol's text, when it is its own trim() (visible ASCII at both ends). */
function readSymbolText(line: string, into: PrintLineValues): boolean {
  const { columns, starts } = into;
  const start = starts[columns.symbol] as number;
  const end = (starts[columns.symbol + 1] as number) - 1;
  if (end <= start) return false;
  const first = line.charCodeAt(start);
  const final = line.charCodeAt(end - 1);
  if (first <= 32 || first >= 127 || final <= 32 || final >= 127) return false;
  into.symbol = line.slice(start, end);
  return true;
}

/** timestamp, sequence, price, size and exchange_code, each in its range. */
function readPrintNumbers(line: string, into: PrintLineValues): boolean {
  const { columns, starts } = into;
  const timestamp = digitsAt(line, starts[columns.timestamp] as number, (starts[columns.timestamp + 1] as number) - 1, 15);
  if (timestamp < MIN_MS || timestamp >= MAX_MS) return false;
  into.timestamp = timestamp;
  const sequence = digitsAt(line, starts[columns.sequence] as number, (starts[columns.sequence + 1] as number) - 1, 15);
  if (sequence < 0) return false;
  into.sequence = sequence;
  const price = decimalAt(line, starts[columns.price] as number, (starts[columns.price + 1] as number) - 1);
  if (!(price > 0)) return false;
  into.price = price;
  const size = digitsAt(line, starts[columns.size] as number, (starts[columns.size + 1] as number) - 1, 10);
  if (size <= 0 || size > 2_000_000_000) return false;
  into.size = size;
  const exchangeCode = digitsAt(line, starts[columns.exchangeCode] as number, (starts[columns.exchangeCode + 1] as number) - 1, 15);
  if (exchangeCode < 0 || exchangeCode > MAX_CODE) return false;
  into.exchangeCode = exchangeCode;
  return true;
}

/** condition_code (empty: a regular sale), extended_conditions' text (digits and |) and aggressor_side. */
function readConditionTexts(line: string, into: PrintLineValues): boolean {
  const { columns, starts } = into;
  let start = starts[columns.conditionCode] as number;
  let end = (starts[columns.conditionCode + 1] as number) - 1;
  if (end === start) into.conditionCode = REGULAR_SALE_CONDITION;
  else {
    const conditionCode = digitsAt(line, start, end, 15);
    if (conditionCode < 0 || conditionCode > MAX_CODE) return false;
    into.conditionCode = conditionCode;
  }

  start = starts[columns.extended] as number;
  end = (starts[columns.extended + 1] as number) - 1;
  for (let i = start; i < end; i++) {
    const c = line.charCodeAt(i);
    if (c !== 124 && (c < 48 || c > 57)) return false; // digits and |
  }
  into.extended = end === start ? '' : line.slice(start, end);

  start = starts[columns.aggressor] as number;
  end = (starts[columns.aggressor + 1] as number) - 1;
  if (end === start) into.aggressor = 0;
  else if (end - start === 3 && line.startsWith('buy', start)) into.aggressor = 1;
  else if (end - start === 4 && line.startsWith('sell', start)) into.aggressor = 2;
  else return false;
  return true;
}

/** bid, ask and, with either, quote_timestamp (empty: the print's timestamp). */
function readLineQuote(line: string, into: PrintLineValues): boolean {
  const { columns, starts } = into;
  let start = starts[columns.bid] as number;
  let end = (starts[columns.bid + 1] as number) - 1;
  const hasBid = end > start;
  const bid = hasBid ? decimalAt(line, start, end) : NaN;
  if (bid < 0) return false;
  start = starts[columns.ask] as number;
  end = (starts[columns.ask + 1] as number) - 1;
  const hasAsk = end > start;
  const ask = hasAsk ? decimalAt(line, start, end) : NaN;
  if (ask < 0) return false;
  into.bid = bid;
  into.ask = ask;
  into.hasQuote = hasBid || hasAsk;
  into.quoteTs = NaN;
  if (into.hasQuote) {
    start = starts[columns.quoteTs] as number;
    end = (starts[columns.quoteTs + 1] as number) - 1;
    if (end === start) into.quoteTs = into.timestamp;
    else {
      const quoteTs = digitsAt(line, start, end, 15);
      if (quoteTs < MIN_MS || quoteTs >= MAX_MS) return false;
      into.quoteTs = quoteTs;
    }
  }
  return true;
}

export function parseQuoteFields(fields: Record<string, string>): CanonicalQuote | string {
  return parseQuoteValues(fields.option_symbol, fields.timestamp, fields.bid, fields.ask, fields.bid_size, fields.ask_size);
}

/** A quote from its values, each undefined when its column is absent (parseQuoteFields, readQuoteLine). */
function parseQuoteValues(
  symbol: string | undefined,
  time: string | undefined,
  bidText: string | undefined,
  askText: string | undefined,
  bidSizeText: string | undefined,
  askSizeText: string | undefined,
): CanonicalQuote | string {
  const contract = contractRef(symbol);
  if (typeof contract === 'string') return contract;
  const timestamp = parseTimestampMs(time);
  if (timestamp === null) return `timestamp "${time ?? ''}" is not Unix ms or ISO-8601 within 2000..2099`;
  if (bidText === undefined || askText === undefined) return 'bid and ask columns are required';
  const bid = bidText === '' ? null : number(bidText);
  const ask = askText === '' ? null : number(askText);
  if (bidText !== '' && (bid === null || bid < 0)) return `bid "${bidText}" must be a non-negative number or empty`;
  if (askText !== '' && (ask === null || ask < 0)) return `ask "${askText}" must be a non-negative number or empty`;
  const bidSize = bidSizeText === undefined || bidSizeText === '' ? null : nonNegativeInteger(bidSizeText);
  const askSize = askSizeText === undefined || askSizeText === '' ? null : nonNegativeInteger(askSizeText);
  if (bidSize === null && bidSizeText !== undefined && bidSizeText !== '') return `bid_size "${bidSizeText}" is not a non-negative integer`;
  if (askSize === null && askSizeText !== undefined && askSizeText !== '') return `ask_size "${askSizeText}" is not a non-negative integer`;
  return { contract, timestamp, bid, ask, bidSize, askSize };
}

/** Where the quote columns sit in a CSV header (-1: absent); null when bid or ask is absent. */
export interface QuoteColumnsAt {
  count: number;
  symbol: number;
  timestamp: number;
  bid: number;
  ask: number;
  bidSize: number;
  askSize: number;
}

export function quoteColumnsAt(header: readonly string[]): QuoteColumnsAt | null {
  // A repeated column name: the record's later value wins; left to the record path.
  if (new Set(header).size !== header.length) return null;
  const at = (name: string): number => header.indexOf(name);
  const columns = {
    count: header.length,
    symbol: at('option_symbol'),
    timestamp: at('timestamp'),
    bid: at('bid'),
    ask: at('ask'),
    bidSize: at('bid_size'),
    askSize: at('ask_size'),
  };
  return columns.bid < 0 || columns.ask < 0 ? null : columns;
}

/** A value of a split line, undefined for an absent column; null when it has blanks around it (csvRecord trims them). */
function plainValue(values: readonly string[], i: number): string | undefined | null {
  if (i < 0) return undefined;
  const v = values[i]!;
  return v.trim() === v ? v : null;
}

/**
 * A CSV quotes line (trimmed, as the record reader hands it) read straight to its quote: the same
 * quote or reject reason as csvRecord then parseQuoteFields give, without a fields object per line
 * (a chain snapshot file is millions of lines). null for a line this does not read (a quote
 * character, another column count, a value with blanks around it): read it as a record.
 */
export function readQuoteLine(line: string, at: QuoteColumnsAt): CanonicalQuote | string | null {
  if (line.includes('"')) return null;
  const values = line.split(',');
  if (values.length !== at.count) return null;
  const symbol = plainValue(values, at.symbol);
  const time = plainValue(values, at.timestamp);
  const bid = plainValue(values, at.bid);
  const ask = plainValue(values, at.ask);
  const bidSize = plainValue(values, at.bidSize);
  const askSize = plainValue(values, at.askSize);
  if (symbol === null || time === null || bid === null || ask === null || bidSize === null || askSize === null) return null;
  return parseQuoteValues(symbol, time, bid, ask, bidSize, askSize);
}

const UNDERLYING = /^[A-Z][A-Z0-9.]{0,7}$/;

export function parseBarFields(fields: Record<string, string>): CanonicalBar | string {
  const symbol = (fields.symbol ?? '').toUpperCase();
  if (!UNDERLYING.test(symbol)) return `symbol "${fields.symbol ?? ''}" is not 1 to 8 letters, digits or dots starting with a letter`;
  const timestamp = parseTimestampMs(fields.timestamp);
  if (timestamp === null) return `timestamp "${fields.timestamp ?? ''}" is not Unix ms or ISO-8601 within 2000..2099`;
  if (timestamp % 60_000 !== 0) return `timestamp ${timestamp} is not the start of a minute`;
  const open = number(fields.open);
  const high = number(fields.high);
  const low = number(fields.low);
  const close = number(fields.close);
  for (const [name, v] of [
    ['open', open],
    ['high', high],
    ['low', low],
    ['close', close],
  ] as const) {
    if (v === null || !(v > 0)) return `${name} "${fields[name] ?? ''}" must be a positive number`;
  }
  if (high! < low! || high! < Math.max(open!, close!) || low! > Math.min(open!, close!)) return 'high and low do not bound open and close';
  let volume: number | null = null;
  if (fields.volume !== undefined && fields.volume !== '') {
    const v = number(fields.volume);
    if (v === null || v < 0) return `volume "${fields.volume}" must be a non-negative number`;
    volume = Math.round(v);
  }
  return { symbol, timestamp, open: open!, high: high!, low: low!, close: close!, volume };
}

export function parseOpenInterestFields(fields: Record<string, string>): CanonicalOpenInterest | string {
  const contract = contractRef(fields.option_symbol);
  if (typeof contract === 'string') return contract;
  const bad = tradingDate(fields.date);
  if (bad !== '') return bad;
  const openInterest = nonNegativeInteger(fields.open_interest);
  if (openInterest === null || openInterest > 2_000_000_000)
    return `open_interest "${fields.open_interest ?? ''}" must be a non-negative integer`;
  return { contract, date: fields.date ?? '', openInterest };
}

export function parseContractFields(fields: Record<string, string>): CanonicalContract | string {
  const contract = contractRef(fields.option_symbol);
  if (typeof contract === 'string') return contract;
  let underlying: string | null = null;
  if (fields.underlying !== undefined && fields.underlying !== '') {
    underlying = fields.underlying.toUpperCase();
    if (!UNDERLYING.test(underlying))
      return `underlying "${fields.underlying}" is not 1 to 8 letters, digits or dots starting with a letter`;
  }
  let multiplier: number | null = null;
  if (fields.multiplier !== undefined && fields.multiplier !== '') {
    multiplier = positiveInteger(fields.multiplier);
    if (multiplier === null || multiplier > 100_000) return `multiplier "${fields.multiplier}" must be a positive integer`;
  }
  return { contract, underlying, multiplier };
}
