import { describe, expect, it } from 'vitest';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import { PRINT_COPY_COLUMNS } from '../db/bulk-copy.js';
import { CopyBinaryWriter } from '../db/copy-binary.js';
import { writePrintBody, writePrintRow, type PrintRowFacts } from './prints.js';

const SPEC_ORDER = [
  'ask', 'bid', 'condition_code', 'contract_type', 'date_of_expiry', 'day_volume', 'days_to_expiry', 'delta', 'exchange', 'exchange_code', 'flags',
  'group_id', 'id', 'implied_volatility', 'is_block', 'is_golden', 'is_unusual', 'open_interest', 'otm_percent', 'premium', 'price', 'sentiment',
  'session', 'side', 'side_confidence', 'size', 'strike', 'timestamp', 'trade_type', 'underlying_price', 'underlying_symbol',
] as const;

const record: ClassifiedPrintRecord = {
  ask: 5.1, bid: 5, condition_code: 219, contract_type: 'call', date_of_expiry: '2026-11-20', day_volume: 32, days_to_expiry: 0, delta: 0.33492,
  exchange: 'ise', exchange_code: 308, flags: ['iso'], group_id: 'g:SPXW:2026-11-20:6600000:C:2026-11-20:1', id: 'SPXW:2026-11-20:6600000:C:2026-11-20:2',
  implied_volatility: 0.128522, is_block: false, is_golden: false, is_unusual: true, open_interest: null, otm_percent: -0.1517, premium: 10200,
  price: 5.1, sentiment: 'bullish', session: 'rth', side: 'at_ask', side_confidence: 1, size: 20, strike: 6600, timestamp: 1795185001010,
  trade_type: 'sweep', underlying_price: 6590, underlying_symbol: 'SPXW', cancelled: false, contract_key: 'SPXW:2026-11-20:6600000:C',
  trading_date: '2026-11-20', sequence: 2,
};

/** The served JSON of a record: its 31 fields in the specification order, as JSON.stringify writes them. */
const served = (r: ClassifiedPrintRecord): string => JSON.stringify(Object.fromEntries(SPEC_ORDER.map((k) => [k, r[k]])));

/** The body text values writePrintBody writes for `records`, one row each. */
function bodies(records: ClassifiedPrintRecord[]): string[] {
  const chunks: Buffer[] = [];
  const w = new CopyBinaryWriter((chunk) => chunks.push(Buffer.from(chunk)), 4096);
  w.header();
  for (const r of records) {
    w.row(1);
    writePrintBody(r, w);
    w.endRow();
  }
  w.end();
  const bytes = Buffer.concat(chunks);
  const out: string[] = [];
  let p = 19;
  for (let k = 0; k < records.length; k++) {
    const length = bytes.readInt32BE(p + 2);
    out.push(bytes.subarray(p + 6, p + 6 + length).toString());
    p += 6 + length;
  }
  return out;
}

describe('the stored print body', () => {
  it('is the JSON of exactly the 31 served fields, in the specification order', () => {
    const [body, nulls] = bodies([
      record,
      { ...record, ask: null, bid: null, delta: null, group_id: null, implied_volatility: null, otm_percent: null, underlying_price: null, flags: [] },
    ]);
    const parsed = JSON.parse(body as string) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([...SPEC_ORDER]);
    expect(body).toBe(served(record));
    expect(JSON.parse(nulls as string)).toMatchObject({ ask: null, group_id: null, underlying_price: null, flags: [] });
  });

  it('is what JSON.stringify writes, for every vocabulary word, flag list, boolean and number', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    const number = (): number => pick([Math.round(random() * 1e6) / 1e4, -Math.round(random() * 1e6) / 1e6, random(), Math.floor(random() * 1e5), 1e-7, 2 ** 40 + 0.5]);
    const records = Array.from({ length: 3000 }, (_, i): ClassifiedPrintRecord => ({
      ...record,
      ask: random() < 0.1 ? null : number(),
      bid: random() < 0.1 ? null : number(),
      contract_type: pick(['call', 'put'] as const),
      date_of_expiry: pick(['2026-11-20', '2026-12-18', '2027-01-15']),
      day_volume: i * 7,
      delta: random() < 0.1 ? null : number(),
      exchange: pick(['ise', 'cboe', 'unmapped_99']),
      flags: pick<ClassifiedPrintRecord['flags']>([[], ['iso'], ['iso', 'late', 'post_cash_close'], ['aggressor_hint', 'no_side']]),
      group_id: random() < 0.5 ? null : `g:SPXW:2026-11-20:6600000:C:2026-11-20:${i}`,
      id: `SPXW:2026-11-20:6600000:C:2026-11-20:${i}`,
      implied_volatility: random() < 0.1 ? null : number(),
      is_block: random() < 0.5,
      is_golden: random() < 0.5,
      is_unusual: random() < 0.5,
      open_interest: random() < 0.3 ? null : Math.floor(random() * 1e5),
      otm_percent: random() < 0.1 ? null : number(),
      premium: number(),
      price: number(),
      sentiment: pick(['bullish', 'bearish', 'neutral'] as const),
      session: pick(['rth', 'gth', 'curb', 'other'] as const),
      side: pick(['above_ask', 'at_ask', 'near_ask', 'mid', 'near_bid', 'at_bid', 'below_bid', 'unknown'] as const),
      side_confidence: number(),
      size: 1 + Math.floor(random() * 5000),
      strike: pick([4.5, 1234.5, 0.5, 6600, 6612.125]),
      timestamp: 1795185001010 + i,
      trade_type: pick(['sweep', 'split', 'single', 'multileg', 'cross', 'floor'] as const),
      underlying_price: random() < 0.1 ? null : number(),
      underlying_symbol: pick(['SPX', 'SPY', 'AAPL']),
    }));
    expect(bodies(records)).toEqual(records.map(served));
  });
});

/** The fields of the one row in binary COPY data: each value's bytes, null for NULL. */
function rowFields(bytes: Buffer): (Buffer | null)[] {
  let p = 19;
  const count = bytes.readInt16BE(p);
  p += 2;
  const fields: (Buffer | null)[] = [];
  for (let f = 0; f < count; f++) {
    const length = bytes.readInt32BE(p);
    p += 4;
    fields.push(length < 0 ? null : bytes.subarray(p, p + length));
    p += Math.max(length, 0);
  }
  expect(bytes.readInt16BE(p)).toBe(-1);
  return fields;
}

/** A one-dimensional array's elements (array_send layout). */
function arrayElements(value: Buffer): Buffer[] {
  if (value.readInt32BE(0) === 0) return [];
  const n = value.readInt32BE(12);
  const out: Buffer[] = [];
  let p = 20;
  for (let k = 0; k < n; k++) {
    const length = value.readInt32BE(p);
    out.push(value.subarray(p + 4, p + 4 + length));
    p += 4 + length;
  }
  return out;
}

describe('the binary COPY row', () => {
  const facts: PrintRowFacts = {
    contractId: 7, root: 'SPXW', family: 'SPX', underlying: 'SPX', extendedConditions: [209, 219], quoteBid: 5, quoteAsk: null, quoteTs: 1795185001000, aggressorSide: null,
  };
  const written = (r: ClassifiedPrintRecord): (Buffer | null)[] => {
    const chunks: Buffer[] = [];
    const w = new CopyBinaryWriter((chunk) => chunks.push(chunk));
    w.header();
    writePrintRow(r, facts, w);
    w.end();
    return rowFields(Buffer.concat(chunks));
  };

  it('holds every column in order in the binary form of its type, null as NULL, the body verbatim', () => {
    const fields = written(record);
    const field = (name: (typeof PRINT_COPY_COLUMNS)[number]): Buffer | null => fields[PRINT_COPY_COLUMNS.indexOf(name)] ?? null;
    expect(fields).toHaveLength(PRINT_COPY_COLUMNS.length);
    // 2026-11-20: 9820 days after 2000-01-01.
    expect(field('trading_date')?.readInt32BE(0)).toBe(9820);
    expect(field('contract_id')?.readBigInt64BE(0)).toBe(7n);
    expect(field('sequence')?.readBigInt64BE(0)).toBe(2n);
    expect(field('id')?.toString()).toBe(record.id);
    expect(field('family')?.toString()).toBe('SPX');
    expect(field('ts')?.readBigInt64BE(0)).toBe(1795185001010n);
    expect(field('strike')?.readDoubleBE(0)).toBe(6600);
    expect(field('price')?.readDoubleBE(0)).toBe(5.1);
    expect(field('size')?.readInt32BE(0)).toBe(20);
    expect(arrayElements(field('extended_conditions') as Buffer).map((e) => e.readInt32BE(0))).toEqual([209, 219]);
    expect(arrayElements(field('flags') as Buffer).map((e) => e.toString())).toEqual(['iso']);
    expect(field('group_id')?.toString()).toBe(record.group_id);
    expect(field('is_unusual')?.[0]).toBe(1);
    expect(field('open_interest')).toBeNull();
    expect(field('implied_volatility')?.readDoubleBE(0)).toBe(0.128522);
    expect(field('quote_bid')?.readDoubleBE(0)).toBe(5);
    expect(field('quote_ask')).toBeNull();
    expect(field('quote_ts')?.readBigInt64BE(0)).toBe(1795185001000n);
    expect(field('aggressor_side')).toBeNull();
    expect(field('cancelled')?.[0]).toBe(0);
    expect(field('body')?.toString()).toBe(served(record));
  });

  it('writes an empty flags list and no extended conditions as empty arrays', () => {
    const fields = written({ ...record, flags: [], group_id: null });
    expect(arrayElements(fields[PRINT_COPY_COLUMNS.indexOf('flags')] as Buffer)).toEqual([]);
    expect(fields[PRINT_COPY_COLUMNS.indexOf('group_id')]).toBeNull();
  });
});
