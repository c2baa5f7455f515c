/**
 * Upgrades to /v1/stream that carry no key: a browser's, which authenticates with its first message
 * (within authTimeoutMs), or anyone's holding a socket for nothing. Each client network (the keyless
 * HTTP budget's notion: limits/rate-limiter.ts clientNetwork, a /24 of IPv4 or a /56 of IPv6) may
 * have at most `unauthenticatedPerNetwork` such connections waiting at once in a process, and an
 * unauthenticated upgrade is admitted only while the network's budget of requests without a valid
 * key has room (it is spent when the connection ends without a key, as a request without one is).
 * Beyond either, the upgrade is answered with HTTP 429 and the error body, before any WebSocket.
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiError } from '../errors.js';
import { errorBody } from '../middleware/errors.js';

/** Connections without a key still waiting for their auth message, per client network. */
export class WaitingForAuth {
  private readonly counts = new Map<string, number>();

  constructor(readonly perNetwork: number) {}

  /** Holds a place of the network (the release function, to call once), or null when they are all taken. */
  hold(network: string): (() => void) | null {
    const count = this.counts.get(network) ?? 0;
    if (count >= this.perNetwork) return null;
    this.counts.set(network, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(network) ?? 1) - 1;
      if (left > 0) this.counts.set(network, left);
      else this.counts.delete(network);
    };
  }

  /** Places held by a network (tests, metrics). */
  held(network: string): number {
    return this.counts.get(network) ?? 0;
  }
}

/** Answers an upgrade request with a plain HTTP error (the REST error body, Retry-After when it has one) and closes the socket. */
export function refuseUpgrade(socket: Duplex, error: ApiError, requestId: string): void {
  const body = JSON.stringify(errorBody(error, requestId));
  const retryAfter = error.retryAfterMs !== null ? `Retry-After: ${Math.max(0, Math.ceil(error.retryAfterMs / 1000))}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}Connection: close\r\n\r\n${body}`,
  );
}
