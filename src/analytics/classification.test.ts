import { describe, expect, it } from 'vitest';
import { PrintClassifier, type PrintContext, type PrintSink, type RawPrint } from './classification.js';
import { CASH_CLOSE, ctx, one, quote, raw, run, T0 } from './classification.fixtures.js';
import { printId } from './print-id.js';
import { bsmGreeks, bsmPrice } from './pricing.js';
import { impliedVolatility } from './implied-volatility.js';

const SPEC_FIELDS = [
  'ask',
  'bid',
  'condition_code',
  'contract_type',
  'date_of_expiry',
  'day_volume',
  'days_to_expiry',
  'delta',
  'exchange',
  'exchange_code',
  'flags',
  'group_id',
  'id',
  'implied_volatility',
  'is_block',
  'is_golden',
  'is_unusual',
  'open_interest',
  'otm_percent',
  'premium',
  'price',
  'sentiment',
  'session',
  'side',
  'side_confidence',
  'size',
  'strike',
  'timestamp',
  'trade_type',
  'underlying_price',
  'underlying_symbol',
];

describe('printId, the form of the ids the classifier writes', () => {
  it('joins root, expiry, strike x 1000, right, trading date and sequence', () => {
    expect(
      printId({ root: 'SPXW', dateOfExpiry: '2024-12-20', strike: 5900, type: 'call', tradingDate: '2024-12-19', sequence: 8812 }),
    ).toBe('SPXW:2024-12-20:5900000:C:2024-12-19:8812');
    expect(printId({ root: 'AAPL', dateOfExpiry: '2025-01-17', strike: 232.5, type: 'put', tradingDate: '2024-12-19', sequence: 1 })).toBe(
      'AAPL:2025-01-17:232500:P:2024-12-19:1',
    );
    // Binary floating point must not leak into the id.
    expect(printId({ root: 'X', dateOfExpiry: '2025-01-17', strike: 0.1 + 0.2, type: 'put', tradingDate: '2024-12-19', sequence: 2 })).toBe(
      'X:2025-01-17:300:P:2024-12-19:2',
    );
  });
});

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
    expect(flagsOf(raw({ timestamp: CASH_CLOSE + 1 }), ctx({ session: 'curb', quote: quote(1.9, 2.1, CASH_CLOSE) }))).toEqual([
      'post_cash_close',
    ]);
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
      'iso',
      'auction',
      'complex',
      'tied',
      'late',
      'aggressor_hint',
      'post_cash_close',
      'vol_gt_oi',
      'size_gt_oi',
      'no_side',
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
      ['single', null],
      ['multileg', null],
      ['cross', null],
      ['floor', null],
    ]);
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
      [10, '2024-12-19'],
      [30, '2024-12-19'],
      [7, '2024-12-19'],
      [35, '2024-12-19'],
      [4, '2024-12-20'],
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
    expect(seen).toEqual([`print ${a.sequence}`, `cancel ${printId({ ...a, tradingDate: '2024-12-19' })}`, `print ${b.sequence}`]);
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
