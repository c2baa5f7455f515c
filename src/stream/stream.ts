/**
 * One client's stream: its subscriptions, the sequence number of its messages and the last of them,
 * kept so that a client that reconnects with the last sequence it read gets the rest (within the
 * resume window, without duplicates or gaps). One connection at a time: a resuming connection
 * replaces the previous one. A connection whose send buffer passes the limit is closed as a slow
 * consumer; its stream stays resumable like any other.
 *
 * A message is `{"seq":N,` + a head of this stream's own (its subscription id, or nothing) + a body
 * (`"type":…}`). A body built once for a group of subscriptions is one Buffer that every stream of
 * the group sends and keeps, so a batch of prints is encoded once per group and not once per
 * connection. The gateway hands each connection's socket to wire(): a message is then written as
 * one WebSocket frame straight to the socket (the frame's header, sequence and head in one small
 * buffer, then the shared body, in one writev), below `ws`, whose own frames (pings, close) go to
 * the same socket in the same order. A connection that negotiated permessage-deflate gets a body
 * of DEFLATE_MIN_BYTES or more compressed, and compressed once: the body's deflate stream is
 * computed on its first sending and kept with it (one per window size the clients asked for), and
 * each connection's frame is its own sequence and head as a stored (uncompressed) deflate block
 * followed by that shared stream. The server never refers to an earlier message
 * (server_no_context_takeover), so every connection can inflate the shared bytes.
 */
import type { Duplex } from 'node:stream';
import zlib from 'node:zlib';
import type { WebSocket } from 'ws';
import type { AuthenticatedAccount } from '../entitlements.js';
import type { CheckedSubscription } from './channels.js';
import { CLOSE, closeReason, type StreamLimits } from '../api-contract/stream-protocol.js';

export interface Subscription extends CheckedSubscription {
  id: string;
  stream: Stream;
  /** Grouping key: subscriptions of one channel and query share one read per event. */
  key: string;
  /** prints: each print as the REST route's body (full), or as the array of its values in the order of the message's `fields` (compact). */
  format: PrintsFormat;
  /** premium_drift: each bucket last sent, by timestamp; levels: the levels last sent. */
  last: Map<number, string> | string | null;
  /** premium_drift: each replayed bucket last sent (a replay's, kept apart from the live ones). */
  replayLast?: Map<number, string>;
}

/** How a prints subscription receives each print (the subscribe message's `format`). */
export type PrintsFormat = 'full' | 'compact';

/** A message kept for a resume: its body is shared by every stream it was sent to. */
export interface Sent {
  seq: number;
  head: string;
  body: Buffer;
  at: number;
}

/** Bodies shorter than this are copied into the frame's first buffer (a copy costs less than a second buffer). */
const ONE_BUFFER_BYTES = 2048;

/** Bodies shorter than this are sent uncompressed to every connection. */
export const DEFLATE_MIN_BYTES = 1024;
/** zlib's level for the shared deflate streams (computed once per body: a higher level costs the server little and the clients less to inflate). */
const DEFLATE_LEVEL = 6;
/** What a sync flush ends a deflate stream with; permessage-deflate leaves it out of the frame. */
const DEFLATE_TAIL = Buffer.from([0x00, 0x00, 0xff, 0xff]);

/** A connection's socket below `ws`, and the window (bits) of its permessage-deflate, null when not negotiated. */
interface Wire {
  socket: Duplex;
  deflateBits: number | null;
}

const wires = new WeakMap<WebSocket, Wire>();

/** Registers a connection's socket (the one its upgrade came on) and its permessage-deflate window, if negotiated. */
export function wire(ws: WebSocket, socket: Duplex, deflateBits: number | null): void {
  wires.set(ws, { socket, deflateBits });
}

/** Each body's deflate streams, by window bits (kept as long as the body is). */
const deflatedBodies = new WeakMap<Buffer, Map<number, Buffer>>();

/** `body` as a raw deflate stream for a client window of `bits`, without the sync flush's tail; computed once per body and window. */
export function deflated(body: Buffer, bits: number): Buffer {
  let byBits = deflatedBodies.get(body);
  if (byBits === undefined) {
    byBits = new Map();
    deflatedBodies.set(body, byBits);
  }
  let out = byBits.get(bits);
  if (out === undefined) {
    // zlib's smallest raw window is 9 bits: a client that allows only 8 gets stored blocks (no back-references).
    const full = zlib.deflateRawSync(body, {
      level: bits < 9 ? 0 : DEFLATE_LEVEL,
      windowBits: Math.max(9, bits),
      memLevel: 9,
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
    });
    out = full.subarray(0, full.length - (full.subarray(-4).equals(DEFLATE_TAIL) ? 4 : 0));
    byBits.set(bits, out);
  }
  return out;
}

/**
 * The start of a text frame (FIN set; RSV1 when `compressed`) of `payload` bytes, with room for
 * `extra` bytes after it: the buffer and the offset of that room.
 */
function frameStart(payload: number, compressed: boolean, extra: number): { frame: Buffer; at: number } {
  const lengthBytes = payload < 126 ? 0 : payload < 65_536 ? 2 : 8;
  const frame = Buffer.allocUnsafe(2 + lengthBytes + extra);
  frame[0] = compressed ? 0xc1 : 0x81;
  if (lengthBytes === 0) frame[1] = payload;
  else if (lengthBytes === 2) {
    frame[1] = 126;
    frame.writeUInt16BE(payload, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(payload / 2 ** 32), 2);
    frame.writeUInt32BE(payload >>> 0, 6);
  }
  return { frame, at: 2 + lengthBytes };
}

export class Stream {
  seq = 0;
  readonly subscriptions = new Map<string, Subscription>();
  ws: WebSocket | null = null;
  /** When the connection closed (null while connected). */
  detachedAt: number | null = null;
  private sent: Sent[] = [];
  private head = 0;
  private nextSubscription = 1;

  constructor(
    readonly id: string,
    public account: AuthenticatedAccount,
    private readonly limits: StreamLimits,
    private readonly clock: () => number,
  ) {}

  newSubscriptionId(): string {
    const id = `s${this.nextSubscription}`;
    this.nextSubscription += 1;
    return id;
  }

  /** The next subscription number (a stream handed to another worker goes on from it). */
  get subscriptionCounter(): number {
    return this.nextSubscription;
  }

  set subscriptionCounter(next: number) {
    this.nextSubscription = next;
  }

  /**
   * Sends one message: `body` is the message's JSON after its sequence number and `head`
   * (`"type":…}`); a Buffer body is sent and kept as it is, shared with the other streams sent it.
   */
  send(body: string | Buffer, head = ''): void {
    this.seq += 1;
    const now = this.clock();
    const message: Sent = { seq: this.seq, head, body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body, at: now };
    this.sent.push(message);
    // Kept for the resume window, and at most resumeMessages of them.
    while (
      this.sent.length - this.head > this.limits.resumeMessages ||
      (this.sent[this.head]?.at ?? now) < now - this.limits.resumeWindowMs
    )
      this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.sent.length) {
      this.sent.splice(0, this.head);
      this.head = 0;
    }
    this.deliver(message);
  }

  /** Runs `sends` with the connection's socket corked: the messages it sends leave in one write. */
  together(sends: () => void): void {
    const socket = this.ws === null ? undefined : wires.get(this.ws)?.socket;
    socket?.cork();
    try {
      sends();
    } finally {
      socket?.uncork();
    }
  }

  private deliver(message: Sent): void {
    const ws = this.ws;
    if (ws === null || ws.readyState !== ws.OPEN) return;
    const start = Buffer.from(`{"seq":${message.seq},${message.head}`, 'utf8');
    const line = wires.get(ws);
    const compressed = line !== undefined && line.deflateBits !== null && message.body.length >= DEFLATE_MIN_BYTES;
    const body = compressed ? deflated(message.body, line.deflateBits ?? 15) : message.body;
    // Compressed: the sequence and head as a stored deflate block (a zero byte, then the length and its complement) before the shared stream.
    const prefix = compressed ? 5 + start.length : start.length;
    if (ws.bufferedAmount + prefix + body.length > this.limits.maxBufferedBytes) {
      ws.close(CLOSE.slowConsumer, closeReason(`slow_consumer: more than ${this.limits.maxBufferedBytes} bytes waiting to be read`));
      // The socket is cut: a client that does not read would never take the close frame.
      setTimeout(() => ws.terminate(), 1_000).unref();
      return;
    }
    if (line === undefined) {
      ws.send(Buffer.concat([start, body]), { binary: false });
      return;
    }
    const inline = body.length < ONE_BUFFER_BYTES;
    const { frame, at } = frameStart(prefix + body.length, compressed, prefix + (inline ? body.length : 0));
    let offset = at;
    if (compressed) {
      frame[offset] = 0x00;
      frame.writeUInt16LE(start.length, offset + 1);
      frame.writeUInt16LE(~start.length & 0xffff, offset + 3);
      offset += 5;
    }
    start.copy(frame, offset);
    const socket = line.socket;
    if (inline) {
      body.copy(frame, offset + start.length);
      socket.write(frame);
      return;
    }
    socket.cork();
    socket.write(frame);
    socket.write(body);
    socket.uncork();
  }

  /** Whether the messages after `lastSeq` are all still held. */
  canResumeFrom(lastSeq: number): boolean {
    if (!Number.isInteger(lastSeq) || lastSeq < 0 || lastSeq > this.seq) return false;
    const oldest = this.sent[this.head]?.seq ?? this.seq + 1;
    return lastSeq + 1 >= oldest;
  }

  /** The held messages after `lastSeq`, oldest first. */
  heldAfter(lastSeq: number): Sent[] {
    const held: Sent[] = [];
    for (let i = this.head; i < this.sent.length; i += 1) {
      const m = this.sent[i];
      if (m !== undefined && m.seq > lastSeq) held.push(m);
    }
    return held;
  }

  /** Takes over messages another worker sent on this stream (a stream handed over to this worker). */
  hold(messages: readonly Sent[], seq: number): void {
    this.sent = [...messages];
    this.head = 0;
    this.seq = seq;
  }

  /** Sends again the messages after `lastSeq` (canResumeFrom said they are held). */
  resendAfter(lastSeq: number): void {
    for (const m of this.heldAfter(lastSeq)) this.deliver(m);
  }
}
