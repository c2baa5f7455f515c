import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.js';
import { PrintClassifier } from './classification.js';
import { ctx, quote, raw, run, T0 } from './classification.fixtures.js';
import { addToGroup, joinsGroup, settleGroup, type GroupMember, type GroupState } from './print-groups.js';
import { contractKey } from './print-id.js';

type Print = components['schemas']['OptionPrint'];

let nextSequence = 1;

function member(over: Partial<Print> & { cancelled?: boolean } = {}): GroupMember {
  const sequence = nextSequence++;
  return {
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
    id: `SPXW:2024-12-20:5900000:C:2024-12-19:${sequence}`,
    implied_volatility: null,
    is_block: false,
    is_golden: false,
    is_unusual: false,
    open_interest: 1000,
    otm_percent: -0.85,
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
    ...over,
  };
}

function emptyGroup(): GroupState {
  return {
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

/** A group opened by `first` (a buy unless given a direction). */
function groupOf(first: GroupMember, direction = 1): GroupState {
  const group = emptyGroup();
  addToGroup(group, first, 0, direction);
  return group;
}

const SPLIT_MS = 500;
const SWEEP_MS = 50;
const joins = (group: GroupState, m: GroupMember, direction: number): boolean => joinsGroup(group, m, direction, SPLIT_MS, SWEEP_MS);

describe('addToGroup', () => {
  it('opens a group with its first print, then tracks venues, direction and the walk', () => {
    const group = groupOf(member({ exchange_code: 302, price: 2.1, timestamp: T0 + 7 }), 0);
    expect(group).toMatchObject({
      groupOpen: true,
      groupFirstTs: T0 + 7,
      groupFirstExchange: 302,
      groupMultiVenue: false,
      groupDirection: 0,
      groupWalk: 0,
      groupLastPrice: 2.1,
      groupPositions: [0],
    });
    addToGroup(group, member({ exchange_code: 302, price: 2.1 }), 1, 1);
    expect(group).toMatchObject({ groupMultiVenue: false, groupDirection: 1, groupWalk: 0 });
    addToGroup(group, member({ exchange_code: 308, price: 2.15 }), 2, 0);
    expect(group).toMatchObject({
      groupMultiVenue: true,
      groupDirection: 1,
      groupWalk: 1,
      groupLastPrice: 2.15,
      groupPositions: [0, 1, 2],
    });
    expect(group.groupMembers).toHaveLength(3);
  });
});

describe('joinsGroup', () => {
  it('takes same-exchange prints within the split window and a second exchange within the sweep window', () => {
    const group = groupOf(member({ exchange_code: 302 }));
    expect(joins(group, member({ exchange_code: 302, timestamp: T0 + 500 }), 1)).toBe(true);
    expect(joins(group, member({ exchange_code: 302, timestamp: T0 + 501 }), 1)).toBe(false);
    expect(joins(group, member({ exchange_code: 308, timestamp: T0 + 50 }), 1)).toBe(true);
    expect(joins(group, member({ exchange_code: 308, timestamp: T0 + 51 }), 1)).toBe(false);
    addToGroup(group, member({ exchange_code: 308, timestamp: T0 + 10 }), 1, 1);
    // Once on two exchanges, the sweep window holds for every venue.
    expect(joins(group, member({ exchange_code: 302, timestamp: T0 + 51 }), 1)).toBe(false);
  });

  it('never mixes buys and sells; mid and unknown prints join either', () => {
    const buys = groupOf(member(), 1);
    expect(joins(buys, member({ timestamp: T0 + 1 }), -1)).toBe(false);
    expect(joins(buys, member({ timestamp: T0 + 1 }), 0)).toBe(true);
    const undecided = groupOf(member(), 0);
    expect(joins(undecided, member({ timestamp: T0 + 1 }), -1)).toBe(true);
    expect(joins(undecided, member({ timestamp: T0 + 1 }), 1)).toBe(true);
  });

  it('walks the price one way: up for buys, down for sells, within the price tolerance', () => {
    const buys = groupOf(member({ price: 2.1 }), 1);
    expect(joins(buys, member({ price: 2.15 }), 1)).toBe(true);
    expect(joins(buys, member({ price: 2.05 }), 1)).toBe(false);
    expect(joins(buys, member({ price: 2.10004 }), 1)).toBe(true);
    expect(joins(buys, member({ price: 2.09996 }), 1)).toBe(true);
    const sells = groupOf(member({ price: 1.9, side: 'at_bid' }), -1);
    expect(joins(sells, member({ price: 1.85 }), -1)).toBe(true);
    expect(joins(sells, member({ price: 1.95 }), -1)).toBe(false);
    // A group of undecided direction keeps the way it has moved.
    const undecided = groupOf(member({ price: 2.1 }), 0);
    addToGroup(undecided, member({ price: 2.2 }), 1, 0);
    expect(joins(undecided, member({ price: 2.15 }), 0)).toBe(false);
    expect(joins(undecided, member({ price: 2.25 }), 0)).toBe(true);
  });
});

describe('settleGroup', () => {
  it('makes two live prints on two exchanges a sweep, on one exchange a split, named after the first live print', () => {
    const cancelled = member({ exchange_code: 313, cancelled: true });
    const a = member({ exchange_code: 302 });
    const b = member({ exchange_code: 308 });
    const sweep = groupOf(cancelled);
    addToGroup(sweep, a, 1, 1);
    addToGroup(sweep, b, 2, 1);
    settleGroup(sweep);
    expect([a, b].map((m) => [m.trade_type, m.group_id])).toEqual([
      ['sweep', `g:${a.id}`],
      ['sweep', `g:${a.id}`],
    ]);
    expect([cancelled.trade_type, cancelled.group_id]).toEqual(['single', null]);

    const c = member({ exchange_code: 302 });
    const d = member({ exchange_code: 302 });
    const split = groupOf(c);
    addToGroup(split, d, 1, 1);
    settleGroup(split);
    expect([c, d].map((m) => [m.trade_type, m.is_golden])).toEqual([
      ['split', false],
      ['split', false],
    ]);
  });

  it('leaves one live print single', () => {
    const a = member();
    const group = groupOf(a);
    addToGroup(group, member({ exchange_code: 308, cancelled: true }), 1, 1);
    settleGroup(group);
    expect([a.trade_type, a.group_id]).toEqual(['single', null]);
  });

  it('makes a sweep of 1,000,000 USD golden, on every print', () => {
    const a = member({ exchange_code: 302, premium: 500_000 });
    const b = member({ exchange_code: 308, premium: 500_000 });
    const group = groupOf(a);
    addToGroup(group, b, 1, 1);
    settleGroup(group);
    expect([a, b].map((m) => m.is_golden)).toEqual([true, true]);
    const c = member({ exchange_code: 302, premium: 500_000 });
    const d = member({ exchange_code: 308, premium: 499_999.99 });
    const short = groupOf(c);
    addToGroup(short, d, 1, 1);
    settleGroup(short);
    expect([c, d].map((m) => m.is_golden)).toEqual([false, false]);
  });

  it('settles is_unusual once the group is a sweep', () => {
    const otm = [member({ exchange_code: 302, otm_percent: 0.85 }), member({ exchange_code: 308, otm_percent: 0.85 })];
    const itm = [member({ exchange_code: 302 }), member({ exchange_code: 308 })];
    for (const [first, second] of [otm, itm] as [GroupMember, GroupMember][]) {
      const group = groupOf(first);
      addToGroup(group, second, 1, 1);
      settleGroup(group);
    }
    expect([...otm, ...itm].map((m) => m.is_unusual)).toEqual([true, true, false, false]);
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
      ['sweep', groupId],
      ['sweep', groupId],
      ['sweep', groupId],
    ]);
  });

  it('does not group a second exchange beyond 50 ms', () => {
    const { prints } = run([[raw({ exchangeCode: 302 })], [raw({ exchangeCode: 308, timestamp: T0 + 51 })]]);
    expect(prints.map((p) => [p.trade_type, p.group_id])).toEqual([
      ['single', null],
      ['single', null],
    ]);
  });

  it('uses the contract key the caller keeps (RawPrint.contractKey) instead of building one', () => {
    const key = contractKey({ root: 'SPXW', dateOfExpiry: '2024-12-20', strike: 5900, type: 'call' });
    const built = run([[raw({ sequence: 1 })], [raw({ sequence: 2, exchangeCode: 308, timestamp: T0 + 10 })]]).prints;
    const given = run([
      [raw({ sequence: 1, contractKey: key })],
      [raw({ sequence: 2, exchangeCode: 308, timestamp: T0 + 10, contractKey: key })],
    ]).prints;
    expect(given).toEqual(built);
    expect(given.map((p) => [p.id, p.trade_type, p.day_volume])).toEqual([
      [`${key}:2024-12-19:1`, 'sweep', 10],
      [`${key}:2024-12-19:2`, 'sweep', 20],
    ]);
    // The key given is the one used: the same fields under another key are another contract.
    const other = run([
      [raw({ sequence: 1, contractKey: 'K1' })],
      [raw({ sequence: 2, exchangeCode: 308, timestamp: T0 + 10, contractKey: 'K2' })],
    ]).prints;
    expect(other.map((p) => [p.id, p.trade_type, p.day_volume])).toEqual([
      ['K1:2024-12-19:1', 'single', 10],
      ['K2:2024-12-19:2', 'single', 10],
    ]);
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
    const mixed = run([[raw({ exchangeCode: 302, price: 2.1 })], [raw({ exchangeCode: 308, price: 1.9, timestamp: T0 + 5 })]]);
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
      ['at_ask', 'sweep'],
      ['mid', 'sweep'],
      ['unknown', 'sweep'],
    ]);
  });

  it('groups sells walking down the bids', () => {
    const { prints } = run([
      [raw({ exchangeCode: 302, price: 1.9 })],
      [raw({ exchangeCode: 308, price: 1.85, timestamp: T0 + 20 }), ctx({ quote: quote(1.85, 2.1) })],
    ]);
    expect(prints.map((p) => [p.sentiment, p.trade_type])).toEqual([
      ['bearish', 'sweep'],
      ['bearish', 'sweep'],
    ]);
  });

  it('is golden from a 1,000,000 USD group premium, on every print of the sweep', () => {
    const q = ctx({ quote: quote(9.9, 10) });
    const golden = run([
      [raw({ exchangeCode: 302, price: 10, size: 500 }), q],
      [raw({ exchangeCode: 308, price: 10, size: 500, timestamp: T0 + 1 }), q],
    ]);
    expect(golden.prints.map((p) => [p.trade_type, p.premium, p.is_golden])).toEqual([
      ['sweep', 500_000, true],
      ['sweep', 500_000, true],
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
    expect(split.prints.map((p) => [p.trade_type, p.is_golden])).toEqual([
      ['split', false],
      ['split', false],
    ]);
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
      ['split', groupId],
      ['split', groupId],
      ['split', groupId],
      ['single', null],
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
      [[raw({ exchangeCode: 308 })], [raw({ exchangeCode: 308, timestamp: T0 + 150 })], [raw({ exchangeCode: 302, timestamp: T0 + 156 })]],
      classifier,
    );
    expect(prints.map((p) => p.trade_type)).toEqual(['single', 'single', 'single']);
    expect(() => new PrintClassifier({ sweepWindowMs: -1 })).toThrow(RangeError);
  });

  it('keeps late prints out of groups', () => {
    const { prints } = run([[raw({ exchangeCode: 308 })], [raw({ exchangeCode: 308, timestamp: T0 + 1, conditionCode: 204 })]]);
    expect(prints.map((p) => [p.trade_type, p.flags])).toEqual([
      ['single', []],
      ['single', ['late']],
    ]);
  });
});
