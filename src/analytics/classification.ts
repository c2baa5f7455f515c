/**
 * The print classifier of ingest: turns a feed of raw option executions, each with what the caller
 * knows of the market at that instant, into the contract's Print (its 31 fields) plus what the
 * store needs, streaming and in input order. This module is the stream: per-contract state of the
 * trading date, the queue that holds a print while it may still join a sweep or split, and cancel
 * records; the rules live with their code (a print's fields in print-fields.ts, side bands in
 * print-side.ts, side groups and sentiment in sides.ts, flags and marks in print-flags.ts,
 * trade_type and grouping in print-groups.ts, the cancel look-back in cancel-lookback.ts, ids in
 * print-id.ts; its input and output types in print-record.ts). It runs on every print of a day,
 * so its state is plain fields and typed arrays, reused from print to print. It is deterministic: no clock, no randomness.
 */

import { CancelLookback } from './cancel-lookback.js';
import { daysBetween } from './new-york-time.js';
import { conditionTraitMask, TraitBit } from './opra.js';
import { classifyPrint, newPrintScratch } from './print-fields.js';
import { FlagBit, flagsOf, maskOfFlags } from './print-flags.js';
import { addToGroup, joinsGroup, settleGroup, type GroupingWindows, type GroupState } from './print-groups.js';
import { contractKey } from './print-id.js';
import type { ClassifiedPrintRecord, PrintContext, RawPrint, StoredPrints } from './print-record.js';
import { directionOf } from './sides.js';

export type { OptionType } from './pricing.js';

export type { ClassifiedPrint, ClassifiedPrintRecord, PrintContext, PrintSession, RawPrint, StoredPrints } from './print-record.js';

/** Output of push() and flush(). */
export interface PrintBatch {
  /** Final prints, in input order. */
  readonly prints: readonly ClassifiedPrintRecord[];
  /** Ids of prints returned by an earlier call that a cancel record has now cancelled. */
  readonly cancels: readonly string[];
}

/** Receiver for pushTo() and flushTo(), the allocation-free form of push() and flush(). */
export interface PrintSink {
  print(record: ClassifiedPrintRecord): void;
  cancel(id: string): void;
}

export interface ClassifierOptions extends GroupingWindows {
  /** How far back a cancel record looks for its print. */
  cancelLookbackMs: number;
  /**
   * How many of the feed's most recent prints (all contracts) a cancel record can reach; rounded up
   * to a power of two. Memory is claimed only as the 10-minute look-back needs it.
   */
  cancelLookbackPrints: number;
}

/**
 * Groups close 50 ms (sweep) or 500 ms (split) after their first print. A cancel reaches back 10
 * minutes and at most 2^20 prints of the feed, about four times the 10 minutes of a day's average
 * rate (10 million prints in 6.5 hours).
 */
export const DEFAULT_CLASSIFIER_OPTIONS: Readonly<ClassifierOptions> = Object.freeze({
  sweepWindowMs: 50,
  splitWindowMs: 500,
  cancelLookbackMs: 10 * 60_000,
  cancelLookbackPrints: 1 << 20,
});

// Trait and flag bits copied to module constants so the hot path reads no object properties.
const T_CANCEL = TraitBit.cancel;
const T_UNGROUPED = TraitBit.complex | TraitBit.cross | TraitBit.floor | TraitBit.late;
const F_CANCELLED = FlagBit.cancelled;

/** Per contract and trading date: volume, cancel look-back and the one open group. */
interface ContractState extends GroupState {
  dayVolume: number;
  daysToExpiry: number;
  /** Queue position of the contract's latest print (head of its chain in the look-back ring). */
  lastPosition: number;
}

const EMPTY: readonly never[] = Object.freeze([]);
const EMPTY_BATCH: PrintBatch = Object.freeze({ prints: EMPTY, cancels: EMPTY });

class BatchCollector implements PrintSink {
  prints: ClassifiedPrintRecord[] | null = null;
  cancels: string[] | null = null;
  print(record: ClassifiedPrintRecord): void {
    (this.prints ??= []).push(record);
  }
  cancel(id: string): void {
    (this.cancels ??= []).push(id);
  }
  take(): PrintBatch {
    const prints = this.prints;
    const cancels = this.cancels;
    this.prints = null;
    this.cancels = null;
    if (prints === null && cancels === null) return EMPTY_BATCH;
    return { prints: prints ?? EMPTY, cancels: cancels ?? EMPTY };
  }
}

function checkNonNegative(name: string, value: number): void {
  if (!(value >= 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a finite non-negative number, got ${value}`);
  }
}

/**
 * Streaming classifier for one feed of prints (all underlyings). Input must be sorted by (timestamp,
 * sequence) within a trading date. push() returns the prints whose group can no longer change
 * (stream time, the latest timestamp pushed, is past the group's window) plus cancels of prints
 * already returned; flush() returns everything still held. Output order is input order. A change of
 * trading date flushes the previous date first.
 */
export class PrintClassifier {
  private readonly sweepWindowMs: number;
  private readonly splitWindowMs: number;
  private readonly singleVenueWindowMs: number;

  private tradingDate: string | null = null;
  private latestTs = -Infinity;
  private contracts = new Map<string, ContractState>();
  /** Held prints in input order; slots before queueHead are already output. */
  private queue: (ClassifiedPrintRecord | undefined)[] = [];
  private queueReady: boolean[] = [];
  private queueContract: (ContractState | undefined)[] = [];
  private queueHead = 0;
  /** Absolute position of queue[0]. */
  private queueBase = 0;
  /** The feed's recent prints by queue position, for cancel records to find. */
  private readonly lookback: CancelLookback;
  private unmatched = 0;

  private readonly scratch = newPrintScratch();
  private readonly collector = new BatchCollector();

  constructor(options?: Partial<ClassifierOptions>) {
    const o = { ...DEFAULT_CLASSIFIER_OPTIONS, ...options };
    checkNonNegative('sweepWindowMs', o.sweepWindowMs);
    checkNonNegative('splitWindowMs', o.splitWindowMs);
    checkNonNegative('cancelLookbackMs', o.cancelLookbackMs);
    checkNonNegative('cancelLookbackPrints', o.cancelLookbackPrints);
    this.sweepWindowMs = o.sweepWindowMs;
    this.splitWindowMs = o.splitWindowMs;
    // A one-exchange group can still turn into a sweep until the sweep window has passed.
    this.singleVenueWindowMs = Math.max(o.sweepWindowMs, o.splitWindowMs);
    this.lookback = new CancelLookback(o.cancelLookbackMs, o.cancelLookbackPrints);
  }

  /** Cancel records that found no print to cancel, since construction. */
  get unmatchedCancels(): number {
    return this.unmatched;
  }

  /** Classifies one print; returns the prints that became final and cancels of earlier output. */
  push(print: RawPrint, context: PrintContext): PrintBatch {
    this.pushTo(print, context, this.collector);
    return this.collector.take();
  }

  /** Returns every print still held (groups closed as they stand). */
  flush(): PrintBatch {
    this.flushTo(this.collector);
    return this.collector.take();
  }

  /** push() delivering to a sink instead of allocating a batch. */
  pushTo(print: RawPrint, context: PrintContext, sink: PrintSink): void {
    if (context.tradingDate !== this.tradingDate) this.startTradingDate(context.tradingDate, sink);
    if (print.timestamp > this.latestTs) this.latestTs = print.timestamp;

    let traits = conditionTraitMask(print.conditionCode);
    const extended = print.extendedConditions;
    for (let i = 0; i < extended.length; i++) traits |= conditionTraitMask(extended[i] as number);

    const key = print.contractKey ?? contractKey(print);
    let contract = this.contracts.get(key);
    if (contract === undefined) {
      contract = this.newContract(print.dateOfExpiry, context.tradingDate);
      if (context.stored) contract.dayVolume = context.stored.dayVolume(key);
      this.contracts.set(key, contract);
    }

    if ((traits & T_CANCEL) !== 0) {
      this.applyCancel(contract, print, sink, key, context.stored);
    } else {
      contract.dayVolume += print.size;
      const record = classifyPrint(print, context, contract, key, traits, this.scratch);
      const position = this.queueBase + this.queue.length;
      this.lookback.remember(record, position, contract.lastPosition);
      contract.lastPosition = position;
      const groupable = (traits & T_UNGROUPED) === 0;
      this.queue.push(record);
      this.queueReady.push(!groupable);
      this.queueContract.push(contract);
      if (groupable) this.group(contract, record, position);
    }
    this.drain(sink);
  }

  /** flush() delivering to a sink. */
  flushTo(sink: PrintSink): void {
    for (const contract of this.contracts.values()) {
      if (contract.groupOpen) this.closeGroup(contract);
    }
    this.drain(sink);
  }

  private startTradingDate(tradingDate: string, sink: PrintSink): void {
    if (this.tradingDate !== null) this.flushTo(sink);
    this.tradingDate = tradingDate;
    this.latestTs = -Infinity;
    this.contracts = new Map();
    // flushTo() has output everything, so the whole old queue lies before the new base.
    this.queueBase += this.queue.length;
    this.queue = [];
    this.queueReady = [];
    this.queueContract = [];
    this.queueHead = 0;
  }

  private newContract(dateOfExpiry: string, tradingDate: string): ContractState {
    return {
      dayVolume: 0,
      daysToExpiry: daysBetween(tradingDate, dateOfExpiry),
      lastPosition: -1,
      groupOpen: false,
      groupFirstTs: 0,
      groupFirstExchange: 0,
      groupMultiVenue: false,
      groupDirection: 0,
      groupWalk: 0,
      groupLastPrice: 0,
      groupMembers: [],
      groupPositions: [],
    };
  }

  // --- grouping ------------------------------------------------------------------------------

  private group(contract: ContractState, record: ClassifiedPrintRecord, position: number): void {
    const direction = directionOf(record.side);
    if (contract.groupOpen && !joinsGroup(contract, record, direction, this.splitWindowMs, this.sweepWindowMs)) {
      this.closeGroup(contract);
    }
    addToGroup(contract, record, position, direction);
  }

  /** Settles the open group and marks its prints ready for output. */
  private closeGroup(contract: ContractState): void {
    settleGroup(contract);
    const base = this.queueBase;
    for (const position of contract.groupPositions) this.queueReady[position - base] = true;
    contract.groupMembers.length = 0;
    contract.groupPositions.length = 0;
    contract.groupOpen = false;
  }

  /** Outputs held prints from the front of the queue while they are final. */
  private drain(sink: PrintSink): void {
    const queue = this.queue;
    const ready = this.queueReady;
    let head = this.queueHead;
    while (head < queue.length) {
      if (ready[head] !== true) {
        // Every held print not yet final is in its contract's open group.
        const contract = this.queueContract[head];
        if (contract === undefined || !contract.groupOpen) break;
        const window = contract.groupMultiVenue ? this.sweepWindowMs : this.singleVenueWindowMs;
        if (this.latestTs - contract.groupFirstTs <= window) break;
        this.closeGroup(contract);
      }
      const record = queue[head] as ClassifiedPrintRecord;
      queue[head] = undefined;
      this.queueContract[head] = undefined;
      head++;
      sink.print(record);
    }
    this.queueHead = head;
    // Compact once the output prefix dominates, so the arrays stay proportional to held prints.
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      ready.splice(0, head);
      this.queueContract.splice(0, head);
      this.queueBase += head;
      this.queueHead = 0;
    }
  }

  // --- cancels -------------------------------------------------------------------------------

  /**
   * A cancel record (a condition or extended condition with the cancel trait: CANC, CNCL, CNCO,
   * CNOL) is never output: it cancels the print the look-back finds (cancel-lookback.ts).
   * A matched print not yet output is output with cancelled = true and the `cancelled` flag, and
   * leaves its group; a print already output is not changed (the caller owns it) and its id is
   * reported in the batch's `cancels` instead. Either way its size leaves day_volume for later
   * prints. A cancel that matches no print of the feed is offered to the context's `stored` prints
   * (a stored print it cancels leaves day_volume too), else only counted (unmatchedCancels).
   */
  private applyCancel(
    contract: ContractState,
    cancel: RawPrint,
    sink: PrintSink,
    key: string,
    stored: StoredPrints | null | undefined,
  ): void {
    const p = this.lookback.cancel(contract.lastPosition, this.queueBase + this.queue.length, cancel);
    if (p >= 0) {
      contract.dayVolume -= cancel.size;
      if (p >= this.queueBase + this.queueHead) {
        const held = this.queue[p - this.queueBase] as ClassifiedPrintRecord;
        held.cancelled = true;
        held.flags = flagsOf(maskOfFlags(held.flags) | F_CANCELLED);
      } else {
        sink.cancel(this.lookback.idAt(p));
      }
      return;
    }
    if (stored && stored.cancel(key, cancel)) {
      contract.dayVolume -= cancel.size;
      return;
    }
    this.unmatched++;
  }
}
