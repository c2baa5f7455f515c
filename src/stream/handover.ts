/**
 * A stream as one worker of a cluster hands it to another (peers.ts): its numbering, its
 * subscriptions with what each was last sent, the messages held for a resume, the last load handled
 * for it and its replay position; and the stream the receiving worker builds from that. The hub
 * (hub.ts) decides when, in its event order.
 */
import type { OperationId, OperationSpec } from '../api-contract/openapi.js';
import type { StreamLimits } from '../api-contract/stream-protocol.js';
import { channelNamed } from './channels.js';
import type { HandedStream } from './peers.js';
import type { ReplayPosition } from './replay.js';
import { Stream, type Sent } from './stream.js';

/** The stream as handed over: the messages after `lastSeq`, the last load handled for it and its replay position. */
export function handedStream(stream: Stream, lastSeq: number, lastEvent: string | null, replay: ReplayPosition | null): HandedStream {
  return {
    id: stream.id,
    accountId: stream.account.id,
    seq: stream.seq,
    nextSubscription: stream.subscriptionCounter,
    subscriptions: [...stream.subscriptions.values()].map((sub) => ({
      id: sub.id,
      channel: sub.channel.name,
      query: sub.query,
      symbols: sub.symbols,
      format: sub.format,
      last: sub.last instanceof Map ? [...sub.last.entries()] : sub.last,
      ...(sub.replayLast ? { replayLast: [...sub.replayLast.entries()] } : {}),
    })),
    messages: stream.heldAfter(lastSeq).map((m) => ({ seq: m.seq, head: m.head, body: m.body.toString('utf8'), at: m.at })),
    lastEvent,
    replay,
  };
}

/** The stream a handed one becomes on this worker, for the account its connection authenticated (a channel no longer known is left out). */
export function adoptedStream(
  handed: HandedStream,
  account: Stream['account'],
  limits: StreamLimits,
  clock: () => number,
  operations: ReadonlyMap<OperationId, OperationSpec>,
): Stream {
  const stream = new Stream(handed.id, account, limits, clock);
  stream.hold(
    handed.messages.map((m): Sent => ({ seq: m.seq, head: m.head, body: Buffer.from(m.body, 'utf8'), at: m.at })),
    handed.seq,
  );
  stream.subscriptionCounter = handed.nextSubscription;
  for (const h of handed.subscriptions) {
    const channel = channelNamed(h.channel);
    const operation = channel ? operations.get(channel.rules) : undefined;
    if (!channel || !operation) continue;
    stream.subscriptions.set(h.id, {
      channel,
      operation,
      query: h.query,
      symbols: h.symbols,
      id: h.id,
      stream,
      key: `${channel.name}:${JSON.stringify(h.query)}`,
      format: h.format === 'compact' ? 'compact' : 'full',
      last: Array.isArray(h.last) ? new Map(h.last) : h.last,
      ...(h.replayLast ? { replayLast: new Map(h.replayLast) } : {}),
    });
  }
  return stream;
}
