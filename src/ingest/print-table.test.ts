import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PrintSessionResolver } from './print-session.js';
import { readPrintTable, type ReadPrints } from './print-table.js';
import { lineNumberAt, splitForTwoReaders } from './records.js';
import { emptyResult, type MarketLoadResult } from './source.js';
import { VENDOR_ADAPTERS, type VendorAdapter } from './vendors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'print-table-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const OPEN = 1795185000000; // 2026-11-20 09:30 ET
const GTH = Date.parse('2026-11-21T01:00:00Z'); // Thursday 20:00 ET: overnight, next trading date

/** A canonical prints file of `n` prints (about 100 bytes each) with bad rows and two trading dates. */
function canonicalFile(name: string, n: number, eol: string): string {
  const lines = ['# simulated', 'option_symbol,timestamp,sequence,price,size,exchange_code,condition_code,extended_conditions,aggressor_side,bid,ask,quote_timestamp'];
  for (let i = 0; i < n; i++) {
    const strike = String((6500 + (i % 40) * 5) * 1000).padStart(8, '0');
    const symbol = `${(i % 3 === 0 ? 'SPX' : 'SPXW').padEnd(6)}261120${i % 2 === 0 ? 'C' : 'P'}${strike}`;
    const ts = i % 97 === 0 ? GTH - 86_400_000 + i : OPEN + i * 10;
    if (i % 211 === 5) lines.push(`BAD SYMBOL,${ts},${i},1.5,1,302,209,,,1.4,1.6,${ts}`);
    else if (i % 307 === 9) lines.push(`${symbol},${ts},${i},1.5`);
    else if (i % 401 === 13) lines.push('');
    else lines.push(`${symbol},${ts},${i},${(1 + (i % 50) / 10).toFixed(2)},${1 + (i % 7)},${302 + (i % 5)},${i % 13 === 0 ? 219 : 209},${i % 17 === 0 ? '232|236' : ''},${i % 5 === 0 ? 'buy' : ''},1.4,1.6,${ts - 5}`);
    if (i % 503 === 0) lines.push(lines[lines.length - 1] as string); // a repeat
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join(eol) + eol);
  return file;
}

/** The file in the Massive trades layout, whose adapter takes a print's line number as its sequence. */
function massiveFile(name: string, n: number): string {
  const lines = ['ticker,conditions,correction,exchange,participant_timestamp,price,sip_timestamp,size'];
  for (let i = 0; i < n; i++) {
    const ns = `${OPEN + i * 10}000123`;
    lines.push(i % 333 === 7 ? `O:SPY261120C00660000,209,0,302,${ns},3.15,not-a-time,5` : `O:SPY261120${i % 2 ? 'C' : 'P'}00${660 + (i % 9)}000,"219,209",0,${302 + (i % 4)},${ns},3.15,${ns},${1 + (i % 11)}`);
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function read(file: string, adapter: VendorAdapter | null, twoReadersMinBytes: number): Promise<{ prints: ReadPrints; result: MarketLoadResult }> {
  const result = emptyResult(file, adapter?.kind ?? 'prints');
  const prints = await readPrintTable(file, adapter, result, { twoReadersMinBytes }, new PrintSessionResolver());
  return { prints, result };
}

/** Each print as a plain row: its fields, its contract's symbol and its trading date by name. */
function rows({ table, dateIndex }: ReadPrints): unknown[][] {
  const dates = new Map([...dateIndex].map(([date, index]) => [index, date]));
  const out: unknown[][] = [];
  for (let i = 0; i < table.length; i++) {
    out.push([
      table.line[i],
      table.slots[table.slot[i] as number]?.ref.symbol,
      table.timestamp[i],
      table.sequence[i],
      table.price[i],
      table.size[i],
      table.exchangeCode[i],
      table.conditionCode[i],
      table.extendedLists[table.extended[i] as number],
      table.quoteBid[i],
      table.quoteAsk[i],
      table.quoteTs[i],
      dates.get(table.dateIndex[i] as number),
      table.bits[i],
      table.session[i],
      table.aggressor[i],
    ]);
  }
  return out;
}

describe('reading a large file with two readers', () => {
  for (const [name, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
  ] as const) {
    it(`gives the prints, line numbers, rejects and counts of one pass (${name} line ends)`, async () => {
      const file = canonicalFile(`prints-${name}.csv`, 6000, eol);
      expect(await splitForTwoReaders(file, 0)).not.toBeNull();
      const one = await read(file, null, Infinity);
      const two = await read(file, null, 0);
      expect(one.prints.table.length).toBeGreaterThan(5000);
      expect(new Set(one.prints.dateIndex.keys())).toEqual(new Set(['2026-11-20', '2026-11-19']));
      expect(rows(two.prints)).toEqual(rows(one.prints));
      expect(two.result.rejected).toEqual(one.result.rejected);
      expect(one.result.rejected.length).toBeGreaterThan(40);
      // Rejects from both halves, numbered as lines of the whole file.
      const text = fs.readFileSync(file, 'utf8').split(eol);
      for (const reject of one.result.rejected) expect(`${text[reject.line - 1]} ${reject.reason}`).toMatch(/^BAD SYMBOL|,1\.5 expected 12 columns, found 4$/);
      expect(two.result.read).toBe(one.result.read);
      expect(two.result.skipped).toBe(one.result.skipped);
    });
  }

  it('numbers the second half as lines of the whole file, which a vendor layout may use as the sequence', async () => {
    const file = massiveFile('massive-trades.csv', 4000);
    const adapter = VENDOR_ADAPTERS['massive-trades'];
    const one = await read(file, adapter, Infinity);
    const two = await read(file, adapter, 0);
    expect(rows(two.prints)).toEqual(rows(one.prints));
    expect(two.result.rejected).toEqual(one.result.rejected);
    const last = two.prints.table.length - 1;
    expect(two.prints.table.sequence[last]).toBe(4001);
    expect(two.prints.table.line[last]).toBe(4001);
  });

  it('splits only files it can: large enough, uncompressed, with a head and \\n line breaks', async () => {
    const small = path.join(dir, 'small.csv');
    fs.writeFileSync(small, 'option_symbol,timestamp\n');
    expect(await splitForTwoReaders(small, 0)).toBeNull();
    const crOnly = path.join(dir, 'cr.csv');
    fs.writeFileSync(crOnly, `a,b\r${'1,2\r'.repeat(50_000)}`);
    expect(await splitForTwoReaders(crOnly, 0)).toBeNull();
    const gzip = path.join(dir, 'gz.csv');
    fs.writeFileSync(gzip, Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(200_000)]));
    expect(await splitForTwoReaders(gzip, 0)).toBeNull();
    const big = canonicalFile('big.csv', 3000, '\n');
    const split = await splitForTwoReaders(big, 0);
    expect(split?.head).toEqual({ format: 'csv', header: expect.arrayContaining(['option_symbol', 'quote_timestamp']) as unknown });
    const bytes = fs.readFileSync(big);
    expect(bytes[(split?.at as number) - 1]).toBe(0x0a);
    expect(await lineNumberAt(big, split?.at as number)).toBe(bytes.subarray(0, split?.at).toString().split('\n').length);
    expect(await splitForTwoReaders(big, bytes.length + 1)).toBeNull();
  });
});
