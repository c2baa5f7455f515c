/**
 * The prints of a trading date stored by earlier loads, as the classifier sees them while a later
 * file of the same date loads (StoredPrints in analytics/classification.ts): each contract's
 * volume so far, and for each cancel record of the file the stored prints it could cancel. Both
 * are read before the date's prints are classified, in two queries for the whole date rather than
 * one per print; the candidates come newest first, already cancelled ones and the cancels recorded
 * by an earlier load of the same file included, so that loading a file again changes nothing.
 */
import { DEFAULT_CLASSIFIER_OPTIONS, type StoredPrints } from '../analytics/classification.js';
import { PRICE_EPSILON } from '../analytics/print-side.js';
import type { Queryable } from '../db/connection.js';
import { storedCancelCandidates, storedDayVolumes, type StoredCancelCandidate, type StoredCancelProbe } from '../db/stored-prints.js';
import type { PrintDay, SortedPrints } from './print-order.js';

/** A stored print a cancel record cancelled: the print's key. */
export interface CancelledKey {
  tradingDate: string;
  contractId: number;
  sequence: number;
}

/** Which cancel record (its sequence) cancelled which stored print, as the store records it (print_cancels). */
export interface CancelRecord extends CancelledKey {
  cancelSequence: number;
}

/** A cancel record of the file and the stored prints it could cancel, newest first. */
export interface CancelCandidates {
  contractId: number;
  cancelSequence: number;
  list: StoredCancelCandidate[];
}

export class StoredDay implements StoredPrints {
  /** The table index of the print being classified (set by the pipeline before each push). */
  current = -1;
  /** Stored prints cancelled by this file: their keys, and the record of which cancel did it. */
  readonly cancelled: CancelledKey[] = [];
  readonly records: CancelRecord[] = [];
  /** Cancel records an earlier load of this file applied (cancel() found their stored print cancelled by them). */
  alreadyApplied = 0;
  private readonly taken = new Set<string>();

  /**
   * @param volumes each contract's stored volume, by contract key
   * @param candidates by the table index of the cancel record
   */
  constructor(
    private readonly tradingDate: string,
    private readonly volumes: ReadonlyMap<string, number>,
    private readonly candidates: ReadonlyMap<number, CancelCandidates>,
  ) {}

  dayVolume(key: string): number {
    return this.volumes.get(key) ?? 0;
  }

  /** Cancels the newest candidate of the current cancel record not cancelled yet, if any. */
  cancel(): boolean {
    const probe = this.candidates.get(this.current);
    if (probe === undefined) return false;
    // Applied by an earlier load of this file: the stored volume already leaves the print out.
    if (probe.list.some((c) => c.applied && c.cancelled)) {
      this.alreadyApplied += 1;
      return false;
    }
    for (const c of probe.list) {
      const key = `${probe.contractId}:${c.sequence}`;
      if (c.cancelled || this.taken.has(key)) continue;
      this.taken.add(key);
      this.cancelled.push({ tradingDate: this.tradingDate, contractId: probe.contractId, sequence: c.sequence });
      this.records.push({
        tradingDate: this.tradingDate,
        contractId: probe.contractId,
        cancelSequence: probe.cancelSequence,
        sequence: c.sequence,
      });
      return true;
    }
    return false;
  }
}

/** What a date's prints ask about its stored prints: the contracts they name, and each cancel record as a probe. */
export interface StoredDayProbes {
  /** Each contract named once: its key and stored id. */
  contracts: { key: string; id: number }[];
  probes: StoredCancelProbe[];
  /** The table index of each probe's cancel record. */
  probeIndex: number[];
}

export function storedDayProbes({ table, order }: SortedPrints, day: PrintDay): StoredDayProbes {
  const slots = new Set<number>();
  const probes: StoredCancelProbe[] = [];
  const probeIndex: number[] = [];
  for (const i of order.subarray(day.start, day.end)) {
    slots.add(table.slotAt(i));
    if (!table.isCancel(i)) continue;
    probes.push({
      contractId: table.storedSlotAt(i).contract.id,
      sequence: table.sequenceAt(i),
      exchangeCode: table.exchangeCodeAt(i),
      price: table.priceAt(i),
      size: table.sizeAt(i),
      ts: table.timestampAt(i),
    });
    probeIndex.push(i);
  }
  const stored = table.storedSlots;
  const contracts = [...slots].flatMap((s) => {
    const slot = stored[s];
    return slot === undefined ? [] : [{ key: slot.key, id: slot.contract.id }];
  });
  return { contracts, probes, probeIndex };
}

/** Each cancel record's candidates, by its table index (candidates of a probe come newest first). */
export function cancelCandidates(
  { probes, probeIndex }: StoredDayProbes,
  found: readonly StoredCancelCandidate[],
): Map<number, CancelCandidates> {
  const out = new Map<number, CancelCandidates>();
  for (const c of found) {
    const i = probeIndex[c.probe];
    const probe = probes[c.probe];
    if (i === undefined || probe === undefined) throw new Error(`a stored cancel candidate names probe ${c.probe} of ${probes.length}`);
    let entry = out.get(i);
    if (entry === undefined) out.set(i, (entry = { contractId: probe.contractId, cancelSequence: probe.sequence, list: [] }));
    entry.list.push(c);
  }
  return out;
}

/** Reads the stored prints of `day`'s trading date as the file's prints of that date need them. */
export async function loadStoredDay(db: Queryable, prints: SortedPrints, day: PrintDay): Promise<StoredDay> {
  const { tradingDate } = day;
  const asked = storedDayProbes(prints, day);
  const byId = await storedDayVolumes(
    db,
    tradingDate,
    asked.contracts.map((c) => c.id),
  );
  const volumes = new Map(asked.contracts.map((c) => [c.key, byId.get(c.id) ?? 0]));
  const found = await storedCancelCandidates(db, tradingDate, asked.probes, {
    lookbackMs: DEFAULT_CLASSIFIER_OPTIONS.cancelLookbackMs,
    priceEpsilon: PRICE_EPSILON,
  });
  return new StoredDay(tradingDate, volumes, cancelCandidates(asked, found));
}
