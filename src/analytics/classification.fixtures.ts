/**
 * Test support for the classifier's tests (not a test file itself): raw prints and contexts of one
 * SPXW call on 2024-12-19 with the quote 1.90 x 2.10, and runs through a fresh classifier. Each raw
 * print takes the next sequence number unless given one.
 */
import { expect } from 'vitest';
import { PrintClassifier, type ClassifiedPrintRecord, type PrintBatch, type PrintContext, type RawPrint } from './classification.js';
import type { QuoteInForce } from './print-side.js';

// 2024-12-19, 10:00 ET; the cash close is 16:00 ET (21:00 UTC).
export const T0 = Date.UTC(2024, 11, 19, 15, 0, 0);
export const CASH_CLOSE = Date.UTC(2024, 11, 19, 21, 0, 0);

let nextSequence = 1;

export function raw(over: Partial<RawPrint> = {}): RawPrint {
  return {
    root: 'SPXW',
    underlying: 'SPX',
    dateOfExpiry: '2024-12-20',
    type: 'call',
    strike: 5900,
    multiplier: 100,
    timestamp: T0,
    sequence: nextSequence++,
    price: 2.1,
    size: 10,
    exchangeCode: 302,
    conditionCode: 209,
    extendedConditions: [],
    ...over,
  };
}

export function quote(bid: number | null, ask: number | null, timestamp = T0 - 100): QuoteInForce {
  return { bid, ask, timestamp };
}

export function ctx(over: Partial<PrintContext> = {}): PrintContext {
  return {
    tradingDate: '2024-12-19',
    session: 'rth',
    quote: quote(1.9, 2.1),
    underlyingPrice: 5850,
    underlyingTimestamp: T0,
    openInterest: 1000,
    yearsToSettlement: 1 / 365,
    rate: 0.045,
    dividendYield: 0.013,
    cashCloseMs: CASH_CLOSE,
    ...over,
  };
}

/** Runs prints through a fresh classifier, flushes, and returns every output print in order. */
export function run(
  items: [RawPrint, PrintContext?][],
  classifier = new PrintClassifier(),
): { prints: ClassifiedPrintRecord[]; cancels: string[]; batches: PrintBatch[] } {
  const batches: PrintBatch[] = [];
  for (const [p, c] of items) batches.push(classifier.push(p, c ?? ctx()));
  batches.push(classifier.flush());
  return {
    prints: batches.flatMap((b) => [...b.prints]),
    cancels: batches.flatMap((b) => [...b.cancels]),
    batches,
  };
}

export function one(p: RawPrint, c: PrintContext = ctx()): ClassifiedPrintRecord {
  const { prints } = run([[p, c]]);
  expect(prints).toHaveLength(1);
  return prints[0] as ClassifiedPrintRecord;
}
