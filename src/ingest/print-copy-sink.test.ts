import { describe, expect, it } from 'vitest';
import type { ClassifiedPrintRecord } from '../analytics/classification.js';
import { PRINT_COPY_COLUMNS, type PrintCopy } from '../db/bulk-copy.js';
import { arrayElements, copyRows } from '../db/copy-binary.fixtures.js';
import { CopySink } from './print-copy-sink.js';
import { printTable, RECORD, served, storeContracts } from './prints.fixtures.js';

/** A COPY that keeps what it is sent; `full` makes each write report a full connection. */
function capture(full = false): PrintCopy & { chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  return {
    chunks,
    write: (chunk) => (chunks.push(Buffer.from(chunk)), !full),
    drained: async () => undefined,
    end: async () => 0,
    abort: async () => undefined,
  };
}

function twoPrints(): ReturnType<typeof printTable> {
  const table = printTable([
    { symbol: 'SPXW  261120C06600000' },
    {
      symbol: 'SPY   261120P00660000',
      aggressorSide: 'buy',
      extendedConditions: [232, 236],
      quote: { bid: 3.1, ask: null, timestamp: 1795185000500 },
    },
  ]);
  storeContracts(table, 40);
  return table;
}

const recordOf = (sequence: number, id: string): ClassifiedPrintRecord => ({ ...RECORD, sequence, id });

describe('CopySink', () => {
  it('writes each classified print as a row with its contract, quote in force and conditions from the table, and its served body', () => {
    const table = twoPrints();
    table.setQuote(0, { bid: 5, ask: 5.2, timestamp: 1795184999000 });
    const copy = capture();
    const sink = new CopySink(table);
    sink.start(copy);
    sink.expect(0);
    sink.expect(1);
    const records = [recordOf(1, 'SPXW:2026-11-20:6600000:C:2026-11-20:1'), recordOf(2, 'SPY:2026-11-20:660000:P:2026-11-20:2')];
    for (const r of records) sink.print(r);
    sink.finish();
    expect(sink.output).toBe(2);
    const rows = copyRows(Buffer.concat(copy.chunks));
    const field = (row: number, name: (typeof PRINT_COPY_COLUMNS)[number]): Buffer | null =>
      rows[row]?.[PRINT_COPY_COLUMNS.indexOf(name)] ?? null;
    expect(rows.map((r) => r.length)).toEqual([PRINT_COPY_COLUMNS.length, PRINT_COPY_COLUMNS.length]);
    expect([field(0, 'contract_id')?.readBigInt64BE(0), field(1, 'contract_id')?.readBigInt64BE(0)]).toEqual([40n, 41n]);
    expect([field(0, 'root')?.toString(), field(0, 'family')?.toString(), field(0, 'underlying')?.toString()]).toEqual([
      'SPXW',
      'SPX',
      'SPX',
    ]);
    expect([field(1, 'root')?.toString(), field(1, 'underlying')?.toString()]).toEqual(['SPY', 'SPY']);
    expect(arrayElements(field(0, 'extended_conditions') as Buffer)).toEqual([]);
    expect(arrayElements(field(1, 'extended_conditions') as Buffer).map((e) => e.readInt32BE(0))).toEqual([232, 236]);
    expect([
      field(0, 'quote_bid')?.readDoubleBE(0),
      field(0, 'quote_ask')?.readDoubleBE(0),
      field(0, 'quote_ts')?.readBigInt64BE(0),
    ]).toEqual([5, 5.2, 1795184999000n]);
    expect([field(1, 'quote_bid')?.readDoubleBE(0), field(1, 'quote_ask'), field(1, 'quote_ts')?.readBigInt64BE(0)]).toEqual([
      3.1,
      null,
      1795185000500n,
    ]);
    expect([field(0, 'aggressor_side'), field(1, 'aggressor_side')?.toString()]).toEqual([null, 'buy']);
    expect(rows.map((_, k) => field(k, 'body')?.toString())).toEqual(records.map((r) => served(r)));
  });

  it('refuses a print out of input order, or with no COPY started', () => {
    const table = twoPrints();
    const sink = new CopySink(table);
    sink.start(capture());
    sink.expect(0);
    expect(() => sink.print(recordOf(2, 'second'))).toThrow(/out of order at print second/);
    expect(() => new CopySink(table).print(recordOf(1, 'first'))).toThrow(/out of order/);
    const idle = new CopySink(table);
    idle.expect(0);
    expect(() => idle.print(recordOf(1, 'first'))).toThrow(/no COPY started/);
  });

  it('says when the connection is full, and keeps the ids of prints cancelled after their output', () => {
    const table = twoPrints();
    const sink = new CopySink(table);
    sink.start(capture(true));
    expect(sink.blocked).toBe(false);
    sink.expect(0);
    sink.print(recordOf(1, 'first'));
    sink.finish();
    expect(sink.blocked).toBe(true);
    sink.cancel('first');
    expect(sink.cancelledIds).toEqual(['first']);
  });

  it('counts the prints output marked cancelled (each cancelled by a record of the file while held)', () => {
    const table = twoPrints();
    const sink = new CopySink(table);
    sink.start(capture());
    sink.expect(0);
    sink.expect(1);
    sink.print(recordOf(1, 'first'));
    sink.print({ ...recordOf(2, 'second'), cancelled: true, flags: ['cancelled'] });
    sink.finish();
    expect([sink.output, sink.cancelledPrints]).toEqual([2, 1]);
  });
});
