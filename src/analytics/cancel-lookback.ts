/**
 * The classifier's cancel look-back: the feed's recent prints, kept so that a cancel record can find
 * the print it retracts. It is a ring of typed arrays indexed by the print's queue position modulo
 * a power-of-two capacity, so that recent prints are kept without keeping their output objects
 * alive, and each entry links to the previous print of the same contract, so that a cancel walks
 * only its contract's chain, newest first. The ring starts at 1,024 entries and doubles, up to the
 * print limit, only when it would otherwise overwrite a print still inside the look-back time.
 */
import type { components } from '../../generated/openapi.js';
import { PRICE_EPSILON } from './print-side.js';

/** What the look-back keeps of a classified print. */
export type RememberedPrint = Pick<components['schemas']['OptionPrint'], 'timestamp' | 'price' | 'size' | 'exchange_code' | 'id'>;

/** What a cancel record is matched on (besides its contract, whose chain it walks). */
export interface CancelRecord {
  timestamp: number;
  exchangeCode: number;
  price: number;
  size: number;
}

const INITIAL_CAPACITY = 1024;

export class CancelLookback {
  private readonly cancelLookbackMs: number;
  private readonly maxRingCapacity: number;
  private ringCapacity: number;
  private ringWritten = 0;
  private ringTimestamp: Float64Array;
  private ringPrice: Float64Array;
  private ringSize: Float64Array;
  private ringPrevious: Float64Array;
  private ringExchange: Int32Array;
  private ringCancelled: Uint8Array;
  private ringId: (string | undefined)[];

  /** `lookbackPrints` is rounded up to a power of two. */
  constructor(lookbackMs: number, lookbackPrints: number) {
    this.cancelLookbackMs = lookbackMs;
    let capacity = 1;
    while (capacity < lookbackPrints) capacity *= 2;
    this.maxRingCapacity = capacity;
    this.ringCapacity = Math.min(capacity, INITIAL_CAPACITY);
    this.ringTimestamp = new Float64Array(this.ringCapacity);
    this.ringPrice = new Float64Array(this.ringCapacity);
    this.ringSize = new Float64Array(this.ringCapacity);
    this.ringPrevious = new Float64Array(this.ringCapacity);
    this.ringExchange = new Int32Array(this.ringCapacity);
    this.ringCancelled = new Uint8Array(this.ringCapacity);
    this.ringId = new Array<string | undefined>(this.ringCapacity);
  }

  /**
   * Keeps the print at queue `position` (positions are consecutive, from 0), linked to `previous`,
   * the position of the contract's print before it (-1 for none).
   */
  remember(record: RememberedPrint, position: number, previous: number): void {
    let index = position & (this.ringCapacity - 1);
    // Grow rather than overwrite a print that is still inside the look-back time.
    if (
      this.ringWritten >= this.ringCapacity &&
      this.ringCapacity < this.maxRingCapacity &&
      (this.ringTimestamp[index] as number) >= record.timestamp - this.cancelLookbackMs
    ) {
      this.growRing(position);
      index = position & (this.ringCapacity - 1);
    }
    this.ringTimestamp[index] = record.timestamp;
    this.ringPrice[index] = record.price;
    this.ringSize[index] = record.size;
    this.ringPrevious[index] = previous;
    this.ringExchange[index] = record.exchange_code;
    this.ringCancelled[index] = 0;
    this.ringId[index] = record.id;
    this.ringWritten++;
  }

  /**
   * Marks cancelled the print the cancel record retracts: the most recent earlier print of the
   * contract with the same exchange, price and size that is not yet cancelled, no older than the
   * look-back time and among the ring's prints. The walk starts at the contract's latest print,
   * `latest`; `nextPosition` is the position the next print would take. Returns the print's
   * position, or -1 when none matches.
   */
  cancel(latest: number, nextPosition: number, cancel: CancelRecord): number {
    const capacity = this.ringCapacity;
    const mask = capacity - 1;
    const oldest = cancel.timestamp - this.cancelLookbackMs;
    // Walk the contract's chain newest first, while entries are neither overwritten nor too old.
    for (let p = latest; p >= 0 && p >= nextPosition - capacity;) {
      const i = p & mask;
      if ((this.ringTimestamp[i] as number) < oldest) break;
      if (
        this.ringCancelled[i] === 0 &&
        this.ringExchange[i] === cancel.exchangeCode &&
        this.ringSize[i] === cancel.size &&
        Math.abs((this.ringPrice[i] as number) - cancel.price) <= PRICE_EPSILON
      ) {
        this.ringCancelled[i] = 1;
        return p;
      }
      p = this.ringPrevious[i] as number;
    }
    return -1;
  }

  /** The id of the print at a position still in the ring. */
  idAt(position: number): string {
    return this.ringId[position & (this.ringCapacity - 1)] as string;
  }

  /** Doubles the ring, keeping the entries of the positions just before `position`. */
  private growRing(position: number): void {
    const oldCapacity = this.ringCapacity;
    const capacity = Math.min(oldCapacity * 2, this.maxRingCapacity);
    const timestamp = new Float64Array(capacity);
    const price = new Float64Array(capacity);
    const size = new Float64Array(capacity);
    const previous = new Float64Array(capacity);
    const exchange = new Int32Array(capacity);
    const cancelled = new Uint8Array(capacity);
    const id = new Array<string | undefined>(capacity);
    const first = Math.max(0, position - oldCapacity);
    for (let p = first; p < position; p++) {
      const from = p & (oldCapacity - 1);
      const to = p & (capacity - 1);
      timestamp[to] = this.ringTimestamp[from] as number;
      price[to] = this.ringPrice[from] as number;
      size[to] = this.ringSize[from] as number;
      previous[to] = this.ringPrevious[from] as number;
      exchange[to] = this.ringExchange[from] as number;
      cancelled[to] = this.ringCancelled[from] as number;
      id[to] = this.ringId[from];
    }
    this.ringCapacity = capacity;
    this.ringTimestamp = timestamp;
    this.ringPrice = price;
    this.ringSize = size;
    this.ringPrevious = previous;
    this.ringExchange = exchange;
    this.ringCancelled = cancelled;
    this.ringId = id;
  }
}
