import { describe, expect, it } from 'vitest';
import { CancelLookback, type CancelRecord, type RememberedPrint } from './cancel-lookback.js';
import { PrintClassifier, type ClassifiedPrintRecord } from './classification.js';
import { ctx, raw, run, T0 } from './classification.fixtures.js';
import { printId } from './print-id.js';

/** A look-back fed with prints of several contracts, each print linked to its contract's previous one. */
class Feed {
  readonly lookback: CancelLookback;
  private next = 0;
  private readonly latest = new Map<string, number>();
  constructor(lookbackMs = 600_000, lookbackPrints = 1 << 20) {
    this.lookback = new CancelLookback(lookbackMs, lookbackPrints);
  }
  add(contract: string, over: Partial<RememberedPrint> = {}): number {
    const position = this.next++;
    const print: RememberedPrint = { timestamp: T0, price: 2.1, size: 10, exchange_code: 302, id: `${contract}:${position}`, ...over };
    this.lookback.remember(print, position, this.latest.get(contract) ?? -1);
    this.latest.set(contract, position);
    return position;
  }
  cancel(contract: string, over: Partial<CancelRecord> = {}): number {
    const record: CancelRecord = { timestamp: T0 + 1, price: 2.1, size: 10, exchangeCode: 302, ...over };
    return this.lookback.cancel(this.latest.get(contract) ?? -1, this.next, record);
  }
}

describe('CancelLookback', () => {
  it("finds the contract's most recent matching print not yet cancelled, then the one before", () => {
    const feed = new Feed();
    const a = feed.add('K');
    feed.add('L');
    const b = feed.add('K', { timestamp: T0 + 1 });
    feed.add('L');
    expect(feed.cancel('K', { timestamp: T0 + 2 })).toBe(b);
    expect(feed.lookback.idAt(b)).toBe(`K:${b}`);
    expect(feed.cancel('K', { timestamp: T0 + 2 })).toBe(a);
    expect(feed.cancel('K', { timestamp: T0 + 2 })).toBe(-1);
    expect(feed.cancel('M')).toBe(-1);
  });

  it('matches on exchange, size and price within the price tolerance', () => {
    const feed = new Feed();
    feed.add('K');
    expect(feed.cancel('K', { exchangeCode: 308 })).toBe(-1);
    expect(feed.cancel('K', { size: 11 })).toBe(-1);
    expect(feed.cancel('K', { price: 2.1001 })).toBe(-1);
    expect(feed.cancel('K', { price: 2.10004 })).toBe(0);
  });

  it('looks back no further than its time', () => {
    const feed = new Feed(600_000);
    feed.add('K');
    expect(feed.cancel('K', { timestamp: T0 + 600_001 })).toBe(-1);
    expect(feed.cancel('K', { timestamp: T0 + 600_000 })).toBe(0);
  });

  it('reaches no further back than its print count, rounded up to a power of two', () => {
    const feed = new Feed(600_000, 3);
    feed.add('K');
    for (let i = 0; i < 4; i++) feed.add(`L${i}`);
    expect(feed.cancel('K')).toBe(-1);
    const recent = new Feed(600_000, 3);
    recent.add('K');
    for (let i = 0; i < 3; i++) recent.add(`L${i}`);
    expect(recent.cancel('K')).toBe(0);
  });

  it('grows past 1,024 prints while they are inside the look-back time', () => {
    const feed = new Feed();
    feed.add('K');
    for (let i = 1; i <= 3000; i++) feed.add(`L${i}`, { timestamp: T0 + i });
    expect(feed.cancel('K', { timestamp: T0 + 3001 })).toBe(0);
    expect(feed.lookback.idAt(0)).toBe('K:0');
  });

  it('overwrites rather than grows once the old prints are past the look-back time', () => {
    const feed = new Feed(10);
    feed.add('K');
    for (let i = 1; i <= 1024; i++) feed.add(`L${i}`, { timestamp: T0 + 100 + i });
    // Position 0 is overwritten by position 1024, whose contract is another.
    expect(feed.cancel('K', { timestamp: T0 + 1 })).toBe(-1);
    expect(feed.lookback.idAt(0)).toBe('L1024:1024');
  });
});

describe('PrintClassifier: cancels', () => {
  it('marks a held print cancelled and never outputs the cancel record', () => {
    const { prints, cancels } = run([
      [raw({ size: 10 })],
      [raw({ size: 10, conditionCode: 201, timestamp: T0 + 100 })],
      [raw({ size: 3, timestamp: T0 + 2_000 })],
    ]);
    expect(prints.map((p) => [p.cancelled, p.flags, p.day_volume])).toEqual([
      [true, ['cancelled'], 10],
      [false, [], 3],
    ]);
    expect(cancels).toEqual([]);
  });

  it('reports a print already output in cancels without changing it', () => {
    const classifier = new PrintClassifier();
    const first = classifier.push(raw({ conditionCode: 232, size: 10 }), ctx());
    expect(first.prints).toHaveLength(1);
    const printed = first.prints[0] as ClassifiedPrintRecord;
    const batch = classifier.push(raw({ conditionCode: 203, size: 10, timestamp: T0 + 5 }), ctx());
    expect(batch).toEqual({ prints: [], cancels: [printed.id] });
    expect(printed.cancelled).toBe(false);
    expect(printed.flags).toEqual(['complex', 'implied']);
    expect(classifier.push(raw({ size: 1, timestamp: T0 + 10_000 }), ctx()).prints).toHaveLength(0);
    expect(classifier.flush().prints[0]?.day_volume).toBe(1);
  });

  it('cancels the most recent matching print not yet cancelled, then the one before', () => {
    const classifier = new PrintClassifier();
    const a = raw({ conditionCode: 232 });
    const b = raw({ conditionCode: 232, timestamp: T0 + 1 });
    classifier.push(a, ctx());
    classifier.push(b, ctx());
    const cancel = (): string[] => [...classifier.push(raw({ conditionCode: 207, timestamp: T0 + 2 }), ctx()).cancels];
    expect(cancel()).toEqual([printId({ ...b, tradingDate: '2024-12-19' })]);
    expect(cancel()).toEqual([printId({ ...a, tradingDate: '2024-12-19' })]);
    expect(cancel()).toEqual([]);
    expect(classifier.unmatchedCancels).toBe(1);
  });

  it('matches on contract, exchange, price and size', () => {
    const classifier = new PrintClassifier();
    classifier.push(raw({ conditionCode: 232, exchangeCode: 302, price: 2.1, size: 10 }), ctx());
    for (const miss of [{ exchangeCode: 308 }, { price: 2.05 }, { size: 11 }, { strike: 5905 }, { type: 'put' as const }]) {
      const batch = classifier.push(raw({ conditionCode: 201, timestamp: T0 + 1, ...miss }), ctx());
      expect(batch.cancels).toEqual([]);
    }
    expect(classifier.unmatchedCancels).toBe(5);
  });

  it('takes a cancelled print out of its group', () => {
    const { prints } = run([
      [raw({ exchangeCode: 302, size: 10 })],
      [raw({ exchangeCode: 308, size: 20, timestamp: T0 + 5 })],
      [raw({ exchangeCode: 308, size: 20, timestamp: T0 + 6, conditionCode: 205 })],
    ]);
    expect(prints.map((p) => [p.trade_type, p.group_id, p.cancelled])).toEqual([
      ['single', null, false],
      ['single', null, true],
    ]);
  });

  it('keeps reaching old prints as the look-back ring grows past its first size', () => {
    const classifier = new PrintClassifier();
    const first = raw({ conditionCode: 232 });
    classifier.push(first, ctx());
    for (let i = 1; i <= 3000; i++) {
      classifier.push(raw({ conditionCode: 232, strike: 1000 + i, timestamp: T0 + i }), ctx());
    }
    const batch = classifier.push(raw({ conditionCode: 201, timestamp: T0 + 3001 }), ctx());
    expect(batch.cancels).toEqual([printId({ ...first, tradingDate: '2024-12-19' })]);
  });

  it('reaches no further back than cancelLookbackPrints prints of the feed', () => {
    const classifier = new PrintClassifier({ cancelLookbackPrints: 4 });
    classifier.push(raw({ conditionCode: 232 }), ctx());
    for (let i = 1; i <= 4; i++) {
      classifier.push(raw({ conditionCode: 232, strike: 5000 + i, timestamp: T0 + i }), ctx());
    }
    expect(classifier.push(raw({ conditionCode: 201, timestamp: T0 + 5 }), ctx()).cancels).toEqual([]);
    expect(classifier.unmatchedCancels).toBe(1);
  });

  it('looks back at most 10 minutes', () => {
    const classifier = new PrintClassifier();
    classifier.push(raw({ conditionCode: 232 }), ctx());
    classifier.push(raw({ conditionCode: 232, strike: 5905, timestamp: T0 + 600_001 }), ctx());
    expect(classifier.push(raw({ conditionCode: 201, timestamp: T0 + 600_002 }), ctx()).cancels).toEqual([]);
    expect(classifier.unmatchedCancels).toBe(1);
  });
});
