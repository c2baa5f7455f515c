/**
 * The prints row of binary COPY (PRINT_ROW): the COPY statement's column list is the table's
 * column order, and a written row holds as many fields as there are columns, each in the binary
 * form of its column's type.
 */
import { describe, expect, it } from 'vitest';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import { PRINT_COPY_COLUMNS, PRINT_ROW, writePrintRow, type PrintRowFacts } from './bulk-copy.js';
import { CopyBinaryWriter } from './copy-binary.js';
import { arrayElements, copyRows } from './copy-binary.fixtures.js';

const record: ClassifiedPrintRecord = {
  ask: 5.1,
  bid: 5,
  condition_code: 219,
  contract_type: 'call',
  date_of_expiry: '2026-11-20',
  day_volume: 32,
  days_to_expiry: 0,
  delta: 0.33492,
  exchange: 'ise',
  exchange_code: 308,
  flags: ['iso'],
  group_id: 'g:SPXW:2026-11-20:6600000:C:2026-11-20:1',
  id: 'SPXW:2026-11-20:6600000:C:2026-11-20:2',
  implied_volatility: 0.128522,
  is_block: false,
  is_golden: false,
  is_unusual: true,
  open_interest: null,
  otm_percent: -0.1517,
  premium: 10200,
  price: 5.1,
  sentiment: 'bullish',
  session: 'rth',
  side: 'at_ask',
  side_confidence: 1,
  size: 20,
  strike: 6600,
  timestamp: 1795185001010,
  trade_type: 'sweep',
  underlying_price: 6590,
  underlying_symbol: 'SPXW',
  cancelled: false,
  contract_key: 'SPXW:2026-11-20:6600000:C',
  trading_date: '2026-11-20',
  sequence: 2,
};

/** A stand-in for the served body (ingest/print-body.ts): the print's id in a text value of its own. */
const facts: PrintRowFacts = {
  contractId: 7,
  root: 'SPXW',
  family: 'SPX',
  underlying: 'SPX',
  extendedConditions: [209, 219],
  quoteBid: 5,
  quoteAsk: null,
  quoteTs: 1795185001000,
  aggressorSide: null,
  writeBody: (r, w) => {
    w.openText();
    w.appendAscii(`body of ${r.id}`);
    w.closeText();
  },
};

function written(r: ClassifiedPrintRecord, f: PrintRowFacts = facts): (Buffer | null)[] {
  const chunks: Buffer[] = [];
  const w = new CopyBinaryWriter((chunk) => chunks.push(chunk));
  w.header();
  writePrintRow(r, f, w);
  w.end();
  const rows = copyRows(Buffer.concat(chunks));
  expect(rows).toHaveLength(1);
  return rows[0] ?? [];
}

describe('the prints COPY columns', () => {
  it("are the row table's columns in its order, each once", () => {
    expect(PRINT_COPY_COLUMNS).toEqual(PRINT_ROW.map(([column]) => column));
    expect(new Set(PRINT_COPY_COLUMNS).size).toBe(PRINT_COPY_COLUMNS.length);
    expect(PRINT_COPY_COLUMNS[0]).toBe('trading_date');
    expect(PRINT_COPY_COLUMNS.at(-1)).toBe('body');
  });
});

describe('the binary COPY row', () => {
  it('holds every column in order in the binary form of its type, null as NULL, the body as its writer wrote it', () => {
    const fields = written(record);
    const field = (name: (typeof PRINT_COPY_COLUMNS)[number]): Buffer | null => fields[PRINT_COPY_COLUMNS.indexOf(name)] ?? null;
    expect(fields).toHaveLength(PRINT_COPY_COLUMNS.length);
    // 2026-11-20: 9820 days after 2000-01-01.
    expect(field('trading_date')?.readInt32BE(0)).toBe(9820);
    expect(field('contract_id')?.readBigInt64BE(0)).toBe(7n);
    expect(field('sequence')?.readBigInt64BE(0)).toBe(2n);
    expect(field('id')?.toString()).toBe(record.id);
    expect(field('root')?.toString()).toBe('SPXW');
    expect(field('family')?.toString()).toBe('SPX');
    expect(field('underlying')?.toString()).toBe('SPX');
    expect(field('ts')?.readBigInt64BE(0)).toBe(1795185001010n);
    expect(field('session')?.toString()).toBe('rth');
    expect(field('contract_type')?.toString()).toBe('call');
    expect(field('date_of_expiry')?.readInt32BE(0)).toBe(9820);
    expect(field('strike')?.readDoubleBE(0)).toBe(6600);
    expect(field('price')?.readDoubleBE(0)).toBe(5.1);
    expect(field('size')?.readInt32BE(0)).toBe(20);
    expect(field('premium')?.readDoubleBE(0)).toBe(10200);
    expect(field('exchange_code')?.readInt32BE(0)).toBe(308);
    expect(field('exchange')?.toString()).toBe('ise');
    expect(field('condition_code')?.readInt32BE(0)).toBe(219);
    expect(arrayElements(field('extended_conditions') as Buffer).map((e) => e.readInt32BE(0))).toEqual([209, 219]);
    expect(field('side')?.toString()).toBe('at_ask');
    expect(field('side_confidence')?.readDoubleBE(0)).toBe(1);
    expect(field('sentiment')?.toString()).toBe('bullish');
    expect(field('trade_type')?.toString()).toBe('sweep');
    expect(arrayElements(field('flags') as Buffer).map((e) => e.toString())).toEqual(['iso']);
    expect(field('group_id')?.toString()).toBe(record.group_id);
    expect(field('is_block')?.[0]).toBe(0);
    expect(field('is_golden')?.[0]).toBe(0);
    expect(field('is_unusual')?.[0]).toBe(1);
    expect(field('day_volume')?.readInt32BE(0)).toBe(32);
    expect(field('open_interest')).toBeNull();
    expect(field('days_to_expiry')?.readInt32BE(0)).toBe(0);
    expect(field('otm_percent')?.readDoubleBE(0)).toBe(-0.1517);
    expect(field('implied_volatility')?.readDoubleBE(0)).toBe(0.128522);
    expect(field('delta')?.readDoubleBE(0)).toBe(0.33492);
    expect(field('underlying_price')?.readDoubleBE(0)).toBe(6590);
    expect(field('bid')?.readDoubleBE(0)).toBe(5);
    expect(field('ask')?.readDoubleBE(0)).toBe(5.1);
    expect(field('quote_bid')?.readDoubleBE(0)).toBe(5);
    expect(field('quote_ask')).toBeNull();
    expect(field('quote_ts')?.readBigInt64BE(0)).toBe(1795185001000n);
    expect(field('aggressor_side')).toBeNull();
    expect(field('cancelled')?.[0]).toBe(0);
    expect(field('body')?.toString()).toBe(`body of ${record.id}`);
  });

  it('writes an empty flags list and no extended conditions as empty arrays', () => {
    const fields = written({ ...record, flags: [], group_id: null }, { ...facts, extendedConditions: [], aggressorSide: 'sell' });
    expect(arrayElements(fields[PRINT_COPY_COLUMNS.indexOf('flags')] as Buffer)).toEqual([]);
    expect(arrayElements(fields[PRINT_COPY_COLUMNS.indexOf('extended_conditions')] as Buffer)).toEqual([]);
    expect(fields[PRINT_COPY_COLUMNS.indexOf('group_id')]).toBeNull();
    expect(fields[PRINT_COPY_COLUMNS.indexOf('aggressor_side')]?.toString()).toBe('sell');
  });
});
