/**
 * One client's stream: its subscriptions, the sequence number of its messages and the last of them,
 * kept so that a client that reconnects with the last sequence it read gets the rest (within the
 * resume window, without duplicates or gaps). One connection at a time: a resuming connection
 * replaces the previous one. A connection whose send buffer passes the limit is closed as a slow
 * consumer; its stream stays resumable like any other.
 *
 * A message is `{"seq":N,` + a head of this stream's own (its subscription id, or nothing) + a body
 * (`"type":…}`). A body built once for a group of subscriptions is one Buffer that every stream of
 * the group sends and keeps: the connection gets the message as two WebSocket frames, the short
 * text frame of its own sequence and head and the shared body as the message's final continuation
 * frame, so a batch of prints is encoded once per group and not once per connection.
 */
import type { WebSocket } from 'ws';
import type { AuthenticatedAccount } from '../entitlements.js';
import type { CheckedSubscription } from './channels.js';
import { CLOSE, closeReason, type StreamLimits } from './protocol.js';

export interface Subscription extends CheckedSubscription {
  id: string;
  stream: Stream;
  /** Grouping key: subscriptions of one channel and query share one read per event. */
  key: string;
  /** premium_drift: each bucket last sent, by timestamp; levels: the levels last sent. */
  last: Map<number, string> | string | null;
  /** premium_drift: each replayed bucket last sent (a replay's, kept apart from the live ones). */
  replayLast?: Map<number, string>;
}

/** A message kept for a resume: its body is shared by every stream it was sent to. */
export interface Sent {
  seq: number;
  head: string;
  body: Buffer;
  at: number;
}

/** Bodies shorter than this go in one frame with the sequence (a copy costs less than a second frame). */
const ONE_FRAME_BYTES = 2048;

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
    while (this.sent.length - this.head > this.limits.resumeMessages || (this.sent[this.head]?.at ?? now) < now - this.limits.resumeWindowMs) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.sent.length) {
      this.sent.splice(0, this.head);
      this.head = 0;
    }
    this.deliver(message);
  }

  private deliver(message: Sent): void {
    const ws = this.ws;
    if (ws === null || ws.readyState !== ws.OPEN) return;
    const start = `{"seq":${message.seq},${message.head}`;
    if (ws.bufferedAmount + start.length + message.body.length > this.limits.maxBufferedBytes) {
      ws.close(CLOSE.slowConsumer, closeReason(`slow_consumer: more than ${this.limits.maxBufferedBytes} bytes waiting to be read`));
      // The socket is cut: a client that does not read would never take the close frame.
      setTimeout(() => ws.terminate(), 1_000).unref();
      return;
    }
    if (message.body.length < ONE_FRAME_BYTES) {
      ws.send(`${start}${message.body.toString('utf8')}`);
      return;
    }
    ws.send(start, { fin: false });
    ws.send(message.body, { fin: true, binary: false });
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
