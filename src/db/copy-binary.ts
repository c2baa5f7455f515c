/**
 * Rows in PostgreSQL's binary COPY format (COPY … FROM STDIN WITH (FORMAT binary)), written into
 * large buffers handed on whole: the format of the documentation's "Binary Format" section of COPY.
 * - the stream opens with the 11-byte signature "PGCOPY\n\377\r\n\0", a 32-bit flags field (0) and a
 *   32-bit header-extension length (0), and closes with the 16-bit word -1;
 * - a row is a 16-bit field count, then per field a 32-bit byte length (-1 for NULL) and the value in
 *   its type's binary (send/receive) form, every integer in network byte order.
 * Each value is written in the binary form of the column's type (int4, int8, float8, bool, date,
 * text, int4[] and text[] here): PostgreSQL checks the lengths and array element types but not the
 * column types, so the caller writes each column with the method of its type.
 *
 * Why binary: PostgreSQL reads text COPY byte by byte (escapes, delimiters) and parses every number
 * and date, which for a wide row with a long text column (a print and its served body) costs far
 * more than the binary read of the same rows. Text values are written as UTF-8 by a byte loop (ASCII,
 * the usual case) or by Buffer.write, straight into the buffer.
 */

/** "PGCOPY\n\377\r\n\0", flags, header-extension length. */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]);
const INT4_OID = 23;
const TEXT_OID = 25;
const TWO_32 = 4294967296;
/** 2000-01-01, PostgreSQL's date epoch, in days after 1970-01-01. */
const PG_EPOCH_DAYS = 10_957;
const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Bytes a row may take before the writer checks again (larger values ask for room themselves). */
const ROW_HEADROOM = 1024;
/** Strings up to this length are written by the byte loop; longer ones by Buffer.write. */
const LOOP_MAX = 64;
/** The same for a piece of a text value (appendAscii): longer pieces go faster by Buffer.write. */
const LOOP_MAX_PIECE = 24;
/** Bytes of the longest text a JavaScript number converts to ("-1.2345678901234567e-308"), and some. */
const NUMBER_MAX_BYTES = 32;
/** Numbers of at most six decimals below this size are written by digit loops (see appendNumber). */
const FIXED_LIMIT = 2 ** 33;
const FIXED_SCALE = 1e6;

/**
 * `value` as UTF-8 at `at` (room made by the caller): by a byte loop while it is ASCII and at most
 * `loopMax` long, else by Buffer.write. Returns the position after it.
 */
function utf8Into(b: Buffer, at: number, value: string, loopMax: number): number {
  const n = value.length;
  if (n > loopMax) return at + b.write(value, at, 'utf8');
  let p = at;
  for (let k = 0; k < n; k++) {
    const c = value.charCodeAt(k);
    if (c > 0x7f) return at + b.write(value, at, 'utf8');
    b[p++] = c;
  }
  return p;
}

/** The decimal digits of a non-negative safe integer at `p`; returns the position after them. */
function writeDigits(b: Buffer, p: number, value: number): number {
  let length = 1;
  for (let t = value; t >= 10; t = Math.floor(t / 10)) length += 1;
  let v = value;
  for (let k = p + length - 1; k >= p; k--) {
    const q = Math.floor(v / 10);
    b[k] = 48 + (v - q * 10);
    v = q;
  }
  return p + length;
}

/** What PostgreSQL would say of the value in text COPY. */
function integerError(value: number, type: 'integer' | 'bigint'): RangeError {
  if (!Number.isInteger(value)) return new RangeError(`${value} is not an integer (type ${type})`);
  return new RangeError(
    type === 'integer'
      ? `value ${value} is out of range for type integer`
      : `value ${value} is beyond the integers a double holds exactly (type bigint)`,
  );
}

export class CopyBinaryWriter {
  private buf: Buffer;
  private view: DataView;
  private pos = 0;
  /** Where the row being written starts: bytes before it are whole rows, ready to send. */
  private rowStart = 0;
  private readonly days = new Map<string, number>();
  /** Where the text value being written in pieces starts, relative to the row (openText). */
  private textAt = 0;

  /**
   * @param send receives whole rows (and the signature and trailer), a buffer the writer no longer touches
   * @param chunkBytes rows gathered before a buffer is sent
   */
  constructor(
    private readonly send: (chunk: Buffer) => void,
    private readonly chunkBytes = 1 << 18,
  ) {
    this.buf = Buffer.allocUnsafe(chunkBytes + ROW_HEADROOM * 4);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  /** The signature and header: once, before the first row of a COPY. */
  header(): void {
    this.ensure(SIGNATURE.length);
    SIGNATURE.copy(this.buf, this.pos);
    this.pos += SIGNATURE.length;
    this.rowStart = this.pos;
  }

  /** Starts a row of `fields` values. */
  row(fields: number): void {
    this.rowStart = this.pos;
    this.ensure(ROW_HEADROOM);
    this.view.setInt16(this.pos, fields);
    this.pos += 2;
  }

  /** Ends a row; sends the rows gathered once they fill a chunk. */
  endRow(): void {
    this.rowStart = this.pos;
    if (this.pos >= this.chunkBytes) this.flush();
  }

  /** The trailer (-1), then everything not yet sent. */
  end(): void {
    this.ensure(2);
    this.view.setInt16(this.pos, -1);
    this.pos += 2;
    this.rowStart = this.pos;
    this.flush();
  }

  /** Sends the whole rows written so far. */
  flush(): void {
    if (this.rowStart === 0) return;
    const tail = this.pos - this.rowStart;
    const full = this.buf.subarray(0, this.rowStart);
    this.replace(Math.max(this.chunkBytes + ROW_HEADROOM * 4, tail * 2), tail);
    this.send(full);
  }

  null(): void {
    this.ensure(4);
    this.view.setInt32(this.pos, -1);
    this.pos += 4;
  }

  int4(value: number): void {
    if ((value | 0) !== value) throw integerError(value, 'integer');
    this.ensure(8);
    this.view.setInt32(this.pos, 4);
    this.view.setInt32(this.pos + 4, value);
    this.pos += 8;
  }

  int8(value: number): void {
    if (!Number.isSafeInteger(value)) throw integerError(value, 'bigint');
    this.ensure(12);
    const high = Math.floor(value / TWO_32);
    this.view.setInt32(this.pos, 8);
    this.view.setInt32(this.pos + 4, high);
    this.view.setUint32(this.pos + 8, value - high * TWO_32);
    this.pos += 12;
  }

  float8(value: number): void {
    this.ensure(12);
    this.view.setInt32(this.pos, 8);
    this.view.setFloat64(this.pos + 4, value);
    this.pos += 12;
  }

  int4OrNull(value: number | null): void {
    if (value === null) this.null();
    else this.int4(value);
  }

  int8OrNull(value: number | null): void {
    if (value === null) this.null();
    else this.int8(value);
  }

  float8OrNull(value: number | null): void {
    if (value === null) this.null();
    else this.float8(value);
  }

  textOrNull(value: string | null): void {
    if (value === null) this.null();
    else this.text(value);
  }

  bool(value: boolean): void {
    this.ensure(5);
    this.view.setInt32(this.pos, 1);
    this.buf[this.pos + 4] = value ? 1 : 0;
    this.pos += 5;
  }

  /** A calendar date given as YYYY-MM-DD. */
  date(iso: string): void {
    let days = this.days.get(iso);
    if (days === undefined) {
      const m = ISO_DATE.exec(iso);
      const ms = m === null ? NaN : Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      if (m === null || new Date(ms).toISOString().slice(0, 10) !== iso) throw new RangeError(`${iso} is not a date (YYYY-MM-DD)`);
      days = ms / MS_PER_DAY - PG_EPOCH_DAYS;
      this.days.set(iso, days);
    }
    this.ensure(8);
    this.view.setInt32(this.pos, 4);
    this.view.setInt32(this.pos + 4, days);
    this.pos += 8;
  }

  /** Text as UTF-8: a byte loop for short ASCII (the usual case), Buffer.write otherwise. */
  text(value: string): void {
    this.ensure(4 + value.length * 3);
    const at = this.pos;
    const end = utf8Into(this.buf, at + 4, value, LOOP_MAX);
    this.view.setInt32(at, end - at - 4);
    this.pos = end;
  }

  /**
   * Starts a text value written in pieces (appendBytes, appendAscii, appendNumber) and ended by
   * closeText: a long value composed of many parts (a print's served body) goes straight into the
   * buffer, with no string built for it first.
   */
  openText(): void {
    this.ensure(4);
    this.textAt = this.pos - this.rowStart;
    this.pos += 4;
  }

  /** Ends the text value opened by openText: its length goes before it. */
  closeText(): void {
    const at = this.rowStart + this.textAt;
    this.view.setInt32(at, this.pos - at - 4);
  }

  /** Bytes (UTF-8) into the text value being written. */
  appendBytes(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** A string as UTF-8 into the text value being written: short ASCII by the byte loop. */
  appendAscii(value: string): void {
    this.ensure(value.length * 3);
    this.pos = utf8Into(this.buf, this.pos, value, LOOP_MAX_PIECE);
  }

  /**
   * A finite number as JavaScript writes it (String(value), which is also its JSON) into the text
   * value being written. Safe integers and numbers of at most six decimals below 2^33 (prices,
   * premiums, strikes and the classifier's rounded ratios) are written by digit loops, about a tenth
   * of the cost of String(): such a number is the double nearest a decimal D of at most six decimals,
   * and JavaScript writes the shortest decimal that reads back as the same double. Any other decimal
   * that does has fewer significant digits and so differs from D by at least 1e-6, but two decimals
   * reading back as one double are less than its spacing apart, under 1e-6 below 2^33: so that
   * shortest decimal is D. Every other number goes through String().
   */
  appendNumber(value: number): void {
    this.ensure(NUMBER_MAX_BYTES);
    if (Number.isSafeInteger(value)) {
      const b = this.buf;
      let p = this.pos;
      if (value < 0) b[p++] = 45;
      this.pos = writeDigits(b, p, Math.abs(value));
      return;
    }
    if (value > -FIXED_LIMIT && value < FIXED_LIMIT) {
      const scaled = Math.round(value * FIXED_SCALE);
      if (scaled / FIXED_SCALE === value) {
        const b = this.buf;
        let p = this.pos;
        const magnitude = Math.abs(scaled);
        const whole = Math.floor(magnitude / FIXED_SCALE);
        let fraction = magnitude - whole * FIXED_SCALE;
        if (value < 0) b[p++] = 45;
        p = writeDigits(b, p, whole);
        // Not an integer (those took the first branch), so some fraction digit is not zero.
        b[p++] = 46;
        let digits = 6;
        while (fraction % 10 === 0) {
          fraction /= 10;
          digits -= 1;
        }
        for (let k = p + digits - 1; k >= p; k--) {
          const q = Math.floor(fraction / 10);
          b[k] = 48 + (fraction - q * 10);
          fraction = q;
        }
        this.pos = p + digits;
        return;
      }
    }
    this.appendAscii(String(value));
  }

  /** A one-dimensional int4[] (lower bound 1); empty: the zero-dimension array '{}'. */
  int4Array(values: readonly number[]): void {
    const n = values.length;
    this.ensure(24 + n * 8);
    const v = this.view;
    let p = this.pos;
    v.setInt32(p, n === 0 ? 12 : 20 + n * 8);
    p = this.arrayHeader(p + 4, n, INT4_OID);
    for (let k = 0; k < n; k++) {
      const value = values[k] as number;
      if ((value | 0) !== value) throw integerError(value, 'integer');
      v.setInt32(p, 4);
      v.setInt32(p + 4, value);
      p += 8;
    }
    this.pos = p;
  }

  /** A one-dimensional text[] (lower bound 1); empty: '{}'. */
  textArray(values: readonly string[]): void {
    const n = values.length;
    this.ensure(24);
    // Relative to the row: the elements may move the row to a new buffer.
    const at = this.pos - this.rowStart;
    this.pos = this.arrayHeader(this.pos + 4, n, TEXT_OID);
    for (let k = 0; k < n; k++) this.text(values[k] as string);
    this.view.setInt32(this.rowStart + at, this.pos - this.rowStart - at - 4);
  }

  /** ndim, has-null flag, element type, and the one dimension's length and lower bound when not empty. */
  private arrayHeader(p: number, n: number, oid: number): number {
    const v = this.view;
    v.setInt32(p, n === 0 ? 0 : 1);
    v.setInt32(p + 4, 0);
    v.setInt32(p + 8, oid);
    if (n === 0) return p + 12;
    v.setInt32(p + 12, n);
    v.setInt32(p + 16, 1);
    return p + 20;
  }

  /** Room for `bytes` more: whole rows are sent and the row being written moves to a new buffer. */
  private ensure(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const tail = this.pos - this.rowStart;
    const full = this.rowStart > 0 ? this.buf.subarray(0, this.rowStart) : null;
    this.replace(Math.max(this.chunkBytes + ROW_HEADROOM * 4, (tail + bytes) * 2), tail);
    if (full !== null) this.send(full);
  }

  /** A new buffer of `size` bytes holding the last `tail` bytes written (the row being written). */
  private replace(size: number, tail: number): void {
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, this.rowStart, this.pos);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
    this.rowStart = 0;
    this.pos = tail;
  }
}
