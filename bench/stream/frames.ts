/**
 * What bench/stream's clients read messages with, apart from the socket: counting the prints of a
 * message (whole, or piece by piece as its bytes arrive), and reading the server's WebSocket frames
 * (RFC 6455) from pieces of bytes without keeping a copy of a message. Pure: frames.test.ts feeds
 * them frames split at every byte.
 */
import crypto from 'node:crypto';

/** What ends a prints message's head: the data array follows. */
export const DATA = Buffer.from(',"data":[');
const OPEN_BRACE = 0x7b;
const ASK = Buffer.from('"ask":');
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
/** The longest head kept (the JSON before DATA); a prints head is about 200 bytes, a compact one about 600. */
export const HEAD_BYTES = 4096;

/**
 * Counts the prints of a message's data from pieces of it (the bytes after DATA), a match split
 * between two pieces included. Full: each body of the data array is an OptionPrint object, which
 * has no object inside it and whose first key is `ask` (the contract's field order), so a print is
 * `{` followed by `"ask":`. Compact: each print is `[` followed by its first value, a number or
 * null (flags' `[` is followed by a quote or `]`).
 */
export class PieceCounter {
  count = 0;
  /** Full: bytes of `"ask":` matched after a `{` at the end of the last piece (-1: none); compact: 1 when the last piece ended with `[`. */
  private partial = -1;

  constructor(private readonly compact: boolean) {}

  /** Starts a message. */
  reset(): void {
    this.count = 0;
    this.partial = -1;
  }

  scan(buf: Buffer, from: number, to: number): void {
    const view = buf.subarray(from, to);
    if (this.compact) this.scanCompact(view);
    else this.scanFull(view);
  }

  private scanFull(view: Buffer): void {
    let k = this.partial;
    this.partial = -1;
    if (k >= 0) {
      let j = 0;
      while (k < ASK.length && j < view.length && view[j] === ASK[k]) {
        k += 1;
        j += 1;
      }
      if (k === ASK.length) this.count += 1;
      else if (j === view.length) this.partial = k;
    }
    for (let at = view.indexOf(OPEN_BRACE); at >= 0; at = view.indexOf(OPEN_BRACE, at + 1)) {
      let m = 0;
      while (m < ASK.length && at + 1 + m < view.length && view[at + 1 + m] === ASK[m]) m += 1;
      if (m === ASK.length) this.count += 1;
      else if (at + 1 + m === view.length) this.partial = m;
    }
  }

  private scanCompact(view: Buffer): void {
    if (this.partial === 1 && view.length > 0 && view[0] !== QUOTE && view[0] !== CLOSE_BRACKET) this.count += 1;
    this.partial = view.length === 0 ? this.partial : -1;
    for (let at = view.indexOf(OPEN_BRACKET); at >= 0; at = view.indexOf(OPEN_BRACKET, at + 1)) {
      if (at + 1 === view.length) this.partial = 1;
      else if (view[at + 1] !== QUOTE && view[at + 1] !== CLOSE_BRACKET) this.count += 1;
    }
  }
}

/** The prints of a whole message whose DATA starts at `dataAt`. */
export function countMessagePrints(raw: Buffer, dataAt: number, compact: boolean): number {
  const counter = new PieceCounter(compact);
  counter.scan(raw, dataAt + DATA.length, raw.length);
  return counter.count;
}

/** A frame's header (FIN set) for a payload of `n` bytes, with room for the mask when `masked`. */
function frameHeader(opcode: number, n: number, masked: boolean): Buffer {
  const lengthBytes = n < 126 ? 0 : n < 65_536 ? 2 : 8;
  const header = Buffer.alloc(2 + lengthBytes + (masked ? 4 : 0));
  header[0] = 0x80 | opcode;
  header[1] = (masked ? 0x80 : 0) | (lengthBytes === 0 ? n : lengthBytes === 2 ? 126 : 127);
  if (lengthBytes === 2) header.writeUInt16BE(n, 2);
  if (lengthBytes === 8) header.writeBigUInt64BE(BigInt(n), 2);
  return header;
}

/** A masked client frame of `opcode` with `payload`, as a client must send. */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const header = frameHeader(opcode, payload.length, true);
  const mask = crypto.randomBytes(4);
  mask.copy(header, header.length - 4);
  const masked = Buffer.allocUnsafe(payload.length);
  for (let i = 0; i < payload.length; i += 1) masked[i] = (payload[i] ?? 0) ^ (mask[i % 4] ?? 0);
  return Buffer.concat([header, masked]);
}

/** An unmasked server frame of `opcode` with `payload` (tests and the clients' warm-up). */
export function serverFrame(opcode: number, payload: Buffer): Buffer {
  return Buffer.concat([frameHeader(opcode, payload.length, false), payload]);
}

/** A text message as read: its head's fields and, for a prints message with data, its prints counted. */
export interface ReadMessage {
  seq: number;
  type: string;
  loadedAt: number | null;
  /** Prints counted in the data (0 without data). */
  prints: number;
  /** Whether the message had a data array (DATA was found). */
  data: boolean;
}

export interface FrameHandlers {
  /** A text message read whole; `received` is the time of the read that brought its last byte. */
  message(message: ReadMessage, received: number): void;
  /** A control frame (ping 0x9, pong 0xa, close 0x8) and its payload. */
  control(opcode: number, payload: Buffer): void;
  /** A frame this reader does not take (fragmented, masked, compressed) or a head over HEAD_BYTES: reading stops. */
  failed(reason: string): void;
}

/**
 * Reads a server's frames from pieces of bytes (each used before feed returns: the caller may
 * reuse its buffer). A text message's head (its JSON up to DATA, or the whole message when it has
 * no data) is kept, at most HEAD_BYTES, and parsed; the data after it is only counted
 * (PieceCounter), for prints messages, as it arrives.
 */
export class FrameReader {
  private readonly header = Buffer.alloc(14);
  private headerHave = 0;
  /** Payload bytes of the current frame still to read; -1 between frames. */
  private remaining = -1;
  private opcode = 0;
  private readonly head = Buffer.allocUnsafe(HEAD_BYTES);
  private headHave = 0;
  /** Whether the current text frame's head has ended (DATA found and parsed). */
  private headDone = false;
  private current: ReadMessage | null = null;
  private control: Buffer = Buffer.alloc(0);
  private stopped = false;
  private readonly counter: PieceCounter;

  constructor(
    compact: boolean,
    private readonly on: FrameHandlers,
  ) {
    this.counter = new PieceCounter(compact);
  }

  feed(buf: Buffer, from: number, to: number, received: number): void {
    let at = from;
    while (at < to && !this.stopped) {
      if (this.remaining < 0) {
        // The header: 2 bytes, then 0, 2 or 8 of length (a server's frames are not masked).
        while (at < to && this.headerHave < 2) this.header[this.headerHave++] = buf[at++] ?? 0;
        if (this.headerHave < 2) return;
        const b0 = this.header[0] ?? 0;
        const b1 = this.header[1] ?? 0;
        const lengthBytes = (b1 & 0x7f) === 126 ? 2 : (b1 & 0x7f) === 127 ? 8 : 0;
        while (at < to && this.headerHave < 2 + lengthBytes) this.header[this.headerHave++] = buf[at++] ?? 0;
        if (this.headerHave < 2 + lengthBytes) return;
        if ((b0 & 0x80) === 0 || (b1 & 0x80) !== 0 || (b0 & 0x70) !== 0) {
          this.fail('a fragmented, masked or compressed frame');
          return;
        }
        this.opcode = b0 & 0x0f;
        this.remaining =
          lengthBytes === 0 ? b1 & 0x7f : lengthBytes === 2 ? this.header.readUInt16BE(2) : Number(this.header.readBigUInt64BE(2));
        this.headerHave = 0;
        this.headHave = 0;
        this.headDone = false;
        this.current = null;
        this.control = Buffer.alloc(0);
      }
      const take = Math.min(this.remaining, to - at);
      if (this.opcode === 0x1) this.text(buf, at, at + take);
      else if (this.opcode >= 0x8) this.control = Buffer.concat([this.control, buf.subarray(at, at + take)]);
      at += take;
      this.remaining -= take;
      if (this.remaining > 0 || this.stopped) return;
      this.remaining = -1;
      if (this.opcode === 0x1) {
        const message = this.headDone ? this.current : this.parseHead(this.head.toString('utf8', 0, this.headHave), false);
        if (message === null) return;
        message.prints = message.data && message.type === 'prints' ? this.counter.count : 0;
        this.on.message(message, received);
      } else if (this.opcode >= 0x8) this.on.control(this.opcode, this.control);
    }
  }

  /** Payload bytes of a text frame: into the head until DATA, then counted. */
  private text(buf: Buffer, from: number, to: number): void {
    let at = from;
    if (!this.headDone) {
      const room = Math.min(to - at, HEAD_BYTES - this.headHave);
      buf.copy(this.head, this.headHave, at, at + room);
      const searchFrom = Math.max(0, this.headHave - DATA.length);
      this.headHave += room;
      at += room;
      const found = this.head.subarray(0, this.headHave).indexOf(DATA, searchFrom);
      if (found < 0) {
        if (this.headHave === HEAD_BYTES) this.fail(`a message head longer than ${HEAD_BYTES} bytes`);
        return;
      }
      this.headDone = true;
      this.current = this.parseHead(`${this.head.toString('utf8', 0, found)}}`, true);
      this.counter.reset();
      // The head's bytes after DATA are the data's first piece.
      if (found + DATA.length < this.headHave) this.counter.scan(this.head, found + DATA.length, this.headHave);
    }
    if (at < to) this.counter.scan(buf, at, to);
  }

  private parseHead(text: string, data: boolean): ReadMessage | null {
    try {
      const m = JSON.parse(text) as { seq?: unknown; type?: unknown; loaded_at?: unknown };
      return { seq: Number(m.seq), type: String(m.type), loadedAt: typeof m.loaded_at === 'number' ? m.loaded_at : null, prints: 0, data };
    } catch {
      this.fail(`a message head that is not JSON: ${text.slice(0, 80)}`);
      return null;
    }
  }

  private fail(reason: string): void {
    this.stopped = true;
    this.on.failed(reason);
  }
}

/**
 * A prints message as the service sends it (the head, then `count` prints of `fields` in the full
 * or compact format), with values of every kind a print has (numbers, null, strings, the flags
 * array, empty or not): for the tests and the clients' warm-up.
 */
export function samplePrintsMessage(seq: number, fields: readonly string[], count: number, compact: boolean): Buffer {
  const value = (field: string, k: number): unknown =>
    field === 'flags'
      ? k % 2 === 0
        ? []
        : ['late', 'sweep']
      : field === 'id'
        ? `SPXW:2026-11-20:5900000:C:2026-11-20:${k}`
        : k % 3 === 0
          ? null
          : k * 1.5;
  const prints = Array.from({ length: count }, (_, k) =>
    compact ? JSON.stringify(fields.map((f) => value(f, k))) : JSON.stringify(Object.fromEntries(fields.map((f) => [f, value(f, k)]))),
  );
  const format = compact ? `"format":"compact","fields":${JSON.stringify(fields)},` : '';
  return Buffer.from(
    `{"seq":${seq},"subscription":"s1","type":"prints","channel":"prints","replay":false,"trading_date":"2026-11-20","loaded_at":${1_763_650_000_000 + seq},${format}"data":[${prints.join(',')}]}`,
    'utf8',
  );
}
