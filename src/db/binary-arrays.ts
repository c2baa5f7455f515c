/**
 * Columns sent as one array parameter each in PostgreSQL's binary form (the receive function of
 * the array type, array_recv), for the writes whose arrays are large: a valued book's columns
 * (db/position-books.ts storeBook), tens of thousands of numbers per column. node-pg sends a Buffer
 * parameter in binary, and the statement's cast (`$1::float8[]`) gives the parameter its type, so
 * PostgreSQL copies each element instead of parsing its text: the parse of the text literals
 * (array-literals.ts) was most of a book's store.
 *
 * The form: the number of dimensions (1; 0 for an empty array), a flag (1 when an element is NULL),
 * the element type's OID, then per dimension its length and lower bound (1), then each element as
 * its byte length (-1 for NULL) and its binary value, every integer in network byte order. The
 * element type must be the cast's: PostgreSQL refuses another ("wrong element type").
 */

const OIDS = { bool: 16, int8: 20, int4: 23, text: 25, float8: 701, date: 1082 } as const;
const TWO_32 = 4294967296;
/** 2000-01-01, PostgreSQL's date epoch, in days after 1970-01-01. */
const PG_EPOCH_DAYS = 10_957;
const MS_PER_DAY = 86_400_000;

/** The header of a one-dimensional array of `length` elements (an empty array has no dimension). */
function header(buffer: Buffer, oid: number, length: number, hasNull: boolean): number {
  if (length === 0) {
    buffer.writeInt32BE(0, 0);
    buffer.writeInt32BE(0, 4);
    buffer.writeUInt32BE(oid, 8);
    return 12;
  }
  buffer.writeInt32BE(1, 0);
  buffer.writeInt32BE(hasNull ? 1 : 0, 4);
  buffer.writeUInt32BE(oid, 8);
  buffer.writeInt32BE(length, 12);
  buffer.writeInt32BE(1, 16);
  return 20;
}

/** An array of fixed-size elements: `write` puts a non-null value at an offset. */
function fixedArray<T>(
  oid: number,
  size: number,
  values: readonly (T | null)[],
  write: (buffer: Buffer, value: T, at: number) => void,
): Buffer {
  let nulls = 0;
  for (const v of values) if (v === null || v === undefined) nulls += 1;
  const buffer = Buffer.allocUnsafe(20 + values.length * 4 + (values.length - nulls) * size);
  let at = header(buffer, oid, values.length, nulls > 0);
  for (const v of values) {
    if (v === null || v === undefined) {
      buffer.writeInt32BE(-1, at);
      at += 4;
    } else {
      buffer.writeInt32BE(size, at);
      write(buffer, v, at + 4);
      at += 4 + size;
    }
  }
  return at === buffer.length ? buffer : buffer.subarray(0, at);
}

/** float8[]: every double as it is (NaN, ±Infinity and -0 included). */
export function float8Array(values: readonly (number | null)[]): Buffer {
  return fixedArray(OIDS.float8, 8, values, (b, v, at) => b.writeDoubleBE(v, at));
}

/** A safe integer as an 8-byte two's complement at `at`. */
function writeInt8(buffer: Buffer, value: number, at: number): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not an integer an int8 column holds exactly`);
  const high = Math.floor(value / TWO_32);
  buffer.writeInt32BE(high, at);
  buffer.writeUInt32BE(value - high * TWO_32, at + 4);
}

/** int8[] of safe integers. */
export function int8Array(values: readonly (number | null)[]): Buffer {
  return fixedArray(OIDS.int8, 8, values, writeInt8);
}

/** int4[]. */
export function int4Array(values: readonly (number | null)[]): Buffer {
  return fixedArray(OIDS.int4, 4, values, (b, v, at) => b.writeInt32BE(v, at));
}

/** boolean[]. */
export function boolArray(values: readonly (boolean | null)[]): Buffer {
  return fixedArray(OIDS.bool, 1, values, (b, v, at) => b.writeUInt8(v ? 1 : 0, at));
}

/** date[] of YYYY-MM-DD dates: days from 2000-01-01. */
export function dateArray(values: readonly (string | null)[]): Buffer {
  // A column holds few distinct dates: each is parsed once.
  const days = new Map<string, number>();
  const dayOf = (v: string): number => {
    let day = days.get(v);
    if (day === undefined) {
      const ms = Date.parse(`${v}T00:00:00Z`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(ms)) throw new RangeError(`${v} is not a YYYY-MM-DD date`);
      day = ms / MS_PER_DAY - PG_EPOCH_DAYS;
      days.set(v, day);
    }
    return day;
  };
  return fixedArray(OIDS.date, 4, values, (b, v, at) => b.writeInt32BE(dayOf(v), at));
}

/** text[] (UTF-8). */
export function textArray(values: readonly (string | null)[]): Buffer {
  const bytes = values.map((v) => (v === null || v === undefined ? -1 : Buffer.byteLength(v)));
  const size = bytes.reduce((sum, n) => sum + 4 + Math.max(0, n), 0);
  const buffer = Buffer.allocUnsafe(20 + size);
  let at = header(
    buffer,
    OIDS.text,
    values.length,
    bytes.some((n) => n < 0),
  );
  values.forEach((v, i) => {
    const n = bytes[i] as number;
    buffer.writeInt32BE(n, at);
    at += 4;
    if (n > 0) at += buffer.write(v as string, at, 'utf8');
  });
  return buffer.subarray(0, at);
}
