/**
 * The binary COPY writer against the byte layout of PostgreSQL's documentation (COPY, "Binary
 * Format"; array_send and date_send for the array and date forms): signature and header, field
 * count, lengths, NULL as -1, network byte order, dates as days from 2000-01-01.
 */
import { describe, expect, it } from 'vitest';
import { CopyBinaryWriter } from './copy-binary.js';

function written(write: (w: CopyBinaryWriter) => void, chunkBytes?: number): { bytes: Buffer; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const w = new CopyBinaryWriter((chunk) => chunks.push(Buffer.from(chunk)), chunkBytes);
  write(w);
  w.end();
  return { bytes: Buffer.concat(chunks), chunks };
}

/** The bytes of one row written by `write`, without the signature and trailer. */
function row(fields: number, write: (w: CopyBinaryWriter) => void): string {
  const { bytes } = written((w) => {
    w.header();
    w.row(fields);
    write(w);
    w.endRow();
  });
  return bytes.subarray(19, -2).toString('hex');
}

describe('CopyBinaryWriter', () => {
  it('opens with the signature, flags and header extension, and ends with the trailer -1', () => {
    const { bytes } = written((w) => w.header());
    expect(bytes.toString('hex')).toBe(`${Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1').toString('hex')}0000000000000000ffff`);
  });

  it('writes integers, floats and booleans in network byte order with their lengths', () => {
    expect(row(1, (w) => w.int4(209))).toBe('0001' + '00000004' + '000000d1');
    expect(row(1, (w) => w.int4(-2))).toBe('0001' + '00000004' + 'fffffffe');
    expect(row(1, (w) => w.int8(1795185000024))).toBe('0001' + '00000008' + '000001a1f95d3e58');
    expect(row(1, (w) => w.int8(-1))).toBe('0001' + '00000008' + 'ffffffffffffffff');
    expect(row(1, (w) => w.int8(-4294967297))).toBe('0001' + '00000008' + 'fffffffeffffffff');
    // 5.36 as an IEEE 754 double.
    expect(row(1, (w) => w.float8(5.36))).toBe('0001' + '00000008' + '401570a3d70a3d71');
    expect(row(2, (w) => (w.bool(true), w.bool(false)))).toBe('0002' + '0000000101' + '0000000100');
  });

  it('writes NULL as the length -1 with no value', () => {
    expect(row(4, (w) => (w.null(), w.int4OrNull(null), w.float8OrNull(null), w.textOrNull(null)))).toBe('0004' + 'ffffffff'.repeat(4));
    expect(row(1, (w) => w.int8OrNull(7))).toBe('0001' + '00000008' + '0000000000000007');
  });

  it('writes dates as days from 2000-01-01, and refuses what is not a date', () => {
    expect(row(1, (w) => w.date('2000-01-01'))).toBe('0001' + '00000004' + '00000000');
    expect(row(1, (w) => w.date('1999-12-31'))).toBe('0001' + '00000004' + 'ffffffff');
    // 2026-11-20 is 9820 days after 2000-01-01.
    expect(row(1, (w) => w.date('2026-11-20'))).toBe('0001' + '00000004' + '0000265c');
    expect(() => row(1, (w) => w.date('2026-02-30'))).toThrow(RangeError);
    expect(() => row(1, (w) => w.date('20261120'))).toThrow(RangeError);
  });

  it('writes text as UTF-8 with its byte length, short or long, ASCII or not', () => {
    expect(row(1, (w) => w.text('SPXW'))).toBe('0001' + '00000004' + Buffer.from('SPXW').toString('hex'));
    expect(row(1, (w) => w.text('é'))).toBe('0001' + '00000002' + 'c3a9');
    const long = `${'x'.repeat(100)}→`;
    expect(row(1, (w) => w.text(long))).toBe('0001' + '00000067' + Buffer.from(long).toString('hex'));
    expect(row(1, (w) => w.text('{"a":"é"}'))).toBe('0001' + '0000000a' + Buffer.from('{"a":"é"}').toString('hex'));
    expect(row(1, (w) => w.text(''))).toBe('0001' + '00000000');
  });

  it('writes a text value in pieces: bytes, strings and numbers as JavaScript writes them, its length before it', () => {
    const pieces = row(1, (w) => {
      w.openText();
      w.appendBytes(Buffer.from('{"a":'));
      w.appendNumber(-0.1517);
      w.appendAscii(',"é":"');
      w.appendAscii('x'.repeat(30));
      w.appendBytes(Buffer.from('"}'));
      w.closeText();
    });
    const text = `{"a":-0.1517,"é":"${'x'.repeat(30)}"}`;
    expect(pieces).toBe('0001' + Buffer.byteLength(text).toString(16).padStart(8, '0') + Buffer.from(text).toString('hex'));
  });

  it('writes every number as String() does: integers, six-decimal values by digit loops, the rest through String()', () => {
    /** mulberry32: a small deterministic generator. */
    let seed = 20261125;
    const random = (): number => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const values = [
      0,
      -0,
      1,
      -1,
      9,
      10,
      1795185001010,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2 ** 53,
      1e21,
      1.5e300,
      -2.5e-300,
      0.1,
      0.2,
      0.1 + 0.2,
      1e-6,
      -1e-6,
      1e-7,
      5e-7,
      0.000001,
      0.0000015,
      1234.5,
      4.5,
      0.5,
      6600.25,
      0.333333,
      0.3333333,
      1 / 3,
      2 ** 33 - 0.5,
      2 ** 33 + 0.5,
      -(2 ** 33) + 0.25,
      8589934591.999999,
      123456789.123456,
      0.999999,
      0.9999995,
      99.99,
      1e-5,
    ];
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(random() * 14 - 4);
      const raw = (random() - 0.3) * magnitude;
      const decimals = Math.floor(random() * 9);
      values.push(raw, Math.round(raw * 10 ** decimals) / 10 ** decimals, Math.floor(raw));
    }
    const { bytes } = written((w) => {
      w.header();
      for (const v of values) {
        w.row(1);
        w.openText();
        w.appendNumber(v);
        w.closeText();
        w.endRow();
      }
    }, 4096);
    let p = 19;
    const read: string[] = [];
    for (let k = 0; k < values.length; k++) {
      const length = bytes.readInt32BE(p + 2);
      read.push(bytes.subarray(p + 6, p + 6 + length).toString());
      p += 6 + length;
    }
    expect(read).toEqual(values.map((v) => String(v)));
  });

  it('writes one-dimensional arrays with their element type, and empty arrays with no dimension', () => {
    const header = (n: number, oid: string): string => '00000001' + '00000000' + oid + n.toString(16).padStart(8, '0') + '00000001';
    // int4 is type 23, text 25.
    expect(row(1, (w) => w.int4Array([209, 219]))).toBe(
      '0001' + '00000024' + header(2, '00000017') + '00000004000000d1' + '00000004000000db',
    );
    expect(row(1, (w) => w.int4Array([]))).toBe('0001' + '0000000c' + '00000000' + '00000000' + '00000017');
    expect(row(1, (w) => w.textArray(['iso', 'é']))).toBe(
      '0001' + '00000021' + header(2, '00000019') + '00000003' + Buffer.from('iso').toString('hex') + '00000002c3a9',
    );
    expect(row(1, (w) => w.textArray([]))).toBe('0001' + '0000000c' + '00000000' + '00000000' + '00000019');
  });

  it('refuses integers that do not fit the column type', () => {
    expect(() => row(1, (w) => w.int4(2 ** 31))).toThrow('value 2147483648 is out of range for type integer');
    expect(() => row(1, (w) => w.int4(1.5))).toThrow('1.5 is not an integer (type integer)');
    expect(() => row(1, (w) => w.int8(2 ** 53))).toThrow(/^value 9007199254740992 is beyond/);
    expect(() => row(1, (w) => w.int4Array([1, 0.5]))).toThrow(RangeError);
  });

  it('sends whole rows only, and carries a row larger than a chunk into a larger buffer', () => {
    const big = 'y'.repeat(5000);
    const { bytes, chunks } = written((w) => {
      w.header();
      for (let i = 0; i < 50; i++) {
        w.row(2);
        w.int4(i);
        if (i === 20) w.textArray(['a', big, 'b']);
        else w.text(`row ${i}`);
        w.endRow();
      }
    }, 256);
    expect(chunks.length).toBeGreaterThan(5);
    // Every chunk after the first starts at a row (its field count, 2).
    for (const chunk of chunks.slice(1, -1)) expect(chunk.readInt16BE(0)).toBe(2);
    // The rows read back in order.
    let p = 19;
    for (let i = 0; i < 50; i++) {
      expect(bytes.readInt16BE(p)).toBe(2);
      expect(bytes.readInt32BE(p + 6)).toBe(i);
      const length = bytes.readInt32BE(p + 10);
      if (i === 20) expect(length).toBe(20 + 4 * 3 + 1 + 5000 + 1);
      else expect(bytes.subarray(p + 14, p + 14 + length).toString()).toBe(`row ${i}`);
      p += 14 + length;
    }
    expect(bytes.readInt16BE(p)).toBe(-1);
    expect(p + 2).toBe(bytes.length);
  });
});
