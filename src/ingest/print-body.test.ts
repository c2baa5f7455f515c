import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import { CopyBinaryWriter } from '../db/copy-binary.js';
import { copyRows } from '../db/copy-binary.fixtures.js';
import { contractPrintFields, printBodyWriter, writePrintBody, type PrintBodyWriter } from './print-body.js';
import { RECORD, served, SPEC_ORDER } from './prints.fixtures.js';

/** The body text values `write` writes for `records`, one row each. */
function bodies(records: ClassifiedPrintRecord[], write: PrintBodyWriter = writePrintBody): string[] {
  const chunks: Buffer[] = [];
  const w = new CopyBinaryWriter((chunk) => chunks.push(Buffer.from(chunk)), 4096);
  w.header();
  for (const r of records) {
    w.row(1);
    write(r, w);
    w.endRow();
  }
  w.end();
  return copyRows(Buffer.concat(chunks)).map(([body]) => body?.toString() ?? 'NULL');
}

describe('the stored print body', () => {
  it('is the JSON of exactly the 31 served fields, in the specification order', () => {
    const [body, nulls] = bodies([
      RECORD,
      {
        ...RECORD,
        ask: null,
        bid: null,
        delta: null,
        group_id: null,
        implied_volatility: null,
        otm_percent: null,
        underlying_price: null,
        flags: [],
      },
    ]);
    const parsed = JSON.parse(body as string) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual([...SPEC_ORDER]);
    expect(body).toBe(served(RECORD));
    expect(JSON.parse(nulls as string)).toMatchObject({ ask: null, group_id: null, underlying_price: null, flags: [] });
  });

  it('is what JSON.stringify writes, for every vocabulary word, flag list, boolean and number', () => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
    const number = (): number =>
      pick([
        Math.round(random() * 1e6) / 1e4,
        -Math.round(random() * 1e6) / 1e6,
        random(),
        Math.floor(random() * 1e5),
        1e-7,
        2 ** 40 + 0.5,
      ]);
    const records = Array.from({ length: 3000 }, (_, i): ClassifiedPrintRecord => ({
      ...RECORD,
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
      sentiment: pick(['bullish', 'bearish', 'neutral', 'unknown'] as const),
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
    expect(bodies(records)).toEqual(records.map((r) => served(r)));
  });
});

describe('the body field order', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'print-body-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is the contract's Print schema's", () => {
    expect(contractPrintFields()).toEqual([...SPEC_ORDER]);
  });

  it('follows the fields it is given, whatever their order, the constant parts joined around each value', () => {
    const shuffled = [...SPEC_ORDER].sort((a, b) => b.localeCompare(a));
    const rotated = [...SPEC_ORDER.slice(11), ...SPEC_ORDER.slice(0, 11)];
    const nulls: ClassifiedPrintRecord = { ...RECORD, ask: null, group_id: null, flags: [], underlying_price: null, is_block: true };
    for (const order of [shuffled, rotated]) {
      expect(bodies([RECORD, nulls], printBodyWriter(order))).toEqual([served(RECORD, order), served(nulls, order)]);
    }
  });

  it('fails, naming them, when a field has no writer, a writer no field, or a field comes twice', () => {
    expect(() => printBodyWriter([...SPEC_ORDER, 'premium_usd'])).toThrow(/fields without a writer: premium_usd/);
    expect(() => printBodyWriter(SPEC_ORDER.filter((f) => f !== 'price' && f !== 'side'))).toThrow(/writers without a field: price, side/);
    expect(() => printBodyWriter([...SPEC_ORDER, 'id'])).toThrow(/fields named twice: id/);
  });

  it('is read from the contract file given, which must have an OptionPrint schema', () => {
    const file = path.join(dir, 'contract.yaml');
    fs.writeFileSync(
      file,
      'components:\n  schemas:\n    OptionPrint:\n      properties:\n        price: { type: number }\n        id: { type: string }\n',
    );
    expect(contractPrintFields(file)).toEqual(['price', 'id']);
    fs.writeFileSync(file, 'components:\n  schemas:\n    Trade: {}\n');
    expect(() => contractPrintFields(file)).toThrow(/has no components.schemas.OptionPrint.properties/);
  });
});
