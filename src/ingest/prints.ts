/**
 * Prints: parse, place on the calendar, sort, classify, bulk write by COPY; the one path for vendor
 * files, canonical files, the simulator and archive reloads.
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
 *   the underlying (rates.ts);
 * - for a date already stored (an earlier file of the same day), the stored prints (below).
 * A file's prints are held column by column in typed arrays (PrintTable in print-table.ts, about
 * 100 bytes a print outside the JS heap, so a 10-million-print day fits the 4 GB heap; a large
 * uncompressed file is read in two halves at once, the second in a worker thread) and sorted by
 * (trading date, timestamp, sequence, line); a file already in that order, the usual case, is not
 * sorted again. A print whose trading date, contract, timestamp and sequence repeat the previous
 * one is a duplicate and skipped; one already stored is left as stored.
 *
 * A trading date split into several files (the usual case for a full OPRA day: chronological parts)
 * loads file by file. A file of a date that is already stored continues it: each contract's
 * day_volume starts from its stored volume (stored prints less cancelled ones), and a cancel record
 * that matches no print of its own file cancels the most recent stored print of the same date,
 * contract, exchange, price and size, not yet cancelled, at or before it within the classifier's
 * look-back (10 minutes); the store remembers which print each such record cancelled
 * (print_cancels), so loading its file again changes nothing. Files are meant to come in time order:
 * when a file overlaps stored prints in time, its prints count the whole stored volume of the date
 * as traded before them, its cancel records prefer a print of their own file, and prints it repeats
 * (same date, contract and sequence) are left as stored.
 *
 * Writing: each classified print becomes one row of binary COPY data (writePrintRow, the served
 * body in its column), streamed to PostgreSQL while the following prints are classified, so
 * PostgreSQL stores rows on the second core as node classifies. A trading date without a partition
 * yet is loaded into a standalone table created in the load's transaction and attached as the
 * date's partition at the end of the transaction, when PostgreSQL builds its indexes in bulk (a sort
 * per index, much cheaper than maintaining them row by row): with no index at all and COPY … FREEZE
 * when no (contract, sequence) repeats within the file's date (keysUnique), else with its primary
 * key, through the staging path. A date already present takes its rows through a staging table and
 * INSERT … ON CONFLICT DO NOTHING into the indexed partition (bulk-copy.ts). Measured on a 2-core
 * machine (bench/ingest, 1M prints, rows of about 1 KB with the body): PostgreSQL reads the binary
 * rows in about half the time of the same rows as COPY text (4.9-7.6 s against 10.6-14.5 s), which
 * in turn replaced INSERT … SELECT FROM unnest() (column arrays of JS values, slower still).
 */
import {
  DEFAULT_CLASSIFIER_OPTIONS,
  PRICE_EPSILON,
  PrintClassifier,
  type ClassifiedPrintRecord,
  type PrintContext,
  type PrintSink,
  type QuoteInForce,
  type RawPrint,
  type StoredPrints,
} from '../analytics/classification.js';
import { dividendYield, riskFreeRate } from '../analytics/rates.js';
import { MS_PER_YEAR, settlementInstant } from '../analytics/settlement.js';
import { openCopySession, PRINT_COPY_COLUMNS, type PrintCopy } from '../db/bulk-copy.js';
import { CopyBinaryWriter } from '../db/copy-binary.js';
import type { Database, Queryable } from '../db/connection.js';
import {
  attachPrintsPartition,
  createStandalonePrintsPartition,
  ensureContracts,
  ensureOptionRoots,
  findIngestedFile,
  markPrintsCancelled,
  openInterestOn,
  partitionDates,
  quoteSamplesOn,
  recordIngestedFile,
  recordPrintCancels,
  storedCancelCandidates,
  storedDayVolumes,
  underlyingBarsBetween,
  type StoredCancelCandidate,
  type StoredContract,
} from '../db/market-data.js';
import { PrintSessionResolver } from './print-session.js';
import { emptyResult, fileChecksum, type MarketLoadResult } from './source.js';
import { AGGRESSOR, BIT_HAS_QUOTE, NO_CODES, type PrintTable, readPrintTable, SESSIONS, type ContractSlot, type ReadOptions } from './print-table.js';
import type { VendorAdapter } from './vendors.js';

/** A file's prints in classification order, by trading date. */
interface SortedPrints {
  table: PrintTable;
  /** Indexes into the table, sorted, duplicates dropped. */
  order: Int32Array;
  /** Per trading date, in calendar order: its span of `order` and whether its row keys are unique. */
  days: { tradingDate: string; start: number; end: number; uniqueKeys: boolean }[];
}

/**
 * Whether no two prints (cancel records aside, they are never stored) of one trading date share a
 * contract and sequence. Quick when each contract's sequences rise in time order, as a feed's do;
 * otherwise each contract's sequences are sorted and compared.
 */
function keysUnique(table: PrintTable, day: Int32Array): boolean {
  const { slot, sequence } = table;
  const last = new Float64Array(table.slots.length).fill(-1);
  let rising = true;
  for (let k = 0; k < day.length && rising; k++) {
    const i = day[k] as number;
    if (table.isCancel(i)) continue;
    const s = slot[i] as number;
    if ((sequence[i] as number) <= (last[s] as number)) rising = false;
    else last[s] = sequence[i] as number;
  }
  if (rising) return true;
  // Group the sequences by contract (a counting sort), then sort and compare within each group.
  const offsets = new Int32Array(table.slots.length + 1);
  for (let k = 0; k < day.length; k++) {
    const i = day[k] as number;
    if (table.isCancel(i)) continue;
    const s = (slot[i] as number) + 1;
    offsets[s] = (offsets[s] as number) + 1;
  }
  for (let s = 1; s < offsets.length; s++) offsets[s] = (offsets[s] as number) + (offsets[s - 1] as number);
  const fill = offsets.slice(0, -1);
  const grouped = new Float64Array(offsets[offsets.length - 1] as number);
  for (let k = 0; k < day.length; k++) {
    const i = day[k] as number;
    if (table.isCancel(i)) continue;
    const s = slot[i] as number;
    grouped[fill[s] as number] = sequence[i] as number;
    fill[s] = (fill[s] as number) + 1;
  }
  for (let s = 0; s + 1 < offsets.length; s++) {
    const group = grouped.subarray(offsets[s], offsets[s + 1]).sort();
    for (let g = 1; g < group.length; g++) if (group[g] === group[g - 1]) return false;
  }
  return true;
}

/**
 * Reads, validates and places the prints of a file; sorted for the classifier. Repeats of a print
 * (same trading date, time, sequence and contract) are counted as duplicates and dropped.
 */
async function readPrints(file: string, adapter: VendorAdapter | null, result: MarketLoadResult, options: PrintLoadOptions, resolver: PrintSessionResolver): Promise<SortedPrints> {
  const { table, dateIndex } = await readPrintTable(file, adapter, result, options, resolver);

  // Dates in calendar order, then (timestamp, sequence, line) within each; lines rise in read order.
  const dates = [...dateIndex.keys()].sort();
  const rank = new Int32Array(dates.length);
  dates.forEach((d, i) => (rank[dateIndex.get(d) as number] = i));
  const n = table.length;
  const { timestamp, sequence } = table;
  const dateRank = table.dateIndex;
  for (let i = 0; i < n; i++) dateRank[i] = rank[dateRank[i] as number] as number;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) {
    const d = (dateRank[i] as number) - (dateRank[i - 1] as number);
    const t = (timestamp[i] as number) - (timestamp[i - 1] as number);
    sorted = d > 0 || (d === 0 && (t > 0 || (t === 0 && (sequence[i] as number) >= (sequence[i - 1] as number))));
  }
  let order: Int32Array;
  if (sorted) {
    order = new Int32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
  } else {
    const indexes = Array.from({ length: n }, (_, i) => i);
    indexes.sort(
      (a, b) =>
        (dateRank[a] as number) - (dateRank[b] as number) ||
        (timestamp[a] as number) - (timestamp[b] as number) ||
        (sequence[a] as number) - (sequence[b] as number) ||
        a - b,
    );
    order = Int32Array.from(indexes);
  }

  let kept = 0;
  let previous = -1;
  const slot = table.slot;
  for (let k = 0; k < n; k++) {
    const i = order[k] as number;
    if (
      previous >= 0 &&
      !table.isCancel(i) &&
      !table.isCancel(previous) &&
      sequence[i] === sequence[previous] &&
      timestamp[i] === timestamp[previous] &&
      dateRank[i] === dateRank[previous] &&
      slot[i] === slot[previous]
    ) {
      result.duplicates += 1;
      continue;
    }
    order[kept++] = i;
    previous = i;
  }
  order = order.subarray(0, kept);

  // Row keys (date, contract, sequence) must be unique for the direct COPY (see keysUnique).
  const days: SortedPrints['days'] = [];
  let start = 0;
  while (start < kept) {
    const date = dateRank[order[start] as number] as number;
    let end = start;
    while (end < kept && dateRank[order[end] as number] === date) end++;
    days.push({ tradingDate: dates[date] as string, start, end, uniqueKeys: keysUnique(table, order.subarray(start, end)) });
    start = end;
  }
  return { table, order, days };
}

const bytes = (text: string): Buffer => Buffer.from(text, 'latin1');

/** Values a segment cache keeps (each field's vocabulary, roots, expiries and exchanges stay far below). */
const MAX_SEGMENTS = 4096;

/**
 * `prefix + value + suffix` as bytes, kept per value: for the body's fields of few values (fixed
 * vocabularies, expiries, exchanges, underlyings), a field's key, value and quotes in one copy.
 */
class Segments {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly prefix: string,
    private readonly suffix: string,
  ) {}

  of(value: string): Buffer {
    let segment = this.cache.get(value);
    if (segment === undefined) {
      segment = Buffer.from(`${this.prefix}${value}${this.suffix}`, 'utf8');
      if (this.cache.size < MAX_SEGMENTS) this.cache.set(value, segment);
    }
    return segment;
  }
}

/** The body's constant parts and per-value segments, in the specification's field order. */
const BODY = {
  ask: bytes('{"ask":'),
  bid: bytes(',"bid":'),
  conditionCode: bytes(',"condition_code":'),
  contractType: new Segments(',"contract_type":"', '"'),
  dateOfExpiry: new Segments(',"date_of_expiry":"', '","day_volume":'),
  daysToExpiry: bytes(',"days_to_expiry":'),
  delta: bytes(',"delta":'),
  exchange: new Segments(',"exchange":"', '","exchange_code":'),
  flagsNone: bytes(',"flags":[]'),
  flagsOpen: bytes(',"flags":["'),
  flagsNext: bytes('","'),
  flagsClose: bytes('"]'),
  noGroupThenId: bytes(',"group_id":null,"id":"'),
  group: bytes(',"group_id":"'),
  groupThenId: bytes('","id":"'),
  impliedVolatility: bytes('","implied_volatility":'),
  /** is_block, is_golden, is_unusual (bits 4, 2, 1 of the index), then the open_interest key. */
  booleans: Array.from({ length: 8 }, (_, i) =>
    bytes(`,"is_block":${(i & 4) !== 0},"is_golden":${(i & 2) !== 0},"is_unusual":${(i & 1) !== 0},"open_interest":`),
  ),
  otmPercent: bytes(',"otm_percent":'),
  premium: bytes(',"premium":'),
  price: bytes(',"price":'),
  sentiment: new Segments(',"sentiment":"', '"'),
  session: new Segments(',"session":"', '"'),
  side: new Segments(',"side":"', '","side_confidence":'),
  size: bytes(',"size":'),
  strike: bytes(',"strike":'),
  timestamp: bytes(',"timestamp":'),
  tradeType: new Segments(',"trade_type":"', '","underlying_price":'),
  underlyingSymbol: new Segments(',"underlying_symbol":"', '"}'),
  null: bytes('null'),
};

function numberOrNull(w: CopyBinaryWriter, value: number | null): void {
  if (value === null) w.appendBytes(BODY.null);
  else w.appendNumber(value);
}

/**
 * The print as served, as the body column's text value: the JSON object of the specification's 31
 * fields, in its order, exactly as JSON.stringify writes it, written straight into the COPY buffer
 * in constant parts, cached segments and numbers: 2.2 us a print against 4.4 us for the same JSON
 * built as a string and then written (the numbers' String() most of it), with no string left for
 * the collector. Its strings are words of fixed vocabularies, validated dates, and ids and symbols
 * made of a validated OCC root (letters and digits), dates, digits and colons: none holds a quote,
 * backslash or control character, so each is written between quotes as it is.
 */
export function writePrintBody(r: ClassifiedPrintRecord, w: CopyBinaryWriter): void {
  w.openText();
  w.appendBytes(BODY.ask);
  numberOrNull(w, r.ask);
  w.appendBytes(BODY.bid);
  numberOrNull(w, r.bid);
  w.appendBytes(BODY.conditionCode);
  w.appendNumber(r.condition_code);
  w.appendBytes(BODY.contractType.of(r.contract_type));
  w.appendBytes(BODY.dateOfExpiry.of(r.date_of_expiry));
  w.appendNumber(r.day_volume);
  w.appendBytes(BODY.daysToExpiry);
  w.appendNumber(r.days_to_expiry);
  w.appendBytes(BODY.delta);
  numberOrNull(w, r.delta);
  w.appendBytes(BODY.exchange.of(r.exchange));
  w.appendNumber(r.exchange_code);
  const flags = r.flags;
  if (flags.length === 0) w.appendBytes(BODY.flagsNone);
  else {
    w.appendBytes(BODY.flagsOpen);
    for (let k = 0; k < flags.length; k++) {
      if (k > 0) w.appendBytes(BODY.flagsNext);
      w.appendAscii(flags[k] as string);
    }
    w.appendBytes(BODY.flagsClose);
  }
  if (r.group_id === null) w.appendBytes(BODY.noGroupThenId);
  else {
    w.appendBytes(BODY.group);
    w.appendAscii(r.group_id);
    w.appendBytes(BODY.groupThenId);
  }
  w.appendAscii(r.id);
  w.appendBytes(BODY.impliedVolatility);
  numberOrNull(w, r.implied_volatility);
  w.appendBytes(BODY.booleans[(r.is_block ? 4 : 0) | (r.is_golden ? 2 : 0) | (r.is_unusual ? 1 : 0)] as Buffer);
  numberOrNull(w, r.open_interest);
  w.appendBytes(BODY.otmPercent);
  numberOrNull(w, r.otm_percent);
  w.appendBytes(BODY.premium);
  w.appendNumber(r.premium);
  w.appendBytes(BODY.price);
  w.appendNumber(r.price);
  w.appendBytes(BODY.sentiment.of(r.sentiment));
  w.appendBytes(BODY.session.of(r.session));
  w.appendBytes(BODY.side.of(r.side));
  w.appendNumber(r.side_confidence);
  w.appendBytes(BODY.size);
  w.appendNumber(r.size);
  w.appendBytes(BODY.strike);
  w.appendNumber(r.strike);
  w.appendBytes(BODY.timestamp);
  w.appendNumber(r.timestamp);
  w.appendBytes(BODY.tradeType.of(r.trade_type));
  numberOrNull(w, r.underlying_price);
  w.appendBytes(BODY.underlyingSymbol.of(r.underlying_symbol));
  w.closeText();
}

/** What a stored print row holds beyond the classified print; one object, refilled per row. */
export interface PrintRowFacts {
  contractId: number;
  root: string;
  family: string;
  underlying: string;
  extendedConditions: readonly number[];
  quoteBid: number | null;
  quoteAsk: number | null;
  quoteTs: number | null;
  aggressorSide: 'buy' | 'sell' | null;
}

/**
 * Writes one row of the prints table in binary COPY form: columns in PRINT_COPY_COLUMNS order,
 * each in its column type's binary form, the served body in its column.
 */
export function writePrintRow(r: ClassifiedPrintRecord, facts: PrintRowFacts, w: CopyBinaryWriter): void {
  w.row(PRINT_COPY_COLUMNS.length);
  w.date(r.trading_date);
  w.int8(facts.contractId);
  w.int8(r.sequence);
  w.text(r.id);
  w.text(facts.root);
  w.text(facts.family);
  w.text(facts.underlying);
  w.int8(r.timestamp);
  w.text(r.session);
  w.text(r.contract_type);
  w.date(r.date_of_expiry);
  w.float8(r.strike);
  w.float8(r.price);
  w.int4(r.size);
  w.float8(r.premium);
  w.int4(r.exchange_code);
  w.text(r.exchange);
  w.int4(r.condition_code);
  w.int4Array(facts.extendedConditions);
  w.text(r.side);
  w.float8(r.side_confidence);
  w.text(r.sentiment);
  w.text(r.trade_type);
  w.textArray(r.flags);
  w.textOrNull(r.group_id);
  w.bool(r.is_block);
  w.bool(r.is_golden);
  w.bool(r.is_unusual);
  w.int4(r.day_volume);
  w.int4OrNull(r.open_interest);
  w.int4(r.days_to_expiry);
  w.float8OrNull(r.otm_percent);
  w.float8OrNull(r.implied_volatility);
  w.float8OrNull(r.delta);
  w.float8OrNull(r.underlying_price);
  w.float8OrNull(r.bid);
  w.float8OrNull(r.ask);
  w.float8OrNull(facts.quoteBid);
  w.float8OrNull(facts.quoteAsk);
  w.int8OrNull(facts.quoteTs);
  w.textOrNull(facts.aggressorSide);
  w.bool(r.cancelled);
  writePrintBody(r, w);
  w.endRow();
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

async function loadDateContext(db: Queryable, tradingDate: string, prints: SortedPrints, day: SortedPrints['days'][number], resolver: PrintSessionResolver): Promise<DateContext> {
  const { table, order } = prints;
  const lookupIds = new Set<number>();
  const allIds = new Set<number>();
  const underlyings = new Set<string>();
  let minTs = Infinity;
  let maxTs = -Infinity;
  for (let k = day.start; k < day.end; k++) {
    const i = order[k] as number;
    const c = (table.slots[table.slot[i] as number] as ContractSlot).stored as StoredContract;
    allIds.add(c.id);
    if (((table.bits[i] as number) & BIT_HAS_QUOTE) === 0) lookupIds.add(c.id);
    underlyings.add(c.underlying);
    const ts = table.timestamp[i] as number;
    if (ts < minTs) minTs = ts;
    if (ts > maxTs) maxTs = ts;
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

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/**
 * The stored prints of a date loaded before this file, as the classifier sees them: day volume per
 * contract, and for each cancel record of the file the stored prints it could cancel.
 */
class StoredDay implements StoredPrints {
  /** The table index of the print being classified (set by the pipeline before each push). */
  current = -1;
  /** Stored prints cancelled by this file: their keys, and the record of which cancel did it. */
  readonly cancelled: { tradingDate: string; contractId: number; sequence: number }[] = [];
  readonly records: { tradingDate: string; contractId: number; cancelSequence: number; sequence: number }[] = [];
  private readonly taken = new Set<string>();

  constructor(
    private readonly tradingDate: string,
    private readonly volumes: Map<string, number>,
    private readonly candidates: Map<number, { contractId: number; cancelSequence: number; list: StoredCancelCandidate[] }>,
  ) {}

  dayVolume(key: string): number {
    return this.volumes.get(key) ?? 0;
  }

  cancel(): boolean {
    const probe = this.candidates.get(this.current);
    if (probe === undefined) return false;
    // Applied by an earlier load of this file: the stored volume already leaves the print out.
    if (probe.list.some((c) => c.applied && c.cancelled)) return false;
    for (const c of probe.list) {
      const key = `${probe.contractId}:${c.sequence}`;
      if (c.cancelled || this.taken.has(key)) continue;
      this.taken.add(key);
      this.cancelled.push({ tradingDate: this.tradingDate, contractId: probe.contractId, sequence: c.sequence });
      this.records.push({ tradingDate: this.tradingDate, contractId: probe.contractId, cancelSequence: probe.cancelSequence, sequence: c.sequence });
      return true;
    }
    return false;
  }
}

async function loadStoredDay(db: Queryable, tradingDate: string, prints: SortedPrints, day: SortedPrints['days'][number]): Promise<StoredDay> {
  const { table, order } = prints;
  const slotIds = new Set<number>();
  const probes: Parameters<typeof storedCancelCandidates>[2][number][] = [];
  const probeIndex: number[] = [];
  for (let k = day.start; k < day.end; k++) {
    const i = order[k] as number;
    const slot = table.slot[i] as number;
    slotIds.add(slot);
    if (!table.isCancel(i)) continue;
    probes.push({
      contractId: ((table.slots[slot] as ContractSlot).stored as StoredContract).id,
      sequence: table.sequence[i] as number,
      exchangeCode: table.exchangeCode[i] as number,
      price: table.price[i] as number,
      size: table.size[i] as number,
      ts: table.timestamp[i] as number,
    });
    probeIndex.push(i);
  }
  const slots = [...slotIds].map((s) => table.slots[s] as ContractSlot);
  const byId = await storedDayVolumes(db, tradingDate, slots.map((s) => (s.stored as StoredContract).id));
  const volumes = new Map<string, number>();
  for (const s of slots) volumes.set(s.key, byId.get((s.stored as StoredContract).id) ?? 0);
  const candidates = new Map<number, { contractId: number; cancelSequence: number; list: StoredCancelCandidate[] }>();
  for (const c of await storedCancelCandidates(db, tradingDate, probes, { lookbackMs: DEFAULT_CLASSIFIER_OPTIONS.cancelLookbackMs, priceEpsilon: PRICE_EPSILON })) {
    const i = probeIndex[c.probe] as number;
    let entry = candidates.get(i);
    if (entry === undefined) {
      const probe = probes[c.probe] as (typeof probes)[number];
      candidates.set(i, (entry = { contractId: probe.contractId, cancelSequence: probe.sequence, list: [] }));
    }
    entry.list.push(c);
  }
  return new StoredDay(tradingDate, volumes, candidates);
}

/** Receives classified prints in input order and streams them as binary COPY rows. */
class CopySink implements PrintSink {
  /** The connection is full: the pipeline waits for the COPY's drained() before classifying on. */
  blocked = false;
  readonly cancelledIds: string[] = [];
  output = 0;
  /** Where the current trading date's rows go (start). */
  private writer: CopyBinaryWriter | null = null;
  /** Table indexes of the prints pushed and not yet output, in order (output order is input order). */
  private pending: number[] = [];
  private pendingHead = 0;
  private readonly facts: PrintRowFacts = {
    contractId: 0,
    root: '',
    family: '',
    underlying: '',
    extendedConditions: NO_CODES,
    quoteBid: null,
    quoteAsk: null,
    quoteTs: null,
    aggressorSide: null,
  };

  constructor(private readonly table: PrintTable) {}

  /** Sends the following rows (a trading date's) to `copy`. */
  start(copy: PrintCopy): void {
    this.writer = new CopyBinaryWriter((chunk) => {
      if (!copy.write(chunk)) this.blocked = true;
    });
    this.writer.header();
  }

  /** Sends the rows not yet sent and the end of the COPY data. */
  finish(): void {
    this.writer?.end();
    this.writer = null;
  }

  expect(index: number): void {
    this.pending.push(index);
  }

  print(r: ClassifiedPrintRecord): void {
    const i = this.pending[this.pendingHead];
    const t = this.table;
    if (i === undefined || t.sequence[i] !== r.sequence) throw new Error(`classifier output out of order at print ${r.id}`);
    this.pendingHead += 1;
    if (this.pendingHead > 65_536 && this.pendingHead * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.pendingHead);
      this.pendingHead = 0;
    }
    const slot = t.slots[t.slot[i] as number] as ContractSlot;
    const stored = slot.stored as StoredContract;
    const facts = this.facts;
    facts.contractId = stored.id;
    facts.root = slot.root.root;
    facts.family = slot.root.family;
    facts.underlying = stored.underlying;
    facts.extendedConditions = t.extendedLists[t.extended[i] as number] as number[];
    facts.quoteBid = orNull(t.quoteBid[i] as number);
    facts.quoteAsk = orNull(t.quoteAsk[i] as number);
    facts.quoteTs = orNull(t.quoteTs[i] as number);
    facts.aggressorSide = AGGRESSOR[t.aggressor[i] as number] ?? null;
    writePrintRow(r, facts, this.writer as CopyBinaryWriter);
    this.output += 1;
  }

  cancel(id: string): void {
    this.cancelledIds.push(id);
  }
}

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

async function loadPrints(db: Database, file: string, options: PrintLoadOptions, output: PrintOutput): Promise<MarketLoadResult> {
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
  const { table, order } = prints;
  const existing = new Set(await partitionDates(db, 'prints'));
  const every = options.progressEvery ?? 1_000_000;

  await db.transaction().execute(async (trx) => {
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
    for (const s of table.slots) {
      const stored = contracts.get(s.ref.symbol) as StoredContract;
      s.stored = stored;
      s.settlementMs = settlementInstant(s.ref.root, s.ref.dateOfExpiry);
      s.dividendYield = dividendYield(stored.underlying);
    }

    const classifier = new PrintClassifier();
    const sink = new CopySink(table);
    const quote: QuoteInForce = { bid: null, ask: null, timestamp: 0 };
    const raw = {} as RawPrint;
    const context = {} as PrintContext;
    let written = 0;
    let nextProgress = every;
    /** New dates' standalone tables, attached at the end, and the rows each received. */
    const attach = new Map<string, number>();
    const storedCancels: StoredDay[] = [];

    for (const day of prints.days) {
      const tradingDate = day.tradingDate;
      let target = 'prints';
      const fresh = !existing.has(tradingDate);
      if (fresh) {
        target = await createStandalonePrintsPartition(trx, tradingDate, { primaryKey: !day.uniqueKeys });
        attach.set(tradingDate, 0);
      }
      const market = await loadDateContext(trx, tradingDate, prints, day, resolver);
      const stored = fresh ? null : await loadStoredDay(trx, tradingDate, prints, day);
      if (stored !== null) storedCancels.push(stored);
      const copy = await output(trx, target, { fresh: fresh && day.uniqueKeys });
      sink.start(copy);
      try {
        context.tradingDate = tradingDate;
        context.rate = market.rate;
        context.cashCloseMs = market.cashCloseMs;
        context.stored = stored;
        for (let k = day.start; k < day.end; k++) {
          const i = order[k] as number;
          const slot = table.slots[table.slot[i] as number] as ContractSlot;
          const contract = slot.stored as StoredContract;
          const ts = table.timestamp[i] as number;
          raw.root = slot.ref.root;
          raw.contractKey = slot.key;
          raw.underlying = contract.underlying;
          raw.dateOfExpiry = slot.ref.dateOfExpiry;
          raw.type = slot.ref.type;
          raw.strike = slot.ref.strike;
          raw.multiplier = contract.multiplier;
          raw.timestamp = ts;
          raw.sequence = table.sequence[i] as number;
          raw.price = table.price[i] as number;
          raw.size = table.size[i] as number;
          raw.exchangeCode = table.exchangeCode[i] as number;
          raw.conditionCode = table.conditionCode[i] as number;
          raw.extendedConditions = table.extendedLists[table.extended[i] as number] as number[];
          raw.aggressorSide = AGGRESSOR[table.aggressor[i] as number] ?? null;

          let inForce: QuoteInForce | null = quote;
          if (((table.bits[i] as number) & BIT_HAS_QUOTE) !== 0) {
            quote.bid = orNull(table.quoteBid[i] as number);
            quote.ask = orNull(table.quoteAsk[i] as number);
            quote.timestamp = table.quoteTs[i] as number;
          } else {
            // The sample in force is stored with the print as its quote.
            inForce = sampleAt(market.samples.get(contract.id), ts, quote);
            table.quoteBid[i] = inForce?.bid ?? NaN;
            table.quoteAsk[i] = inForce?.ask ?? NaN;
            table.quoteTs[i] = inForce?.timestamp ?? NaN;
          }

          const minute = ts - (ts % 60_000);
          const bars = market.bars.get(contract.underlying);
          const bar = bars === undefined ? undefined : (bars.get(minute) ?? bars.get(minute - 60_000));

          context.session = SESSIONS[table.session[i] as number] as PrintContext['session'];
          context.quote = inForce;
          context.underlyingPrice = bar?.close ?? null;
          context.underlyingTimestamp = bar?.ts ?? null;
          context.openInterest = market.openInterest.get(contract.id) ?? null;
          context.yearsToSettlement = (slot.settlementMs - ts) / MS_PER_YEAR;
          context.dividendYield = slot.dividendYield;

          if (table.isCancel(i)) {
            if (stored !== null) stored.current = i;
          } else sink.expect(i);
          classifier.pushTo(raw, context, sink);
          if (sink.blocked) {
            sink.blocked = false;
            await copy.drained();
          }
          if (sink.output >= nextProgress) {
            options.log?.(`${file}: classified ${sink.output.toLocaleString('en-US')} prints`);
            nextProgress += every;
          }
        }
        // The date's last groups close here, so its rows all reach its own table.
        classifier.flushTo(sink);
        sink.finish();
        const rows = await copy.end();
        written += rows;
        if (attach.has(tradingDate)) attach.set(tradingDate, rows);
      } catch (error) {
        await copy.abort(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    }
    for (const [date, rows] of attach) await attachPrintsPartition(trx, date, rows);

    const keys: { tradingDate: string; contractId: number; sequence: number }[] = [];
    if (sink.cancelledIds.length > 0) {
      const byKey = new Map(table.slots.map((s) => [s.key, s]));
      for (const id of sink.cancelledIds) {
        // root:expiry:strike x 1000:C|P:tradingDate:sequence
        const parts = id.split(':');
        const slot = byKey.get(parts.slice(0, 4).join(':'));
        if (slot !== undefined) keys.push({ contractId: (slot.stored as StoredContract).id, tradingDate: parts[4] ?? '', sequence: Number(parts[5]) });
      }
    }
    for (const stored of storedCancels) {
      keys.push(...stored.cancelled);
      await recordPrintCancels(trx, stored.records);
    }
    await markPrintsCancelled(trx, keys);
    result.loaded = written;
    result.duplicates += sink.output - written;
    await recordIngestedFile(trx, { checksum, kind, fileName: file, read: result.read, loaded: result.loaded, rejected: result.rejected.length, duplicates: result.duplicates });
  });
  if (table.length >= every) options.log?.(`${file}: loaded ${result.loaded.toLocaleString('en-US')} prints`);
  return result;
}
