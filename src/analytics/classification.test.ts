import { describe, expect, it } from 'vitest';
import {
  contractKey,
  PrintClassifier,
  printId,
  sentimentOf,
  sideOf,
  type ClassifiedPrintRecord,
  type PrintBatch,
  type PrintContext,
  type PrintSink,
  type QuoteInForce,
  type RawPrint,
  type Side,
} from './classification.js';
import { bsmGreeks, bsmPrice, impliedVolatility } from './pricing.js';

// 2024-12-19, 10:00 ET; the cash close is 16:00 ET (21:00 UTC).
const T0 = Date.UTC(2024, 11, 19, 15, 0, 0);
const CASH_CLOSE = Date.UTC(2024, 11, 19, 21, 0, 0);

let nextSequence = 1;

function raw(over: Partial<RawPrint> = {}): RawPrint {
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

function quote(bid: number | null, ask: number | null, timestamp = T0 - 100): QuoteInForce {
  return { bid, ask, timestamp };
}

function ctx(over: Partial<PrintContext> = {}): PrintContext {
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
function run(
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

function one(p: RawPrint, c: PrintContext = ctx()): ClassifiedPrintRecord {
  const { prints } = run([[p, c]]);
  expect(prints).toHaveLength(1);
  return prints[0] as ClassifiedPrintRecord;
}

const SPEC_FIELDS = [
  'ask', 'bid', 'condition_code', 'contract_type', 'date_of_expiry', 'day_volume',
  'days_to_expiry', 'delta', 'exchange', 'exchange_code', 'flags', 'group_id', 'id',
  'implied_volatility', 'is_block', 'is_golden', 'is_unusual', 'open_interest', 'otm_percent',
  'premium', 'price', 'sentiment', 'session', 'side', 'side_confidence', 'size', 'strike',
  'timestamp', 'trade_type', 'underlying_price', 'underlying_symbol',
];

// ---------------------------------------------------------------------------------------------

describe('sideOf bands (bid 1.00, ask 1.20: mid 1.10, mid zone 1.08 to 1.12)', () => {
  const q = quote(1.0, 1.2);
  const at = (price: number): { side: Side; confidence: number } => sideOf(price, q, T0);

  it('classifies prices beyond the quote', () => {
    expect(at(1.25)).toEqual({ side: 'above_ask', confidence: 1 });
    expect(at(1.2001)).toEqual({ side: 'above_ask', confidence: 1 });
    expect(at(0.95)).toEqual({ side: 'below_bid', confidence: 1 });
    expect(at(0.9999)).toEqual({ side: 'below_bid', confidence: 1 });
  });

  it('classifies prices at the quote within the float tolerance', () => {
    expect(at(1.2)).toEqual({ side: 'at_ask', confidence: 1 });
    expect(at(1.20004)).toEqual({ side: 'at_ask', confidence: 1 });
    expect(at(1.19996)).toEqual({ side: 'at_ask', confidence: 1 });
    expect(at(0.1 + 0.2 + 0.9)).toEqual({ side: 'at_ask', confidence: 1 }); // 1.2000000000000002
    expect(at(1.0)).toEqual({ side: 'at_bid', confidence: 1 });
    expect(at(1.00004)).toEqual({ side: 'at_bid', confidence: 1 });
    expect(at(0.99996)).toEqual({ side: 'at_bid', confidence: 1 });
  });

  it('classifies prices inside the spread', () => {
    expect(at(1.1999).side).toBe('near_ask');
    expect(at(1.15).side).toBe('near_ask');
    expect(at(1.05).side).toBe('near_bid');
    expect(at(1.0001).side).toBe('near_bid');
  });

  it('puts the mid zone at ±10% of the spread around the mid, edges included', () => {
    expect(at(1.1)).toEqual({ side: 'mid', confidence: 0.5 });
    expect(at(1.12).side).toBe('mid');
    expect(at(1.08).side).toBe('mid');
    expect(at(1.1201).side).toBe('near_ask');
    expect(at(1.0799).side).toBe('near_bid');
  });

  it('scales near confidence from 0.6 at the mid zone to 0.9 at the quote', () => {
    expect(at(1.1201).confidence).toBeCloseTo(0.6, 3);
    expect(at(1.16).confidence).toBeCloseTo(0.75, 3);
    expect(at(1.04).confidence).toBeCloseTo(0.75, 3);
    expect(at(1.1999).confidence).toBeCloseTo(0.9, 3);
  });

  it('treats a locked quote as valid: at the price it is mid, beyond it above/below', () => {
    const locked = quote(1.0, 1.0);
    expect(sideOf(1.0, locked, T0)).toEqual({ side: 'mid', confidence: 0.5 });
    expect(sideOf(1.01, locked, T0).side).toBe('above_ask');
    expect(sideOf(0.99, locked, T0).side).toBe('below_bid');
    // Crossed by less than the tolerance is float noise on a locked quote.
    expect(sideOf(1.0, quote(1.00004, 1.0), T0).side).toBe('mid');
  });
});

describe('sideOf invalid quotes', () => {
  const unknown = { side: 'unknown', confidence: 0 };
  it.each<[string, QuoteInForce | null]>([
    ['missing', null],
    ['bid missing (one-sided)', quote(null, 1.2)],
    ['ask missing (one-sided)', quote(1.0, null)],
    ['zero bid', quote(0, 1.2)],
    ['zero ask', quote(1.0, 0)],
    ['negative bid', quote(-0.05, 1.2)],
    ['NaN bid', quote(NaN, 1.2)],
    ['infinite ask', quote(1.0, Infinity)],
    ['crossed', quote(1.2, 1.0)],
    ['timestamped after the print', quote(1.0, 1.2, T0 + 1)],
    ['stale (30,001 ms old)', quote(1.0, 1.2, T0 - 30_001)],
  ])('%s → unknown', (_label, q) => {
    expect(sideOf(1.2, q, T0)).toEqual(unknown);
  });

  it('keeps a fresh quote at full confidence and lowers it linearly to 0.5 at 30 s', () => {
    expect(sideOf(1.2, quote(1.0, 1.2, T0), T0).confidence).toBe(1);
    expect(sideOf(1.2, quote(1.0, 1.2, T0 - 1_000), T0).confidence).toBe(1);
    expect(sideOf(1.2, quote(1.0, 1.2, T0 - 15_500), T0).confidence).toBe(0.75);
    expect(sideOf(1.2, quote(1.0, 1.2, T0 - 30_000), T0)).toEqual({ side: 'at_ask', confidence: 0.5 });
  });
});

describe('sentimentOf', () => {
  it.each<[Side, 'bullish' | 'bearish' | 'neutral' | 'unknown', 'bullish' | 'bearish' | 'neutral' | 'unknown']>([
    ['above_ask', 'bullish', 'bearish'],
    ['at_ask', 'bullish', 'bearish'],
    ['near_ask', 'bullish', 'bearish'],
    ['mid', 'neutral', 'neutral'],
    ['near_bid', 'bearish', 'bullish'],
    ['at_bid', 'bearish', 'bullish'],
    ['below_bid', 'bearish', 'bullish'],
    ['unknown', 'unknown', 'unknown'],
  ])('%s: call %s, put %s', (side, call, put) => {
    expect(sentimentOf(side, 'call')).toBe(call);
    expect(sentimentOf(side, 'put')).toBe(put);
  });
});

describe('printId', () => {
  it('joins root, expiry, strike x 1000, right, trading date and sequence', () => {
    expect(
      printId({ root: 'SPXW', dateOfExpiry: '2024-12-20', strike: 5900, type: 'call', tradingDate: '2024-12-19', sequence: 8812 }),
    ).toBe('SPXW:2024-12-20:5900000:C:2024-12-19:8812');
    expect(
      printId({ root: 'AAPL', dateOfExpiry: '2025-01-17', strike: 232.5, type: 'put', tradingDate: '2024-12-19', sequence: 1 }),
    ).toBe('AAPL:2025-01-17:232500:P:2024-12-19:1');
    // Binary floating point must not leak into the id.
    expect(
      printId({ root: 'X', dateOfExpiry: '2025-01-17', strike: 0.1 + 0.2, type: 'put', tradingDate: '2024-12-19', sequence: 2 }),
    ).toBe('X:2025-01-17:300:P:2024-12-19:2');
  });
});

// ---------------------------------------------------------------------------------------------

describe('PrintClassifier: one print', () => {
  it('outputs exactly the 31 fields of the specification plus the record fields', () => {
    const r = one(raw({ sequence: 8812 }));
    const keys = Object.keys(r).sort();
    expect(keys).toEqual([...SPEC_FIELDS, 'cancelled', 'contract_key', 'trading_date', 'sequence'].sort());
    expect(SPEC_FIELDS).toHaveLength(31);
    expect(r).toMatchObject({
      id: 'SPXW:2024-12-20:5900000:C:2024-12-19:8812',
      contract_key: 'SPXW:2024-12-20:5900000:C',
      trading_date: '2024-12-19',
      sequence: 8812,
      ask: 2.1,
      bid: 1.9,
      condition_code: 209,
      contract_type: 'call',
      date_of_expiry: '2024-12-20',
      day_volume: 10,
      days_to_expiry: 1,
      exchange: 'cboe',
      exchange_code: 302,
      flags: [],
      group_id: null,
      is_block: false,
      is_golden: false,
      is_unusual: false,
      open_interest: 1000,
      premium: 2100,
      price: 2.1,
      sentiment: 'bullish',
      session: 'rth',
      side: 'at_ask',
      side_confidence: 1,
      size: 10,
      strike: 5900,
      timestamp: T0,
      trade_type: 'single',
      underlying_price: 5850,
      underlying_symbol: 'SPXW',
      cancelled: false,
    });
  });

  it('rounds premium to cents', () => {
    expect(one(raw({ price: 1.15, size: 100 })).premium).toBe(11500);
    expect(one(raw({ price: 0.333, size: 3 })).premium).toBe(99.9);
    expect(one(raw({ price: 0.05, size: 1, multiplier: 10 })).premium).toBe(0.5);
  });

  it('signs otm_percent: positive out of the money, negative in the money', () => {
    expect(one(raw({ type: 'call', strike: 5900 })).otm_percent).toBe(0.8547);
    expect(one(raw({ type: 'call', strike: 5800 })).otm_percent).toBe(-0.8547);
    expect(one(raw({ type: 'put', strike: 5800 })).otm_percent).toBe(0.8547);
    expect(one(raw({ type: 'put', strike: 5900 })).otm_percent).toBe(-0.8547);
    expect(one(raw({ type: 'put', strike: 5850 })).otm_percent).toBe(0);
  });

  it('leaves underlying-based fields null without an underlying price', () => {
    const r = one(raw(), ctx({ underlyingPrice: null }));
    expect(r).toMatchObject({ otm_percent: null, underlying_price: null, implied_volatility: null, delta: null });
  });

  it('solves implied volatility from the print price and takes delta at that volatility', () => {
    const model = { type: 'put' as const, spot: 5850, strike: 5800, time: 30 / 365, rate: 0.045, dividendYield: 0.013 };
    const price = Math.round(bsmPrice({ ...model, volatility: 0.2 }) * 100) / 100;
    const r = one(raw({ type: 'put', strike: 5800, price }), ctx({ yearsToSettlement: 30 / 365, quote: null }));
    const iv = impliedVolatility({ ...model, price }) as number;
    expect(r.implied_volatility).toBeCloseTo(0.2, 3);
    expect(r.implied_volatility).toBeCloseTo(iv, 6);
    expect(r.delta).toBeCloseTo(bsmGreeks({ ...model, volatility: iv }).delta, 6);
    expect(r.delta as number).toBeLessThan(0);
  });

  it('gives null volatility and delta when the price is outside the model bounds or time is up', () => {
    // A call cannot be worth less than its discounted intrinsic value.
    expect(one(raw({ strike: 5800, price: 1 }))).toMatchObject({ implied_volatility: null, delta: null });
    expect(one(raw(), ctx({ yearsToSettlement: 0 }))).toMatchObject({ implied_volatility: null, delta: null });
  });

  it('counts calendar days to expiry', () => {
    expect(one(raw({ dateOfExpiry: '2024-12-19' })).days_to_expiry).toBe(0);
    expect(one(raw({ dateOfExpiry: '2025-01-17' })).days_to_expiry).toBe(29);
  });

  it('names venues without a short name unmapped_<code>', () => {
    expect(one(raw({ exchangeCode: 318 })).exchange).toBe('unmapped_318');
  });

  it('nulls bid and ask when the quote is invalid and keeps them for a stale-but-valid quote', () => {
    expect(one(raw(), ctx({ quote: quote(2.1, 1.9) }))).toMatchObject({ bid: null, ask: null, side: 'unknown' });
    expect(one(raw(), ctx({ quote: quote(0, 2.1) }))).toMatchObject({ bid: null, ask: null, side: 'unknown' });
    expect(one(raw(), ctx({ quote: quote(1.9, 2.1, T0 - 20_000) }))).toMatchObject({ bid: 1.9, ask: 2.1, side: 'at_ask' });
  });
});

describe('PrintClassifier: side confidence adjustments', () => {
  it('halves confidence for implied complex prints and takes 0.8 for legs traded against the book', () => {
    expect(one(raw({ conditionCode: 232 })).side_confidence).toBe(0.5);
    expect(one(raw({ conditionCode: 240 })).side_confidence).toBe(0.5);
    expect(one(raw({ conditionCode: 236 })).side_confidence).toBe(0.8);
    expect(one(raw({ conditionCode: 243 })).side_confidence).toBe(0.8);
  });

  it('raises agreeing aggressor hints to 0.9 and halves disagreeing ones; mid and unknown stay', () => {
    const near = ctx({ quote: quote(1.9, 2.3) }); // 2.26 is near_ask at 0.825
    expect(one(raw({ price: 2.26 }), near)).toMatchObject({ side: 'near_ask', side_confidence: 0.825 });
    expect(one(raw({ price: 2.26, aggressorSide: 'buy' }), near)).toMatchObject({ side: 'near_ask', side_confidence: 0.9 });
    expect(one(raw({ price: 2.1, aggressorSide: 'buy' })).side_confidence).toBe(1);
    expect(one(raw({ price: 2.1, aggressorSide: 'sell' }))).toMatchObject({ side: 'at_ask', side_confidence: 0.5 });
    expect(one(raw({ price: 1.9, aggressorSide: 'sell', conditionCode: 232 })).side_confidence).toBe(0.9);
    expect(one(raw({ price: 2.0, aggressorSide: 'buy' }))).toMatchObject({ side: 'mid', side_confidence: 0.5 });
    const blind = one(raw({ aggressorSide: 'sell' }), ctx({ quote: null }));
    expect(blind).toMatchObject({ side: 'unknown', side_confidence: 0, sentiment: 'unknown' });
    expect(blind.flags).toEqual(['aggressor_hint', 'no_side']);
  });

  it('ignores a null aggressor side', () => {
    expect(one(raw({ aggressorSide: null })).flags).toEqual([]);
  });
});

describe('PrintClassifier: flags', () => {
  const flagsOf = (p: RawPrint, c: PrintContext = ctx()): string[] => one(p, c).flags;

  it('takes condition flags from the condition code', () => {
    expect(flagsOf(raw({ conditionCode: 219 }))).toEqual(['iso']);
    expect(flagsOf(raw({ conditionCode: 227 }))).toEqual(['auction']);
    expect(flagsOf(raw({ conditionCode: 228 }))).toEqual(['iso', 'auction']);
    expect(flagsOf(raw({ conditionCode: 229 }))).toEqual(['cross']);
    expect(flagsOf(raw({ conditionCode: 231 }))).toEqual(['floor']);
    expect(flagsOf(raw({ conditionCode: 232 }))).toEqual(['complex', 'implied']);
    expect(flagsOf(raw({ conditionCode: 236 }))).toEqual(['complex']);
    expect(flagsOf(raw({ conditionCode: 241 }))).toEqual(['cross', 'complex', 'tied', 'implied']);
    expect(flagsOf(raw({ conditionCode: 204 }))).toEqual(['late']);
    expect(flagsOf(raw({ conditionCode: 248 }))).toEqual(['ext_hours']);
  });

  it('adds the traits of extended conditions', () => {
    expect(flagsOf(raw({ conditionCode: 209, extendedConditions: [219] }))).toEqual(['iso']);
    expect(flagsOf(raw({ conditionCode: 227, extendedConditions: [219, 248] }))).toEqual(['iso', 'auction', 'ext_hours']);
  });

  it('sets ext_hours for the overnight session', () => {
    expect(flagsOf(raw(), ctx({ session: 'gth' }))).toEqual(['ext_hours']);
  });

  it('sets post_cash_close only for curb prints after 16:00 ET', () => {
    expect(flagsOf(raw({ timestamp: CASH_CLOSE + 1 }), ctx({ session: 'curb', quote: quote(1.9, 2.1, CASH_CLOSE) }))).toEqual(['post_cash_close']);
    expect(flagsOf(raw({ timestamp: CASH_CLOSE }), ctx({ session: 'curb', quote: quote(1.9, 2.1, CASH_CLOSE) }))).toEqual([]);
    expect(flagsOf(raw({ timestamp: CASH_CLOSE + 1 }), ctx({ session: 'rth', quote: quote(1.9, 2.1, CASH_CLOSE) }))).toEqual([]);
  });

  it('compares day volume and size with open interest', () => {
    expect(flagsOf(raw({ size: 30 }), ctx({ openInterest: 25 }))).toEqual(['vol_gt_oi', 'size_gt_oi']);
    expect(flagsOf(raw({ size: 25 }), ctx({ openInterest: 25 }))).toEqual([]);
    const { prints } = run([
      [raw({ size: 20 }), ctx({ openInterest: 25 })],
      [raw({ size: 10, timestamp: T0 + 1_000 }), ctx({ openInterest: 25 })],
    ]);
    expect(prints.map((p) => p.flags)).toEqual([[], ['vol_gt_oi']]);
    expect(flagsOf(raw({ size: 30 }), ctx({ openInterest: null }))).toEqual([]);
  });

  it('sets no_side when the side is unknown', () => {
    expect(flagsOf(raw(), ctx({ quote: null }))).toEqual(['no_side']);
  });

  it('lists flags in the specification order', () => {
    const r = one(
      raw({ conditionCode: 244, extendedConditions: [219, 204], size: 50, aggressorSide: 'buy', timestamp: CASH_CLOSE + 5 }),
      ctx({ session: 'curb', quote: null, openInterest: 10 }),
    );
    expect(r.flags).toEqual([
      'iso', 'auction', 'complex', 'tied', 'late', 'aggressor_hint', 'post_cash_close', 'vol_gt_oi', 'size_gt_oi', 'no_side',
    ]);
  });
});

describe('PrintClassifier: trade_type precedence', () => {
  it('ranks multileg over cross over floor over sweep, split and single', () => {
    expect(one(raw({ conditionCode: 234 })).trade_type).toBe('multileg'); // complex cross
    expect(one(raw({ conditionCode: 235 })).trade_type).toBe('multileg'); // complex floor
    expect(one(raw({ conditionCode: 230 })).trade_type).toBe('cross'); // cross ISO
    expect(one(raw({ conditionCode: 231, extendedConditions: [229] })).trade_type).toBe('cross'); // cross + floor
    expect(one(raw({ conditionCode: 231 })).trade_type).toBe('floor');
    expect(one(raw({ conditionCode: 209 })).trade_type).toBe('single');
  });

  it('keeps complex, cross and floor prints out of sweeps', () => {
    const { prints } = run([
      [raw({ exchangeCode: 302, conditionCode: 219 })],
      [raw({ exchangeCode: 308, conditionCode: 234, timestamp: T0 + 5 })],
      [raw({ exchangeCode: 313, conditionCode: 229, timestamp: T0 + 6 })],
      [raw({ exchangeCode: 316, conditionCode: 231, timestamp: T0 + 7 })],
    ]);
    expect(prints.map((p) => [p.trade_type, p.group_id])).toEqual([
      ['single', null], ['multileg', null], ['cross', null], ['floor', null],
    ]);
  });
});

describe('PrintClassifier: sweeps', () => {
  it('groups one direction across exchanges within 50 ms, price walking up', () => {
    const a = raw({ exchangeCode: 302, price: 2.1, conditionCode: 219 });
    const { prints } = run([
      [a],
      [raw({ exchangeCode: 308, price: 2.1, timestamp: T0 + 10, conditionCode: 219 })],
      [raw({ exchangeCode: 313, price: 2.15, timestamp: T0 + 50, conditionCode: 219 }), ctx({ quote: quote(1.95, 2.15) })],
    ]);
    const groupId = `g:SPXW:2024-12-20:5900000:C:2024-12-19:${a.sequence}`;
    expect(prints.map((p) => [p.trade_type, p.group_id])).toEqual([
      ['sweep', groupId], ['sweep', groupId], ['sweep', groupId],
    ]);
  });

  it('does not group a second exchange beyond 50 ms', () => {
    const { prints } = run([
      [raw({ exchangeCode: 302 })],
      [raw({ exchangeCode: 308, timestamp: T0 + 51 })],
    ]);
    expect(prints.map((p) => [p.trade_type, p.group_id])).toEqual([['single', null], ['single', null]]);
  });

  it('uses the contract key the caller keeps (RawPrint.contractKey) instead of building one', () => {
    const key = contractKey({ root: 'SPXW', dateOfExpiry: '2024-12-20', strike: 5900, type: 'call' });
    const built = run([[raw({ sequence: 1 })], [raw({ sequence: 2, exchangeCode: 308, timestamp: T0 + 10 })]]).prints;
    const given = run([[raw({ sequence: 1, contractKey: key })], [raw({ sequence: 2, exchangeCode: 308, timestamp: T0 + 10, contractKey: key })]]).prints;
    expect(given).toEqual(built);
    expect(given.map((p) => [p.id, p.trade_type, p.day_volume])).toEqual([
      [`${key}:2024-12-19:1`, 'sweep', 10],
      [`${key}:2024-12-19:2`, 'sweep', 20],
    ]);
    // The key given is the one used: the same fields under another key are another contract.
    const other = run([[raw({ sequence: 1, contractKey: 'K1' })], [raw({ sequence: 2, exchangeCode: 308, timestamp: T0 + 10, contractKey: 'K2' })]]).prints;
    expect(other.map((p) => [p.id, p.trade_type, p.day_volume])).toEqual([['K1:2024-12-19:1', 'single', 10], ['K2:2024-12-19:2', 'single', 10]]);
  });

  it('does not group different contracts', () => {
    const { prints } = run([
      [raw({ exchangeCode: 302, strike: 5900 })],
      [raw({ exchangeCode: 308, strike: 5905, timestamp: T0 + 1 })],
      [raw({ exchangeCode: 313, strike: 5900, type: 'put', timestamp: T0 + 2 })],
      [raw({ exchangeCode: 316, dateOfExpiry: '2024-12-23', timestamp: T0 + 3 })],
    ]);
    expect(prints.every((p) => p.trade_type === 'single' && p.group_id === null)).toBe(true);
  });

  it('does not mix buys and sells, nor walk against the direction', () => {
    const mixed = run([
      [raw({ exchangeCode: 302, price: 2.1 })],
      [raw({ exchangeCode: 308, price: 1.9, timestamp: T0 + 5 })],
    ]);
    expect(mixed.prints.map((p) => p.trade_type)).toEqual(['single', 'single']);
    const down = run([
      [raw({ exchangeCode: 302, price: 2.15 }), ctx({ quote: quote(1.9, 2.15) })],
      [raw({ exchangeCode: 308, price: 2.1, timestamp: T0 + 5 })],
    ]);
    expect(down.prints.map((p) => p.trade_type)).toEqual(['single', 'single']);
  });

  it('lets mid and unknown prints join, since a sweep moves the quote under itself', () => {
    const { prints } = run([
      [raw({ exchangeCode: 302, price: 2.1 })],
      [raw({ exchangeCode: 308, price: 2.1, timestamp: T0 + 3 }), ctx({ quote: quote(2.0, 2.2) })],
      [raw({ exchangeCode: 313, price: 2.2, timestamp: T0 + 4 }), ctx({ quote: null })],
    ]);
    expect(prints.map((p) => [p.side, p.trade_type])).toEqual([
      ['at_ask', 'sweep'], ['mid', 'sweep'], ['unknown', 'sweep'],
    ]);
  });

  it('groups sells walking down the bids', () => {
    const { prints } = run([
      [raw({ exchangeCode: 302, price: 1.9 })],
      [raw({ exchangeCode: 308, price: 1.85, timestamp: T0 + 20 }), ctx({ quote: quote(1.85, 2.1) })],
    ]);
    expect(prints.map((p) => [p.sentiment, p.trade_type])).toEqual([['bearish', 'sweep'], ['bearish', 'sweep']]);
  });

  it('is golden from a 1,000,000 USD group premium, on every print of the sweep', () => {
    const q = ctx({ quote: quote(9.9, 10) });
    const golden = run([
      [raw({ exchangeCode: 302, price: 10, size: 500 }), q],
      [raw({ exchangeCode: 308, price: 10, size: 500, timestamp: T0 + 1 }), q],
    ]);
    expect(golden.prints.map((p) => [p.trade_type, p.premium, p.is_golden])).toEqual([
      ['sweep', 500_000, true], ['sweep', 500_000, true],
    ]);
    const short = run([
      [raw({ exchangeCode: 302, price: 10, size: 500 }), q],
      [raw({ exchangeCode: 308, price: 10, size: 499, timestamp: T0 + 1 }), q],
    ]);
    expect(short.prints.map((p) => p.is_golden)).toEqual([false, false]);
    const split = run([
      [raw({ exchangeCode: 302, price: 10, size: 1000 }), q],
      [raw({ exchangeCode: 302, price: 10, size: 1000, timestamp: T0 + 1 }), q],
    ]);
    expect(split.prints.map((p) => [p.trade_type, p.is_golden])).toEqual([['split', false], ['split', false]]);
  });
});

describe('PrintClassifier: splits', () => {
  it('groups one exchange within 500 ms', () => {
    const a = raw({ exchangeCode: 308 });
    const { prints } = run([
      [a],
      [raw({ exchangeCode: 308, timestamp: T0 + 200 })],
      [raw({ exchangeCode: 308, timestamp: T0 + 500 })],
      [raw({ exchangeCode: 308, timestamp: T0 + 501 })],
    ]);
    const groupId = `g:${prints[0]?.id}`;
    expect(prints.map((p) => [p.trade_type, p.group_id])).toEqual([
      ['split', groupId], ['split', groupId], ['split', groupId], ['single', null],
    ]);
    expect(groupId).toBe(`g:SPXW:2024-12-20:5900000:C:2024-12-19:${a.sequence}`);
  });

  it('closes a split when another exchange prints after the sweep window', () => {
    const { prints } = run([
      [raw({ exchangeCode: 308 })],
      [raw({ exchangeCode: 308, timestamp: T0 + 100 })],
      [raw({ exchangeCode: 302, timestamp: T0 + 120 })],
      [raw({ exchangeCode: 302, timestamp: T0 + 130 })],
    ]);
    expect(prints.map((p) => p.trade_type)).toEqual(['split', 'split', 'split', 'split']);
    expect(prints[0]?.group_id).not.toBe(prints[2]?.group_id);
  });

  it('turns a one-exchange group into a sweep when a second exchange joins within 50 ms', () => {
    const { prints } = run([
      [raw({ exchangeCode: 308 })],
      [raw({ exchangeCode: 308, timestamp: T0 + 10 })],
      [raw({ exchangeCode: 302, timestamp: T0 + 40 })],
    ]);
    expect(prints.map((p) => p.trade_type)).toEqual(['sweep', 'sweep', 'sweep']);
  });

  it('honours configured windows', () => {
    const classifier = new PrintClassifier({ splitWindowMs: 100, sweepWindowMs: 5 });
    const { prints } = run(
      [
        [raw({ exchangeCode: 308 })],
        [raw({ exchangeCode: 308, timestamp: T0 + 150 })],
        [raw({ exchangeCode: 302, timestamp: T0 + 156 })],
      ],
      classifier,
    );
    expect(prints.map((p) => p.trade_type)).toEqual(['single', 'single', 'single']);
    expect(() => new PrintClassifier({ sweepWindowMs: -1 })).toThrow(RangeError);
  });

  it('keeps late prints out of groups', () => {
    const { prints } = run([
      [raw({ exchangeCode: 308 })],
      [raw({ exchangeCode: 308, timestamp: T0 + 1, conditionCode: 204 })],
    ]);
    expect(prints.map((p) => [p.trade_type, p.flags])).toEqual([['single', []], ['single', ['late']]]);
  });
});

describe('PrintClassifier: is_block', () => {
  const block = (p: Partial<RawPrint>): boolean => one(raw(p), ctx({ quote: null })).is_block;
  it('applies each branch', () => {
    expect(block({ size: 100, price: 5 })).toBe(true); // 100 contracts, 50,000 USD
    expect(block({ size: 99, price: 6 })).toBe(false); // 59,400 USD but 99 contracts
    expect(block({ size: 100, price: 4.99 })).toBe(false); // 49,900 USD
    expect(block({ size: 10, price: 250 })).toBe(true); // 250,000 USD
    expect(block({ size: 10, price: 249.99 })).toBe(false);
    expect(block({ size: 500, price: 0.05, conditionCode: 227 })).toBe(true); // auction
    expect(block({ size: 500, price: 0.05, conditionCode: 229 })).toBe(true); // cross
    expect(block({ size: 500, price: 0.05, conditionCode: 231 })).toBe(true); // floor
    expect(block({ size: 500, price: 0.05, conditionCode: 233 })).toBe(true); // complex auction
    expect(block({ size: 499, price: 0.05, conditionCode: 227 })).toBe(false);
    expect(block({ size: 500, price: 0.05, conditionCode: 209 })).toBe(false);
  });
});

describe('PrintClassifier: is_unusual', () => {
  it('flags volume above open interest within 45 days', () => {
    expect(one(raw({ size: 30 }), ctx({ openInterest: 20 })).is_unusual).toBe(true);
    expect(one(raw({ size: 30, dateOfExpiry: '2025-02-02' }), ctx({ openInterest: 20 })).is_unusual).toBe(true); // 45 days
    expect(one(raw({ size: 30, dateOfExpiry: '2025-02-03' }), ctx({ openInterest: 20 })).is_unusual).toBe(false); // 46 days
    expect(one(raw({ size: 20 }), ctx({ openInterest: 20 })).is_unusual).toBe(false);
    expect(one(raw({ size: 30 }), ctx({ openInterest: null })).is_unusual).toBe(false);
  });

  it('flags premium of 250,000 USD', () => {
    expect(one(raw({ size: 1000, price: 2.5 }), ctx({ quote: null })).is_unusual).toBe(true);
    expect(one(raw({ size: 1000, price: 2.49 }), ctx({ quote: null, openInterest: 5000 })).is_unusual).toBe(false);
  });

  it('flags out-of-the-money sweeps on the ask side only', () => {
    const sweep = (strike: number, price: number, type: 'call' | 'put' = 'call'): boolean[] =>
      run([
        [raw({ exchangeCode: 302, strike, price, type })],
        [raw({ exchangeCode: 308, strike, price, type, timestamp: T0 + 1 })],
      ]).prints.map((p) => p.is_unusual);
    expect(sweep(5900, 2.1)).toEqual([true, true]); // OTM call at the ask
    expect(sweep(5800, 2.1)).toEqual([false, false]); // ITM call at the ask
    expect(sweep(5900, 1.9)).toEqual([false, false]); // OTM call at the bid
    expect(sweep(5800, 2.1, 'put')).toEqual([true, true]); // OTM put at the ask
    const single = one(raw({ strike: 5900, price: 2.1 }));
    expect([single.trade_type, single.is_unusual]).toEqual(['single', false]);
  });
});

describe('PrintClassifier: day volume', () => {
  it('runs per contract and resets when the trading date changes', () => {
    const next = ctx({ tradingDate: '2024-12-20', quote: quote(1.9, 2.1, T0 + 86_400_000) });
    const { prints } = run([
      [raw({ size: 10 })],
      [raw({ size: 20, timestamp: T0 + 1_000 })],
      [raw({ size: 7, strike: 5905, timestamp: T0 + 2_000 })],
      [raw({ size: 5, timestamp: T0 + 3_000 })],
      [raw({ size: 4, timestamp: T0 + 86_400_000 }), next],
    ]);
    expect(prints.map((p) => [p.day_volume, p.trading_date])).toEqual([
      [10, '2024-12-19'], [30, '2024-12-19'], [7, '2024-12-19'], [35, '2024-12-19'], [4, '2024-12-20'],
    ]);
  });

  it('flushes held prints of the previous trading date before the next one', () => {
    const classifier = new PrintClassifier();
    expect(classifier.push(raw(), ctx()).prints).toHaveLength(0);
    const batch = classifier.push(raw({ timestamp: T0 + 10 }), ctx({ tradingDate: '2024-12-20' }));
    expect(batch.prints.map((p) => p.trading_date)).toEqual(['2024-12-19']);
    expect(classifier.flush().prints.map((p) => p.trading_date)).toEqual(['2024-12-20']);
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
    for (const miss of [
      { exchangeCode: 308 },
      { price: 2.05 },
      { size: 11 },
      { strike: 5905 },
      { type: 'put' as const },
    ]) {
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
      ['single', null, false], ['single', null, true],
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

describe('PrintClassifier: streaming', () => {
  it('holds a print until its group window has passed, then outputs in input order', () => {
    const classifier = new PrintClassifier();
    const a = raw({ exchangeCode: 302 });
    const b = raw({ exchangeCode: 308, strike: 5905, conditionCode: 232, timestamp: T0 + 100 });
    expect(classifier.push(a, ctx()).prints).toHaveLength(0);
    // The complex print is final at once but waits behind the held one.
    expect(classifier.push(b, ctx()).prints).toHaveLength(0);
    const c = raw({ exchangeCode: 302, strike: 5910, timestamp: T0 + 501 });
    const out = classifier.push(c, ctx());
    expect(out.prints.map((p) => p.sequence)).toEqual([a.sequence, b.sequence]);
    expect(classifier.flush().prints.map((p) => p.sequence)).toEqual([c.sequence]);
    expect(classifier.flush()).toEqual({ prints: [], cancels: [] });
  });

  it('delivers to a sink with pushTo and flushTo', () => {
    const seen: string[] = [];
    const sink: PrintSink = { print: (r) => seen.push(`print ${r.sequence}`), cancel: (id) => seen.push(`cancel ${id}`) };
    const classifier = new PrintClassifier();
    const a = raw({ conditionCode: 232 });
    classifier.pushTo(a, ctx(), sink);
    classifier.pushTo(raw({ conditionCode: 201, timestamp: T0 + 1 }), ctx(), sink);
    const b = raw({ timestamp: T0 + 2 });
    classifier.pushTo(b, ctx(), sink);
    classifier.flushTo(sink);
    expect(seen).toEqual([
      `print ${a.sequence}`,
      `cancel ${printId({ ...a, tradingDate: '2024-12-19' })}`,
      `print ${b.sequence}`,
    ]);
  });

  it('is deterministic: the same input twice gives the same output', () => {
    const build = (): [RawPrint, PrintContext][] => {
      const items: [RawPrint, PrintContext][] = [];
      let t = T0;
      for (let i = 0; i < 400; i++) {
        t += (i * 37) % 90;
        const bid = 1.5 + ((i * 13) % 7) * 0.05;
        items.push([
          {
            root: 'SPXW',
            underlying: 'SPX',
            dateOfExpiry: '2024-12-20',
            type: i % 3 === 0 ? 'put' : 'call',
            strike: 5850 + (i % 4) * 5,
            multiplier: 100,
            timestamp: t,
            sequence: i + 1,
            price: bid + ((i * 7) % 5) * 0.05,
            size: 1 + ((i * 11) % 40),
            exchangeCode: [302, 308, 313, 316, 318][i % 5] as number,
            conditionCode: [209, 219, 227, 232, 201, 204, 229][(i * 5) % 7] as number,
            extendedConditions: [],
            aggressorSide: i % 9 === 0 ? 'buy' : null,
          },
          ctx({ quote: quote(bid, bid + 0.2, t - 10), openInterest: 300 }),
        ]);
      }
      return items;
    };
    const first = run(build());
    const second = run(build());
    expect(first.prints.length).toBeGreaterThan(300);
    expect(JSON.stringify(second.prints)).toBe(JSON.stringify(first.prints));
    expect(second.cancels).toEqual(first.cancels);
    const sequences = first.prints.map((p) => p.sequence);
    expect(sequences).toEqual([...sequences].sort((x, y) => x - y));
  });
});
