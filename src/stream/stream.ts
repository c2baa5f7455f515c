/**
 * One client's stream: its subscriptions, the sequence number of its messages and the last of them,
 * kept so that a client that reconnects with the last sequence it read gets the rest (within the
 * resume window, without duplicates or gaps). One connection at a time: a resuming connection
 * replaces the previous one. A connection whose send buffer passes the limit is closed as a slow
 * consumer; its stream stays resumable like any other.
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
}

/** A message kept for a resume: its body is the one string every stream sent it to shares. */
interface Sent {
  seq: number;
  body: string;
  at: number;
}

export class Stream {
  seq = 0;
  readonly subscriptions = new Map<string, Subscription>();
  ws: WebSocket | null = null;
  /** When the connection closed (null while connected). */
  detachedAt: number | null = null;
  private readonly sent: Sent[] = [];
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

  /**
   * Sends one message: `body` is the message's JSON after its opening brace's sequence number
   * (`"type":…}`), so a body built once serves many streams.
   */
  send(body: string): void {
    this.seq += 1;
    const now = this.clock();
    this.sent.push({ seq: this.seq, body, at: now });
    // Kept for the resume window, and at most resumeMessages of them.
    while (this.sent.length - this.head > this.limits.resumeMessages || (this.sent[this.head]?.at ?? now) < now - this.limits.resumeWindowMs) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.sent.length) {
      this.sent.splice(0, this.head);
      this.head = 0;
    }
    this.deliver(this.seq, body);
  }

  private deliver(seq: number, body: string): void {
    const ws = this.ws;
    if (ws === null || ws.readyState !== ws.OPEN) return;
    const text = `{"seq":${seq},${body}`;
    if (ws.bufferedAmount + text.length > this.limits.maxBufferedBytes) {
      ws.close(CLOSE.slowConsumer, closeReason(`slow_consumer: more than ${this.limits.maxBufferedBytes} bytes waiting to be read`));
      // The socket is cut: a client that does not read would never take the close frame.
      setTimeout(() => ws.terminate(), 1_000).unref();
      return;
    }
    ws.send(text);
  }

  /** Whether the messages after `lastSeq` are all still held. */
  canResumeFrom(lastSeq: number): boolean {
    if (!Number.isInteger(lastSeq) || lastSeq < 0 || lastSeq > this.seq) return false;
    const oldest = this.sent[this.head]?.seq ?? this.seq + 1;
    return lastSeq + 1 >= oldest;
  }

  /** Sends again the messages after `lastSeq` (canResumeFrom said they are held). */
  resendAfter(lastSeq: number): void {
    for (let i = this.head; i < this.sent.length; i += 1) {
      const m = this.sent[i];
      if (m !== undefined && m.seq > lastSeq) this.deliver(m.seq, m.body);
    }
  }
}
