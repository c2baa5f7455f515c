/**
 * The end of the load pipeline: classified prints, as the classifier gives them (in input order),
 * become rows of binary COPY data (db/bulk-copy.ts writePrintRow, the served body by
 * print-body.ts) streamed to PostgreSQL while the following prints are classified. The sink is a
 * PrintSink, so the classifier hands it each print without a batch array; it keeps the table
 * indexes of the prints pushed and not yet output, to find each output print's row facts in the
 * table (contract, quote in force, extended conditions). When the connection is full it says so
 * (blocked), and the pipeline waits for the COPY to drain before classifying on.
 */
import type { ClassifiedPrintRecord, PrintSink } from '../analytics/classification.js';
import { writePrintRow, type PrintCopy, type PrintRowFacts } from '../db/bulk-copy.js';
import { CopyBinaryWriter } from '../db/copy-binary.js';
import { writePrintBody } from './print-body.js';
import { NO_CODES, type PrintTable } from './print-table.js';

/** Prints output before the list of pending indexes is cut down to those still pending. */
const PENDING_COMPACT_AFTER = 65_536;

export class CopySink implements PrintSink {
  /** The connection is full: the pipeline waits for the COPY's drained() before classifying on. */
  blocked = false;
  /** Ids of prints output earlier that a later cancel record cancelled. */
  readonly cancelledIds: string[] = [];
  /** Prints output (written as rows). */
  output = 0;
  /** Prints output marked cancelled: a later cancel record of the file cancelled each while it was held. */
  cancelledPrints = 0;
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
    writeBody: writePrintBody,
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

  /** The print at table index `index` is pushed to the classifier (cancel records are not: they are never output). */
  expect(index: number): void {
    this.pending.push(index);
  }

  print(r: ClassifiedPrintRecord): void {
    const i = this.pending[this.pendingHead];
    const t = this.table;
    if (i === undefined || t.sequenceAt(i) !== r.sequence) throw new Error(`classifier output out of order at print ${r.id}`);
    const w = this.writer;
    if (w === null) throw new Error(`print ${r.id} output with no COPY started`);
    this.pendingHead += 1;
    if (this.pendingHead > PENDING_COMPACT_AFTER && this.pendingHead * 2 > this.pending.length) {
      this.pending = this.pending.slice(this.pendingHead);
      this.pendingHead = 0;
    }
    const slot = t.storedSlotAt(i);
    const facts = this.facts;
    facts.contractId = slot.contract.id;
    facts.root = slot.root.root;
    facts.family = slot.root.family;
    facts.underlying = slot.contract.underlying;
    facts.extendedConditions = t.extendedConditionsAt(i);
    facts.quoteBid = t.quoteBidAt(i);
    facts.quoteAsk = t.quoteAskAt(i);
    facts.quoteTs = t.quoteTsAt(i);
    facts.aggressorSide = t.aggressorSideAt(i);
    writePrintRow(r, facts, w);
    this.output += 1;
    if (r.cancelled) this.cancelledPrints += 1;
  }

  cancel(id: string): void {
    this.cancelledIds.push(id);
  }
}
