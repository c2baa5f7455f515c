import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { components } from '../../generated/openapi.js';
import { FLAG_ORDER, FlagBit, flagsOf, isUnusual, maskOfFlags } from './print-flags.js';

type Print = components['schemas']['OptionPrint'];

describe('FLAG_ORDER and FlagBit', () => {
  it("is the PrintFlag schema's enum (the items of OptionPrint.flags), in its order", () => {
    const document = parse(fs.readFileSync(new URL('../../openapi/v1.yaml', import.meta.url), 'utf8')) as {
      components: { schemas: { PrintFlag: { enum: unknown } } };
    };
    expect(FLAG_ORDER).toEqual(document.components.schemas.PrintFlag.enum);
  });

  it('gives flag i the bit 1 << i', () => {
    expect(FLAG_ORDER.map((f) => FlagBit[f])).toEqual(FLAG_ORDER.map((_, i) => 1 << i));
    expect(Object.isFrozen(FlagBit)).toBe(true);
  });
});

describe('flagsOf and maskOfFlags', () => {
  it('spell a mask out in the contract order and back', () => {
    expect(flagsOf(0)).toEqual([]);
    expect(flagsOf(FlagBit.no_side | FlagBit.iso | FlagBit.cancelled)).toEqual(['iso', 'cancelled', 'no_side']);
    expect(maskOfFlags(['no_side', 'iso'])).toBe(FlagBit.iso | FlagBit.no_side);
    const all = (1 << FLAG_ORDER.length) - 1;
    expect(flagsOf(all)).toEqual(FLAG_ORDER);
    for (let mask = 0; mask <= all; mask += 37) expect(maskOfFlags(flagsOf(mask))).toBe(mask);
  });
});

describe('isUnusual', () => {
  const print = (over: Partial<Print>): Print => ({
    ask: 2.1,
    bid: 1.9,
    condition_code: 209,
    contract_type: 'call',
    date_of_expiry: '2024-12-20',
    day_volume: 10,
    days_to_expiry: 1,
    delta: null,
    exchange: 'cboe',
    exchange_code: 302,
    flags: [],
    group_id: null,
    id: 'SPXW:2024-12-20:5900000:C:2024-12-19:1',
    implied_volatility: null,
    is_block: false,
    is_golden: false,
    is_unusual: false,
    open_interest: 1000,
    otm_percent: 0.85,
    premium: 2100,
    price: 2.1,
    sentiment: 'bullish',
    session: 'rth',
    side: 'at_ask',
    side_confidence: 1,
    size: 10,
    strike: 5900,
    timestamp: 0,
    trade_type: 'single',
    underlying_price: 5850,
    underlying_symbol: 'SPXW',
    ...over,
  });

  it('flags day volume above open interest within 45 days', () => {
    expect(isUnusual(print({ day_volume: 1001 }))).toBe(true);
    expect(isUnusual(print({ day_volume: 1001, days_to_expiry: 45 }))).toBe(true);
    expect(isUnusual(print({ day_volume: 1001, days_to_expiry: 46 }))).toBe(false);
    expect(isUnusual(print({ day_volume: 1000 }))).toBe(false);
    expect(isUnusual(print({ day_volume: 1001, open_interest: null }))).toBe(false);
  });

  it('flags a premium of 250,000 USD', () => {
    expect(isUnusual(print({ premium: 250_000 }))).toBe(true);
    expect(isUnusual(print({ premium: 249_999.99 }))).toBe(false);
  });

  it('flags out-of-the-money sweeps on an ask-side band', () => {
    for (const side of ['above_ask', 'at_ask', 'near_ask'] as const) {
      expect(isUnusual(print({ trade_type: 'sweep', side }))).toBe(true);
    }
    for (const side of ['mid', 'near_bid', 'at_bid', 'below_bid', 'unknown'] as const) {
      expect(isUnusual(print({ trade_type: 'sweep', side }))).toBe(false);
    }
    expect(isUnusual(print({ trade_type: 'sweep', otm_percent: 0 }))).toBe(false);
    expect(isUnusual(print({ trade_type: 'sweep', otm_percent: null }))).toBe(false);
    expect(isUnusual(print({ trade_type: 'split' }))).toBe(false);
  });
});
