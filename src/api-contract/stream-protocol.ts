/**
 * The stream protocol's stated limits and close codes (the AsyncAPI document, asyncapi.ts, states
 * the same values from here).
 */

/** The streams' path (a WebSocket upgrade; a plain request is answered 426). */
export const STREAM_PATH = '/v1/stream';

export interface StreamLimits {
  /** Largest message a client may send, bytes (a larger one closes the connection with 1009). */
  maxClientMessageBytes: number;
  /** Largest message the server sends, bytes: a batch of prints is split to keep under it. */
  maxServerMessageBytes: number;
  /** Subscriptions one connection may hold. */
  maxSubscriptions: number;
  /** Bytes queued for a client (ws bufferedAmount) beyond which it is closed as a slow consumer. */
  maxBufferedBytes: number;
  /** Connections an account may open per window; one more starts a cooldown. */
  connectionsPerWindow: number;
  connectionWindowMs: number;
  cooldownMs: number;
  /** A heartbeat ping this often; a client that has not answered the previous one is closed. */
  pingIntervalMs: number;
  /** How long a connection without an Authorization header may take to send its auth message. */
  authTimeoutMs: number;
  /**
   * Connections without an Authorization header that may wait for their auth message at once, per
   * client network and process (stream/unauthenticated.ts); one more upgrade is answered HTTP 429.
   */
  unauthenticatedPerNetwork: number;
  /** How long a closed stream can be resumed, and how many of its last messages are kept for it. */
  resumeWindowMs: number;
  resumeMessages: number;
  /** The levels channel sends a snapshot this often, and when new prints change it. */
  levelsCadenceMs: number;
}

export const DEFAULT_STREAM_LIMITS: Readonly<StreamLimits> = Object.freeze({
  maxClientMessageBytes: 16 * 1024,
  maxServerMessageBytes: 256 * 1024,
  maxSubscriptions: 10,
  maxBufferedBytes: 1024 * 1024,
  connectionsPerWindow: 20,
  connectionWindowMs: 10 * 60_000,
  cooldownMs: 10 * 60_000,
  pingIntervalMs: 15_000,
  authTimeoutMs: 10_000,
  unauthenticatedPerNetwork: 16,
  resumeWindowMs: 60_000,
  resumeMessages: 20_000,
  levelsCadenceMs: 60_000,
});

/** Close codes (4000-4999 are the application's; the reason says more, within 123 bytes). */
export const CLOSE = {
  /** The service is stopping. */
  goingAway: 1001,
  /** A client message over maxClientMessageBytes (sent by ws itself). */
  tooBig: 1009,
  internal: 1011,
  /** A message that is not JSON, or not a message of the protocol, before authentication. */
  badMessage: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  /** No auth message within authTimeoutMs. */
  authTimeout: 4408,
  /** The stream was resumed by another connection (one connection per stream). */
  replaced: 4409,
  /** No worker holds the stream asked to resume (for this account, with the messages after last_seq): unknown, or its window has passed. */
  resumeUnavailable: 4410,
  /** The client did not read fast enough: its send buffer passed maxBufferedBytes. */
  slowConsumer: 4413,
  /** rate_limited, burst_limited or cooldown; the reason names the code and the wait. */
  rateLimited: 4429,
} as const;

/** A close reason within the protocol's 123 bytes. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}
