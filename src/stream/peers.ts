/**
 * A stream's move between the HTTP workers of a cluster. A client that reconnects to resume its
 * stream may reach any worker (node's cluster places each connection); the worker that does not hold
 * the stream asks its peers, through the primary, for it. The worker holding it hands it over in its
 * own event order (hub.ts): the stream's subscriptions and their last snapshots, its sequence number,
 * the messages it holds after the client's last sequence, the last prints load it handled and its
 * position in the replay (the replayed time sent to it, replay.ts), so that a replay goes on from
 * exactly the message after the client's last on the new worker too; it
 * closes its connection (4409, replaced) and forgets the stream. The new worker goes on from there, so
 * the sequence numbers mean the same on every worker and a resume within the window has neither gaps
 * nor duplicates wherever it lands.
 *
 * One process (no cluster) has no peers: a stream it does not hold cannot be resumed (4410).
 */
import type { Worker } from 'node:cluster';
import type { ReplayPosition } from './replay.js';

/** A subscription as handed over. */
export interface HandedSubscription {
  id: string;
  channel: string;
  query: Record<string, unknown>;
  symbols: string[] | null;
  /** prints: the subscription's format (stream.ts PrintsFormat; absent: full). */
  format?: 'full' | 'compact';
  /** premium_drift: [timestamp, bucket JSON] pairs last sent; levels: the levels JSON last sent. */
  last: [number, string][] | string | null;
  /** premium_drift: [timestamp, bucket JSON] pairs last sent by the replay. */
  replayLast?: [number, string][];
}

/** A stream as handed over from one worker to another. */
export interface HandedStream {
  id: string;
  accountId: string;
  seq: number;
  nextSubscription: number;
  subscriptions: HandedSubscription[];
  /** The messages after the client's last sequence, oldest first. */
  messages: { seq: number; head: string; body: string; at: number }[];
  /** The last prints load the giving worker handled (every worker handles the same loads, in commit order). */
  lastEvent: string | null;
  /** Where the stream stands in the replay (replay.ts: every worker replays on one clock), or null. */
  replay: ReplayPosition | null;
}

export interface StreamClaim {
  streamId: string;
  accountId: string;
  lastSeq: number;
}

/** What a worker's hub uses to reach the other workers. */
export interface StreamPeers {
  /** The stream from whichever peer holds it, or null (none does, or none answered in time). */
  claim(claim: StreamClaim): Promise<HandedStream | null>;
  /** Answers the peers' claims. */
  serve(handler: (claim: StreamClaim) => Promise<HandedStream | null>): void;
}

/** Messages between a worker and the primary. */
type PeerMessage =
  ({ oads: 'stream'; op: 'claim'; id: number } & StreamClaim) | { oads: 'stream'; op: 'handed'; id: number; stream: HandedStream | null };

function isPeerMessage(message: unknown): message is PeerMessage {
  return typeof message === 'object' && message !== null && (message as { oads?: unknown }).oads === 'stream';
}

/** How long a claim waits for the peers' answers. */
export const CLAIM_TIMEOUT_MS = 5_000;

interface Channel {
  send(message: unknown): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/** A cluster worker's peers: claims go to the primary, which asks the other workers. */
export class ClusterStreamPeers implements StreamPeers {
  private readonly pending = new Map<number, (stream: HandedStream | null) => void>();
  private nextId = 1;
  private handler: ((claim: StreamClaim) => Promise<HandedStream | null>) | null = null;

  constructor(private readonly channel: Channel) {
    channel.on('message', (message) => {
      if (!isPeerMessage(message)) return;
      if (message.op === 'handed') {
        const resolve = this.pending.get(message.id);
        this.pending.delete(message.id);
        resolve?.(message.stream);
        return;
      }
      const { id, streamId, accountId, lastSeq } = message;
      const answer = (stream: HandedStream | null): void => {
        this.channel.send({ oads: 'stream', op: 'handed', id, stream } satisfies PeerMessage);
      };
      if (!this.handler) answer(null);
      else this.handler({ streamId, accountId, lastSeq }).then(answer, () => answer(null));
    });
  }

  claim(claim: StreamClaim): Promise<HandedStream | null> {
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve(null);
      }, CLAIM_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, (stream) => {
        clearTimeout(timer);
        resolve(stream);
      });
      this.channel.send({ oads: 'stream', op: 'claim', id, ...claim } satisfies PeerMessage);
    });
  }

  serve(handler: (claim: StreamClaim) => Promise<HandedStream | null>): void {
    this.handler = handler;
  }
}

/**
 * The primary's side: a claim from one worker is asked of every other live worker; the first
 * stream handed back answers it, or null once all have said they do not hold it (or the time is up).
 */
export class StreamClaimRelay {
  private readonly asked = new Map<number, { from: Worker; fromId: number; waiting: number; timer: NodeJS.Timeout }>();
  private nextId = 1;

  constructor(private readonly workers: () => Worker[]) {}

  /** Handles one worker's message (call for each message of each worker). */
  heard(from: Worker, message: unknown): void {
    if (!isPeerMessage(message)) return;
    if (message.op === 'claim') {
      const others = this.workers().filter((w) => w !== from && !w.isDead());
      if (others.length === 0) {
        this.answer(from, message.id, null);
        return;
      }
      const id = this.nextId;
      this.nextId += 1;
      const timer = setTimeout(() => this.finish(id, null), CLAIM_TIMEOUT_MS);
      timer.unref();
      this.asked.set(id, { from, fromId: message.id, waiting: others.length, timer });
      for (const worker of others) worker.send({ ...message, id } satisfies PeerMessage, undefined, () => undefined);
      return;
    }
    const claim = this.asked.get(message.id);
    if (!claim) return;
    claim.waiting -= 1;
    if (message.stream !== null || claim.waiting === 0) this.finish(message.id, message.stream);
  }

  private finish(id: number, stream: HandedStream | null): void {
    const claim = this.asked.get(id);
    if (!claim) return;
    this.asked.delete(id);
    clearTimeout(claim.timer);
    this.answer(claim.from, claim.fromId, stream);
  }

  private answer(worker: Worker, id: number, stream: HandedStream | null): void {
    if (!worker.isDead()) worker.send({ oads: 'stream', op: 'handed', id, stream } satisfies PeerMessage, undefined, () => undefined);
  }
}
